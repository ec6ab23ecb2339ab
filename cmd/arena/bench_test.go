package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestBenchPlaysEveryBracketGame: `arena bench --game` takes every game of the manifest
// (engines) and the actors' countdown, and plays each to the end: every table completes. A game
// the bracket does not host is a usage error naming the choices.
func TestBenchPlaysEveryBracketGame(t *testing.T) {
	games := []string{"countdown"}
	for _, e := range engines() {
		games = append(games, e.Manifest().ID)
	}
	for _, g := range games {
		var out, errb bytes.Buffer
		code := benchMain(t.Context(), []string{"--game", g, "--tables", "2", "--move", "40ms", "--spread", "0s", "--timeout", "2m"}, &out, &errb)
		if code != 0 || !strings.Contains(out.String(), "tables=2 completed=2 ") {
			t.Errorf("bench --game %s: exit %d\n%s%s", g, code, out.String(), errb.String())
		}
	}
	slices.Sort(games)
	var out, errb bytes.Buffer
	if code := benchMain(t.Context(), []string{"--game", "nope"}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), `--game "nope": one of `+strings.Join(games, ", ")+"\n") {
		t.Errorf("bench --game nope: exit %d: %s", code, errb.String())
	}
}
