package blitz

import "strconv"

// The payloads of the events that open a turn, a phase or an exchange (§5.3, §15), written in
// JCS form straight into the event (openEvent) rather than built as maps and marshalled: a round
// opens some forty of them. Each writes exactly what payloadJCS writes for the map it replaces
// (members in ascending order; TestPhasePayloadsAsMaps); integers here are counts and
// milliseconds, far inside ±(2^53−1).

// appendTurnStarted appends turn.started's payload {"of","turn"}.
func appendTurnStarted(b []byte, turn, of int) []byte {
	b = append(b, `{"of":`...)
	b = strconv.AppendInt(b, int64(of), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(turn), 10)
	return append(b, '}')
}

// appendTalkStarted appends the talk phase's phase.started payload {"duration_ms","exchanges","phase"}.
func appendTalkStarted(b []byte, durationMS int64, exchanges int) []byte {
	b = append(b, `{"duration_ms":`...)
	b = strconv.AppendInt(b, durationMS, 10)
	b = append(b, `,"exchanges":`...)
	b = strconv.AppendInt(b, int64(exchanges), 10)
	return append(b, `,"phase":"talk"}`...)
}

// appendPhaseStarted appends another phase's phase.started payload {"duration_ms","ends_at","phase"}.
func appendPhaseStarted(b []byte, phase string, durationMS int64, endsAt string) []byte {
	b = append(b, `{"duration_ms":`...)
	b = strconv.AppendInt(b, durationMS, 10)
	b = append(b, `,"ends_at":`...)
	b = appendJCSString(b, endsAt)
	b = append(b, `,"phase":`...)
	b = appendJCSString(b, phase)
	return append(b, '}')
}

// appendExchangeStarted appends exchange.started's payload {"duration_ms","ends_at","exchange","of"}.
func appendExchangeStarted(b []byte, exchange, of int, durationMS int64, endsAt string) []byte {
	b = append(b, `{"duration_ms":`...)
	b = strconv.AppendInt(b, durationMS, 10)
	b = append(b, `,"ends_at":`...)
	b = appendJCSString(b, endsAt)
	b = append(b, `,"exchange":`...)
	b = strconv.AppendInt(b, int64(exchange), 10)
	b = append(b, `,"of":`...)
	b = strconv.AppendInt(b, int64(of), 10)
	return append(b, '}')
}
