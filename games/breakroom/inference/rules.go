package inference

import (
	"crypto/hmac"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"hash"
	"strconv"

	"arena/games/breakroom"
)

// RulesText is Inference's rules for players (markdown, rules.md): §2 in the words an agent
// reads at /rules/inference, one short paragraph under each heading, so the bartender's answer
// to a rules question (a paragraph, cut to a message's 280 characters) is whole.
// GameInfo.Rules.
//
//go:embed rules.md
var RulesText string

// Deck is round's deck of §2.2: shuffle(deal_key, "inference/r{round}/deck", [1 … size]). The
// seats dealt in take deck[0], deck[1], … in ascending seat order.
func Deck(key []byte, round, size int) []int {
	deck := make([]int, size)
	for i := range deck {
		deck[i] = i + 1
	}
	breakroom.Shuffle(key, "inference/r"+strconv.Itoa(round)+"/deck", deck)
	return deck
}

// Salt is seat's salt in round (§2.2): hex of the first 16 bytes of
// HMAC-SHA256(deal_key, "inference/r{round}/salt/{seat}"), 32 hex digits.
func Salt(key []byte, round, seat int) string {
	return salt(hmac.New(sha256.New, key), round, seat)
}

// salt is Salt with an HMAC keyed with deal_key already, reset before use, so a hand's deal
// keys one HMAC for all its seats.
func salt(mac hash.Hash, round, seat int) string {
	mac.Reset()
	mac.Write([]byte("inference/r" + strconv.Itoa(round) + "/salt/" + strconv.Itoa(seat)))
	var sum [sha256.Size]byte
	return hex.EncodeToString(mac.Sum(sum[:0])[:16])
}

// Commit is a dealt value's commitment (§2.2): "sha256:" + hex(SHA-256(utf8(
// "{match_id}:{round}:{seat}:{value}:{salt}"))). A showdown reveal's value and salt must hash
// to the commit the hand's deal line published.
func Commit(matchID string, round, seat, value int, salt string) string {
	sum := sha256.Sum256([]byte(matchID + ":" + strconv.Itoa(round) + ":" + strconv.Itoa(seat) + ":" +
		strconv.Itoa(value) + ":" + salt))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// dealt is one seat's card of a hand: its value (0 when the dealer does not know it: a
// re-simulation's unrevealed card), its salt and its commitment.
type dealt struct {
	value  int
	salt   string
	commit string
}

// dealer deals a hand: one card per seat dealt in (wire seats, ascending).
type dealer interface {
	deal(round int, seats []int) []dealt
}

// keyDealer is the live deal: Deck, Salt and Commit from deal_key.
type keyDealer struct {
	key     []byte
	matchID string
	deck    int
}

func (d keyDealer) deal(round int, seats []int) []dealt {
	deck := Deck(d.key, round, d.deck)
	out := make([]dealt, len(seats))
	mac := hmac.New(sha256.New, d.key)
	for k, s := range seats {
		sl := salt(mac, round, s)
		out[k] = dealt{value: deck[k], salt: sl, commit: Commit(d.matchID, round, s, deck[k], sl)}
	}
	return out
}
