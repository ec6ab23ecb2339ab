package config

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fileKeys is every leaf key a config file may set, dotted (http.limits.register), from
// Config's JSON form: a Duration, a Limit and a list of hosts are leaves.
func fileKeys(t reflect.Type, prefix string) []string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft != reflect.TypeFor[Limit]() {
			out = append(out, fileKeys(ft, prefix+name+".")...)
			continue
		}
		out = append(out, prefix+name)
	}
	return out
}

// leaves flattens a Config's JSON into dotted leaf keys and their JSON values.
func leaves(t *testing.T, c Config) map[string]string {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	json.Unmarshal(b, &v)
	out := map[string]string{}
	var walk func(prefix string, v map[string]any)
	walk = func(prefix string, v map[string]any) {
		for k, x := range v {
			if m, ok := x.(map[string]any); ok && k != "register" && k != "tables" && k != "challenges" && k != "feedback" {
				walk(prefix+k+".", m)
				continue
			}
			j, _ := json.Marshal(x)
			out[prefix+k] = string(j)
		}
	}
	walk("", v)
	return out
}

// keyOf is the file key setting s sets: the one leaf a value it takes changes.
func keyOf(t *testing.T, s setting) string {
	t.Helper()
	base := leaves(t, Default())
	for _, v := range []string{"7s", "127.0.0.1:1", "a.example,b.example", "3/5s", "true", "4096", "x-sample", "[]"} {
		c := Default()
		if s.set(&c, v) != nil {
			continue
		}
		var changed []string
		for k, val := range leaves(t, c) {
			if base[k] != val {
				changed = append(changed, k)
			}
		}
		if len(changed) == 1 {
			return changed[0]
		}
	}
	t.Fatalf("--%s (%s): no sample value sets exactly one key", s.flag, s.env)
	return ""
}

// Every key a config file may set has its flag and ARENA_* variable (none is file-only), every
// pace key's variable is ARENA_PACE_<KEY>, and docs/configuration.md has a row for every key that
// names its flag, its variable and its default.
func TestEveryConfigKeyHasAFlagAndIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // key → its row, in the tables whose first column is "key"
	inKeys := false
	for _, l := range strings.Split(string(doc), "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 3 {
			inKeys = false
			continue
		}
		first := strings.TrimSpace(cells[1])
		switch {
		case first == "key":
			inKeys = true
		case inKeys && !strings.HasPrefix(first, "---"):
			rows[strings.Trim(first, "`")] = l
		}
	}
	byKey := map[string]setting{}
	for _, s := range settings {
		k := keyOf(t, s)
		if other, dup := byKey[k]; dup {
			t.Errorf("%s is set by --%s and by --%s", k, other.flag, s.flag)
		}
		byKey[k] = s
		if p, ok := strings.CutPrefix(k, "dotdotdot.pace."); ok && s.env != "ARENA_PACE_"+strings.ToUpper(p) {
			t.Errorf("%s: variable %s, want ARENA_PACE_%s", k, s.env, strings.ToUpper(p))
		}
	}
	keys := fileKeys(reflect.TypeFor[Config](), "")
	slices.Sort(keys)
	for _, k := range keys {
		s, ok := byKey[k]
		if !ok {
			t.Errorf("config key %s has no flag or ARENA_* variable", k)
			continue
		}
		row, ok := rows[k]
		switch {
		case !ok:
			t.Errorf("docs/configuration.md has no row for %s", k)
		case !strings.Contains(row, "`--"+s.flag+"`") || !strings.Contains(row, "`"+s.env+"`"):
			t.Errorf("docs/configuration.md: the row of %s does not name `--%s` and `%s`: %s", k, s.flag, s.env, row)
		}
	}
	for k := range rows {
		if !slices.Contains(keys, k) {
			t.Errorf("docs/configuration.md names %s, which is no config key", k)
		}
	}
}
