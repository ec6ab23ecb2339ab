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

// oldSeat is a seat as the previous code wrote it, in a Setup and in a SeatSpec: Blitz's seat
// options were members of games.Seat, every one written.
type oldSeat struct {
	Seat       int    `json:"seat"`
	Agent      string `json:"agent"`
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Human      bool   `json:"human"`
	Walkin     bool   `json:"walkin"`
	Entry      int64  `json:"entry"`
	Collateral int64  `json:"collateral"`
	Rating     int    `json:"rating"`
}

func oldSeatOf(t *testing.T, s games.Seat) oldSeat {
	t.Helper()
	o, err := blitz.SeatOptionsOf(s)
	if err != nil {
		t.Fatal(err)
	}
	return oldSeat{Seat: s.Seat, Agent: s.Agent, Name: s.Name, Kind: o.Kind, Human: o.Human, Walkin: o.Walkin,
		Entry: s.Entry, Collateral: o.Collateral, Rating: o.Rating}
}

// oldSeatsSnapshot rewrites the seats of a snapshot's setup ({v, fees, setup, log}) as the
// previous code wrote them (oldSeat).
func oldSeatsSnapshot(t *testing.T, snap []byte) []byte {
	t.Helper()
	var v struct {
		V     int             `json:"v"`
		Fees  json.RawMessage `json:"fees"`
		Setup json.RawMessage `json:"setup"`
		Log   json.RawMessage `json:"log"`
	}
	if err := json.Unmarshal(snap, &v); err != nil {
		t.Fatal(err)
	}
	var setup games.Setup
	if err := json.Unmarshal(v.Setup, &setup); err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(v.Setup, &members); err != nil {
		t.Fatal(err)
	}
	var seats []oldSeat
	for _, s := range setup.Seats {
		seats = append(seats, oldSeatOf(t, s))
	}
	members["seats"], _ = json.Marshal(seats)
	v.Setup, _ = json.Marshal(members)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// oldSeatsRecord rewrites a stored record's header so its spec's seats are as the previous code
// wrote them: {Seat: oldSeat, Channel, Mailbox, Endpoint}, no Kind or Lent.
func oldSeatsRecord(t *testing.T, spec TableSpec, b []byte) []byte {
	t.Helper()
	i := bytes.IndexByte(b, '\n')
	var head, sp map[string]json.RawMessage
	if err := json.Unmarshal(b[:i], &head); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(head["spec"], &sp); err != nil {
		t.Fatal(err)
	}
	type oldSpec struct {
		Seat     oldSeat
		Channel  string
		Mailbox  string
		Endpoint string
	}
	var seats []oldSpec
	for _, s := range spec.Seats {
		seats = append(seats, oldSpec{Seat: oldSeatOf(t, s.Seat), Channel: s.Channel, Mailbox: s.Actor, Endpoint: s.Endpoint})
	}
	sp["Seats"], _ = json.Marshal(seats)
	head["spec"], _ = json.Marshal(sp)
	h, err := json.Marshal(head)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(h, '\n'), b[i+1:]...)
}

func TestBlitzOldRecordsRestoreOnBoot(t *testing.T) {
	for _, c := range []struct {
		phases   int  // 0: "log":null; 9: into turn 1's talk with house lines
		oldSeats bool // the seats as the previous code wrote them (oldSeat)
	}{{0, false}, {9, false}, {0, true}, {9, true}} {
		phases := c.phases
		name := "phases" + strconv.Itoa(phases)
		if c.oldSeats {
			name += "-oldseats"
		}
		t.Run(name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
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
					if c.oldSeats {
						snap = oldSeatsSnapshot(t, snap)
					}
					rec := &tableRecord{ID: id, Round: round, Spec: spec, Seed: hex.EncodeToString(seed), Status: StatusLive,
						Match: snap, Created: now, Updated: now}
					if ps := m.Prompts(); len(ps) > 0 {
						rec.Turn, rec.Phase = ps[0].Move.Turn, ps[0].Move.Phase
					}
					if c.oldSeats {
						return oldSeatsRecord(t, spec, rec.encode()), round, nil
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
		})
	}
}

// A seat spec the previous code wrote has no Kind or Lent: its games.Seat's kind is its Kind, and
// the arena holds the key of a walk-in seat or one whose kind was "house" or "walkin" (SeatSpec.LentKey).
func TestSeatSpecReadsOldRecords(t *testing.T) {
	for _, c := range []struct {
		seat string
		kind string
		lent bool
	}{
		{`{"seat":1,"agent":"","name":"Ann","kind":"walkin","human":true,"walkin":true,"entry":1,"collateral":1,"rating":0}`, "walkin", true},
		{`{"seat":2,"agent":"","name":"Bo","kind":"house","human":false,"walkin":false,"entry":1,"collateral":1,"rating":0}`, "house", true},
		{`{"seat":3,"agent":"","name":"Cy","kind":"","human":false,"walkin":true,"entry":1,"collateral":1,"rating":0}`, "", true},
		{`{"seat":4,"agent":"a","name":"Di","kind":"byo","human":false,"walkin":false,"entry":1,"collateral":1,"rating":0}`, "byo", false},
	} {
		var s SeatSpec
		if err := json.Unmarshal([]byte(`{"Seat":`+c.seat+`,"Channel":"mailbox","Mailbox":"mb","Endpoint":""}`), &s); err != nil {
			t.Fatal(err)
		}
		if s.Kind != c.kind || s.Lent != c.lent || s.LentKey() != c.lent || s.Channel != "mailbox" || s.Actor != "mb" || len(s.Seat.Options) == 0 {
			t.Fatalf("%s read as %+v", c.seat, s)
		}
	}
	var s SeatSpec
	if err := json.Unmarshal([]byte(`{"Seat":{"seat":1,"agent":"a","name":"A","entry":1},"Kind":"byo","Lent":false,"Channel":"a2a"}`), &s); err != nil || s.Kind != "byo" || s.Lent {
		t.Fatalf("the new form read as %+v, %v", s, err)
	}
}
