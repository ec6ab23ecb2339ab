package lobby

// Messages of the supervisor and the queues. Replies carry the refusal in a field; a bare error
// answered (ErrQueueFault) is the fault guard's.

// openQueue asks the supervisor to spawn the queue of id (its state is already in Lobby.queues);
// answered with *openedReply.
type openQueue struct{ id string }

type openedReply struct{ err error }

// joinQueue queues e (Join), or takes over its key's entry when replace (Rejoin); answered with
// *queuedReply.
type joinQueue struct {
	e       Entrant
	replace bool
}

// leaveQueue takes key's entry out; answered with *leftReply.
type leaveQueue struct{ key string }

// getPosition asks key's place; answered with *queuedReply.
type getPosition struct{ key string }

// getInfo asks the queue's counts; answered with *Info.
type getInfo struct{}

type queuedReply struct {
	q   Queued
	err error
}

type leftReply struct {
	was bool
	err error
}

// timerFired is the queue's one timer, tagged with the incarnation and generation that armed
// it: any other is stale and dropped.
type timerFired struct{ inc, gen uint64 }
