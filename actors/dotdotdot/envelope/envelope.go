// Package envelope is the DOTDOTDOT §4 envelope: what an agent is sent for each move (and a
// walk-in collects, byte for byte), signed with the instance key. The channels that deliver a
// prompt (the walk-ins' mailboxes, the A2A channel: package dotdotdot) sign it; the generic seat
// actor never does.
package envelope

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"arena/games"
	"arena/games/canon"
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

// Sign builds and signs the envelope of prompt p in round (§4): sig = "ed25519:" +
// hex(ed25519(key, SHA-256(JCS(envelope without sig)))), the commitment rule of §7.2-§7.3 applied
// to the envelope (docs/protocol-notes.md "actors: envelope signature"). The returned bytes are
// the JCS form of the whole envelope, sig included, so every copy is byte-identical.
func Sign(key ed25519.PrivateKey, round string, p games.Prompt) ([]byte, error) {
	env := envelope{V: 1, Round: round, Turn: p.Move.Turn, Phase: p.Move.Phase, Exchange: p.Move.Exchange,
		Seat: p.Seat, Deadline: FormatDeadline(p.Deadline), State: p.State.Bytes(), Inbox: p.Inbox}
	if len(env.State) == 0 {
		env.State = json.RawMessage(`{}`)
	}
	if env.Inbox == nil {
		env.Inbox = []json.RawMessage{}
	}
	unsigned, err := canon.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("envelope: %s seat %d: %w", round, p.Seat, err)
	}
	digest := canon.Digest(unsigned)
	env.Sig = canon.FormatSig(ed25519.Sign(key, digest[:]))
	out, err := canon.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("envelope: %s seat %d: %w", round, p.Seat, err)
	}
	return out, nil
}

// Verify checks an envelope's sig with the instance public key, as an agent does (§4).
func Verify(pub ed25519.PublicKey, raw []byte) error {
	var head struct {
		Sig string `json:"sig"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return fmt.Errorf("envelope: verify: %w", err)
	}
	sig, err := canon.ParseSig(head.Sig)
	if err != nil {
		return fmt.Errorf("envelope: verify: %w", err)
	}
	unsigned, err := canon.CanonicalWithout(raw, "sig")
	if err != nil {
		return fmt.Errorf("envelope: verify: %w", err)
	}
	digest := canon.Digest(unsigned)
	if !canon.Verify(pub, digest[:], sig) {
		return errors.New("envelope: verify: bad signature")
	}
	return nil
}
