package mcp

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"arena/transport/breakroom"
	"arena/transport/breakroom/auth"
	"arena/transport/breakroom/play"
	"arena/transport/httpapi"
)

// panicBackend's Games panics with text that must reach only the log.
type panicBackend struct{ stillBackend }

func (panicBackend) Games(context.Context) ([]play.GameInfo, error) {
	panic("secret panic text: /home/arena/src/thing.go:42")
}

// A panic under a tool is a fixed internal refusal: no panic text in the answer, the stack in the log.
func TestMCPToolPanicSendsNoPanicText(t *testing.T) {
	var logs bytes.Buffer
	pd, err := play.New(play.Options{Backend: panicBackend{stillBackend{new(int)}}, Nonces: auth.New(auth.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Options{Door: pd, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(breakroom.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	_, raw := post(t, srv, Path, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_games","arguments":{}}}`)
	if strings.Contains(raw, "secret") || strings.Contains(raw, "thing.go") ||
		!strings.Contains(raw, `\"code\":\"internal\"`) || !strings.Contains(raw, `"isError":true`) || !strings.Contains(raw, `"id":5`) {
		t.Errorf("answer: %s", raw)
	}
	if !strings.Contains(logs.String(), "secret panic text") {
		t.Errorf("the panic was not logged: %s", logs.String())
	}
}
