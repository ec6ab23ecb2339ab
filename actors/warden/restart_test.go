package warden

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"arena/games/warden/dilemma"
)

// TestRestartGraceExtendsTheStep: A commits, the Warden goes down, and the commit deadline
// passes while it is down. On restart the step re-opens with its full 60 s from the restart and
// the public log says step_extended {reason: server_restart}; B commits after the old deadline
// and is not defaulted. The transcript before the crash is the prefix of the one after.
func TestRestartGraceExtendsTheStep(t *testing.T) {
	r := newRig(t)
	const id = "wm_00000000000000f1"
	r.live(id, dilemma.GameID)
	r.mustAct(id, 1, 1, "commit", `{"choice":"DEFECT"}`)
	before := r.transcript(id)
	old := r.view(id, 0).Deadline
	r.crash()
	r.clock.Advance(90 * time.Second) // past the 60 s commit deadline, while down
	r.start()
	v := r.view(id, 2)
	if want := r.clock.Now().Add(60 * time.Second); !v.Deadline.Equal(want) || !v.Deadline.After(old) {
		t.Fatalf("deadline after restart %v, want %v (old %v)", v.Deadline, want, old)
	}
	if len(v.Legal) != 2 {
		t.Fatalf("B's legal moves after restart %+v", v.Legal)
	}
	after := r.transcript(id)
	if !bytes.Equal(before[:len(before)-1], after[:len(before)-1]) {
		t.Fatalf("the transcript changed across the restart:\n%s\n%s", before, after)
	}
	var ext *Envelope
	for _, e := range r.view(id, 0).Log {
		if e.Type == "step_extended" {
			ext = &e
		}
	}
	if ext == nil {
		t.Fatal("no step_extended in the public log")
	}
	var data map[string]any
	json.Unmarshal(ext.Data, &data)
	if data["reason"] != ReasonServerRestart || data["step"] != "commit" || data["round"] != float64(1) || data["deadline"] != stamp(v.Deadline) {
		t.Fatalf("step_extended %s", ext.Data)
	}
	r.mustAct(id, 2, 1, "commit", `{"choice":"DEFECT"}`)
	r.toDeadline(id) // the reveal pause
	s := r.view(id, 0).Settlement
	if s == nil || s.Seats[0].Gross != 600_000 || s.Seats[1].Gross != 600_000 || s.Seats[1].Stats["timeouts"] != 0 {
		t.Fatalf("settlement %+v (DEADLOCK, nobody defaulted)", s)
	}
	r.checkLedger(id, s)
	if got := r.feedTypes(id); !slices.Equal(got, []string{"match_started", "step_opened", "commit_sealed",
		"step_extended", "commit_sealed", "choices_revealed", "match_finished"}) {
		t.Fatalf("feed %v", got)
	}
}

// TestRestartBeforeDeadlineResumesExactly: a crash mid-step, restarted before its deadline,
// resumes with the same deadline and no extension: the transcript is unchanged.
func TestRestartBeforeDeadlineResumesExactly(t *testing.T) {
	r := newRig(t)
	const id = "wm_00000000000000f2"
	r.live(id, dilemma.GameID)
	r.clock.Advance(10 * time.Second)
	r.mustAct(id, 2, 1, "commit", `{"choice":"COOPERATE"}`)
	before, dl := r.transcript(id), r.view(id, 0).Deadline
	r.crash()
	r.clock.Advance(20 * time.Second)
	r.start()
	if after := r.transcript(id); !bytes.Equal(before, after) {
		t.Fatalf("transcript changed:\n%s\n%s", before, after)
	}
	if v := r.view(id, 0); !v.Deadline.Equal(dl) {
		t.Fatalf("deadline %v, want %v", v.Deadline, dl)
	}
	for _, e := range r.view(id, 0).Log {
		if e.Type == "step_extended" {
			t.Fatal("an extension without downtime past a deadline")
		}
	}
	r.toDeadline(id) // A silent: COOPERATE by default
	r.toDeadline(id)
	s := r.view(id, 0).Settlement
	if s == nil || s.Seats[0].Gross != 900_000 || s.Seats[0].Stats["timeouts"] != 1 {
		t.Fatalf("settlement %+v", s)
	}
	r.checkLedger(id, s)
}
