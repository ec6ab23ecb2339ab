package blitz

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"arena/games"
)

// The running hashes gather events a few KiB at a time (transcript.go runningHash). Every anchor a varied round requests must still be an
// independent SHA-256 over JCS of the events it covers: "turn" (after turn 3's settle) over the transcript up to
// where it was requested, "exchange" over the events from its exchange.started, "transcript" over the
// whole transcript (= Result.TranscriptHash). The rounds carry 600-character lines, so single
// events and steps run past a batch; two matches run interleaved.

// anchorCheck finds, for anchor a requested in a step whose events end at events[end-1], the
// prefix (turn, transcript) or the exchange span it covers.
func anchorCovered(events []games.Event, begin, end int, a games.AnchorRequest) bool {
	for k := end; k >= begin; k-- {
		switch a.Kind {
		case "turn", "transcript":
			if h, err := hashEvents(events[:k]); err == nil && h == a.Hash {
				return true
			}
		case "exchange":
			s := -1
			for i := k - 1; i >= 0; i-- {
				if events[i].Type == "exchange.started" {
					s = i
					break
				}
			}
			if s >= 0 {
				if h, err := hashEvents(events[s:k]); err == nil && h == a.Hash {
					return true
				}
			}
		default:
			return true // opened, anchored elsewhere (lifecycle_test)
		}
	}
	return false
}

type anchorRun struct {
	m      *Match
	g      *roundGen
	events []games.Event
	checks map[string]int
}

func (r *anchorRun) take(t *testing.T, st games.Step) {
	begin := len(r.events)
	r.events = append(r.events, st.Events...)
	for _, a := range st.Anchors {
		if !anchorCovered(r.events, begin, len(r.events), a) {
			t.Fatalf("anchor %s #%d %s covers no span of the events", a.Kind, a.Seq, hex.EncodeToString(a.Hash[:8]))
		}
		r.checks[a.Kind]++
	}
}

// phase plays one phase of r: false once revealed.
func (r *anchorRun) phase(t *testing.T) bool {
	dl, ok := r.m.Deadline()
	if !ok {
		return false
	}
	r.take(t, r.m.Advance(dl))
	mv := r.m.Phase()
	for _, tk := range r.g.answers(r.m) {
		in := *tk.In
		if mv.Phase == "talk" && in.Kind == "answer" && r.g.r.IntN(3) == 0 {
			long := strings.Repeat("é", 599) + "x"
			in.Body = json.RawMessage(`{"messages":[` + strings.Repeat(`{"type":"public","text":"`+long+`"},`, 7) +
				`{"type":"private","to":` + []string{"2", "3"}[in.Seat%2] + `,"text":"` + long + `"}]}`)
		}
		if st, err := r.m.Act(tk.At, in); err == nil {
			r.take(t, st)
		}
	}
	return true
}

func TestAnchorsCoverTheirEvents(t *testing.T) {
	var runs []*anchorRun
	for seed := uint64(1); seed <= 2; seed++ {
		keys := newTestKeys(6)
		gm, err := NewEngine(DefaultFees()).New(hostileSetup(seed), keys)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, &anchorRun{m: gm.(*Match), g: newRoundGen(seed, keys), checks: map[string]int{}})
	}
	for live := true; live; {
		live = false
		for _, r := range runs { // interleaved
			if r.phase(t) {
				live = true
			}
		}
	}
	for i, r := range runs {
		res, ok := r.m.Result()
		if !ok {
			t.Fatal("no result")
		}
		if th, err := TranscriptHash(r.events); err != nil || th != res.TranscriptHash {
			t.Fatalf("run %d: Result.TranscriptHash %s, the events hash to %s (%v)", i, res.TranscriptHash, th, err)
		}
		if r.checks["turn"] != 1 || r.checks["exchange"] < 15 || r.checks["transcript"] != 1 {
			t.Fatalf("run %d: anchors checked %v, want the turn-3 anchor, every exchange and the transcript", i, r.checks)
		}
	}
}
