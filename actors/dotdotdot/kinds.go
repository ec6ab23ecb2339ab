package dotdotdot

import (
	"context"
	"encoding/json"
	"maps"
	"strconv"
	"strings"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// Table kinds (TableSpec.Kind). The protocol names them (§4.4, §4.5, §5.2, §5.5, §5.7, §12)
// and leaves their rules to documents we do not have; the rules below are the arena's
// (docs/protocol-notes.md, "DOTDOTDOT table kinds").
const (
	KindPractice = "practice" // Practice (§4.4, §5.6): one player against house seats
	KindWalkin   = "walkin"   // the walk-in table (§4.4): walk-ins after three Practice rounds
	KindHosted   = "hosted"   // a hosted table (§4.5): by code, unrated, nothing at stake
	KindPaid     = "open"     // a paid table (§5.7): entries in the escrow
	KindFree     = "free"     // Free play: any seat, nothing at stake, unrated (§5.5)
	KindSolo     = "solo"     // a free Solo: one player against the house roster (§5.5)
	KindRated    = "rated"    // a rated table: registered Badges, rated (§5.2: 60 s scouting)
	KindGated    = "gated"    // a badge-gated table: rated Badges only (§5.2: 30 s scouting)
	// KindShowcase (levers.go): in-house agents only, holding their humans' levers (§12).
)

// Stakes at a table kind (TableKind.Stakes).
const (
	StakesNone     = "none"     // chips: nothing is owed, nothing is recorded as owed
	StakesNotional = "notional" // chips; the walk-in's record counts the 200 CCD it would have paid (§4.4)
	StakesCCD      = "ccd"      // CCD in the escrow (§5.7): the ledger and the escrow hold them
)

// Who sits at a kind's seats (TableKind.Sits).
const (
	SitOnePlayer  = "one_player"   // at most one player seat (a walk-in or a registered agent); house seats fill the rest
	SitWalkins    = "walkins"      // walk-ins; house seats top up
	SitPaidAgents = "paid_agents"  // registered agents whose entry is in the escrow; house seats at the same stakes
	SitAnyone     = "anyone"       // walk-ins, registered agents and house seats
	SitInHouse    = "in_house"     // in-house agents only (kind house or arena, house-owned Badges)
	SitBadges     = "badges"       // registered agents' own Badges, one seat per owner; house seats top up
	SitRatedBadge = "rated_badges" // as SitBadges, each Badge holding a rating from GateRounds rated rounds
)

// GateRounds is how many rated rounds a Badge must have played for a badge-gated table to seat
// it: its rating then rests on play, not on the newcomer's 1500.
const GateRounds = 3

// TableKind is one kind of DOTDOTDOT table and the rules it promises: how long its scouting is
// on the agent clock (§5.2), who may sit (Sits), what is at stake, whether its rounds are rated,
// and how the chain learns of its rounds (§5.5). Every kind registers its open-round anchor by
// Register Data before turn 1; Free play registers nothing more, every other kind its per-move
// anchors too; only Escrow kinds also call the escrow's open_round, anchor and settle.
type TableKind struct {
	Kind  string `json:"kind"`  // TableSpec.Kind
	Title string `json:"title"` // in the lobby
	// Scouting is the scouting length on the agent clock (§5.2: 90 s default, 60 s rated, 30 s
	// badge-gated); a chat-clock table scouts for one chat move (§4.5).
	Scouting time.Duration `json:"-"`
	// ScoutingS is Scouting in whole seconds, as the lobby lists it.
	ScoutingS int    `json:"scouting_s"`
	Sits      string `json:"sits"`   // Sit*
	Who       string `json:"who"`    // Sits in words, as the lobby says it
	Stakes    string `json:"stakes"` // Stakes*
	Rated     bool   `json:"rated"`
	Escrow    bool   `json:"escrow"`
	// Chain is how the chain learns of a round (§5.5): ChainRegister, ChainOpening or ChainEscrow.
	Chain string `json:"chain"`
	// Anchors says it in words.
	Anchors string `json:"anchors"`
	// Join says how a seat is taken, in words (the doors).
	Join string `json:"join"`
}

// How the chain learns of a kind's rounds (TableKind.Chain, §5.5).
const (
	ChainRegister = "register_data" // by Register Data: the open-round anchor and every per-move anchor
	ChainOpening  = "opening"       // by Register Data: the open-round anchor alone (Free play)
	ChainEscrow   = "escrow"        // the escrow's open_round, anchor and settle, and Register Data per move
)

const (
	anchorsOpening  = "Register Data: the open-round anchor (kind opened) before turn 1, and nothing more (§5.5: Free play anchors its opening)"
	anchorsRegister = "Register Data: the open-round anchor (kind opened) before turn 1, then each exchange, each sealed commitment, the mid-round turn and the final transcript"
	anchorsEscrow   = "the escrow: open_round with the stakes, the mid-round anchor and settle with the payouts; beside them Register Data for each exchange and sealed commitment"
)

// tableKinds is the catalogue, in the order the lobby lists it.
var tableKinds = []TableKind{
	{Kind: KindPractice, Title: "Practice", Scouting: 90 * time.Second, Sits: SitOnePlayer, Stakes: StakesNotional, Chain: ChainRegister, Anchors: anchorsRegister,
		Join: `walk-ins: POST /v1/walkin/join {"table":"practice"}; agents: POST /v1/join {"table":"practice"}`},
	{Kind: KindWalkin, Title: "The walk-in table", Scouting: 90 * time.Second, Sits: SitWalkins, Stakes: StakesNotional, Chain: ChainRegister, Anchors: anchorsRegister,
		Join: `POST /v1/walkin/join {"table":"walkin"}, after three Practice rounds`},
	{Kind: KindHosted, Title: "Hosted table", Scouting: 90 * time.Second, Sits: SitWalkins, Stakes: StakesNone, Chain: ChainRegister, Anchors: anchorsRegister,
		Join: `POST /v1/walkin/host, then {"code"} to join`},
	{Kind: KindFree, Title: "Free play", Scouting: 90 * time.Second, Sits: SitAnyone, Stakes: StakesNone, Chain: ChainOpening, Anchors: anchorsOpening,
		Join: `agents: POST /v1/join {"table":"free"}; walk-ins: POST /v1/walkin/join {"table":"free"}`},
	{Kind: KindSolo, Title: "Solo", Scouting: 90 * time.Second, Sits: SitOnePlayer, Stakes: StakesNone, Chain: ChainRegister, Anchors: anchorsRegister,
		Join: `walk-ins: POST /v1/walkin/join {"table":"solo"}; agents: POST /v1/join {"table":"solo"}`},
	{Kind: KindShowcase, Title: "Showcase", Scouting: 90 * time.Second, Sits: SitInHouse, Stakes: StakesNone, Chain: ChainRegister, Anchors: anchorsRegister,
		Join: "opened by the house (arena ops showcase); watch it in the lobby"},
	{Kind: KindPaid, Title: "Paid table", Scouting: 90 * time.Second, Sits: SitPaidAgents, Stakes: StakesCCD, Escrow: true, Chain: ChainEscrow, Anchors: anchorsEscrow,
		Join: `POST /v1/join {"table":"open"}, then the entry to the escrow before starts_at`},
	{Kind: KindRated, Title: "Rated table", Scouting: 60 * time.Second, Sits: SitBadges, Stakes: StakesNone, Rated: true, Chain: ChainRegister, Anchors: anchorsRegister,
		Join: `agents: POST /v1/join {"table":"rated"}`},
	{Kind: KindGated, Title: "Badge-gated table", Scouting: 30 * time.Second, Sits: SitRatedBadge, Stakes: StakesNone, Chain: ChainRegister, Anchors: anchorsRegister,
		Join: `agents: POST /v1/join {"table":"gated"}, with a rating from three rated rounds`},
}

// sitWords says each Sit* in words.
var sitWords = map[string]string{
	SitOnePlayer:  "one player (a walk-in or a registered agent), house seats in the rest",
	SitWalkins:    "walk-ins; house seats fill the rest",
	SitPaidAgents: "registered agents whose entry is in the escrow; house seats at the same stakes",
	SitAnyone:     "anyone: registered agents and walk-ins; house seats top it up",
	SitInHouse:    "in-house agents only",
	SitBadges:     "registered agents' own Badges, one seat per owner; house seats top it up (unrated)",
	SitRatedBadge: "Badges with " + strconv.Itoa(GateRounds) + " rated rounds, one seat per owner; house seats top it up",
}

func init() {
	for i := range tableKinds {
		tableKinds[i].ScoutingS = int(tableKinds[i].Scouting / time.Second)
		tableKinds[i].Who = sitWords[tableKinds[i].Sits]
	}
}

// TableKinds is the catalogue of table kinds, in the order the lobby lists them (a copy).
func TableKinds() []TableKind { return append([]TableKind(nil), tableKinds...) }

// TableKinds is the catalogue as this arena plays it: each kind's scouting is the one its
// tables get on the agent clock (setScouting): the kind's own, or the configured scouting when
// that is shorter.
func (a *Arena) TableKinds() []TableKind {
	ks := TableKinds()
	conf := a.pace("agent").Step("scouting")
	for i := range ks {
		if conf > 0 && conf < ks[i].Scouting {
			ks[i].Scouting, ks[i].ScoutingS = conf, int((conf+time.Second-1)/time.Second)
		}
	}
	return ks
}

// KindOf is the table kind named kind, false when there is none.
func KindOf(kind string) (TableKind, bool) {
	for _, k := range tableKinds {
		if k.Kind == kind {
			return k, true
		}
	}
	return TableKind{}, false
}

// setAnchors returns spec with blitz.Options.Anchors set for a kind that registers its opening
// alone (ChainOpening: Free play, §5.5), merged into the options spec has; any other table is
// left as it is.
func setAnchors(spec actors.TableSpec) actors.TableSpec {
	k, ok := KindOf(spec.Kind)
	if spec.Game != walkinGame || !ok || k.Chain != ChainOpening {
		return spec
	}
	opts := map[string]json.RawMessage{}
	if len(spec.Options) > 0 && string(spec.Options) != "null" {
		if err := json.Unmarshal(spec.Options, &opts); err != nil || opts == nil {
			return spec // OpenTable refuses them
		}
	}
	opts["anchors"], _ = json.Marshal(blitz.AnchorsOpened)
	spec.Options, _ = json.Marshal(opts) // raw members that decoded: cannot fail
	return spec
}

// setScouting returns spec with its scouting step set to its kind's on the agent clock (§5.2);
// a chat-clock table, a table of another game or of no known kind is left as it is. The
// scouting configured for the agent clock (dotdotdot.pace.scouting) is the default kinds'
// length; a kind with a shorter one of its own (rated, badge-gated) keeps its own.
func setScouting(spec actors.TableSpec) actors.TableSpec {
	k, ok := KindOf(spec.Kind)
	if spec.Game != walkinGame || !ok || !aiSpeed(spec.Pace) {
		return spec
	}
	cur := spec.Pace.Step("scouting")
	if cur <= 0 {
		cur = blitz.AgentPace().Step("scouting")
	}
	if k.Scouting >= cur {
		return spec
	}
	steps := maps.Clone(spec.Pace.Steps)
	if steps == nil {
		steps = map[string]time.Duration{}
	}
	steps["scouting"] = k.Scouting
	spec.Pace.Steps = steps
	return spec
}

// admit checks that spec's seats are seats its kind lets sit (TableKind.Sits), with the
// ratings of the Badges it seats (rated: by agent id, GateRounds for a badge-gated table).
// A table of another game, or of a kind not in the catalogue, is not checked. Errors: bad_table
// naming the seat and the rule.
func admit(spec actors.TableSpec, rated func(agent string) int) error {
	k, ok := KindOf(spec.Kind)
	if spec.Game != walkinGame || !ok {
		return nil
	}
	players, owners := 0, map[string]int{}
	for _, s := range spec.Seats {
		o, err := blitz.SeatOptionsOf(s.Seat)
		if err != nil {
			return nil // OpenTable refuses it
		}
		house := (o.Kind == "house" || o.Kind == "arena") && s.LentKey()
		// An off-the-shelf seat (ots) runs on the house model: it sits wherever a house seat
		// may, and is rated under its own Badge where it has one.
		fill := house || o.Kind == "ots"
		walkin := o.Kind == "walkin"
		badge := !s.LentKey() // a registered agent's own Badge, resolved per §4.1
		bad := func(why string) error {
			return games.Errorf(CodeBadTable, "%s: seat %d (%s) %s", k.Title, s.Seat.Seat, orKind(o.Kind), why)
		}
		if !fill {
			players++
		}
		switch k.Sits {
		case SitOnePlayer:
			if players > 1 {
				return bad("is a second player: this table seats one, house seats fill the rest")
			}
		case SitWalkins:
			if !fill && !walkin {
				return bad("is not a walk-in: this table seats walk-ins, house seats top it up")
			}
		case SitPaidAgents:
			if !fill && !badge {
				return bad("is not a registered agent: a paid table seats Badges whose entry is in the escrow")
			}
		case SitInHouse:
			if o.Kind != "house" && o.Kind != "arena" {
				return bad("is not in-house: a Showcase seats in-house agents only")
			}
		case SitBadges, SitRatedBadge:
			if house || (fill && !badge) {
				continue // a house seat: unrated, it tops the table up
			}
			if !badge || walkin {
				return bad("has no Badge of its own: a lent Badge is the house's, and ratings are kept per Badge")
			}
			if o.Owner != "" {
				if prev, dup := owners[ownerKey(o.Owner)]; dup {
					return bad("has the owner of seat " + strconv.Itoa(prev) + ": one seat per owner at a rated table")
				}
				owners[ownerKey(o.Owner)] = s.Seat.Seat
			}
			if k.Sits == SitRatedBadge && rated(s.Seat.Agent) < GateRounds {
				return bad("has fewer than " + strconv.Itoa(GateRounds) + " rated rounds: a badge-gated table seats rated Badges")
			}
		}
	}
	return nil
}

func orKind(k string) string {
	if k == "" {
		return "byo"
	}
	return k
}

// OpenShowcase opens a Showcase (§12): every seat an in-house agent of the house roster, each
// holding its human's levers (its accusation rides in its answers), nothing at stake, unrated,
// on pace (zero: the agent clock). It answers the table id and round. Errors: bad_request for a
// format or seat count the game does not play, and OpenTable's.
func (a *Arena) OpenShowcase(ctx context.Context, format string, seats int, pace games.Pace) (table, round string, err error) {
	if format == "" {
		format = walkinGame
	}
	if _, ok := a.formats.of(format); !ok {
		return "", "", games.Errorf(games.CodeBadRequest, "format %q: %s", format, strings.ReplaceAll(a.formats.choices(), "\"", ""))
	}
	n, err := a.formats.choose(format, seats)
	if err != nil {
		return "", "", err
	}
	id, err := newTableID("s")
	if err != nil {
		return "", "", err
	}
	if paceZero(pace) {
		pace = a.pace("agent")
	}
	spec, _ := walkinTableSpec(id, KindShowcase, format, n, pace, nil, nil)
	round, err = a.OpenTable(ctx, spec)
	return id, round, err
}
