package market

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"
)

// The reserved system Inventory IDs (game-master-protocol-v2.md "Privacy"). @issuance issues
// Starting Assets and rule grants, so its balance of an Asset is minus everything it ever issued;
// @treasury receives rule withdrawals. Neither is a Player.
const (
	Treasury = "@treasury"
	Issuance = "@issuance"
)

// The Exchange statuses: one open status and the five ways an Exchange ends ("Rounds":
// "an Exchange still ends exactly five ways").
const (
	StatusAwaiting  = "awaiting_counterparty"
	StatusSettled   = "settled"
	StatusDeclined  = "declined"
	StatusCancelled = "cancelled"
	StatusExpired   = "expired"
	StatusUnfunded  = "unfunded"
)

// The Ledger reasons. The two rule reasons are the mechanism names a Player is never told: a
// Statement says rule_applied instead ("Game Rules and the story line").
const (
	ReasonStartingAssets = "starting_assets"
	ReasonTransfer       = "transfer"
	ReasonSettlement     = "exchange_settlement"
	ReasonRuleGrant      = "game_rule_grant"
	ReasonRuleWithdrawal = "game_rule_withdrawal"
)

// State is the whole market: its Config and seed, every Player, Inventory, Exchange (with its
// Rounds and Approvals), command record and Ledger entry, and the game-wide State Version. It
// is changed only by Commit, with a Delta that Apply or Expire returned, so a State rebuilt by
// committing the same Deltas in order is the same State. Not safe for concurrent use: the
// market actor owns it.
type State struct {
	cfg  Config
	seed [32]byte

	version   uint64 // the State Version: accepted state changes so far
	transfers uint64 // transfers made, for the next transferId

	players  map[string]*Player // by playerId
	order    []string           // playerIds in Enrolment order
	owners   map[string]string  // Owner ID → playerId (private: never in any output)
	invs     map[string]*Inventory
	exs      map[string]*Exchange
	exOrder  []string            // exchangeIds in proposal order
	byPlayer map[string][]string // playerId → its exchangeIds in proposal order
	open     []deadline          // open Exchanges by (live deadline, exchangeId)
	cmds     map[cmdKey]*Command
	cmdOrder []cmdKey
	ledger   []LedgerRow         // sequence = index + 1
	entries  map[string][]uint64 // playerId → the sequences of its Ledger movements

	// standing memoises the Standing board's rows (nil: none yet). It is derived data, not a
	// record: Commit drops it, Clone does not copy it, and Snapshot leaves it out.
	standing *standingMemo
}

// Player is one enrolled Owner's Player. OwnerID is private persistence: no output carries it.
type Player struct {
	ID         string    `json:"id"`
	OwnerID    string    `json:"ownerId"`
	EnrolledAt time.Time `json:"enrolledAt"`
	// TradingName is the claim the Player trades under; "" is none (the derived name prints).
	TradingName string `json:"tradingName,omitempty"`
}

// Inventory is one Inventory's Holdings and Reserved quantities by Asset ID (Players', and the
// two system Inventories'). Available is Holdings − Reserved. Zero quantities are not stored.
type Inventory struct {
	ID       string           `json:"id"`
	Holdings map[string]int64 `json:"holdings"`
	Reserved map[string]int64 `json:"reserved,omitempty"`
}

func (inv *Inventory) available(asset string) int64 { return inv.Holdings[asset] - inv.Reserved[asset] }

func (inv *Inventory) clone() *Inventory {
	return &Inventory{ID: inv.ID, Holdings: maps.Clone(inv.Holdings), Reserved: maps.Clone(inv.Reserved)}
}

// add changes a holding (or a reservation) by d, dropping zeros.
func addTo(m map[string]int64, asset string, d int64) {
	if v := m[asset] + d; v != 0 {
		m[asset] = v
	} else {
		delete(m, asset)
	}
}

// Exchange is one Exchange: its parties, status, version and the Rounds and Approvals it has
// gathered. The live Round is the last; its author holds the reservation while the Exchange is
// open.
type Exchange struct {
	ID           string     `json:"id"`
	Proposer     string     `json:"proposer"`
	Counterparty string     `json:"counterparty"`
	Status       string     `json:"status"`
	Version      uint64     `json:"version"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
	ProposerRule Signal     `json:"proposerRule"`
	CounterRule  Signal     `json:"counterpartyRule"`
	Rounds       []Round    `json:"rounds,omitempty"`
	Approvals    []Approval `json:"approvals,omitempty"`
	RulesFired   []string   `json:"rulesFired,omitempty"` // Admin only: the rules that moved goods
}

// Signal is the stored ruleApplied/ruleNote of one party for its Exchange's Settlement.
type Signal struct {
	Applied bool    `json:"applied"`
	Note    *string `json:"note"`
}

// Round is one sealed set of Terms by one party ("Rounds"). Terms are the canonical bytes
// (RFC 8785) the Terms Hash is the SHA-256 of.
type Round struct {
	Number    uint64    `json:"number"`
	Author    string    `json:"author"`
	Terms     []byte    `json:"terms"`
	TermsHash string    `json:"termsHash"`
	Offered   []Holding `json:"offered"`
	Requested []Holding `json:"requested"`
	ExpiresAt time.Time `json:"expiresAt"`
	CreatedAt time.Time `json:"createdAt"`
}

// Approval is one party's authenticated approval of one Round: authoring a Round records its
// author's, and respondToExchange's approve records the answering party's.
type Approval struct {
	Round      uint64    `json:"roundNumber"`
	Player     string    `json:"playerId"`
	ApprovedAt time.Time `json:"approvedAt"`
}

func (x *Exchange) live() *Round { return &x.Rounds[len(x.Rounds)-1] }

// answering is the party whose turn it is: whoever did not write the live Round.
func (x *Exchange) answering() string {
	if x.live().Author == x.Proposer {
		return x.Counterparty
	}
	return x.Proposer
}

// side is what party gives under r: the Proposer gives offered, the Counterparty requested.
func (x *Exchange) side(r *Round, party string) []Holding {
	if party == x.Proposer {
		return r.Offered
	}
	return r.Requested
}

func (x *Exchange) open() bool { return x.Status == StatusAwaiting }

// header is x without its Rounds and Approvals (a Delta carries only the new ones).
func (x *Exchange) header() Exchange {
	h := *x
	h.Rounds, h.Approvals = nil, nil
	h.RulesFired = slices.Clone(x.RulesFired)
	return h
}

// Command is the idempotency record of one accepted mutation ("Idempotency and atomicity"):
// the hash of its canonical parsed form and the response it was first given, byte for byte. OK
// is always true on a record Apply writes (a refused Command consumes no commandId); Commit
// drops a record with OK false.
type Command struct {
	Player       string    `json:"playerId"`
	CommandID    string    `json:"commandId"`
	Action       string    `json:"action"`
	Hash         [32]byte  `json:"hash"`
	OK           bool      `json:"ok"`
	StateVersion uint64    `json:"stateVersion"`
	At           time.Time `json:"at"`
	Response     []byte    `json:"response"`
}

type cmdKey struct{ player, id string }

// LedgerRow is one Ledger entry: one quantity of one Asset moved from one Inventory to another.
// Issuer and CommandID are the Command that caused it ("" for none); RuleID names the firing
// rule of a rule movement (Admin only) and RuleNote its drawn line.
type LedgerRow struct {
	Sequence     uint64    `json:"sequence"`
	At           time.Time `json:"at"`
	StateVersion uint64    `json:"stateVersion"`
	Reason       string    `json:"reason"`
	From         string    `json:"from"`
	To           string    `json:"to"`
	AssetID      string    `json:"assetId"`
	Quantity     int64     `json:"quantity"`
	TransferID   string    `json:"transferId,omitempty"`
	ExchangeID   string    `json:"exchangeId,omitempty"`
	RuleID       string    `json:"ruleId,omitempty"`
	RuleNote     *string   `json:"ruleNote,omitempty"`
	Issuer       string    `json:"issuer,omitempty"`
	CommandID    string    `json:"commandId,omitempty"`
}

type deadline struct {
	at time.Time
	id string
}

func cmpDeadline(a, b deadline) int {
	if c := a.at.Compare(b.at); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// NewState is an empty market of cfg, drawing its opaque IDs, cursors' keys and story lines from
// seed (keep it secret: the Player and Exchange IDs are opaque because nobody else holds it).
// It refuses a Config that is not valid, naming what is wrong.
func NewState(cfg Config, seed [32]byte) (*State, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	st := &State{
		cfg: cfg, seed: seed,
		players: map[string]*Player{}, owners: map[string]string{}, invs: map[string]*Inventory{},
		exs: map[string]*Exchange{}, byPlayer: map[string][]string{}, cmds: map[cmdKey]*Command{},
		entries: map[string][]uint64{},
	}
	for _, id := range []string{Treasury, Issuance} {
		st.invs[id] = &Inventory{ID: id, Holdings: map[string]int64{}, Reserved: map[string]int64{}}
	}
	return st, nil
}

// Version is the State Version: how many accepted state changes the market has made.
func (st *State) Version() uint64 { return st.version }

// Config is the market's Config.
func (st *State) Config() Config { return st.cfg }

// NextDeadline is the earliest live deadline of an open Exchange, and false when none is open:
// the instant the actor's expiry timer should next call Expire.
func (st *State) NextDeadline() (time.Time, bool) {
	if len(st.open) == 0 {
		return time.Time{}, false
	}
	return st.open[0].at, true
}

// Delta is what one Apply or Expire changed, as whole records: the new State Version, the
// Players, Inventories and Exchange headers written (new or changed), the Rounds and Approvals
// appended, the Ledger entries appended, and the command record. Commit applies it; the actor
// persists it first, in one bbolt transaction (see the package doc). An empty Delta (Empty)
// changed nothing.
type Delta struct {
	StateVersion uint64          `json:"stateVersion"`
	Transfers    uint64          `json:"transfers"`
	Players      []Player        `json:"players,omitempty"`
	Inventories  []Inventory     `json:"inventories,omitempty"`
	Exchanges    []ExchangeDelta `json:"exchanges,omitempty"`
	Ledger       []LedgerRow     `json:"ledger,omitempty"`
	Command      *Command        `json:"command,omitempty"`
}

// ExchangeDelta is one Exchange's new header and the Rounds and Approvals appended to it.
type ExchangeDelta struct {
	Exchange  Exchange   `json:"exchange"`
	Rounds    []Round    `json:"rounds,omitempty"`
	Approvals []Approval `json:"approvals,omitempty"`
}

// Empty reports whether d changes nothing.
func (d *Delta) Empty() bool {
	return d == nil || (len(d.Players) == 0 && len(d.Inventories) == 0 && len(d.Exchanges) == 0 &&
		len(d.Ledger) == 0 && d.Command == nil)
}

// Commit applies d, which Apply or Expire returned for st in its current state (or which was
// read back from storage in order). It panics on a Delta that does not follow from st (a
// Ledger sequence out of order, Rounds that do not continue their Exchange): that is a bug in
// the caller, never input.
func (st *State) Commit(d Delta) {
	if d.StateVersion < st.version {
		panic(fmt.Sprintf("market: commit state version %d below %d", d.StateVersion, st.version))
	}
	st.standing = nil // every Commit may change what the board shows
	st.version, st.transfers = d.StateVersion, max(st.transfers, d.Transfers)
	for _, p := range d.Players {
		if _, ok := st.players[p.ID]; !ok {
			st.order = append(st.order, p.ID)
			st.owners[p.OwnerID] = p.ID
		}
		st.players[p.ID] = &p
	}
	for _, inv := range d.Inventories {
		c := inv
		c.Holdings, c.Reserved = maps.Clone(inv.Holdings), maps.Clone(inv.Reserved)
		if c.Holdings == nil {
			c.Holdings = map[string]int64{}
		}
		if c.Reserved == nil {
			c.Reserved = map[string]int64{}
		}
		st.invs[c.ID] = &c
	}
	for _, xd := range d.Exchanges {
		h := xd.Exchange
		old := st.exs[h.ID]
		x := &Exchange{}
		if old != nil {
			if old.open() {
				st.unindex(deadline{old.live().ExpiresAt, old.ID})
			}
			x.Rounds, x.Approvals = old.Rounds, old.Approvals
		} else {
			st.exOrder = append(st.exOrder, h.ID)
			st.byPlayer[h.Proposer] = append(st.byPlayer[h.Proposer], h.ID)
			st.byPlayer[h.Counterparty] = append(st.byPlayer[h.Counterparty], h.ID)
		}
		rounds, approvals := x.Rounds, x.Approvals
		*x = h
		for _, r := range xd.Rounds {
			if r.Number != uint64(len(rounds))+1 {
				panic(fmt.Sprintf("market: commit round %d of %s after %d", r.Number, h.ID, len(rounds)))
			}
			rounds = append(rounds, r)
		}
		x.Rounds, x.Approvals = rounds, append(approvals, xd.Approvals...)
		if len(x.Rounds) == 0 {
			panic(fmt.Sprintf("market: commit exchange %s without a round", h.ID))
		}
		st.exs[h.ID] = x
		if x.open() {
			st.index(deadline{x.live().ExpiresAt, x.ID})
		}
	}
	for _, row := range d.Ledger {
		if row.Sequence != uint64(len(st.ledger))+1 {
			panic(fmt.Sprintf("market: commit ledger sequence %d after %d", row.Sequence, len(st.ledger)))
		}
		st.ledger = append(st.ledger, row)
		for _, id := range []string{row.From, row.To} {
			if _, ok := st.players[id]; ok {
				st.entries[id] = append(st.entries[id], row.Sequence)
			}
		}
	}
	// Only an accepted Command is a record. A refusal's record, which an earlier build stored,
	// is not kept: its retry is a fresh attempt, as every refusal's is now.
	if c := d.Command; c != nil && c.OK {
		k := cmdKey{c.Player, c.CommandID}
		if _, ok := st.cmds[k]; !ok {
			st.cmdOrder = append(st.cmdOrder, k)
		}
		cc := *c
		st.cmds[k] = &cc
	}
}

func (st *State) index(d deadline) {
	i, _ := slices.BinarySearchFunc(st.open, d, cmpDeadline)
	st.open = slices.Insert(st.open, i, d)
}

func (st *State) unindex(d deadline) {
	if i, ok := slices.BinarySearchFunc(st.open, d, cmpDeadline); ok {
		st.open = slices.Delete(st.open, i, i+1)
	}
}

// Clone is a deep copy of st: committing to either leaves the other as it was.
func (st *State) Clone() *State {
	c := *st
	c.standing = nil
	c.players = make(map[string]*Player, len(st.players))
	for k, p := range st.players {
		pp := *p
		c.players[k] = &pp
	}
	c.order = slices.Clone(st.order)
	c.owners = maps.Clone(st.owners)
	c.invs = make(map[string]*Inventory, len(st.invs))
	for k, inv := range st.invs {
		c.invs[k] = inv.clone()
	}
	c.exs = make(map[string]*Exchange, len(st.exs))
	for k, x := range st.exs {
		xx := *x
		xx.Rounds, xx.Approvals = slices.Clone(x.Rounds), slices.Clone(x.Approvals)
		xx.RulesFired = slices.Clone(x.RulesFired)
		c.exs[k] = &xx
	}
	c.exOrder = slices.Clone(st.exOrder)
	c.byPlayer = make(map[string][]string, len(st.byPlayer))
	for k, v := range st.byPlayer {
		c.byPlayer[k] = slices.Clone(v)
	}
	c.open = slices.Clone(st.open)
	c.cmds = make(map[cmdKey]*Command, len(st.cmds))
	for k, v := range st.cmds {
		vv := *v
		c.cmds[k] = &vv
	}
	c.cmdOrder = slices.Clone(st.cmdOrder)
	c.ledger = slices.Clone(st.ledger)
	c.entries = make(map[string][]uint64, len(st.entries))
	for k, v := range st.entries {
		c.entries[k] = slices.Clone(v)
	}
	return &c
}

// Snapshot is every record of st as one Delta, in the order Commit needs (Players, then
// Inventories, Exchanges with all their Rounds and Approvals, the Ledger, the command records):
// NewState with the same Config and seed, then Commit of each Delta of Snapshot, is st again.
// The actor writes it for a first snapshot and reads the same records back at boot. Command
// records are one Delta each, since a Delta carries one.
func (st *State) Snapshot() []Delta {
	d := Delta{StateVersion: st.version, Transfers: st.transfers}
	for _, id := range st.order {
		d.Players = append(d.Players, *st.players[id])
	}
	ids := slices.Sorted(maps.Keys(st.invs))
	for _, id := range ids {
		inv := st.invs[id]
		d.Inventories = append(d.Inventories, Inventory{ID: id, Holdings: maps.Clone(inv.Holdings), Reserved: maps.Clone(inv.Reserved)})
	}
	for _, id := range st.exOrder {
		x := st.exs[id]
		d.Exchanges = append(d.Exchanges, ExchangeDelta{Exchange: x.header(), Rounds: slices.Clone(x.Rounds), Approvals: slices.Clone(x.Approvals)})
	}
	d.Ledger = slices.Clone(st.ledger)
	out := []Delta{d}
	for _, k := range st.cmdOrder {
		c := *st.cmds[k]
		out = append(out, Delta{StateVersion: st.version, Transfers: st.transfers, Command: &c})
	}
	return out
}
