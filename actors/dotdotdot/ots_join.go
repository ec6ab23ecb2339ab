package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strconv"
	"strings"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// OTSJoin is an off-the-shelf agent seated by its owner (§4.2: a registered agent whose card names
// this instance as its operator and carries the key the arena holds for it, OTSSigningKey). The
// door has resolved the Badge (§4.1) and checked both; here the agent is seated on the house
// model with the owner's playbook.
type OTSJoin struct {
	Agent    string         // CAIP-19 Badge
	Name     string         // the card's name (§4.2)
	Owner    string         // the Badge's owner, CAIP-10 (§3, from the registry)
	Playbook blitz.Playbook // the owner's playbook and dials (§5.5 playbooks)
	Table    string         // "practice"
	Format   string         // "short" or "blitz" ("" → "blitz")
	Seats    int            // the table's seat count within the format's; 0: its fewest
	// Pace is the table's clock; zero selects the agent clock of §5.3. Tests give a quicker one.
	Pace games.Pace
}

// OTSSigningKey is the public key the arena holds for off-the-shelf agent agent (OTSKey): the
// signing_key its card must carry for this instance to run it.
func (a *Arena) OTSSigningKey(agent string) ed25519.PublicKey {
	return OTSKey(a.InstanceKey(), agent).Public().(ed25519.PublicKey)
}

// JoinOTS seats an off-the-shelf agent (kind ots) at a fresh Practice table: the agent in seat 1
// on ChannelOTS, house agents in the others. The seat is a human seat (its owner holds its levers
// and pays the §14 table and inference fees at a table that charges them); its commitments are
// signed with the key the arena holds for it (OTSKey); its playbook is the table's
// Options.playbooks["1"], committed in the open-round anchor (§5.5). Refusals: bad_table,
// bad_request (a bad playbook or format), in_a_round (the Badge already holds a live seat), and
// OpenTable's.
func (a *Arena) JoinOTS(ctx context.Context, j OTSJoin) (AgentJoinReply, error) {
	if j.Table != "practice" {
		return AgentJoinReply{}, games.Errorf(CodeBadTable, "table %q: an off-the-shelf agent joins \"practice\"", j.Table)
	}
	if err := j.Playbook.Check(); err != nil {
		return AgentJoinReply{}, err
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
	if _, busy := a.joining.LoadOrStore(j.Agent, struct{}{}); busy {
		return AgentJoinReply{}, games.Errorf(CodeInARound, "%s is being seated by another join", j.Agent)
	}
	defer a.joining.Delete(j.Agent)
	if live, err := a.liveSeatOf(ctx, j.Agent); err != nil {
		return AgentJoinReply{}, err
	} else if live != nil {
		return AgentJoinReply{}, games.Errorf(CodeInARound, "%s already holds seat %d of %s (table %s)", j.Agent, live.seat, live.round, live.table)
	}
	id, err := newTableID("o")
	if err != nil {
		return AgentJoinReply{}, err
	}
	pace := a.pace("agent")
	if !paceZero(j.Pace) {
		pace = j.Pace
	}
	spec, _ := walkinTableSpec(id, "practice", format, n, pace, []lobbyWalkin{{Name: j.Name}}, nil)
	if err := seatOTS(&spec, 1, j); err != nil {
		return AgentJoinReply{}, err
	}
	round, err := a.OpenTable(ctx, spec)
	if err != nil {
		return AgentJoinReply{}, err
	}
	return AgentJoinReply{Round: round, Table: id, Seat: 1, Format: format, Pace: spec.Pace.Name, Status: "seated"}, nil
}

// seatOTS makes seat of spec (a walkinTableSpec's) the off-the-shelf seat of j: its Badge and
// name, kind ots on ChannelOTS, a human seat whose answers arrive as walk-in bodies (the arena
// signs them with OTSKey), and its playbook in spec.Options.playbooks (merged into the options
// spec already has).
func seatOTS(spec *actors.TableSpec, seat int, j OTSJoin) error {
	s := &spec.Seats[seat-1]
	s.Seat.Agent, s.Seat.Name, s.Lent, s.Actor, s.Endpoint = j.Agent, j.Name, false, "", ""
	setBlitzSeat(s, func(o *blitz.SeatOptions) { o.Kind, o.Walkin, o.Human, o.Owner = "ots", true, true, j.Owner })
	s.Channel = ChannelOTS
	opts := map[string]json.RawMessage{}
	if len(spec.Options) > 0 {
		if err := json.Unmarshal(spec.Options, &opts); err != nil {
			return games.Errorf(games.CodeBadRequest, "table options: %v", err)
		}
	}
	books := map[string]json.RawMessage{}
	if raw, ok := opts["playbooks"]; ok {
		if err := json.Unmarshal(raw, &books); err != nil {
			return games.Errorf(games.CodeBadRequest, "table options.playbooks: %v", err)
		}
	}
	books[strconv.Itoa(seat)] = j.Playbook.JSON()
	opts["playbooks"], _ = json.Marshal(books) // raw JSON values: cannot fail
	spec.Options, _ = json.Marshal(opts)
	return nil
}
