package actors

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gowebpki/jcs"

	"arena/games"
)

// envelope is the §4 envelope an agent is sent (and a walk-in collects, byte for byte):
// {v, round, turn, phase, exchange? (talk only), seat, deadline, state, inbox, sig}.
type envelope struct {
	V        int               `json:"v"`
	Round    string            `json:"round"`
	Turn     int               `json:"turn"`
	Phase    string            `json:"phase"`
	Exchange int               `json:"exchange,omitempty"`
	Seat     int               `json:"seat"`
	Deadline string            `json:"deadline"`
	State    json.RawMessage   `json:"state"`
	Inbox    []json.RawMessage `json:"inbox"`
	Sig      string            `json:"sig,omitempty"`
}

// FormatDeadline writes an instant as the envelope does: RFC 3339 UTC, truncated to the
// millisecond, with no fraction when it is whole seconds ("2026-09-09T14:03:20Z").
func FormatDeadline(t time.Time) string {
	return t.UTC().Truncate(time.Millisecond).Format(time.RFC3339Nano)
}

// SignEnvelope builds and signs the envelope of prompt p in round (§4): sig = "ed25519:" +
// hex(ed25519(key, SHA-256(JCS(envelope without sig)))), the commitment rule of §7.2-§7.3 applied
// to the envelope (docs/protocol-notes.md "actors: envelope signature"). The returned bytes are
// the JCS form of the whole envelope, sig included, so every copy is byte-identical.
func SignEnvelope(key ed25519.PrivateKey, round string, p games.Prompt) ([]byte, error) {
	env := envelope{V: 1, Round: round, Turn: p.Move.Turn, Phase: p.Move.Phase, Exchange: p.Move.Exchange,
		Seat: p.Seat, Deadline: FormatDeadline(p.Deadline), State: p.State, Inbox: p.Inbox}
	if len(env.State) == 0 {
		env.State = json.RawMessage(`{}`)
	}
	if env.Inbox == nil {
		env.Inbox = []json.RawMessage{}
	}
	unsigned, err := canonical(env)
	if err != nil {
		return nil, fmt.Errorf("actors: envelope %s seat %d: %w", round, p.Seat, err)
	}
	digest := sha256.Sum256(unsigned)
	env.Sig = "ed25519:" + hex.EncodeToString(ed25519.Sign(key, digest[:]))
	out, err := canonical(env)
	if err != nil {
		return nil, fmt.Errorf("actors: envelope %s seat %d: %w", round, p.Seat, err)
	}
	return out, nil
}

// VerifyEnvelope checks an envelope's sig with the instance public key (what an agent does, §4).
func VerifyEnvelope(pub ed25519.PublicKey, raw []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("actors: verify envelope: %w", err)
	}
	var sig string
	if err := json.Unmarshal(m["sig"], &sig); err != nil || len(sig) != len("ed25519:")+128 || sig[:8] != "ed25519:" {
		return fmt.Errorf("actors: verify envelope: malformed sig")
	}
	s, err := hex.DecodeString(sig[8:])
	if err != nil {
		return fmt.Errorf("actors: verify envelope: sig hex: %w", err)
	}
	delete(m, "sig")
	unsigned, err := canonical(m)
	if err != nil {
		return fmt.Errorf("actors: verify envelope: %w", err)
	}
	digest := sha256.Sum256(unsigned)
	if !ed25519.Verify(pub, digest[:], s) {
		return fmt.Errorf("actors: verify envelope: bad signature")
	}
	return nil
}

func canonical(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	c, err := jcs.Transform(b)
	if err != nil {
		return nil, fmt.Errorf("canonicalise: %w", err)
	}
	return c, nil
}
