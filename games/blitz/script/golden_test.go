package script

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/games"
	"arena/games/blitz"
)

// -update rewrites, in each NAME.out.json, ONLY the fields that are pure engine output:
// commitments[].id, transcript_hash and events. Every other field (payouts, house, outcomes,
// paid, penalty, rungs, rejected, eliminated, accusations, bounty) is computed by hand from the
// spec in NAME.md and is never written by the test.
var update = flag.Bool("update", false, "rewrite engine-only fields (ids, transcript_hash, events) of golden outputs")

const goldenDir = "../testdata/scripts"

func goldenNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".out.json") {
			names = append(names, strings.TrimSuffix(filepath.Base(f), ".json"))
		}
	}
	if len(names) < 6 {
		t.Fatalf("found %d golden scripts in %s, want at least 6", len(names), goldenDir)
	}
	return names
}

// TestGolden plays every golden script and compares the output with NAME.out.json, field by
// field. The money and outcomes there are hand figures (NAME.md): a difference is a finding
// about the engine or the figures, to be settled from the spec, never by -update.
func TestGolden(t *testing.T) {
	for _, name := range goldenNames(t) {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(goldenDir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(goldenDir, name+".md")); err != nil {
				t.Errorf("no hand working %s.md beside the script: %v", name, err)
			}
			s, err := Parse(src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := Run(s)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			outPath := filepath.Join(goldenDir, name+".out.json")
			wantRaw, err := os.ReadFile(outPath)
			if err != nil {
				t.Fatal(err)
			}
			var want Output
			if err := json.Unmarshal(wantRaw, &want); err != nil {
				t.Fatalf("%s: %v", outPath, err)
			}
			if *update {
				mergeEngineFields(t, &want, got)
				b, err := json.MarshalIndent(&want, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(outPath, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			compareOutputs(t, &want, got)

			// The transcript hash is SHA-256 over JCS of the events up to the reveal (§11.5).
			if h, err := blitz.TranscriptHash(eventsThroughReveal(got)); err != nil || h != got.TranscriptHash {
				t.Errorf("transcript_hash %s, recomputed over the events through round.revealed %s (%v)", got.TranscriptHash, h, err)
			}
			// Replaying the same script gives the same bytes.
			again, err := Run(s)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(again)
			if !bytes.Equal(a, b) {
				t.Errorf("two runs of the same script differ")
			}
		})
	}
}

// mergeEngineFields copies the engine-only fields of got into want: commitment ids (only where
// the commitment's hand fields agree, so an -update never hides a disagreement), the hash and
// the events.
func mergeEngineFields(t *testing.T, want, got *Output) {
	t.Helper()
	for i := range want.Commitments {
		if i < len(got.Commitments) {
			w, g := want.Commitments[i], got.Commitments[i]
			w.ID = g.ID
			if w == g {
				want.Commitments[i].ID = g.ID
			}
		}
	}
	want.TranscriptHash = got.TranscriptHash
	want.Events = got.Events
}

func compareOutputs(t *testing.T, want, got *Output) {
	t.Helper()
	field := func(name string, w, g any) {
		wb, _ := json.Marshal(w)
		gb, _ := json.Marshal(g)
		if !bytes.Equal(wb, gb) {
			t.Errorf("%s:\n  want (hand) %s\n  got         %s", name, wb, gb)
		}
	}
	field("round", want.Round, got.Round)
	field("mole", want.Mole, got.Mole)
	field("task", want.Task, got.Task)
	field("rungs", want.Rungs, got.Rungs)
	field("payouts", want.Payouts, got.Payouts)
	field("house", want.House, got.House)
	if len(want.Commitments) != len(got.Commitments) {
		field("commitments", want.Commitments, got.Commitments)
	} else {
		for i := range want.Commitments {
			field("commitments["+want.Commitments[i].Ref+"]", want.Commitments[i], got.Commitments[i])
		}
	}
	field("rejected", want.Rejected, got.Rejected)
	field("eliminated", want.Eliminated, got.Eliminated)
	field("accusations", want.Accusations, got.Accusations)
	field("bounty", want.Bounty, got.Bounty)
	field("transcript_hash", want.TranscriptHash, got.TranscriptHash)
	if len(want.Events) != len(got.Events) {
		t.Errorf("events: want %d, got %d (run with -update after checking them)", len(want.Events), len(got.Events))
	} else {
		bad := 0
		for i := range want.Events {
			wb, _ := json.Marshal(want.Events[i])
			gb, _ := json.Marshal(got.Events[i])
			if !bytes.Equal(wb, gb) {
				if bad++; bad <= 3 {
					t.Errorf("events[%d] (%s):\n  want %s\n  got  %s", i, want.Events[i].Type, wb, gb)
				}
			}
		}
		if bad > 3 {
			t.Errorf("... and %d more events differ", bad-3)
		}
	}
}

// eventsThroughReveal is the event list up to and including round.revealed.
func eventsThroughReveal(o *Output) []games.Event {
	for i, e := range o.Events {
		if e.Type == "round.revealed" {
			return o.Events[:i+1]
		}
	}
	return o.Events
}
