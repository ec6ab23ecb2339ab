package a2a

import (
	"testing"

	"arena/games/canon"
)

// FuzzAnswerIn: whatever bytes a response carries, answerIn never panics, and an answer it
// finds is an object whose bytes pass canon's strict checks as they stand (no re-encoding).
func FuzzAnswerIn(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":"1","result":{"kind":"message","parts":[{"kind":"data","data":{"round":"T-1"}}]}}`,
		`{"jsonrpc":"2.0","id":"1","result":{"kind":"task","status":{"state":"completed","message":{"parts":[{"kind":"text","text":"x"},{"kind":"data","data":{"a":1}}]}},"artifacts":[{"parts":[{"kind":"data","data":{"b":2}}]}]}}`,
		`{"result":{"parts":[{"kind":"data","data":{"amount":1,"amount":2}}]}}`,
		`{"result":{"parts":[{"kind":"data","data":{"text":"\ud800"}}]}}`,
		"{\"result\":{\"parts\":[{\"kind\":\"data\",\"data\":{\"text\":\"\xff\"}}]}}",
		`{"result":{"artifacts":[null,7,{"parts":"x"}]}}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, task bool) {
		v, err := answerIn(body, task)
		if err != nil {
			return
		}
		if v.Kind() != canon.Object {
			t.Fatalf("an answer that is no object: %s", v.Raw())
		}
		if _, err := canon.Canonical(v.Raw()); err != nil {
			t.Fatalf("an answer that fails the strict checks: %s: %v", v.Raw(), err)
		}
	})
}
