package feed

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"arena/games"
)

// FuzzMapper: any engine event, of any type, visibility and payload, maps without a panic to
// nothing, to an empty Event that says why, or to a whole Event of a §15.3 type; a private event
// maps to nothing but a recorded message, whose text never reaches the feed.
func FuzzMapper(f *testing.F) {
	f.Add("message_recorded", false, `{"round":1,"seat":"A","text":"secret words here"}`)
	f.Add("round_revealed", true, `{"round":1,"valuations":{"A":6900,"B":3100},"claims":{"A":6900,"B":null},"asks":{"A":1,"B":2},"escalate":{"A":0,"B":2},"pot":300000,"overshoot":true,"deviations":{"A":1,"B":1},"pay":{"A":0,"B":0},"spill":300000,"balances":{"A":1,"B":2},"claim_kind":{"A":"truthful","B":"no_claim"},"salts":{"A":{"claim":"x","offer":"y"},"B":{"claim":"x","offer":"y"}}}`)
	f.Add("match_started", true, `{"rules_version":"warden.claims/1","seed_hash":"sha256:00","params":{"rounds":5,"message_ms":20000}}`)
	f.Add("choices_revealed", true, `{"round":1,"choices":{"A":"DEFECT","B":"COOPERATE"},"outcome":"BETRAYAL","salts":{"A":"a","B":"b"}}`)
	f.Add("timeout", true, `{"round":2,"step":"offer","seat":"B","default_applied":"ask0"}`)
	f.Add("offer_recorded", false, `{"round":1,"seat":"A","ask_bps":4000,"escalate":3}`)
	f.Add("step_opened", true, `{"round":1,"step":"claim","deadline":"2026-11-30T03:10:20.000Z"}`)
	f.Fuzz(func(t *testing.T, typ string, public bool, payload string) {
		vis := games.Private(1)
		if public {
			vis = games.Public
		}
		ev := games.Event{Seq: 1, Round: "wm_7f3a9c21e0b4d856", Turn: 1, At: "2026-11-30T03:10:00.000Z", Type: typ,
			Visibility: vis, Payload: json.RawMessage(payload)}
		for _, e := range NewMapper("wm_7f3a9c21e0b4d856", "warden.claims").Map(ev) {
			if e.Err() != nil {
				if e.Type() != "" {
					t.Fatalf("an event with an error has type %q", e.Type())
				}
				continue
			}
			if !slices.Contains(allTypes, e.Type()) {
				t.Fatalf("type %q", e.Type())
			}
			if !public && e.Type() != TypeMessageSent {
				t.Fatalf("private %s mapped to %s", typ, e.Type())
			}
			env, err := e.Envelope(0)
			if err != nil || !json.Valid(env.Data) {
				t.Fatalf("envelope %v %s", err, env.Data)
			}
			if e.Type() == TypeMessageSent && strings.Contains(string(env.Data), `"text"`) {
				t.Fatalf("message_sent carries a text: %s", env.Data)
			}
		}
	})
}
