package main

import (
	"log/slog"
	"net"
	"strings"
	"testing"

	"arena/config"
	brauction "arena/games/breakroom/auction"
	brdilemma "arena/games/breakroom/dilemma"
)

// TestBartenderQuotesTheDilemmaRules: the product `arena serve` makes carries the Dilemma's rules
// text, so the bartender answers a rules question with the rules' own words, not only the
// address of the rules page.
func TestBartenderQuotesTheDilemmaRules(t *testing.T) {
	side, err := newBreakroom(config.Config{}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	got := side.room.Answer(brdilemma.GameID, "Bartender, how many points when both cooperate?")
	want := "Both cooperate: 3 points each. Both defect: 1 point each. A defector against a cooperator scores 5 points, the cooperator 0"
	if !strings.HasPrefix(got, want) {
		t.Errorf("the bartender answered %q, want the Points paragraph (%q…)", got, want)
	}
	if !strings.Contains(brdilemma.RulesText, want) {
		t.Errorf("the Dilemma's rules text does not hold %q", want)
	}
	got = side.room.Answer(brdilemma.GameID, "How do I come back after sitting out?")
	if !strings.Contains(got, "At 3 strikes in a row your seat sits out") {
		t.Errorf("the bartender answered %q about sitting out", got)
	}
}

// TestBartenderQuotesTheAuctionRules: the Auction's rules text is the product's too, so the
// bartender answers an Auction rules question with its own words.
func TestBartenderQuotesTheAuctionRules(t *testing.T) {
	side, err := newBreakroom(config.Config{}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	got := side.room.Answer(brauction.GameID, "Bartender, how are equal highest bids broken?")
	want := "The highest bid wins the lot and pays exactly its bid (first price)"
	if !strings.HasPrefix(got, want) || !strings.Contains(brauction.RulesText, want) {
		t.Errorf("the bartender answered %q, want the Who wins paragraph (%q…)", got, want)
	}
}
