// Package anchor encodes and decodes the 50-byte Register Data anchor of the DOTDOTDOT protocol
// (§5.5): what the arena registers on Concordium after every talk exchange, sealed commitment,
// opening, mid-round point, replay and final transcript, so that a reader holding the transcript
// can find each anchored transaction, decode its DataRegistered bytes and compare all four fields.
//
// The layout, big endian, 50 bytes:
//
//	offset size field
//	0      4    "DDDA"
//	4      1    version, 1
//	5      1    kind: 1 exchange, 2 commitment, 3 turn, 4 opened, 5 replay, 6 transcript
//	6      8    round: the n of "T-<n>", u64
//	14     4    seq: the round's anchor numbering from 1, u32; for a replay the Unix second
//	            the showing started
//	18     32   hash: exchange transcript hash, commitment id, open-round anchor, transcript
//	            hash so far (turn) or in full (transcript), or the replayed transcript's hash
//
// The package is pure: no I/O, no clock (instants are passed in).
package anchor

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Size is the length of an encoded anchor in bytes (§5.5).
const Size = 50

// Version is the only layout version this package writes and reads (§5.5 offset 4).
const Version = 1

// Magic opens every anchor (§5.5 offset 0).
const Magic = "DDDA"

// Kind says what an anchor's hash is (§5.5 offset 5).
type Kind uint8

// The six kinds of §5.5. The zero Kind is invalid.
const (
	Exchange   Kind = 1 // SHA-256(JCS(events of one talk exchange))
	Commitment Kind = 2 // a sealed commitment's id
	Turn       Kind = 3 // mid-round anchor of a table with no escrow: transcript hash so far
	Opened     Kind = 4 // open-round anchor of a table with no escrow, seq 1
	Replay     Kind = 5 // a recording started; seq is the Unix second it started
	Transcript Kind = 6 // final transcript hash of a table with no escrow
)

var kindNames = [...]string{"", "exchange", "commitment", "turn", "opened", "replay", "transcript"}

// String is the kind's protocol name ("exchange" ... "transcript"), the suffix of its
// anchor.<kind> transcript event; an unknown kind prints as "kind(<n>)".
func (k Kind) String() string {
	if k.Valid() {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Valid reports whether k is one of the six kinds of §5.5.
func (k Kind) Valid() bool { return k >= Exchange && k <= Transcript }

// ParseKind maps a protocol name ("exchange", "commitment", "turn", "opened", "replay",
// "transcript"; exact case) to its Kind. Anything else is ErrKind.
func ParseKind(name string) (Kind, error) {
	for k := Exchange; k <= Transcript; k++ {
		if kindNames[k] == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%w: %q", ErrKind, name)
}

// Anchor is one decoded anchor. Round is the n of the round id "T-<n>" (§3); Seq follows the
// rules of §5.5 (see Validate).
type Anchor struct {
	Kind  Kind
	Round uint64
	Seq   uint32
	Hash  [32]byte
}

// Validate checks the rules an anchor must meet before it is registered: a known kind and a
// seq of at least 1 (seqs count from 1; a replay's seq is a Unix second, which is never 0 for
// a showing after 1970). Errors: ErrKind, ErrSeq.
func (a Anchor) Validate() error {
	if !a.Kind.Valid() {
		return fmt.Errorf("%w: %d", ErrKind, a.Kind)
	}
	if a.Seq == 0 {
		return fmt.Errorf("%w: seq 0 (seqs count from 1)", ErrSeq)
	}
	return nil
}

// Encode returns the 50 bytes of a (§5.5), or the Validate error.
func (a Anchor) Encode() ([]byte, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	b := make([]byte, 0, Size)
	b = append(b, Magic...)
	b = append(b, Version, byte(a.Kind))
	b = binary.BigEndian.AppendUint64(b, a.Round)
	b = binary.BigEndian.AppendUint32(b, a.Seq)
	b = append(b, a.Hash[:]...)
	return b, nil
}

// Decode reads an anchor from the DataRegistered bytes of a Register Data transaction. It
// refuses anything but exactly 50 bytes (ErrSize), a wrong magic (ErrMagic), another version
// (ErrVersion), an unknown kind (ErrKind) and seq 0 (ErrSeq). Decode never panics.
func Decode(b []byte) (Anchor, error) {
	if len(b) != Size {
		return Anchor{}, fmt.Errorf("%w: %d bytes, want %d", ErrSize, len(b), Size)
	}
	if string(b[:4]) != Magic {
		return Anchor{}, fmt.Errorf("%w: %x", ErrMagic, b[:4])
	}
	if b[4] != Version {
		return Anchor{}, fmt.Errorf("%w: %d, want %d", ErrVersion, b[4], Version)
	}
	a := Anchor{
		Kind:  Kind(b[5]),
		Round: binary.BigEndian.Uint64(b[6:14]),
		Seq:   binary.BigEndian.Uint32(b[14:18]),
	}
	copy(a.Hash[:], b[18:])
	if err := a.Validate(); err != nil {
		return Anchor{}, err
	}
	return a, nil
}

// ParseRound returns the n of a round id "T-<n>" (§3): "T-" then decimal digits, no sign, no
// leading zero (so every n has exactly one id), at most 2^64-1. Anything else is ErrRound.
func ParseRound(id string) (uint64, error) {
	digits, ok := strings.CutPrefix(id, "T-")
	if !ok || digits == "" || (len(digits) > 1 && digits[0] == '0') {
		return 0, fmt.Errorf("%w: %q", ErrRound, id)
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: %q", ErrRound, id)
		}
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", ErrRound, id)
	}
	return n, nil
}

// RoundID is the round id "T-<n>" of round number n, the inverse of ParseRound.
func RoundID(n uint64) string { return "T-" + strconv.FormatUint(n, 10) }

// ReplaySeq is the seq of a replay anchor: the Unix second the showing started (§5.5). A start
// before 1970-01-01T00:00:01Z or after the u32 range (2106-02-07) is ErrSeq.
func ReplaySeq(started time.Time) (uint32, error) {
	s := started.Unix()
	if s < 1 || s > 1<<32-1 {
		return 0, fmt.Errorf("%w: replay start %s outside the u32 Unix-second range", ErrSeq, started.UTC().Format(time.RFC3339))
	}
	return uint32(s), nil
}
