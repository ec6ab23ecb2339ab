package storage

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"arena/games"
)

// Agent tables gathering (bucket gathering): DOTDOTDOT's free, rated and badge-gated tables
// filling from registered agents, kept from the first join until the table is opened, so a
// restart keeps every agent in its place and opens a table it had begun to open under the same
// id:
//
//	gathering  <table id>  GatheringTable JSON
//
// The gathering actor (actors/dotdotdot/gathering.go) is the only writer.

// GatheringTable is one table gathering. Table is its id, drawn at the first join; Since is
// when the first agent waiting came (the table tops up with house seats from it); Agents are the
// agents waiting in the order they came (their seats).
type GatheringTable struct {
	Kind   string           `json:"kind"`
	Format string           `json:"format"`
	Seats  int              `json:"seats"` // the table's seat count within the format's (§5.6)
	Table  string           `json:"table"`
	Since  time.Time        `json:"since"`
	Agents []GatheringAgent `json:"agents"`
	// Pace is the table's clock when a join asked for one (a test's quicker clock); zero: the
	// agent clock.
	Pace games.Pace `json:"pace,omitzero"`
}

// GatheringAgent is one registered agent waiting: its Badge, the card's name and endpoint, its
// seat kind, its owner (CAIP-10) and whether its owner holds its levers.
type GatheringAgent struct {
	Agent    string    `json:"agent"`
	Name     string    `json:"name"`
	Endpoint string    `json:"endpoint"`
	Kind     string    `json:"kind"`
	Owner    string    `json:"owner,omitempty"`
	Human    bool      `json:"human,omitempty"`
	Joined   time.Time `json:"joined"`
	// Walkin, for a walk-in waiting at a Free table, is its record key (the SHA-256 of its
	// token, hex; never the token); Agent and Endpoint are then empty (it plays under a lent
	// Badge, on its mailbox).
	Walkin string `json:"walkin,omitempty"`
}

func gatheringKey(table string) (string, error) {
	if table == "" || strings.Contains(table, "/") || len(table) > 256 {
		return "", fmt.Errorf("%w: %q", ErrBadKey, table)
	}
	return table, nil
}

// PutGathering stores t under its table id, replacing what was there: durable when it returns
// nil. Errors: ErrBadKey for an empty table id or one holding '/'.
func (s *Store) PutGathering(t GatheringTable) error {
	k, err := gatheringKey(t.Table)
	if err != nil {
		return fmt.Errorf("storage: put gathering: %w", err)
	}
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	return s.put(BucketGathering, k, b)
}

// DeleteGathering forgets the gathering of table (none: nothing to do).
func (s *Store) DeleteGathering(table string) error {
	k, err := gatheringKey(table)
	if err != nil {
		return fmt.Errorf("storage: delete gathering: %w", err)
	}
	return s.del(BucketGathering, k)
}

// Gatherings is every table gathering, by table id.
func (s *Store) Gatherings() ([]GatheringTable, error) {
	var out []GatheringTable
	err := s.scan(BucketGathering, "", func(k string, v []byte) error {
		var t GatheringTable
		if err := json.Unmarshal(v, &t); err != nil {
			return fmt.Errorf("%w: gathering %s: %v", ErrCorrupt, k, err)
		}
		out = append(out, t)
		return nil
	})
	return out, err
}
