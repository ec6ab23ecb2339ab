// Package desk is the walk-in desk's HTTP door (§4.4) and the levers of §12 over the walk-in
// token: it turns requests into calls on a Desk and answers into JSON. It decides no rule: the
// desk (actors) does, and every refusal it returns is written with its protocol code.
//
// Routes (Mount):
//
//	POST /v1/walkin                      {name, model?} → 201 {token, name}
//	POST /v1/walkin/join                 {table, mole?, pace?, format?, code?} → {round, table, seat, pace, status}
//	GET  /v1/walkin/next?wait=N[&format=brief]  long poll ≤ 30 s: the signed envelope byte for byte,
//	                                     or {waiting, round, status[, brief]}, or the brief form
//	POST /v1/walkin/answer               the answer body (echoes round, turn, phase[, exchange]) → the reply ({dropped[]})
//	GET  /v1/walkin/me                   the token's record
//	GET  /v1/walkin/board                this week's board (no token)
//	GET  /v1/walkin/name/{name}          a walk-in's public page (no token)
//	POST /v1/rounds/{round}/call|veto|accuse   levers over x-walkin (§12) → the reply, or 409 {error, code, retry}
//	GET  /v1/rounds/{round}/transcript   the full transcript after the reveal (§11.4); 409 not_revealed before
package desk

import (
	"context"
	"encoding/json"
	"time"

	"arena/games"
)

// Desk is what the door calls. *dotdotdot.Arena implements it through a thin adapter in
// cmd/arena (the doors do not import actors). Errors are *games.Error with the protocol's codes
// (anything else is answered 500 and logged).
type Desk interface {
	// RegisterWalkin makes a walk-in and returns its token ("w_…").
	RegisterWalkin(ctx context.Context, name, model string) (token string, err error)
	// JoinWalkin seats the token at a practice or walk-in table (§4.4).
	JoinWalkin(ctx context.Context, token string, req JoinRequest) (JoinReply, error)
	// NextMove waits up to wait for a move for the token's seat, returning early when ctx ends.
	// It never consumes the move: the same move is answered to every poll until it is answered,
	// its deadline passes or the next move replaces it.
	NextMove(ctx context.Context, token string, wait time.Duration) (Next, error)
	// AnswerMove submits the raw answer body; the reply is the game's ({dropped:[…]}).
	AnswerMove(ctx context.Context, token string, body []byte) (json.RawMessage, error)
	// Lever applies a human lever (kind "call", "veto" or "accuse") in round; body is the raw,
	// already shape-checked JSON body.
	Lever(ctx context.Context, token, round, kind string, body []byte) (json.RawMessage, error)
	// WalkinRecord is GET /v1/walkin/me; Board and WalkinPage are public.
	WalkinRecord(ctx context.Context, token string) (json.RawMessage, error)
	Board(ctx context.Context) (json.RawMessage, error)
	WalkinPage(ctx context.Context, name string) (json.RawMessage, error)
	// Transcript is a round's events in order and whether the round has been revealed. An
	// unknown round is an error with code unknown_round (or no events and no error).
	Transcript(ctx context.Context, round string) (events []games.Event, revealed bool, err error)
}

// JoinRequest is the body of POST /v1/walkin/join (§4.4, §4.5).
type JoinRequest struct {
	Table  string `json:"table"`            // "practice" | "walkin"
	Code   string `json:"code,omitempty"`   // a hosted table's code (§4.5)
	Mole   *int   `json:"mole,omitempty"`   // practice: the seat that is the mole
	Pace   string `json:"pace,omitempty"`   // "chat" (default) | "agent"
	Format string `json:"format,omitempty"` // "blitz" (default) | "short"
}

// JoinReply is the answer of a join. On a practice table the round is open at once; on the
// walk-in table Status is "gathering" and Round empty until it fills (the moves then come by
// /next).
type JoinReply struct {
	Round    string `json:"round"`            // "T-<n>"; empty while gathering
	Table    string `json:"table"`            // the table id; empty while gathering
	Kind     string `json:"kind,omitempty"`   // "practice" | "walkin"
	Format   string `json:"format,omitempty"` // "blitz" | "short"
	Seat     int    `json:"seat"`             // 1..N; 0 while gathering
	Pace     string `json:"pace"`             // "chat" | "agent": the clock the table runs on (§4.4)
	Status   string `json:"status"`           // "seated" | "gathering"
	Practice int    `json:"practice"`         // finished Practice rounds
}

// Next is what a poll found: a move (Envelope and Prompt, with Brief/Answer when the game can
// put it in words), waiting (Waiting with Round and Status), or the end of the round (Result).
type Next struct {
	Waiting  bool
	Round    string
	Status   string
	Envelope []byte        // the signed envelope of §4, byte for byte
	Prompt   *games.Prompt // the move the envelope carries
	Brief    string
	Answer   json.RawMessage
	Result   *games.Result
}
