package market

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"
)

type priceView struct {
	AssetID   string `json:"assetId"`
	UnitPrice int64  `json:"unitPrice"`
}

type standingPlayer struct {
	PlayerID    string  `json:"playerId"`
	PlayerName  string  `json:"playerName"`
	TradingName *string `json:"tradingName"`
	Wealth      int64   `json:"wealth"`
}

type standingView struct {
	GameID       string           `json:"gameId"`
	GeneratedAt  string           `json:"generatedAt"`
	StateVersion uint64           `json:"stateVersion"`
	Prices       []priceView      `json:"prices"`
	Players      []standingPlayer `json:"players"`
}

// Standing is the public Standing at now as JSON ("readStanding is public data"): the board
// the read-only Standing surface serves and readStanding returns. It carries Player IDs, names
// and wealth only: no Owner, Command ID, Inventory or Terms.
func Standing(st *State, now time.Time) []byte {
	return encode(standing(newTxn(st, now), now.UTC()))
}

// standing is the Standing board at now as the request sees it ("readStanding is public
// data"): the Players' rows of board, memoised in the State by State Version when the request
// has written nothing (the rows then follow from the State alone), computed afresh otherwise.
func standing(t *txn, now time.Time) standingView {
	v := standingView{GameID: t.st.cfg.GameID, GeneratedAt: formatTime(now), StateVersion: t.version,
		Prices: make([]priceView, 0, len(t.st.cfg.Assets))}
	for _, a := range t.st.cfg.Assets {
		v.Prices = append(v.Prices, priceView{a.ID, a.UnitPrice})
	}
	if t.written() != [5]int{int(t.st.version), 0, 0, 0, 0} {
		v.Players = board(t)
		return v
	}
	if m := t.st.standing; m == nil || m.version != t.st.version {
		t.st.standing = &standingMemo{version: t.st.version, players: board(t)}
	}
	v.Players = t.st.standing.players
	return v
}

// standingMemo is the Standing board's Player rows at one State Version. The rows are never
// written after they are built, so a view may carry the slice itself.
type standingMemo struct {
	version uint64
	players []standingPlayer
}

// board values every Player's Holdings (Reserved included: they are still its own) at the
// configured Unit Prices, sorted by wealth descending then playerId, each with the name to
// print: linear in the Players, which is why standing memoises it.
func board(t *txn) []standingPlayer {
	out := make([]standingPlayer, 0, len(t.st.order))
	players := make([]*Player, 0, len(t.st.order))
	for _, id := range t.st.order {
		players = append(players, t.player(id))
	}
	names := playerNames(players)
	for i, p := range players {
		inv := t.inv(p.ID)
		w := wealth(inv, t.st.cfg.Assets)
		out = append(out, standingPlayer{PlayerID: p.ID, PlayerName: names[i], TradingName: optStr(p.TradingName), Wealth: w})
	}
	slices.SortFunc(out, func(a, b standingPlayer) int {
		if c := cmp.Compare(b.Wealth, a.Wealth); c != 0 {
			return c
		}
		return cmp.Compare(a.PlayerID, b.PlayerID)
	})
	return out
}

// wealth is inv's Holdings valued at the Unit Prices, saturating at ±(2^53−1): a configured
// price and holding may each be up to 2^40 (Config), so their product may pass int64 and any
// JSON reader's safe integers; a figure that large prints as the bound, never wrapped
// negative. Holdings are never negative for a Player.
func wealth(inv *Inventory, assets []Asset) int64 {
	const limit = maxQuantity
	var w int64
	for _, a := range assets {
		q := inv.Holdings[a.ID]
		if q == 0 || a.UnitPrice == 0 {
			continue
		}
		if q > 0 && q > (limit-w)/a.UnitPrice || q < 0 && -q > (limit+w)/a.UnitPrice {
			if q > 0 {
				return limit
			}
			return -limit
		}
		w += q * a.UnitPrice
	}
	return w
}

// DerivedName is the two-word name computed from a Player ID alone (ADR-0022): an adjective and
// a noun picked by SHA-256 of the ID, so an unnamed Player discloses no more than its ID does.
func DerivedName(playerID string) string {
	d := sha256.Sum256([]byte("name/" + playerID))
	return nameAdjectives[int(d[0])%len(nameAdjectives)] + " " + nameNouns[int(d[1])%len(nameNouns)]
}

// fragment is the digest fragment that tells a Player's name from a colliding one: the first n
// hex digits of SHA-256 of its ID.
func fragment(playerID string, n int) string {
	d := sha256.Sum256([]byte(playerID))
	return hex.EncodeToString(d[:])[:n]
}

// playerNames is the playerName of each Player ("readStanding is public data"): its Trading
// Name when it set one, else its derived name; names that collide (compared case-folded) are
// told apart by a digest fragment in brackets, and a claim yields: in a group of equal names
// the one Player printing its own derived name keeps it bare, and every other member (every
// claim, and every derived name when two collide) takes a fragment, lengthened until no two
// printed names are equal.
func playerNames(players []*Player) []string {
	type entry struct {
		base    string
		derived bool
		frag    int // 0: bare
	}
	es := make([]entry, len(players))
	for i, p := range players {
		if p.TradingName != "" {
			es[i] = entry{base: p.TradingName}
		} else {
			es[i] = entry{base: DerivedName(p.ID), derived: true}
		}
	}
	label := func(i int) string {
		if es[i].frag == 0 {
			return es[i].base
		}
		return es[i].base + " [" + fragment(players[i].ID, es[i].frag) + "]"
	}
	labels, keys := make([]string, len(es)), make([]string, len(es))
	for i := range es {
		labels[i] = label(i)
		keys[i] = strings.ToLower(labels[i])
	}
	for changed := true; changed; {
		changed = false
		groups := make(map[string][]int, len(es))
		var collided []string
		for i, k := range keys {
			g := append(groups[k], i)
			groups[k] = g
			if len(g) == 2 {
				collided = append(collided, k)
			}
		}
		for _, k := range collided {
			g := groups[k]
			keeper := -1
			for _, i := range g {
				if es[i].derived {
					if keeper == -1 {
						keeper = i
					} else {
						keeper = -2
					}
				}
			}
			for _, i := range g {
				if i == keeper || es[i].frag >= 64 {
					continue
				}
				if es[i].frag == 0 {
					es[i].frag = 4
				} else {
					es[i].frag++
				}
				labels[i] = label(i)
				keys[i] = strings.ToLower(labels[i])
				changed = true
			}
		}
	}
	return labels
}
