package market

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// One deadline written in different spellings of the same instant seals identical Terms: the
// same canonical bytes, the same Terms Hash, the normalized UTC spelling inside the Terms and at
// the top level, and the hash recomputes from the Terms exactly as returned ("The Terms Hash is
// reproducible").
func TestTermsHashSpellings(t *testing.T) {
	spellings := []string{
		"2026-03-01T13:00:00.000Z",
		"2026-03-01T13:00:00Z",
		"2026-03-01T13:00:00.000000000Z",
		"2026-03-01T14:00:00+01:00",
		"2026-03-01T08:30:00.000-04:30",
		"2026-03-01t13:00:00z",
		"2026-03-01T13:00:00.000+00:00",
	}
	cfg := testConfig()
	cfg.StartingAssets = []Holding{{"credits", 100}, {"wood", 200}, {"stone", 50}}
	st := newMarket(t, cfg)
	enrol(t, st, "owner-a")
	b := enrol(t, st, "owner-b")
	var first exView
	for i, s := range spellings {
		var x exView
		// The goods are written in another order and split: normalized, they are one Terms.
		offered := goods("wood", 4, "stone", 1, "wood", 6)
		if i%2 == 1 {
			offered = goods("stone", 1, "wood", 10)
		}
		must(t, st, "owner-a", t0, proposeBody("offer-"+s, b, offered, goods("credits", 40), s), &x)
		if x.ExpiresAt != "2026-03-01T13:00:00.000Z" {
			t.Errorf("%s: expiresAt %s", s, x.ExpiresAt)
		}
		d := sha256.Sum256(x.Terms)
		if hex.EncodeToString(d[:]) != x.TermsHash {
			t.Errorf("%s: SHA-256 of the returned Terms is not the Terms Hash", s)
		}
		if i == 0 {
			first = x
			want := `{"counterpartyPlayerId":"` + b + `","expiresAt":"2026-03-01T13:00:00.000Z","offered":[{"assetId":"stone","quantity":1},{"assetId":"wood","quantity":10}],"proposerPlayerId":"` + x.ProposerPlayerID + `","protocolVersion":2,"requested":[{"assetId":"credits","quantity":40}]}`
			if string(x.Terms) != want {
				t.Errorf("canonical Terms\n got %s\nwant %s", x.Terms, want)
			}
			continue
		}
		if string(x.Terms) != string(first.Terms) || x.TermsHash != first.TermsHash {
			t.Errorf("%s: Terms %s hash %s, want those of %s", s, x.Terms, x.TermsHash, spellings[0])
		}
		if x.ExchangeID == first.ExchangeID {
			t.Errorf("%s: two proposals share an exchangeId", s)
		}
	}
	// One more millisecond is another instant and another hash.
	var y exView
	must(t, st, "owner-a", t0, proposeBody("offer-ms", b, goods("stone", 1, "wood", 10), goods("credits", 40), "2026-03-01T13:00:00.001Z"), &y)
	if y.TermsHash == first.TermsHash {
		t.Error("a deadline one millisecond later hashes alike")
	}
}

// The idempotency hash is of the canonical parsed Command: a retry spelling the deadline or
// the goods differently is the same Command and replays; other content is command_id_reuse.
func TestRetrySpelledDifferently(t *testing.T) {
	st := newMarket(t, testConfig())
	enrol(t, st, "owner-a")
	b := enrol(t, st, "owner-b")
	first := must(t, st, "owner-a", t0, proposeBody("offer-01", b, goods("wood", 10), goods("credits", 40), "2026-03-01T13:00:00Z"), nil)
	again := must(t, st, "owner-a", t0.Add(1), ` { "action":"proposeExchange", "protocolVersion":2, "commandId":"offer-01", "counterpartyPlayerId":"`+b+`",
		"offered":[{"quantity":4,"assetId":"wood"},{"assetId":"wood","quantity":6}], "requested":[{"assetId":"credits","quantity":40}], "expiresAt":"2026-03-01T14:00:00+01:00"}`, nil)
	if string(again.raw) != string(first.raw) {
		t.Fatalf("retry\n got %s\nwant %s", again.raw, first.raw)
	}
	refused(t, st, "owner-a", t0, proposeBody("offer-01", b, goods("wood", 10), goods("credits", 41), later), CodeCommandIDReuse)
	// Command IDs are scoped to the Player: b may use the same one.
	must(t, st, "owner-b", t0, transferBody("offer-01", st.order[0], "wood", 1), nil)
}
