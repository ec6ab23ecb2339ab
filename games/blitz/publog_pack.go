package blitz

import (
	"compress/flate"
	_ "embed"

	"arena/games"
)

// Between steps a live table keeps its public log packed: deflated against a preset dictionary
// of typical event JSON (publog_dict.json: the public log of a house round, a round's every
// kind of public event and the house policy's lines), which lets a block of a few KiB of events
// compress about as well as the whole log would (a house round's 40 KiB log packs to a few KiB).
// Nothing that leaves changes: a state's bytes are the same whether its log is packed or not
// (games.Doc inflates a packed run wherever it is flattened).

//go:embed publog_dict.json
var pubLogDictBytes []byte

// pubLogDict is the dictionary every table's public log is packed against (immutable, shared).
// Level 6 (flate's default); a pack is a few KiB, about a dozen times a round.
var pubLogDict = games.NewPackDict(pubLogDictBytes, flate.DefaultCompression)

// packMin is the raw tail Compact lets grow before it packs it. A pack costs about the same
// whatever its size (the deflater loads the 32 KiB dictionary each time: some 60 µs here), so
// fewer, larger blocks cost less CPU and pack a little better (a house round's 46 KiB log: 2.7
// KiB in 4 KiB blocks, 3.1 KiB in 2 KiB ones), for at most 4 KiB of raw log held between steps
// (about 2 KiB on average). At 2 KiB, packing was a tenth of a Practice table's CPU.
const packMin = 4 << 10

// pack deflates the log's chunks into its packed run (one block) against d through z, once they
// hold at least min bytes, and makes every later value a chunk of its own exact size. States
// already built keep the chunks they hold until they are dropped.
func (l *chunkLog) pack(z games.Packer, d *games.PackDict, min int) {
	l.packing = true
	raw := l.size - l.packed.Len()
	if raw < min || raw == 0 {
		return
	}
	l.packed = z.Pack(d, l.packed, l.chunks...)
	clear(l.chunks)
	l.chunks = l.chunks[:0]
}

// Compact makes what the match holds between steps smaller without changing a byte it hands
// out (games.Compactor; the table actor calls it after a step, never the engine itself): the
// public log's raw tail is packed through p once it is packMin long, the agents' terms buffers
// are let go (rewritten at the next phase's opening), and the prompts of seats that have
// answered (or left the round) let go of their states, inboxes and house views: Prompts no
// longer returns them, and the step that carried them has been handed out.
func (m *Match) Compact(p games.Packer) {
	m.pubLog.pack(p, pubLogDict, packMin)
	// The agents' sealed-commitment terms (agentTerms) are kept between phases only to save
	// rewriting them: a live table rewrites them once a phase instead (a few KiB, written from
	// m.sealed, byte for byte what the kept buffers held) and holds none between steps. States
	// already built keep the buffers they share.
	m.terms, m.termsUpTo = nil, 0
	open := 0
	for i := range m.current {
		p := &m.current[i]
		if !m.answered[p.Seat] && m.seat(p.Seat).alive {
			open++
			continue
		}
		p.State, p.View, p.Inbox = games.Doc{}, nil, nil
	}
	if open == 0 {
		m.current = nil // every seat has answered: Prompts returns none either way
	}
}
