package warden

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"arena/games"
	"arena/games/canon"
	"arena/games/warden/feed"
	"arena/storage"
)

// Match statuses this package moves a match through (§5.1); the doors build OPEN → STAKING →
// LIVE.
const (
	StatusLive     = "LIVE"
	StatusFinished = "FINISHED"
	StatusSettling = "SETTLING"
	StatusFailed   = "FAILED"
)

// ReasonServerRestart is step_extended's reason when a deadline passed while the Warden was
// down (§5.3).
const ReasonServerRestart = "server_restart"

// seatInfo is one seat's Contender as fixed when play began (§12.1: name and temperament at
// match start) and its cleared stake.
type seatInfo struct {
	Contender   string `json:"contender_id"`
	Name        string `json:"name"`
	Temperament string `json:"temperament"`
	StakeRail   string `json:"stake_rail"`
	StakeRef    string `json:"stake_ref"`
}

// extension is one step_extended: after the engine event After (its Seq), at wall instant At,
// the step (Round, Step) re-opened until Deadline (wall).
type extension struct {
	After    int64     `json:"after"`
	At       time.Time `json:"at"`
	Round    int       `json:"round"`
	Step     string    `json:"step"`
	Deadline time.Time `json:"deadline"`
	Reason   string    `json:"reason"`
}

// record is a match's play record (warden_state play/<id>).
type record struct {
	V        int            `json:"v"`
	Match    string         `json:"match"`
	Game     string         `json:"game"`
	Setup    games.Setup    `json:"setup"`
	Seats    [2]seatInfo    `json:"seats"`
	Log      []games.Logged `json:"log"`
	Offset   time.Duration  `json:"offset_ns"` // wall = match clock + Offset
	Extended []extension    `json:"extended,omitempty"`
	// Settlement is fixed when the engine reports its Result (FINISHED).
	Settlement *Settlement `json:"settlement,omitempty"`
	// Fed is how many of Extended are in the Gallery feed; FedEvents how many of the engine's
	// transcript events have been through the feed's Mapper.
	Fed       int `json:"fed,omitempty"`
	FedEvents int `json:"fed_events,omitempty"`
	// Failed says why the match was parked FAILED.
	Failed string `json:"failed,omitempty"`
}

func playKey(id string) string { return "play/" + id }

// SeatFigures are one seat's settlement figures (§2.2), atomic units.
type SeatFigures struct {
	Gross   int64            `json:"gross_return"`
	Rake    int64            `json:"rake"`
	PaidOut int64            `json:"paid_out"`
	Net     int64            `json:"net"`
	Result  string           `json:"result"` // win, draw or loss by net (§2.3)
	Stats   map[string]int64 `json:"stats"`
}

// Settlement is a finished match's figures, fixed once (§2.2) and the Ledger rows they make
// (every member but Seq, PayoutRef, SettledAt, PrevHash and RowHash, which payout fills).
type Settlement struct {
	Seats      [2]SeatFigures       `json:"seats"`
	House      int64                `json:"house"` // H + rake A + rake B
	RakeBps    int64                `json:"rake_bps"`
	Seed       string               `json:"seed"`
	SeedHash   string               `json:"seed_hash"`
	LogHash    string               `json:"log_hash"`
	FinishedAt time.Time            `json:"finished_at"`
	Rows       [2]storage.WardenRow `json:"rows"`
	// PublishMessages says the game publishes its private messages once the match is settled
	// (§15.3 messages_published): Messages, in order, appended by the SETTLED write
	// (MessagesPublished).
	PublishMessages bool           `json:"publish_messages,omitempty"`
	Messages        []feed.Message `json:"messages,omitempty"`
}

// ErrConservation is a Result whose gross returns and house do not add up to the bank (§2.2):
// the match is parked FAILED.
var ErrConservation = errors.New("warden: result breaks conservation")

// Figures applies §2.2 to a two-seat Result of a match with stake S: pre_net = G − S, rake =
// floor(max(0, pre_net) × rakeBps / 10000), paid_out = G − rake, net = paid_out − S, house = H
// + Σ rake, results by net (§2.3). It returns ErrConservation (wrapped) when G_A + G_B + H ≠
// 2S or any of them is negative. Stats are taken from the Result's Reveal member "stats"
// ({"A": {...}, "B": {...}}), the manifest's counters; absent, they are empty.
func Figures(res games.Result, stake, rakeBps int64) ([2]SeatFigures, int64, error) {
	var out [2]SeatFigures
	g := [2]int64{res.Payouts[1], res.Payouts[2]}
	if g[0] < 0 || g[1] < 0 || res.House < 0 || g[0]+g[1]+res.House != 2*stake {
		return out, 0, fmt.Errorf("%w: gross %d + %d and house %d against a bank of %d", ErrConservation, g[0], g[1], res.House, 2*stake)
	}
	stats := statsOf(res.Reveal)
	house := res.House
	for i := range 2 {
		f := &out[i]
		f.Gross = g[i]
		f.Rake = max(0, g[i]-stake) * rakeBps / 10000
		f.PaidOut = g[i] - f.Rake
		f.Net = f.PaidOut - stake
		f.Stats = stats[i]
		house += f.Rake
	}
	for i := range 2 {
		out[i].Result = resultOf(out[i].Net, out[1-i].Net)
	}
	return out, house, nil
}

func resultOf(mine, theirs int64) string {
	switch {
	case mine > theirs:
		return "win"
	case mine < theirs:
		return "loss"
	}
	return "draw"
}

// statsOf reads {"stats": {"A": {name: n}, "B": …}} from a Reveal; non-integer counters are
// dropped.
func statsOf(reveal json.RawMessage) [2]map[string]int64 {
	out := [2]map[string]int64{{}, {}}
	var r struct {
		Stats map[string]map[string]json.Number `json:"stats"`
	}
	if json.Unmarshal(reveal, &r) != nil {
		return out
	}
	for i, seat := range []string{"A", "B"} {
		for k, v := range r.Stats[seat] {
			if n, err := v.Int64(); err == nil {
				out[i][k] = n
			}
		}
	}
	return out
}

// Envelope is one public event of a match as the Gallery carries it (§15.2): seq from 0 per
// match, t the event's instant (match clock), the engine's event type and payload as data.
type Envelope struct {
	V       int             `json:"v"`
	Seq     int64           `json:"seq"`
	T       string          `json:"t"`
	MatchID string          `json:"match_id"`
	Game    string          `json:"game"`
	Type    string          `json:"type"`
	Round   int             `json:"round"`
	Data    json.RawMessage `json:"data"`
}

// publicLog is the match's public log: the engine's public events in transcript order with
// each step_extended after the event it followed, numbered from 0.
func publicLog(rec *record, events []games.Event) []Envelope {
	var out []Envelope
	add := func(at, typ string, round int, data json.RawMessage) {
		out = append(out, Envelope{V: 1, Seq: int64(len(out)), T: at, MatchID: rec.Match, Game: rec.Game,
			Type: typ, Round: round, Data: data})
	}
	ext := 0
	flush := func(after int64) {
		for ext < len(rec.Extended) && rec.Extended[ext].After <= after {
			x := rec.Extended[ext]
			data, _ := canon.Marshal(map[string]any{"round": x.Round, "step": x.Step, "deadline": stamp(x.Deadline), "reason": x.Reason})
			add(stamp(x.At), "step_extended", x.Round, data)
			ext++
		}
	}
	flush(0)
	for _, e := range events {
		if e.Visibility == games.Public {
			add(e.At, e.Type, e.Turn, e.Payload)
		}
		flush(e.Seq)
	}
	return out
}

// LogHash is §15.5's log_hash over the actor's own public log, used when there is no Gallery
// feed (Options.Feed off; with one, the hash is the feed's, feed.LogHash): "sha256:" + hex(SHA-256 of JCS(envelope) ‖ "\n" for every
// envelope before the first match_finished, in seq order).
func LogHash(log []Envelope) string {
	h := sha256.New()
	for _, e := range log {
		if e.Type == "match_finished" {
			break
		}
		b, err := canon.Marshal(e)
		if err != nil {
			continue
		}
		h.Write(b)
		h.Write([]byte("\n"))
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return canon.IDOf(sum)
}

// stamp is RFC 3339 UTC with milliseconds (§0).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// rulesVersion is "<game id>/<manifest version>" (warden.claims/1).
func rulesVersion(m games.Manifest) string { return m.ID + "/" + strconv.Itoa(m.Version) }

// rows are the two Ledger rows of a settlement, seat A then B, with every member but Seq,
// PayoutRef, SettledAt, PrevHash and RowHash.
func rows(rec *record, man games.Manifest, s *Settlement, network string) [2]storage.WardenRow {
	var out [2]storage.WardenRow
	stake := rec.Setup.Seats[0].Entry
	for i := range 2 {
		me, them := rec.Seats[i], rec.Seats[1-i]
		seat := string(rune('A' + i))
		f := s.Seats[i]
		share := s.House / 2
		if i == 0 {
			share = s.House - s.House/2
		}
		out[i] = storage.WardenRow{
			RowID: "wl_" + rec.Match + "_" + seat, MatchID: rec.Match, Game: rec.Game, RulesVersion: rulesVersion(man),
			Seat: seat, ContenderID: me.Contender, Name: me.Name, Temperament: me.Temperament,
			OpponentID: them.Contender, OpponentTemperament: them.Temperament,
			Stake: stake, StakeRail: me.StakeRail, StakeRef: me.StakeRef,
			GrossReturn: f.Gross, Rake: f.Rake, PaidOut: f.PaidOut, Net: f.Net, Result: f.Result,
			HouseShare: share, Stats: f.Stats,
			StartedAt: stamp(rec.Setup.Start), FinishedAt: stamp(s.FinishedAt),
			SeedHash: s.SeedHash, LogHash: s.LogHash, Network: network,
		}
	}
	return out
}
