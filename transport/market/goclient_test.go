package market

import (
	"context"
	"net/http"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
)

// bearer adds the API key to every call a2a-go's client makes.
type bearer struct {
	a2aclient.PassthroughInterceptor
	key string
}

func (b bearer) Before(ctx context.Context, req *a2aclient.Request) (context.Context, error) {
	req.Meta["Authorization"] = []string{"Bearer " + b.key}
	return ctx, nil
}

// TestGoSDKClientOnA2ADoor: a2a-go's own client (JSON-RPC transport) sends message/send to the
// door named by the Agent Card and reads the answer as an A2A Message: its text part named
// "response" is the envelope; without a key the same call gets authentication_required, which
// a2a-go reports as an error (the HTTP status is 401, as on POST /v2/request).
func TestGoSDKClientOnA2ADoor(t *testing.T) {
	r := newRig(t, Gateway{})
	k := r.key("owner-go-sdk", "")
	card := r.doors.Card
	if card.URL != r.srv.URL+"/a2a" || card.PreferredTransport != a2a.TransportProtocolJSONRPC {
		t.Fatalf("card: %+v", card)
	}
	client := func(key string) *a2aclient.Client {
		cl, err := a2aclient.NewFromEndpoints(t.Context(), []a2a.AgentInterface{{URL: card.URL, Transport: a2a.TransportProtocolJSONRPC}},
			a2aclient.WithJSONRPCTransport(http.DefaultClient), a2aclient.WithInterceptors(bearer{key: key}))
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	send := func(cl *a2aclient.Client, body string) (a2a.SendMessageResult, error) {
		msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: body, Metadata: map[string]any{"name": "request"}})
		return cl.SendMessage(t.Context(), &a2a.MessageSendParams{Message: msg})
	}
	res, err := send(client(k), `{"protocolVersion":2,"commandId":"go-enrol","action":"enroll"}`)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := res.(*a2a.Message)
	if !ok || m.Role != a2a.MessageRoleAgent || len(m.Parts) != 1 {
		t.Fatalf("answer %T %+v", res, res)
	}
	tp, ok := m.Parts[0].(a2a.TextPart)
	if e := decode(t, []byte(tp.Text)); !ok || tp.Metadata["name"] != "response" || e.code() != "" || e.field(t, "type") != "enrolment" {
		t.Fatalf("response part: %+v", m.Parts[0])
	}
	if _, err := send(client("gmk_not_a_key"), `{"protocolVersion":2,"action":"readStanding"}`); err == nil {
		t.Errorf("an unknown key: a2a-go reports no error")
	}
}
