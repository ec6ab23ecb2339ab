package public

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games/breakroom/wire"
	"arena/storage"
	"arena/transport/door"
)

// Counter names (the stats/<day>/<counter> records of storage). Ways in are the reads an agent
// or a person starts from; joins are counted per transport; AgentsCounter is the day's distinct
// keys that joined.
const (
	CounterStart    = "way_start"    // GET / as text
	CounterHome     = "way_home"     // GET / as HTML
	CounterLLMs     = "way_llms"     // GET /llms.txt
	CounterProtocol = "way_protocol" // GET /protocol
	CounterRules    = "way_rules"    // GET /rules/{game}
	CounterGames    = "way_games"    // GET /v0/games (the playing door counts through Stats.Count)
	CounterMCPCall  = "mcp_call"     // one MCP tool call (the MCP door counts through Stats.Count)
	AgentsCounter   = "agents"
	// JoinPrefix + the transport ("ws", "http", "mcp") counts a join.
	JoinPrefix = "join_"
)

// Bounds of /v0/stats's days.
const (
	DefaultDays = 30
	MaxDays     = 365
)

// FlushEvery is how long counts wait in memory before a count writes them (a read of the stats
// writes them at once): a page view costs no disk write of its own, and a kill -9 loses at most
// this much counting (counters, never money).
const FlushEvery = 10 * time.Second

// Stats keeps Break Room's usage counters per UTC day in the store (storage.AddBreakroomStats),
// so they survive restarts. Distinct agents are counted without keeping visitor data: a key that
// joins is held, as a hash, only for the current UTC day (to count it once however often it
// joins) and dropped when the next day writes. Addresses, user agents and the like are never
// read. Safe for concurrent use; a nil *Stats counts nothing.
type Stats struct {
	store *storage.Store
	now   func() time.Time

	mu        sync.Mutex
	pending   map[[2]string]int64 // (day, counter) → count not yet written
	seenDay   string
	seen      map[string]bool // the hashes of seenDay (loaded from the store on the day's first join)
	newSeen   []storage.BreakroomStatDelta
	lastFlush time.Time
}

// NewStats is the counters kept in store, on the clock now (time.Now when nil).
func NewStats(store *storage.Store, now func() time.Time) *Stats {
	if now == nil {
		now = time.Now
	}
	return &Stats{store: store, now: now, pending: map[[2]string]int64{}, lastFlush: now()}
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// Count adds one to counter for today.
func (s *Stats) Count(counter string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending[[2]string{day(s.now()), counter}]++
	s.maybeFlushLocked()
}

// Join counts a join through via ("ws", "http", "mcp") and key among today's distinct agents.
func (s *Stats) Join(via, key string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	today := day(s.now())
	s.pending[[2]string{today, JoinPrefix + via}]++
	if s.seenDay != today {
		s.seenDay, s.seen = today, map[string]bool{}
		_ = s.store.BreakroomSeen(today, func(h string) error { s.seen[h] = true; return nil })
	}
	sum := sha256.Sum256([]byte("breakroom-agents/" + today + "/" + key))
	h := hex.EncodeToString(sum[:16])
	if !s.seen[h] {
		s.seen[h] = true
		s.pending[[2]string{today, AgentsCounter}]++
		s.newSeen = append(s.newSeen, storage.BreakroomStatDelta{Day: today, Seen: h})
	}
	s.maybeFlushLocked()
}

func (s *Stats) maybeFlushLocked() {
	if s.now().Sub(s.lastFlush) >= FlushEvery {
		_ = s.flushLocked()
	}
}

// Flush writes the counts held in memory (shutdown, and before every read).
func (s *Stats) Flush() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flushLocked()
}

func (s *Stats) flushLocked() error {
	s.lastFlush = s.now()
	if len(s.pending) == 0 && len(s.newSeen) == 0 {
		return nil
	}
	ds := append([]storage.BreakroomStatDelta(nil), s.newSeen...)
	for k, n := range s.pending {
		ds = append(ds, storage.BreakroomStatDelta{Day: k[0], Counter: k[1], N: n})
	}
	if err := s.store.AddBreakroomStats(ds); err != nil {
		return err // kept in memory for the next flush
	}
	clear(s.pending)
	s.newSeen = nil
	return nil
}

// days is the stored counters of the days from … to, by day then counter.
func (s *Stats) days(from, to string) (map[string]map[string]int64, error) {
	out := map[string]map[string]int64{}
	if s == nil {
		return out, nil
	}
	if err := s.Flush(); err != nil {
		return nil, err
	}
	err := s.store.BreakroomStats(from, to, func(d, c string, n int64) error {
		if out[d] == nil {
			out[d] = map[string]int64{}
		}
		out[d][c] = n
		return nil
	})
	return out, err
}

// count is d's Stats.Count (nothing without Stats).
func (d *Door) count(counter string) { d.o.Stats.Count(counter) }

// waysIn, joins and matchCounts are a day's groups of /v0/stats.
type waysIn struct {
	Start    int64 `json:"start_text"`
	Home     int64 `json:"home_html"`
	LLMs     int64 `json:"llms_txt"`
	Protocol int64 `json:"protocol"`
	Rules    int64 `json:"rules"`
	Games    int64 `json:"games"` // GET /v0/games, the protocol's first step ("How to play", 0)
	Total    int64 `json:"total"`
}

type joins struct {
	WS   int64 `json:"ws"`
	HTTP int64 `json:"http"`
	MCP  int64 `json:"mcp"`
}

type matchCounts struct {
	Started   int64 `json:"started"`
	Finished  int64 `json:"finished"`
	Abandoned int64 `json:"abandoned"`
}

type statsDay struct {
	Day            string      `json:"day"`
	WaysIn         waysIn      `json:"ways_in"`
	Joins          joins       `json:"joins"`
	Matches        matchCounts `json:"matches"`
	MCPToolCalls   int64       `json:"mcp_tool_calls"`
	DistinctAgents int64       `json:"distinct_agents"`
}

type statsReply struct {
	V      int        `json:"v"`
	Days   int        `json:"days"`
	From   string     `json:"from"`
	To     string     `json:"to"`
	Series []statsDay `json:"series"` // oldest first, every day of the range
}

// daysQuery reads ?days: 1 … MaxDays (DefaultDays when absent), anything else bad_request.
func daysQuery(c echo.Context) (int, error) {
	if err := once(c, "days"); err != nil {
		return 0, err
	}
	if !c.QueryParams().Has("days") {
		return DefaultDays, nil
	}
	s := c.QueryParam("days")
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxDays {
		return 0, door.Refuse("bad_request", "days: "+strconv.Quote(clip(s))+" is not a whole number from 1 to 365")
	}
	return n, nil
}

// stats is the last n UTC days' counters, today included. Matches per day are read from the
// product's match list (started on the day it formed; finished or abandoned on the day it ended).
func (d *Door) stats(c echo.Context, n int) (statsReply, error) {
	today := d.o.Now().UTC()
	first := today.AddDate(0, 0, -(n - 1))
	out := statsReply{V: wire.V, Days: n, From: day(first), To: day(today)}
	stored, err := d.o.Stats.days(out.From, out.To)
	if err != nil {
		return out, err
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	ms, err := d.o.Backend.Matches(ctx)
	if err != nil {
		return out, refuse(err)
	}
	idx := map[string]int{}
	for i := range n {
		dd := day(first.AddDate(0, 0, i))
		idx[dd] = i
		k := stored[dd]
		w := waysIn{Start: k[CounterStart], Home: k[CounterHome], LLMs: k[CounterLLMs], Protocol: k[CounterProtocol], Rules: k[CounterRules],
			Games: k[CounterGames]}
		w.Total = w.Start + w.Home + w.LLMs + w.Protocol + w.Rules + w.Games
		out.Series = append(out.Series, statsDay{Day: dd, WaysIn: w,
			Joins:        joins{WS: k[JoinPrefix+"ws"], HTTP: k[JoinPrefix+"http"], MCP: k[JoinPrefix+"mcp"]},
			MCPToolCalls: k[CounterMCPCall], DistinctAgents: k[AgentsCounter]})
	}
	for _, m := range ms {
		if i, ok := idx[day(m.Started)]; ok {
			out.Series[i].Matches.Started++
		}
		if m.Status == StatusRunning || m.Ended.IsZero() {
			continue
		}
		if i, ok := idx[day(m.Ended)]; ok {
			if m.Status == StatusAbandoned {
				out.Series[i].Matches.Abandoned++
			} else {
				out.Series[i].Matches.Finished++
			}
		}
	}
	return out, nil
}

// statsJSON is GET /v0/stats?days=30.
func (d *Door) statsJSON(c echo.Context) error {
	n, err := daysQuery(c)
	if err != nil {
		return err
	}
	out, err := d.stats(c, n)
	if err != nil {
		return err
	}
	noStore(c)
	return c.JSON(http.StatusOK, out)
}

// statsPage is GET /stats: the same counters as a page, newest day first.
func (d *Door) statsPage(c echo.Context) error {
	n, err := daysQuery(c)
	if err != nil {
		return err
	}
	out, err := d.stats(c, n)
	if err != nil {
		return err
	}
	for i, j := 0, len(out.Series)-1; i < j; i, j = i+1, j-1 {
		out.Series[i], out.Series[j] = out.Series[j], out.Series[i]
	}
	noStore(c)
	return d.page(c, "stats", map[string]any{"Stats": out})
}
