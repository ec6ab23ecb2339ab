package market

import (
	"bytes"
	"fmt"
	"net/http"
	"net/netip"
	"testing"
)

// doorFn sends one request through a door with a key and extra headers.
type doorFn func(r *rig, key string, hdr map[string]string, body string) (int, []byte)

var doors = []struct {
	name string
	send doorFn
}{
	{"http", (*rig).post},
	{"a2a", (*rig).send},
}

// TestTradeThroughEachDoor: two Players enrol, one proposes an Exchange, the other approves it,
// both read their Holdings, every retry answers its first bytes, and no public answer names an
// Owner ID, a key, or the other Player's commandId.
func TestTradeThroughEachDoor(t *testing.T) {
	for _, d := range doors {
		t.Run(d.name, func(t *testing.T) {
			r := newRig(t, Gateway{})
			ada, bo := r.key("owner-ada-secret", "ada-bot"), r.key("owner-bo-secret", "bo-bot")
			call := func(key, body string, wantCode string) envelope {
				t.Helper()
				st, b := d.send(r, key, nil, body)
				e := decode(t, b)
				if e.code() != wantCode || st != http.StatusOK {
					t.Fatalf("%s: status %d code %q, want 200 %q: %s", body, st, e.code(), wantCode, b)
				}
				return e
			}
			ea := call(ada, `{"protocolVersion":2,"commandId":"ada-enrol-77","action":"enroll"}`, "")
			eb := call(bo, `{"protocolVersion":2,"commandId":"bo-enrol-88","action":"enroll"}`, "")
			pa, pb := ea.field(t, "playerId"), eb.field(t, "playerId")
			propose := fmt.Sprintf(`{"protocolVersion":2,"commandId":"ada-offer-99","action":"proposeExchange","counterpartyPlayerId":%q,"offered":[{"assetId":"wood","quantity":5}],"requested":[{"assetId":"credits","quantity":20}],"expiresAt":%q}`, pb, inAnHour())
			_, first := d.send(r, ada, nil, propose)
			x := decode(t, first)
			if x.code() != "" {
				t.Fatalf("propose: %s", first)
			}
			xid, hash := x.field(t, "exchangeId"), x.field(t, "termsHash")
			// Bo reads it and approves.
			g := call(bo, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, xid), "")
			if g.field(t, "status") != "awaiting_counterparty" || g.field(t, "answeringPlayerId") != pb {
				t.Fatalf("getExchange: %s", g.Result)
			}
			approve := fmt.Sprintf(`{"protocolVersion":2,"commandId":"bo-yes-1","action":"respondToExchange","exchangeId":%q,"exchangeVersion":1,"termsHash":%q,"decision":"approve"}`, xid, hash)
			_, settled := d.send(r, bo, nil, approve)
			if s := decode(t, settled); s.code() != "" || s.field(t, "status") != "settled" {
				t.Fatalf("approve: %s", settled)
			}
			// Retries: the stored responses, byte for byte.
			if _, again := d.send(r, ada, nil, propose); !bytes.Equal(again, first) {
				t.Errorf("propose retry:\n%s\nwant\n%s", again, first)
			}
			if _, again := d.send(r, bo, nil, approve); !bytes.Equal(again, settled) {
				t.Errorf("approve retry:\n%s\nwant\n%s", again, settled)
			}
			ha := call(ada, `{"protocolVersion":2,"action":"readInventory"}`, "").holdings(t)
			hb := call(bo, `{"protocolVersion":2,"action":"readInventory"}`, "").holdings(t)
			if ha["wood"] != 15 || ha["credits"] != 120 || hb["wood"] != 25 || hb["credits"] != 80 {
				t.Errorf("holdings after the trade: ada %v, bo %v", ha, hb)
			}
			call(ada, `{"protocolVersion":2,"action":"readStatement"}`, "")
			call(bo, `{"protocolVersion":2,"action":"readStatement"}`, "")
			call(bo, `{"protocolVersion":2,"action":"readStanding"}`, "")
			call(ada, `{"protocolVersion":2,"action":"listExchanges"}`, "")
			r.noSecrets("owner-ada-secret", "owner-bo-secret", ada, bo, "ada-bot", "bo-bot")
			// Each Player's statement may show its own commandIds, never the other's.
			for _, b := range r.public {
				s := string(b)
				if bytes.Contains(b, []byte(`"playerId":"`+pb+`"`)) && bytes.Contains(b, []byte("ada-")) {
					t.Errorf("Bo's answer names Ada's commandId: %s", s)
				}
				if bytes.Contains(b, []byte(`"playerId":"`+pa+`"`)) && bytes.Contains(b, []byte("bo-")) {
					t.Errorf("Ada's answer names Bo's commandId: %s", s)
				}
			}
		})
	}
}

// TestAuthenticationRequired: no key, a blank one, an unknown one, another scheme, a revoked key,
// and the gateway header from an address that is not the gateway's, on both doors alike: 401
// authentication_required, nothing changed.
func TestAuthenticationRequired(t *testing.T) {
	for _, d := range doors {
		t.Run(d.name, func(t *testing.T) {
			r := newRig(t, Gateway{Header: "X-Owner-Id", From: []netip.Prefix{mustPrefix("192.0.2.1/32")}})
			k := r.key("owner-1", "")
			enrol := `{"protocolVersion":2,"commandId":"c1","action":"enroll"}`
			if st, b := d.send(r, k, nil, enrol); st != http.StatusOK || decode(t, b).code() != "" {
				t.Fatalf("enrol with a good key: %d %s", st, b)
			}
			revoked := r.key("owner-2", "")
			if st, b := r.do(http.MethodPost, "/ops/market/keys/mk_"+hashKey(revoked)[:16]+"/revoke", "Bearer "+opToken, nil, nil); st != http.StatusOK {
				t.Fatalf("revoke: %d %s", st, b)
			}
			cases := []struct {
				name string
				key  string
				hdr  map[string]string
			}{
				{"no key", "", nil},
				{"blank key", " ", nil},
				{"unknown key", "gmk_00000000", nil},
				{"revoked key", revoked, nil},
				{"gateway header from elsewhere", "", map[string]string{"X-Owner-Id": "owner-1"}},
				{"basic scheme", "", map[string]string{"Authorization": "Basic " + k}},
			}
			for _, c := range cases {
				st, b := d.send(r, c.key, c.hdr, enrol)
				if e := decode(t, b); st != http.StatusUnauthorized || e.code() != "authentication_required" {
					t.Errorf("%s: %d %q, want 401 authentication_required: %s", c.name, st, e.code(), b)
				}
			}
		})
	}
}

// TestDelegatesAreOnePlayer: two keys of one Owner, and the gateway header from the gateway's
// address naming that Owner, enrol as one Player; a transfer between them is self_dealing.
func TestDelegatesAreOnePlayer(t *testing.T) {
	for _, d := range doors {
		t.Run(d.name, func(t *testing.T) {
			r := newRig(t, Gateway{Header: "X-Owner-Id", From: []netip.Prefix{mustPrefix("127.0.0.1/32")}})
			k1, k2 := r.key("owner-shared", "desk-a"), r.key("owner-shared", "desk-b")
			_, b1 := d.send(r, k1, nil, `{"protocolVersion":2,"commandId":"e1","action":"enroll"}`)
			_, b2 := d.send(r, k2, nil, `{"protocolVersion":2,"commandId":"e2","action":"enroll"}`)
			_, b3 := d.send(r, "", map[string]string{"X-Owner-Id": "owner-shared"}, `{"protocolVersion":2,"commandId":"e3","action":"enroll"}`)
			p1, p2, p3 := decode(t, b1).field(t, "playerId"), decode(t, b2).field(t, "playerId"), decode(t, b3).field(t, "playerId")
			if p1 != p2 || p1 != p3 || p1 == "<nil>" {
				t.Fatalf("one Owner, three Players: %s %s %s", p1, p2, p3)
			}
			st, b := d.send(r, k2, nil, fmt.Sprintf(`{"protocolVersion":2,"commandId":"t1","action":"transfer","toPlayerId":%q,"assetId":"credits","quantity":1}`, p1))
			if e := decode(t, b); st != http.StatusOK || e.code() != "self_dealing" {
				t.Errorf("transfer between delegates: %d %s", st, b)
			}
			// A blank gateway header from the gateway is no Owner.
			st, b = d.send(r, "", map[string]string{"X-Owner-Id": "  "}, `{"protocolVersion":2,"action":"readStanding"}`)
			if decode(t, b).code() != "authentication_required" || st != http.StatusUnauthorized {
				t.Errorf("blank gateway header: %d %s", st, b)
			}
			r.noSecrets("owner-shared", k1, k2, "desk-a", "desk-b")
		})
	}
}
