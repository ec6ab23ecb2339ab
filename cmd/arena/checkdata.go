package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"arena/config"
	"arena/storage"
)

var checkDataCommand = command{
	summary: "check a stopped server's data file against the store's layout: check-data [--data DIR] [--db FILE]",
	run: func(_ context.Context, args []string) int {
		return checkDataMain(args, os.Getenv, os.Stdout, os.Stderr)
	},
}

const checkDataUsage = `usage: arena check-data [flags]

Opens the arena's bbolt file read-only (the server must be stopped) and reads all of it against
the store's layout (storage.Check): every bucket known, every key of its bucket's shape, every
event and chain record decodable, the ledger without gaps. Exit 0 when the file is sound, 1 when
it is not or cannot be opened, 2 on a usage error.

flags:
  --data DIR   the server's data dir (env ARENA_DATA; default ./data); the file is DIR/arena.db
  --db FILE    the file itself, instead of --data
`

func checkDataMain(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena check-data", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	data := fs.String("data", "", "")
	db := fs.String("db", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, checkDataUsage)
			return 0
		}
		fmt.Fprintf(stderr, "arena check-data: %v\n%s", err, checkDataUsage)
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "arena check-data: unexpected argument %q\n%s", fs.Arg(0), checkDataUsage)
		return 2
	}
	path := *db
	if path == "" {
		path = filepath.Join(firstOf(*data, config.ClientEnv(getenv).DataDir, "./data"), "arena.db")
	}
	st, err := storage.Open(path, storage.Options{ReadOnly: true})
	if errors.Is(err, storage.ErrCorrupt) {
		fmt.Fprintf(stderr, "arena check-data: %s is damaged: %v\n", path, err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "arena check-data: open %s read-only (is the server still running?): %v\n", path, err)
		return 1
	}
	defer st.Close()
	if err := st.Check(); err != nil {
		fmt.Fprintf(stderr, "arena check-data: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "check-data %s: sound\n", path)
	return 0
}
