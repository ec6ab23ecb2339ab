package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"sync"
	"time"

	"arena/actors/cluster"
	"arena/games"
	"arena/transport/breakroom/live"
)

// Break Room's live figures (GET /v0/live and its stream) on a member of a cluster are every
// member's: each member's own figures (its queues' waiting agents, its running tables) asked of it
// over the remote (livePath) and summed with this member's, so no member passes its slice off as
// the whole. A member that does not answer within liveWait (killed, restarting) adds nothing: its
// tables are not playing and its waiting agents cannot be seated meanwhile.

const (
	// livePath answers this member's own live figures (liveWire JSON) for another's /v0/live.
	livePath = clusterPath + "live"
	// liveWait bounds one member's answer of its figures.
	liveWait = 2 * time.Second
	// liveRefresh is how often a live stream re-reads the figures when this member's own do not
	// change: the others' changes are not pushed across members, so they show within this.
	liveRefresh = 2 * time.Second
)

// liveWire is live.Figures as one member sends them to another (the tables' start instants kept:
// /v0/live lists the newest first across members).
type liveWire struct {
	Games  []live.Game `json:"games"`
	Tables []liveTable `json:"tables"`
}

type liveTable struct {
	live.Table
	Started time.Time `json:"started"`
}

func wireOf(f live.Figures) liveWire {
	w := liveWire{Games: f.Games}
	for _, t := range f.Tables {
		w.Tables = append(w.Tables, liveTable{Table: t, Started: t.StartedAt})
	}
	return w
}

// mergeFigures adds each of more to f: a game's counts summed under its id (the games in f's
// order, then any f lacks in the order first seen), every table listed.
func mergeFigures(f live.Figures, more ...liveWire) live.Figures {
	out := live.Figures{Games: append([]live.Game(nil), f.Games...), Tables: append([]live.Table(nil), f.Tables...)}
	at := map[string]int{}
	for i, g := range out.Games {
		at[g.ID] = i
	}
	for _, w := range more {
		for _, g := range w.Games {
			i, ok := at[g.ID]
			if !ok {
				at[g.ID] = len(out.Games)
				out.Games = append(out.Games, live.Game{ID: g.ID})
				i = len(out.Games) - 1
			}
			c := &out.Games[i].Counts
			c.Waiting += g.Waiting
			c.Playing += g.Playing
			c.House += g.House
			c.Tables += g.Tables
		}
		for _, t := range w.Tables {
			t.Table.StartedAt = t.Started
			out.Tables = append(out.Tables, t.Table)
		}
	}
	return out
}

// clusterLive is live.Backend for a member: the figures of every member (mergeFigures), the
// change signal of this member's own or liveRefresh, whichever first; a match's feed and a game's
// words are this member's (a match on another member is not followed from here).
type clusterLive struct {
	local live.Backend
	m     *cluster.Member
}

var _ live.Backend = clusterLive{}

func (c clusterLive) Live(ctx context.Context) (live.Figures, error) {
	f, err := c.local.Live(ctx)
	if err != nil {
		return f, err
	}
	var others []string
	for _, x := range c.m.Members() {
		if x.Address != c.m.Address() {
			others = append(others, x.Address)
		}
	}
	got := make([]liveWire, len(others))
	var wg sync.WaitGroup
	for i, a := range others {
		wg.Go(func() {
			if w, err := askLive(c.m, a); err == nil {
				got[i] = w
			}
		})
	}
	wg.Wait()
	return mergeFigures(f, got...), nil
}

func (c clusterLive) LiveChanged() <-chan struct{} {
	ch := make(chan struct{})
	local := c.local.LiveChanged()
	go func() { // ends within liveRefresh
		t := time.NewTimer(liveRefresh)
		defer t.Stop()
		select {
		case <-local:
		case <-t.C:
		}
		close(ch)
	}()
	return ch
}

func (c clusterLive) Follow(ctx context.Context, id string, buffer int) (live.Feed, error) {
	return c.local.Follow(ctx, id, buffer)
}

func (c clusterLive) Narrator(game string) games.Narrator { return c.local.Narrator(game) }

// askLive asks the member at address for its own live figures (livePath).
func askLive(m *cluster.Member, address string) (liveWire, error) {
	req, err := http.NewRequest(http.MethodGet, livePath, nil)
	if err != nil {
		return liveWire{}, err
	}
	dump, err := httputil.DumpRequest(req, false)
	if err != nil {
		return liveWire{}, err
	}
	raw, err := m.Forward(address, dump, liveWait)
	if err != nil {
		return liveWire{}, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), req)
	if err != nil {
		return liveWire{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return liveWire{}, fmt.Errorf("live figures: %d", resp.StatusCode)
	}
	var w liveWire
	err = json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&w)
	return w, err
}
