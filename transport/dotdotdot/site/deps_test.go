package site

import (
	"testing"
	"time"

	"arena/games/blitz"
	"arena/transport/door"
	"arena/transport/dotdotdot/join"
	"arena/transport/httpapi"
	"arena/transport/meta"
)

// backend is a Backend whose methods are never called: Deps only hands it to the doors.
type backend struct{ Backend }

// TestDepsReachEveryDoor: what a server hands the DOTDOTDOT site reaches each door that uses it:
// the one backend as desk, chat seat's desk, pages' source and ops tables; the game's Describer
// to the chat seat and its Narrator to the pages; the origin, drain and limiters to the desk and
// the chat seat alike (one budget per address on both); the HTTP limits, operator token, proxy
// setting, join door and instance card where each belongs.
func TestDepsReachEveryDoor(t *testing.T) {
	b := backend{}
	drain := make(chan struct{})
	reg := door.NewLimiter(door.Rate{Burst: 1, Every: time.Second}, door.LimiterOptions{})
	tab := door.NewLimiter(door.Rate{Burst: 2, Every: time.Second}, door.LimiterOptions{})
	jo := &join.Options{MaxBody: 7}
	d := Deps{Arena: b, Game: blitz.NewEngine(blitz.DefaultFees()), Join: jo, Origin: "https://arena.example",
		MaxBody: 4096, LongPoll: 20 * time.Second, OperatorToken: "op_0123456789abcdef", TrustProxyHost: true,
		Registrations: reg, Tables: tab, Forwarded: true, Drain: drain, Meta: meta.Options{Identity: meta.Identity{Name: "arena-x"}}}
	s := d.Site(httpapi.Place{HostNames: []string{"dot.example"}, ListenAddr: ":0"})
	o := s.Options
	if s.Hosts()[0] != "dot.example" || s.Addr() != ":0" {
		t.Errorf("place %+v", s.Place)
	}
	if o.Desk != Backend(b) || o.Ops != Backend(b) || o.Pages.Source != Backend(b) || o.Chat.Desk != Backend(b) {
		t.Error("a door's backend is not the arena")
	}
	if o.Chat.Describer == nil || o.Pages.Narrator == nil {
		t.Errorf("describer %v, narrator %v: want Blitz's", o.Chat.Describer, o.Pages.Narrator)
	}
	do := o.DeskOptions
	if do.Site != d.Origin || o.Pages.Site != d.Origin || o.Chat.Site != d.Origin {
		t.Errorf("origin desk %q pages %q chat %q", do.Site, o.Pages.Site, o.Chat.Site)
	}
	if do.Drain != (<-chan struct{})(drain) || o.Pages.Drain != (<-chan struct{})(drain) || o.Chat.Drain != (<-chan struct{})(drain) {
		t.Error("drain does not reach every door")
	}
	if do.Registrations != reg || do.Tables != tab || !do.Forwarded || o.Chat.Registrations != reg || o.Chat.Tables != tab || !o.Chat.Forwarded {
		t.Error("the desk and the chat seat do not share the limits")
	}
	if do.MaxBody != 4096 || o.Chat.MaxBody != 4096 || do.LongPoll != 20*time.Second || o.OpsOptions.Token != d.OperatorToken || !o.Chat.TrustProxyHost ||
		o.Chat.Feedback == nil || o.Join != jo || o.Meta.Identity.Name != "arena-x" {
		t.Errorf("options %+v", o)
	}
	// A game without words leaves them out.
	if o := (Deps{Arena: b}).Options(); o.Chat.Describer != nil || o.Pages.Narrator != nil || o.Join != nil {
		t.Errorf("no game: %+v", o)
	}
}
