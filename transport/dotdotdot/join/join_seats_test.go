package join

import "testing"

// A signed join may name its Practice table's seat count (seats, inside the signature); it
// reaches the seater as the join said, and a join that names none asks for the format's fewest.
func TestJoinNamesItsSeats(t *testing.T) {
	v := newEnv(t)
	o := v.joinObj("nonce-0000000000071")
	o["seats"] = 8
	if code, body := v.do("POST", "/v1/join", signed(t, v.key, o), nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	if code, body := v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-0000000000072")), nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	if len(v.seat.joins) != 2 || v.seat.joins[0].Seats != 8 || v.seat.joins[1].Seats != 0 {
		t.Fatalf("seated %+v", v.seat.joins)
	}
	o = v.joinObj("nonce-0000000000073")
	o["seats"] = "eight"
	code, body := v.do("POST", "/v1/join", signed(t, v.key, o), nil)
	wantRefusal(t, code, body, 400, "bad_request")
}
