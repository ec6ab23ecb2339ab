package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// OTSAgent is an off-the-shelf agent seated by its owner (§4.2: a registered agent whose card
// names this instance as its operator and carries the key the arena holds for it,
// OTSSigningKey). The door has resolved the Badge (§4.1) and checked both; here the agent is
// seated on the house model with the owner's playbook.
type OTSAgent struct {
	Agent    string         // CAIP-19 Badge
	Name     string         // the card's name (§4.2)
	Owner    string         // the Badge's owner, CAIP-10 (§3, from the registry)
	Playbook blitz.Playbook // the owner's playbook and dials (§5.5 playbooks)
	Grant    string         // OTSGrant of the owner token whose key the card carries (OTSKey)
}

// MaxOTSAgents is how many off-the-shelf agents one JoinOTS seats at one table.
const MaxOTSAgents = 4

// OTSJoin asks for one Practice table with off-the-shelf agents in its first seats.
type OTSJoin struct {
	Agents []OTSAgent // 1 to MaxOTSAgents, distinct Badges and names, seated in order from seat 1
	Table  string     // "practice"
	Format string     // "short" or "blitz" ("" → "blitz")
	Seats  int        // the table's seat count within the format's; 0: its fewest
	// Pace is the table's clock; zero selects the agent clock of §5.3. Tests give a quicker one.
	Pace games.Pace
}

// OTSSigningKey is the public key the arena holds for off-the-shelf agent agent under grant
// (OTSKey, OTSGrant of the owner token): the signing_key its card must carry for this instance
// to run it for the holder of that token.
func (a *Arena) OTSSigningKey(agent, grant string) ed25519.PublicKey {
	return OTSKey(a.InstanceKey(), agent, grant).Public().(ed25519.PublicKey)
}

// OTSJoinReply is where the agents sit: the table's round and each agent's seat, in j.Agents'
// order.
type OTSJoinReply struct {
	Round  string `json:"round"`
	Table  string `json:"table"`
	Seats  []int  `json:"seats"`
	Format string `json:"format"`
	Pace   string `json:"pace"`
	Status string `json:"status"` // "seated"
	// PlaybookTokens are, by seat in Seats' order, the tokens the owner's human edits that seat's
	// playbook with until scouting ends (EditPlaybook; §5.2). Secret: whoever holds one may
	// change that seat's playbook while scouting lasts.
	PlaybookTokens []string `json:"playbook_tokens"`
}

// JoinOTS seats off-the-shelf agents (kind ots) at a fresh Practice table: the agents in seats
// 1.. on ChannelOTS, house agents in the others. Each is a human seat (its owner holds its
// levers and pays the §14 table and inference fees at a table that charges them); its
// commitments are signed with the key the arena holds for it (OTSKey); its playbook is the
// table's Options.playbooks entry for its seat, committed in the open-round anchor (§5.5).
// Refusals: bad_table, bad_request (no agent, too many, one twice, a bad playbook or format, no
// seat left for the house), in_a_round (a Badge already holds a live seat, a place at a
// gathering table or a paid seat not yet played: badgeBusy), and OpenTable's.
func (a *Arena) JoinOTS(ctx context.Context, j OTSJoin) (OTSJoinReply, error) {
	if j.Table != "practice" {
		return OTSJoinReply{}, games.Errorf(CodeBadTable, "table %q: off-the-shelf agents join \"practice\"", j.Table)
	}
	if len(j.Agents) == 0 || len(j.Agents) > MaxOTSAgents {
		return OTSJoinReply{}, games.Errorf(games.CodeBadRequest, "%d agents: a table takes 1 to %d off-the-shelf agents", len(j.Agents), MaxOTSAgents)
	}
	seen := map[string]bool{}
	for _, ag := range j.Agents {
		if seen[ag.Agent] || seen["name:"+nameKey(ag.Name)] {
			return OTSJoinReply{}, games.Errorf(games.CodeBadRequest, "%s (%q) is named twice: each seat is one Badge and one name", ag.Agent, ag.Name)
		}
		seen[ag.Agent], seen["name:"+nameKey(ag.Name)] = true, true
		if err := ag.Playbook.Check(); err != nil {
			return OTSJoinReply{}, err
		}
		if ag.Grant == "" {
			return OTSJoinReply{}, games.Errorf(games.CodeBadRequest, "%s has no key grant: the arena signs for an off-the-shelf seat with the key of its owner's token (OTSKey)", ag.Agent)
		}
	}
	format := j.Format
	if format == "" {
		format = "blitz"
	}
	if _, ok := a.formats.of(format); !ok {
		return OTSJoinReply{}, games.Errorf(games.CodeBadRequest, "format %q: %s", format, strings.ReplaceAll(a.formats.choices(), "\"", ""))
	}
	n, err := a.formats.choose(format, j.Seats)
	if err != nil {
		return OTSJoinReply{}, err
	}
	if len(j.Agents) >= n {
		return OTSJoinReply{}, games.Errorf(games.CodeBadRequest, "%d agents at a table of %d seats: Practice keeps at least one house seat", len(j.Agents), n)
	}
	var walkins []lobbyWalkin
	for _, ag := range j.Agents {
		if _, busy := a.joining.LoadOrStore(ag.Agent, struct{}{}); busy {
			return OTSJoinReply{}, games.Errorf(CodeInARound, "%s is being seated by another join", ag.Agent)
		}
		defer a.joining.Delete(ag.Agent)
		if err := a.badgeBusy(ctx, ag.Agent); err != nil {
			return OTSJoinReply{}, err
		}
		walkins = append(walkins, lobbyWalkin{Name: ag.Name})
	}
	id, err := newTableID("o")
	if err != nil {
		return OTSJoinReply{}, err
	}
	pace := a.pace("agent")
	if !paceZero(j.Pace) {
		pace = j.Pace
	}
	spec, _ := walkinTableSpec(id, "practice", format, n, pace, walkins, nil)
	r := OTSJoinReply{Table: id, Format: format, Pace: spec.Pace.Name, Status: "seated"}
	for i, ag := range j.Agents {
		if err := seatOTS(&spec, i+1, ag); err != nil {
			return OTSJoinReply{}, err
		}
		r.Seats = append(r.Seats, i+1)
		r.PlaybookTokens = append(r.PlaybookTokens, a.playbookToken(id, i+1))
	}
	if r.Round, err = a.OpenTable(ctx, spec); err != nil {
		return OTSJoinReply{}, err
	}
	return r, nil
}

// seatOTS makes seat of spec (a walkinTableSpec's) the off-the-shelf seat of agent j: its Badge
// and name, kind ots on ChannelOTS, a human seat whose answers arrive as walk-in bodies (the arena
// signs them with OTSKey), and its playbook in spec.Options.playbooks (merged into the options
// spec already has).
func seatOTS(spec *actors.TableSpec, seat int, j OTSAgent) error {
	s := &spec.Seats[seat-1]
	s.Seat.Agent, s.Seat.Name, s.Lent, s.Actor, s.Endpoint = j.Agent, j.Name, false, "", ""
	setBlitzSeat(s, func(o *blitz.SeatOptions) { o.Kind, o.Walkin, o.Human, o.Owner = "ots", true, true, j.Owner })
	s.Channel, s.OTSGrant = ChannelOTS, j.Grant
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

// playbookToken is the token that edits seat's playbook at table (§5.2), derived, never stored:
//
//	"pb_" <table> "." <seat> "." hex(HMAC-SHA256(key = InstanceKey.Seed(), msg = "arena/ots-playbook/v1" 0x00 <table> 0x00 <seat>)[:16])
func (a *Arena) playbookToken(table string, seat int) string {
	return "pb_" + table + "." + strconv.Itoa(seat) + "." + hex.EncodeToString(playbookMAC(a.InstanceKey(), table, seat))
}

func playbookMAC(instance ed25519.PrivateKey, table string, seat int) []byte {
	mac := hmac.New(sha256.New, instance.Seed())
	mac.Write([]byte("arena/ots-playbook/v1\x00" + table + "\x00" + strconv.Itoa(seat)))
	return mac.Sum(nil)[:16]
}

// CodeUnknownPlaybookToken refuses a playbook edit whose token names no off-the-shelf seat.
const CodeUnknownPlaybookToken = "unknown_token"

// EditPlaybook sets the playbook and dials (a blitz.Playbook, strict) of the off-the-shelf seat
// token names (JoinOTS's PlaybookTokens), while its round's scouting lasts (§5.2); the game takes
// it (blitz "playbook" input) and answers {"playbook": its canonical bytes}. Refusals:
// unknown_token (not a token of this arena's), bad_request (a bad playbook), playbook_locked
// (scouting is over), round_over, and the table's.
func (a *Arena) EditPlaybook(ctx context.Context, token string, playbook []byte) (json.RawMessage, error) {
	table, seat, ok := a.parsePlaybookToken(token)
	if !ok {
		return nil, games.Errorf(CodeUnknownPlaybookToken, "not a playbook token of this arena")
	}
	ti, err := a.Table(ctx, table)
	if err != nil {
		return nil, err
	}
	if ti.Status == actors.StatusFinished {
		return nil, games.Errorf(games.CodeRoundOver, "round %s is over", ti.Round)
	}
	reply, err := a.Submit(ctx, actors.SubmitAnswer{Table: table, Round: ti.Round, At: a.Clock().Now(),
		Input: games.Input{Seat: seat, Kind: "playbook", Body: playbook}})
	if err != nil {
		return nil, err
	}
	if reply.Code != "" {
		return nil, &games.Error{Code: reply.Code, Msg: reply.Msg, Retry: reply.Retry}
	}
	return reply.Reply, nil
}

// parsePlaybookToken reads a playbookToken back: its table and seat, when its MAC is this
// arena's.
func (a *Arena) parsePlaybookToken(token string) (string, int, bool) {
	rest, ok := strings.CutPrefix(token, "pb_")
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return "", 0, false
	}
	j := strings.LastIndexByte(rest[:i], '.')
	if j <= 0 {
		return "", 0, false
	}
	table, seatText, macText := rest[:j], rest[j+1:i], rest[i+1:]
	seat, err := strconv.Atoi(seatText)
	if err != nil || seat < 1 || strconv.Itoa(seat) != seatText {
		return "", 0, false
	}
	mac, err := hex.DecodeString(macText)
	if err != nil || !hmac.Equal(mac, playbookMAC(a.InstanceKey(), table, seat)) {
		return "", 0, false
	}
	return table, seat, true
}
