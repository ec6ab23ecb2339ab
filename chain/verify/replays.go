package verify

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"arena/chain/anchor"
	"arena/games"
)

// Replay is one showing of the round (a recording shown again) as the transcript body lists it
// beside its events ("replays"): the replay anchor the arena registered when the showing started
// (§5.5 kind 5): the round, seq the Unix second the showing started, the recorded transcript's
// hash (hex SHA-256 of JCS of the events up to and including the reveal), and the Register Data
// transaction (hex). Showing and Speed say which showing it was; they are not anchored.
type Replay struct {
	Showing string `json:"showing"`
	Round   string `json:"round"`
	Seq     uint32 `json:"seq"`
	Hash    string `json:"hash"`
	Tx      string `json:"tx"`
	Speed   int    `json:"speed,omitempty"`
	Started string `json:"started,omitempty"`
}

// replaySkew is how far past the checker's clock a replay's seq may lie (clocks differ).
const replaySkew = 5 * time.Minute

// checkReplays checks every replay anchor t lists (§5.5 kind 5), one line each, printed after
// the events: the round is t's; the hash is the recorded transcript's, recomputed here over the
// events up to and including the one the game names as the reveal (games.Narrator.Final,
// games.EndRevealed), which a replay needs (a round not revealed has no recording to show);
// seq is a plausible Unix second: not before the reveal's instant, not after now; and the
// transaction holds, on chain, 50 bytes of kind replay with the round's number, that seq and
// that hash.
func checkReplays(ctx context.Context, t Transcript, cs [][]byte, round uint64, o Options, add func(int, bool, string, string, ...any)) {
	if len(t.Replays) == 0 {
		return
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	end := -1
	if n, ok := o.Game.(games.Narrator); ok {
		for i, e := range gameEvents(t.Events) {
			if n.Final(e) == games.EndRevealed {
				end = i
				break
			}
		}
	}
	var want [32]byte
	var revealedAt time.Time
	if end >= 0 {
		h := newRunningHash()
		for i := 0; i <= end; i++ {
			if cs[i] != nil {
				h.add(cs[i])
			}
		}
		want = h.sum()
		revealedAt, _ = time.Parse(time.RFC3339Nano, t.Events[end].At)
	}
	wantHex := hex.EncodeToString(want[:])
	pos := len(t.Events)
	for i, r := range t.Replays {
		name := fmt.Sprintf("replay #%d", i+1)
		if r.Showing != "" {
			name += " (showing " + r.Showing + ")"
		}
		switch {
		case r.Round != t.Round:
			add(pos, false, name, "names round %q, the transcript is of %s", r.Round, t.Round)
			continue
		case end < 0 && o.Game == nil:
			add(pos, false, name, "no game given to find the reveal the recording ends at (Options.Game)")
			continue
		case end < 0:
			add(pos, false, name, "the transcript has no reveal: an unrevealed round has no recording to show")
			continue
		case !strings.EqualFold(r.Hash, wantHex) || len(r.Hash) != 64:
			add(pos, false, name, "records hash %s, the recorded transcript's (events 1–%d) is %s", short(r.Hash), end+1, short(wantHex))
			continue
		case r.Seq == 0:
			add(pos, false, name, "seq 0 is no Unix second")
			continue
		}
		started := time.Unix(int64(r.Seq), 0).UTC()
		if !revealedAt.IsZero() && int64(r.Seq) < revealedAt.Unix() {
			add(pos, false, name, "seq %d (%s) is before the round's reveal (%s): no showing starts before its recording ends", r.Seq, started.Format(time.RFC3339), revealedAt.UTC().Format(time.RFC3339))
			continue
		}
		if started.After(now().Add(replaySkew)) {
			add(pos, false, name, "seq %d (%s) is in the future", r.Seq, started.Format(time.RFC3339))
			continue
		}
		var tx [32]byte
		if b, err := hex.DecodeString(r.Tx); err != nil || len(b) != 32 {
			add(pos, false, name, "names no transaction hash (%q)", r.Tx)
			continue
		} else {
			copy(tx[:], b)
		}
		if o.Node == nil {
			add(pos, false, name, "tx %s not fetched (no chain node)", short(r.Tx))
			continue
		}
		data, _ := anchor.Anchor{Kind: anchor.Replay, Round: round, Seq: r.Seq, Hash: want}.Encode()
		st, via, err := fetch(ctx, o, tx, data)
		if err != nil {
			add(pos, false, name, "tx %s: %v", short(r.Tx), err)
			continue
		}
		if !st.Registered {
			add(pos, false, name, "tx %s%s is %s, not a registered datum (rejected %v %s)", short(r.Tx), via, st.State, st.Rejected, st.Reason)
			continue
		}
		a, err := anchor.Decode(st.Data)
		if err != nil {
			add(pos, false, name, "tx %s%s registered %x: %v", short(r.Tx), via, st.Data, err)
			continue
		}
		var diff []string
		if a.Kind != anchor.Replay {
			diff = append(diff, fmt.Sprintf("kind %s, want replay", a.Kind))
		}
		if a.Round != round {
			diff = append(diff, fmt.Sprintf("round %d, want %d", a.Round, round))
		}
		if a.Seq != r.Seq {
			diff = append(diff, fmt.Sprintf("seq %d, want %d", a.Seq, r.Seq))
		}
		if a.Hash != want {
			diff = append(diff, fmt.Sprintf("hash %s, want %s", short(hex.EncodeToString(a.Hash[:])), short(wantHex)))
		}
		if len(diff) > 0 {
			add(pos, false, name, "tx %s%s on chain: %s", short(r.Tx), via, strings.Join(diff, "; "))
			continue
		}
		add(pos, true, name, "tx %s%s holds kind replay, round %d, seq %d (started %s), hash %s: the recorded transcript, events 1–%d", short(r.Tx), via, a.Round, a.Seq, started.Format(time.RFC3339), short(wantHex), end+1)
	}
}
