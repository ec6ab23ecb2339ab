package games

import (
	"strconv"
	"strings"
)

// Visibility says who may read a transcript line and when (§15; Break Room "Match log").
// It is held as its wire form, so an Event serialises exactly as the transcript writes it and
// two visibilities compare with ==:
//
//	"public"              everyone, at once
//	"private:3"           seat 3 at once; everyone once the match has ended
//	"private:1,4"         seats 1 and 4 (several recipients: a wolf pack, the two sides of a message)
//	"sealed"              nobody until the match has ended, then everyone
//	"private:3:never"     seat 3 at once; nobody else, ever (Inference's unrevealed values)
//	"sealed:never"        nobody, ever (kept for the operator and the store only)
//
// Scope is "public", "seats" (the private forms) or "sealed"; To the recipient seats, ascending;
// Reveal "end" or "never" (a public line needs none and says "end"). Redact is the one filter that
// applies it.
type Visibility string

// The visibilities with no recipients.
const (
	Public Visibility = "public"
	Sealed Visibility = "sealed"
)

// Scopes of a Visibility.
const (
	ScopePublic = "public"
	ScopeSeats  = "seats"
	ScopeSealed = "sealed"
)

// Reveal policies of a Visibility.
const (
	RevealEnd   = "end"
	RevealNever = "never"
)

// Private is the visibility of a line for the given seats (≥ 1), revealed at the end. The seats
// are written in the order given: callers list them ascending, so equal sets compare equal.
// With no seat it is Sealed.
func Private(seats ...int) Visibility {
	if len(seats) == 0 {
		return Sealed
	}
	b := make([]byte, 0, 8+4*len(seats))
	b = append(b, "private:"...)
	for i, s := range seats {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	return Visibility(b)
}

// Never is v revealed never: the line keeps its recipients after the end. Public stays public.
func (v Visibility) Never() Visibility {
	if v == Public || v.Reveal() == RevealNever {
		return v
	}
	return v + ":" + RevealNever
}

// Scope is ScopePublic, ScopeSeats or ScopeSealed; a form this package does not write reads as
// ScopeSealed, so an unknown line is shown to nobody.
func (v Visibility) Scope() string {
	head, _, _ := strings.Cut(string(v), ":")
	switch {
	case v == Public:
		return ScopePublic
	case head == "private" && len(v.To()) > 0:
		return ScopeSeats
	}
	return ScopeSealed
}

// To lists the recipient seats of a private line (nil for public and sealed lines, and for a
// malformed list).
func (v Visibility) To() []int {
	rest, ok := strings.CutPrefix(string(v), "private:")
	if !ok {
		return nil
	}
	rest = strings.TrimSuffix(rest, ":"+RevealNever)
	var out []int
	for f := range strings.SplitSeq(rest, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil
		}
		out = append(out, n)
	}
	return out
}

// Reveal is RevealNever for a line that stays hidden after the end, else RevealEnd.
func (v Visibility) Reveal() string {
	if strings.HasSuffix(string(v), ":"+RevealNever) {
		return RevealNever
	}
	return RevealEnd
}

// Shows says whether viewer (a seat ≥ 1, or 0 for a spectator) may read a line of visibility v,
// before the match has ended or after (ended).
func (v Visibility) Shows(viewer int, ended bool) bool {
	if v == Public {
		return true
	}
	never := v.Reveal() == RevealNever
	if ended && !never {
		return true
	}
	if viewer < 1 {
		return false
	}
	rest, ok := strings.CutPrefix(string(v), "private:")
	if !ok {
		return false
	}
	rest = strings.TrimSuffix(rest, ":"+RevealNever)
	want := strconv.Itoa(viewer)
	for f := range strings.SplitSeq(rest, ",") {
		if f == want {
			return true
		}
	}
	return false
}

// Redact is the events of evs viewer may read (Visibility.Shows), in order, as a new slice
// sharing the events' payloads. It is the one event filter: every door, view and store reading
// of a transcript goes through it. ended says the match has ended (its reveal is out).
func Redact(evs []Event, viewer int, ended bool) []Event {
	out := make([]Event, 0, len(evs))
	for _, e := range evs {
		if e.Visibility.Shows(viewer, ended) {
			out = append(out, e)
		}
	}
	return out
}
