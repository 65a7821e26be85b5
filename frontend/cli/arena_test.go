package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

func TestArenaAndLeaderboard(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"arena", "--agents", "random;fixed:2-2-2-2-2;heuristic", "--matches", "6", "--throws-per-half", "8", "--out", dir, "--seed", "5"}
	code, out, stderr := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"League: 3 agents, 18 matches (6 per pair), seed 5", "heuristic", "Pts", "exploitability", "≥ "} {
		if !strings.Contains(out, want) {
			t.Errorf("arena output lacks %q\n%s", want, out)
		}
	}
	first, _ := os.ReadFile(filepath.Join(dir, "matches.parquet"))
	code, again, _ := run(t, "leaderboard", dir)
	if code != 0 || again != out || !strings.Contains(out, "Ratings") || !strings.Contains(out, "Head to head") {
		t.Fatalf("leaderboard differs from the arena's table:\n%s\n---\n%s", again, out)
	}
	code, js, _ := run(t, "leaderboard", dir, "--json")
	var lb struct {
		Format, Rules string
		Seed          uint64
		Matches       int
		Table         []struct {
			Rank   int    `json:"rank"`
			Agent  string `json:"agent"`
			Played int    `json:"played"`
			Points int    `json:"points"`
		} `json:"table"`
		Ratings []struct {
			Rating, Low95, High95 float64
			Exploitability        *struct{ Exact bool } `json:"exploitability"`
		} `json:"ratings"`
		HeadToHead [][]*float64 `json:"head_to_head"`
	}
	if code != 0 || json.Unmarshal([]byte(js), &lb) != nil || lb.Format != "league" || !strings.HasPrefix(lb.Rules, "league") || lb.Matches != 18 || lb.Seed != 5 ||
		len(lb.Table) != 3 || lb.Table[0].Played != 12 || len(lb.Ratings) != 3 ||
		lb.HeadToHead[0][0] != nil || lb.HeadToHead[0][1] == nil || *lb.HeadToHead[0][1]+*lb.HeadToHead[1][0] != 1 || lb.Ratings[0].Exploitability == nil {
		t.Fatalf("json: %s", js)
	}
	if _, err := os.Stat(filepath.Join(dir, arena.ExploitabilityFile)); err != nil {
		t.Errorf("the exploitability column is not cached: %v", err)
	}
	// α-Rank's knobs: recorded beside the masses, in the JSON and the note; out of range, a
	// usage error before anything is read.
	var ranked struct {
		M     int     `json:"alpharank_m"`
		Alpha float64 `json:"alpharank_alpha"`
	}
	if code, js, _ := run(t, "leaderboard", dir, "--json"); code != 0 || json.Unmarshal([]byte(js), &ranked) != nil || ranked.M != 50 || ranked.Alpha != 100 {
		t.Errorf("default α-Rank knobs: %+v", ranked)
	}
	if code, js, _ := run(t, "leaderboard", dir, "--json", "--alpharank-m", "7", "--alpharank-alpha", "2.5"); code != 0 || json.Unmarshal([]byte(js), &ranked) != nil || ranked.M != 7 || ranked.Alpha != 2.5 {
		t.Errorf("--alpharank-m 7 --alpharank-alpha 2.5: %+v", ranked)
	}
	if code, text, _ := run(t, "leaderboard", dir, "--alpharank-m", "7"); code != 0 || !strings.Contains(text, "m = 7, α = 100") {
		t.Errorf("the note does not name the knobs:\n%s", text)
	}
	for _, bad := range [][]string{{"--alpharank-m", "1"}, {"--alpharank-alpha", "-3"}} {
		if code, _, stderr := run(t, append([]string{"leaderboard", dir}, bad...)...); code != 2 || !strings.Contains(stderr, "α-Rank") {
			t.Errorf("%v: exit %d, %q", bad, code, stderr)
		}
	}
	for _, png := range []string{"ratings.png", "head_to_head.png"} {
		if st, err := os.Stat(filepath.Join(dir, png)); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", png, err)
		}
	}
	// leaderboard reads the run and writes nothing, unless asked to write its files again.
	for _, f := range []string{"ratings.png", "ratings.parquet"} {
		os.Remove(filepath.Join(dir, f))
	}
	if code, _, _ := run(t, "leaderboard", dir); code != 0 {
		t.Fatal("leaderboard failed")
	}
	if _, err := os.Stat(filepath.Join(dir, "ratings.png")); err == nil {
		t.Error("leaderboard wrote ratings.png without --write-files")
	}
	if code, _, _ := run(t, "leaderboard", dir, "--write-files"); code != 0 {
		t.Fatal("leaderboard --write-files failed")
	}
	for _, f := range []string{"ratings.png", "ratings.parquet"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("--write-files did not write %s", f)
		}
	}
	if code, md, _ := run(t, "leaderboard", dir, "--markdown"); code != 0 || !strings.Contains(md, "|---") && !strings.Contains(md, "|:--") && !strings.Contains(md, "| -") {
		t.Errorf("markdown:\n%s", md)
	}
	// Same seed, more workers: the same bytes (the run replaced); without the column.
	if code, out, stderr := run(t, append(args, "--workers", "3", "--force", "--no-exploitability")...); code != 0 || strings.Contains(out, "exploitability") {
		t.Fatalf("--no-exploitability: exit %d, %s\n%s", code, stderr, out)
	}
	second, _ := os.ReadFile(filepath.Join(dir, "matches.parquet"))
	if len(first) == 0 || string(first) != string(second) {
		t.Error("the same seed wrote another matches.parquet")
	}
	if code, again, _ := run(t, "leaderboard", dir); code != 0 || strings.Contains(again, "exploitability") {
		t.Errorf("leaderboard of a run without the column shows one:\n%s", again)
	}
	for _, bad := range [][]string{
		{"arena", "--agents", "random"},
		{"arena", "--agents", "random;nobody"},
		{"arena", "--matches", "0"},
		{"leaderboard"},
		{"arena", "--format", "swiss"},
	} {
		if code, _, stderr := run(t, bad...); code != command.ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d %q", bad, code, stderr)
		}
	}
	if code, _, stderr := run(t, "leaderboard", t.TempDir()); code != command.ExitFailure || !strings.Contains(stderr, "run.json") {
		t.Errorf("empty dir: exit %d %q", code, stderr)
	}
}

func TestArenaKnockoutCups(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cup")
	code, out, stderr := run(t, "arena", "--format", "cup", "--agents", "random;fixed:2-2-2-2-2;heuristic;fixed:1-3-3-2-1", "--matches", "30",
		"--throws-per-half", "6", "--draw-bracket", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Knockout: 4 agents, 30 cups (90 matches), bracket drawn for every cup", "titles", "finals", "semi-finals", "extra time"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	if code, again, _ := run(t, "leaderboard", dir); code != 0 || again != out {
		t.Fatalf("leaderboard differs from the arena's:\n%s\n---\n%s", again, out)
	}
	code, js, _ := run(t, "leaderboard", dir, "--json")
	var lb struct {
		Table []any `json:"table"`
		Cup   []struct {
			Titles  int   `json:"titles"`
			Reached []int `json:"reached"`
		} `json:"cup"`
	}
	titles, finals := 0, 0
	if code != 0 || json.Unmarshal([]byte(js), &lb) != nil || lb.Table != nil || len(lb.Cup) != 4 {
		t.Fatalf("json: %s", js)
	}
	for _, c := range lb.Cup {
		titles += c.Titles
		finals += c.Reached[1]
	}
	if titles != 30 || finals != 60 {
		t.Fatalf("%d titles and %d finalists in 30 cups: %s", titles, finals, js)
	}
	if code, _, e := run(t, "arena", "--draw-bracket", "--out", dir); code != 2 || !strings.Contains(e, "--draw-bracket") {
		t.Errorf("--draw-bracket in a league: exit %d %q", code, e)
	}
}

func TestArenaWorldCup(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wc")
	agents := "random;fixed:2-2-2-2-2;heuristic;fixed:1-3-3-2-1;fixed:1-2-3-2-2;fixed:2-3-2-2-1"
	code, out, stderr := run(t, "arena", "--format", "worldcup", "--group-size", "3", "--agents", agents, "--matches", "30",
		"--throws-per-half", "6", "--out", dir, "--no-exploitability")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// two groups of three: 6 group matches and 3 knockout matches a cup
	for _, want := range []string{"World Cup: 6 agents in 2 groups (3, 3), 30 cups (270 matches)", "titles", "finals", "out in group", "group pts/match", "(groups: league matches)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	if code, again, _ := run(t, "leaderboard", dir); code != 0 || again != out {
		t.Fatalf("leaderboard differs from the arena's:\n%s\n---\n%s", again, out)
	}
	// --resume takes the format and the group size from run.json
	if code, again, e := run(t, "arena", "--resume", "--out", dir, "--no-exploitability"); code != 0 || again != out {
		t.Fatalf("resumed (exit %d, %s):\n%s\n---\n%s", code, e, again, out)
	}
	// the format's other name is the same format (it was refused as differing)
	if code, again, e := run(t, "arena", "--resume", "--out", dir, "--format", "world-cup", "--no-exploitability"); code != 0 || again != out {
		t.Fatalf("resumed with --format world-cup (exit %d, %s)", code, e)
	}
	if code, _, e := run(t, "arena", "--resume", "--out", dir, "--group-size", "6"); code != 2 || !strings.Contains(e, "--group-size") {
		t.Errorf("resume with another group size: exit %d %q", code, e)
	}
	code, js, _ := run(t, "leaderboard", dir, "--json")
	var lb struct {
		Cup []struct {
			Titles       int   `json:"titles"`
			Reached      []int `json:"reached"`
			GroupMatches int   `json:"group_matches"`
			GroupExits   int   `json:"group_exits"`
		} `json:"cup"`
	}
	if code != 0 || json.Unmarshal([]byte(js), &lb) != nil || len(lb.Cup) != 6 {
		t.Fatalf("json: %s", js)
	}
	titles, exits, groupMatches := 0, 0, 0
	for _, c := range lb.Cup {
		titles, exits, groupMatches = titles+c.Titles, exits+c.GroupExits, groupMatches+c.GroupMatches
	}
	if titles != 30 || exits != 60 || groupMatches != 2*6*30 {
		t.Fatalf("%d titles, %d group exits, %d group appearances in 30 cups: %s", titles, exits, groupMatches, js)
	}
	for _, bad := range [][]string{
		{"--format", "worldcup", "--group-size", "2", "--agents", agents}, // 3 groups
		{"--group-size", "3", "--agents", agents},                         // a league
	} {
		if code, _, e := run(t, append([]string{"arena", "--out", filepath.Join(t.TempDir(), "x")}, bad...)...); code != 2 || !strings.Contains(e, "group") {
			t.Errorf("%v: exit %d %q", bad, code, e)
		}
	}
}

// FuzzArenaFlags: whatever the flag values, the arena's configuration is either valid (it
// would run) or refused with a one-line usage error — never a panic.
func FuzzArenaFlags(f *testing.F) {
	f.Add("league", "random;fixed:2-2-2-2-2", 6, 0, 4, "goals", false, false, false)
	f.Add("cup", "heuristic; random ;mcts:iters=5;optimal", 1, 2, 4, "throws", true, true, true)
	f.Add("gauntlet", "fixed:1-1-1-2-5;;", -1, -3, 4, "goals", false, true, false)
	f.Add("knockout", "qlearning:model=/nonexistent;random", 3, 1, 4, "dice", true, false, false)
	f.Add("league", "random,random#2,uct:iters=5,c=1.5", 2, 0, 4, "", false, false, false)
	f.Add("league", "fixed:,random", 2, 0, 4, "goals", false, false, false)
	f.Add("worldcup", "random;heuristic;fixed:2-2-2-2-2;fixed:1-3-3-2-1;random#2", 3, 0, 3, "goals", false, false, false)
	f.Add("world-cup", "random;heuristic;fixed:2-2-2-2-2", 1, 0, -7, "throws", false, false, false)
	f.Fuzz(func(t *testing.T, format, agents string, matches, workers, groupSize int, sampler string, draw, throws, dice bool) {
		o := arenaOptions{format: format, agents: agents, matches: matches, workers: workers, groupSize: groupSize, sampler: sampler, drawBracket: draw,
			logThrows: throws, dice: dice, out: "run"}
		o.rules = command.RuleFlags{Knobs: env.DefaultKnobs()}
		cfg, err := o.config()
		var c *arena.Plan
		if err == nil {
			c, err = command.Plan(context.Background(), cfg, io.Discard)
		}
		if err != nil {
			var u command.UsageError
			if !errors.As(err, &u) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("not a one-line usage error: %v", err)
			}
			return
		}
		if err := c.Validate(); err != nil || c.TotalMatches() < 1 || (c.Format == arena.Knockout || c.Format == arena.WorldCup) && !c.Rules.Knockout {
			t.Fatalf("accepted %+v: %v", c, err)
		}
	})
}
