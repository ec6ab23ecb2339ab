package market

import "testing"

// A Trading Name is refused invalid_trading_name for any character that does not print: the
// Unicode format characters (zero-width, bidi overrides), line and paragraph separators, private
// use and unassigned code points, as well as the control characters, because the Standing prints
// the name to every visitor ("Trading Name": the refusal is about printability). Spaces and
// combining marks inside a name print and pass.
func TestTradingNameRefusesNonPrintingCharacters(t *testing.T) {
	st := newMarket(t, testConfig())
	enrol(t, st, "owner-a")
	set := func(cmd, raw string) reply {
		return do(t, st, "owner-a", t0, `{"protocolVersion":2,"commandId":"`+cmd+`","action":"setTradingName","tradingName":`+raw+`}`)
	}
	for i, bad := range []string{
		`"\u200b"`,     // zero-width space, the whole name
		`"a\u200bb"`,   // zero-width space inside
		`"a\u202eb"`,   // right-to-left override
		`"a\u2066b"`,   // left-to-right isolate
		`"\ufeffname"`, // byte-order mark
		`"a\u2028b"`,   // line separator
		`"a\u2029b"`,   // paragraph separator
		`"a\ue000b"`,   // private use
		`"a\u0378b"`,   // unassigned
		`"a\u00adb"`,   // soft hyphen
	} {
		if r := set("bad"+itoa(i), bad); r.code() != CodeInvalidTradingName {
			t.Errorf("%s: %s", bad, r.raw)
		}
	}
	for i, good := range []string{`"Marlow\u00a0Yard"`, `"Cafe\u0301"`, `"\u5e02\u5834"`, `"a b"`} {
		if r := set("ok"+itoa(i), good); !r.OK {
			t.Errorf("%s: %s", good, r.raw)
		}
	}
}
