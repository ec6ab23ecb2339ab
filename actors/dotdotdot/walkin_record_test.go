package dotdotdot

import (
	"encoding/json"
	"testing"
	"time"

	"arena/games"
	"arena/games/blitz"
)

// walkinAccusation is one resolved accusation of a round: Seat accused On.
type walkinAccusation struct {
	Seat, On int
	Correct  bool
}

// applyRound records a Blitz round whose reveal is res's and whose resolved accusations are accs,
// as the walk-in records it: with the Blitz engine's Stats over the round's public events.
func applyRound(rec *walkinRecord, live *walkinLive, res games.Result, accs []walkinAccusation, ended time.Time) walkinRoundLine {
	var evs []games.Event
	for _, a := range accs {
		b, _ := json.Marshal(map[string]any{"seat": a.Seat, "on": a.On, "correct": a.Correct})
		evs = append(evs, games.Event{Type: "accusation.resolved", Visibility: games.Public, Payload: b})
	}
	return rec.apply(live, res, blitz.NewEngine(blitz.DefaultFees()).Stats(res, evs), ended, blitz.DefaultFees().Table)
}

func TestWalkinRecordApply(t *testing.T) {
	ended := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	live := func(round string, kind string) *walkinLive {
		return &walkinLive{Table: "p1", Round: round, Seat: 2, Kind: kind, Game: "blitz", Format: "short", Pace: "chat",
			Entry: walkinEntry, Seats: 3, House: map[int]string{1: "Ada", 3: "Basil"}}
	}
	res := func(p1, p2, p3 int64, reveal string) games.Result {
		return games.Result{Payouts: map[int]int64{1: p1, 2: p2, 3: p3}, Reveal: json.RawMessage(reveal)}
	}
	var rec walkinRecord

	// A Practice round as the mole: two rungs, one seat accused it (the walk-in placed none).
	line := applyRound(&rec, live("T-1", "practice"), res(150_000_000, 260_000_000, 190_000_000, `{"mole":2,"rungs":[1,3]}`),
		[]walkinAccusation{{Seat: 1, On: 2, Correct: true}}, ended)
	if line.Role != "mole" || line.Rungs != 2 || line.Rank != 1 || line.Net != 60_000_000 || line.Accused != 0 || line.Mole != 2 {
		t.Fatalf("line %+v", line)
	}
	if rec.Rounds != 1 || rec.Practice != 1 || rec.Net != 60_000_000 || rec.WouldHavePaid != 220_000_000 ||
		rec.MoleRounds != 1 || rec.Rungs != 2 || rec.Accusations != 0 {
		t.Fatalf("record %+v", rec)
	}
	if vs := rec.VsHouse["Ada"]; vs == nil || *vs != (walkinVs{Rounds: 1, Ahead: 1}) {
		t.Fatalf("vs Ada %+v", vs)
	}
	if !deskHas(rec.Marks, markTopTable) || deskHas(rec.Marks, markUnseen) || deskHas(rec.Marks, markFullRung) {
		t.Fatalf("marks %v", rec.Marks)
	}

	// A walkin-table round as a player: it accused the mole (seat 3) rightly, finished behind Basil.
	line = applyRound(&rec, live("T-2", "walkin"), res(200_000_000, 180_000_000, 180_000_000, `{"mole":3,"rungs":[]}`),
		[]walkinAccusation{{Seat: 2, On: 3, Correct: true}, {Seat: 1, On: 2, Correct: false}}, ended)
	if line.Role != "player" || line.Rank != 2 || line.Accused != 3 || !line.Right || line.Net != -20_000_000 {
		t.Fatalf("line %+v", line)
	}
	if rec.Practice != 1 || rec.Rounds != 2 || rec.Accusations != 1 || rec.AccusationsRight != 1 || rec.Net != 40_000_000 {
		t.Fatalf("record %+v", rec)
	}
	if vs := rec.VsHouse["Basil"]; *vs != (walkinVs{Rounds: 2, Ahead: 1, Even: 1}) {
		t.Fatalf("vs Basil %+v", vs)
	}
	if vs := rec.VsHouse["Ada"]; *vs != (walkinVs{Rounds: 2, Ahead: 1, Behind: 1}) {
		t.Fatalf("vs Ada %+v", vs)
	}
	if !deskHas(rec.Marks, markCaught) || rec.Last[0].Round != "T-2" || rec.Last[1].Round != "T-1" || rec.Live != nil {
		t.Fatalf("record %+v", rec)
	}

	// The mole with all three rungs and, though accusations were made, none on it.
	applyRound(&rec, live("T-3", "practice"), res(1, 2, 3, `{"mole":2,"rungs":[1,2,3]}`), []walkinAccusation{{Seat: 1, On: 3}}, ended)
	if !deskHas(rec.Marks, markFullRung) || !deskHas(rec.Marks, markUnseen) || rec.Rungs != 5 {
		t.Fatalf("marks %v rungs %d", rec.Marks, rec.Rungs)
	}
	applyRound(&rec, live("T-4", "practice"), res(1, 2, 3, `not json`), nil, ended)
	if !deskHas(rec.Marks, markPractised) || rec.Practice != 3 || rec.Last[0].Role != "player" {
		t.Fatalf("after the third Practice round: %+v", rec)
	}
	n := len(rec.Marks)
	applyRound(&rec, live("T-5", "practice"), res(1, 2, 3, `{"mole":2,"rungs":3}`), nil, ended) // rungs as a count
	if len(rec.Marks) != n {                                                                    // every mark it could earn again is held already
		t.Fatalf("marks %v, want the same %d as before", rec.Marks, n)
	}
	for _, m := range rec.Marks {
		c := 0
		for _, o := range rec.Marks {
			if o == m {
				c++
			}
		}
		if c != 1 {
			t.Fatalf("mark %s held %d times", m, c)
		}
	}
	if rec.Last[0].Rungs != 3 {
		t.Fatalf("rungs as a count: %+v", rec.Last[0])
	}
}

func TestWalkinRecordKeepsLast200(t *testing.T) {
	var rec walkinRecord
	for i := 0; i < walkinLastRounds+25; i++ {
		l := &walkinLive{Round: "T-" + deskItoa(i+1), Seat: 1, Kind: "practice", Entry: walkinEntry}
		applyRound(&rec, l, games.Result{Payouts: map[int]int64{1: walkinEntry + 1}}, nil, time.Unix(0, 0))
	}
	if len(rec.Last) != walkinLastRounds || rec.Last[0].Round != "T-225" || rec.Last[walkinLastRounds-1].Round != "T-26" {
		t.Fatalf("last: %d lines, newest %s, oldest %s", len(rec.Last), rec.Last[0].Round, rec.Last[len(rec.Last)-1].Round)
	}
	if rec.Rounds != 225 || rec.Net != 225 {
		t.Fatalf("totals %d %d", rec.Rounds, rec.Net)
	}
	pub := rec.view(true)
	if len(pub.Last) != walkinPageRounds || pub.Live != nil {
		t.Fatalf("public page: %d rounds", len(pub.Last))
	}
	rec.Live = &walkinLive{Table: "psecret", Round: "T-300", Seat: 1}
	if v := rec.view(true); v.Live == nil || v.Live.Table != "" || v.Live.Round != "T-300" {
		t.Fatalf("public live %+v", v.Live)
	}
	if v := rec.view(false); v.Live.Table != "psecret" || len(v.Last) != walkinLastRounds {
		t.Fatalf("own view %+v", v.Live)
	}
}

func TestWalkinIsoWeek(t *testing.T) {
	for _, tt := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), "2026-W49"},
		{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "2026-W53"},
		{time.Date(2026, 1, 5, 0, 0, 0, 0, time.FixedZone("x", -3600)), "2026-W02"},
	} {
		if got := isoWeek(tt.t); got != tt.want {
			t.Errorf("isoWeek(%v) = %s, want %s", tt.t, got, tt.want)
		}
	}
}
