package blitz

import (
	"encoding/json"
	"strings"
	"testing"

	"arena/games"
)

// inboxOf is seat's inbox items in the prompts of step st.
func inboxOf(st games.Step, seat int) []map[string]any {
	var out []map[string]any
	for _, p := range st.Prompts {
		if p.Seat != seat {
			continue
		}
		for _, it := range p.Inbox {
			var m map[string]any
			_ = json.Unmarshal(it, &m)
			out = append(out, m)
		}
	}
	return out
}

// untilPrompt advances until a step hands out seat's next prompt and returns that step.
func (h *harness) untilPrompt(seat int) games.Step {
	h.t.Helper()
	for range 50 {
		st := h.next()
		for _, p := range st.Prompts {
			if p.Seat == seat {
				return st
			}
		}
	}
	h.t.Fatalf("no prompt for seat %d", seat)
	return games.Step{}
}

// A BYO agent's commitments refused at submission (a bad signature, another round, a fifth
// submission) reach it in its next envelope's inbox as commitment.rejected with their code and
// index, as those refused at seal do: its answer's reply reaches nobody over A2A. A walk-in reads
// the same refusals in its reply's dropped[] and gets no inbox item for them.
func TestSubmissionRefusalsReachTheAgentsInbox(t *testing.T) {
	h := newHarness(t, byoSetup())
	h.to(1, "commit", 0)
	good := h.signed(1, base(1, 1, 1, 2, 10*ccd, 2))
	badSig := strings.Replace(h.signed(1, base(1, 2, 1, 2, 10*ccd, 2)), `"sig":"ed25519:`, `"sig":"ed25519:00`, 1)
	badSig = badSig[:strings.LastIndex(badSig, `"`)-2] + `"}`
	otherRound := h.signed(1, strings.Replace(base(1, 3, 1, 2, 10*ccd, 2), `"T-7"`, `"T-8"`, 1))
	subs := []string{badSig, otherRound, good, h.signed(1, base(1, 4, 1, 2, 10*ccd, 2)), h.signed(1, base(1, 5, 1, 2, 10*ccd, 2))}
	dropped := h.answer(1, `{"commitments":[`+strings.Join(subs, ",")+`]}`)
	if len(dropped) != 3 {
		t.Fatalf("dropped %+v, want the bad signature, the other round and the fifth", dropped)
	}
	h.answer(3, `{"commitments":[{"payee":2,"amount":1e6,"due":2,"condition":{"always":true}}]}`) // a walk-in's bad intent
	st := h.untilPrompt(1)
	var got []string
	for _, it := range inboxOf(st, 1) {
		if it["type"] == "commitment.rejected" {
			got = append(got, it["code"].(string)+"@"+jsonNum(it["index"]))
		}
	}
	want := []string{CodeInvalidSignature + "@0", CodeBadCommitment + "@1", CodeTooManySubmissions + "@4"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("seat 1's inbox refusals %v, want %v (inbox %v)", got, want, inboxOf(st, 1))
	}
	for _, it := range inboxOf(st, 3) {
		if it["type"] == "commitment.rejected" {
			t.Fatalf("a walk-in got an inbox item for a refusal its reply named: %v", it)
		}
	}
}

func jsonNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// An answer the seat's channel refused (the A2A channel's strict reader) uses the move up
// empty, so the phase can close early, and the seat hears why in its next envelope: the code
// and the move. It names the open move or is stale, and changes nothing then.
func TestRefusedAnswerIsHeardAndUsesTheMove(t *testing.T) {
	s := testSetup("short", 3, `{"mole":3,"task":{"kind":"broker","named":[]}}`)
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	mv := h.m.Phase()
	refusedIn := func(move games.Move, body string) error {
		_, err := h.m.Act(h.now.Add(1), games.Input{Seat: 1, Kind: "refused", Move: move, Body: json.RawMessage(body)})
		return err
	}
	if err := refusedIn(games.Move{Turn: 1, Phase: "talk", Exchange: 2}, `{"code":"bad_request","msg":"x"}`); err == nil {
		t.Fatal("a refusal for another move was taken")
	}
	if err := refusedIn(mv, `{"msg":"no code"}`); err == nil {
		t.Fatal("a refusal without a code was taken")
	}
	st, err := h.m.Act(h.now.Add(1), games.Input{Seat: 1, Kind: "refused", Move: mv,
		Body: json.RawMessage(`{"code":"bad_request","msg":"the answer is not strict JSON: duplicate member: \"amount\""}`)})
	if err != nil {
		t.Fatal(err)
	}
	var ev *games.Event
	for i := range st.Events {
		if st.Events[i].Type == "answer.refused" {
			ev = &st.Events[i]
		}
	}
	if ev == nil || ev.Visibility != "private:1" ||
		string(ev.Payload) != `{"code":"bad_request","exchange":1,"msg":"the answer is not strict JSON: duplicate member: \"amount\"","phase":"talk","turn":1}` {
		t.Fatalf("answer.refused event %+v", ev)
	}
	if _, err := h.act(1, "answer", `{"messages":[{"type":"public","text":"late"}]}`); err == nil {
		t.Fatal("the seat answered again after its answer was refused")
	}
	h.answer(2, `{}`)
	st = h.untilPrompt(1)
	found := false
	for _, it := range inboxOf(st, 1) {
		if it["type"] == "answer.refused" && it["code"] == "bad_request" && it["phase"] == "talk" && it["turn"] == float64(1) && it["exchange"] == float64(1) {
			found = true
		}
	}
	if !found {
		t.Fatalf("seat 1's next inbox lacks the refusal: %v", inboxOf(st, 1))
	}
}
