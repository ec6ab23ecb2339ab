package actors

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"arena/games"
	"arena/games/canon"
)

// gotPrompt is one prompt a mailbox seat was delivered: its encoding as handed over and a copy.
type gotPrompt struct {
	d    *delivered
	copy []byte
}

// TestBlitzPackedTablesFailedCommitsReload: three Blitz tables play at once, each with a
// walk-in's mailbox at seat 1 (it answers every talk move with a public line, so the packed
// public log grows while prompts are out) and five house seats. Mid-round the disk fails for
// three deadlines (every table's commit fails and the table reloads its match from the store,
// then compacts it), then comes back. Every round plays to its reveal, and for every prompt the
// walk-ins were delivered, redelivered ones included, as the mailbox encoded it on its own
// goroutine (wire): it is JCS; its state is the delivered prompt's state; its state.public_log
// is, event by event, the round's public transcript from its start; a move delivered again is
// the same bytes (each table also panics once while the walk-in's commit move is open, so it is
// delivered again); and at the end every encoding still reads as it did when delivered. (That
// DOTDOTDOT's mailbox signs such a prompt into an envelope that verifies, packed and after a
// restart from the store, is actors/dotdotdot's TestDeskPracticePackedEnvelopes.)
// It runs in a synctest bubble: "the deliveries have arrived" is synctest.Wait (every actor
// idle), not a wall-clock pause.
func TestBlitzPackedTablesFailedCommitsReload(t *testing.T) {
	inBubble(t, packedTablesFailedCommitsReload)
}

func packedTablesFailedCommitsReload(t *testing.T) {
	h := bzHarness(t)
	const tables = 3
	type table struct {
		id, round string
		mb        chan any
		got       []gotPrompt
		answered  map[games.Move]bool
		crashed   bool
	}
	var ts []*table
	for i := 0; i < tables; i++ {
		tb := &table{id: "pk" + strconv.Itoa(i), mb: h.mailbox("mb-pk-" + strconv.Itoa(i)), answered: map[games.Move]bool{}}
		spec := bzHouseSpec(tb.id)
		spec.Seed = fixedSeed(byte(20 + i))
		spec.Seats[0].Channel, spec.Seats[0].Actor = ChannelMailbox, "mb-pk-"+strconv.Itoa(i)
		bzWalkinSeat(&spec.Seats[0])
		spec.Pace.CloseEarly = false
		tb.round = h.open(spec)
		ts = append(ts, tb)
	}
	drain := func(tb *table) {
		for {
			select {
			case m := <-tb.mb:
				d, ok := m.(*delivered)
				if !ok {
					continue
				}
				tb.got = append(tb.got, gotPrompt{d, bytes.Clone(d.Wire)})
				mv := d.Prompt.Move
				if mv.Phase == "talk" && !tb.answered[mv] {
					r, err := h.arena.Submit(context.Background(), SubmitAnswer{Table: tb.id, Round: tb.round,
						Input: games.Input{Seat: 1, Kind: "answer", Move: mv, Body: json.RawMessage(fmt.Sprintf(
							`{"messages":[{"type":"public","text":"walk-in %s turn %d exchange %d <&> \u2028 12 CCD"}]}`, tb.id, mv.Turn, mv.Exchange))}})
					if err == nil && r.Code == "" {
						tb.answered[mv] = true
					}
				}
			default:
				return
			}
		}
	}
	settle := func() {
		for _, tb := range ts {
			if h.record(tb.id).Status != StatusFinished {
				h.state(tb.id)
			}
		}
		synctest.Wait() // the walk-ins' deliveries go through seat actors: every actor idle
		for _, tb := range ts {
			drain(tb)
		}
	}
	finished := func() bool {
		for _, tb := range ts {
			if h.record(tb.id).Status != StatusFinished {
				return false
			}
		}
		return true
	}
	failed := false
	for step := 0; step < 300 && !finished(); step++ {
		settle()
		if !failed && len(ts[0].got) > 0 && ts[0].got[len(ts[0].got)-1].d.Prompt.Move.Turn >= 2 {
			failed = true
			h.failCommit.Store(true)
			for k := 0; k < 3; k++ {
				h.clock.Advance(time.Minute) // every table's deadline: its commit fails, it reloads
				settle()
			}
			h.failCommit.Store(false)
		}
		for _, tb := range ts { // then a panic while the walk-in's commit move is open: it is delivered again
			if n := len(tb.got); failed && !tb.crashed && n > 0 && tb.got[n-1].d.Prompt.Move.Phase == "commit" {
				tb.crashed = true
				h.arena.System().Root.Send(h.arena.TablePID(tb.id), &CrashTable{Tag: "hostile4"})
				settle()
			}
		}
		h.clock.Advance(time.Minute)
	}
	if !failed || !finished() {
		t.Fatalf("disk failed %v, all finished %v", failed, finished())
	}
	settle()
	for _, tb := range ts {
		h.waitEvent("round.revealed "+tb.round, and(roundIs(tb.round), typeIs("round.revealed")))
		bzStoredReplays(t, h, tb.id, tb.round)
		evs, revealed, err := h.arena.Transcript(context.Background(), tb.round)
		if err != nil || !revealed {
			t.Fatalf("%s transcript: %v %v", tb.id, revealed, err)
		}
		var public [][]byte
		lines := 0
		for _, ev := range evs {
			if ev.Visibility == "public" {
				b, err := canon.Marshal(ev)
				if err != nil {
					t.Fatal(err)
				}
				public = append(public, b)
				if ev.Type == "message.public" && bytes.Contains(ev.Payload, []byte("walk-in "+tb.id)) {
					lines++
				}
			}
		}
		if len(tb.got) < 15 || lines < 5 {
			t.Fatalf("%s: %d prompts delivered, %d of the walk-in's lines in the transcript", tb.id, len(tb.got), lines)
		}
		if !tb.crashed {
			t.Fatalf("%s never crashed on an open commit move", tb.id)
		}
		first := map[games.Move][]byte{}
		packed := 0
		for k, g := range tb.got {
			mv := g.d.Prompt.Move
			if !bytes.Equal(g.d.Wire, g.copy) {
				t.Fatalf("%s prompt %d (%+v) changed after it was delivered", tb.id, k, mv)
			}
			if c, err := canon.Canonical(g.copy); err != nil || !bytes.Equal(c, g.copy) {
				t.Fatalf("%s prompt %d (%+v) is not JCS (%v)", tb.id, k, mv, err)
			}
			if f, ok := first[mv]; ok && !bytes.Equal(f, g.copy) {
				t.Fatalf("%s: move %+v was delivered again as other bytes:\n first %.300s\n again %.300s", tb.id, mv, f, g.copy)
			}
			first[mv] = g.copy
			if g.d.Prompt.State.Packed() {
				packed++
			}
			var got struct {
				State json.RawMessage `json:"state"`
			}
			want, err := canon.Canonical(g.d.Prompt.State.Bytes())
			if err != nil || json.Unmarshal(g.copy, &got) != nil || !bytes.Equal(got.State, want) {
				t.Fatalf("%s prompt %d (%+v): its state is not the delivered prompt's (%v)", tb.id, k, mv, err)
			}
			var st struct {
				Log []json.RawMessage `json:"public_log"`
			}
			if err := json.Unmarshal(got.State, &st); err != nil || len(st.Log) == 0 || len(st.Log) > len(public) {
				t.Fatalf("%s prompt %d (%+v): public_log of %d events, the round's %d (%v)", tb.id, k, mv, len(st.Log), len(public), err)
			}
			for x, ev := range st.Log {
				if !bytes.Equal(ev, public[x]) {
					t.Fatalf("%s prompt %d (%+v): public_log[%d] is\n %s\nthe transcript's\n %s", tb.id, k, mv, x, ev, public[x])
				}
			}
		}
		if packed == 0 {
			t.Fatalf("%s: no delivered state had a packed log", tb.id)
		}
		t.Logf("%s: %d prompts (%d moves, %d with a packed log), %d public events", tb.id, len(tb.got), len(first), packed, len(public))
	}
}
