package dotdotdot

import (
	"sort"
	"strconv"
	"time"

	"arena/games"
)

// The walk-in record (§4.4 "GET /v1/walkin/me"), kept in storage under walkins/<sha256(token)
// hex> as JSON. Money is microCCD against the notional Practice entry (walkinEntry); nothing is
// ever charged.

const (
	// walkinEntry is the notional entry of every walk-in seat: 200 CCD (§4.4), in microCCD.
	walkinEntry int64 = 200_000_000
	// walkinCollateral is the seat's collateral: 60% of the entry, inside the §14 band (40–80%).
	walkinCollateral int64 = walkinEntry * 60 / 100
	// walkinLastRounds is how many rounds the record keeps (§4.4 "the last 200 rounds").
	walkinLastRounds = 200
	// walkinPageRounds is how many of them the public page shows.
	walkinPageRounds = 20
)

// walkinRecord is one token's record. Live is the seat the token holds now (nil between rounds).
type walkinRecord struct {
	Name             string               `json:"name"`
	Model            string               `json:"model,omitempty"`
	Created          time.Time            `json:"created"`
	Practice         int                  `json:"practice"`          // finished Practice rounds
	Rounds           int                  `json:"rounds"`            // finished rounds, any table
	Net              int64                `json:"net"`               // Σ (payout − entry), microCCD
	WouldHavePaid    int64                `json:"would_have_paid"`   // Σ (entry + table fee), microCCD
	MoleRounds       int                  `json:"mole_rounds"`       // rounds played as the mole
	Rungs            int                  `json:"rungs"`             // rungs reached as the mole, all rounds
	Accusations      int                  `json:"accusations"`       // rounds with an accusation standing at settlement
	AccusationsRight int                  `json:"accusations_right"` // of those, on the mole
	VsHouse          map[string]*walkinVs `json:"vs_house"`          // by house agent name
	Marks            []string             `json:"marks"`
	Last             []walkinRoundLine    `json:"last"` // newest first, at most walkinLastRounds
	Live             *walkinLive          `json:"live,omitempty"`
}

// walkinVs is the record against one named house agent: rounds at the same table, and how many
// the walk-in finished with the larger payout, the smaller, or the same.
type walkinVs struct {
	Rounds int `json:"rounds"`
	Ahead  int `json:"ahead"`
	Behind int `json:"behind"`
	Even   int `json:"even"`
}

// walkinRoundLine is one finished round in the record.
type walkinRoundLine struct {
	Round    string    `json:"round"`
	Table    string    `json:"table"`
	Kind     string    `json:"kind"` // "practice" | "solo" | "walkin" | "hosted"
	Format   string    `json:"format"`
	Seat     int       `json:"seat"`
	Role     string    `json:"role"` // "mole" | "player"
	Rank     int       `json:"rank"` // 1 = best payout at the table
	Payout   int64     `json:"payout"`
	Net      int64     `json:"net"`             // payout − entry
	Rungs    int       `json:"rungs,omitempty"` // as the mole
	Accused  int       `json:"accused,omitempty"`
	Right    bool      `json:"right,omitempty"` // the accusation stood on the mole
	Mole     int       `json:"mole,omitempty"`  // the mole's seat (revealed)
	Ended    time.Time `json:"ended"`
	Pace     string    `json:"pace"`
	SeatsAll int       `json:"seats"`
}

// walkinLive is the seat a walk-in holds in a live round.
type walkinLive struct {
	Table   string         `json:"table"`
	Round   string         `json:"round"`
	Seat    int            `json:"seat"`
	Kind    string         `json:"kind"`
	Game    string         `json:"game"`
	Format  string         `json:"format"`
	Pace    string         `json:"pace"`
	Mailbox string         `json:"mailbox"` // the mailbox actor's PID id
	Entry   int64          `json:"entry"`
	Seats   int            `json:"seats"`
	House   map[int]string `json:"house,omitempty"` // house seats' names, by seat
	Joined  time.Time      `json:"joined"`
}

// walkinMarks are earned once and kept (§4.4 "marks"; the spec names none, docs/protocol-notes.md).
const (
	markPractised = "practised"    // three Practice rounds: the walkin table is open
	markFullRung  = "three_rungs"  // all three rungs in one round as the mole
	markCaught    = "caught_mole"  // an accusation that stood on the mole
	markUnseen    = "unseen_mole"  // the mole, and no accusation stood on it
	markTopTable  = "top_of_table" // the best payout at a table
)

// apply records one finished round of the live seat and clears Live. It returns the round's
// line (for the board). A Result that does not name the seat counts as a payout of zero. stats
// are the game's figures per seat (games.Statser; Blitz: mole_seat, mole, rungs, accused,
// accused_right, accused_by, accusations); a figure absent is zero, and a game without them is
// recorded on payouts alone. tableFee is the §14 table fee a human seat pays (Arena.fees): with
// the entry it is what a walk-in "would have paid" for the round. A walk-in thinks on its own
// model: no inference fee.
func (rec *walkinRecord) apply(live *walkinLive, res games.Result, stats map[int]map[string]float64, ended time.Time, tableFee int64) walkinRoundLine {
	seat := live.Seat
	payout := res.Payouts[seat]
	line := walkinRoundLine{
		Round: live.Round, Table: live.Table, Kind: live.Kind, Format: live.Format, Seat: seat,
		Role: "player", Payout: payout, Net: payout - live.Entry, Ended: ended.UTC(), Pace: live.Pace,
		SeatsAll: live.Seats, Rank: rankOf(res, seat),
	}
	my := stats[seat] // nil reads as zeros
	line.Mole = int(my["mole_seat"])
	line.Accused = int(my["accused"])
	line.Right = my["accused_right"] == 1
	accusedMe := int(my["accused_by"])
	if my["mole"] == 1 {
		line.Role = "mole"
		line.Rungs = int(my["rungs"])
	}

	rec.Rounds++
	if live.Kind == "practice" {
		rec.Practice++
	}
	rec.Net += line.Net
	rec.WouldHavePaid += live.Entry + tableFee
	if line.Role == "mole" {
		rec.MoleRounds++
		rec.Rungs += line.Rungs
	}
	if line.Accused != 0 {
		rec.Accusations++
		if line.Right {
			rec.AccusationsRight++
		}
	}
	if rec.VsHouse == nil {
		rec.VsHouse = map[string]*walkinVs{}
	}
	for s, name := range live.House {
		vs := rec.VsHouse[name]
		if vs == nil {
			vs = &walkinVs{}
			rec.VsHouse[name] = vs
		}
		vs.Rounds++
		switch other := res.Payouts[s]; {
		case payout > other:
			vs.Ahead++
		case payout < other:
			vs.Behind++
		default:
			vs.Even++
		}
	}
	if rec.Practice >= PracticeRoundsForWalkin {
		rec.mark(markPractised)
	}
	if line.Role == "mole" && line.Rungs >= 3 {
		rec.mark(markFullRung)
	}
	if line.Role == "mole" && accusedMe == 0 && my["accusations"] > 0 {
		rec.mark(markUnseen)
	}
	if line.Right {
		rec.mark(markCaught)
	}
	if line.Rank == 1 {
		rec.mark(markTopTable)
	}
	rec.Last = append([]walkinRoundLine{line}, rec.Last...)
	if len(rec.Last) > walkinLastRounds {
		rec.Last = rec.Last[:walkinLastRounds]
	}
	rec.Live = nil
	return line
}

func (rec *walkinRecord) mark(m string) {
	for _, have := range rec.Marks {
		if have == m {
			return
		}
	}
	rec.Marks = append(rec.Marks, m)
}

// rankOf is the seat's place by payout (1 = best; ties share the better place).
func rankOf(res games.Result, seat int) int {
	mine, ok := res.Payouts[seat]
	if !ok {
		return 0
	}
	rank := 1
	for s, p := range res.Payouts {
		if s != seat && p > mine {
			rank++
		}
	}
	return rank
}

// walkinView is the JSON of GET /v1/walkin/me (public=false) and of the public page by name
// (public=true: no live seat's table, the last walkinPageRounds rounds).
type walkinView struct {
	Name             string            `json:"name"`
	Model            string            `json:"model,omitempty"`
	Since            time.Time         `json:"since"`
	Practice         int               `json:"practice"`
	PracticeNeeded   int               `json:"practice_needed"` // for the walkin table
	WalkinTable      bool              `json:"walkin_table"`    // the walkin table is open to it
	Rounds           int               `json:"rounds"`
	Entry            int64             `json:"entry"` // the notional entry, microCCD
	Net              int64             `json:"net"`
	WouldHavePaid    int64             `json:"would_have_paid"`
	MoleRounds       int               `json:"mole_rounds"`
	Rungs            int               `json:"rungs"`
	Accusations      int               `json:"accusations"`
	AccusationsRight int               `json:"accusations_right"`
	VsHouse          []walkinVsLine    `json:"vs_house"`
	Marks            []string          `json:"marks"`
	Live             *walkinLiveView   `json:"live,omitempty"`
	Last             []walkinRoundLine `json:"last"`
}

type walkinVsLine struct {
	Name string `json:"name"`
	walkinVs
}

type walkinLiveView struct {
	Round  string `json:"round"`
	Table  string `json:"table,omitempty"`
	Seat   int    `json:"seat"`
	Kind   string `json:"kind"`
	Format string `json:"format"`
	Pace   string `json:"pace"`
}

// view renders the record for its owner or for the public page.
func (rec *walkinRecord) view(public bool) walkinView {
	v := walkinView{
		Name: rec.Name, Model: rec.Model, Since: rec.Created.UTC(), Practice: rec.Practice,
		PracticeNeeded: PracticeRoundsForWalkin, WalkinTable: rec.Practice >= PracticeRoundsForWalkin,
		Rounds: rec.Rounds, Entry: walkinEntry, Net: rec.Net, WouldHavePaid: rec.WouldHavePaid,
		MoleRounds: rec.MoleRounds, Rungs: rec.Rungs, Accusations: rec.Accusations,
		AccusationsRight: rec.AccusationsRight, Marks: rec.Marks, Last: rec.Last,
		VsHouse: []walkinVsLine{},
	}
	if v.Marks == nil {
		v.Marks = []string{}
	}
	if v.Last == nil {
		v.Last = []walkinRoundLine{}
	}
	for name, vs := range rec.VsHouse {
		v.VsHouse = append(v.VsHouse, walkinVsLine{Name: name, walkinVs: *vs})
	}
	sort.Slice(v.VsHouse, func(i, j int) bool { return v.VsHouse[i].Name < v.VsHouse[j].Name })
	if l := rec.Live; l != nil {
		v.Live = &walkinLiveView{Round: l.Round, Table: l.Table, Seat: l.Seat, Kind: l.Kind, Format: l.Format, Pace: l.Pace}
		if public {
			v.Live.Table = ""
		}
	}
	if public && len(v.Last) > walkinPageRounds {
		v.Last = v.Last[:walkinPageRounds]
	}
	return v
}

// isoWeek names the ISO week of t in UTC, "2026-W48": the board's key.
func isoWeek(t time.Time) string {
	y, w := t.UTC().ISOWeek()
	ws := strconv.Itoa(w)
	if w < 10 {
		ws = "0" + ws
	}
	return strconv.Itoa(y) + "-W" + ws
}
