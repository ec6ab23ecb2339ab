package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestReadmeListsEveryPackage: the README's "Where things are" names every package of the module
// (go list ./...) by its folder, in backticks with a trailing slash, so a newcomer finds every one
// of them there; and it names no folder that is no package.
func TestReadmeListsEveryPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root = strings.TrimSuffix(root, "/cmd/arena")
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "## Where things are")
	if start < 0 {
		t.Fatal(`README has no "## Where things are"`)
	}
	section := readme[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	pkgs := map[string]bool{}
	for _, dir := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(dir, root), "/") + "/"
		pkgs[rel] = true
		if !strings.Contains(section, "`"+rel+"`") {
			t.Errorf("README's \"Where things are\" does not list `%s`", rel)
		}
	}
	for _, l := range strings.Split(section, "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 3 || strings.Contains(cells[1], "---") || strings.TrimSpace(cells[1]) == "path" {
			continue
		}
		for _, f := range strings.Split(cells[1], ",") {
			if p := strings.Trim(strings.TrimSpace(f), "`"); !pkgs[p] {
				t.Errorf("README's \"Where things are\" lists `%s`, which is no package", p)
			}
		}
	}
}
