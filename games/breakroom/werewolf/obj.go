package werewolf

import (
	"strconv"

	"arena/games/canon"
)

// obj writes a JCS object by hand for the lines every prompt writes (the table's hot path): the
// caller adds members in JCS order (ASCII names, sorted), values numbers, seats, fixed ASCII
// words or raw JSON. TestPayloadsAreJCS holds every line to canon's JCS. Lines with free text
// (talk) go through canon.Marshal instead.
type obj struct{ b []byte }

func newObj() *obj { return &obj{b: append(make([]byte, 0, 128), '{')} }

func (o *obj) key(k string) *obj {
	if len(o.b) > 1 {
		o.b = append(o.b, ',')
	}
	o.b = append(append(append(o.b, '"'), k...), `":`...)
	return o
}

func (o *obj) int(k string, v int) *obj {
	o.key(k).b = strconv.AppendInt(o.b, int64(v), 10)
	return o
}

// word is a fixed ASCII word with nothing to escape ("sleep", "end").
func (o *obj) word(k, v string) *obj {
	o.key(k).b = append(append(append(o.b, '"'), v...), '"')
	return o
}

func (o *obj) bool(k string, v bool) *obj {
	o.key(k).b = strconv.AppendBool(o.b, v)
	return o
}

func (o *obj) seats(k string, v []int) *obj {
	o.key(k).b = appendSeats(o.b, v)
	return o
}

// text is a free-text string (talk) in its JCS form (canon.Marshal of the string alone).
func (o *obj) text(k, v string) *obj {
	b, err := canon.Marshal(v)
	if err != nil { // unreachable: talk is valid UTF-8 (CheckMessage)
		b = []byte(`""`)
	}
	o.key(k).b = append(o.b, b...)
	return o
}

func (o *obj) done() []byte { return append(o.b, '}') }
