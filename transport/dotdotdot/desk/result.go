package desk

import (
	"encoding/json"

	"arena/games"
)

// resultV1 is the DOTDOTDOT wire form of a round's result, the walk-in next answer's "result":
// seats best first (ranking), the places a game publishes (places), each seat's net result in
// CCD (score), payouts and the house's take in microCCD, the seed and its commitment, the
// transcript hash and the game's reveal object.
type resultV1 struct {
	Ranking        []int           `json:"ranking"`
	Places         map[int]int     `json:"places,omitempty"`
	Score          map[int]float64 `json:"score"`
	Payouts        map[int]int64   `json:"payouts"`
	House          int64           `json:"house"`
	SeedHash       string          `json:"seed_hash"`
	Seed           string          `json:"seed"`
	TranscriptHash string          `json:"transcript_hash"`
	Reveal         json.RawMessage `json:"reveal,omitempty"`
}

// microCCD per CCD.
const ccd = 1_000_000

// resultOf is r in the v1 wire form: ranking and score from r's Standings (a Standing's Score
// is net microCCD; score says CCD), the rest as r has it.
func resultOf(r *games.Result) resultV1 {
	v := resultV1{Places: r.Places, Payouts: r.Payouts, House: r.House, SeedHash: r.SeedHash, Seed: r.Seed,
		TranscriptHash: r.TranscriptHash, Reveal: r.Reveal}
	if len(r.Standings) > 0 {
		v.Ranking, v.Score = r.Ranking(), make(map[int]float64, len(r.Standings))
		for _, s := range r.Standings {
			v.Score[s.Seat] = s.Score / ccd
		}
	}
	return v
}
