package warden

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	aw "arena/actors/warden"
	"arena/actors/warden/wardenpay"
	"arena/chain/evm"
	"arena/chain/evm/evmtest"
	"arena/games/warden/claims"
	"arena/games/warden/feed"
)

// TestMatchFeedPublishesMessagesBeforeItEnds: a Game I match with a private message, played
// over the doors, paid out on chain by the Worker (the escrow wallet is the rail's payTo) and
// read from its Gallery match feed to the end: messages_published follows match_settled, in
// the SETTLED write itself, so the feed never ends without it (§15.3, §15.4); it carries the
// message with its sender and recipient.
func TestMatchFeedPublishesMessagesBeforeItEnds(t *testing.T) {
	chain := evmtest.Start(t)
	r := newPlayRig(t, chain)
	a, _, id, _ := r.live(claims.GameID, 0x7b, 0x7c)
	r.mustAct(a, id, 1, "message", map[string]any{"text": "I hold little."})
	for i := 0; ; i++ {
		if pub := r.do("GET", "/v1/warden/matches/"+id, "", nil, nil); pub.body["status"] == aw.StatusSettling {
			break
		}
		if i == 200 {
			t.Fatal("the match never reached SETTLING")
		}
		r.toDeadline(id)
	}
	ctx := context.Background()
	key, _ := evmtest.Key(0x7e) // the rail's payTo: the escrow holding both stakes
	wallet := evm.NewWallet(key, chain.ID)
	to := wallet.Address
	h, err := chain.Client.SendTransaction(ctx, evm.Tx{From: chain.Dev, To: &to, Value: big.NewInt(1e18)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chain.Client.WaitReceipt(ctx, h); err != nil {
		t.Fatal(err)
	}
	w := wardenpay.New(wardenpay.Options{Store: r.store, Client: chain.Client, Wallet: wallet, Token: chain.Token.Address,
		Published: aw.MessagesPublished})
	for i := 0; ; i++ {
		if err := w.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		if r.matchRec(id).Status == wardenpay.StatusSettled {
			break
		}
		if i == 600 {
			t.Fatal("the match never settled")
		}
		time.Sleep(50 * time.Millisecond) // the dev chain mines the payouts
	}
	if _, err := wardenpay.Audit(r.store); err != nil {
		t.Fatalf("ledger invariant: %v", err)
	}

	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	drain := make(chan struct{})
	defer close(drain)
	(&Gallery{Store: r.store, Drain: drain}).mount(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/warden/matches/" + id + "/feed")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	s := &stream{t: t, resp: resp, rd: bufio.NewReader(resp.Body)}
	var types []string
	var published feed.Envelope
	for {
		m, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch m.Event {
		case "warden":
			env := envOf(t, m)
			types = append(types, env.Type)
			if env.Type == feed.TypeMessagesPublished {
				published = env
			}
		case "end":
			types = append(types, "end")
		}
	}
	n := len(types)
	if n < 3 || types[n-3] != feed.TypeMatchSettled || types[n-2] != feed.TypeMessagesPublished || types[n-1] != "end" {
		t.Fatalf("match feed ends %v, want … match_settled messages_published end", types)
	}
	var d struct {
		Messages []feed.Message `json:"messages"`
	}
	if err := json.Unmarshal(published.Data, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Messages) != 1 || d.Messages[0] != (feed.Message{Round: 1, From: "A", To: "B", Text: "I hold little."}) {
		t.Fatalf("messages_published %s", published.Data)
	}
}
