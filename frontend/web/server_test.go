package web_test

import (
	"context"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/web"
)

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestRunsAndLeaderboard: the runs page lists a finished run; its leaderboard page shows its
// table; traversal, symlinks out of the root and unknown runs are 4xx; a corrupt run is one
// message on its page.
func TestRunsAndLeaderboard(t *testing.T) {
	root := t.TempDir()
	c := arena.Config{Agents: []string{"random", "fixed:2-2-2-2-2"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 4, Seed: 3}
	if _, err := arena.Play(context.Background(), c, filepath.Join(root, "league"), arena.Options{}); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if _, err := arena.Play(context.Background(), c, filepath.Join(outside, "secret"), arena.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "broken", "run.json"), []byte("{not json"), 0o644)
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()

	code, body := get(t, srv, "/")
	if code != 200 || !strings.Contains(body, `href="/run/0/league/"`) || !strings.Contains(body, "finished") || strings.Contains(body, "secret") {
		t.Fatalf("runs page %d:\n%s", code, body)
	}
	code, body = get(t, srv, "/run/0/league/")
	if code != 200 || !strings.Contains(body, "fixed:2-2-2-2-2") || !strings.Contains(body, "Ratings") {
		t.Fatalf("leaderboard %d:\n%s", code, body)
	}
	for path, want := range map[string]int{"/run/0/link/": 404, "/run/0/..%2Fsecret/": 400, "/run/1/league/": 404, "/run/0/nothing/": 404, "/run/x/league/": 404} {
		if code, body := get(t, srv, path); code != want {
			t.Errorf("%s: %d, want %d\n%s", path, code, want, body)
		}
	}
	if code, body := get(t, srv, "/run/0/broken/"); code != 500 || !strings.Contains(body, `class="err"`) {
		t.Errorf("a corrupt run: %d\n%s", code, body)
	}
	// A run whose matches.parquet is a link out of it: refused (403), and the page names the
	// file inside the served directory, never where the server keeps it (issue 64: 200, with
	// the absolute path).
	sym := filepath.Join(root, "sym")
	if err := os.MkdirAll(sym, 0o755); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(root, "league", "run.json")); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(filepath.Join(sym, "run.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret", "matches.parquet"), filepath.Join(sym, "matches.parquet")); err != nil {
		t.Fatal(err)
	}
	code, body = get(t, srv, "/run/0/sym/")
	if code != 403 || !strings.Contains(body, "sym/matches.parquet") || strings.Contains(body, root) || strings.Contains(body, outside) {
		t.Errorf("a run with a linked file: %d\n%s", code, body)
	}
}

// TestResumeCommandIsQuoted: an interrupted run in a directory whose name a shell would read
// otherwise is offered a --resume command quoted for the shell.
func TestResumeCommandIsQuoted(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "my run $(touch x)")
	c := arena.Config{Agents: []string{"fixed:1-3-3-2-1", "fixed:2-2-2-2-2"}, Rules: env.Rules{ThrowsPerHalf: 3}, Matches: 100000, Seed: 3}
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := arena.Play(ctx, c, dir, arena.Options{Events: arena.Events{Matches: func(int, int) { cancel() }}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("the run was to be interrupted: %v", err)
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	code, body := get(t, srv, "/")
	want := "kingoal arena --resume --out '" + dir + "'"
	if code != 200 || !strings.Contains(html.UnescapeString(body), want) {
		t.Errorf("runs page %d: want %q in\n%s", code, want, body)
	}
}
