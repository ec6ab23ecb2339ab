package dotdotdot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/actors/anchors"
	concordium "arena/chain/ccd"
)

// recordingChain is a MintOptions.Chain that keeps every CallJob and answers none (so no mint
// is ever final and no table is handed "minted").
type recordingChain struct{ jobs chan anchors.CallJob }

func (c recordingChain) Call(j anchors.CallJob) { c.jobs <- j }

// A table that goes live asks the chain actor for one register per lent seat (§15
// badge.minted), each keyed by MintKey so that a Badge is minted once, owned by the house
// identity account, with the card at the origin MintOptions.Base names + LentCardPath and the
// card's SHA-256 as metadata_hash: the same bytes the site serves (Arena.LentCard).
func TestMintRegistersEachLentSeatAtTheGivenOrigin(t *testing.T) {
	chain := recordingChain{jobs: make(chan anchors.CallJob, 16)}
	owner := concordium.Address{7, 7, 7}
	h, _ := blitzHarness(t)
	h.stop()
	h.product.Mint = &MintOptions{Chain: chain, Owner: owner, Base: func() string { return "https://arena.example/dots" }}
	h.start()
	// Seat 1 is a Badge of its own (not lent: not minted); seats 2 and 3 are house seats.
	r, err := h.arena.JoinAgent(context.Background(), AgentJoin{Agent: joinAgentID, Name: "Ada",
		Endpoint: "https://ada.example/a2a", Table: "practice", Format: "short", Human: true})
	if err != nil {
		t.Fatal(err)
	}
	table, round := r.Table, r.Round

	got := map[int]anchors.CallJob{}
	timeout := time.After(waitMax)
	for len(got) < 2 {
		select {
		case j := <-chain.jobs:
			n, ok := strings.CutPrefix(j.Name, mintName)
			seat, err := strconv.Atoi(n)
			if !ok || err != nil || seat < 2 || seat > 3 || j.Table != table || j.Round != round || got[seat].Name != "" {
				t.Fatalf("call job %+v (round %s)", j, round)
			}
			got[seat] = j
		case <-timeout:
			t.Fatalf("%d register calls (%v) for 2 lent seats", len(got), got)
		}
	}
	for seat := 2; seat <= 3; seat++ {
		j := got[seat]
		lb, err := LentCard(h.key, h.arena.InstanceAgent(), table, seat, owner)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(j.Key, MintKey(lb.Agent.String())) || j.FinalTo == nil || j.Call.Receive != "CIS-8004.register" {
			t.Fatalf("seat %d: key %q final-to %v receive %q", seat, j.Key, j.FinalTo, j.Call.Receive)
		}
		reg := lb.Agent.Token
		if j.Call.Index != reg.Index || j.Call.Subindex != reg.Subindex {
			t.Fatalf("seat %d registers in <%d,%d>, its Badge is in <%d,%d>", seat, j.Call.Index, j.Call.Subindex, reg.Index, reg.Subindex)
		}
		p := j.Call.Parameter
		uri := "https://arena.example/dots/.well-known/lent/" + table + "/" + strconv.Itoa(seat) + ".json"
		want := binary.LittleEndian.AppendUint64([]byte{8}, lb.TokenID)
		want = append(want, owner[:]...)
		want = binary.LittleEndian.AppendUint32(want, uint32(len(uri)))
		sum := sha256.Sum256(lb.Card)
		want = append(append(want, uri...), sum[:]...)
		if !bytes.Equal(p, want) {
			t.Fatalf("seat %d's register parameter\n%x, want (uri %s)\n%x", seat, p, uri, want)
		}
		served, ok := h.arena.LentCard(table, seat)
		if !ok || !bytes.Equal(served, lb.Card) {
			t.Fatalf("seat %d: the site would serve %q (%v), the registration hashes %q", seat, served, ok, lb.Card)
		}
	}
}
