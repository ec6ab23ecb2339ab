package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// Anchorer takes a table's anchor requests (games.Step.Anchors, §5.5) to the chain actor. Anchor
// must return at once (a Send): play never waits on the chain. When the chain actor knows the
// transaction hash (it signs locally, so at once) it sends *Anchored to job.ReplyTo; the table
// turns that into an "anchored" games.Input, which appends the anchor.<kind> event. A job whose
// reply arrives while its table is down is lost from the transcript (the chain queue keeps it).
type Anchorer interface {
	Anchor(job AnchorJob)
}

// AnchorJob is one anchor request of one round.
type AnchorJob struct {
	Table   string
	Round   string
	Request games.AnchorRequest
	ReplyTo *actor.PID // the table actor
}

// Anchored answers an AnchorJob: Tx is the transaction hash (hex); Err is set instead when the
// chain actor refused the job, and the table then records nothing.
type Anchored struct {
	Table   string
	Round   string
	Request games.AnchorRequest
	Tx      string
	Err     string
}

// NopAnchorer drops every job: the default when no chain actor is wired (tests, practice).
type NopAnchorer struct{}

// Anchor implements Anchorer by doing nothing.
func (NopAnchorer) Anchor(AnchorJob) {}
