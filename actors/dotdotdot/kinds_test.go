package dotdotdot

import (
	"testing"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// The catalogue states each kind's rules: scouting per §5.2 (90 s default, 60 s rated, 30 s
// badge-gated), who sits, stakes, rated, escrow.
func TestTableKindsCatalogue(t *testing.T) {
	want := map[string]struct {
		scouting int
		sits     string
		stakes   string
		rated    bool
		escrow   bool
		chain    string
	}{
		KindPractice: {90, SitOnePlayer, StakesNotional, false, false, ChainRegister},
		KindWalkin:   {90, SitWalkins, StakesNotional, false, false, ChainRegister},
		KindHosted:   {90, SitWalkins, StakesNone, false, false, ChainRegister},
		KindFree:     {90, SitAnyone, StakesNone, false, false, ChainOpening},
		KindSolo:     {90, SitOnePlayer, StakesNone, false, false, ChainRegister},
		KindShowcase: {90, SitInHouse, StakesNone, false, false, ChainRegister},
		KindPaid:     {90, SitPaidAgents, StakesCCD, false, true, ChainEscrow},
		KindRated:    {60, SitBadges, StakesNone, true, false, ChainRegister},
		KindGated:    {30, SitRatedBadge, StakesNone, false, false, ChainRegister},
	}
	ks := TableKinds()
	if len(ks) != len(want) {
		t.Fatalf("%d kinds, want %d", len(ks), len(want))
	}
	for _, k := range ks {
		w, ok := want[k.Kind]
		if !ok {
			t.Fatalf("kind %q not expected", k.Kind)
		}
		if k.ScoutingS != w.scouting || k.Scouting != time.Duration(w.scouting)*time.Second || k.Sits != w.sits ||
			k.Stakes != w.stakes || k.Rated != w.rated || k.Escrow != w.escrow || k.Chain != w.chain || k.Title == "" || k.Anchors == "" || k.Join == "" || k.Who == "" {
			t.Errorf("kind %s: %+v", k.Kind, k)
		}
		if got, ok := KindOf(k.Kind); !ok || got.Kind != k.Kind {
			t.Errorf("KindOf(%s) = %+v %v", k.Kind, got, ok)
		}
	}
	if _, ok := KindOf("marathon"); ok {
		t.Error("an unknown kind was found")
	}
	ks[0].Title = "changed"
	if TableKinds()[0].Title == "changed" {
		t.Error("TableKinds handed out the catalogue itself")
	}
}

// On the agent clock a rated table scouts 60 s and a badge-gated 30 s; every other kind keeps
// the configured scouting (90 s by default), a shorter configured scouting is kept, and a
// chat-clock table scouts for one chat move.
func TestScoutingByKind(t *testing.T) {
	agent := blitz.AgentPace()
	quick := games.Pace{Name: "agent", Steps: map[string]time.Duration{"scouting": 20 * time.Second}}
	chat := blitz.ChatPace()
	for _, c := range []struct {
		kind string
		pace games.Pace
		want time.Duration
	}{
		{KindPractice, agent, 90 * time.Second},
		{KindFree, agent, 90 * time.Second},
		{KindRated, agent, 60 * time.Second},
		{KindGated, agent, 30 * time.Second},
		{KindRated, games.Pace{}, 60 * time.Second},
		{KindGated, quick, 20 * time.Second},
		{KindRated, chat, chat.Step("scouting")},
		{"marathon", agent, 90 * time.Second},
	} {
		spec := setScouting(actors.TableSpec{Game: walkinGame, Kind: c.kind, Pace: c.pace})
		got := spec.Pace.Step("scouting")
		if got <= 0 {
			got = agent.Step("scouting")
		}
		if got != c.want {
			t.Errorf("%s on %q: scouting %v, want %v", c.kind, c.pace.Name, got, c.want)
		}
	}
	// The configured clock is not changed under the caller.
	setScouting(actors.TableSpec{Game: walkinGame, Kind: KindGated, Pace: agent})
	if agent.Step("scouting") != 90*time.Second {
		t.Fatal("setScouting wrote into the caller's steps")
	}
}

// kindSeat is one seat for admit: a house seat (lent, channel house), a walk-in (lent,
// mailbox), or a registered agent's Badge (its own key, A2A).
func kindSeat(n int, kind, agent, owner string) actors.SeatSpec {
	s := actors.SeatSpec{Seat: games.Seat{Seat: n, Agent: agent, Name: agent}, Kind: kind}
	o := blitz.SeatOptions{Kind: kind, Owner: owner}
	switch kind {
	case "house":
		s.Channel, s.Lent = actors.ChannelHouse, true
	case "walkin":
		s.Channel, s.Lent, o.Walkin, o.Human = ChannelMailbox, true, true, true
	default:
		s.Channel = ChannelA2A
	}
	s.Seat.Options = o.JSON()
	return s
}

// Who may sit, kind by kind (bad_table otherwise).
func TestAdmitByKind(t *testing.T) {
	house := func(n int) actors.SeatSpec { return kindSeat(n, "house", "", "") }
	walkin := func(n int) actors.SeatSpec { return kindSeat(n, "walkin", "", "") }
	badge := func(n int, id, owner string) actors.SeatSpec { return kindSeat(n, "byo", id, owner) }
	inHouseBadge := func(n int) actors.SeatSpec { return kindSeat(n, "arena", "ccd:c/cis-2:Roster", "") }
	ots := func(n int) actors.SeatSpec { return kindSeat(n, "ots", "ccd:c/cis-2:Ots", "ccd:c:OtsOwner") }
	rounds := map[string]int{"ccd:c/cis-2:Rated": 3, "ccd:c/cis-2:Green": 2}
	rated := func(agent string) int { return rounds[agent] }
	for _, c := range []struct {
		name  string
		kind  string
		seats []actors.SeatSpec
		ok    bool
	}{
		{"practice: a walk-in and house", KindPractice, []actors.SeatSpec{walkin(1), house(2), house(3)}, true},
		{"practice: house only (the bench)", KindPractice, []actors.SeatSpec{house(1), house(2), house(3)}, true},
		{"practice: two players", KindPractice, []actors.SeatSpec{walkin(1), badge(2, "ccd:c/cis-2:B", ""), house(3)}, false},
		{"solo: a Badge and house", KindSolo, []actors.SeatSpec{badge(1, "ccd:c/cis-2:B", ""), house(2), house(3)}, true},
		{"solo: two walk-ins", KindSolo, []actors.SeatSpec{walkin(1), walkin(2), house(3)}, false},
		{"walkin: walk-ins and house", KindWalkin, []actors.SeatSpec{walkin(1), walkin(2), house(3)}, true},
		{"walkin: a Badge", KindWalkin, []actors.SeatSpec{walkin(1), badge(2, "ccd:c/cis-2:B", ""), house(3)}, false},
		{"hosted: a Badge", KindHosted, []actors.SeatSpec{badge(1, "ccd:c/cis-2:B", ""), house(2), house(3)}, false},
		{"free: anyone", KindFree, []actors.SeatSpec{walkin(1), badge(2, "ccd:c/cis-2:B", ""), ots(3)}, true},
		{"open: Badges and house", KindPaid, []actors.SeatSpec{badge(1, "ccd:c/cis-2:B", "ccd:c:O"), house(2), house(3)}, true},
		{"open: a walk-in", KindPaid, []actors.SeatSpec{walkin(1), house(2), house(3)}, false},
		{"showcase: in-house only", KindShowcase, []actors.SeatSpec{house(1), inHouseBadge(2), house(3)}, true},
		{"showcase: a player's Badge", KindShowcase, []actors.SeatSpec{house(1), badge(2, "ccd:c/cis-2:B", ""), house(3)}, false},
		{"showcase: an off-the-shelf seat", KindShowcase, []actors.SeatSpec{house(1), ots(2), house(3)}, false},
		{"rated: Badges of two owners and house", KindRated, []actors.SeatSpec{badge(1, "ccd:c/cis-2:A", "ccd:c:O1"), badge(2, "ccd:c/cis-2:B", "ccd:c:O2"), house(3)}, true},
		{"rated: one owner twice", KindRated, []actors.SeatSpec{badge(1, "ccd:c/cis-2:A", "ccd:c:O1"), badge(2, "ccd:c/cis-2:B", "ccd:c:O1"), house(3)}, false},
		{"rated: a walk-in's lent Badge", KindRated, []actors.SeatSpec{walkin(1), badge(2, "ccd:c/cis-2:B", "ccd:c:O2"), house(3)}, false},
		{"gated: a Badge with three rated rounds", KindGated, []actors.SeatSpec{badge(1, "ccd:c/cis-2:Rated", "ccd:c:O1"), house(2), house(3)}, true},
		{"gated: a Badge with two", KindGated, []actors.SeatSpec{badge(1, "ccd:c/cis-2:Green", "ccd:c:O1"), house(2), house(3)}, false},
		{"gated: a walk-in", KindGated, []actors.SeatSpec{walkin(1), house(2), house(3)}, false},
		{"an unknown kind is not checked", "marathon", []actors.SeatSpec{walkin(1), walkin(2), walkin(3)}, true},
	} {
		err := admit(actors.TableSpec{Game: walkinGame, Kind: c.kind, Seats: c.seats}, rated)
		if c.ok && err != nil {
			t.Errorf("%s: refused: %v", c.name, err)
		}
		if !c.ok && !isCode(err, CodeBadTable) {
			t.Errorf("%s: %v, want bad_table", c.name, err)
		}
	}
}
