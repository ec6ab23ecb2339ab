package warden

import (
	"cmp"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"arena/chain/x402"
	"arena/storage"
	"arena/transport/door"
)

// Reads are the Warden's free public reads of the Ledger (warden-games §7.1, §12–§14): the
// rows, their head, a Contender's profile and Standing, the leaderboard and the
// per-temperament statistics. Every figure is derived from the Ledger at the head it names
// (as_of); nothing is stored but the Ledger's own folds (storage). Safe for concurrent use.
type Reads struct {
	Store *storage.Store
	// Rule is Standing's ELITE bar (§13.1, §17 standing); its zero value is the default,
	// 60 % and 1 match.
	Rule StandingRule
	// Temperaments is the configured list (§6.2); nil is the default list.
	Temperaments []string
	// Games are the Warden games (the Bracket's warden.* ids), each with its rounds and
	// required inputs per seat per match, the denominators of §14.1's overshoot and timeout
	// rates (a zero shape leaves those rates null).
	Games map[string]GameShape

	mu struct {
		sync.Mutex
		board map[string]boardMemo // by game ("" all): the ranked Contenders with rows
	}
}

// StandingRule is the ELITE bar of §13.1: EliteWinRatePct percent of matches won (0 = 60) over
// at least EliteMinMatches matches (0 = 1).
type StandingRule struct {
	EliteWinRatePct int64
	EliteMinMatches int64
}

func (r StandingRule) tier(a storage.WardenAggregate) string {
	pct := r.EliteWinRatePct
	if pct == 0 {
		pct = 60
	}
	return a.TierAt(pct, r.EliteMinMatches)
}

// GameShape is what §14.1's rates need of a game: Rounds per match (the overshoot rate's
// rounds) and Inputs, the required inputs one seat gives per match (the timeout rate's
// denominator: Game I's claim and offer per round, Game II's one commit).
type GameShape struct {
	Rounds int64
	Inputs int64
}

// Paging bounds of the list reads (§7.1 limit).
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

func (r *Reads) mount(e *echo.Echo) {
	e.GET("/v1/warden/ledger", r.ledger)
	e.GET("/v1/warden/ledger/head", r.head)
	e.GET("/v1/warden/contenders/:id", r.contender)
	e.GET("/v1/warden/leaderboard", r.leaderboard)
	e.GET("/v1/warden/temperaments", r.temperaments)
}

func (r *Reads) temperamentList() []string {
	if r.Temperaments != nil {
		return r.Temperaments
	}
	return Temperaments
}

// asOf is the §13.4 as_of member: the Ledger head a figure was computed at.
func asOf(h storage.WardenHead) map[string]any {
	return map[string]any{"ledger_seq": h.Seq, "ledger_hash": h.RowHash}
}

// bps is floor(n × 10000 / d), 0 when d is 0: a display rate in basis points (§13.4).
func bps(n, d int64) int64 {
	if d <= 0 {
		return 0
	}
	return n * 10000 / d
}

// floorDiv is ⌊n / d⌋ for d > 0 (Go's / truncates toward zero): §14.1's avg_net.
func floorDiv(n, d int64) int64 {
	q := n / d
	if n%d != 0 && (n < 0) != (d < 0) {
		q--
	}
	return q
}

// ParseLimit reads a limit query value: "" is DefaultLimit, else a decimal 1..MaxLimit with no
// sign or leading zero. Errors are bad_request.
func ParseLimit(s string) (int, error) {
	if s == "" {
		return DefaultLimit, nil
	}
	n, ok := parseCount(s)
	if !ok || n < 1 || n > MaxLimit {
		return 0, refuse("bad_request", "limit must be a whole number from 1 to "+strconv.Itoa(MaxLimit))
	}
	return int(n), nil
}

// parseCount reads a canonical unsigned decimal (no sign, no leading zero, at most 19 digits).
func parseCount(s string) (uint64, bool) {
	if s == "" || len(s) > 19 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(s[i]-'0')
	}
	return n, true
}

// contenderID reads a Contender id (its wallet, §0): any-case or EIP-55 address, answered in
// EIP-55. Errors are bad_request.
func contenderID(what, s string) (string, error) {
	a, ok := x402.ParseAddress(s)
	if !ok {
		return "", refuse("bad_request", what+" is not a wallet address (0x and 40 hex digits, EIP-55 when mixed case)")
	}
	return a.String(), nil
}

// ledger is GET /v1/warden/ledger?contender=&match=&after=&limit= (§7.1, §12): the rows with a
// seq above after (0), in seq order, at most limit, of one Contender and/or one match when
// named; next_after is the last row's seq when more may follow, else null.
func (r *Reads) ledger(c echo.Context) error {
	q := c.QueryParams()
	if err := knownParams(q, "contender", "match", "after", "limit"); err != nil {
		return err
	}
	limit, err := ParseLimit(q.Get("limit"))
	if err != nil {
		return err
	}
	var after uint64
	if s := q.Get("after"); s != "" {
		var ok bool
		if after, ok = parseCount(s); !ok {
			return refuse("bad_request", "after must be a Ledger seq (a whole number)")
		}
	}
	who := q.Get("contender")
	if who != "" {
		if who, err = contenderID("contender", who); err != nil {
			return err
		}
	}
	match := q.Get("match")
	if match != "" && !validMatchID(match) {
		return refuse("bad_request", "match is not a match id (wm_ and 16 hex digits)")
	}
	head, err := r.Store.WardenHead()
	if err != nil {
		return err
	}
	rows := make([]storage.WardenRow, 0, min(limit, 64))
	more := false
	take := func(row storage.WardenRow) error {
		if row.Seq > head.Seq || (who != "" && row.ContenderID != who) || (match != "" && row.MatchID != match) || row.Seq <= after {
			return nil
		}
		if len(rows) == limit {
			more = true
			return errStop
		}
		rows = append(rows, row)
		return nil
	}
	switch {
	case match != "":
		m, err := r.Store.WardenMatch(match)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		for _, row := range m {
			if err := take(row); err != nil {
				break
			}
		}
	case who != "":
		err = r.Store.WardenContenderRows(who, after, take)
	default:
		err = r.Store.WardenRows(after+1, take)
	}
	if err != nil && !errors.Is(err, errStop) {
		return err
	}
	var next any
	if more {
		next = rows[len(rows)-1].Seq
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "rows": rows, "next_after": next,
		"head": map[string]any{"seq": head.Seq, "row_hash": head.RowHash}})
}

var errStop = errors.New("warden: page full")

// validMatchID reports whether s is wm_ and 16 lower-case hex digits (§0).
func validMatchID(s string) bool {
	h, ok := strings.CutPrefix(s, "wm_")
	if !ok || len(h) != 16 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if !(h[i] >= '0' && h[i] <= '9' || h[i] >= 'a' && h[i] <= 'f') {
			return false
		}
	}
	return true
}

// head is GET /v1/warden/ledger/head: {seq, row_hash}.
func (r *Reads) head(c echo.Context) error {
	if err := onlyParams(c.QueryParams()); err != nil {
		return err
	}
	h, err := r.Store.WardenHead()
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"seq": h.Seq, "row_hash": h.RowHash})
}

// Standing is §13.4's object for a Contender's aggregate at head h, its tier by rule.
func (r *Reads) Standing(id string, a storage.WardenAggregate, h storage.WardenHead) map[string]any {
	byGame := map[string]any{}
	for g, t := range a.PerGame {
		byGame[g] = map[string]any{"matches": t.Matches, "wins": t.Wins, "net_total": t.NetTotal}
	}
	return map[string]any{"contender_id": id, "tier": r.Rule.tier(a), "matches": a.Matches, "wins": a.Wins,
		"draws": a.Draws, "losses": a.Losses, "win_rate_bps": bps(a.Wins, a.Matches), "net_total": a.NetTotal,
		"by_game": byGame, "as_of": asOf(h)}
}

// totals is the full sums of a set of rows (§13.3) as a profile shows them.
func totals(t storage.WardenTotals) map[string]any {
	stats := t.Stats
	if stats == nil {
		stats = map[string]int64{}
	}
	return map[string]any{"matches": t.Matches, "wins": t.Wins, "draws": t.Draws, "losses": t.Losses,
		"win_rate_bps": bps(t.Wins, t.Matches), "net_total": t.NetTotal, "staked_total": t.StakedTotal,
		"paid_out_total": t.PaidOutTotal, "rake_total": t.RakeTotal, "reads_spent_total": t.ReadsSpentTotal, "stats": stats}
}

// contender is GET /v1/warden/contenders/{id} (§7.1): the profile (name and temperament as
// registered), its Standing (§13.4) recomputed from the Ledger on this read, and its overall
// and per-game sums with the summed game counters. A wallet neither registered nor on the
// Ledger is not_found.
func (r *Reads) contender(c echo.Context) error {
	if err := onlyParams(c.QueryParams()); err != nil {
		return err
	}
	id, err := contenderID("the contender id", c.Param("id"))
	if err != nil {
		return err
	}
	var prof contender
	var registered bool
	if err := r.Store.WardenView(func(tx storage.WardenTx) (err error) {
		registered, err = tx.Get("contender/"+id, &prof)
		return err
	}); err != nil {
		return err
	}
	a, h, err := r.Store.WardenStanding(id)
	if err != nil {
		return err
	}
	if !registered && a.Matches == 0 {
		return refuse(door.CodeNotFound, "no Contender "+id)
	}
	perGame := map[string]any{}
	for g, t := range a.PerGame {
		perGame[g] = totals(t)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "contender_id": id, "registered": registered,
		"name": prof.Name, "temperament": prof.Temperament, "standing": r.Standing(id, a, h),
		"totals": totals(a.WardenTotals), "per_game": perGame})
}

// tierRank is a tier's place in §13.5's order: ELITE 0 … UNPROVEN 3.
func tierRank(t string) int {
	return slices.Index([]string{storage.TierElite, storage.TierSolvent, storage.TierUnderwater, storage.TierUnproven}, t)
}

// boardEntry is one Contender on the leaderboard with its sort key (§13.5): the overall tier,
// then the ranked sums (the game's with a game filter).
type boardEntry struct {
	ID      string
	Agg     storage.WardenAggregate
	Tier    string
	Ranked  storage.WardenTotals
	WinRate int64
}

// key is the entry's place in the order as a cursor names it.
func (e boardEntry) key() BoardKey {
	return BoardKey{Tier: tierRank(e.Tier), Net: e.Ranked.NetTotal, WinRate: e.WinRate, Matches: e.Ranked.Matches, ID: e.ID}
}

// BoardKey is a leaderboard position (§13.5): tier rank (ELITE 0 … UNPROVEN 3), net_total,
// win_rate_bps, matches and contender id. Compare orders keys as the leaderboard does.
type BoardKey struct {
	Tier    int
	Net     int64
	WinRate int64
	Matches int64
	ID      string
}

// Compare is −1 when k ranks above o, +1 below, 0 for the same position: tier ascending, net
// descending, win rate descending, matches descending, id ascending.
func (k BoardKey) Compare(o BoardKey) int {
	return cmp.Or(cmp.Compare(k.Tier, o.Tier), cmp.Compare(o.Net, k.Net), cmp.Compare(o.WinRate, k.WinRate),
		cmp.Compare(o.Matches, k.Matches), strings.Compare(k.ID, o.ID))
}

// String is the key as a leaderboard cursor: "<tier>.<net>.<win rate>.<matches>.<id>".
func (k BoardKey) String() string {
	return strconv.Itoa(k.Tier) + "." + strconv.FormatInt(k.Net, 10) + "." + strconv.FormatInt(k.WinRate, 10) + "." +
		strconv.FormatInt(k.Matches, 10) + "." + k.ID
}

// ParseBoardKey reads a cursor String wrote: a tier rank 0–3, a canonical signed decimal net,
// canonical decimal win rate (0–10000) and matches, and an EIP-55 id. Errors are bad_request.
func ParseBoardKey(s string) (BoardKey, error) {
	bad := refuse("bad_request", "cursor is not one this leaderboard gave")
	parts := strings.Split(s, ".")
	if len(parts) != 5 || len(parts[0]) != 1 || parts[0][0] < '0' || parts[0][0] > '3' {
		return BoardKey{}, bad
	}
	k := BoardKey{Tier: int(parts[0][0] - '0')}
	neg, net := false, parts[1]
	if rest, ok := strings.CutPrefix(net, "-"); ok && rest != "0" {
		neg, net = true, rest
	}
	n, ok := parseCount(net)
	if !ok || n > 1<<53 {
		return BoardKey{}, bad
	}
	k.Net = int64(n)
	if neg {
		k.Net = -k.Net
	}
	w, ok1 := parseCount(parts[2])
	m, ok2 := parseCount(parts[3])
	if !ok1 || !ok2 || w > 10000 || m > 1<<53 {
		return BoardKey{}, bad
	}
	k.WinRate, k.Matches = int64(w), int64(m)
	a, ok := x402.ParseAddress(parts[4])
	if !ok || a.String() != parts[4] {
		return BoardKey{}, bad
	}
	k.ID = parts[4]
	return k, nil
}

// boardMemo is the ranked Contenders with rows, as of a Ledger head (§13.3: rebuilt only when
// the Ledger has grown).
type boardMemo struct {
	seq     uint64
	head    storage.WardenHead
	entries []boardEntry
}

// ranked is the leaderboard's Contenders that have rows (of game, when named), in §13.5's
// order, as of the current head: memoised per game under the head's seq.
func (r *Reads) ranked(game string) (boardMemo, error) {
	h, err := r.Store.WardenHead()
	if err != nil {
		return boardMemo{}, err
	}
	r.mu.Lock()
	m, ok := r.mu.board[game]
	r.mu.Unlock()
	if ok && m.seq == h.Seq {
		return m, nil
	}
	var entries []boardEntry
	h, err = r.Store.WardenAggregates(false, func(id string, a storage.WardenAggregate) error {
		ranked := a.WardenTotals
		if game != "" {
			g, ok := a.PerGame[game]
			if !ok {
				return nil
			}
			ranked = g
		}
		entries = append(entries, boardEntry{ID: id, Agg: a, Tier: r.Rule.tier(a), Ranked: ranked, WinRate: bps(ranked.Wins, ranked.Matches)})
		return nil
	})
	if err != nil {
		return boardMemo{}, err
	}
	slices.SortFunc(entries, func(x, y boardEntry) int { return x.key().Compare(y.key()) })
	m = boardMemo{seq: h.Seq, head: h, entries: entries}
	r.mu.Lock()
	if r.mu.board == nil {
		r.mu.board = map[string]boardMemo{}
	}
	r.mu.board[game] = m
	r.mu.Unlock()
	return m, nil
}

// leaderboard is GET /v1/warden/leaderboard?game=&tier=&limit=&cursor= (§7.1, §13.5): ranked
// Standing rows. Registered Contenders without a settled match rank last as UNPROVEN (not with
// a game filter: they have no sums of the game). cursor is the last row's position from the
// page before (next_cursor): the page starts strictly below it, so a Ledger that grew between
// pages repeats no Contender above the cursor. Errors: bad_request (limit, cursor, tier),
// unknown_game.
func (r *Reads) leaderboard(c echo.Context) error {
	q := c.QueryParams()
	if err := knownParams(q, "game", "tier", "limit", "cursor"); err != nil {
		return err
	}
	limit, err := ParseLimit(q.Get("limit"))
	if err != nil {
		return err
	}
	game, tier := q.Get("game"), q.Get("tier")
	if tier != "" && tierRank(tier) < 0 {
		return refuse("bad_request", "tier must be ELITE, SOLVENT, UNDERWATER or UNPROVEN")
	}
	var after *BoardKey
	if s := q.Get("cursor"); s != "" {
		k, err := ParseBoardKey(s)
		if err != nil {
			return err
		}
		after = &k
	}
	if game != "" && !r.knownGame(game) {
		return refuse("unknown_game", "no Warden game "+strconv.Quote(game))
	}
	out, next, h, err := r.Board(game, tier, after, limit)
	if err != nil {
		return err
	}
	var nc any
	if next != nil {
		nc = next.String()
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "rows": out, "next_cursor": nc, "as_of": asOf(h)})
}

func (r *Reads) knownGame(game string) bool {
	_, ok := r.Games[game]
	return ok
}

// Board is one page of the leaderboard (§13.5): at most limit rows below after (nil: from the
// top), of tier when not "", ranked by game's sums when not "". Each row is the Standing object
// with its rank (1-based over the filtered order) and, with a game, that game's figures. next
// is the last row's key when more rows follow.
func (r *Reads) Board(game, tier string, after *BoardKey, limit int) (rows []map[string]any, next *BoardKey, h storage.WardenHead, err error) {
	m, err := r.ranked(game)
	if err != nil {
		return nil, nil, h, err
	}
	h = m.head
	entries := m.entries
	if game == "" {
		var unproven []boardEntry
		err := r.Store.WardenKeys("contender/", func(key string, _ []byte) error {
			unproven = append(unproven, boardEntry{ID: strings.TrimPrefix(key, "contender/"), Tier: storage.TierUnproven})
			return nil
		})
		if err != nil {
			return nil, nil, h, err
		}
		if len(unproven) > 0 {
			ranked := map[string]bool{}
			for _, e := range entries {
				ranked[e.ID] = true
			}
			all := slices.Clone(entries)
			for _, u := range unproven {
				if !ranked[u.ID] {
					all = append(all, u)
				}
			}
			slices.SortFunc(all, func(x, y boardEntry) int { return x.key().Compare(y.key()) })
			entries = all
		}
	}
	rows = []map[string]any{}
	rank := 0
	for _, e := range entries {
		if tier != "" && e.Tier != tier {
			continue
		}
		rank++
		if after != nil && e.key().Compare(*after) <= 0 {
			continue
		}
		if len(rows) == limit {
			k := rows[len(rows)-1]["_key"].(BoardKey)
			next = &k
			break
		}
		row := r.Standing(e.ID, e.Agg, h)
		delete(row, "as_of")
		row["rank"] = rank
		if game != "" {
			row["game"] = map[string]any{"id": game, "matches": e.Ranked.Matches, "wins": e.Ranked.Wins,
				"draws": e.Ranked.Draws, "losses": e.Ranked.Losses, "win_rate_bps": e.WinRate, "net_total": e.Ranked.NetTotal}
		}
		row["_key"] = e.key()
		rows = append(rows, row)
	}
	for _, row := range rows {
		delete(row, "_key")
	}
	return rows, next, h, nil
}

// temperaments is GET /v1/warden/temperaments?temperament= (§14): each configured temperament's
// statistics (and any other the Ledger holds), or the one named. Errors: unknown_temperament.
func (r *Reads) temperaments(c echo.Context) error {
	if err := knownParams(c.QueryParams(), "temperament"); err != nil {
		return err
	}
	only := c.QueryParam("temperament")
	list := r.temperamentList()
	aggs := map[string]storage.WardenAggregate{}
	h, err := r.Store.WardenAggregates(true, func(id string, a storage.WardenAggregate) error {
		aggs[id] = a
		return nil
	})
	if err != nil {
		return err
	}
	if only != "" {
		if _, ok := aggs[only]; !ok && !slices.Contains(list, only) {
			return refuse("unknown_temperament", "temperament "+strconv.Quote(only)+" is not one of "+strings.Join(list, ", "))
		}
		list = []string{only}
	} else {
		for t := range aggs {
			if !slices.Contains(list, t) {
				list = append(list, t)
			}
		}
		slices.Sort(list[len(r.temperamentList()):])
	}
	out := make([]map[string]any, 0, len(list))
	for _, t := range list {
		out = append(out, r.TemperamentStats(t, aggs[t]))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "temperaments": out, "as_of": asOf(h)})
}

// TemperamentStats is §14.1's object for one temperament's aggregate: the record, net, avg_net
// (floor), rake, the same per game, the summed counters, the derived rates in bps (null where
// the denominator is 0 or unknown) and the head-to-head table vs.
func (r *Reads) TemperamentStats(name string, a storage.WardenAggregate) map[string]any {
	figures := func(t storage.WardenTotals) map[string]any {
		avg := int64(0)
		if t.Matches > 0 {
			avg = floorDiv(t.NetTotal, t.Matches)
		}
		return map[string]any{"matches": t.Matches, "wins": t.Wins, "draws": t.Draws, "losses": t.Losses,
			"win_rate_bps": bps(t.Wins, t.Matches), "net_total": t.NetTotal, "avg_net": avg, "rake_total": t.RakeTotal}
	}
	out := figures(a.WardenTotals)
	out["temperament"], out["contenders"] = name, a.Contenders
	byGame := map[string]any{}
	for g, t := range a.PerGame {
		byGame[g] = figures(t)
	}
	out["by_game"] = byGame
	stats := a.Stats
	if stats == nil {
		stats = map[string]int64{}
	}
	out["stats"] = stats
	vs := map[string]any{}
	for o, rec := range a.Vs {
		vs[o] = rec
	}
	out["vs"] = vs
	// rounds and inputs sum, over the games whose rows carry the counter, matches × the game's
	// rounds (or inputs); unknown when such a game has no shape.
	over := func(counter string, per func(GameShape) int64) (int64, bool) {
		var d int64
		for g, t := range a.PerGame {
			if _, ok := t.Stats[counter]; !ok {
				continue
			}
			s, ok := r.Games[g]
			if !ok || per(s) <= 0 {
				return 0, false
			}
			d += t.Matches * per(s)
		}
		return d, true
	}
	rate := func(n, d int64, known bool) any {
		if !known || d <= 0 {
			return nil
		}
		return n * 10000 / d
	}
	rounds, rk := over("overshoots", func(s GameShape) int64 { return s.Rounds })
	inputs, ik := over("timeouts", func(s GameShape) int64 { return s.Inputs })
	out["rates"] = map[string]any{
		"bluff_rate_bps":       rate(stats["bluffs"], stats["claims_made"], true),
		"truthful_rate_bps":    rate(stats["truthful"], stats["claims_made"], true),
		"overshoot_rate_bps":   rate(stats["overshoots"], rounds, rk),
		"cooperation_rate_bps": rate(stats["cooperated"], stats["cooperated"]+stats["defected"], true),
		"timeout_rate_bps":     rate(stats["timeouts"], inputs, ik),
	}
	return out
}
