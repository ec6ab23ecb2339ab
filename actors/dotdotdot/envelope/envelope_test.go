package envelope

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// The envelope's canonical form is written out by hand here (RFC 8785: members sorted by
// UTF-16 code units, no whitespace), independently of the code under test.
func TestSignEnvelopeMatchesHandWrittenCanonicalForm(t *testing.T) {
	// RFC 8032 §7.1 TEST 1 secret key.
	seed, _ := hex.DecodeString("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
	key := ed25519.NewKeyFromSeed(seed)
	p := games.Prompt{Seat: 4, Move: games.Move{Turn: 3, Phase: "talk", Exchange: 2},
		Deadline: time.Date(2026, 9, 9, 14, 3, 20, 0, time.FixedZone("CEST", 2*3600)),
		State:    games.RawDoc([]byte(`{ "b": [true, null], "a": 1.0 }`)),
		Inbox:    []json.RawMessage{json.RawMessage(`{"type":"call","text":"é<>"}`)}}
	got, err := Sign(key, "T-9931", p)
	if err != nil {
		t.Fatal(err)
	}
	unsigned := `{"deadline":"2026-09-09T12:03:20Z","exchange":2,"inbox":[{"text":"é<>","type":"call"}],` +
		`"phase":"talk","round":"T-9931","seat":4,"state":{"a":1,"b":[true,null]},"turn":3,"v":1}`
	digest := sha256.Sum256([]byte(unsigned))
	sig := "ed25519:" + hex.EncodeToString(ed25519.Sign(key, digest[:]))
	want := strings.Replace(unsigned, `"seat":4,`, `"seat":4,"sig":"`+sig+`",`, 1)
	if string(got) != want {
		t.Fatalf("envelope\n got %s\nwant %s", got, want)
	}
	pub := key.Public().(ed25519.PublicKey)
	if err := Verify(pub, got); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	tampered := strings.Replace(string(got), `"seat":4`, `"seat":5`, 1)
	if err := Verify(pub, []byte(tampered)); err == nil {
		t.Fatal("a tampered envelope verified")
	}
	other := ed25519.NewKeyFromSeed(make([]byte, 32)).Public().(ed25519.PublicKey)
	if err := Verify(other, got); err == nil {
		t.Fatal("an envelope verified under another key")
	}
}

func TestEnvelopeOmitsExchangeOutsideTalk(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	got, err := Sign(key, "T-1", games.Prompt{Seat: 1, Move: games.Move{Turn: 1, Phase: "commit"},
		Deadline: time.Date(2026, 9, 9, 14, 0, 0, 250_000_000, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "exchange") || !strings.Contains(string(got), `"deadline":"2026-09-09T14:00:00.25Z"`) ||
		!strings.Contains(string(got), `"inbox":[],`) || !strings.Contains(string(got), `"state":{}`) {
		t.Fatalf("envelope %s", got)
	}
}
