package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const simGoldenDir = "../../games/blitz/testdata/scripts"

// sameJSON decodes both documents and compares them as values.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("golden is not JSON: %v", err)
	}
	return reflect.DeepEqual(x, y)
}

// TestSimBinary builds the arena binary and plays a golden script through it, from a file and
// from standard input; the output must equal the golden output (hand figures included).
func TestSimBinary(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "arena")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	want, err := os.ReadFile(filepath.Join(simGoldenDir, "elimination.out.json"))
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(simGoldenDir, "elimination.json")

	cmd := exec.Command(bin, "sim", "--script", scriptPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("arena sim --script %s: %v\n%s", scriptPath, err, stderr.String())
	}
	if !sameJSON(t, got, want) {
		t.Errorf("arena sim output differs from elimination.out.json")
	}

	src, err := os.ReadFile(scriptPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(bin, "sim", "--script", "-")
	cmd.Stdin = bytes.NewReader(src)
	got, err = cmd.Output()
	if err != nil {
		t.Fatalf("arena sim --script -: %v", err)
	}
	if !sameJSON(t, got, want) {
		t.Errorf("arena sim --script - output differs from elimination.out.json")
	}

	// A malformed script: exit 2, the field named on stderr, nothing on stdout.
	bad := strings.Replace(string(src), `"payee": 4,`, `"payee": 9,`, 1)
	cmd = exec.Command(bin, "sim", "--script", "-")
	cmd.Stdin = strings.NewReader(bad)
	stderr.Reset()
	cmd.Stderr = &stderr
	got, err = cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("malformed script: got %v, want exit 2", err)
	}
	if len(got) != 0 || !strings.Contains(stderr.String(), "moves[4].answer.commitments[0].payee: seat 9 is not seated") {
		t.Errorf("malformed script: stdout %q stderr %q", got, stderr.String())
	}
}

// TestSimMain covers the exit codes in process.
func TestSimMain(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		stdin    string
		wantCode int
		wantErr  string
	}{
		{"no script flag", nil, "", 2, "--script FILE is required"},
		{"extra argument", []string{"--script", "-", "x"}, "", 2, "--script FILE is required"},
		{"unknown flag", []string{"--scrpt", "x"}, "", 2, "flag provided but not defined"},
		{"missing file", []string{"--script", "/nonexistent/x.json"}, "", 2, "no such file"},
		{"not JSON", []string{"--script", "-"}, "{", 2, "invalid JSON"},
		{"wrong member", []string{"--script", "-"}, `{"Format":"blitz"}`, 2, `Format: unknown member`},
	}
	// -h is asked for: the usage on stdout (as every command's), nothing on stderr.
	var hout, herr bytes.Buffer
	if code := simMain([]string{"-h"}, strings.NewReader(""), &hout, &herr); code != 0 ||
		!strings.HasPrefix(hout.String(), "usage: arena sim") || herr.Len() != 0 {
		t.Errorf("sim -h: code %d, stdout %.40q, stderr %q; want 0, the usage on stdout, nothing on stderr", code, hout.String(), herr.String())
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := simMain(tt.args, strings.NewReader(tt.stdin), &out, &errb)
			if code != tt.wantCode || !strings.Contains(errb.String(), tt.wantErr) {
				t.Errorf("code %d stderr %q, want %d and %q", code, errb.String(), tt.wantCode, tt.wantErr)
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q, want nothing", out.String())
			}
		})
	}
	var out, errb bytes.Buffer
	src, err := os.ReadFile(filepath.Join(simGoldenDir, "short_bank.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(simGoldenDir, "short_bank.out.json"))
	if err != nil {
		t.Fatal(err)
	}
	if code := simMain([]string{"--script", "-", "--compact"}, bytes.NewReader(src), &out, &errb); code != 0 {
		t.Fatalf("short_bank: exit %d: %s", code, errb.String())
	}
	if bytes.Count(out.Bytes(), []byte("\n")) != 1 || !sameJSON(t, out.Bytes(), want) {
		t.Errorf("short_bank --compact: one line equal to the golden output expected")
	}
}
