package werewolf

import "arena/games/canon"

// obj gathers a log line's members for canon.Marshal, the house's one JCS encoder: the lines
// every prompt writes name their members in a chain (newObj().int("round", r).done()), in any
// order, and done writes them as JCS.
type obj struct{ m map[string]any }

func newObj() *obj { return &obj{m: make(map[string]any, 6)} }

func (o *obj) int(k string, v int) *obj { o.m[k] = v; return o }

// word is a fixed word ("sleep", "end").
func (o *obj) word(k, v string) *obj { o.m[k] = v; return o }

func (o *obj) bool(k string, v bool) *obj { o.m[k] = v; return o }

// seats is a list of wire seats (never null: an empty list is []).
func (o *obj) seats(k string, v []int) *obj {
	if v == nil {
		v = []int{}
	}
	o.m[k] = v
	return o
}

// text is a free-text string (talk), valid UTF-8 by CheckMessage.
func (o *obj) text(k, v string) *obj { o.m[k] = v; return o }

// done is the line's payload as JCS. canon.Marshal refuses only what these members cannot hold
// (invalid UTF-8, an unsafe integer): such a payload is a bug in the engine, so it panics, which
// restarts the table from its store like any other panic.
func (o *obj) done() []byte {
	b, err := canon.Marshal(o.m)
	if err != nil {
		panic("werewolf: log line: " + err.Error())
	}
	return b
}
