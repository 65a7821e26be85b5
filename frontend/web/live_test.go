package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/web"
	"github.com/kingoal/kingoal/internal/safefile"
)

// pointsColumn matches a league table's row: the agent, then P (matches played).
var pointsColumn = regexp.MustCompile(`<tr data-agent="[^"]*"><td>\d+</td><td class="agent">[^<]*</td><td>(\d+)</td>`)

// A run not finished is shown as far as it has come: progress.json and the leaderboard give
// ReadProgress's shards and matches, the league table sums the matches on disk, the runs
// page follows it; a process holding the run makes it "being played", and its replays stay
// 409 until it ends; once finished, the page is the finished run's.
func TestLiveRun(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "live")
	c := arenatest.Interrupted(t, dir, 1100)
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	want, err := arena.ReadProgress(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string, playing bool) {
		t.Helper()
		code, body := get(t, srv, "/run/0/live/progress.json")
		var p struct {
			Complete                       bool
			Playing, Shards, Done, Matches int
			Total                          int `json:"total_matches"`
			State                          string
		}
		if err := json.Unmarshal([]byte(body), &p); code != 200 || err != nil || p.Complete || p.Shards != 4 || p.Done != want.Done ||
			p.Matches != want.Matches || p.Total != 1800 || (p.Playing != 0) != playing {
			t.Fatalf("%s: progress.json %d %s (%v); ReadProgress: %d of %d shards, %d matches", when, code, body, err, want.Done, want.Shards, want.Matches)
		}
		code, body = get(t, srv, "/run/0/live/")
		played := 0
		for _, m := range pointsColumn.FindAllStringSubmatch(body, -1) {
			var n int
			fmt.Sscan(m[1], &n)
			played += n
		}
		status := map[bool]string{false: "Interrupted", true: "Being played"}[playing]
		if code != 200 || !strings.Contains(body, status) || !strings.Contains(body, fmt.Sprintf("%d of 4 shards", want.Done)) ||
			!strings.Contains(body, `data-state="`+p.State+`"`) || played != 2*want.Matches || strings.Contains(body, `href="matches/"`) {
			t.Fatalf("%s: leaderboard %d, %d appearances in the table for %d matches:\n%s", when, code, played, want.Matches, body)
		}
		if code, body = get(t, srv, "/"); code != 200 || !strings.Contains(body, `data-progress="/run/0/live/progress.json"`) || !strings.Contains(body, `href="/run/0/live/"`) {
			t.Fatalf("%s: runs page %d:\n%s", when, code, body)
		}
	}
	check("interrupted", false)
	lock, err := safefile.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	check("held", true)
	if code, _ := get(t, srv, "/run/0/live/match/0/"); code != 409 {
		t.Errorf("a replay of a run being played: %d", code)
	}
	lock.Unlock()
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, srv, "/run/0/live/"); code != 200 || strings.Contains(body, "data-progress") || !strings.Contains(body, `href="matches/"`) {
		t.Fatalf("finished: %d\n%s", code, body)
	}
	if code, body := get(t, srv, "/run/0/live/progress.json"); code != 200 || !strings.Contains(body, `"complete":true`) || !strings.Contains(body, `"done":4`) {
		t.Fatalf("finished: progress.json %d %s", code, body)
	}
}

// A finished run's leaderboard is kept between requests, and read again once the run's files
// change: a run played again in its directory shows its own agents.
func TestFinishedLeaderboardFollowsItsFiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	play := func(agents ...string) {
		t.Helper()
		c := arena.Config{Agents: agents, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 4, Seed: 3}
		if err := arena.Clear(dir); err != nil {
			t.Fatal(err)
		}
		if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	play("random", "fixed:2-2-2-2-2")
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	for range 2 {
		if code, body := get(t, srv, "/run/0/run/"); code != 200 || !strings.Contains(body, "fixed:2-2-2-2-2") {
			t.Fatalf("%d\n%s", code, body)
		}
	}
	play("random", "fixed:1-3-3-2-1")
	if code, body := get(t, srv, "/run/0/run/"); code != 200 || !strings.Contains(body, "fixed:1-3-3-2-1") || strings.Contains(body, "fixed:2-2-2-2-2") {
		t.Fatalf("the run played again: %d\n%s", code, body)
	}
}
