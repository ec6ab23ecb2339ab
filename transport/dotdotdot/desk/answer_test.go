package desk

import (
	"errors"
	"testing"

	"arena/transport/door"
)

func TestDecodeAnswer(t *testing.T) {
	a, err := DecodeAnswer([]byte(` {"round":"T-12","turn":3,"phase":"talk","exchange":2,"messages":[]} `))
	if err != nil || a != (AnswerEcho{Round: "T-12", Turn: 3, Phase: "talk", Exchange: 2}) {
		t.Fatalf("got %+v, %v", a, err)
	}
	a, err = DecodeAnswer([]byte(`{"round":"T-1","turn":0,"phase":"scouting"}`))
	if err != nil || a.Exchange != 0 || a.Phase != "scouting" {
		t.Fatalf("scouting answer: %+v, %v", a, err)
	}
}

// An echoed number is an integer's digits: -0, 0.0 and 1e0 are refused as 1.5 is, with
// bad_request, whatever encoding/json would make of them.
func TestDecodeAnswerRefusesNonIntegerForms(t *testing.T) {
	for _, in := range []string{
		`{"round":"T-1","turn":-0,"phase":"scouting"}`,
		`{"round":"T-1","turn":0.0,"phase":"scouting"}`,
		`{"round":"T-1","turn":1e0,"phase":"talk"}`,
		`{"round":"T-1","turn":1,"phase":"talk","exchange":-0}`,
	} {
		_, err := DecodeAnswer([]byte(in))
		var r *door.Refusal
		if !errors.As(err, &r) || r.Code != door.CodeBadRequest {
			t.Errorf("%s: %v, want bad_request", in, err)
		}
	}
}

// FuzzDecodeAnswer: any bytes give either an echo that re-checks or a bad_request refusal;
// never a panic.
func FuzzDecodeAnswer(f *testing.F) {
	f.Add([]byte(`{"round":"T-1","turn":1,"phase":"commit"}`))
	f.Add([]byte(`{"round":"T-1","turn":1,"phase":"talk","exchange":3,"x":{"y":[1,2,{"z":null}]}}`))
	f.Add([]byte(`{"round":"T-1","Round":"T-2"}`))
	f.Add([]byte("\x00"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := DecodeAnswer(raw)
		if err != nil {
			var r *door.Refusal
			if !errors.As(err, &r) || r.Code != door.CodeBadRequest {
				t.Fatalf("error %v is not a bad_request refusal", err)
			}
			return
		}
		if !roundID.MatchString(a.Round) || a.Turn < 0 || a.Phase == "" || a.Exchange < 0 {
			t.Fatalf("accepted an invalid echo %+v from %q", a, raw)
		}
	})
}
