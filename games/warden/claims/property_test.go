package claims

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"arena/games"
)

// TestRandomPlay: 300 matches on random seeds and stakes, random answers (legal and not, early
// and late). Every match ends; every round conserves its pot (pay A + pay B + spill = pot, each
// seat funding pot/2); Σ payouts + house = 2S with no balance below 0; a replay of the input log
// gives the same state and transcript.
func TestRandomPlay(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	junk := []string{`{}`, `x`, `{"action":"claim","claim_bps":20000}`, `{"action":"offer","ask_bps":9999,"escalate":1}`, `{"action":"pass"}`}
	for game := 0; game < 300; game++ {
		s := setup(StakeFactor * (1 + r.Int64N(60)))
		for i := range s.Seed {
			s.Seed[i] = byte(r.IntN(256))
		}
		m, err := Engine{}.New(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		var log []games.Logged
		var evs []games.Event
		now := t0
		for n := 0; n < 200; n++ {
			d, ok := m.Deadline()
			if !ok {
				break
			}
			if r.IntN(3) == 0 || len(m.Prompts()) == 0 {
				now = d
				evs = append(evs, m.Advance(now).Events...)
				log = append(log, games.Logged{Op: games.OpAdvance, At: now})
				continue
			}
			ps := m.Prompts()
			p := ps[r.IntN(len(ps))]
			body := randomAnswer(p, r)
			if body == nil {
				body = json.RawMessage(junk[r.IntN(len(junk))])
			}
			at := d.Add(-time.Millisecond)
			in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}
			before := stateOf(m)
			st, err := m.Act(at, in)
			if err != nil {
				if code(err) == "" || stateOf(m) != before {
					t.Fatalf("game %d: refusal %v changed the match or has no code", game, err)
				}
				continue
			}
			evs = append(evs, st.Events...)
			log = append(log, games.Logged{Op: games.OpAct, At: at, Input: in})
		}
		res, ok := m.Result()
		if !ok {
			t.Fatalf("game %d: unfinished", game)
		}
		stake := s.Seats[0].Entry
		if res.Payouts[1]+res.Payouts[2]+res.House != 2*stake || res.Payouts[1] < 0 || res.Payouts[2] < 0 || res.House < 0 {
			t.Fatalf("game %d: payouts %v house %d stake %d", game, res.Payouts, res.House, stake)
		}
		spill := int64(0)
		for _, e := range evs {
			if e.Type != "round_revealed" {
				continue
			}
			var p struct {
				Pot, Spill int64
				Pay        struct{ A, B int64 }
				Balances   struct{ A, B int64 }
			}
			json.Unmarshal(e.Payload, &p)
			if p.Pay.A+p.Pay.B+p.Spill != p.Pot || p.Pot > Pot(stake, MaxSteps, MaxSteps) || p.Pot%2 != 0 ||
				p.Balances.A < 0 || p.Balances.B < 0 {
				t.Fatalf("game %d: round %s", game, e.Payload)
			}
			spill += p.Spill
		}
		if spill != res.House {
			t.Fatalf("game %d: spill %d house %d", game, spill, res.House)
		}
		m2, _, err := games.Replay(Engine{}, s, nil, log)
		if err != nil || stateOf(m2) != stateOf(m) {
			t.Fatalf("game %d: replay differs (%v)", game, err)
		}
		if res.TranscriptHash != TranscriptHash(evs) {
			t.Fatalf("game %d: transcript hash", game)
		}
	}
}

// TestSecrecyEveryRound: over 100 random matches, no round's valuation or sealed ask (as the
// private events spell them) appears in a public event, the spectator's view or the other
// seat's view before that round's round_revealed; a seat's valuation is in its own view.
func TestSecrecyEveryRound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for game := 0; game < 100; game++ {
		s := setup(1_000_000)
		for i := range s.Seed {
			s.Seed[i] = byte(r.IntN(256))
		}
		m, _ := Engine{}.New(s, nil)
		type sec struct {
			val  string
			seat int
		}
		var open []sec
		check := func(st games.Step) {
			for _, e := range st.Events {
				if e.Type == "round_revealed" {
					open = nil
					continue
				}
				if e.Visibility == games.Public {
					for _, x := range open {
						if bytes.Contains(e.Payload, []byte(x.val)) {
							t.Fatalf("game %d: %s in public %s", game, x.val, e.Type)
						}
					}
					continue
				}
				var p struct{ Seat string }
				json.Unmarshal(e.Payload, &p)
				for _, v := range secrets(e) {
					if e.Type != "message_recorded" {
						open = append(open, sec{v, int(p.Seat[0]-'A') + 1})
					}
				}
			}
			for _, x := range open {
				for viewer := 0; viewer <= 2; viewer++ {
					if viewer != x.seat && !holds(open, viewer, x.val) && bytes.Contains(m.View(viewer).Bytes(), []byte(x.val)) {
						t.Fatalf("game %d: %s in viewer %d's view", game, x.val, viewer)
					}
				}
			}
			if mm := m.(*match); open0(mm.st.Phase) {
				for i := range 2 {
					want := `"valuation_bps":` + strconv.FormatInt(mm.cur().Val[i], 10)
					if !bytes.Contains(m.View(i+1).Bytes(), []byte(want)) {
						t.Fatalf("game %d: seat %d cannot see its valuation", game, i+1)
					}
				}
			}
		}
		for n := 0; n < 200; n++ {
			d, ok := m.Deadline()
			if !ok {
				break
			}
			check(m.Advance(d))
			for _, p := range m.Prompts() {
				if body := randomAnswer(p, r); body != nil {
					if st, err := m.Act(d.Add(time.Millisecond), games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}); err == nil {
						check(st)
					}
				}
			}
		}
	}
}

// holds says viewer has its own open secret spelled val (both seats dealt the same valuation).
func holds[S ~[]E, E interface {
	~struct {
		val  string
		seat int
	}
}](open S, viewer int, val string) bool {
	for _, x := range open {
		y := struct {
			val  string
			seat int
		}(x)
		if y.seat == viewer && y.val == val {
			return true
		}
	}
	return false
}

func open0(phase string) bool { return open(phase) }
