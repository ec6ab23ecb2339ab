package duel

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"arena/games"
)

var t0 = time.Date(2026, 11, 30, 3, 10, 0, 0, time.UTC)

var testGame = Game{ID: "warden.test", Format: "single", Label: "test"}

// setup is a valid two-seat Setup at stake S, seat 1 listed first.
func setup(stake int64) games.Setup {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	return games.Setup{Game: "warden.test", Round: "wm_1", Seed: seed, Start: t0, Seats: []games.Seat{
		{Seat: 1, Agent: "0xA", Name: "Ada", Entry: stake},
		{Seat: 2, Agent: "0xB", Name: "Bo", Entry: stake},
	}}
}

// TestCheckSetup: each refusal is bad_request with the game's label and the exact reason; the
// first fault in the documented order is the one named; a valid Setup (either seat listed
// first, empty Game and Format meaning the game's) passes.
func TestCheckSetup(t *testing.T) {
	tests := []struct {
		name string
		edit func(*games.Setup)
		want string // "" = accepted
	}{
		{"valid", func(*games.Setup) {}, ""},
		{"seat 2 listed first", func(s *games.Setup) { s.Seats[0], s.Seats[1] = s.Seats[1], s.Seats[0] }, ""},
		{"empty game and format", func(s *games.Setup) { s.Game, s.Format = "", "" }, ""},
		{"largest stake", func(s *games.Setup) { s.Seats[0].Entry, s.Seats[1].Entry = MaxStake, MaxStake }, ""},
		{"another game", func(s *games.Setup) { s.Game = "warden.dilemma" }, `test setup: game "warden.dilemma"`},
		{"another format", func(s *games.Setup) { s.Format = "double" }, `test setup: format "double"`},
		{"no match id", func(s *games.Setup) { s.Round = "" }, "test setup: round (the match id) is empty"},
		{"one seat", func(s *games.Setup) { s.Seats = s.Seats[:1] }, "test setup: 1 seats, want 2"},
		{"seats 1 and 3", func(s *games.Setup) { s.Seats[1].Seat = 3 }, "test setup: seats 1 and 3, want 1 and 2"},
		{"same agent", func(s *games.Setup) { s.Seats[1].Agent = "0xA" }, "test setup: two distinct agents required"},
		{"no agent", func(s *games.Setup) { s.Seats[0].Agent = "" }, "test setup: two distinct agents required"},
		{"unequal stakes", func(s *games.Setup) { s.Seats[1].Entry++ }, "test setup: stakes 1000000 and 1000001 differ (both stake the same, §2.1)"},
		{"zero stake", func(s *games.Setup) { s.Seats[0].Entry, s.Seats[1].Entry = 0, 0 }, "test setup: stake 0 out of range 1..4503599627370495"},
		{"stake above the pot's range", func(s *games.Setup) { s.Seats[0].Entry, s.Seats[1].Entry = MaxStake+1, MaxStake+1 },
			"test setup: stake 4503599627370496 out of range 1..4503599627370495"},
		{"first fault named", func(s *games.Setup) { s.Round, s.Seats[1].Agent = "", "0xA" }, "test setup: round (the match id) is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := setup(1_000_000)
			tt.edit(&s)
			err := testGame.CheckSetup(s)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ge *games.Error
			if !errors.As(err, &ge) || ge.Code != games.CodeBadRequest || ge.Msg != tt.want {
				t.Fatalf("got %#v, want bad_request %q", err, tt.want)
			}
		})
	}
}

// TestNoOptions: no options are empty bytes, null or a strict empty object; anything else, or
// anything canon refuses (a duplicate member), is an option.
func TestNoOptions(t *testing.T) {
	for raw, want := range map[string]bool{"": true, "{}": true, " {} ": true, `{"a":1}`: false, "[]": false, "null": true, "{": false, `{"a":1,"a":2}`: false} {
		if got := NoOptions(json.RawMessage(raw)); got != want {
			t.Errorf("NoOptions(%q) = %v, want %v", raw, got, want)
		}
	}
}

// TestOrDefault: a positive length wins; zero and negative give the default.
func TestOrDefault(t *testing.T) {
	if OrDefault(5*time.Second, time.Minute) != 5*time.Second || OrDefault(0, time.Minute) != time.Minute || OrDefault(-1, time.Minute) != time.Minute {
		t.Fatal("OrDefault")
	}
}

// TestSeedHash: the warden-games §3.2 test seed 00..1f.
func TestSeedHash(t *testing.T) {
	if got := SeedHash(setup(1).Seed); got != "sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd" {
		t.Fatalf("seed hash %s", got)
	}
}
