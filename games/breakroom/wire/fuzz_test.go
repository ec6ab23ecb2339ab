package wire

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"arena/games"
	"arena/games/canon"
)

// FuzzDecode: no input panics; every refusal is a *games.Error with one of the decoder's codes;
// what the socket's decoder takes, the HTTP decoder of its kind takes to the same message (but
// an unsigned paid, which only the socket takes); a
// move's body is a strict JSON object holding no envelope member.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		joinM,
		`{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"action":"cooperate","message":"hi"}`,
		`{"type":"state","v":0,"match_id":"m_1"}`,
		`{"type":"feedback","v":0,"match_id":"m_1","text":"fun","rating":4}`,
		`{"type":"paid","v":0,"payment_hash":"ab","payout_lnaddr":"a@b.c"}`,
		`{"type":"move","v":1}`, `{"type":"x","v":0}`, `{}`, `[]`, `nul`, `{"type":"move","v":0,"round":-0}`,
	} {
		f.Add([]byte(s))
	}
	codes := []string{CodeBadRequest, CodeBadVersion, CodeTooLarge}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Decode(raw)
		if err != nil {
			var ge *games.Error
			if !errors.As(err, &ge) || !slices.Contains(codes, ge.Code) || m != nil {
				t.Fatalf("refusal %v (%T), message %v", err, err, m)
			}
			return
		}
		var match string
		if mv, ok := m.(*Move); ok {
			match = mv.MatchID
			v, err := canon.Parse(mv.Body)
			if err != nil || v.Kind() != canon.Object {
				t.Fatalf("body %q: %v", mv.Body, err)
			}
			for i := 0; i < v.Len(); i++ {
				if name, _ := v.Member(i); slices.Contains([]string{"type", "v", "match_id", "round", "turn"}, name) {
					t.Fatalf("body %s holds envelope member %q", mv.Body, name)
				}
			}
		}
		if s, ok := m.(*StateRequest); ok {
			match = s.MatchID
		}
		if fb, ok := m.(*Feedback); ok {
			match = fb.MatchID
		}
		if p, ok := m.(*Paid); ok && (p.AuthorPubkey == "" || p.Nonce == "" || p.Sig == "") {
			return // POST /v0/paid is signed like a join; the socket's paid is not
		}
		h, err := DecodeHTTP(m.Kind(), match, raw)
		if err != nil {
			t.Fatalf("socket took %s, HTTP refused it: %v", raw, err)
		}
		a, _ := json.Marshal(m)
		b, _ := json.Marshal(h)
		if string(a) != string(b) {
			t.Fatalf("socket %s, HTTP %s", a, b)
		}
	})
}
