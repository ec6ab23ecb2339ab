package blitz

import (
	"encoding/binary"
	"encoding/json"
	"regexp"

	"arena/games"
)

// Pattern is one seat's counts from the public log (§5.4 pattern[]).
type Pattern struct {
	Seat                 int `json:"seat"`
	PrivateSent          int `json:"private_sent"`
	PrivateReceived      int `json:"private_received"`
	PartyTo              int `json:"party_to"`              // sealed commitments as payer or payee
	OfferedUnsigned      int `json:"offered_unsigned"`      // public lines with an amount, no seal by that seat (as payer) in that turn
	Breaches             int `json:"breaches"`              // its own, as payer
	CounterpartyBreaches int `json:"counterparty_breaches"` // others' breaches where it was payee
}

// amountRE finds an amount in a public line: a number (digits, optional decimals) followed by
// ccd, chip or chips, case-insensitive ("40 CCD", "12.5ccd", "3 chips").
var amountRE = regexp.MustCompile(`(?i)\d+(?:[.,]\d+)?\s*(?:ccd|chips?)\b`)

// hasAmount is amountRE.MatchString(text). Every match starts with an ASCII digit (\d is
// ASCII in Go's regexp), so a line without one is answered without running the regexp: most
// lines of talk name no amount, and the regexp cost more than the rest of a line's counting.
func hasAmount(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c >= '0' && c <= '9' {
			return amountRE.MatchString(text[i:])
		}
	}
	return false
}

// hasAmountBytes is hasAmount for a text held as bytes. The first digit is looked for eight
// bytes at a time (digit8): a line of talk is a hundred bytes or more, most with no digit.
func hasAmountBytes(text []byte) bool {
	i := 0
	for ; i+8 <= len(text); i += 8 {
		if digit8(binary.LittleEndian.Uint64(text[i:])) {
			break
		}
	}
	for ; i < len(text); i++ {
		if c := text[i]; c >= '0' && c <= '9' {
			return amountRE.Match(text[i:])
		}
	}
	return false
}

// digit8 reports whether any of the eight bytes of x is an ASCII digit: the "has a byte
// between m and n" word test (m = '0'-1, n = '9'+1), exact in every byte: no lane borrows
// from or carries into the next, and bytes of 0x80 and above are left out by the &^ x.
func digit8(x uint64) bool {
	const ones, low7 = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f
	const m, n = '0' - 1, '9' + 1
	t := x & low7
	return (ones*(127+n)-t)&^x&(t+ones*(127-m))&(ones*0x80) != 0
}

// PatternOf computes pattern[] from a public log (the public events of a round so far, in
// order): one entry per seat.taken seat, in seat order. Only public payloads are read, so a
// board and an agent see the same numbers. A line "with an amount" counts as offered_unsigned
// once its turn's commit phase has closed (phase.started settle for that turn is in the log)
// and its speaker sealed no commitment as payer in that turn.
func PatternOf(publicLog []games.Event) []Pattern {
	p := newPatternCounter()
	p.parties = map[string][2]int{} // a log's commitment.settled payloads name no parties
	for _, e := range publicLog {
		if e.Visibility == visPublic {
			p.add(e)
		}
	}
	return p.patterns()
}

// patternCounter is PatternOf made incremental: the match feeds it every public event as it
// is emitted, PatternOf feeds it a log; the same code counts both.
//
// The turn's offers and sealing payers are short lists (one entry per seat at most), emptied
// as a turn starts, rather than maps made anew each turn.
//
// A breach counts against the payer and for the payee of the commitment settled. The match
// passes both with the settlement's fields (emitSettled), so its counter keeps no map of the
// round's commitments (a live table holds its counter all round); PatternOf, reading payloads
// that name only the id, keeps the parties of each commitment.sealed in parties.
type patternCounter struct {
	rows    []Pattern
	parties map[string][2]int // commitment id -> payer, payee; nil in a match's counter
	offers  []seatCount       // this turn: public lines with an amount, by seat, first offer first
	sealedT []int             // this turn: seats that sealed as payer
	turn    int
}

// seatCount is a seat's count of something this turn.
type seatCount struct{ seat, n int }

func newPatternCounter() *patternCounter {
	return &patternCounter{}
}

// offer counts one public line with an amount by seat this turn.
func (p *patternCounter) offer(seat int) {
	for i := range p.offers {
		if p.offers[i].seat == seat {
			p.offers[i].n++
			return
		}
	}
	p.offers = append(p.offers, seatCount{seat, 1})
}

// sealedBy notes that seat sealed a commitment as payer this turn.
func (p *patternCounter) sealedBy(seat int) {
	if !p.sealed(seat) {
		p.sealedT = append(p.sealedT, seat)
	}
}

func (p *patternCounter) sealed(seat int) bool {
	for _, s := range p.sealedT {
		if s == seat {
			return true
		}
	}
	return false
}

func (p *patternCounter) row(seat int) *Pattern {
	for i := range p.rows {
		if p.rows[i].Seat == seat {
			return &p.rows[i]
		}
	}
	return nil
}

// patternFields are the members of a public payload the counter reads.
type patternFields struct {
	Seat    int    `json:"seat"`
	From    int    `json:"from"`
	To      int    `json:"to"`
	Text    string `json:"text"`
	ID      string `json:"id"`
	Payer   int    `json:"payer"`
	Payee   int    `json:"payee"`
	Outcome string `json:"outcome"`
	Phase   string `json:"phase"`

	// offer is set by the match for a public line whose text has an amount (hasAmount), so
	// the text itself need not be passed as a string; the payload never sets it.
	offer bool
	// c is the commitment a commitment.sealed or commitment.settled event is about, when the
	// match passes it: eventMarks notes the event's seq on it; the payload never sets it.
	c *promise
}

// add counts one public event, reading its payload.
func (p *patternCounter) add(e games.Event) {
	switch e.Type {
	case "seat.taken", "talking", "message.public", "commitment.sealed", "commitment.settled", "phase.started":
	default:
		p.note(e.Type, e.Turn, patternFields{})
		return
	}
	var pl patternFields
	if json.Unmarshal(e.Payload, &pl) != nil {
		return
	}
	if e.Type == "commitment.settled" {
		pl.Payer, pl.Payee = 0, 0 // a settlement's parties are its seal's (parties), never its payload's
	}
	p.note(e.Type, e.Turn, pl)
}

// note counts one public event from its fields (the match passes them as it emits).
func (p *patternCounter) note(typ string, turn int, pl patternFields) {
	if turn != p.turn {
		p.turn = turn
		p.offers = p.offers[:0]
		p.sealedT = p.sealedT[:0]
	}
	switch typ {
	case "seat.taken":
		if p.row(pl.Seat) == nil {
			p.rows = append(p.rows, Pattern{Seat: pl.Seat})
		}
	case "talking":
		if r := p.row(pl.From); r != nil {
			r.PrivateSent++
		}
		if r := p.row(pl.To); r != nil {
			r.PrivateReceived++
		}
	case "message.public":
		if pl.offer || hasAmount(pl.Text) {
			p.offer(pl.From)
		}
	case "commitment.sealed":
		if p.parties != nil {
			p.parties[pl.ID] = [2]int{pl.Payer, pl.Payee}
		}
		p.sealedBy(pl.Payer)
		if r := p.row(pl.Payer); r != nil {
			r.PartyTo++
		}
		if r := p.row(pl.Payee); r != nil {
			r.PartyTo++
		}
	case "commitment.settled":
		if pl.Outcome != outcomeBreached {
			return
		}
		pp := [2]int{pl.Payer, pl.Payee} // the match's settlement names them
		if pp[0] == 0 {
			var ok bool
			if pp, ok = p.parties[pl.ID]; !ok {
				return
			}
		}
		if r := p.row(pp[0]); r != nil {
			r.Breaches++
		}
		if r := p.row(pp[1]); r != nil {
			r.CounterpartyBreaches++
		}
	case "phase.started":
		if pl.Phase != "settle" {
			return
		}
		for _, o := range p.offers {
			if !p.sealed(o.seat) {
				if r := p.row(o.seat); r != nil {
					r.OfferedUnsigned += o.n
				}
			}
		}
		p.offers = p.offers[:0]
	}
}

func (p *patternCounter) patterns() []Pattern {
	out := append([]Pattern{}, p.rows...)
	return out
}
