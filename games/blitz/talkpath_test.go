package blitz

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"arena/games"
)

// randText is a string of up to n bytes mixing plain ASCII, the characters JCS escapes (quote,
// backslash, every control) and multi-byte UTF-8.
func randText(r *rand.Rand, n int) string {
	pick := []string{"a", "Z", "0", " ", `"`, `\`, "/", "\b", "\t", "\n", "\f", "\r", "\x00", "\x1f", "\x7f", "é", "😀", "\u2028"}
	var b []byte
	for len(b) < n {
		if r.IntN(3) == 0 {
			b = append(b, pick[r.IntN(len(pick))]...)
		} else {
			b = append(b, byte('a'+r.IntN(26)))
		}
	}
	return string(b)
}

// lineLen, jcsStringLen and intLen count exactly the bytes lineJSON, appendJCSString and
// strconv.AppendInt write, so talk's one buffer per answer is never too small or too large.
func TestLineLenCountsLineJSON(t *testing.T) {
	for c := 0; c < 256; c++ {
		s := string([]byte{byte(c)})
		if got, want := jcsStringLen(s), len(appendJCSString(nil, s)); got != want {
			t.Fatalf("jcsStringLen(%q) = %d, want %d", s, got, want)
		}
	}
	for _, i := range []int{0, 1, 9, 10, 99, 100, -1, -9, -10, -100, math.MaxInt, math.MinInt, math.MaxInt32} {
		if got, want := intLen(i), len(strconv.AppendInt(nil, int64(i), 10)); got != want {
			t.Fatalf("intLen(%d) = %d, want %d", i, got, want)
		}
	}
	r := rand.New(rand.NewPCG(2, 2))
	ints := []int{0, 1, 3, 8, 9, 10, 64, 99, 100, 12345, -1, -42}
	for k := 0; k < 5000; k++ {
		text := randText(r, r.IntN(700))
		if got, want := jcsStringLen(text), len(appendJCSString(nil, text)); got != want {
			t.Fatalf("jcsStringLen(%q) = %d, want %d", text, got, want)
		}
		textJCS := appendJCSString(nil, text)
		tone := [...]string{"ask", "offer", "neutral", "", randText(r, 12)}[r.IntN(5)]
		typ := [...]string{"", "public", "private", randText(r, 6)}[r.IntN(4)]
		from, to := ints[r.IntN(len(ints))], ints[r.IntN(len(ints))]
		turn, exchange := ints[r.IntN(len(ints))], ints[r.IntN(len(ints))]
		got := lineLen(typ, from, textJCS, to, tone, turn, exchange)
		if want := len(lineJSON(nil, typ, from, textJCS, to, tone, turn, exchange)); got != want {
			t.Fatalf("lineLen(%q, %d, %s, %d, %q, %d, %d) = %d, want %d", typ, from, textJCS, to, tone, turn, exchange, got, want)
		}
	}
}

// eventHead writes exactly appendEvent's bytes, and says where the payload is, whatever its
// keys hold and however often they change between events.
func TestEventHeadWritesAppendEvent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	var h eventHead
	ats := []string{"2026-01-01T00:00:00.000Z", "2026-01-01T00:01:30.000Z", randText(r, 30)}
	rounds := []string{"T-7", "T-424242", randText(r, 10)}
	for k := 0; k < 3000; k++ {
		ev := games.Event{Seq: int64(r.IntN(100000)), Round: rounds[r.IntN(len(rounds))], Turn: r.IntN(7) - 1,
			Phase: stageName[r.IntN(len(stageName))], At: ats[r.IntN(len(ats))],
			Type:       [...]string{"message.public", "talking", randText(r, 8)}[r.IntN(3)],
			Visibility: games.Visibility([...]string{visPublic, visSealed, visPrivate(3), randText(r, 5)}[r.IntN(4)]),
			Payload:    appendJCSString([]byte(`{"t":`), randText(r, r.IntN(200)))}
		ev.Payload = append(ev.Payload, '}')
		if k%7 == 0 {
			ev.Phase = randText(r, 6)
		}
		prefix := []byte(randText(r, r.IntN(5)))
		want := appendEvent(bytes.Clone(prefix), ev)
		h.set(ev.At, ev.Phase, ev.Round, ev.Turn)
		got, at := h.appendEvent(bytes.Clone(prefix), ev.Seq, ev.Type, string(ev.Visibility), ev.Payload)
		if !bytes.Equal(got, want) {
			t.Fatalf("event %+v:\n got %s\nwant %s", ev, got, want)
		}
		if !bytes.Equal(got[at:at+len(ev.Payload)], ev.Payload) {
			t.Fatalf("payload offset %d wrong in %s", at, got)
		}
	}
}

// A line's inbox items reach the seats in the order sent, after what their inboxes held, each
// inbox a full slice (an append to one never writes into another's), and the same whether
// the lines wait for deliverLines or, at a table of more than 63 seats, go at once.
func TestDeliverLinesOrder(t *testing.T) {
	build := func(n int) *Match {
		m := &Match{}
		for i := 1; i <= n; i++ {
			m.seats = append(m.seats, &seatState{Seat: games.Seat{Seat: i}, alive: i != 3})
		}
		m.seats[1].inbox = []json.RawMessage{json.RawMessage(`{"type":"notice"}`)}
		return m
	}
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{6, 8, 70} {
		m := build(n)
		want := make([][]string, n+1)
		want[2] = []string{`{"type":"notice"}`}
		for k := 0; k < 200; k++ {
			from, to := 1+r.IntN(n), 0
			if r.IntN(2) == 0 {
				to = 1 + r.IntN(n)
			}
			item := []byte(strconv.Itoa(k))
			m.sendLine(item, from, to)
			for _, s := range m.seats {
				if sn := s.Seat.Seat; (to == 0 && sn != from && s.alive) || sn == to {
					want[sn] = append(want[sn], string(item))
				}
			}
			if k == 120 {
				m.deliverLines() // an envelope in between: the rest follows what is there
			}
		}
		m.deliverLines()
		if len(m.lines) != 0 {
			t.Fatalf("%d seats: %d lines left pending", n, len(m.lines))
		}
		for _, s := range m.seats {
			var got []string
			for _, it := range s.inbox {
				got = append(got, string(it))
			}
			if w := want[s.Seat.Seat]; len(got) != len(w) || (len(w) > 0 && !slicesEqual(got, w)) {
				t.Fatalf("%d seats, seat %d: inbox %v, want %v", n, s.Seat.Seat, got, w)
			}
		}
		for _, s := range m.seats { // appending to one inbox leaves every other as it was
			if len(s.inbox) > 0 {
				_ = append(s.inbox, json.RawMessage(`"x"`))
			}
		}
		for _, s := range m.seats {
			for i, it := range s.inbox {
				if string(it) != want[s.Seat.Seat][i] {
					t.Fatalf("%d seats, seat %d: item %d became %s", n, s.Seat.Seat, i, it)
				}
			}
		}
	}
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The turn, phase and exchange openers write what payloadJCS wrote for the maps they replace.
func TestPhasePayloadsAsMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for k := 0; k < 2000; k++ {
		a, b := r.IntN(20)-2, r.IntN(20)-2
		ms := int64(r.IntN(1 << 30))
		if k%5 == 0 {
			ms = 1<<53 - 1 - int64(r.IntN(10))
		}
		ends := fmtTime(time.Unix(int64(r.IntN(1<<31)), int64(r.IntN(1e9))))
		phase := stageName[r.IntN(len(stageName))]
		if k%9 == 0 {
			ends, phase = randText(r, 10), randText(r, 6)
		}
		pairs := []struct {
			got  []byte
			want any
		}{
			{appendTurnStarted(nil, a, b), map[string]any{"turn": a, "of": b}},
			{appendTalkStarted(nil, ms, a), map[string]any{"phase": "talk", "duration_ms": ms, "exchanges": a}},
			{appendPhaseStarted(nil, phase, ms, ends), map[string]any{"phase": phase, "duration_ms": ms, "ends_at": ends}},
			{appendExchangeStarted(nil, a, b, ms, ends), map[string]any{"exchange": a, "of": b, "duration_ms": ms, "ends_at": ends}},
		}
		for _, p := range pairs {
			if want := payloadJCS(p.want); !bytes.Equal(p.got, want) {
				t.Fatalf("wrote %s, payloadJCS %s", p.got, want)
			}
		}
	}
}

// A follower (the exchange hash) gives SHA-256 of "[" + the lead's events since it began +
// "]" wherever it starts, whatever the events' sizes (up to several batches), however they are
// written to the lead (open/close or add) and wherever flush and sum are called; the lead's own
// hash is unchanged by having one.
func TestRunningHashFollower(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	list := func(evs [][]byte) [32]byte {
		return sha256.Sum256(append(append([]byte{'['}, bytes.Join(evs, []byte{','})...), ']'))
	}
	for round := 0; round < 300; round++ {
		lead := newRunningHash()
		var all, since [][]byte
		var f *runningHash
		for i, n := 0, r.IntN(50); i < n; i++ {
			if f == nil && r.IntN(5) == 0 {
				f, since = lead.follow(), nil
				if got := f.sum(); got != list(nil) {
					t.Fatalf("round %d: a new follower's sum is not that of []", round)
				}
			}
			size := 1 + r.IntN(400)
			if r.IntN(15) == 0 {
				size = hashBatch + r.IntN(2*hashBatch)
			}
			ev := make([]byte, size)
			for j := range ev {
				ev[j] = byte('a' + r.IntN(26))
			}
			if r.IntN(3) == 0 {
				lead.add(ev)
			} else {
				lead.close(append(lead.open(), ev...))
			}
			all = append(all, ev)
			if f != nil {
				since = append(since, ev)
			}
			if r.IntN(4) == 0 && lead.sum() != list(all) {
				t.Fatalf("round %d: lead hash differs after %d events", round, len(all))
			}
			if f != nil && r.IntN(3) == 0 && f.sum() != list(since) {
				t.Fatalf("round %d: follower hash differs after %d of its events", round, len(since))
			}
			if r.IntN(6) == 0 {
				lead.flush()
			}
			if f != nil && r.IntN(12) == 0 {
				if f.sum() != list(since) {
					t.Fatalf("round %d: follower hash differs at its end", round)
				}
				lead.unfollow()
				f = nil
			}
		}
		if f != nil && f.sum() != list(since) {
			t.Fatalf("round %d: follower hash differs at the end", round)
		}
		lead.flush()
		if lead.sum() != list(all) {
			t.Fatalf("round %d: lead hash differs at the end", round)
		}
	}
}
