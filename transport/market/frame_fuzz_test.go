package market

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	gm "arena/games/market"
	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/httpapi"
)

// reducerMarket answers with the pure reducer in memory, one request at a time: the market
// actor's semantics without its disk, for fuzzing the doors in process.
type reducerMarket struct {
	mu sync.Mutex
	st *gm.State
}

func (m *reducerMarket) Do(_ context.Context, owner string, body []byte) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	step := gm.Apply(m.st, owner, body, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	m.st.Commit(step.Delta)
	return step.Response, nil
}

func (m *reducerMarket) Version() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.st.Version()
}

// FuzzA2AFrame: any bytes posted to /a2a are answered, never a panic: a JSON-RPC response with
// either an error or a Message whose one text part is a market envelope; and the same request
// bytes in a text part and as the body of POST /v2/request get the same code and status.
func FuzzA2AFrame(f *testing.F) {
	st, err := gm.NewState(testConfig(), testSeed)
	if err != nil {
		f.Fatal(err)
	}
	store := storagetest.Open(f, storage.Options{})
	seam, _ := NewSeam(&reducerMarket{st: st}, 0)
	auth, _ := NewAuthenticator(store, Gateway{})
	key, _, err := auth.Issue("owner-fuzz", "", time.Now())
	if err != nil {
		f.Fatal(err)
	}
	e, err := httpapi.Build(Site{Doors: &Doors{Seam: seam, Auth: auth, Card: Card("http://market.test/a2a")}}, httpapi.Global{})
	if err != nil {
		f.Fatal(err)
	}
	post := func(path string, body []byte) (int, []byte) {
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec.Code, rec.Body.Bytes()
	}
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"{\"protocolVersion\":2,\"action\":\"readStanding\"}","metadata":{"name":"request"}}]}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"message/send","params":{"message":{"parts":[{"kind":"data","data":{"protocolVersion":2,"commandId":"c","action":"enroll"},"metadata":{"partId":"request"}}]}}}`,
		`{"jsonrpc":"2.0","id":null,"method":"tasks/get"}`, `[]`, `{`, ``, `{"jsonrpc":"2.0","method":"message/send","params":{"message":{"parts":[1,"a",null]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		st, b := post("/a2a", frame)
		var out struct {
			JSONRPC string          `json:"jsonrpc"`
			Error   json.RawMessage `json:"error"`
			Result  *struct {
				Parts []struct {
					Text string `json:"text"`
				} `json:"parts"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("answer is not JSON: %d %q", st, b)
		}
		if out.Result == nil {
			// A JSON-RPC error, or a door's own refusal in the market's envelope (a frame over
			// its cap).
			rpcErr := out.JSONRPC == "2.0" && out.Error != nil
			if c := decodeCode(b); !rpcErr && (c == "" || c == "?") {
				t.Fatalf("neither a result nor an error: %d %s", st, b)
			}
			return
		}
		if len(out.Result.Parts) != 1 || decodeCode([]byte(out.Result.Parts[0].Text)) == "?" {
			t.Fatalf("result is not one envelope part: %s", b)
		}
		// The same request bytes through the HTTP door: same code, same status (a state change
		// between the two, an enrolment say, is the reducer's and may move the code; compare only
		// queries and refusals that change nothing).
		var p sendParams
		var req rpcRequest
		if json.Unmarshal(frame, &req) != nil || json.Unmarshal(req.Params, &p) != nil || p.Message == nil {
			return
		}
		raw, _ := requestPart(p.Message.Parts)
		code := decodeCode([]byte(out.Result.Parts[0].Text))
		if code == "" || code == "command_id_reuse" {
			return
		}
		hst, hb := post("/v2/request", raw)
		if hc := decodeCode(hb); (hc != code || hst != st) && !(len(bytes.TrimSpace(raw)) == 0 && hc == code) {
			t.Fatalf("a2a %d %q, http %d %q for %q", st, code, hst, hc, raw)
		}
	})
}

// decodeCode is an envelope's error code, "" for ok, "?" for no envelope.
func decodeCode(b []byte) string {
	var e struct {
		ProtocolVersion int  `json:"protocolVersion"`
		OK              bool `json:"ok"`
		Error           *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &e) != nil || e.ProtocolVersion != 2 {
		return "?"
	}
	if e.OK {
		return ""
	}
	if e.Error == nil {
		return "?"
	}
	return e.Error.Code
}
