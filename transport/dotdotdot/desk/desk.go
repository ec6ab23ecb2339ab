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
//	GET  /v1/rounds/{round}/transcript   the full transcript after the reveal (§11.4), and its showings'
//	                                     replay anchors ("replays", §5.5); 409 not_revealed before
package desk

import (
	"context"
	"encoding/json"
	"time"

	"arena/actors/dotdotdot"
	"arena/games"
)

// Desk is what the door calls; *dotdotdot.Arena implements it. Its value types are the desk's
// own (dotdotdot.JoinRequest, JoinReply, Next). Errors are refusals with the protocol's codes
// (*games.Error, *door.Refusal, the actor tree's sentinels: door.AsRefusal); anything else is
// answered 500 and logged.
type Desk interface {
	// RegisterWalkin makes a walk-in and returns its token ("w_…").
	RegisterWalkin(ctx context.Context, name, model string) (token string, err error)
	// JoinWalkin seats the token at a practice or walk-in table (§4.4).
	JoinWalkin(ctx context.Context, token string, req dotdotdot.JoinRequest) (dotdotdot.JoinReply, error)
	// NextMove waits up to wait for a move for the token's seat, returning early when ctx ends.
	// It never consumes the move: the same move is answered to every poll until it is answered,
	// its deadline passes or the next move replaces it.
	NextMove(ctx context.Context, token string, wait time.Duration) (dotdotdot.Next, error)
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
