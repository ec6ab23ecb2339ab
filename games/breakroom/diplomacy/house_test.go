package diplomacy

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/breakroom/diplomacy/board"
)

// houseRun is what one house-only match did.
type houseRun struct {
	transcript []byte
	refusals   int
	answers    int // orders answers given
	moves      int // units that changed province in a movement phase
	changes    int // centres that changed owner at a centre update
	differ     int // prompts whose answer from visible_state differed from the HouseView's
}

// playHouse plays a whole match with every seat answered by HouseAnswer, the bot seed drawn from
// the match seed and the prompt's move, each answer a millisecond after its prompt opens.
func playHouse(t *testing.T, seed [32]byte) houseRun {
	t.Helper()
	mm, err := Engine{}.New(setup(seed, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*match)
	var r houseRun
	add := func(evs []games.Event) {
		for _, e := range evs {
			b, err := breakroom.Line(e)
			if err != nil {
				t.Fatal(err)
			}
			r.transcript = append(append(r.transcript, b...), '\n')
		}
	}
	prev := m.st
	note := func() {
		if m.st.Phase() == prev.Phase() {
			return
		}
		if prev.Kind == board.Movement {
			after := map[board.Unit]bool{}
			for _, u := range m.st.Units {
				after[u] = true
			}
			for _, d := range m.st.Dislodged {
				after[d.Unit] = true
			}
			for _, u := range prev.Units {
				if !after[u] {
					r.moves++
				}
			}
		}
		for _, c := range board.Centres() {
			if prev.Owners[c] != m.st.Owners[c] {
				r.changes++
			}
		}
		prev = m.st
	}
	add(m.Advance(setup(seed, "").Start).Events)
	for m.phase != phaseDone {
		o := m.open
		if o == nil {
			dl, ok := m.Deadline()
			if !ok {
				t.Fatal("no prompt and no deadline before the end")
			}
			add(m.Advance(dl).Events)
			note()
			continue
		}
		h := sha256.Sum256(append(seed[:], strconv.Itoa(o.prompt.Seat)+"|"+strconv.Itoa(o.prompt.Move.Turn)+"|"+o.prompt.Move.Phase...))
		bs := binary.BigEndian.Uint64(h[:8])
		body := Engine{}.HouseAnswer(o.prompt, bs)
		bare := o.prompt
		bare.View = nil
		if !bytes.Equal(Engine{}.HouseAnswer(bare, bs), body) {
			r.differ++
		}
		if bytes.Contains(body, []byte(`"orders"`)) {
			r.answers++
		}
		st, err := m.Act(o.opened.Add(time.Millisecond), games.Input{Seat: o.prompt.Seat, Kind: "answer", Move: o.prompt.Move, Body: body})
		if err != nil {
			r.refusals++
			t.Errorf("seed %x: refused %s: %v", seed[:2], body, err)
			dl, _ := m.Deadline()
			add(m.Advance(dl).Events)
		} else {
			add(st.Events)
		}
		note()
	}
	return r
}

func houseSeedN(i int) [32]byte {
	return sha256.Sum256([]byte("diplomacy house test " + strconv.Itoa(i)))
}

// Thirty whole house-only matches: the door refuses no house order set, house units move and
// centres change hands, retreats and builds are ordered, and the answer from visible_state is the
// HouseView's.
func TestHouseOrdersPassTheDoorAndPlay(t *testing.T) {
	const matches = 30
	var total houseRun
	retreats, builds := 0, 0
	for i := 0; i < matches; i++ {
		r := playHouse(t, houseSeedN(i))
		retreats += bytes.Count(r.transcript, []byte(` R `))
		builds += bytes.Count(r.transcript, []byte(`"B `))
		total.refusals += r.refusals
		total.answers += r.answers
		total.moves += r.moves
		total.changes += r.changes
		total.differ += r.differ
		if r.moves == 0 || r.changes == 0 {
			t.Errorf("match %d: %d units moved, %d centres changed hands", i, r.moves, r.changes)
		}
	}
	if total.refusals != 0 {
		t.Errorf("%d house order sets refused", total.refusals)
	}
	if total.differ != 0 {
		t.Errorf("%d answers from visible_state differ from the HouseView's", total.differ)
	}
	// Five powers, a movement phase each season: far more answers than matches.
	if total.answers < matches*5*2 {
		t.Errorf("only %d orders answers in %d matches", total.answers, matches)
	}
	if retreats == 0 || builds == 0 {
		t.Errorf("%d retreat and %d build orders in %d matches", retreats, builds, matches)
	}
	t.Logf("%d retreats, %d builds in the transcripts", retreats, builds)
	t.Logf("%d matches: %d orders answers, %d units moved, %d centre changes", matches, total.answers, total.moves, total.changes)
}

// A house match played twice from one seed writes the same bytes, another seed other bytes, and
// its log re-simulates line for line (Verify).
func TestHouseMatchReplaysFromItsSeed(t *testing.T) {
	a, b := playHouse(t, houseSeedN(7)), playHouse(t, houseSeedN(7))
	if len(a.transcript) == 0 || !bytes.Equal(a.transcript, b.transcript) {
		t.Fatalf("same seed, transcripts of %d and %d bytes differ", len(a.transcript), len(b.transcript))
	}
	if c := playHouse(t, houseSeedN(8)); bytes.Equal(a.transcript, c.transcript) {
		t.Fatal("two seeds wrote the same transcript")
	}
	if rep := VerifyJSONL(a.transcript); !rep.OK || rep.Checked == 0 {
		t.Fatalf("the house match's log does not re-simulate: %+v", rep)
	}
}

// Every adjustment the house gives is exactly what the winter allows: as many builds as it may
// build and as many removals as it must make.
func TestHouseAdjustments(t *testing.T) {
	s := New(DefaultRules())
	s.Season, s.Kind = Winter, board.Adjustments
	// AUS has lost vie's army and owns ser: adjustment +2, but vie is its one free home centre.
	var units []board.Unit
	for _, u := range s.Units {
		if u.Power == board.AUS && u.Loc.Province() == "vie" {
			continue
		}
		units = append(units, u)
	}
	s.Units = units
	s.Owners["ser"] = board.AUS
	for seed := uint64(0); seed < 20; seed++ {
		if got := HouseOrders(s, board.AUS, seed); len(got) != 1 || got[0] != "B A vie" {
			t.Fatalf("seed %d: AUS builds %v, want [B A vie]", seed, got)
		}
	}
	sets := map[string]bool{}
	// ENG has lost lon and edi to FRA: one centre, three units, two removals.
	s.Owners["lon"], s.Owners["edi"] = board.FRA, board.FRA
	for seed := uint64(0); seed < 20; seed++ {
		got := HouseOrders(s, board.ENG, seed)
		if len(got) != 2 {
			t.Fatalf("seed %d: ENG orders %v, want two removals", seed, got)
		}
		if _, err := s.CheckOrders(board.ENG, got); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		sets[got[0]+got[1]] = true
	}
	if len(sets) < 2 {
		t.Errorf("twenty seeds drew only the removals %v", sets)
	}
	a, b := HouseOrders(s, board.ENG, 1), HouseOrders(s, board.ENG, 1)
	if len(a) != 2 || a[0] != b[0] || a[1] != b[1] {
		t.Errorf("the same seed drew %v and %v", a, b)
	}
}

// The house convoys sometimes: over thirty seeded house-only matches, some movement order sets
// hold a convoy, each one with the army it convoys ordered "via convoy" to the same place in the
// same set, and some of those armies arrive. The door refused none (playHouse fails on a
// refusal).
func TestHouseConvoys(t *testing.T) {
	const matches = 30
	convoys, arrived := 0, 0
	for i := 0; i < matches; i++ {
		r := playHouse(t, houseSeedN(i))
		for _, l := range bytes.Split(bytes.TrimSpace(r.transcript), []byte("\n")) {
			var v struct {
				Type    string
				Orders  json.RawMessage
				Results []struct{ Order, Result string }
			}
			if err := json.Unmarshal(l, &v); err != nil {
				t.Fatal(err)
			}
			switch v.Type {
			case "orders":
				var byPower map[string][]string
				if err := json.Unmarshal(v.Orders, &byPower); err != nil {
					t.Fatalf("orders line %s: %v", l, err)
				}
				for p, os := range byPower {
					for _, o := range os {
						fleet, army, ok := strings.Cut(o, " C ")
						if !ok {
							continue
						}
						convoys++
						from, to, _ := strings.Cut(army, " - ")
						if !slices.Contains(os, from+" - "+to+" via convoy") || !strings.HasPrefix(fleet, "F ") {
							t.Errorf("match %d: %s's %q without its army's convoyed move in %v", i, p, o, os)
						}
					}
				}
			case "adjudication":
				for _, res := range v.Results {
					if strings.HasSuffix(res.Order, " via convoy") && res.Result == "succeeds" {
						arrived++
					}
				}
			}
		}
	}
	if convoys == 0 || arrived == 0 {
		t.Fatalf("%d house convoys in %d matches, %d convoyed armies arrived", convoys, matches, arrived)
	}
	t.Logf("%d matches: %d convoys, %d convoyed armies arrived", matches, convoys, arrived)
}
