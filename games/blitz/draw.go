package blitz

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"arena/games/canon"
)

// The draw (§9) and the salted commitments of the open-round anchor (§5.5). The spec lost the
// formulas; these are the project's, written down in docs/protocol-notes.md "games/blitz".

// source is the seeded deterministic stream: SHA-256 in counter mode,
// block i = SHA-256(seed ‖ "dotdotdot/v1/draw" ‖ uint64be(i)), read 8 bytes at a time as
// big-endian uint64s.
type source struct {
	seed  [32]byte
	ctr   uint64
	block [32]byte
	off   int
}

func newSource(seed [32]byte) *source { return &source{seed: seed, off: 32} }

func (s *source) uint64() uint64 {
	if s.off+8 > len(s.block) {
		var buf [32 + 17 + 8]byte
		copy(buf[:], s.seed[:])
		copy(buf[32:], "dotdotdot/v1/draw")
		binary.BigEndian.PutUint64(buf[49:], s.ctr)
		s.ctr++
		s.block = sha256.Sum256(buf[:])
		s.off = 0
	}
	v := binary.BigEndian.Uint64(s.block[s.off:])
	s.off += 8
	return v
}

// intn is uniform in [0,n) by rejection sampling (no modulo bias). n ≥ 1.
func (s *source) intn(n int) int {
	if n <= 1 {
		return 0
	}
	un := uint64(n)
	limit := (^uint64(0) / un) * un
	for {
		v := s.uint64()
		if v < limit {
			return int(v % un)
		}
	}
}

// draw picks the mole seat, the task kind and the named seats (§9). Fixed choices from Options
// are kept; only what is left is drawn, always in the order mole, kind, named, so a fixed mole
// does not change the stream used for the task.
func draw(seed [32]byte, seats int, human bool, fixedMole int, fixed *TaskChoice) (int, Task) {
	src := newSource(seed)
	mole := src.intn(seats) + 1
	if fixedMole != 0 {
		mole = fixedMole
	}
	kinds := make([]string, 0, len(taskKinds))
	for _, k := range taskKinds {
		if k == "veto" && !human {
			continue // §9: a table with no human seat MUST NOT draw veto
		}
		kinds = append(kinds, k)
	}
	kind := kinds[src.intn(len(kinds))]
	others := make([]int, 0, seats-1)
	for s := 1; s <= seats; s++ {
		if s != mole {
			others = append(others, s)
		}
	}
	n := namedCount(kind)
	for i := 0; i < n && i < len(others); i++ {
		j := i + src.intn(len(others)-i)
		others[i], others[j] = others[j], others[i]
	}
	named := append([]int{}, others[:min(n, len(others))]...)
	if fixed != nil {
		kind = fixed.Kind
		named = append([]int{}, fixed.Named...)
	}
	sort.Ints(named)
	return mole, Task{Kind: kind, Category: taskCategory[kind], Named: named}
}

// salt is HMAC-SHA256(key = seed, message = "dotdotdot/v1/salt/" + label): 32 bytes, distinct
// per field and per seat, unknowable without the seed, revealed at settle.
func salt(seed [32]byte, label string) [32]byte {
	h := hmac.New(sha256.New, seed[:])
	h.Write([]byte("dotdotdot/v1/salt/" + label))
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// Salts are the open-round anchor's salts in lowercase hex, as revealed.
type Salts struct {
	Seed      string            `json:"seed"`
	Mole      string            `json:"mole"`
	Task      string            `json:"task"`
	Playbooks map[string]string `json:"playbooks"` // by seat number ("3"), off-the-shelf seats only
}

func deriveSalts(seed [32]byte, seats []int) Salts {
	hx := func(b [32]byte) string { return hex.EncodeToString(b[:]) }
	s := Salts{Seed: hx(salt(seed, "seed")), Mole: hx(salt(seed, "mole")), Task: hx(salt(seed, "task")),
		Playbooks: map[string]string{}}
	for _, n := range seats {
		k := strconv.Itoa(n)
		s.Playbooks[k] = hx(salt(seed, "playbook/"+k))
	}
	return s
}

// openObject is §5.5's `open`.
type openObject struct {
	V         int               `json:"v"`
	Round     string            `json:"round"`
	Arena     string            `json:"arena"`
	Format    openFormat        `json:"format"`
	Seating   []string          `json:"seating"`
	Seed      string            `json:"seed"`
	Mole      string            `json:"mole"`
	Task      string            `json:"task"`
	Playbooks map[string]string `json:"playbooks"`
}

type openFormat struct {
	Seats int `json:"seats"`
	Turns int `json:"turns"`
}

func sha256Hex(b []byte) string {
	d := sha256.Sum256(b)
	return canon.IDOf(d)
}

// commitJSON is "sha256:" + hex SHA-256(JCS(v)).
func commitJSON(v any) (string, error) {
	c, err := canon.Marshal(v)
	if err != nil {
		return "", err
	}
	return sha256Hex(c), nil
}

// OpenAnchor recomputes the open-round anchor (§5.5) from a reveal: it rebuilds `open` from the
// revealed seed, salts, mole, task, playbooks and seating, and returns its JCS bytes and
// SHA-256. Anyone holding the reveal can compare the result with the anchor registered before
// turn 1 (anchor-check). The formulas (protocol-notes "games/blitz"):
//
//	seed      = "sha256:" + hex SHA-256(salt_seed ‖ seed)            (32 + 32 raw bytes)
//	mole      = "sha256:" + hex SHA-256(JCS({"mole": seat, "salt": hex salt_mole}))
//	task      = "sha256:" + hex SHA-256(JCS({"kind", "named": [seats ascending], "salt": hex salt_task}))
//	playbooks = {seat: "sha256:" + hex SHA-256(JCS({"playbook": playbook|null, "salt": hex salt_seat}))}
//	anchor    = SHA-256(JCS(open))
func OpenAnchor(r Reveal) (json.RawMessage, [32]byte, error) {
	seed, err := hex.DecodeString(r.Seed)
	if err != nil || len(seed) != 32 {
		return nil, [32]byte{}, fmt.Errorf("blitz: reveal seed is not 64 hex digits")
	}
	sseed, err := hex.DecodeString(r.Salts.Seed)
	if err != nil || len(sseed) != 32 {
		return nil, [32]byte{}, fmt.Errorf("blitz: reveal seed salt is not 64 hex digits")
	}
	o := openObject{V: 1, Round: r.Round, Arena: r.Arena,
		Format: openFormat{Seats: r.Format.Seats, Turns: r.Format.Turns}, Seating: r.Seating,
		Playbooks: map[string]string{}}
	if o.Seating == nil {
		o.Seating = []string{}
	}
	o.Seed = sha256Hex(append(append([]byte{}, sseed...), seed...))
	if o.Mole, err = commitJSON(map[string]any{"mole": r.Mole, "salt": r.Salts.Mole}); err != nil {
		return nil, [32]byte{}, err
	}
	named := append([]int{}, r.Task.Named...)
	sort.Ints(named)
	if o.Task, err = commitJSON(map[string]any{"kind": r.Task.Kind, "named": named, "salt": r.Salts.Task}); err != nil {
		return nil, [32]byte{}, err
	}
	for k, s := range r.Salts.Playbooks {
		var pb json.RawMessage
		if p, ok := r.Playbooks[k]; ok && len(p) > 0 {
			pb = p
		}
		var v any = nil
		if pb != nil {
			v = pb
		}
		if o.Playbooks[k], err = commitJSON(map[string]any{"playbook": v, "salt": s}); err != nil {
			return nil, [32]byte{}, fmt.Errorf("blitz: playbook of seat %s: %w", k, err)
		}
	}
	b, err := canon.Marshal(o)
	if err != nil {
		return nil, [32]byte{}, err
	}
	return b, sha256.Sum256(b), nil
}
