// Package feed is the Gallery feed's vocabulary (warden-games §15): the envelope every public
// event travels in (§15.2), one Go type per event type of §15.3 with exactly its public fields,
// and the constructors that are the only way to make an Event. An Event's fields are unexported,
// so nothing outside this package can put arbitrary bytes in a feed: a constructor's arguments
// are the event's public fields and nothing else (§15.4: no valuation before its round's reveal,
// no claim before claims_published, no ask, escalation or choice before the reveal, never a
// private message's text except in messages_published, never a token, signature or payment
// payload).
//
// Mapper turns the Warden engines' transcript events (games/warden/claims and
// games/warden/dilemma) into Events: public engine events are re-typed field by field, private
// ones dropped, except a seat's recorded message, which becomes message_sent carrying only its
// length.
//
// LogHash is the §15.5 public log hash over a match's envelopes.
//
// Pure: no I/O, clock or goroutine; time enters as values.
package feed
