package wire

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"arena/games"
)

const (
	pub   = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
	sig   = "e907831f80848d1069a5371b402410364bdf1c5f8307b0084c55f1ce2dca821525f66a4a85ea8b71e482a74f382d2ce5ebeee8fdb2172f477df4900d310536c0"
	joinM = `{"type":"join","v":0,"game":"dilemma","author_pubkey":"` + pub + `","nonce":"n-1","sig":"` + sig + `"}`
)

// codeOf is the protocol code of a decoder refusal ("" for none); a refusal that is no
// *games.Error fails the test.
func codeOf(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var ge *games.Error
	if !errors.As(err, &ge) {
		t.Fatalf("refusal %v is not a *games.Error", err)
	}
	if ge.Msg == "" {
		t.Fatalf("refusal %q has no detail", ge.Code)
	}
	return ge.Code
}

// TestDecodeRefusals: each bad-input kind of the issue gets its code, on the socket's decoder.
func TestDecodeRefusals(t *testing.T) {
	big := `{"type":"state","v":0,"match_id":"` + strings.Repeat("m", MaxFrame) + `"}`
	for name, tc := range map[string]struct{ raw, code string }{
		"not json":            {`hello`, CodeBadRequest},
		"empty":               {``, CodeBadRequest},
		"array":               {`[1]`, CodeBadRequest},
		"string":              {`"join"`, CodeBadRequest},
		"trailing garbage":    {`{"type":"state","v":0,"match_id":"m_1"} x`, CodeBadRequest},
		"two objects":         {`{"type":"state","v":0,"match_id":"m_1"}{}`, CodeBadRequest},
		"duplicate key":       {`{"type":"state","v":0,"match_id":"m_1","match_id":"m_2"}`, CodeBadRequest},
		"duplicate type":      {`{"type":"state","type":"move","v":0,"match_id":"m_1"}`, CodeBadRequest},
		"folded twin":         {`{"type":"state","v":0,"match_id":"m_1","Match_id":"m_2"}`, CodeBadRequest},
		"invalid utf8":        {"{\"type\":\"state\",\"v\":0,\"match_id\":\"\xff\"}", CodeBadRequest},
		"no type":             {`{"v":0,"match_id":"m_1"}`, CodeBadRequest},
		"type not string":     {`{"type":7,"v":0}`, CodeBadRequest},
		"no v":                {`{"type":"state","match_id":"m_1"}`, CodeBadRequest},
		"v 1":                 {`{"type":"state","v":1,"match_id":"m_1"}`, CodeBadVersion},
		"v string":            {`{"type":"state","v":"0","match_id":"m_1"}`, CodeBadVersion},
		"v 0.0":               {`{"type":"state","v":0.0,"match_id":"m_1"}`, CodeBadVersion},
		"v -0":                {`{"type":"state","v":-0,"match_id":"m_1"}`, CodeBadVersion},
		"v null":              {`{"type":"state","v":null,"match_id":"m_1"}`, CodeBadVersion},
		"v 1 unknown type":    {`{"type":"hello","v":1}`, CodeBadVersion},
		"unknown type":        {`{"type":"hello","v":0}`, CodeBadRequest},
		"server type":         {`{"type":"challenge","v":0,"nonce":"x"}`, CodeBadRequest},
		"over 8 KB":           {big, CodeTooLarge},
		"unsafe integer":      {`{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"amount":9007199254740993}`, CodeBadRequest},
		"join no sig":         {`{"type":"join","v":0,"game":"dilemma","author_pubkey":"` + pub + `","nonce":"n"}`, CodeBadRequest},
		"join no game":        {`{"type":"join","v":0,"author_pubkey":"` + pub + `","nonce":"n","sig":"` + sig + `"}`, CodeBadRequest},
		"join game number":    {strings.Replace(joinM, `"dilemma"`, `4`, 1), CodeBadRequest},
		"join unknown member": {strings.Replace(joinM, `"game"`, `"colour":"red","game"`, 1), CodeBadRequest},
		"join spoilers str":   {strings.Replace(joinM, `"game"`, `"spoilers":"yes","game"`, 1), CodeBadRequest},
		"join name null":      {strings.Replace(joinM, `"game"`, `"agent_name":null,"game"`, 1), CodeBadRequest},
		"join name long":      {strings.Replace(joinM, `"game"`, `"agent_name":"`+strings.Repeat("é", 41)+`","game"`, 1), CodeBadRequest},
		"join name control":   {strings.Replace(joinM, `"game"`, `"agent_name":"a\u0007b","game"`, 1), CodeBadRequest},
		"join case member":    {strings.Replace(joinM, `"game"`, `"Game"`, 1), CodeBadRequest},
		"move no match":       {`{"type":"move","v":0,"round":1,"turn":0,"action":"cooperate"}`, CodeBadRequest},
		"move no round":       {`{"type":"move","v":0,"match_id":"m_1","turn":0,"action":"cooperate"}`, CodeBadRequest},
		"move no turn":        {`{"type":"move","v":0,"match_id":"m_1","round":1,"action":"cooperate"}`, CodeBadRequest},
		"move round string":   {`{"type":"move","v":0,"match_id":"m_1","round":"1","turn":0}`, CodeBadRequest},
		"move round fraction": {`{"type":"move","v":0,"match_id":"m_1","round":1.5,"turn":0}`, CodeBadRequest},
		"move round 1e0":      {`{"type":"move","v":0,"match_id":"m_1","round":1e0,"turn":0}`, CodeBadRequest},
		"move turn negative":  {`{"type":"move","v":0,"match_id":"m_1","round":1,"turn":-1}`, CodeBadRequest},
		"move match number":   {`{"type":"move","v":0,"match_id":5,"round":1,"turn":0}`, CodeBadRequest},
		"move match empty":    {`{"type":"move","v":0,"match_id":"","round":1,"turn":0}`, CodeBadRequest},
		"state no match":      {`{"type":"state","v":0}`, CodeBadRequest},
		"state extra":         {`{"type":"state","v":0,"match_id":"m_1","round":1}`, CodeBadRequest},
		"feedback no text":    {`{"type":"feedback","v":0,"match_id":"m_1"}`, CodeBadRequest},
		"feedback empty text": {`{"type":"feedback","v":0,"match_id":"m_1","text":""}`, CodeBadRequest},
		"feedback long text":  {`{"type":"feedback","v":0,"match_id":"m_1","text":"` + strings.Repeat("a", 2001) + `"}`, CodeBadRequest},
		"feedback rating 6":   {`{"type":"feedback","v":0,"match_id":"m_1","text":"ok","rating":6}`, CodeBadRequest},
		"feedback rating 0":   {`{"type":"feedback","v":0,"match_id":"m_1","text":"ok","rating":0}`, CodeBadRequest},
		"feedback rating 4.5": {`{"type":"feedback","v":0,"match_id":"m_1","text":"ok","rating":4.5}`, CodeBadRequest},
		"paid no hash":        {`{"type":"paid","v":0,"payout_lnaddr":"a@b.c"}`, CodeBadRequest},
	} {
		t.Run(name, func(t *testing.T) {
			m, err := Decode([]byte(tc.raw))
			if got := codeOf(t, err); got != tc.code {
				t.Fatalf("Decode(%.80q) = %v, %v; want %s", tc.raw, m, err, tc.code)
			}
			if m != nil {
				t.Fatalf("a refusal returned a message %#v", m)
			}
		})
	}
}

// TestDecodeMessages: every inbound kind decodes to its values.
func TestDecodeMessages(t *testing.T) {
	stake := int64(10)
	for name, tc := range map[string]struct {
		raw  string
		want Inbound
	}{
		"join": {joinM, &Join{Game: "dilemma", AuthorPubkey: pub, Nonce: "n-1", Sig: sig}},
		"join all": {strings.Replace(joinM, `"game"`, `"agent_name":"Claude","spoilers":true,"stake_sats":10,"game"`, 1),
			&Join{Game: "dilemma", AuthorPubkey: pub, Nonce: "n-1", Sig: sig, AgentName: "Claude", Spoilers: true, StakeSats: &stake}},
		"state":    {`{"type":"state","v":0,"match_id":"m_1"}`, &StateRequest{MatchID: "m_1"}},
		"feedback": {`{"type":"feedback","v":0,"match_id":"m_1","text":"fun","rating":4}`, &Feedback{MatchID: "m_1", Text: "fun", Rating: 4}},
		"paid":     {`{"type":"paid","v":0,"payment_hash":"ab","payout_lnaddr":"a@b.c"}`, &Paid{PaymentHash: "ab", PayoutLnaddr: "a@b.c"}},
		"move": {`{"v":0,"round":12,"action":"raise","type":"move","amount":4,"match_id":"m_1","message":"hi \u00e9","turn":3}`,
			&Move{MatchID: "m_1", Round: 12, Turn: 3, Body: []byte(`{"action":"raise","amount":4,"message":"hi \u00e9"}`)}},
		"move raw numbers kept": {`{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"amount":1e2,"x":[1, 2]}`,
			&Move{MatchID: "m_1", Round: 1, Turn: 0, Body: []byte(`{"amount":1e2,"x":[1, 2]}`)}},
		"move no body": {`{"type":"move","v":0,"match_id":"m_1","round":0,"turn":0}`, &Move{MatchID: "m_1", Body: []byte(`{}`)}},
		"move escaped name": {`{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"\u0061ction":"defect"}`,
			&Move{MatchID: "m_1", Round: 1, Body: []byte(`{"action":"defect"}`)}},
	} {
		t.Run(name, func(t *testing.T) {
			m, err := Decode([]byte(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			if mv, ok := m.(*Move); ok {
				mv.Body = append([]byte(nil), mv.Body...)
			}
			if !reflect.DeepEqual(m, tc.want) {
				t.Fatalf("Decode = %#v\nwant %#v", m, tc.want)
			}
		})
	}
	m, _ := Decode([]byte(`{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"action":"defect"}`))
	if a := m.(*Move).Action(); a != "defect" {
		t.Fatalf("Action = %q", a)
	}
}

// TestDecodeHTTP: the HTTP bodies leave out type, v and match_id; when present they are checked,
// and everything else is refused with the socket's code.
func TestDecodeHTTP(t *testing.T) {
	for name, tc := range map[string]struct {
		kind       Kind
		raw, code  string
		wantMatch  string
		wantFields bool
	}{
		"join bare":            {KindJoin, `{"game":"dilemma","author_pubkey":"` + pub + `","nonce":"n","sig":"` + sig + `"}`, "", "", false},
		"join socket frame":    {KindJoin, joinM, "", "", false},
		"join type move":       {KindJoin, strings.Replace(joinM, `"join"`, `"move"`, 1), CodeBadRequest, "", false},
		"join v 2":             {KindJoin, strings.Replace(joinM, `"v":0`, `"v":2`, 1), CodeBadVersion, "", false},
		"move bare":            {KindMove, `{"round":1,"turn":0,"action":"cooperate"}`, "", "m_1", false},
		"move same match":      {KindMove, `{"match_id":"m_1","round":1,"turn":0,"action":"cooperate"}`, "", "m_1", false},
		"move other match":     {KindMove, `{"match_id":"m_2","round":1,"turn":0,"action":"cooperate"}`, CodeBadRequest, "", false},
		"move no turn":         {KindMove, `{"round":1,"action":"cooperate"}`, CodeBadRequest, "", false},
		"move duplicate":       {KindMove, `{"round":1,"turn":0,"turn":1}`, CodeBadRequest, "", false},
		"feedback bare":        {KindFeedback, `{"text":"good"}`, "", "m_1", false},
		"paid unsigned":        {KindPaid, `{"payment_hash":"ab","payout_lnaddr":"a@b.c"}`, CodeBadRequest, "", false},
		"paid signed":          {KindPaid, `{"payment_hash":"ab","payout_lnaddr":"a@b.c","author_pubkey":"` + pub + `","nonce":"n","sig":"` + sig + `"}`, "", "", false},
		"over 8 KB":            {KindFeedback, `{"text":"` + strings.Repeat("a", MaxFrame) + `"}`, CodeTooLarge, "", false},
		"trailing":             {KindFeedback, `{"text":"a"}]`, CodeBadRequest, "", false},
		"type of another kind": {KindFeedback, `{"type":"feedbacks","text":"a"}`, CodeBadRequest, "", false},
	} {
		t.Run(name, func(t *testing.T) {
			m, err := DecodeHTTP(tc.kind, "m_1", []byte(tc.raw))
			if got := codeOf(t, err); got != tc.code {
				t.Fatalf("DecodeHTTP = %v, %v; want %q", m, err, tc.code)
			}
			if tc.code != "" {
				return
			}
			if m.Kind() != tc.kind {
				t.Fatalf("kind %s", m.Kind())
			}
			switch m := m.(type) {
			case *Move:
				if m.MatchID != tc.wantMatch || string(m.Body) != `{"action":"cooperate"}` {
					t.Fatalf("move %+v %s", m, m.Body)
				}
			case *Feedback:
				if m.MatchID != tc.wantMatch {
					t.Fatalf("feedback %+v", m)
				}
			}
		})
	}
}

// TestDoorsRefuseAlike: a socket frame and the same bytes as an HTTP body of its kind are refused
// with one code and one detail.
func TestDoorsRefuseAlike(t *testing.T) {
	for _, raw := range []string{
		`{"type":"move","v":0,"match_id":"m_1","round":"1","turn":0}`,
		`{"type":"move","v":0,"match_id":"m_1","round":1}`,
		`{"type":"move","v":3,"match_id":"m_1","round":1,"turn":0}`,
		`{"type":"join","v":0,"game":"dilemma","nonce":"n","sig":"` + sig + `","author_pubkey":7}`,
		`{"type":"feedback","v":0,"match_id":"m_1","text":"a","text":"b"}`,
		`{"type":"feedback","v":0,"match_id":"m_1","text":"a","rating":9}`,
		`{"type":"state","v":0,"match_id":"m_1"} {}`,
		`{"type":"join","v":0,"game":"dilemma","author_pubkey":"` + pub + `","nonce":"n","sig":"` + sig + `","pad":"` + strings.Repeat("x", MaxFrame) + `"}`,
	} {
		_, wsErr := Decode([]byte(raw))
		kind := Kind(strings.Split(strings.SplitN(raw, `"type":"`, 2)[1], `"`)[0])
		_, httpErr := DecodeHTTP(kind, "m_1", []byte(raw))
		if wsErr == nil || httpErr == nil || wsErr.Error() != httpErr.Error() {
			t.Errorf("%.60s: socket %v, HTTP %v", raw, wsErr, httpErr)
		}
	}
}
