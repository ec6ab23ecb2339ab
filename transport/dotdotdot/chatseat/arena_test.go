package chatseat

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"regexp"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/storage/storagetest"
)

func startRealArena(t *testing.T) *dotdotdot.Arena {
	t.Helper()
	db, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	br, err := games.NewBracket(blitz.NewEngine(blitz.DefaultFees()))
	if err != nil {
		t.Fatal(err)
	}
	seed := sha256.Sum256([]byte("chat seat test instance"))
	a, err := dotdotdot.Start(actors.Options{DB: db, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(seed[:]),
		InstanceAgent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:12802,0/7", AskTimeout: 5 * time.Second}, dotdotdot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.Shutdown(ctx)
		_ = db.Close()
	})
	return a
}

var tokenRe = regexp.MustCompile(`w_[A-Za-z0-9_-]{43}`)

// TestHostedTablesOnRealArena: three people through the chat seat at a hosted Short table on
// the real desk: the host opens it and hands out the code and link, the others join by code, a
// non-host cannot start it (not_host), a waiting walk-in cannot take a Practice seat
// (at_a_hosted_table), one leaves and comes back, the host starts it and the first move comes.
func TestHostedTablesOnRealArena(t *testing.T) {
	a := startRealArena(t)
	srv := seat(t, nil, Options{Desk: a})
	tokens := map[string]string{}
	for _, name := range []string{"Ada", "Bo", "Cy"} {
		out, isErr := call(t, srv, "register", `{"name":"`+name+`"}`)
		if isErr {
			t.Fatal(out)
		}
		tokens[name] = tokenRe.FindString(out)
	}
	arg := func(name, rest string) string { return `{"token":"` + tokens[name] + `"` + rest + `}` }

	out, isErr := call(t, srv, "host_table", arg("Ada", `,"format":"short"`))
	if isErr {
		t.Fatal(out)
	}
	m := regexp.MustCompile(`code ([A-Z0-9]{4}), short\. Hand your friends the link (\S+) `).FindStringSubmatch(out)
	if m == nil || m[2] != srv.URL+"/t/"+m[1] {
		t.Fatalf("host_table: %s", out)
	}
	code := m[1]

	out, isErr = call(t, srv, "join_table", arg("Bo", `,"code":"`+code+`"`))
	if isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "The table: code "+code+", short, hosted by Ada, 2 of 3 seats taken (Ada, Bo), gathering", "Waiting at the hosted table")

	out, isErr = call(t, srv, "start_table", arg("Bo", ""))
	if !isErr {
		t.Fatalf("a non-host started the table: %s", out)
	}
	mustContain(t, out, "Refused (not_host)", "Only the host starts a hosted table")

	out, isErr = call(t, srv, "play_practice", arg("Bo", ""))
	if !isErr {
		t.Fatalf("a walk-in at a hosted table took a Practice seat: %s", out)
	}
	mustContain(t, out, "Refused (at_a_hosted_table)")

	out, _ = call(t, srv, "list_tables", arg("Cy", ""))
	mustContain(t, out, "Hosted tables gathering (join_table with the code):\n- code "+code+", short, hosted by Ada")

	if out, isErr = call(t, srv, "leave_table", arg("Bo", "")); isErr {
		t.Fatal(out)
	}
	if out, isErr = call(t, srv, "join_table", arg("Bo", `,"code":"`+code+`"`)); isErr {
		t.Fatal(out)
	}

	out, isErr = call(t, srv, "start_table", arg("Ada", ""))
	if isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "Started code "+code)
	for _, who := range []string{"Ada", "Bo"} {
		out, isErr = call(t, srv, "next_move", arg(who, `,"wait":10`))
		if isErr || !regexp.MustCompile(`^Round T-\d+, turn 0, scouting: `).MatchString(out) {
			t.Fatalf("%s's first move: %s", who, out)
		}
		mustContain(t, out, "The table (collateral", `pass {"token"`)
	}
	out, isErr = call(t, srv, "join_table", arg("Cy", `,"code":"`+code+`"`))
	if !isErr {
		t.Fatalf("a started table took a join: %s", out)
	}
	mustContain(t, out, "Refused (table_started)")
}
