package dotdotdot

import (
	"context"
	"strings"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// Registered agents at tables (§4, §4.3, §5.7, §12): the actor side of POST /v1/join and of the
// owner's levers. The door (transport/dotdotdot/join) has already checked the join's signature against
// the key resolved from the chain (§4.1), its freshness and its nonce; here the agent is seated.

// AgentJoin is a verified join of a registered agent.
type AgentJoin struct {
	Agent    string // CAIP-19 Badge
	Name     string // the card's name (§4.2: it wins over a name sent at join)
	Endpoint string // the card's A2A endpoint: every move is called there (§4)
	Kind     string // the seat kind: "byo" (default), the card's "house"/"arena", or "ots" (Playbook)
	Owner    string // the Badge's owner, CAIP-10 (§3, from the registry): seat.taken's owner (§15)
	// Table is the kind of table (kinds.go): "practice" or "solo" (a fresh table with house
	// seats, opened at once), "free", "rated" or "gated" (the table of that kind gathering now).
	Table  string
	Format string // "short" or "blitz" ("" → "blitz")
	Seats  int    // the Practice table's seat count within the format's (§5.6); 0: its fewest
	// Pace is the table's clock; zero selects the agent clock of §5.3 (every phase its full
	// length). Tests give a quicker one.
	Pace games.Pace
	// Human says whether the Badge's owner holds the seat's levers over a session (§12): the
	// seat is then a human seat (levers, table fee) and its agent may carry the accusation.
	Human bool
	// Playbook, with Kind "ots", is an off-the-shelf agent's playbook at a paid table
	// (PaidTables.Hold): the arena runs it on the house model (ots.go) and it pays the §14
	// inference fee. Nil for every other kind.
	Playbook *blitz.Playbook
	// OTSGrant, with Kind "ots", is the grant of the owner token whose key the card carries
	// (OTSKey): the key the arena signs the seat's commitments with.
	OTSGrant string
}

// AgentJoinReply is where the agent sits.
type AgentJoinReply struct {
	Round  string `json:"round"`  // "T-<n>"
	Table  string `json:"table"`  // table id
	Seat   int    `json:"seat"`   // 1..N
	Format string `json:"format"` // "blitz" | "short"
	Pace   string `json:"pace"`   // "agent" or the test clock's name
	Status string `json:"status"` // "seated", or "gathering" (the agent is called once the round starts)
	Kind   string `json:"kind,omitempty"`
	// StartsBy is, for a table gathering, when house seats may top it up (if it has the agents
	// its kind needs by then: two at a rated or badge-gated table).
	StartsBy time.Time `json:"starts_by,omitzero"`
}

// CodeBadTable refuses a join naming a table an agent cannot join (409). A join by an agent
// that already holds a live seat is CodeInARound (one live round per Badge, as for walk-ins).
const CodeBadTable = "bad_table"

// JoinAgent seats a registered agent (§4.3, after the door's checks). "practice" opens a fresh
// table at once: the agent in seat 1 on the "a2a" channel (the envelope signed by the instance
// key goes to j.Endpoint), house agents in the other seats, every seat at the notional entry.
// The seat's key is resolved through Options.Keys when the table opens. Refusals: bad_table,
// in_a_round (the Badge already holds a live seat, a place at a gathering table or a paid seat
// not yet played: badgeBusy), bad_request (no endpoint), and OpenTable's.
func (a *Arena) JoinAgent(ctx context.Context, j AgentJoin) (AgentJoinReply, error) {
	if j.Table != KindPractice && j.Table != KindSolo && !gathers(j.Table) {
		return AgentJoinReply{}, games.Errorf(CodeBadTable, "table %q: an agent joins \"practice\", \"solo\", \"free\", \"rated\", \"gated\" or \"open\" (paid, §5.7)", j.Table)
	}
	if j.Endpoint == "" {
		return AgentJoinReply{}, games.Errorf(games.CodeBadRequest, "the agent's card names no endpoint: a registered agent is called there (§4)")
	}
	format := j.Format
	if format == "" {
		format = "blitz"
	}
	if _, ok := a.formats.of(format); !ok {
		return AgentJoinReply{}, games.Errorf(games.CodeBadRequest, "format %q: %s", format, strings.ReplaceAll(a.formats.choices(), "\"", ""))
	}
	n, err := a.formats.choose(format, j.Seats)
	if err != nil {
		return AgentJoinReply{}, err
	}
	// One join per Badge at a time: the live-seat check and the opening are one step, or joins
	// arriving together would each find no live seat and each open a table.
	if _, busy := a.joining.LoadOrStore(j.Agent, struct{}{}); busy {
		return AgentJoinReply{}, games.Errorf(CodeInARound, "%s is being seated by another join", j.Agent)
	}
	defer a.joining.Delete(j.Agent)
	if err := a.badgeBusy(ctx, j.Agent); err != nil {
		return AgentJoinReply{}, err
	}
	if gathers(j.Table) {
		return a.joinGathering(ctx, j.Table, format, n, j)
	}
	if j.Table == KindSolo && format != walkinGame {
		return AgentJoinReply{}, games.Errorf(games.CodeBadRequest, "a Solo plays blitz, the whole game (Practice plays short)")
	}
	id, err := newTableID("a")
	if err != nil {
		return AgentJoinReply{}, err
	}
	// The agent's name is passed so that no house seat shares it (§9 names seats by name).
	pace := a.pace("agent")
	if !paceZero(j.Pace) {
		pace = j.Pace
	}
	spec, _ := walkinTableSpec(id, j.Table, format, n, pace, []lobbyWalkin{{Name: j.Name}}, nil)
	kind := j.Kind
	if kind == "" {
		kind = "byo"
	}
	s := &spec.Seats[0]
	s.Seat.Agent, s.Seat.Name, s.Lent = j.Agent, j.Name, false
	setBlitzSeat(s, func(o *blitz.SeatOptions) { o.Kind, o.Walkin, o.Human, o.Owner = kind, false, j.Human, j.Owner })
	s.Channel, s.Endpoint = ChannelA2A, j.Endpoint
	round, err := a.OpenTable(ctx, spec)
	if err != nil {
		return AgentJoinReply{}, err
	}
	return AgentJoinReply{Round: round, Table: id, Seat: 1, Format: format, Pace: spec.Pace.Name, Status: "seated", Kind: j.Table}, nil
}

func paceZero(p games.Pace) bool { return p.IsZero() }

// liveSeat is where a Badge sits in a live round.
type liveSeat struct {
	table, round string
	seat         int
}

// badgeBusy refuses (in_a_round) a Badge that has a round already: a live seat, a place at a
// gathering table (free, rated, badge-gated), or a paid seat not yet played (a hold on a paid
// table still filling, or a paid hold on one being opened). Every way a Badge takes a seat asks
// it first (JoinAgent's Practice, Solo and gathering joins, JoinOTS, PaidTables.Hold), under
// Arena.joining, so a Badge sits one round at a time. Errors: in_a_round, or busy when the
// tables, the gatherings or the paid tables could not be read.
func (a *Arena) badgeBusy(ctx context.Context, agent string) error {
	if live, err := a.liveSeatOf(ctx, agent); err != nil {
		return err
	} else if live != nil {
		return games.Errorf(CodeInARound, "%s already holds seat %d of %s (table %s)", agent, live.seat, live.round, live.table)
	}
	if at, err := a.waitingAt(ctx, agent); err != nil {
		return err
	} else if at != "" {
		return games.Errorf(CodeInARound, "%s is waiting at table %s", agent, at)
	}
	if p := a.paid.Load(); p != nil {
		v, err := paidAsk[*paidHoldingView](ctx, p, &paidHoldingGet{Agent: agent})
		if err != nil {
			return err
		}
		if v.Hold != "" {
			return games.Errorf(CodeInARound, "%s holds a paid seat at %s (its hold %s)", agent, v.Table, v.Hold)
		}
	}
	return nil
}

// liveSeatOf finds the live table seating agent (nil when none). It reads the table list (the
// tables' own records), so it needs no state of its own and survives restarts.
func (a *Arena) liveSeatOf(ctx context.Context, agent string) (*liveSeat, error) {
	ts, err := a.Tables(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.Status != actors.StatusLive {
			continue
		}
		for _, s := range t.Seats {
			if s.Agent == agent {
				return &liveSeat{table: t.ID, round: t.Round, seat: s.Seat}, nil
			}
		}
	}
	return nil, nil
}

// AgentLever applies the owner's lever (§12: kind "call", "veto" or "accuse", body the raw JSON
// body) to the seat agent holds in round. The game decides every rule (limits, placement, the
// mole, the phase) and refuses with the §12 codes; here only the seat is found: not_seated when
// the Badge holds no seat in that round, round_over when that round is finished.
func (a *Arena) AgentLever(ctx context.Context, agent, round, kind string, body []byte) ([]byte, error) {
	switch kind {
	case "call", "veto", "accuse":
	default:
		return nil, games.Errorf(games.CodeBadRequest, "unknown lever %q: call, veto or accuse", kind)
	}
	if _, err := jsonObjectMembers(body); err != nil {
		return nil, games.Errorf(games.CodeBadRequest, "lever body: %v", err)
	}
	ts, err := a.Tables(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.Round != round {
			continue
		}
		for _, s := range t.Seats {
			if s.Agent != agent {
				continue
			}
			if t.Status == actors.StatusFinished {
				return nil, games.Errorf(games.CodeRoundOver, "round %s is over", round)
			}
			reply, err := a.Submit(ctx, actors.SubmitAnswer{Table: t.ID, Round: round, At: a.Clock().Now(),
				Input: games.Input{Seat: s.Seat, Kind: kind, Body: body}})
			if err != nil {
				return nil, err
			}
			if reply.Code != "" {
				return nil, &games.Error{Code: reply.Code, Msg: reply.Msg, Retry: reply.Retry}
			}
			return reply.Reply, nil
		}
	}
	return nil, games.Errorf("not_seated", "%s holds no seat in %s", agent, round)
}
