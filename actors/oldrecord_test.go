package actors

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"arena/games"
	"arena/games/blitz"
)

// A live Blitz table whose record the previous code wrote (header, newline, the snapshot as one
// json.Marshal of {v, fees, setup, log}: "log" null before the first input, else an array of
// inputs with encoding/json's escapes; no journal) comes back on boot and plays its round to
// the end: the events stored before are the start of the transcript unchanged, the seqs run
// without a gap, and the stored state (now a journal) replays to the stored events.

// oldFormatSnapshot writes snap as the previous code did: json.Marshal of the whole snapshot,
// inputs included (HTML characters escaped), "log" null when there is none.
func oldFormatSnapshot(t *testing.T, snap []byte) []byte {
	t.Helper()
	var v struct {
		V     int               `json:"v"`
		Fees  json.RawMessage   `json:"fees"`
		Setup json.RawMessage   `json:"setup"`
		Log   []json.RawMessage `json:"log"`
	}
	if err := json.Unmarshal(snap, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Log) == 0 {
		v.Log = nil // the previous code's input-less match: "log":null
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBlitzOldRecordsRestoreOnBoot(t *testing.T) {
	for _, phases := range []int{0, 9} { // 0: "log":null; 9: into turn 1's talk with house lines
		t.Run("phases"+strconv.Itoa(phases), func(t *testing.T) {
			h := bzHarness(t)
			h.stop()
			id := "old" + strconv.Itoa(phases)
			spec := bzHouseSpec(id)
			seed := spec.Seed
			spec.Seed = nil
			keys, _, err := testKeys{testRegistry}.Open(context.Background(), id, spec.Seats) // as OpenTable does
			if err != nil {
				t.Fatal(err)
			}
			now := h.clock.Now()
			setup := games.Setup{Game: spec.Game, Format: spec.Format, Arena: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7",
				Seed: [32]byte(seed), Start: now, Pace: spec.Pace, Options: spec.Options}
			for _, s := range spec.Seats {
				setup.Seats = append(setup.Seats, s.Seat)
			}
			eng := blitz.NewEngine(blitz.DefaultFees())
			var events []games.Event
			var snap []byte
			var round string
			_, err = h.store.CreateTable(id, "round", func(n uint64) ([]byte, string, error) {
				setup.Round = "T-" + strconv.FormatUint(n, 10)
				round = setup.Round
				gm, err := eng.New(setup, keys)
				if err != nil {
					return nil, "", err
				}
				m := gm.(*blitz.Match)
				events = nil
				// the previous code's table played this far: deadlines, and every house seat's answer
				for i := 0; i < phases; i++ {
					dl, ok := m.Deadline()
					if !ok {
						break
					}
					st := m.Advance(dl)
					events = append(events, st.Events...)
					for _, p := range m.Prompts() {
						body := eng.HouseAnswer(p, houseSeed(seed, &p))
						if p.Move.Phase == "talk" {
							body = json.RawMessage(`{"messages":[{"type":"public","text":"before <the> upgrade & after"}]}`)
						}
						st, err := m.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body})
						if err == nil {
							events = append(events, st.Events...)
						}
					}
				}
				s, err := m.Snapshot()
				if err != nil {
					return nil, "", err
				}
				snap = oldFormatSnapshot(t, s)
				rec := &tableRecord{ID: id, Round: round, Spec: spec, Seed: hex.EncodeToString(seed), Status: StatusLive,
					Match: snap, Created: now, Updated: now}
				if ps := m.Prompts(); len(ps) > 0 {
					rec.Turn, rec.Phase = ps[0].Move.Turn, ps[0].Move.Phase
				}
				return rec.encode(), round, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if phases == 0 && !bytes.Contains(snap, []byte(`"log":null`)) {
				t.Fatalf("the previous form of an input-less snapshot: %.200s", snap)
			}
			if phases > 0 {
				if !bytes.Contains(snap, []byte(`\u003cthe\u003e`)) {
					t.Fatalf("the previous form escapes HTML characters: %.300s", snap)
				}
				b, _ := h.store.LoadTable(id)
				if err := h.store.CommitStep(id, b, events); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := json.Marshal(events)
			h.start() // boot recovery restores the table from the previous code's record
			for i := 0; i < 80 && h.record(id).Status != StatusFinished; i++ {
				h.clock.Advance(time.Minute)
				h.state(id)
			}
			if rec := h.record(id); rec.Status != StatusFinished {
				t.Fatalf("not finished: %s turn %d %s, last error %q", rec.Status, rec.Turn, rec.Phase, rec.LastError)
			}
			evs, err := h.store.Events(round)
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range evs {
				if e.Seq != int64(i+1) {
					t.Fatalf("seq gap: event %d has seq %d", i+1, e.Seq)
				}
			}
			after, _ := json.Marshal(evs)
			if len(events) > 0 && !bytes.HasPrefix(after, before[:len(before)-1]) {
				t.Fatalf("the events stored before the upgrade are not the start of the transcript")
			}
			bzStoredReplays(t, h, id, round)
		})
	}
}
