package wardenpay

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"

	"arena/chain/x402"
	"arena/storage"
	"arena/storage/storagetest"
)

// testNetwork is the stake rail's network in this package's fixtures (a geth --dev chain).
const testNetwork = "eip155:1337"

// stakePaid stores a stake payment record as the stake door leaves it once its transfer is
// mined: claimed (its nonce in x402_replay), then settled with a transaction hash. The nonce
// is derived from match and seat, so each seat of a match has its own record.
func stakePaid(t *testing.T, st *storage.Store, match, seat, payer string, amount uint64, network string) string {
	t.Helper()
	from, ok := x402.ParseAddress(payer)
	if !ok {
		t.Fatalf("payer %q is no address", payer)
	}
	nonce := sha256.Sum256([]byte(match + "/" + seat))
	token, _ := x402.ParseAddress("0x3600000000000000000000000000000000000000")
	k := x402.ReplayKey{ChainID: 1337, Contract: token, From: from, Nonce: nonce}
	id := fmt.Sprintf("wp_%x", nonce[:8])
	rec := storage.WardenPayment{ID: id, Resource: "/v1/warden/matches/" + match + "/stake", Match: match, Seat: seat,
		Payer: payer, Amount: amount, Network: network, Key: k.String(), Version: 2,
		Payload: []byte(`{"test":"stake"}`), Status: storage.WardenPaySettling, Created: 1_796_000_000}
	if _, claimed, err := st.ClaimWardenPayment(k, rec); err != nil || !claimed {
		t.Fatalf("claim stake %s: claimed %v, %v", id, claimed, err)
	}
	rec.Status, rec.Tx = storage.WardenPaySettled, "0x"+strings.Repeat("5", 64)
	if err := st.PutWardenPayment(rec); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestQueueSettlementRefusesUnclearedStakes: a settlement is queued only when match.stakes
// names, for seats A and B, a settled payment record of the match's stake, paid by that
// seat's wallet on the rail's network (§10.4, §12.2: no payout before both stakes cleared).
// Every other case is refused with storage.ErrInvalid and nothing written; a payer spelled in
// another case is the same wallet.
func TestQueueSettlementRefusesUnclearedStakes(t *testing.T) {
	const m = "wm_00000000000000dd"
	type pay struct {
		payer   string
		amount  uint64
		network string
		settled bool
	}
	good := func(seat string) pay {
		return pay{map[string]string{"A": ada.id, "B": quill.id}[seat], 1_000_000, testNetwork, true}
	}
	tests := []struct {
		name  string
		stake map[string]*pay // nil entry: the seat names no payment; absent: named but unstored
		ok    bool
	}{
		{"both cleared", map[string]*pay{"A": ptr(good("A")), "B": ptr(good("B"))}, true},
		{"payer in lower case", map[string]*pay{"A": ptr(pay{strings.ToLower(ada.id), 1_000_000, testNetwork, true}), "B": ptr(good("B"))}, true},
		{"no stakes at all", map[string]*pay{}, false},
		{"seat B names no payment", map[string]*pay{"A": ptr(good("A")), "B": nil}, false},
		{"seat A's payment is not stored", map[string]*pay{"B": ptr(good("B"))}, false},
		{"seat B's payment only submitted", map[string]*pay{"A": ptr(good("A")), "B": ptr(pay{quill.id, 1_000_000, testNetwork, false})}, false},
		{"seat A paid less than the stake", map[string]*pay{"A": ptr(pay{ada.id, 999_999, testNetwork, true}), "B": ptr(good("B"))}, false},
		{"seat B paid by seat A's wallet", map[string]*pay{"A": ptr(good("A")), "B": ptr(pay{ada.id, 1_000_000, testNetwork, true})}, false},
		{"seat A paid on another network", map[string]*pay{"A": ptr(pay{ada.id, 1_000_000, "eip155:1", true}), "B": ptr(good("B"))}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := storagetest.Open(t, storage.Options{})
			stakes := map[string]string{}
			for _, seat := range []string{"A", "B"} {
				p, named := tt.stake[seat]
				switch {
				case !named:
					if len(tt.stake) > 0 {
						stakes[seat] = "wp_00000000deadbeef"
					}
				case p == nil:
				default:
					if p.settled {
						stakes[seat] = stakePaid(t, st, m, seat, p.payer, p.amount, p.network)
					} else {
						stakes[seat] = stakeSubmitted(t, st, m, seat, p.payer, p.amount, p.network)
					}
				}
			}
			putMatchStakes(t, st, m, StatusFinished, stakes)
			s := example(m)
			err := queue(st, s)
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				if got := jobs(t, st, m); len(got) != 2 {
					t.Fatalf("jobs %+v, want two", got)
				}
				return
			}
			if !errors.Is(err, storage.ErrInvalid) {
				t.Fatalf("%v, want ErrInvalid", err)
			}
			t.Log(err)
			if got := jobs(t, st, m); len(got) != 0 {
				t.Fatalf("jobs %+v written by a refused settlement", got)
			}
			if got := matchStatusOf(t, st, m); got != StatusFinished {
				t.Fatalf("match %s after a refused settlement, want FINISHED", got)
			}
		})
	}
}

// stakeSubmitted stores a stake payment whose transfer was sent and not yet mined.
func stakeSubmitted(t *testing.T, st *storage.Store, match, seat, payer string, amount uint64, network string) string {
	t.Helper()
	from, _ := x402.ParseAddress(payer)
	nonce := sha256.Sum256([]byte(match + "/" + seat))
	token, _ := x402.ParseAddress("0x3600000000000000000000000000000000000000")
	k := x402.ReplayKey{ChainID: 1337, Contract: token, From: from, Nonce: nonce}
	id := fmt.Sprintf("wp_%x", nonce[:8])
	rec := storage.WardenPayment{ID: id, Resource: "/v1/warden/matches/" + match + "/stake", Match: match, Seat: seat,
		Payer: payer, Amount: amount, Network: network, Key: k.String(), Version: 2,
		Payload: []byte(`{"test":"stake"}`), Status: storage.WardenPaySettling, Created: 1_796_000_000}
	if _, claimed, err := st.ClaimWardenPayment(k, rec); err != nil || !claimed {
		t.Fatalf("claim stake %s: claimed %v, %v", id, claimed, err)
	}
	rec.Status, rec.Tx = storage.WardenPaySubmitted, "0x"+strings.Repeat("5", 64)
	if err := st.PutWardenPayment(rec); err != nil {
		t.Fatal(err)
	}
	return id
}

func ptr[T any](v T) *T { return &v }
