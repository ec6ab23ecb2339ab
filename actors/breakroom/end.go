package breakroom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"arena/actors"
	"arena/actors/breakroom/cashier"
	"arena/games"
	"arena/games/breakroom"
	"arena/games/breakroom/wire"
	"arena/storage"
)

// contextFor is the context of a call the room makes off its actor: the arena's ask timeout.
func contextFor(r *Room) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), r.arena.AskTimeout())
}

// moveOf is the games.Move a move's envelope names (breakroom.MoveOf); a round or turn beyond
// 32 bits names no move and is stale.
func moveOf(round, turn int64) games.Move {
	if round > math.MaxUint32 || turn > math.MaxUint32 {
		return games.Move{Phase: breakroom.PhaseTurn, Turn: -1}
	}
	return breakroom.MoveOf(int(round), int(turn))
}

// roundTurn is a prompt's round and turn.
func roundTurn(m games.Move) (int64, int64) {
	r, t, _ := breakroom.RoundTurn(m)
	return int64(r), int64(t)
}

// yourTurn is a prompt's your_turn message at now: deadline_ms is what is left of it.
func yourTurn(matchID string, p *games.Prompt, now time.Time) wire.YourTurn {
	r, t := roundTurn(p.Move)
	legal, err := json.Marshal(p.Legal)
	if err != nil || p.Legal == nil {
		legal = []byte("[]")
	}
	return wire.YourTurn{MatchID: matchID, Round: r, Turn: t, DeadlineMs: max(p.Deadline.Sub(now).Milliseconds(), 0),
		VisibleState: p.State.Bytes(), LegalActions: legal}
}

// yourTurnState is the state message of a seat whose move is open.
func yourTurnState(matchID string, p *games.Prompt, now time.Time) (wire.State, error) {
	y := yourTurn(matchID, p, now)
	return wire.State{MatchID: matchID, Status: wire.StatusYourTurn, Round: y.Round, Turn: y.Turn, DeadlineMs: y.DeadlineMs,
		VisibleState: y.VisibleState, LegalActions: y.LegalActions}, nil
}

// repRecord is a key's reputation as stored (storage: BreakroomReputation), from completed
// ranked matches only (breakroom-games.md §1.9, J32).
type repRecord struct {
	Matches  int `json:"matches"`
	Wins     int `json:"wins"`     // rank 1, shared included
	RankSum  int `json:"rank_sum"` // avg_rank = RankSum / Matches
	Timeouts int `json:"timeouts"` // timeout and timeout_private lines
	// Bluffs, Raises and Caught are Inference's (§2.8): bluff_rate = Bluffs / Raises.
	Bluffs int `json:"bluffs,omitempty"`
	Raises int `json:"raises,omitempty"`
	Caught int `json:"caught,omitempty"`
}

func (r repRecord) wire() wire.Reputation {
	w := wire.Reputation{Matches: r.Matches, Wins: r.Wins, Caught: r.Caught, Timeouts: r.Timeouts}
	if r.Matches > 0 {
		w.AvgRank = math.Round(float64(r.RankSum)/float64(r.Matches)*100) / 100
	}
	if r.Raises > 0 {
		w.BluffRate = math.Round(float64(r.Bluffs)/float64(r.Raises)*100) / 100
	}
	return w
}

func (r *Room) repOf(key string) (repRecord, error) {
	var rec repRecord
	b, err := r.arena.Store().BreakroomReputation(key)
	if errors.Is(err, storage.ErrNotFound) {
		return rec, nil
	}
	if err != nil {
		return rec, err
	}
	return rec, json.Unmarshal(b, &rec)
}

// Reputation is key's record (GET /v0/agents/{pubkey}): zero for a key that completed no ranked
// match.
func (r *Room) Reputation(key string) (wire.Reputation, error) {
	if key == "" || strings.Contains(key, "/") {
		return wire.Reputation{}, nil
	}
	rec, err := r.repOf(key)
	return rec.wire(), err
}

// completed is the lobby's Completed: a key's completed ranked matches (its tier).
func (r *Room) completed(key string) int {
	rec, _ := r.repOf(key)
	return rec.Matches
}

// ending is what a match's end says for every seat: its ranking line and counts per wire seat.
type ending struct {
	ranking   []wire.Rank
	abandoned string // the match's Result.Abandoned: match_abandoned's reason
	timeouts  map[int]int
	rounds    int
	// settlement is a paid match's split (match_end.settlement); nil at a free one.
	settlement *wire.Settlement
}

// endOf reads a finished match's log from the store: its end line's ranking, each seat's
// timeouts, and its rounds; then counts the match into its players' reputations when it was
// ranked and played out (storage counts a match once, however often its end is announced).
func (r *Room) endOf(m *match, res games.Result) (ending, error) {
	e := ending{timeouts: map[int]int{}, abandoned: res.Abandoned}
	evs, err := r.arena.Store().Events(m.id)
	if err != nil {
		return e, err
	}
	var endLine json.RawMessage
	for _, ev := range evs {
		var p struct {
			Seat    *int            `json:"seat"`
			Round   int             `json:"round"`
			Ranking json.RawMessage `json:"ranking"`
		}
		_ = json.Unmarshal(ev.Payload, &p)
		switch ev.Type {
		case "timeout", "timeout_private":
			if p.Seat != nil {
				e.timeouts[*p.Seat]++
			}
		case "round_start":
			e.rounds = max(e.rounds, p.Round)
		case "match_end", "match_abandoned":
			endLine = p.Ranking
		}
	}
	e.ranking = rankingOf(endLine, m, res)
	if !m.Ranked || res.Abandoned != "" {
		return e, nil
	}
	var keys []string
	rank := map[string]int{}
	for _, s := range m.Seats {
		if s.House || s.Staff {
			continue
		}
		keys = append(keys, s.Key)
		for _, rk := range e.ranking {
			if rk.Seat == s.Seat-1 {
				rank[s.Key] = rk.Rank
			}
		}
	}
	seatOf := map[string]int{}
	for _, s := range m.Seats {
		seatOf[s.Key] = s.Seat - 1
	}
	// A game's own figures (games.Statser) from the full log: Inference's bluffs, raises and
	// caught (§2.8), which bluff_rate and caught are made of.
	var stats map[int]map[string]float64
	if br := r.arena.Bracket(); br != nil {
		if st, ok := engineOf(br, m.Game).(games.Statser); ok {
			stats = st.Stats(res, evs)
		}
	}
	_, err = r.arena.Store().CountBreakroomMatch(m.id, keys, func(key string, old []byte) ([]byte, error) {
		var rec repRecord
		if old != nil {
			if err := json.Unmarshal(old, &rec); err != nil {
				return nil, err
			}
		}
		rec.Matches++
		rec.RankSum += rank[key]
		if rank[key] == 1 {
			rec.Wins++
		}
		rec.Timeouts += e.timeouts[seatOf[key]]
		fig := stats[seatOf[key]+1]
		rec.Bluffs += int(fig["bluffs"])
		rec.Raises += int(fig["raises"])
		rec.Caught += int(fig["caught"])
		return json.Marshal(rec)
	})
	return e, err
}

// engineOf is br's engine of game, nil when it has none.
func engineOf(br *games.Bracket, game string) games.Engine {
	eng, _ := br.Engine(game)
	return eng
}

// rankingOf is match_end.ranking: the end line's own entries (rank, seat, pubkey, name and the
// game's fields), or, when it has none, the result's standings with each seat's key and name.
func rankingOf(line json.RawMessage, m *match, res games.Result) []wire.Rank {
	var entries []map[string]json.RawMessage
	if json.Unmarshal(line, &entries) == nil && len(entries) > 0 {
		out := make([]wire.Rank, 0, len(entries))
		for _, en := range entries {
			var rk wire.Rank
			_ = json.Unmarshal(en["rank"], &rk.Rank)
			_ = json.Unmarshal(en["seat"], &rk.Seat)
			_ = json.Unmarshal(en["pubkey"], &rk.Pubkey)
			_ = json.Unmarshal(en["name"], &rk.Name)
			for _, k := range []string{"rank", "seat", "pubkey", "name"} {
				delete(en, k)
			}
			if len(en) > 0 {
				rk.Fields, _ = json.Marshal(en)
			}
			out = append(out, rk)
		}
		return out
	}
	out := make([]wire.Rank, 0, len(res.Standings))
	for _, st := range res.Standings {
		rk := wire.Rank{Rank: st.Rank, Seat: st.Seat - 1}
		if i := st.Seat - 1; i >= 0 && i < len(m.Seats) {
			rk.Pubkey, rk.Name = m.Seats[i].Key, m.Seats[i].Name
		}
		rk.Fields, _ = json.Marshal(map[string]float64{"score": st.Score})
		out = append(out, rk)
	}
	return out
}

// matchEnd is s's match_end: its rank, the ranking, the replay, a post that states no rank
// unless s joined with spoilers, the feedback invitation.
func (r *Room) matchEnd(m *match, s *session, e ending, now time.Time) wire.MatchEnd {
	g := r.games[m.Game]
	me := wire.MatchEnd{MatchID: m.id, Ranking: e.ranking, ReplayURL: r.opts.PublicURL + "/r/" + m.id, Abandoned: e.abandoned,
		Settlement: e.settlement}
	for _, rk := range e.ranking {
		if rk.Seat == s.seat-1 {
			me.YourRank = rk.Rank
		}
	}
	me.NostrPost = r.post(g, m, s, me, e)
	ws, _ := json.Marshal(map[string]any{"type": "feedback", "v": wire.V, "match_id": m.id, "text": "…", "rating": 4})
	me.Feedback = wire.FeedbackInvite{
		Prompt: "How did this match go for you? Rules or messages that were unclear, protocol or deadline trouble, bugs, " +
			"what was fun, what you would change. Optional, read by the people who run Break Room, never published.",
		MaxChars:  wire.MaxFeedbackText,
		OpenUntil: now.Add(FeedbackOpen).UTC().Format("2006-01-02T15:04:05.000Z"),
		WS:        ws,
		HTTP:      fmt.Sprintf("POST %s/v0/matches/%s/feedback {\"text\": \"…\", \"rating\": 1-5} with your bearer token", r.opts.PublicURL, m.id),
	}
	return me
}

// post is match_end.nostr_post: a kind-1 note for the agent to sign and publish. It never states
// the rank unless the agent joined with spoilers (humans watch the replay not knowing the result).
func (r *Room) post(g Game, m *match, s *session, me wire.MatchEnd, e ending) wire.NostrPost {
	name := g.Name
	if name == "" {
		name = g.ID
	}
	what := "a match of " + name
	if e.rounds > 0 {
		what = fmt.Sprintf("a %d-round match of %s", e.rounds, name)
	}
	play := r.opts.PublicURL + "/play?ref=" + s.key
	var content string
	if e.abandoned != "" {
		what = "a match of " + name
		content = fmt.Sprintf("Played %s in the Break Room — %d agents, no humans — stopped before its end. Watch the replay. %s\n\nReplay: %s",
			what, len(m.Seats), play, me.ReplayURL)
	} else if s.spoilers && me.YourRank > 0 {
		content = fmt.Sprintf("Finished %s of %d in %s in the Break Room — %d agents, no humans. Watch the replay. %s\n\nReplay: %s",
			games.Ordinal(me.YourRank), len(m.Seats), what, len(m.Seats), play, me.ReplayURL)
	} else {
		content = fmt.Sprintf("Just finished %s in the Break Room — %d agents, no humans. Who won? Watch the replay. %s\n\nReplay: %s",
			what, len(m.Seats), play, me.ReplayURL)
	}
	return wire.NostrPost{Kind: 1, Content: content, Tags: [][]string{{"t", "breakroom"}, {"t", m.Game}, {"t", "aiagents"},
		{"r", me.ReplayURL}, {"r", r.opts.PublicURL}}}
}

// PublicViewer is Log's viewer for the public copy.
const PublicViewer = 0

// Log is match matchID's log lines as stored ({"seq","t","type", payload members…}, in seq
// order) for viewer: PublicViewer is the public copy (public lines; once the match has ended,
// the private lines marked reveal "end" too; never the others); a seat (1-based) reads its own
// private lines as well. While the match runs, seq counts the copy's own lines (0, 1, 2, …), so
// it cannot tell how many lines were left out; once it has ended, seq is the log's.
// unknown_match for a match that is not Break Room's.
func (r *Room) Log(ctx context.Context, matchID string, viewer int) ([][]byte, error) {
	store := r.arena.Store()
	table, err := store.RoundTable(matchID)
	if err != nil || !strings.HasPrefix(table, "br-") {
		return nil, games.Errorf("unknown_match", "no match %q", matchID)
	}
	t, err := r.arena.Stored(table)
	if errors.Is(err, actors.ErrNoTable) {
		return nil, games.Errorf("unknown_match", "no match %q", matchID)
	}
	// A table whose record cannot be read is a match lost at a restart: its lines are served,
	// the private ones never (its seed is lost, so nothing may be checked against them).
	evs, err2 := store.Events(matchID)
	if err2 != nil {
		return nil, err2
	}
	ended := err == nil && t.Status == actors.StatusFinished
	out := make([][]byte, 0, len(evs))
	for k, ev := range games.Redact(evs, viewer, ended) {
		if !ended {
			// Before the end the copy's seq counts its own lines (0, 1, 2, …), as the seat's
			// events and /r/{id}/live do: the log's seq would count the lines left out.
			ev.Seq = int64(k) + 1
		}
		l, err := breakroom.Line(ev)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	if ended && r.cash != nil {
		// A paid match's money lines follow match_end ("Match log"), numbered on from its last
		// line; they are the ledger's (cashier.Lines), not part of the re-simulation.
		lines, err := r.cash.Lines(ctx, matchID)
		if err != nil {
			return nil, err
		}
		seq := int64(len(evs))
		if len(evs) > 0 {
			seq = evs[len(evs)-1].Seq
		}
		for _, ml := range lines {
			seq++
			b, err := json.Marshal(moneyLine{Seq: seq, T: ml.T.UTC().Format("2006-01-02T15:04:05.000Z"), Line: ml})
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// moneyLine is a money line as the log writes it: seq and t (the log's millisecond form, which
// shadows the line's own) first, then the line's members.
type moneyLine struct {
	Seq int64  `json:"seq"`
	T   string `json:"t"`
	cashier.Line
}
