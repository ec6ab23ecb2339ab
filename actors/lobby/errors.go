package lobby

import "errors"

// The lobby's refusals. A refusal changes nothing in the queue. The text after "lobby: " is a
// code a product may put on its wire.
var (
	// ErrAlreadyQueued: Join of a key that holds an entry in the queue already (Rejoin takes the
	// entry over instead). The reply still carries the entry's place.
	ErrAlreadyQueued = errors.New("lobby: already_queued")
	// ErrAlreadyPlaying: the key is in a match of this queue's game (Config.Playing says so), so
	// it may neither queue nor leave: one active match per key per game.
	ErrAlreadyPlaying = errors.New("lobby: already_playing")
	// ErrNotQueued: Position of a key that holds no entry and is not playing.
	ErrNotQueued = errors.New("lobby: not_queued")
	// ErrUnknownQueue: no queue of that id was opened on this lobby.
	ErrUnknownQueue = errors.New("lobby: unknown_queue")
	// ErrQueueExists: Open of an id already open.
	ErrQueueExists = errors.New("lobby: queue_exists")
	// ErrBadEntrant: an entrant without a key.
	ErrBadEntrant = errors.New("lobby: bad_entrant")
	// ErrBadConfig: a Config Open refuses (the wrapping error says which field).
	ErrBadConfig = errors.New("lobby: bad_config")
	// ErrQueueFault: the queue panicked while handling the request; it restarted empty and every
	// entrant it held was reported to Config.OnDropped. The request did nothing.
	ErrQueueFault = errors.New("lobby: queue_fault")
	// ErrTimeout: the queue did not answer within the ask's bound (busy).
	ErrTimeout = errors.New("lobby: timeout")
	// ErrClosed: the lobby was shut down, or its queue is gone.
	ErrClosed = errors.New("lobby: closed")
)
