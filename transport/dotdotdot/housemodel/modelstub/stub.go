// Package modelstub is a local model for tests: an HTTP server that speaks the OpenAI-compatible
// chat-completions wire (POST /v1/chat/completions) as the house model's endpoint does, and
// answers each request as the test says: a JSON answer, a slow one, malformed content, a
// refusal, a body that is not a response, an error status, or no answer at all until the
// caller gives up.
package modelstub

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Request is one chat-completions request as the stub read it.
type Request struct {
	Auth string          // the Authorization header
	Body json.RawMessage // the request body as sent
	// Model and Messages are decoded from Body.
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

// Reply is what the stub answers one request with. Exactly one way is used: Raw (a body written
// as is, with Status), else Refusal, else Content (a choice with that content and finish
// reason Finish, "stop" when empty). Delay waits before answering; Hang waits until the caller
// goes away.
type Reply struct {
	Content string
	Finish  string
	Refusal string
	Raw     []byte
	Status  int // 0: 200
	Delay   time.Duration
	Hang    bool
}

// Stub is a running local model. URL is the base URL to configure (…/v1).
type Stub struct {
	URL    string
	srv    *httptest.Server
	answer func(Request) Reply

	mu   sync.Mutex
	seen []Request
}

// Start runs a stub that answers each request with answer(request). Close it when done.
func Start(answer func(Request) Reply) *Stub {
	s := &Stub{answer: answer}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server; requests still hanging are let go.
func (s *Stub) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests are the requests read so far, in order.
func (s *Stub) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.seen...)
}

func (s *Stub) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	req := Request{Auth: r.Header.Get("Authorization"), Body: body}
	_ = json.Unmarshal(body, &req)
	s.mu.Lock()
	s.seen = append(s.seen, req)
	s.mu.Unlock()
	rep := s.answer(req)
	if rep.Hang {
		<-r.Context().Done()
		return
	}
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.Raw != nil {
		w.WriteHeader(status)
		_, _ = w.Write(rep.Raw)
		return
	}
	msg := map[string]any{"role": "assistant", "content": rep.Content}
	finish := rep.Finish
	if finish == "" {
		finish = "stop"
	}
	if rep.Refusal != "" {
		msg = map[string]any{"role": "assistant", "content": nil, "refusal": rep.Refusal}
	}
	out, _ := json.Marshal(map[string]any{"id": "chatcmpl-stub", "object": "chat.completion", "created": 1767225600,
		"model": req.Model, "choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage": map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
	w.WriteHeader(status)
	_, _ = w.Write(out)
}
