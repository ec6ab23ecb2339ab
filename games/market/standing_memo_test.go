package market

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// uncachedStanding is the Standing computed from scratch on every call, the oracle the memo is
// held to: every Player valued at the Unit Prices, sorted by wealth descending then playerId.
func uncachedStanding(t *txn, now time.Time) standingView {
	v := standingView{GameID: t.st.cfg.GameID, GeneratedAt: formatTime(now), StateVersion: t.version,
		Prices: make([]priceView, 0, len(t.st.cfg.Assets)), Players: make([]standingPlayer, 0, len(t.st.order))}
	for _, a := range t.st.cfg.Assets {
		v.Prices = append(v.Prices, priceView{a.ID, a.UnitPrice})
	}
	players := make([]*Player, 0, len(t.st.order))
	for _, id := range t.st.order {
		players = append(players, t.player(id))
	}
	names := playerNames(players)
	for i, p := range players {
		v.Players = append(v.Players, standingPlayer{PlayerID: p.ID, PlayerName: names[i],
			TradingName: optStr(p.TradingName), Wealth: wealth(t.inv(p.ID), t.st.cfg.Assets)})
	}
	slices.SortFunc(v.Players, func(a, b standingPlayer) int {
		if c := cmp.Compare(b.Wealth, a.Wealth); c != 0 {
			return c
		}
		return cmp.Compare(a.PlayerID, b.PlayerID)
	})
	return v
}

// oracleResponse is the readStanding response at now computed without the memo: the expiry
// pass Apply runs first, then the uncached board, in the envelope.
func oracleResponse(st *State, now time.Time) []byte {
	t := newTxn(st, now)
	t.sweep()
	return envelopeOf(t.version, uncachedStanding(t, now), nil)
}

const standingBody = `{"protocolVersion":2,"action":"readStanding"}`

// Across a random run of enrolments, name changes, transfers, proposals, answers and expiries,
// every readStanding (often several at one State Version, some whose expiry pass concludes an
// Exchange first) answers byte for byte what the uncached computation gives, and the memo
// is rebuilt at each new State Version.
func TestStandingMemoMatchesOracle(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { standingMemoRun(t, seed) })
	}
}

func standingMemoRun(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	st := newMarket(t, ruleConfig())
	now := t0
	var owners, players []string
	type open struct {
		owner string
		x     exView
	}
	var exs []open
	names := []string{"", "Ada", "ada", "Bob", "Quartermaster"}
	assets := []string{"credits", "wood", "stone"}
	reads, hits := 0, 0
	for step := range 600 {
		now = now.Add(time.Duration(rng.IntN(90)) * time.Second)
		cmd := fmt.Sprintf("c-%d", step)
		switch k := rng.IntN(10); {
		case k == 0 || len(players) < 2:
			o := ownerName(len(owners))
			var e struct {
				PlayerID string `json:"playerId"`
			}
			must(t, st, o, now, `{"protocolVersion":2,"commandId":"e","action":"enroll"}`, &e)
			owners, players = append(owners, o), append(players, e.PlayerID)
		case k == 1:
			i := rng.IntN(len(owners))
			do(t, st, owners[i], now, fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"setTradingName","tradingName":%q}`, cmd, names[rng.IntN(len(names))]))
		case k == 2:
			i, j := rng.IntN(len(owners)), rng.IntN(len(owners))
			do(t, st, owners[i], now, transferBody(cmd, players[j], assets[rng.IntN(3)], int64(1+rng.IntN(30))))
		case k == 3:
			i, j := rng.IntN(len(owners)), rng.IntN(len(owners))
			exp := formatTime(now.Add(time.Duration(1+rng.IntN(10)) * time.Minute))
			var x exView
			r := do(t, st, owners[i], now, proposeBody(cmd, players[j], goods(assets[rng.IntN(3)], 1+rng.IntN(8)), goods(assets[rng.IntN(3)], 1+rng.IntN(40)), exp))
			if r.OK && jsonUnmarshal(r.Result, &x) == nil {
				exs = append(exs, open{owners[slices.Index(players, x.CounterpartyID)], x})
			}
		case k == 4 && len(exs) > 0:
			e := exs[rng.IntN(len(exs))]
			do(t, st, e.owner, now, respondBody(cmd, e.x.ExchangeID, e.x.ExchangeVersion, e.x.TermsHash, []string{"approve", "decline"}[rng.IntN(2)]))
		default:
			for range 1 + rng.IntN(3) {
				want := oracleResponse(st, now)
				s := Apply(st, owners[rng.IntN(len(owners))], []byte(standingBody), now)
				if !bytes.Equal(s.Response, want) {
					t.Fatalf("seed %d step %d: readStanding\n got %s\nwant %s", seed, step, s.Response, want)
				}
				if s.Delta.Empty() && (st.standing == nil || st.standing.version != st.version) {
					t.Fatalf("step %d: a read that wrote nothing left no memo at version %d", step, st.version)
				}
				if !s.Delta.Empty() {
					hits-- // its expiry pass wrote: the board was computed afresh
				}
				st.Commit(s.Delta)
				reads++
				hits++
			}
		}
		checkInvariants(t, st)
	}
	if reads < 100 || hits < 50 {
		t.Fatalf("only %d reads (%d from the memo): the run did not exercise it", reads, hits)
	}
}

// A readStanding after a mutation shows it: a transfer moves the wealth and the State Version,
// and a Trading Name set between two reads prints on the second.
func TestStandingMemoSeesMutations(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	read := func() standingOut {
		var s standingOut
		must(t, st, "owner-x", t0, standingBody, &s)
		return s
	}
	wealthOf := func(s standingOut, id string) int64 {
		for _, p := range s.Players {
			if p.PlayerID == id {
				return p.Wealth
			}
		}
		t.Fatalf("%s not on the board", id)
		return 0
	}
	s1 := read()
	if s2 := read(); s2.StateVersion != s1.StateVersion || wealthOf(s2, b) != wealthOf(s1, b) {
		t.Fatalf("two reads at one version differ: %+v %+v", s1, s2)
	}
	must(t, st, "owner-a", t0, transferBody("t-1", b, "wood", 5), nil)
	s3 := read()
	if s3.StateVersion != s1.StateVersion+1 || wealthOf(s3, b) != wealthOf(s1, b)+20 || wealthOf(s3, a) != wealthOf(s1, a)-20 {
		t.Fatalf("after a transfer of 5 wood (price 4): before %+v, after %+v", s1, s3)
	}
	if s3.Players[0].PlayerID != b {
		t.Fatalf("the richer Player is not first: %+v", s3.Players)
	}
	must(t, st, "owner-b", t0, `{"protocolVersion":2,"commandId":"n-1","action":"setTradingName","tradingName":"Quartermaster"}`, nil)
	if s4 := read(); s4.Players[0].PlayerName != "Quartermaster" || s4.Players[0].TradingName == nil {
		t.Fatalf("the Trading Name did not print: %+v", s4.Players)
	}
}
