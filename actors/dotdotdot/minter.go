package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/anchors"
	"arena/chain/badge"
	concordium "arena/chain/ccd"
	"arena/games"
	"arena/games/blitz"
)

// MintOptions turn on the minting of lent Badges (§15 badge.minted; docs/protocol-notes.md
// "badge.minted"): when a table opens, each seat whose Badge is lent (a house or walk-in seat,
// HouseAgent) is registered in the instance's Badge registry with its derived key, through the
// chain actor; once the registration is final the round's transcript gets badge.minted.
type MintOptions struct {
	// Chain takes the registry calls (the chain actor's Call: signed at once, queued, watched to
	// finality). Required.
	Chain interface{ Call(job anchors.CallJob) }
	// Owner is the account that owns every lent Badge: the house identity account (§3). Required.
	Owner concordium.Address
	// Base is the origin the DOTDOTDOT site is reached at (its public URL, else the listen
	// address: cmd/arena's publicSite); a lent Badge's agent_uri is Base + LentCardPath(table,
	// seat). Called at each mint; while it is not an absolute http(s) URL, nothing is minted.
	// Required.
	Base func() string
}

// mintName prefixes a mint's CallJob name; the seat follows ("mint:3").
const mintName = "mint:"

// MintKey is the chain queue's index key of a lent Badge's mint (anchors.CallJob.Key):
// "badge.mint:" || the agent id, so a Badge is minted by one transaction whatever origin its
// agent_uri names (anchors.Lookup(MintKey) finds it).
func MintKey(agent string) []byte { return []byte("badge.mint:" + agent) }

// minterName is the minter actor's name at the actor system's root.
const minterName = "dotdotdot-minter"

// LentCardPath is where the DOTDOTDOT site serves the card of a table's lent seat (LentCard):
// /.well-known/lent/<table>/<seat>.json.
func LentCardPath(table string, seat int) string {
	return "/.well-known/lent/" + table + "/" + strconv.Itoa(seat) + ".json"
}

// LentBadge is a lent seat's Badge as the arena mints it: its id, token id, key and card (the
// bytes served at LentCardPath, whose SHA-256 is the registration's metadata_hash).
type LentBadge struct {
	Agent   badge.AgentID
	TokenID uint64
	Key     ed25519.PublicKey
	Card    []byte
}

// LentCard is the Badge lent to seat of table (HouseKey, HouseAgent) with its card (§4.2, kind
// house: the house identity account owner owns it, and in-house is a fact about the owner, §3).
// The card is the same bytes at every call, so it needs no storage.
func LentCard(instance ed25519.PrivateKey, instanceAgent, table string, seat int, owner concordium.Address) (LentBadge, error) {
	pub := HouseKey(instance, table, seat).Public().(ed25519.PublicKey)
	id, err := badge.ParseAgentID(HouseAgent(instanceAgent, pub))
	if err != nil {
		return LentBadge{}, err
	}
	tok, ok := id.BadgeTokenID()
	if !ok {
		return LentBadge{}, fmt.Errorf("dotdotdot: lent Badge %s is not a Badge", id)
	}
	reg := badge.Contract{Chain: id.Chain, Index: id.Token.Index, Subindex: id.Token.Subindex}
	card, err := badge.WriteCard(badge.CardSpec{Agent: id, Name: "Lent Badge " + strconv.FormatUint(tok, 10),
		Kind: badge.KindHouse, SigningKey: pub, Owner: owner, Registry: reg,
		Description: "A Badge this arena lends one seat of one table (§4.4)"})
	if err != nil {
		return LentBadge{}, err
	}
	return LentBadge{Agent: id, TokenID: tok, Key: pub, Card: card}, nil
}

// LentCard is the card of seat of table when that seat's Badge is lent (false otherwise: no such
// table or seat, or a seat with a Badge of its own): the DOTDOTDOT site serves it at
// LentCardPath. Without MintOptions there is no card (false).
func (a *Arena) LentCard(table string, seat int) ([]byte, bool) {
	if a.opts.Mint == nil || a.Arena == nil {
		return nil, false
	}
	st, err := a.Stored(table)
	if err != nil {
		return nil, false
	}
	for _, s := range st.Seats {
		if s.Seat.Seat != seat || !s.LentKey() {
			continue
		}
		lb, err := LentCard(a.InstanceKey(), a.InstanceAgent(), table, seat, a.opts.Mint.Owner)
		if err != nil || lb.Agent.String() != s.Seat.Agent {
			return nil, false
		}
		return lb.Card, true
	}
	return nil, false
}

// mintTable asks the minter to mint table's lent Badges (its status went live: opened, or
// restored after a restart).
type mintTable struct{ table string }

// minter is the actor that mints lent Badges: it asks the chain actor for each lent seat's
// registration (the same registration asked again, after a restart, is the same transaction:
// the chain queue's index dedups it, and the registry refuses a token id registered already),
// and when one is final hands the table a "minted" input (blitz.MintedBody), on a goroutine so
// that it never waits on a table.
type minter struct {
	a   *Arena
	o   MintOptions
	log *slog.Logger
}

// startMinter spawns the minter (before boot recovery, so restored tables' mints find it).
func startMinter(a *Arena) error {
	if a.opts.Mint == nil {
		return nil
	}
	o := *a.opts.Mint
	if o.Chain == nil || o.Base == nil || o.Owner == (concordium.Address{}) {
		return errors.New("dotdotdot: MintOptions need Chain, Owner and Base")
	}
	props := actor.PropsFromProducer(func() actor.Actor {
		return &minter{a: a, o: o, log: a.Logger().With("actor", "minter")}
	})
	pid, err := a.System().Root.SpawnNamed(props, minterName)
	if err != nil {
		return err
	}
	a.minter = pid
	return nil
}

func (m *minter) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *mintTable:
		m.mint(ctx, msg.table)
	case *anchors.CallSubmitted:
		if msg.Err != "" {
			m.log.Warn("mint refused by the chain actor", "table", msg.Table, "call", msg.Name, "err", msg.Err)
		}
	case *anchors.CallFinal:
		m.final(ctx, msg)
	}
}

// mint asks for the registration of every lent seat of table.
func (m *minter) mint(ctx actor.Context, table string) {
	st, err := m.a.Stored(table)
	if err != nil || st.Status != actors.StatusLive {
		return
	}
	reg := m.o.Base()
	if !strings.HasPrefix(reg, "http://") && !strings.HasPrefix(reg, "https://") {
		// A card URL the registry would keep for good must be absolute: no origin, no mint.
		m.log.Warn("lent Badges not minted: the site's origin is not known", "table", table, "origin", reg)
		return
	}
	for _, s := range st.Seats {
		if !s.LentKey() {
			continue
		}
		lb, err := LentCard(m.a.InstanceKey(), m.a.InstanceAgent(), table, s.Seat.Seat, m.o.Owner)
		if err != nil || lb.Agent.String() != s.Seat.Agent {
			continue // a seat with a Badge of its own
		}
		registry := badge.Contract{Chain: lb.Agent.Chain, Index: lb.Agent.Token.Index, Subindex: lb.Agent.Token.Subindex}
		call := badge.RegisterCall(registry, lb.TokenID, m.o.Owner, reg+LentCardPath(table, s.Seat.Seat), sha256.Sum256(lb.Card))
		m.o.Chain.Call(anchors.CallJob{Table: table, Round: st.Round, Name: mintName + strconv.Itoa(s.Seat.Seat),
			Call: call, Key: MintKey(lb.Agent.String()), ReplyTo: ctx.Self(), FinalTo: ctx.Self()})
	}
}

// final records a final registration in its round's transcript: the table is handed a
// "minted" input. A registration the registry refused (the token id was registered already) is
// not recorded; nor is one final after the round ended (the table refuses it: round_over).
func (m *minter) final(ctx actor.Context, f *anchors.CallFinal) {
	seatText, ok := strings.CutPrefix(f.Name, mintName)
	seat, err := strconv.Atoi(seatText)
	if !ok || err != nil {
		return
	}
	if f.Rejected != "" {
		m.log.Info("lent Badge not minted: the registry refused it", "table", f.Table, "seat", seat, "tx", f.Tx, "reason", f.Rejected)
		return
	}
	lb, err := LentCard(m.a.InstanceKey(), m.a.InstanceAgent(), f.Table, seat, m.o.Owner)
	if err != nil {
		return
	}
	body, _ := json.Marshal(blitz.MintedBody{Agent: lb.Agent.String(),
		Owner: badge.Account{Chain: lb.Agent.Chain, Address: m.o.Owner}.String(), Tx: f.Tx})
	a, log := m.a, m.log
	go func() {
		r, err := a.Submit(context.Background(), actors.SubmitAnswer{Table: f.Table, Round: f.Round,
			Input: games.Input{Seat: seat, Kind: "minted", Body: body}})
		switch {
		case err != nil:
			log.Warn("badge.minted not recorded: the table did not answer", "table", f.Table, "seat", seat, "err", err)
		case r.Code != "":
			log.Info("badge.minted not recorded", "table", f.Table, "seat", seat, "code", r.Code, "msg", r.Msg)
		}
	}()
}
