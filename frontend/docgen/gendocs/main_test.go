package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const repo = "../../.."

// TestCommittedReferenceIsCurrent: the committed reference pages are what the code writes
// now — a flag, a command or a column changed without `go run ./frontend/docgen/gendocs`
// fails here, naming the page.
func TestCommittedReferenceIsCurrent(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	want := pages(t, dir)
	got := pages(t, filepath.Join(repo, "docs", "reference", "cli"))
	for name, page := range want {
		if got[name] != page {
			t.Errorf("docs/reference/cli/%s differs from the command tree: run go run ./frontend/docgen/gendocs", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/reference/cli/%s names no command: run go run ./frontend/docgen/gendocs", name)
		}
	}
	for name, write := range pageWriters(repo) {
		var page bytes.Buffer
		if err := write(&page); err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(filepath.Join(repo, "docs", "reference", name))
		if err != nil || !bytes.Equal(committed, page.Bytes()) {
			t.Errorf("docs/reference/%s differs from the code (%v): run go run ./frontend/docgen/gendocs", name, err)
		}
		// Every column and key says what it holds.
		for _, line := range strings.Split(page.String(), "\n") {
			if strings.HasPrefix(line, "| `") && (strings.HasSuffix(line, "|  |") || strings.HasSuffix(line, "| *optional*. |")) {
				t.Errorf("%s: no meaning (a comment beside the field in its Go declaration): %s", name, line)
			}
		}
	}
}

func pages(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no pages in %s (%v)", dir, err)
	}
	m := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(n)] = string(b)
	}
	if !slices.Contains(names, filepath.Join(dir, "kingoal.md")) {
		t.Errorf("%s has no kingoal.md", dir)
	}
	return m
}
