package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/gorilla/websocket"
)

// The load tool's agents (brload.go): each a Nostr key of its own (BIP-340 on secp256k1,
// btcec/v2's schnorr) on a real gorilla WebSocket to /v0/play, playing Break Room's protocol as
// any agent would (breakroom-protocol-v0.md "Quick start"): challenge → signed join → queued →
// seated → your_turn → move … → match_end, then a new socket and a new join for the next match
// while the run lasts.

// loadAgent is one agent: its key and what it has seen.
type loadAgent struct {
	run    *loadRun
	i      int
	priv   *btcec.PrivateKey
	pubHex string
	local  *net.TCPAddr // the source address its sockets dial from (nil: the kernel's choice)

	mu      sync.Mutex // serializes writes on the socket (the reader's join, a think timer's move)
	conn    *websocket.Conn
	current string       // the match it is seated at ("" between matches)
	moves   int          // prompts answered, for the strategy (every fourth a defect)
	sentAt  atomic.Int64 // the open turn's move: when it was sent (Unix ns; 0 before)
}

// loadMsg is the members of a server message the agents read (the rest is skipped).
type loadMsg struct {
	Type       string `json:"type"`
	Nonce      string `json:"nonce"`
	MatchID    string `json:"match_id"`
	Round      int64  `json:"round"`
	Turn       int64  `json:"turn"`
	DeadlineMs int64  `json:"deadline_ms"`
	Code       string `json:"code"`
	Detail     string `json:"detail"`
	Visible    struct {
		Round     int64 `json:"round"`
		Iteration int64 `json:"iteration"`
	} `json:"visible_state"`
	Event struct {
		Type      string `json:"type"`
		Round     int64  `json:"round"`
		Turn      int64  `json:"turn"`
		Iteration int64  `json:"iteration"`
	} `json:"event"`
}

// errDropped is a socket that ended while its agent was seated: the agent joins again on a new
// socket and is seated back at its match (breakroom-protocol-v0.md "Reconnecting").
var errDropped = errors.New("brload: dropped while seated")

// errRetry is a socket the server refused or closed before the agent was seated (rate_limited
// at the upgrade, a drop while queued): the agent dials again.
var errRetry = errors.New("brload: dial again")

func newLoadAgent(r *loadRun, i int) (*loadAgent, error) {
	priv, err := btcec.NewPrivateKey()
	if err != nil {
		return nil, err
	}
	a := &loadAgent{run: r, i: i, priv: priv, pubHex: hex.EncodeToString(schnorr.SerializePubKey(priv.PubKey()))}
	if n := r.o.Sources; n > 1 {
		// 127.0.0.1 … 127.0.0.n: every address of 127/8 is the loopback interface's, and each is a
		// caller of its own to the challenge desk's per-address bound (auth.DefaultPerCaller) and a
		// range of ephemeral ports of its own.
		a.local = &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+i%n))}
	}
	return a, nil
}

// play runs the agent until the run stops starting matches: one socket and one signed join per
// match, each played to its match_end.
func (a *loadAgent) play(ctx context.Context) {
	backoff := 50 * time.Millisecond
	// past the run's duration, an agent still seated (dropped mid-match) goes back to its match
	for ctx.Err() == nil && (a.current != "" || !a.run.stopping()) {
		err := a.match(ctx)
		switch {
		case err == nil:
			backoff = 50 * time.Millisecond
		case errors.Is(err, errDropped):
			a.run.drops.Add(1)
		case errors.Is(err, errRetry):
			a.run.retries.Add(1)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
				return
			}
			backoff = min(2*backoff, 2*time.Second)
		default:
			a.run.fail(fmt.Errorf("agent %d: %w", a.i, err))
			return
		}
	}
}

// match plays one match on a fresh socket: nil once its match_end came, errRetry when the socket
// ended before the agent was seated, another error for anything a well-behaved server does not
// do (the run fails with it).
func (a *loadAgent) match(ctx context.Context) error {
	r := a.run
	d := websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 1024, WriteBufferSize: 1024,
		WriteBufferPool: r.writePool, NetDialContext: (&net.Dialer{LocalAddr: a.local}).DialContext}
	conn, resp, err := d.DialContext(ctx, r.wsURL, http.Header{"Host": {r.o.Host}})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
			r.rateLimited.Add(1)
			return errRetry
		}
		r.dialErrors.Add(1)
		if ctx.Err() != nil {
			return nil
		}
		return errRetry
	}
	conn.SetReadLimit(64 << 10)
	r.connected(+1)
	defer r.connected(-1)
	a.mu.Lock()
	a.conn = conn
	a.mu.Unlock()
	// The socket closes when the match ends, when the run is cancelled, or on any error.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	defer conn.Close()

	var (
		seated  bool
		match   string
		myRound int64 = -1 // the turn last answered (its action_private is timed)
		myTurn  int64 = -1
	)
	for {
		_, b, err := conn.ReadMessage()
		now := time.Now()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				r.closedBy(ce.Code)
			}
			if !seated {
				return errRetry
			}
			a.run.dropped(fmt.Sprintf("agent %d at %s: %v", a.i, match, err))
			return errDropped
		}
		var m loadMsg
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("not JSON: %.200s", b)
		}
		switch m.Type {
		case "challenge":
			digest := sha256.Sum256([]byte(m.Nonce))
			sig, err := schnorr.Sign(a.priv, digest[:])
			if err != nil {
				return err
			}
			join := map[string]any{"type": "join", "v": 0, "game": "dilemma", "author_pubkey": a.pubHex,
				"nonce": m.Nonce, "sig": hex.EncodeToString(sig.Serialize()), "agent_name": "load " + strconv.Itoa(a.i)}
			if err := a.write(join); err != nil {
				return errRetry
			}
		case "queued":
		case "seated":
			if !seated {
				seated, match = true, m.MatchID
				if a.current != match { // not a reconnect to the match it was at
					a.current = match
					r.seat(a.i, match)
				}
			}
		case "your_turn":
			if m.Round == myRound && m.Turn == myTurn {
				break // the same turn again (a re-sent prompt): answered already
			}
			myRound, myTurn = m.Round, m.Turn
			a.sentAt.Store(0)
			a.moves++
			action := "cooperate"
			if a.moves%4 == 0 {
				action = "defect"
			}
			mv := map[string]any{"type": "move", "v": 0, "match_id": m.MatchID, "round": m.Round, "turn": m.Turn, "action": action}
			iter := [2]int64{m.Visible.Round, m.Visible.Iteration}
			send := func() {
				at := time.Now()
				a.sentAt.Store(at.UnixNano())
				r.sent(m.MatchID, iter, at)
				if a.write(mv) == nil {
					r.moves.Add(1)
				}
			}
			if think := r.think(a.i, a.moves); think > 0 {
				// off the reader, so the socket is read (and timed) meanwhile
				time.AfterFunc(think, send)
			} else {
				send()
			}
		case "event":
			switch m.Event.Type {
			case "action_private":
				// the mover's own record of its move (private to its seat until the end, §5.4)
				if at := a.sentAt.Load(); at != 0 && m.Event.Round == myRound && m.Event.Turn == myTurn {
					r.latency(now.Sub(time.Unix(0, at)), false, now)
				}
			case "iteration_end":
				// public: every seat of the table hears it, timed from the iteration's closing move
				if at, ok := r.sendOf(m.MatchID, [2]int64{m.Event.Round, m.Event.Iteration}); ok {
					r.latency(now.Sub(at), true, now)
				}
			}
		case "error":
			r.refused(m.Code)
		case "match_end":
			a.current = ""
			r.ended(a.i, m.MatchID)
			a.mu.Lock()
			_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), now.Add(time.Second))
			a.mu.Unlock()
			return nil
		}
	}
}

// write sends v as one text frame (one writer at a time: gorilla's rule).
func (a *loadAgent) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	_ = a.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return a.conn.WriteMessage(websocket.TextMessage, b)
}
