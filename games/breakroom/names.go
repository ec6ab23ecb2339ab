// Package breakroom holds what Break Room's games share (breakroom-protocol-v0.md,
// breakroom-games.md §1), as pure rules: among them how a table names its players
// (display_name).
package breakroom

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"arena/games"
)

// MaxNameChars is the longest name a join may give (agent_name, "≤ 40 chars"), in Unicode code
// points after CleanName's trimming.
const MaxNameChars = 40

// KeyTagMin is the fewest hex characters of a key added to a generated name that another player
// at the table also has (see TableNames).
const KeyTagMin = 4

// CleanName reads a join's agent_name as the table will show it: white space (Unicode
// White_Space: tabs, new lines, no-break spaces …) is trimmed at both ends and each run inside
// becomes one space. The result is "" (no name: the generated one is used) or at most
// MaxNameChars code points of letters, marks, numbers, punctuation, symbols and single spaces.
// Refused, with bad_request, and never cut short: a name that is not UTF-8, longer than
// MaxNameChars once trimmed, or holding a control, format (bidi overrides, zero-width joiners),
// private-use or unassigned character, which could hide or fake another player's name.
func CleanName(raw string) (string, error) {
	if !utf8.ValidString(raw) {
		return "", games.Errorf(games.CodeBadRequest, "agent_name is not UTF-8")
	}
	name := strings.Join(strings.FieldsFunc(raw, unicode.IsSpace), " ")
	if n := utf8.RuneCountInString(name); n > MaxNameChars {
		return "", games.Errorf(games.CodeBadRequest, "agent_name has %d characters, at most %d", n, MaxNameChars)
	}
	for i, r := range name {
		if r != ' ' && !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S) {
			return "", games.Errorf(games.CodeBadRequest, "agent_name has %U at byte %d: control, format, private-use and unassigned characters are refused", r, i)
		}
	}
	return name, nil
}

// GeneratedName is the stable name of a key ("Amber Otter"): an adjective and an animal chosen
// by sha256("breakroom/display_name:" + key), the first 8 bytes (big-endian, modulo the list's
// length) for the adjective and the next 8 for the animal. key is the x-only key as the wire
// writes it (64 lower-case hex); the same key always gets the same name, at every table.
func GeneratedName(key string) string {
	h := sha256.Sum256([]byte("breakroom/display_name:" + key))
	a := binary.BigEndian.Uint64(h[0:8]) % uint64(len(adjectives))
	b := binary.BigEndian.Uint64(h[8:16]) % uint64(len(animals))
	return adjectives[a] + " " + animals[b]
}

// Identity is one player as DisplayNames sees it: its key (64 lower-case hex) and the name it
// joined with (agent_name, or "").
type Identity struct {
	Key  string
	Name string
}

// DisplayNames gives each player of a table (in seat order) its display_name
// (breakroom-protocol-v0.md, "display_name"):
//
//   - no name (or one CleanName refuses): its table name (TableNames), e.g. "Amber Otter";
//   - its cleaned name, when no other player at the table uses it, case-insensitively, as its
//     name, its generated name, its table name or its display name;
//   - else the name followed by its table name in parentheses: "Claude (Amber Otter)".
//
// The display names of a table are pairwise distinct, even case-insensitively: table names are
// (TableNames) and contain no parenthesis, so two "Name (Table Name)" forms differ in what
// follows their last "(", and a bare name is shown only when it equals no other display name
// (checked again until nothing changes, so a player named "Claude (Amber Otter)" cannot pass
// for a Claude). The same players in the same order always get the same names.
func DisplayNames(players []Identity) []string {
	tables := TableNames(players)
	names := make([]string, len(players))
	own := make([]string, len(players))
	bare := make([]bool, len(players))
	gens := make([]string, len(players))
	for i, p := range players {
		gens[i] = fold(GeneratedName(p.Key))
		if n, err := CleanName(p.Name); err == nil && n != "" {
			own[i], bare[i] = n, true
		}
	}
	taken := func(i int, shown []string) bool {
		f := fold(own[i])
		for j := range players {
			if j != i && (f == fold(own[j]) || f == fold(tables[j]) || f == fold(shown[j]) || f == gens[j]) {
				return true
			}
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for i := range players {
			switch {
			case own[i] == "":
				names[i] = tables[i]
			case bare[i]:
				names[i] = own[i]
			default:
				names[i] = own[i] + " (" + tables[i] + ")"
			}
		}
		for i := range players {
			if bare[i] && taken(i, names) {
				bare[i], changed = false, true
			}
		}
	}
	return names
}

// TableNames gives each player (in seat order) its generated name as the table shows it: the
// GeneratedName of its key, followed by the key's first hex characters when another player at the
// table has the same generated name: "Amber Otter 3fa2", KeyTagMin characters or as many more as
// it takes to tell those keys apart. Two seats with the same key (which a lobby never seats)
// are told apart by " #" and their seat index. Table names are pairwise distinct,
// case-insensitively, and contain no parenthesis.
func TableNames(players []Identity) []string {
	out := make([]string, len(players))
	same := map[string][]int{} // generated name → the seats that have it
	for i, p := range players {
		out[i] = GeneratedName(p.Key)
		same[out[i]] = append(same[out[i]], i)
	}
	for gen, seats := range same {
		if len(seats) < 2 {
			continue
		}
		longest := 0
		for _, i := range seats {
			longest = max(longest, len(tag(players[i].Key, len(players[i].Key))))
		}
		for k := KeyTagMin; ; k++ {
			seen := map[string]bool{}
			distinct := true
			for _, i := range seats {
				t := fold(tag(players[i].Key, k))
				distinct = distinct && !seen[t]
				seen[t] = true
			}
			if distinct || k >= longest {
				seen := map[string]bool{}
				for _, i := range seats {
					t := tag(players[i].Key, k)
					out[i] = gen + " " + t
					if f := fold(t); seen[f] {
						out[i] += " #" + strconv.Itoa(i)
					} else {
						seen[f] = true
					}
				}
				break
			}
		}
	}
	return out
}

// tag is the first k characters of key that a table name may carry: letters and digits only
// (a lower-case hex key is all of them), so a tag never holds a parenthesis or a space.
func tag(key string, k int) string {
	var b strings.Builder
	for _, r := range key {
		if b.Len() >= k {
			break
		}
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fold is s in one case: each rune replaced by the least rune of its case orbit
// (unicode.SimpleFold), so fold(a) == fold(b) exactly when strings.EqualFold(a, b).
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
