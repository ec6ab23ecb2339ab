package warden

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/chain/x402"
	"arena/games"
	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/storage"
	"arena/storage/storagetest"
)

var t0 = time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC)

const (
	wallA = "0x00000000000000000000000000000000000000A1"
	wallB = "0x00000000000000000000000000000000000000B2"
	stake = 1_000_000
)

// rig is the match actors over a bbolt file and a fake clock, with a payout queue that records
// what it was handed (in the transaction that moves the match to SETTLING).
type rig struct {
	t     *testing.T
	store *storage.Store
	clock *actors.FakeClock
	sys   *actor.ActorSystem
	w     *Warden
	seed  [32]byte

	mu     sync.Mutex
	queued map[string][2]storage.WardenRow
}

func newRig(t *testing.T, extra ...games.Engine) *rig {
	r := &rig{t: t, store: storagetest.Open(t, storage.Options{}), clock: actors.NewFakeClock(t0),
		queued: map[string][2]storage.WardenRow{}}
	for i := range r.seed {
		r.seed[i] = byte(i) // the §3.2 test seed
	}
	r.sys = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	t.Cleanup(func() { r.sys.Shutdown() })
	r.start(extra...)
	return r
}

// start starts the Warden (boot recovery of every LIVE match).
func (r *rig) start(extra ...games.Engine) {
	b, err := games.NewBracket(append([]games.Engine{claims.Engine{}, dilemma.Engine{}}, extra...)...)
	if err != nil {
		r.t.Fatal(err)
	}
	r.w, err = Start(Options{Store: r.store, Bracket: b, System: r.sys, Clock: r.clock,
		Rake: map[string]int64{claims.GameID: claims.RakeBps}, Seed: func() [32]byte { return r.seed },
		Feed: true, FeedStep: map[string]string{"message": "negotiate.message", "claim": "negotiate.claim"},
		Queue: func(tx storage.WardenTx, match string, rows [2]storage.WardenRow) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.queued[match] = rows
			return nil
		}})
	if err != nil {
		r.t.Fatal(err)
	}
}

// stakeTx is the transaction hash of every stake transfer stakePaid records.
const stakeTx = "0x5555555555555555555555555555555555555555555555555555555555555555"

// stakePaid stores seat's stake payment of match as the stake door leaves it once the transfer
// is mined (§10.3): claimed with its nonce, then settled, stake atomic units from payer on
// eip155:1337. It returns the payment id.
func stakePaid(t *testing.T, st *storage.Store, match, seat, payer string) string {
	t.Helper()
	from, _ := x402.ParseAddress(payer)
	token, _ := x402.ParseAddress("0x3600000000000000000000000000000000000000")
	nonce := sha256.Sum256([]byte(match + "/" + seat))
	k := x402.ReplayKey{ChainID: 1337, Contract: token, From: from, Nonce: nonce}
	rec := storage.WardenPayment{ID: fmt.Sprintf("wp_%x", nonce[:8]), Resource: "/v1/warden/matches/" + match + "/stake",
		Match: match, Seat: seat, Payer: payer, Amount: stake, Network: "eip155:1337", Key: k.String(), Version: 2,
		Payload: []byte(`{"test":"stake"}`), Status: storage.WardenPaySettling, Created: t0.Unix()}
	if _, claimed, err := st.ClaimWardenPayment(k, rec); err != nil || !claimed {
		t.Fatalf("claim stake of %s seat %s: claimed %v, %v", match, seat, claimed, err)
	}
	rec.Status, rec.Tx = storage.WardenPaySettled, stakeTx
	if err := st.PutWardenPayment(rec); err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// crash stops every match actor (what a kill leaves is what was committed).
func (r *rig) crash() { r.w.Stop() }

// live writes a LIVE match of game between A and B with both stakes cleared, as the doors do.
func (r *rig) live(id, game string) {
	r.t.Helper()
	stakes := [2]string{stakePaid(r.t, r.store, id, "A", wallA), stakePaid(r.t, r.store, id, "B", wallB)}
	err := r.store.WardenUpdate(func(tx storage.WardenTx) error {
		for _, c := range []struct{ w, t, n string }{{wallA, "gambler", "Ada"}, {wallB, "steadfast", "Bo"}} {
			if err := tx.Put("contender/"+c.w, map[string]string{"wallet": c.w, "temperament": c.t, "name": c.n}); err != nil {
				return err
			}
		}
		return tx.Put("match/"+id, map[string]any{"id": id, "game": game, "stake": stake, "a": wallA, "b": wallB,
			"status": StatusLive, "stakes": map[string]string{"A": stakes[0], "B": stakes[1]}})
	})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.w.Begin(context.Background(), id); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) act(id string, seat, round int, action, args string) (ActReply, error) {
	return r.w.Act(context.Background(), &ActRequest{Match: id, Seat: seat, Round: round, Action: action, Args: json.RawMessage(args)})
}

func (r *rig) mustAct(id string, seat, round int, action, args string) ActReply {
	r.t.Helper()
	rep, err := r.act(id, seat, round, action, args)
	if err != nil {
		r.t.Fatalf("seat %d round %d %s %s: %v", seat, round, action, args, err)
	}
	return rep
}

func (r *rig) refused(id string, seat, round int, action, args, code string) {
	r.t.Helper()
	_, err := r.act(id, seat, round, action, args)
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != code {
		r.t.Fatalf("seat %d round %d %s %s: %v, want %s", seat, round, action, args, err, code)
	}
}

func (r *rig) view(id string, viewer int) View {
	r.t.Helper()
	v, err := r.w.View(context.Background(), id, viewer, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	return v
}

// toDeadline moves the clock to the open step's deadline and lets the actor apply it.
func (r *rig) toDeadline(id string) {
	r.t.Helper()
	d := r.view(id, 0).Deadline
	if d.IsZero() {
		r.t.Fatal("no deadline is open")
	}
	r.clock.Set(d)
	r.view(id, 0) // the timer's message is ahead of this ask in the match's mailbox
}

func (r *rig) status(id string) string {
	r.t.Helper()
	var m matchRec
	if err := r.store.WardenView(func(tx storage.WardenTx) error { _, err := tx.Get("match/"+id, &m); return err }); err != nil {
		r.t.Fatal(err)
	}
	return m.Status
}

func (r *rig) transcript(id string) []byte {
	r.t.Helper()
	evs, err := r.w.Transcript(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	b, _ := json.Marshal(evs)
	return b
}

// checkLedger is the money invariant of one settled match: the queued rows, once the payout
// fills what it owns, pass the Ledger's own check (stakes in = paid out + house), and the
// bank balances against the settlement's house figure.
func (r *rig) checkLedger(id string, s *Settlement) [2]storage.WardenRow {
	r.t.Helper()
	r.mu.Lock()
	rows, ok := r.queued[id]
	r.mu.Unlock()
	if !ok {
		r.t.Fatalf("%s: nothing queued", id)
	}
	filled := rows
	for i := range filled {
		filled[i].SettledAt = "2026-12-04T03:30:00.000Z"
		if filled[i].PaidOut > 0 {
			ref := "0xfeed"
			filled[i].PayoutRef = &ref
		}
	}
	for _, r0 := range rows {
		if r0.StakeRef != stakeTx || r0.StakeRail != "eip155:1337" {
			r.t.Fatalf("row %s: stake %s on %s, want the cleared payment's %s on eip155:1337", r0.RowID, r0.StakeRef, r0.StakeRail, stakeTx)
		}
	}
	if err := storage.CheckWardenMatch(filled[:]); err != nil {
		r.t.Fatalf("ledger invariant: %v", err)
	}
	if in, out := 2*rows[0].Stake, rows[0].PaidOut+rows[1].PaidOut+s.House; in != out {
		r.t.Fatalf("stakes in %d, paid out + house %d", in, out)
	}
	if rows[0].HouseShare+rows[1].HouseShare != s.House {
		r.t.Fatalf("house shares %d + %d, house %d", rows[0].HouseShare, rows[1].HouseShare, s.House)
	}
	return rows
}

// feedTypes is match id's Gallery feed, by type, in order.
func (r *rig) feedTypes(id string) []string {
	r.t.Helper()
	envs, err := r.store.WardenMatchFeed(id, 0, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, e := range envs {
		out = append(out, e.Type)
	}
	return out
}
