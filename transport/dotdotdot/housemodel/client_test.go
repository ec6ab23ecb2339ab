package housemodel

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/games/blitz"
	"arena/transport/dotdotdot/housemodel/modelstub"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %.200s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %.200s", err, b)
	}
	return reflect.DeepEqual(x, y)
}

// TestThinkRecordedPromptAndAnswer: for the recorded envelope and playbook the client sends the
// recorded request (testdata/request.json: the model, the system prompt with the playbook's words
// and dials, the envelope byte for byte as the user message, the JSON-object answer format) to
// <url>/chat/completions with the bearer key, and returns the recorded answer's content as it
// came.
func TestThinkRecordedPromptAndAnswer(t *testing.T) {
	env, pb, want, resp := readFixture(t, "envelope.json"), readFixture(t, "playbook.json"), readFixture(t, "request.json"), readFixture(t, "response.json")
	stub := modelstub.Start(func(modelstub.Request) modelstub.Reply { return modelstub.Reply{Raw: resp} })
	defer stub.Close()
	c, err := New(Config{URL: stub.URL, Model: "house-small", Key: "sk-fixture"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Think(context.Background(), env, pb)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(resp, &r); err != nil || string(got) != r.Choices[0].Message.Content {
		t.Fatalf("content %s, want the recorded %q (%v)", got, r.Choices[0].Message.Content, err)
	}
	reqs := stub.Requests()
	if len(reqs) != 1 || reqs[0].Auth != "Bearer sk-fixture" {
		t.Fatalf("requests %+v", reqs)
	}
	if !jsonEqual(t, reqs[0].Body, want) {
		t.Fatalf("request sent:\n%s\nwant testdata/request.json:\n%s", reqs[0].Body, want)
	}
	if reqs[0].Messages[1].Content != string(env) {
		t.Fatal("the user message is not the envelope byte for byte")
	}
	sys := reqs[0].Messages[0].Content
	if !strings.Contains(sys, "offer small deals to the quiet seats") || !strings.Contains(sys, "boldness 3") ||
		!strings.Contains(sys, "trust 6") || !strings.Contains(sys, "chatter 8") || strings.Contains(sys, MolePlaybook) {
		t.Fatalf("system prompt:\n%s", sys)
	}
}

// TestMessagesGiveTheMolePlaybookToTheMoleOnly: the mole playbook is in the system prompt exactly
// when the envelope's state.me.role is "mole" (§9); the default playbook is described as none
// written, with every dial at its default.
func TestMessagesGiveTheMolePlaybookToTheMoleOnly(t *testing.T) {
	env := readFixture(t, "envelope.json")
	mole := []byte(strings.Replace(string(env), `"role":"player"`, `"role":"mole"`, 1))
	if string(mole) == string(env) {
		t.Fatal("the fixture envelope has no role")
	}
	for _, c := range []struct {
		env  []byte
		mole bool
	}{{env, false}, {mole, true}} {
		msgs, err := Messages(c.env, nil)
		if err != nil {
			t.Fatal(err)
		}
		sys := msgs[0].Content
		if strings.Contains(sys, MolePlaybook) != c.mole || !strings.Contains(sys, "none written") ||
			!strings.Contains(sys, "boldness 5") || !strings.Contains(sys, "trust 5") || !strings.Contains(sys, "chatter 5") {
			t.Fatalf("mole %v: system prompt:\n%s", c.mole, sys)
		}
	}
}

// TestThinkFailures: each way the endpoint fails is an error Think names, never an answer: a
// refusal (message.refusal, or finish_reason content_filter), an answer cut off at the token
// limit, empty content, no choice, a body that is not a response, an error status, a body over
// the cap; a slow answer past the caller's deadline and a model that never answers return the
// context's error once the deadline passes. Content that is not JSON is returned as it came:
// refusing it is the arena's strict reader's job, not the client's.
func TestThinkFailures(t *testing.T) {
	env, pb := readFixture(t, "envelope.json"), readFixture(t, "playbook.json")
	big := `{"choices":[{"index":0,"message":{"role":"assistant","content":"` + strings.Repeat("x", 2048) + `"},"finish_reason":"stop"}]}`
	cases := []struct {
		name    string
		reply   modelstub.Reply
		wait    time.Duration
		want    error
		content string
	}{
		{"refusal", modelstub.Reply{Refusal: "I can't help with that."}, 0, ErrRefused, ""},
		{"content filter", modelstub.Reply{Content: "{}", Finish: "content_filter"}, 0, ErrRefused, ""},
		{"cut off", modelstub.Reply{Content: `{"round":"T-1","tu`, Finish: "length"}, 0, ErrNoAnswer, ""},
		{"empty", modelstub.Reply{Content: " \n"}, 0, ErrNoAnswer, ""},
		{"no choice", modelstub.Reply{Raw: []byte(`{"id":"x","object":"chat.completion","choices":[]}`)}, 0, ErrNoAnswer, ""},
		{"not a response", modelstub.Reply{Raw: []byte("<html>502 Bad Gateway</html>")}, 0, ErrEndpoint, ""},
		{"error status", modelstub.Reply{Status: 503, Raw: []byte(`{"error":{"message":"overloaded","type":"server_error"}}`)}, 0, ErrEndpoint, ""},
		{"over the cap", modelstub.Reply{Raw: []byte(big)}, 0, ErrTooLarge, ""},
		{"slow", modelstub.Reply{Content: "{}", Delay: time.Minute}, 50 * time.Millisecond, context.DeadlineExceeded, ""},
		{"timeout", modelstub.Reply{Hang: true}, 50 * time.Millisecond, context.DeadlineExceeded, ""},
		{"malformed JSON", modelstub.Reply{Content: `Sure! {"round":"T-1",}`}, 0, nil, `Sure! {"round":"T-1",}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stub := modelstub.Start(func(modelstub.Request) modelstub.Reply { return c.reply })
			defer stub.Close()
			cl, err := New(Config{URL: stub.URL, Model: "house-small", MaxBody: 1024})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if c.wait > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, c.wait)
				defer cancel()
			}
			got, err := cl.Think(ctx, env, pb)
			if !errors.Is(err, c.want) || string(got) != c.content {
				t.Fatalf("Think = %q, %v; want %q, %v", got, err, c.content, c.want)
			}
			if reqs := stub.Requests(); len(reqs) != 1 || reqs[0].Auth != "" {
				t.Fatalf("requests %+v (no key configured: no Authorization header)", reqs)
			}
		})
	}
}

// TestNewRefusesABadConfig: the URL must be absolute http(s), and a model named.
func TestNewRefusesABadConfig(t *testing.T) {
	for _, c := range []Config{{URL: "", Model: "m"}, {URL: "models.example/v1", Model: "m"}, {URL: "ftp://models.example/v1", Model: "m"},
		{URL: "https:///v1", Model: "m"}, {URL: "https://models.example/v1", Model: " "}} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) took it", c)
		}
	}
	if _, err := New(Config{URL: "https://models.example/v1/", Model: "m"}); err != nil {
		t.Fatal(err)
	}
}

// TestMessagesRefuseBadInput: an envelope that is not a JSON object with a phase, and a playbook
// the strict reader refuses, build no prompt.
func TestMessagesRefuseBadInput(t *testing.T) {
	env := readFixture(t, "envelope.json")
	for _, e := range []string{"", "[]", `{"phase":""}`, `{"round":"T-1"}`, "not json"} {
		if _, err := Messages([]byte(e), nil); err == nil {
			t.Errorf("envelope %q took", e)
		}
	}
	for _, pb := range []string{`{"text":1}`, `{"dials":{"boldness":11}}`, `{"Text":"x"}`, `{"text":"a","text":"b"}`, `{"extra":true}`, `[]`} {
		if _, err := Messages(env, []byte(pb)); err == nil {
			t.Errorf("playbook %s took", pb)
		}
	}
}

// FuzzMessages: no envelope or playbook bytes panic the prompt builder, and a playbook it takes
// is one blitz.ParsePlaybook takes.
func FuzzMessages(f *testing.F) {
	f.Add([]byte(`{"phase":"talk","state":{"me":{"role":"mole"}}}`), []byte(`{"text":"x","dials":{"trust":3}}`))
	f.Add([]byte(`{"phase":"commit"}`), []byte(`null`))
	f.Add([]byte(`{"phase":1}`), []byte(`{"dials":null}`))
	f.Fuzz(func(t *testing.T, env, pb []byte) {
		if _, err := Messages(env, pb); err == nil && len(pb) > 0 && string(pb) != "null" {
			if _, perr := blitz.ParsePlaybook(pb); perr != nil {
				t.Fatalf("Messages took playbook %q that ParsePlaybook refuses: %v", pb, perr)
			}
		}
	})
}

// BenchmarkThinkLocalStub is one move's round trip to a local chat-completions endpoint: the
// prompt built from the recorded envelope and playbook, the request, the recorded answer read.
func BenchmarkThinkLocalStub(b *testing.B) {
	env, pb := readFixture(b, "envelope.json"), readFixture(b, "playbook.json")
	resp := readFixture(b, "response.json")
	stub := modelstub.Start(func(modelstub.Request) modelstub.Reply { return modelstub.Reply{Raw: resp} })
	defer stub.Close()
	c, err := New(Config{URL: stub.URL, Model: "house-small"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Think(ctx, env, pb); err != nil {
			b.Fatal(err)
		}
	}
}
