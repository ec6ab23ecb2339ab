package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Hosted tables (bucket hosted), DOTDOTDOT's tables hosted under a code (§4.5), kept from the
// moment the code is drawn until its two-hour hold after the start has passed, so a restart
// keeps every table gathering and never draws a held code again:
//
//	hosted  <code>   HostedTable JSON
//
// The desk actor (actors/dotdotdot/hosted_desk.go) is the only writer.

// Hosted table statuses as stored (HostedTable.Status).
const (
	HostedGathering = "gathering"
	HostedStarting  = "starting" // its table (HostedTable.Table) is being opened
	HostedStarted   = "started"
)

// HostedTable is one hosted table as stored. Members are the walk-ins at it in seat order (the
// host first). Table is the table id, set from starting on; Round once started.
type HostedTable struct {
	Code     string         `json:"code"`
	Format   string         `json:"format"`
	Seats    int            `json:"seats"`
	Status   string         `json:"status"`
	Members  []HostedMember `json:"members"`
	Created  time.Time      `json:"created"`
	StartsBy time.Time      `json:"starts_by"`
	Started  time.Time      `json:"started,omitzero"`
	Table    string         `json:"table,omitempty"`
	Round    string         `json:"round,omitempty"`
}

// HostedMember is one walk-in at a hosted table: its record key (sha256 of its token, hex) and
// display name.
type HostedMember struct {
	Hash string `json:"hash"`
	Name string `json:"name"`
}

// maxHostedCode bounds a code's length (DOTDOTDOT's are 4 characters).
const maxHostedCode = 16

// PutHosted stores t under its code (one transaction, coalesced with concurrent writers): it is
// durable when PutHosted returns nil. ErrBadKey for a code that is empty, longer than 16 bytes
// or not upper-case letters and digits.
func (s *Store) PutHosted(t HostedTable) error {
	if err := checkHostedCode(t.Code); err != nil {
		return fmt.Errorf("storage: put hosted table %q: %w", t.Code, err)
	}
	b, err := json.Marshal(&t)
	if err != nil {
		return fmt.Errorf("storage: put hosted table %s: %w", t.Code, err)
	}
	return s.put(BucketHosted, t.Code, b)
}

// DeleteHosted removes the table with code (its code is free again); an absent code is not an
// error.
func (s *Store) DeleteHosted(code string) error {
	if err := checkHostedCode(code); err != nil {
		return fmt.Errorf("storage: delete hosted table %q: %w", code, err)
	}
	return s.del(BucketHosted, code)
}

// HostedTables returns every stored hosted table, in code order.
func (s *Store) HostedTables() ([]HostedTable, error) {
	var out []HostedTable
	err := s.scan(BucketHosted, "", func(k string, v []byte) error {
		var t HostedTable
		if err := json.Unmarshal(v, &t); err != nil {
			return fmt.Errorf("hosted table %s: %w", k, err)
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

func checkHostedCode(code string) error {
	if code == "" || len(code) > maxHostedCode {
		return ErrBadKey
	}
	for i := 0; i < len(code); i++ {
		if c := code[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ErrBadKey
		}
	}
	return nil
}

// checkHosted is Check's reading of one hosted table: its key is its code, its status is known,
// its members are record keys, and a starting or started table names its table (a started one
// its round and start too).
func checkHosted(k, v []byte, _ *bolt.Bucket) error {
	if checkHostedCode(string(k)) != nil {
		return errors.New("key is not a table code")
	}
	var t HostedTable
	if err := json.Unmarshal(v, &t); err != nil {
		return fmt.Errorf("hosted table does not decode: %v", err)
	}
	switch {
	case t.Code != string(k):
		return fmt.Errorf("hosted table %q under another key", t.Code)
	case t.Status != HostedGathering && t.Status != HostedStarting && t.Status != HostedStarted:
		return fmt.Errorf("status %q", t.Status)
	case len(t.Members) == 0 && t.Status == HostedGathering:
		return errors.New("a gathering table with no member")
	case t.Seats < len(t.Members):
		return fmt.Errorf("%d members at %d seats", len(t.Members), t.Seats)
	case t.Status != HostedGathering && checkID(t.Table) != nil:
		return fmt.Errorf("a %s table with table id %q", t.Status, t.Table)
	case t.Status == HostedStarted && (checkID(t.Round) != nil || t.Started.IsZero()):
		return fmt.Errorf("a started table with round %q, started %v", t.Round, t.Started)
	}
	for _, m := range t.Members {
		if !isHexHash(m.Hash) {
			return fmt.Errorf("member %q is not a record key", m.Hash)
		}
	}
	return nil
}
