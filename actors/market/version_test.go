package market

import (
	"context"
	"errors"
	"testing"

	"arena/actors"
)

// Version is the State Version of what is durable: it follows each landed write, stays put on
// a write that failed (whose request the State no longer holds), and a new incarnation reads it
// back from the replayed records before its first answer.
func TestVersionIsWhatIsDurable(t *testing.T) {
	sys, store := newSystem(t), newMemStore()
	m := start(t, sys, store, actors.NewFakeClock(t0), "market-version")
	do(t, m, "owner-a", `{"protocolVersion":2,"action":"readStanding"}`) // the records have replayed
	if v := m.Version(); v != 0 {
		t.Fatalf("Version %d on an empty market", v)
	}
	if r := do(t, m, "owner-a", enroll); r["stateVersion"] != 1.0 || m.Version() != 1 {
		t.Fatalf("after an enrolment answered %v: Version %d", r["stateVersion"], m.Version())
	}
	store.setFail(true)
	if _, err := m.Do(context.Background(), "owner-b", []byte(enroll)); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a failed write answered %v", err)
	}
	if v := m.Version(); v != 1 {
		t.Fatalf("Version %d after a failed write, want 1", v)
	}
	store.setFail(false)
	if r := do(t, m, "owner-b", enroll); r["stateVersion"] != 2.0 || m.Version() != 2 {
		t.Fatalf("the retried enrolment answered %v: Version %d", r["stateVersion"], m.Version())
	}
	m2 := start(t, newSystem(t), store, actors.NewFakeClock(t0), "market-version-2")
	do(t, m2, "owner-a", `{"protocolVersion":2,"action":"readStanding"}`)
	if v := m2.Version(); v != 2 {
		t.Fatalf("a new incarnation's Version %d, want 2", v)
	}
}
