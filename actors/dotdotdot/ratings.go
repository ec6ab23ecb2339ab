package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"arena/actors"
	"arena/games/blitz"
	"arena/games/rating"
	"arena/storage"
)

// Ratings (docs/protocol-notes.md, "DOTDOTDOT ratings"): a Glicko-2 rating per agent id (the
// Badge, §3) from rated tables only (KindRated), shown as `rating` in seat.taken (§15) and
// agents[] (§5.4) at every table the Badge sits at, kept in the store (bucket ratings) with
// every rated round it rests on, so RecomputeRatings rebuilds them from the rounds alone.

// RatingRecord is a Badge's rating as stored and listed.
type RatingRecord struct {
	Agent string `json:"agent"`
	Name  string `json:"name"` // the card's name at its last rated round
	rating.Rating
	Display int    `json:"display"` // the rating shown at a table (rating.Display)
	Rounds  int    `json:"rounds"`  // rated rounds played
	Last    string `json:"last"`    // the last rated round, "T-<n>"
}

// RatedRound is one rated round as it was rated: its rated seats (the registered Badges; house
// and lent seats are not rated) with their places.
type RatedRound struct {
	Table string      `json:"table"`
	Round string      `json:"round"`
	Seats []RatedSeat `json:"seats"`
}

// RatedSeat is one rated seat of a RatedRound.
type RatedSeat struct {
	Seat  int    `json:"seat"`
	Agent string `json:"agent"`
	Name  string `json:"name"`
	Rank  int    `json:"rank"` // its place in the round's standings (games.Result.Standings)
}

// ratingSystem is the rated tables' Glicko-2 (τ 0.5, newcomers 1500 / 350 / 0.06).
var ratingSystem = rating.Default()

// rateRound is one rated round on the ratings before it (old[i] is r.Seats[i]'s, nil for a
// Badge never rated): the new records, in r's seat order.
func rateRound(r RatedRound, old [][]byte) ([][]byte, error) {
	recs := make([]RatingRecord, len(r.Seats))
	pre := make([]rating.Rating, len(r.Seats))
	ranks := make([]int, len(r.Seats))
	for i, s := range r.Seats {
		recs[i] = RatingRecord{Agent: s.Agent, Rating: ratingSystem.New()}
		if old[i] != nil {
			if err := json.Unmarshal(old[i], &recs[i]); err != nil {
				return nil, fmt.Errorf("rating of %s: %w", s.Agent, err)
			}
		}
		pre[i], ranks[i] = recs[i].Rating, s.Rank
	}
	post, err := ratingSystem.Round(pre, ranks)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(r.Seats))
	for i, s := range r.Seats {
		recs[i].Rating, recs[i].Name, recs[i].Last = post[i], s.Name, r.Round
		recs[i].Display = rating.Display(post[i])
		recs[i].Rounds++
		if out[i], err = json.Marshal(recs[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ratedRoundOf is the rated round of a finished table (ok false: the table is not rated, its
// round was abandoned, or it has fewer than two rated seats, so it rates nobody).
func ratedRoundOf(id string, st actors.Stored) (RatedRound, bool) {
	k, known := KindOf(st.Kind)
	if !known || !k.Rated || st.Game != walkinGame || st.Status != actors.StatusFinished || st.Result == nil || st.Result.Abandoned != "" {
		return RatedRound{}, false
	}
	rank := map[int]int{}
	for _, s := range st.Result.Standings {
		rank[s.Seat] = s.Rank
	}
	r := RatedRound{Table: id, Round: st.Round}
	for _, s := range st.Seats {
		o, err := blitz.SeatOptionsOf(s.Seat)
		if err != nil || s.LentKey() || o.Kind == "walkin" || rank[s.Seat.Seat] < 1 {
			continue
		}
		r.Seats = append(r.Seats, RatedSeat{Seat: s.Seat.Seat, Agent: s.Seat.Agent, Name: s.Seat.Name, Rank: rank[s.Seat.Seat]})
	}
	return r, len(r.Seats) >= 2
}

// rateTable rates table id's round once it is finished (a table rated before, or not rated,
// is left alone): the round is stored with its seats' new ratings in one write. Errors: the
// table's record or the store could not be read or written (it is tried again at the next
// start, rateFinished).
func (a *Arena) rateTable(id string) error {
	st, err := a.Stored(id)
	if err != nil {
		return err
	}
	r, ok := ratedRoundOf(id, st)
	if !ok {
		return nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	agents := make([]string, len(r.Seats))
	for i, s := range r.Seats {
		agents[i] = s.Agent
	}
	_, err = a.Store().RateRound(id, b, agents, func(old [][]byte) ([][]byte, error) { return rateRound(r, old) })
	return err
}

// rateFinished rates every finished rated table not rated yet (a crash between a round's end
// and its rating): run once the arena has restored its tables.
func (a *Arena) rateFinished(ctx context.Context) {
	ts, err := a.Tables(ctx)
	if err != nil {
		a.Logger().Warn("ratings: tables unreadable; finished rated tables are rated at the next start", "err", err)
		return
	}
	for _, t := range ts {
		if t.Kind != KindRated || t.Status != actors.StatusFinished {
			continue
		}
		if err := a.rateTable(t.ID); err != nil {
			a.Logger().Warn("ratings: a finished rated table could not be rated", "table", t.ID, "err", err)
		}
	}
}

// Rating is agent's rating (ok false: the Badge has played no rated round).
func (a *Arena) Rating(agent string) (RatingRecord, bool, error) {
	b, err := a.Store().Rating(agent)
	if errors.Is(err, storage.ErrNotFound) {
		return RatingRecord{}, false, nil
	} else if err != nil {
		return RatingRecord{}, false, err
	}
	var r RatingRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return RatingRecord{}, false, fmt.Errorf("dotdotdot: rating of %s: %w", agent, err)
	}
	return r, true, nil
}

// Ratings is every rated Badge, highest rating first (ties: more rounds, then agent id).
func (a *Arena) Ratings() ([]RatingRecord, error) {
	var out []RatingRecord
	err := a.Store().Ratings(func(agent string, b []byte) error {
		var r RatingRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("rating of %s: %w", agent, err)
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rating.Rating != out[j].Rating.Rating {
			return out[i].Rating.Rating > out[j].Rating.Rating
		}
		if out[i].Rounds != out[j].Rounds {
			return out[i].Rounds > out[j].Rounds
		}
		return out[i].Agent < out[j].Agent
	})
	return out, nil
}

// RecomputeRatings rebuilds every rating from the stored rated rounds alone, in the order they
// were rated, from newcomers' ratings: the ratings the store should hold, by agent id. A rating
// is a pure function of the rounds before it (games/rating), so this equals the stored ratings
// exactly unless the store was changed behind the arena's back.
func (a *Arena) RecomputeRatings() (map[string]RatingRecord, error) {
	cur := map[string][]byte{}
	err := a.Store().RatedRounds(func(seq uint64, b []byte) error {
		var r RatedRound
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("rated round %d: %w", seq, err)
		}
		old := make([][]byte, len(r.Seats))
		for i, s := range r.Seats {
			old[i] = cur[s.Agent]
		}
		nv, err := rateRound(r, old)
		if err != nil {
			return fmt.Errorf("rated round %d: %w", seq, err)
		}
		for i, s := range r.Seats {
			cur[s.Agent] = nv[i]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]RatingRecord, len(cur))
	for agent, b := range cur {
		var r RatingRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, err
		}
		out[agent] = r
	}
	return out, nil
}

// setRatings returns spec with each Badge seat's blitz.SeatOptions.Rating set to its Badge's
// shown rating (0 for a Badge never rated, and for lent and house seats, whose Badges are the
// house's), so seat.taken and agents[] carry it (§5.4, §15). A rating that cannot be read
// leaves the seat's at 0 and is logged: the table opens regardless.
func (a *Arena) setRatings(spec actors.TableSpec) actors.TableSpec {
	if spec.Game != walkinGame {
		return spec
	}
	seats := append([]actors.SeatSpec(nil), spec.Seats...)
	for i := range seats {
		if seats[i].LentKey() || seats[i].Seat.Agent == "" {
			continue
		}
		o, err := blitz.SeatOptionsOf(seats[i].Seat)
		if err != nil {
			return spec
		}
		r, ok, err := a.Rating(seats[i].Seat.Agent)
		if err != nil {
			a.Logger().Warn("ratings: a seat's rating could not be read; shown as 0", "agent", seats[i].Seat.Agent, "err", err)
		}
		o.Rating = 0
		if ok {
			o.Rating = r.Display
		}
		seats[i].Seat.Options = o.JSON()
	}
	spec.Seats = seats
	return spec
}

// ratedRounds is how many rated rounds agent has played (0 when never rated or unreadable).
func (a *Arena) ratedRounds(agent string) int {
	r, ok, err := a.Rating(agent)
	if err != nil || !ok {
		return 0
	}
	return r.Rounds
}

// RatingFinding is one way the stored ratings disagree with what they rest on (CheckRatings).
type RatingFinding struct {
	// Kind is RatingRoundDiffers, RatingDiffers or RatingUnrated.
	Kind       string        `json:"kind"`
	Table      string        `json:"table,omitempty"`
	Agent      string        `json:"agent,omitempty"`
	Stored     *RatingRecord `json:"stored,omitempty"`
	Recomputed *RatingRecord `json:"recomputed,omitempty"`
	Detail     string        `json:"detail,omitempty"`
}

// RatingFinding kinds.
const (
	// RatingRoundDiffers: a stored rated round is not its table's result (the table's record
	// says other places, other Badges, or is not a finished rated round).
	RatingRoundDiffers = "round_differs"
	// RatingDiffers: a stored rating is not the one recomputed from the rated rounds.
	RatingDiffers = "rating_differs"
	// RatingUnrated: a finished rated table whose round is not among the rated rounds (it is
	// rated at the next start).
	RatingUnrated = "unrated"
)

// CheckRatings checks the ratings against what they rest on (`arena ops check ratings`): every
// stored rated round against its table's record (the round's result, read again), every stored
// rating against the ratings recomputed from the rated rounds alone, and every finished rated
// table against the rated rounds. No finding: the ratings are the rounds' and the rounds are the
// tables'. Errors: the store could not be read.
func (a *Arena) CheckRatings(ctx context.Context) ([]RatingFinding, error) {
	out := []RatingFinding{}
	rated := map[string]bool{}
	err := a.Store().RatedRounds(func(seq uint64, b []byte) error {
		var r RatedRound
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("rated round %d: %w", seq, err)
		}
		rated[r.Table] = true
		st, err := a.Stored(r.Table)
		if err != nil {
			out = append(out, RatingFinding{Kind: RatingRoundDiffers, Table: r.Table, Detail: err.Error()})
			return nil
		}
		want, ok := ratedRoundOf(r.Table, st)
		if !ok {
			out = append(out, RatingFinding{Kind: RatingRoundDiffers, Table: r.Table, Detail: "the table's record is not a finished rated round of two Badges or more"})
		} else if wb, _ := json.Marshal(want); string(wb) != string(b) {
			out = append(out, RatingFinding{Kind: RatingRoundDiffers, Table: r.Table, Detail: "stored " + string(b) + ", the table's " + string(wb)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	again, err := a.RecomputeRatings()
	if err != nil {
		return nil, err
	}
	stored, err := a.Ratings()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range stored {
		s := stored[i]
		seen[s.Agent] = true
		if r, ok := again[s.Agent]; !ok || r != s {
			f := RatingFinding{Kind: RatingDiffers, Agent: s.Agent, Stored: &s}
			if ok {
				f.Recomputed = &r
			}
			out = append(out, f)
		}
	}
	for agent, r := range again {
		if !seen[agent] {
			out = append(out, RatingFinding{Kind: RatingDiffers, Agent: agent, Recomputed: &r})
		}
	}
	ts, err := a.Tables(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.Kind != KindRated || t.Status != actors.StatusFinished || rated[t.ID] {
			continue
		}
		if st, err := a.Stored(t.ID); err == nil {
			if _, ok := ratedRoundOf(t.ID, st); ok {
				out = append(out, RatingFinding{Kind: RatingUnrated, Table: t.ID})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Kind+out[i].Table+out[i].Agent < out[j].Kind+out[j].Table+out[j].Agent
	})
	return out, nil
}
