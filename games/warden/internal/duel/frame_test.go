package duel

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"arena/games"
)

// TestNewFrame: seat 1 comes first whichever order the Setup lists the seats; the stake is S
// and the frame waits to open at Setup.Start.
func TestNewFrame(t *testing.T) {
	s := setup(400_000)
	s.Seats[0], s.Seats[1] = s.Seats[1], s.Seats[0]
	f := NewFrame(s)
	if f.Setup.Seats[0].Name != "Ada" || f.Setup.Seats[1].Name != "Bo" || s.Seats[0].Name != "Bo" {
		t.Fatalf("seats %+v (the caller's %+v)", f.Setup.Seats, s.Seats)
	}
	if f.Stake != 400_000 || f.Phase != PhaseNew || f.Seq != 0 || len(f.Events) != 0 {
		t.Fatalf("frame %+v", f)
	}
	if d, ok := f.Deadline(); !ok || !d.Equal(t0) {
		t.Fatalf("deadline %v %v, want Start", d, ok)
	}
	want := `{"A":{"agent":"0xA","name":"Ada","seat":1},"B":{"agent":"0xB","name":"Bo","seat":2}}`
	if b, _ := json.Marshal(f.Seats()); string(b) != want {
		t.Fatalf("seats %s, want %s", b, want)
	}
}

// TestEmit: events are numbered 1, 2, 3… under the match id, stamped in RFC 3339 UTC with
// milliseconds, their payload in JCS, and appended both to the transcript and to the step.
func TestEmit(t *testing.T) {
	f := NewFrame(setup(1))
	var step games.Step
	at := time.Date(2026, 11, 30, 4, 10, 0, 7_500_000, time.FixedZone("X", 3600))
	f.Emit(&step, at, games.Event{Turn: 2, Phase: "claim", Type: "claim_sealed", Visibility: games.Public}, map[string]any{"z": 1, "a": "x"})
	f.Emit(&step, at, games.Event{Turn: 2, Type: "claim_recorded", Visibility: games.Private(1)}, map[string]any{"big": int64(1) << 53})
	want := []games.Event{
		{Seq: 1, Round: "wm_1", Turn: 2, Phase: "claim", At: "2026-11-30T03:10:00.007Z", Type: "claim_sealed", Visibility: games.Public, Payload: json.RawMessage(`{"a":"x","z":1}`)},
		{Seq: 2, Round: "wm_1", Turn: 2, At: "2026-11-30T03:10:00.007Z", Type: "claim_recorded", Visibility: games.Private(1), Payload: json.RawMessage(`{}`)},
	}
	if !reflect.DeepEqual(f.Events, want) || !reflect.DeepEqual(step.Events, want) || f.Seq != 2 {
		t.Fatalf("events\n%+v\nstep\n%+v\nwant\n%+v", f.Events, step.Events, want)
	}
}

// TestAdmit: round_over once done, not_seated for a seat other than 1 and 2, bad_request for a
// kind other than answer, in that order; an answer of seat 1 or 2 is admitted.
func TestAdmit(t *testing.T) {
	f := NewFrame(setup(1))
	tests := []struct {
		name  string
		phase string
		in    games.Input
		code  string
		msg   string
	}{
		{"answer of seat 1", "commit", games.Input{Seat: 1, Kind: "answer"}, "", ""},
		{"answer of seat 2 before the opening", PhaseNew, games.Input{Seat: 2, Kind: "answer"}, "", ""},
		{"done", PhaseDone, games.Input{Seat: 9, Kind: "talk"}, games.CodeRoundOver, "the match is over"},
		{"seat 0", "commit", games.Input{Seat: 0, Kind: "talk"}, games.CodeNotSeated, "seat 0"},
		{"seat 3", "commit", games.Input{Seat: 3, Kind: "answer"}, games.CodeNotSeated, "seat 3"},
		{"talk", "commit", games.Input{Seat: 2, Kind: "talk"}, games.CodeBadRequest, `input kind "talk": Game T takes answers only`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.Phase = tt.phase
			err := f.Admit(tt.in, "Game T")
			if tt.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ge *games.Error
			if !errors.As(err, &ge) || ge.Code != tt.code || ge.Msg != tt.msg {
				t.Fatalf("got %v, want %s: %s", err, tt.code, tt.msg)
			}
		})
	}
}

// TestDeadline: Start before the opening, the phase's deadline in play, none once done.
func TestDeadline(t *testing.T) {
	f := NewFrame(setup(1))
	f.Phase, f.Due = "offer", t0.Add(30*time.Second)
	if d, ok := f.Deadline(); !ok || !d.Equal(f.Due) {
		t.Fatalf("in play: %v %v", d, ok)
	}
	f.Phase = PhaseDone
	if d, ok := f.Deadline(); ok || !d.IsZero() {
		t.Fatalf("done: %v %v", d, ok)
	}
}

// TestReturns: net is G − S and the result is by gross return: more wins, equal draws.
func TestReturns(t *testing.T) {
	f := NewFrame(setup(1_000_000))
	tests := []struct {
		gross [2]int64
		want  string
	}{
		{[2]int64{1_300_000, 300_000}, `{"A":{"gross_return":1300000,"net":300000,"result":"win"},"B":{"gross_return":300000,"net":-700000,"result":"loss"}}`},
		{[2]int64{900_000, 900_000}, `{"A":{"gross_return":900000,"net":-100000,"result":"draw"},"B":{"gross_return":900000,"net":-100000,"result":"draw"}}`},
		{[2]int64{0, 1}, `{"A":{"gross_return":0,"net":-1000000,"result":"loss"},"B":{"gross_return":1,"net":-999999,"result":"win"}}`},
	}
	for _, tt := range tests {
		if b, _ := json.Marshal(f.Returns(tt.gross)); string(b) != tt.want {
			t.Errorf("Returns(%v) = %s, want %s", tt.gross, b, tt.want)
		}
	}
}

// TestAbandon: an unfinished match ends at once with one public match_abandoned (the reason,
// "abandoned" when none is given, the seed, both stakes returned); its Result returns both
// stakes with both ranked 1 and never asks the game to settle; a second Abandon does nothing.
func TestAbandon(t *testing.T) {
	f := NewFrame(setup(600_000))
	f.Phase, f.Due = "commit", t0.Add(time.Minute)
	var step games.Step
	f.Emit(&step, t0, games.Event{Turn: 1, Phase: "commit", Type: "step_opened", Visibility: games.Public}, map[string]any{})
	st := f.Abandon(t0.Add(time.Second), "", 3)
	want := games.Event{Seq: 2, Round: "wm_1", Turn: 3, At: "2026-11-30T03:10:01.000Z", Type: "match_abandoned", Visibility: games.Public,
		Payload: json.RawMessage(`{"reason":"abandoned","returned":{"A":600000,"B":600000},"seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"}`)}
	if len(st.Events) != 1 || !reflect.DeepEqual(st.Events[0], want) || f.Phase != PhaseDone || !f.Due.IsZero() || f.Abandoned != "abandoned" {
		t.Fatalf("abandon: %+v, frame %+v", st.Events, f)
	}
	if again := f.Abandon(t0.Add(2*time.Second), "fault", 3); len(again.Events) != 0 || f.Abandoned != "abandoned" || f.Seq != 2 {
		t.Fatalf("second abandon: %+v", again)
	}
	r, ok := f.Result(func(*games.Result) { t.Fatal("settle called for an abandoned match") })
	wantR := games.Result{
		Standings: games.Rank(map[int]float64{1: 0, 2: 0}), Unit: Unit, Payouts: map[int]int64{1: 600_000, 2: 600_000},
		SeedHash:       "sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
		Seed:           "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		TranscriptHash: TranscriptHash(f.Events), Abandoned: "abandoned",
	}
	if !ok || !reflect.DeepEqual(r, wantR) || r.Standings[0].Rank != 1 || r.Standings[1].Rank != 1 {
		t.Fatalf("result %+v, want %+v", r, wantR)
	}
}

// TestResult: nothing before done; a played-out match's Result is the shared members plus what
// settle adds, settle called once.
func TestResult(t *testing.T) {
	f := NewFrame(setup(1))
	if _, ok := f.Result(func(*games.Result) { t.Fatal("settle before done") }); ok {
		t.Fatal("a result before done")
	}
	f.Phase = PhaseDone
	calls := 0
	r, ok := f.Result(func(r *games.Result) { calls++; r.House = 2 })
	if !ok || calls != 1 || r.House != 2 || r.Unit != "micro-units" || r.Seed != f.SeedHex() || r.SeedHash != SeedHash(f.Setup.Seed) ||
		r.TranscriptHash != TranscriptHash(f.Events) || r.Abandoned != "" {
		t.Fatalf("result %+v (settle called %d times)", r, calls)
	}
}

// TestTranscriptHash: SHA-256 of the JCS list, against answers from Python's hashlib over
// json.dumps with sorted keys: "[]" for no events, then one match_started.
func TestTranscriptHash(t *testing.T) {
	if got := TranscriptHash([]games.Event{}); got != "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945" {
		t.Fatalf("no events: %s", got)
	}
	f := NewFrame(setup(1))
	var step games.Step
	f.Emit(&step, t0, games.Event{Turn: 1, Type: "match_started", Visibility: games.Public}, map[string]any{"game": "warden.test"})
	if got := TranscriptHash(f.Events); got != "sha256:d126b6f066eb9c594c5f0e63d67ae141d8d09128edbfbab38319e4f0e33f65cd" {
		t.Fatalf("one event: %s", got)
	}
}
