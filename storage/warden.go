package storage

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"arena/games/canon"
)

// The warden bucket: the Warden's Ledger (warden-games §12), one row per Contender per settled
// match, hash-chained and never edited, with the aggregates Standing (§13) and the
// per-temperament statistics (§14) read, kept in the transaction that appends the rows:
//
//	ledger/<seq: 8 bytes BE>                  one row (JCS of WardenRow), seq from 1 with no gap
//	contender/<contender id>/<seq: 8 bytes>   → seq: the Contender's rows
//	match/<match id>/<seat>                   → seq: the match's rows (its settlement record)
//	head                                      → JCS of WardenHead, the last row
//	agg/<contender id>                        → JCS of the Contender's WardenAggregate
//	tagg/<temperament>                        → JCS of the temperament's WardenAggregate
//	tmember/<temperament>/<contender id>      → seq of the first row that counted the Contender
//
// A row's row_hash is "sha256:" + hex(SHA-256(JCS of the row without row_hash)); its prev_hash
// is the row_hash of row seq − 1 (WardenGenesis for row 1), so anyone holding the head detects a
// rewritten history. The aggregates are a pure fold of the rows (VerifyWarden rebuilds them).

// Standing tiers (warden-games §13.1).
const (
	TierElite      = "ELITE"
	TierSolvent    = "SOLVENT"
	TierUnderwater = "UNDERWATER"
	TierUnproven   = "UNPROVEN"
)

// WardenGenesis is row 1's prev_hash: "sha256:" and 64 zeros.
const WardenGenesis = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

// WardenRow is one Ledger row (warden-games §12.1). Amounts are integer atomic units of the
// stake's currency (USDC micro-units), each within ±(2^53−1); times are RFC 3339. Seq, PrevHash
// and RowHash are the Ledger's: AppendWardenMatch sets them.
type WardenRow struct {
	Seq                 uint64           `json:"seq"`
	RowID               string           `json:"row_id"` // wl_<match_id>_<seat>
	MatchID             string           `json:"match_id"`
	Game                string           `json:"game"`
	RulesVersion        string           `json:"rules_version"`
	Seat                string           `json:"seat"` // A or B
	ContenderID         string           `json:"contender_id"`
	Name                string           `json:"name"`
	Temperament         string           `json:"temperament"` // at match start
	OpponentID          string           `json:"opponent_id"`
	OpponentTemperament string           `json:"opponent_temperament"`
	Stake               int64            `json:"stake"` // S
	StakeRail           string           `json:"stake_rail"`
	StakeRef            string           `json:"stake_ref"`
	GrossReturn         int64            `json:"gross_return"` // G, from the engine
	Rake                int64            `json:"rake"`         // §2.2: only on winnings
	PaidOut             int64            `json:"paid_out"`     // G − rake, what was transferred
	PayoutRef           *string          `json:"payout_ref"`   // nil exactly when PaidOut is 0
	Net                 int64            `json:"net"`          // PaidOut − Stake
	Result              string           `json:"result"`       // win, draw or loss by net (§2.3)
	HouseShare          int64            `json:"house_share"`  // this row's half of the match's house total, the odd unit to A
	Stats               map[string]int64 `json:"stats"`        // the game manifest's counters (§14.2)
	ReadsSpent          int64            `json:"reads_spent"`  // metered reads paid for this match; not in Net
	StartedAt           string           `json:"started_at"`
	FinishedAt          string           `json:"finished_at"`
	SettledAt           string           `json:"settled_at"`
	SeedHash            string           `json:"seed_hash"`
	LogHash             string           `json:"log_hash"`
	Network             string           `json:"network"` // CAIP-2, "dev" locally
	PrevHash            string           `json:"prev_hash"`
	RowHash             string           `json:"row_hash,omitempty"`
}

// WardenHead is the Ledger's last row: its seq and row_hash (0 and WardenGenesis when empty).
// It is published in every match_settled event.
type WardenHead struct {
	Seq     uint64 `json:"seq"`
	RowHash string `json:"row_hash"`
}

// WardenTotals are sums over a set of Ledger rows (§13.3), in atomic units; Stats sums the
// game counters.
type WardenTotals struct {
	Matches         int64            `json:"matches"`
	Wins            int64            `json:"wins"`
	Draws           int64            `json:"draws"`
	Losses          int64            `json:"losses"`
	NetTotal        int64            `json:"net_total"`
	StakedTotal     int64            `json:"staked_total"`
	PaidOutTotal    int64            `json:"paid_out_total"`
	RakeTotal       int64            `json:"rake_total"`
	ReadsSpentTotal int64            `json:"reads_spent_total"`
	Stats           map[string]int64 `json:"stats"`
}

// WardenRecord is a head-to-head record (§14.1 vs).
type WardenRecord struct {
	Matches int64 `json:"matches"`
	Wins    int64 `json:"wins"`
	Draws   int64 `json:"draws"`
	Losses  int64 `json:"losses"`
}

// WardenAggregate is the fold of a Contender's rows (agg) or of a temperament's rows (tagg)
// through row ThroughSeq: the totals, the same per game, and for a temperament only the
// number of distinct Contenders and the record against each opponent temperament.
type WardenAggregate struct {
	ThroughSeq uint64 `json:"through_seq"`
	WardenTotals
	PerGame    map[string]WardenTotals `json:"per_game"`
	Contenders int64                   `json:"contenders,omitempty"`
	Vs         map[string]WardenRecord `json:"vs,omitempty"`
}

// Tier is the Standing tier of a Contender's aggregate (§13.1), first match wins: UNPROVEN
// with no settled match; ELITE with wins × 100 ≥ 60 × matches, net_total > 0 and at least
// eliteMin matches (below 1 counts as 1); SOLVENT with net_total ≥ 0; else UNDERWATER.
func (a WardenAggregate) Tier(eliteMin int64) string { return a.TierAt(60, eliteMin) }

func (t *WardenTotals) add(r *WardenRow) {
	t.Matches++
	switch r.Result {
	case "win":
		t.Wins++
	case "draw":
		t.Draws++
	default:
		t.Losses++
	}
	t.NetTotal += r.Net
	t.StakedTotal += r.Stake
	t.PaidOutTotal += r.PaidOut
	t.RakeTotal += r.Rake
	t.ReadsSpentTotal += r.ReadsSpent
	if t.Stats == nil {
		t.Stats = map[string]int64{}
	}
	for k, v := range r.Stats {
		t.Stats[k] += v
	}
}

func (a *WardenAggregate) add(r *WardenRow) {
	a.ThroughSeq = r.Seq
	a.WardenTotals.add(r)
	if a.PerGame == nil {
		a.PerGame = map[string]WardenTotals{}
	}
	g := a.PerGame[r.Game]
	g.add(r)
	a.PerGame[r.Game] = g
}

// addTemperament folds r into its temperament's aggregate; first says r is the first row of
// its Contender under that temperament.
func (a *WardenAggregate) addTemperament(r *WardenRow, first bool) {
	a.add(r)
	if first {
		a.Contenders++
	}
	if a.Vs == nil {
		a.Vs = map[string]WardenRecord{}
	}
	a.Vs[r.OpponentTemperament] = a.Vs[r.OpponentTemperament].add(r.Result)
}

// CheckWardenMatch is the Ledger's money invariant for the rows of one settled match (warden-
// games §2, §12.1), for every test that moves Warden money and for AppendWardenMatch: exactly
// seats A then B of one match, game, stake, times, hashes and network; each seat's contender
// and temperament the other's opponent ones; per row 0 ≤ rake ≤ max(0, G − S), paid_out = G −
// rake, net = paid_out − S, payout_ref set exactly when paid_out > 0, result by net against the
// other row; and the bank balances: Σ paid_out + Σ house_share = 2S, with the house total
// split so A's share is the larger by at most the odd unit. The error wraps ErrInvalid.
// Seq, PrevHash and RowHash are not checked (VerifyWarden checks the chain).
func CheckWardenMatch(rows []WardenRow) error {
	if len(rows) != 2 {
		return fmt.Errorf("%w: %d rows, want seats A and B", ErrInvalid, len(rows))
	}
	a, b := &rows[0], &rows[1]
	for i, r := range []*WardenRow{a, b} {
		seat := "AB"[i : i+1]
		if err := checkWardenRow(r, seat); err != nil {
			return fmt.Errorf("%w: row %s of %s: %v", ErrInvalid, seat, r.MatchID, err)
		}
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: match %s: "+format, append([]any{ErrInvalid, a.MatchID}, args...)...)
	}
	switch {
	case a.MatchID != b.MatchID || a.Game != b.Game || a.RulesVersion != b.RulesVersion:
		return bad("the rows name other matches or games")
	case a.Stake != b.Stake:
		return bad("stakes %d and %d differ", a.Stake, b.Stake)
	case a.StartedAt != b.StartedAt || a.FinishedAt != b.FinishedAt || a.SettledAt != b.SettledAt:
		return bad("the rows' times differ")
	case a.SeedHash != b.SeedHash || a.LogHash != b.LogHash || a.Network != b.Network:
		return bad("the rows' hashes or network differ")
	case a.ContenderID == b.ContenderID || a.OpponentID != b.ContenderID || b.OpponentID != a.ContenderID:
		return bad("contenders %s and %s are not each other's opponent", a.ContenderID, b.ContenderID)
	case a.OpponentTemperament != b.Temperament || b.OpponentTemperament != a.Temperament:
		return bad("temperaments %s and %s are not each other's opponent's", a.Temperament, b.Temperament)
	case a.Result != result(a.Net, b.Net) || b.Result != result(b.Net, a.Net):
		return bad("results %s and %s for nets %d and %d", a.Result, b.Result, a.Net, b.Net)
	}
	bank := 2 * a.Stake
	house := bank - a.PaidOut - b.PaidOut
	switch {
	case house < 0:
		return bad("paid out %d + %d, more than the bank %d", a.PaidOut, b.PaidOut, bank)
	case a.HouseShare != house-house/2 || b.HouseShare != house/2:
		return bad("house shares %d and %d, want %d and %d of the house's %d", a.HouseShare, b.HouseShare, house-house/2, house/2, house)
	}
	return nil
}

// maxWardenAmount bounds every amount: JCS carries integers within 2^53−1 exactly.
const maxWardenAmount = 1<<53 - 1

func checkWardenRow(r *WardenRow, seat string) error {
	for _, id := range []struct{ what, v string }{{"match_id", r.MatchID}, {"contender_id", r.ContenderID},
		{"opponent_id", r.OpponentID}, {"temperament", r.Temperament}, {"opponent_temperament", r.OpponentTemperament}} {
		if checkID(id.v) != nil {
			return fmt.Errorf("%s %q: empty or holds '/'", id.what, id.v)
		}
	}
	for _, s := range []struct{ what, v string }{{"game", r.Game}, {"rules_version", r.RulesVersion}, {"network", r.Network}} {
		if s.v == "" {
			return fmt.Errorf("%s is empty", s.what)
		}
	}
	for _, ts := range []string{r.StartedAt, r.FinishedAt, r.SettledAt} {
		if _, err := time.Parse(time.RFC3339Nano, ts); err != nil {
			return fmt.Errorf("time %q: %v", ts, err)
		}
	}
	for _, h := range []string{r.SeedHash, r.LogHash} {
		if !isIDHash(h) {
			return fmt.Errorf("hash %q is not sha256:<64 hex>", h)
		}
	}
	win := max(0, r.GrossReturn-r.Stake)
	switch {
	case r.Seat != seat:
		return fmt.Errorf("seat %q where %s was due", r.Seat, seat)
	case r.RowID != "wl_"+r.MatchID+"_"+seat:
		return fmt.Errorf("row_id %q", r.RowID)
	case r.Stake <= 0 || r.Stake > maxWardenAmount/2:
		return fmt.Errorf("stake %d", r.Stake)
	case r.GrossReturn < 0 || r.GrossReturn > 2*r.Stake:
		return fmt.Errorf("gross return %d outside 0..2S", r.GrossReturn)
	case r.Rake < 0 || r.Rake > win:
		return fmt.Errorf("rake %d outside 0..%d (rake is only on winnings)", r.Rake, win)
	case r.PaidOut != r.GrossReturn-r.Rake:
		return fmt.Errorf("paid out %d, want G %d − rake %d", r.PaidOut, r.GrossReturn, r.Rake)
	case r.Net != r.PaidOut-r.Stake:
		return fmt.Errorf("net %d, want paid out %d − stake %d", r.Net, r.PaidOut, r.Stake)
	case (r.PayoutRef != nil) != (r.PaidOut > 0) || r.PayoutRef != nil && *r.PayoutRef == "":
		return fmt.Errorf("payout_ref %v for paid out %d", r.PayoutRef, r.PaidOut)
	case r.ReadsSpent < 0 || r.ReadsSpent > maxWardenAmount:
		return fmt.Errorf("reads spent %d", r.ReadsSpent)
	}
	for k, v := range r.Stats {
		if k == "" || v < 0 || v > maxWardenAmount {
			return fmt.Errorf("stat %q = %d", k, v)
		}
	}
	return nil
}

// result is win, loss or draw of net mine against theirs (§2.3).
func result(mine, theirs int64) string {
	return [3]string{"loss", "draw", "win"}[cmp.Compare(mine, theirs)+1]
}

func isIDHash(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	return ok && isHexHash(h)
}

// wardenRowHash is "sha256:" + hex(SHA-256(JCS of r without row_hash)).
func wardenRowHash(r WardenRow) (string, error) {
	r.RowHash = ""
	b, err := canon.Marshal(r)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Keys of the warden bucket.
func wardenRowKey(seq uint64) []byte { return append([]byte("ledger/"), u64(seq)...) }
func wardenContenderKey(id string, seq uint64) []byte {
	return append([]byte("contender/"+id+"/"), u64(seq)...)
}
func wardenMatchKey(match, seat string) []byte { return []byte("match/" + match + "/" + seat) }
func wardenAggKey(id string) []byte            { return []byte("agg/" + id) }
func wardenTaggKey(temperament string) []byte  { return []byte("tagg/" + temperament) }
func wardenMemberKey(temperament, id string) []byte {
	return []byte("tmember/" + temperament + "/" + id)
}

var wardenHeadKey = []byte("head")

// AppendWardenMatch appends the rows of one settled match, seat A then seat B, in one
// transaction (group-committed with other writers) with the Contenders' and temperaments'
// aggregates and the indexes, and returns the rows as written (Seq, PrevHash, RowHash set; a
// nil Stats as {}) once they are durable: all of it or nothing. The caller fills every other
// member. Errors: ErrInvalid (wrapped) when the rows break CheckWardenMatch or do not encode;
// ErrExists when the match already has rows (a match settles once); a bbolt error. Nothing is
// written on error.
func (s *Store) AppendWardenMatch(rows []WardenRow) ([]WardenRow, error) {
	if err := CheckWardenMatch(rows); err != nil {
		return nil, fmt.Errorf("storage: append warden match: %w", err)
	}
	var out []WardenRow
	err := s.write(func(tx *bolt.Tx) error {
		var err error
		out, err = appendWardenMatch(tx, rows) // the committer may run this more than once
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: append warden match %s: %w", rows[0].MatchID, err)
	}
	return out, nil
}

// appendWardenMatch appends rows (checked by the caller) in tx and returns them as written.
func appendWardenMatch(tx *bolt.Tx, rows []WardenRow) ([]WardenRow, error) {
	var out []WardenRow
	b := tx.Bucket([]byte(BucketWarden))
	if b.Get(wardenMatchKey(rows[0].MatchID, "A")) != nil || b.Get(wardenMatchKey(rows[0].MatchID, "B")) != nil {
		return nil, fmt.Errorf("match %s is settled: %w", rows[0].MatchID, ErrExists)
	}
	head, err := wardenHead(b)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		r.Seq, r.PrevHash, r.RowHash = head.Seq+1, head.RowHash, ""
		if r.Stats == nil {
			r.Stats = map[string]int64{}
		}
		if r.RowHash, err = wardenRowHash(r); err != nil {
			return nil, fmt.Errorf("row %s: %w: %v", r.RowID, ErrInvalid, err)
		}
		enc, err := canon.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("row %s: %w: %v", r.RowID, ErrInvalid, err)
		}
		if err := putWardenRow(b, &r, enc); err != nil {
			return nil, err
		}
		head = WardenHead{Seq: r.Seq, RowHash: r.RowHash}
		out = append(out, r)
	}
	enc, err := canon.Marshal(head)
	if err != nil {
		return nil, err
	}
	return out, b.Put(wardenHeadKey, enc)
}

// putWardenRow writes row r (enc, its JCS) with its indexes and folds it into the aggregates.
func putWardenRow(b *bolt.Bucket, r *WardenRow, enc []byte) error {
	seq := u64(r.Seq)
	for _, kv := range [][2][]byte{
		{wardenRowKey(r.Seq), enc},
		{wardenContenderKey(r.ContenderID, r.Seq), seq},
		{wardenMatchKey(r.MatchID, r.Seat), seq},
	} {
		if err := b.Put(kv[0], kv[1]); err != nil {
			return err
		}
	}
	fold := func(key []byte, temperament bool) error {
		var a WardenAggregate
		if v := b.Get(key); v != nil {
			if err := canon.Decode(v, &a); err != nil {
				return fmt.Errorf("aggregate %s: %w: %v", key, ErrCorrupt, err)
			}
		}
		if !temperament {
			a.add(r)
		} else {
			member := wardenMemberKey(r.Temperament, r.ContenderID)
			first := b.Get(member) == nil
			if first {
				if err := b.Put(member, seq); err != nil {
					return err
				}
			}
			a.addTemperament(r, first)
		}
		v, err := canon.Marshal(a)
		if err != nil {
			return fmt.Errorf("aggregate %s: %w: %v", key, ErrInvalid, err)
		}
		return b.Put(key, v)
	}
	if err := fold(wardenAggKey(r.ContenderID), false); err != nil {
		return err
	}
	return fold(wardenTaggKey(r.Temperament), true)
}

func (w WardenRecord) add(result string) WardenRecord {
	w.Matches++
	switch result {
	case "win":
		w.Wins++
	case "draw":
		w.Draws++
	default:
		w.Losses++
	}
	return w
}

func wardenHead(b *bolt.Bucket) (WardenHead, error) {
	v := b.Get(wardenHeadKey)
	if v == nil {
		return WardenHead{RowHash: WardenGenesis}, nil
	}
	var h WardenHead
	if err := canon.Decode(v, &h); err != nil {
		return WardenHead{}, fmt.Errorf("warden head: %w: %v", ErrCorrupt, err)
	}
	return h, nil
}

// WardenHead is the Ledger's head: its last row's seq and row_hash (0 and WardenGenesis for an
// empty Ledger).
func (s *Store) WardenHead() (WardenHead, error) {
	var h WardenHead
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		h, err = wardenHead(tx.Bucket([]byte(BucketWarden)))
		return err
	})
	if err != nil {
		return WardenHead{}, fmt.Errorf("storage: warden head: %w", err)
	}
	return h, nil
}

// WardenRows calls fn for every row with a seq of at least from, in order, until fn returns an
// error, which WardenRows returns wrapped. A row that does not decode is ErrCorrupt.
func (s *Store) WardenRows(from uint64, fn func(WardenRow) error) error {
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(BucketWarden)).Cursor()
		prefix := []byte("ledger/")
		for k, v := c.Seek(wardenRowKey(max(from, 1))); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var r WardenRow
			if err := canon.Decode(v, &r); err != nil {
				return fmt.Errorf("row %x: %w: %v", k[len(prefix):], ErrCorrupt, err)
			}
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: warden rows from %d: %w", from, err)
	}
	return nil
}

// WardenMatch is the rows of a settled match, seat A then B; ErrNotFound when the match has
// none (it has not settled).
func (s *Store) WardenMatch(match string) ([]WardenRow, error) {
	var rows []WardenRow
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketWarden))
		for _, seat := range []string{"A", "B"} {
			seq := b.Get(wardenMatchKey(match, seat))
			if seq == nil {
				return ErrNotFound
			}
			var r WardenRow
			if err := canon.Decode(b.Get(wardenRowKey(bytesU64(seq))), &r); err != nil {
				return fmt.Errorf("row %d: %w: %v", bytesU64(seq), ErrCorrupt, err)
			}
			rows = append(rows, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: warden match %s: %w", match, err)
	}
	return rows, nil
}

// WardenAggregate is a Contender's aggregate (its Standing's sums, §13.3), or a temperament's
// with temperament true (§14); the zero aggregate (UNPROVEN) when it has no row.
func (s *Store) WardenAggregate(id string, temperament bool) (WardenAggregate, error) {
	key := wardenAggKey(id)
	if temperament {
		key = wardenTaggKey(id)
	}
	var a WardenAggregate
	err := s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket([]byte(BucketWarden)).Get(key); v != nil {
			if err := canon.Decode(v, &a); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
		}
		return nil
	})
	if err != nil {
		return WardenAggregate{}, fmt.Errorf("storage: warden aggregate %s: %w", key, err)
	}
	return a, nil
}

// VerifyWarden rebuilds the whole Ledger from row 1 (§13.3, at start-up and on an operator's
// verify): every row decodes, its seq runs from 1 with no gap, its prev_hash is the previous
// row_hash and its row_hash its own; rows come in matches that pass CheckWardenMatch; and the
// indexes, the head and every aggregate hold exactly what the rows give, no key more. It
// returns the head, or an error wrapping ErrCorrupt that names the first difference.
func (s *Store) VerifyWarden() (WardenHead, error) {
	var h WardenHead
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		h, err = verifyWarden(tx.Bucket([]byte(BucketWarden)))
		return err
	})
	if err != nil {
		return WardenHead{}, fmt.Errorf("storage: verify warden ledger: %w", err)
	}
	return h, nil
}

func verifyWarden(b *bolt.Bucket) (WardenHead, error) {
	if b == nil {
		return WardenHead{RowHash: WardenGenesis}, nil
	}
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
	}
	// want is every key besides the rows that the rows imply, with its value.
	want := map[string][]byte{}
	head := WardenHead{RowHash: WardenGenesis}
	aggs := map[string]*WardenAggregate{}
	var pending []WardenRow
	c := b.Cursor()
	prefix := []byte("ledger/")
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var r WardenRow
		if err := canon.Decode(v, &r); err != nil {
			return head, corrupt("row %x does not decode: %v", k[len(prefix):], err)
		}
		switch {
		case len(k) != len(prefix)+8 || bytesU64(k[len(prefix):]) != head.Seq+1 || r.Seq != head.Seq+1:
			return head, corrupt("row %d under key %x where %d was due", r.Seq, k[len(prefix):], head.Seq+1)
		case r.PrevHash != head.RowHash:
			return head, corrupt("row %d: prev_hash %s, the chain has %s", r.Seq, r.PrevHash, head.RowHash)
		}
		hash, err := wardenRowHash(r)
		if err != nil || hash != r.RowHash {
			return head, corrupt("row %d: row_hash %s, its bytes hash to %s", r.Seq, r.RowHash, hash)
		}
		if enc, err := canon.Marshal(r); err != nil || !bytes.Equal(enc, v) {
			return head, corrupt("row %d is not stored as its canonical bytes", r.Seq)
		}
		head = WardenHead{Seq: r.Seq, RowHash: r.RowHash}
		want[string(wardenContenderKey(r.ContenderID, r.Seq))] = u64(r.Seq)
		want[string(wardenMatchKey(r.MatchID, r.Seat))] = u64(r.Seq)
		agg := func(key []byte) *WardenAggregate {
			if aggs[string(key)] == nil {
				aggs[string(key)] = &WardenAggregate{}
			}
			return aggs[string(key)]
		}
		agg(wardenAggKey(r.ContenderID)).add(&r)
		member := string(wardenMemberKey(r.Temperament, r.ContenderID))
		_, counted := want[member]
		if !counted {
			want[member] = u64(r.Seq)
		}
		agg(wardenTaggKey(r.Temperament)).addTemperament(&r, !counted)
		if pending = append(pending, r); len(pending) == 2 {
			if err := CheckWardenMatch(pending); err != nil {
				return head, corrupt("rows %d and %d: %v", pending[0].Seq, r.Seq, err)
			}
			pending = nil
		}
	}
	if len(pending) != 0 {
		return head, corrupt("row %d is half a match", pending[0].Seq)
	}
	for key, a := range aggs {
		v, err := canon.Marshal(a)
		if err != nil {
			return head, corrupt("aggregate %s: %v", key, err)
		}
		want[key] = v
	}
	if head.Seq > 0 {
		v, _ := canon.Marshal(head)
		want[string(wardenHeadKey)] = v
	}
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if bytes.HasPrefix(k, prefix) {
			continue
		}
		w, ok := want[string(k)]
		switch {
		case !ok:
			return head, corrupt("key %q is no row's", k)
		case !bytes.Equal(w, v):
			return head, corrupt("key %q holds %s, the rows give %s", k, v, w)
		}
		delete(want, string(k))
	}
	for k := range want {
		return head, corrupt("key %q is missing", k)
	}
	return head, nil
}
