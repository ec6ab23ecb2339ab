package verify

import (
	"bytes"
	"encoding/json"

	"arena/games"
	"arena/games/canon"
)

// checkReplay replays the round's input log (games.Replay) and compares the replayed events with
// the transcript's, canonical bytes for canonical bytes (cs): a transcript the log does not
// reproduce was not played by these rules from these inputs. One line, at the first event that
// differs (or the transcript's end).
func checkReplay(t Transcript, cs [][]byte, l Log, add func(int, bool, string, string, ...any)) {
	const name = "replay"
	if l.Engine == nil {
		add(len(t.Events), false, name, "no engine to replay the input log with")
		return
	}
	_, evs, err := games.Replay(l.Engine, l.Setup, l.Keys, l.Inputs)
	if err != nil {
		add(len(t.Events), false, name, "the input log does not replay: %v", err)
		return
	}
	for i, e := range evs {
		if i >= len(cs) {
			add(len(t.Events), false, name, "the replay made %d events, the transcript holds %d", len(evs), len(cs))
			return
		}
		raw, err := json.Marshal(e)
		var c []byte
		if err == nil {
			c, err = canon.Canonical(raw)
		}
		if err != nil || !bytes.Equal(c, cs[i]) {
			add(i, false, name, "event %d (%s) differs from the replayed one", i+1, e.Type)
			return
		}
	}
	if len(evs) != len(cs) {
		add(len(t.Events), false, name, "the replay made %d events, the transcript holds %d", len(evs), len(cs))
		return
	}
	add(len(t.Events), true, name, "%d inputs replay to the transcript's %d events, byte for byte", len(l.Inputs), len(evs))
}
