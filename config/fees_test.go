package config

import (
	"io"
	"strings"
	"testing"
)

// TestFeesFromEverySource: §14's table and inference fees ("arena config") come from the file's
// dotdotdot.fees, the environment or a flag (a flag over the environment over the file); unset
// they stay nil (§14's); a negative fee, a fraction or a fee past 2^53 − 1 is refused naming it.
func TestFeesFromEverySource(t *testing.T) {
	file := writeFile(t, "f.json", `{"dotdotdot":{"fees":{"table":15000000,"inference":25000000}}}`)
	c, err := Load("serve", []string{"--config", file, "--inference-fee", "0"}, env(map[string]string{"ARENA_TABLE_FEE": "12500000"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f := c.Dotdotdot.Fees; f.Table == nil || *f.Table != 12_500_000 || f.Inference == nil || *f.Inference != 0 {
		t.Fatalf("fees %+v, want table 12.5 CCD from the environment and inference 0 from the flag", f)
	}
	c, err = Load("serve", nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f := c.Dotdotdot.Fees; f.Table != nil || f.Inference != nil {
		t.Fatalf("nothing set, fees %+v", f)
	}
	for _, bad := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--table-fee", "-1"}, nil, "dotdotdot.fees.table"},
		{[]string{"--inference-fee", "2.5"}, nil, "inference-fee"},
		{nil, map[string]string{"ARENA_INFERENCE_FEE": "9007199254740992"}, "dotdotdot.fees.inference"},
		{[]string{"--config", writeFile(t, "n.json", `{"dotdotdot":{"fees":{"table":-20000000}}}`)}, nil, "dotdotdot.fees.table"},
		{[]string{"--config", writeFile(t, "u.json", `{"dotdotdot":{"fees":{"action":1}}}`)}, nil, "unknown setting"},
	} {
		if _, err := Load("serve", bad.args, env(bad.env), io.Discard); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v %v: %v, want a refusal naming %q", bad.args, bad.env, err, bad.want)
		}
	}
}
