package breakroom

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/breakroom/wire"
)

// Match states of MatchInfo.Status.
const (
	MatchRunning   = "running"   // the table is live (or parked by an operator: still not over)
	MatchFinished  = "finished"  // played out: match_end
	MatchAbandoned = "abandoned" // ended early: match_abandoned
)

// MatchPlayer is one seat of a match as its seating says (Seat is the wire seat, 0-based).
type MatchPlayer struct {
	Seat   int
	Pubkey string
	Name   string
	House  bool
	Staff  bool
}

// MatchInfo is one match for the public reads (GET /matches, /v0/matches, leaderboards): its
// seating and where it stands. Ranking and Ended are set only once the match is over (its end
// line's ranking, read from the stored log), so nothing sealed is in a running match's info.
type MatchInfo struct {
	ID      string // the match id (the table's round); "" while its table has not opened
	Table   string
	Game    string
	Tier    string
	Ranked  bool // no house bot sat at it (the bartender does not unrank a table)
	Status  string
	Started time.Time // the lobby formed the table
	// made is when the room stored the seating (the arena's clock): it orders matches the lobby
	// formed at one instant. Zero for seatings stored before it was kept.
	made    time.Time
	Ended   time.Time // the end line's t; zero while running
	Players []MatchPlayer
	Ranking []wire.Rank
}

// overCache holds the MatchInfo of matches that are over, by table: such a record never changes,
// so the reads read each ended match's log once, not on every list.
type overCache struct {
	mu sync.Mutex
	m  map[string]MatchInfo
}

func (c *overCache) get(table string) (MatchInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	mi, ok := c.m[table]
	return mi, ok
}

func (c *overCache) put(table string, mi MatchInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]MatchInfo{}
	}
	c.m[table] = mi
}

// Matches is every match of the room's games that has a stored seating and an opened table,
// newest first (by Started, then when the seating was stored, then id). It reads the store, never the room actor, so it answers
// while tables play; an ended match's log is read once for its ranking and its record kept
// (overCache). The records share their slices: callers must not modify them.
func (r *Room) Matches(ctx context.Context) ([]MatchInfo, error) {
	if r.arena == nil {
		return nil, ErrClosed
	}
	seatings, err := r.seatings()
	if err != nil {
		return nil, err
	}
	var out []MatchInfo
	for _, st := range seatings {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mi, ok, err := r.matchOf(st.id, st.raw)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, mi)
		}
	}
	slices.SortFunc(out, func(a, b MatchInfo) int {
		if c := b.Started.Compare(a.Started); c != 0 {
			return c
		}
		if c := b.made.Compare(a.made); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out, nil
}

// Match is one match by its id; unknown_match when it is not one of the room's.
func (r *Room) Match(ctx context.Context, matchID string) (MatchInfo, error) {
	if r.arena == nil {
		return MatchInfo{}, ErrClosed
	}
	store := r.arena.Store()
	table, err := store.RoundTable(matchID)
	if err != nil || !strings.HasPrefix(table, "br-") {
		return MatchInfo{}, games.Errorf("unknown_match", "no match %q", matchID)
	}
	seatings, err := r.seatings()
	if err != nil {
		return MatchInfo{}, err
	}
	var found *MatchInfo
	for _, st := range seatings {
		if st.id != table || found != nil {
			continue
		}
		mi, ok, err := r.matchOf(st.id, st.raw)
		if err != nil {
			return MatchInfo{}, err
		}
		if ok {
			found = &mi
		}
	}
	if found == nil || found.ID != matchID {
		return MatchInfo{}, games.Errorf("unknown_match", "no match %q", matchID)
	}
	return *found, ctx.Err()
}

// storedSeating is one stored seating, by table id.
type storedSeating struct {
	id  string
	raw []byte
}

// seatings is every stored seating, read in one scan and then let go: matchOf reads the store
// again (the table's record, an ended log), which must not happen inside the scan's read
// transaction (bbolt: a read transaction opened while another is held by the same goroutine can
// deadlock with a writer remapping the file).
func (r *Room) seatings() ([]storedSeating, error) {
	var out []storedSeating
	err := r.arena.Store().BreakroomTables(func(id string, raw []byte) error {
		out = append(out, storedSeating{id, raw})
		return nil
	})
	return out, err
}

// matchOf is a stored seating's MatchInfo; ok is false for a table that never opened or a game
// the room does not play.
func (r *Room) matchOf(table string, raw []byte) (MatchInfo, bool, error) {
	if mi, ok := r.over.get(table); ok {
		return mi, true, nil
	}
	var se seating
	if err := json.Unmarshal(raw, &se); err != nil {
		r.log.Error("breakroom seating unreadable", "table", table, "err", err)
		return MatchInfo{}, false, nil
	}
	if _, ok := r.games[se.Game]; !ok {
		return MatchInfo{}, false, nil
	}
	t, err := r.arena.Stored(table)
	if errors.Is(err, actors.ErrNoTable) {
		return MatchInfo{}, false, nil
	}
	if err != nil {
		return MatchInfo{}, false, err
	}
	if t.Round == "" {
		return MatchInfo{}, false, nil
	}
	mi := MatchInfo{ID: t.Round, Table: table, Game: se.Game, Tier: se.Tier, Ranked: se.Ranked, Status: MatchRunning,
		Started: se.At, made: se.Made}
	for _, s := range se.Seats {
		mi.Players = append(mi.Players, MatchPlayer{Seat: s.Seat - 1, Pubkey: s.Key, Name: s.Name, House: s.House, Staff: s.Staff})
	}
	if t.Status != actors.StatusFinished {
		return mi, true, nil
	}
	mi.Status = MatchFinished
	var res games.Result
	if t.Result != nil {
		res = *t.Result
		if res.Abandoned != "" {
			mi.Status = MatchAbandoned
		}
	}
	evs, err := r.arena.Store().Events(t.Round)
	if err != nil {
		return MatchInfo{}, false, err
	}
	var line json.RawMessage
	for _, ev := range evs {
		if ev.Type == "match_end" || ev.Type == "match_abandoned" {
			var p struct {
				Ranking json.RawMessage `json:"ranking"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			line = p.Ranking
			mi.Ended, _ = time.Parse(time.RFC3339Nano, ev.At)
			if ev.Type == "match_abandoned" {
				mi.Status = MatchAbandoned
			}
		}
	}
	mi.Ranking = rankingOf(line, &match{seating: se}, res)
	r.over.put(table, mi)
	return mi, true, nil
}
