package arena_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// cfg has 3 pairings × 200 matches = 600 matches (one shard).
func cfg(workers int) arena.Config {
	return arena.Config{Agents: []string{"random", "fixed:2-2-2-2-2", "heuristic"}, Rules: env.Rules{ThrowsPerHalf: 6}, Matches: 200, Seed: 11, Workers: workers}
}

func matchesBytes(t *testing.T, dir string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "matches.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRunIsReproducibleAcrossWorkers(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	tally, err := arena.Play(context.Background(), cfg(1), a, arena.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(a, "matches.parquet"), datasets.MatchesSchema)
	if err != nil || tally.Matches() != len(rows) {
		t.Fatalf("%v: tally %d, file %d", err, tally.Matches(), len(rows))
	}
	if _, err := arena.Play(context.Background(), cfg(3), b, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(matchesBytes(t, a), matchesBytes(t, b)) {
		t.Fatal("1 and 3 workers wrote different matches.parquet")
	}
	if len(rows) != 600 {
		t.Fatalf("%d rows", len(rows))
	}
	// Common random numbers: a fixture and its mirror share the dice and swap the sides.
	for i := 0; i+1 < len(rows); i += 2 {
		x, y := rows[i], rows[i+1]
		if x.Leg != y.Leg || x.DiceSeed != y.DiceSeed || x.HomeIndex != y.AwayIndex || x.AwayIndex != y.HomeIndex {
			t.Fatalf("rows %d and %d are not a mirrored pair: %+v %+v", i, i+1, x, y)
		}
		if i > 0 && rows[i-2].Pairing == x.Pairing && rows[i-2].DiceSeed == x.DiceSeed {
			t.Fatal("two legs share dice")
		}
	}
	info, err := arena.ReadInfo(a)
	if err != nil || !info.Complete || info.TotalMatches != 600 {
		t.Fatalf("run.json %+v %v", info, err)
	}
	if _, err := os.Stat(filepath.Join(a, "shards")); !errors.Is(err, os.ErrNotExist) {
		t.Error("shards left after a complete run")
	}
}

func TestInterruptedRunResumes(t *testing.T) {
	want := t.TempDir()
	// 3 pairings × 1,000 matches; cancelled after the first batch, at most the batches in
	// flight (workers + 1 of 256) finish, far fewer than 3,000.
	big := cfg(2)
	big.Matches = 1000
	big.LogThrows = true // the throw shards go through the same interruption
	if _, err := arena.Play(context.Background(), big, want, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	interrupted := func() (string, int) {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		finished := 0
		_, err := arena.Play(ctx, big, dir, arena.Options{Events: arena.Events{Matches: func(done, _ int) {
			finished = done
			if done >= 300 {
				cancel()
			}
		}}})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted run: %v", err)
		}
		return dir, finished
	}
	dir, finished := interrupted()
	files, err := filepath.Glob(filepath.Join(dir, "shards", "matches-*.parquet")) // logged shards hold 512
	kept := 0
	for _, f := range files {
		ms, rerr := datasets.ReadParquet[datasets.MatchRow](f, datasets.MatchesSchema)
		kept, err = kept+len(ms), errors.Join(err, rerr)
	}
	if err != nil || kept != finished || finished < 256 || finished > 1024 {
		t.Fatalf("kept %d matches of %d finished in %d shards (%v)", kept, finished, len(files), err)
	}
	if info, _ := arena.ReadInfo(dir); info.Complete {
		t.Fatal("an interrupted run says it is complete")
	}
	other := big
	other.Seed = 12
	if _, err := arena.Play(context.Background(), other, dir, arena.Options{Resume: true}); err == nil {
		t.Fatal("resuming with another seed was accepted")
	}
	one := big
	one.Workers = 1
	if _, err := arena.Play(context.Background(), one, dir, arena.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(matchesBytes(t, want), matchesBytes(t, dir)) {
		t.Fatal("the resumed run differs from the uninterrupted one")
	}
	wt, _ := os.ReadFile(filepath.Join(want, "throws.parquet"))
	gt, _ := os.ReadFile(filepath.Join(dir, "throws.parquet"))
	if len(wt) == 0 || !bytes.Equal(wt, gt) {
		t.Fatal("the resumed run's throws.parquet differs")
	}
	// A damaged shard (a disk error; a crash cannot leave one, writes are atomic) is replayed.
	dir, _ = interrupted()
	os.WriteFile(filepath.Join(dir, "shards", "matches-00000.parquet"), []byte("garbage"), 0o644)
	if _, err := arena.Play(context.Background(), big, dir, arena.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(matchesBytes(t, want), matchesBytes(t, dir)) {
		t.Fatal("the run resumed over a damaged shard differs")
	}
}

func TestLeagueTableOrder(t *testing.T) {
	specs := []string{"a", "b", "c", "d"}
	m := func(h, a, hg, ag int) datasets.MatchRow {
		r := datasets.MatchRow{HomeIndex: int32(h), AwayIndex: int32(a), HomeGoals: int32(hg), AwayGoals: int32(ag), Result: "draw", HomePoints: 1, AwayPoints: 1}
		switch {
		case hg > ag:
			r.Result, r.HomePoints, r.AwayPoints = "home", 3, 0
		case ag > hg:
			r.Result, r.HomePoints, r.AwayPoints = "away", 0, 3
		}
		return r
	}
	rows := []datasets.MatchRow{
		m(0, 1, 1, 0),                               // a beats b
		m(1, 2, 1, 0),                               // b beats c
		m(2, 0, 1, 0),                               // c beats a: a, b, c level on points, GD 0, GF 1 and head-to-head (3 each)
		m(3, 0, 0, 0), m(3, 1, 0, 0), m(3, 2, 0, 0), // d draws all: 3 points, GD 0, GF 0
	}
	table := arena.LeagueTable(tallyOf(t, rows, 4), specs, 1)
	if table[3].Agent != "d" {
		t.Fatalf("d has fewer goals scored and must be last: %+v", table)
	}
	// a, b, c are level on everything, head-to-head included, so lots decide,
	// reproducibly for a seed.
	again := arena.LeagueTable(tallyOf(t, rows, 4), specs, 1)
	for i := range table {
		if table[i] != again[i] {
			t.Fatal("the draw of lots is not reproducible")
		}
	}
	orders := map[string]bool{} // and the lots really decide: seeds give different orders
	for seed := range uint64(16) {
		tt := arena.LeagueTable(tallyOf(t, rows, 4), specs, seed)
		orders[tt[0].Agent+tt[1].Agent+tt[2].Agent] = true
	}
	if len(orders) < 2 {
		t.Fatalf("16 seeds gave one order of the tied agents: %v", orders)
	}
	if table[0].P != 3 || table[0].Pts != 4 || table[0].W+table[0].D+table[0].L != 3 {
		t.Fatalf("counts: %+v", table[0])
	}
	// Head-to-head decides a two-way tie before lots.
	two := []datasets.MatchRow{m(0, 1, 0, 1), m(2, 0, 0, 1), m(1, 2, 0, 1)} // b beats a; a beats c; c beats b
	two = append(two, m(0, 2, 2, 2))                                        // a and c draw: a 4 pts, GD 0, GF 3; c 4 pts, GD 0, GF 3
	tt := arena.LeagueTable(tallyOf(t, two, 3), specs[:3], 1)
	if tt[0].Pts != tt[1].Pts || tt[0].GD() != tt[1].GD() || tt[0].GF != tt[1].GF {
		t.Fatalf("the example needs a tie: %+v", tt)
	}
	// Between a and c, a took 4 points (a win and a draw), c took 1: a goes first, whatever the lots.
	for seed := range uint64(8) {
		if tt := arena.LeagueTable(tallyOf(t, two, 3), specs[:3], seed); tt[0].Agent != "a" || tt[1].Agent != "c" {
			t.Fatalf("seed %d: head-to-head ignored: %+v", seed, tt)
		}
	}
}

func TestGauntletSchedule(t *testing.T) {
	c := arena.Config{Format: arena.Gauntlet, Agents: []string{"heuristic", "random", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1"}, Matches: 4}
	fs := arenatest.Plan(t, c).Schedule()
	if len(fs) != 12 {
		t.Fatalf("%d fixtures, want 3 opponents × 4", len(fs))
	}
	for _, f := range fs {
		if f.Home != 0 && f.Away != 0 {
			t.Fatalf("a gauntlet match without the first agent: %+v", f)
		}
	}
	if _, err := arena.ParseFormat("swiss"); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestThrowLog(t *testing.T) {
	c := arena.Config{Agents: []string{"heuristic", "random"}, Rules: env.Rules{ThrowsPerHalf: 5, Knockout: true, ExtraThrowsPerHalf: 2},
		Matches: 30, Seed: 3, LogThrows: true, Dice: true}
	dirs := [2]string{t.TempDir(), t.TempDir()}
	for i, w := range []int{1, 2} {
		c.Workers = w
		if _, err := arena.Play(context.Background(), c, dirs[i], arena.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := os.ReadFile(filepath.Join(dirs[0], "throws.parquet"))
	b, _ := os.ReadFile(filepath.Join(dirs[1], "throws.parquet"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("throws.parquet differs between worker counts")
	}
	matches, _ := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dirs[0], "matches.parquet"), datasets.MatchesSchema)
	throws, err := datasets.ReadParquet[datasets.ThrowRow](filepath.Join(dirs[0], "throws.parquet"), datasets.ThrowsSchema)
	if err != nil {
		t.Fatal(err)
	}
	byMatch := map[int64][]datasets.ThrowRow{}
	for _, r := range throws {
		byMatch[r.MatchID] = append(byMatch[r.MatchID], r)
	}
	for _, m := range matches {
		rows := byMatch[m.MatchID]
		regular, kicks := 0, 0
		for i, r := range rows {
			if int(r.Index) != i {
				t.Fatalf("match %d: index %d at %d", m.MatchID, r.Index, i)
			}
			switch r.Kind {
			case "throw":
				regular++
				if len(r.HomeValues) != int(r.HomeDice) || len(r.AwayValues) != int(r.AwayDice) {
					t.Fatalf("dice %v v %v for %d v %d dice", r.HomeValues, r.AwayValues, r.HomeDice, r.AwayDice)
				}
			case "kick":
				kicks++
			}
		}
		want := 10
		if m.ExtraTime {
			want += 4
		}
		last := rows[len(rows)-1]
		if regular != want || last.HomeGoals != m.HomeGoals || last.AwayGoals != m.AwayGoals || (kicks > 0) != m.Penalties {
			t.Fatalf("match %d: %d throws (want %d), %d kicks, last %+v, match %+v", m.MatchID, regular, want, kicks, last, m)
		}
	}
}

func TestDecisionLog(t *testing.T) {
	c := arena.Config{Agents: []string{"heuristic", "random"}, Rules: env.Rules{ThrowsPerHalf: 6}, Matches: 10, Seed: 5, LogDecisions: true}
	dir := t.TempDir()
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	rows, err := datasets.ReadParquet[datasets.DecisionRow](filepath.Join(dir, "decisions.parquet"), datasets.DecisionsSchema)
	if err != nil {
		t.Fatal(err)
	}
	matches, _ := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema)
	type ep struct {
		id     int64
		player string
	}
	steps, terminal := map[ep]int{}, map[ep]float32{}
	for _, r := range rows {
		e := ep{r.MatchID, r.Player}
		if int(r.Step) != steps[e] || len(r.Observation) != env.ObservationSize || len(r.Mask) != env.NumActions || !r.Mask[r.Action] {
			t.Fatalf("row %+v", r)
		}
		steps[e]++
		if r.Terminated {
			terminal[e] = r.Reward
		} else if r.Reward != 0 {
			t.Fatalf("a non-terminal step with reward: %+v", r)
		}
	}
	for _, m := range matches {
		want := map[string]float32{"home": 0, "away": 0}
		switch m.Result {
		case "home":
			want["home"], want["away"] = 1, -1
		case "away":
			want["home"], want["away"] = -1, 1
		}
		for _, side := range []string{"home", "away"} {
			if r, ok := terminal[ep{m.MatchID, side}]; !ok || r != want[side] {
				t.Fatalf("match %d %s: terminal reward %v (present %v), result %s", m.MatchID, side, r, ok, m.Result)
			}
		}
	}
}

func TestFreshRunRefusesAnExistingRun(t *testing.T) {
	dir := t.TempDir()
	c := arena.Config{Agents: []string{"random", "heuristic"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 4, Seed: 1, LogThrows: true}
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "matches.parquet"))
	c.LogThrows = false
	var existing *arena.ExistingRunError
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); !errors.As(err, &existing) || !existing.Complete || existing.Total != 4 {
		t.Fatalf("a fresh run into a finished one: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "matches.parquet")); string(after) != string(before) {
		t.Fatal("the refused run changed matches.parquet")
	}
	if err := arena.Clear(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "throws.parquet")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a stale throws.parquet of the earlier run is still there after Clear")
	}
	// Resuming a directory without a run creates nothing.
	empty := filepath.Join(t.TempDir(), "none")
	if _, err := arena.Play(context.Background(), c, empty, arena.Options{Resume: true}); !errors.Is(err, arena.ErrNoRun) {
		t.Fatalf("resume of nothing: %v", err)
	}
	if _, err := os.Stat(empty); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused resume created the directory")
	}
	// Resuming a finished run plays nothing and returns its tally.
	tally, err := arena.Play(context.Background(), c, dir, arena.Options{Resume: true})
	if err != nil || tally.Matches() != 4 {
		t.Fatalf("resume of a finished run: %v", err)
	}
}

// TestRunRefusesABadConfigBeforeCounting: a library caller's one-agent cup gets Validate's
// words, not a division by zero while the shards are counted (issue 12).
func TestRunRefusesABadConfigBeforeCounting(t *testing.T) {
	for _, c := range []arena.Config{
		{Format: arena.Knockout, Agents: []string{"random"}, Rules: env.Rules{Knockout: true}, Matches: 1},
		{Format: arena.League, Agents: nil, Matches: 1},
	} {
		_, err := arena.Play(context.Background(), c, t.TempDir(), arena.Options{})
		if err == nil || !strings.Contains(err.Error(), "at least two agents") {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// tallyOf is arena.TallyOf for rows a test knows are good.
func tallyOf(t *testing.T, rows []datasets.MatchRow, n int) *arena.Tally {
	t.Helper()
	tally, err := arena.TallyOf(rows, n)
	if err != nil {
		t.Fatal(err)
	}
	return tally
}

// TestTallyRefusesRowsItCannotHold: a damaged or foreign row is an error naming it, not an
// index panic (issue 12).
func TestTallyRefusesRowsItCannotHold(t *testing.T) {
	good := datasets.MatchRow{HomeIndex: 0, AwayIndex: 1, Result: "home"}
	for _, bad := range []datasets.MatchRow{
		{MatchID: 1, HomeIndex: 0, AwayIndex: 3, Result: "home"},
		{MatchID: 2, HomeIndex: -1, AwayIndex: 1, Result: "draw"},
		{MatchID: 3, HomeIndex: 0, AwayIndex: 1, Round: 9, Result: "away", Winner: "away"},
		{MatchID: 4, HomeIndex: 0, AwayIndex: 1, Result: "lost"},
	} {
		if _, err := arena.TallyOf([]datasets.MatchRow{good, bad}, 3); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestLoggedRunsUseSmallShards: with throws or decisions logged a shard holds
// LoggedShardSize matches (what memory holds scales with it), recorded in run.json.
func TestLoggedRunsUseSmallShards(t *testing.T) {
	c := arena.Config{Agents: []string{"fixed:2-2-2-2-2", "fixed:1-3-3-2-1"}, Matches: 3000, Seed: 1}
	if got := arenatest.Plan(t, c).Shards(); got != 1 {
		t.Errorf("3,000 matches without logs: %d shards, want 1", got)
	}
	c.LogThrows = true
	if got, want := arenatest.Plan(t, c).Shards(), (3000+arena.LoggedShardSize-1)/arena.LoggedShardSize; got != want {
		t.Errorf("3,000 matches with throws: %d shards, want %d", got, want)
	}
	c.Rules = env.Rules{ThrowsPerHalf: 3}
	dir := t.TempDir()
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	info, err := arena.ReadInfo(dir)
	if err != nil || info.ShardSize != arena.LoggedShardSize || !info.Complete {
		t.Errorf("run.json: %+v, %v", info, err)
	}
	// Longer matches log more throws each: the shards shrink to hold as many throws.
	c.Rules, c.Matches = env.Rules{ThrowsPerHalf: 450}, 100
	dir = t.TempDir()
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	if info, err := arena.ReadInfo(dir); err != nil || info.ShardSize != 32 || arenatest.Plan(t, c).Shards() != 4 {
		t.Errorf("450-throw halves: shards of %d (%d shards), want 32 (4): %v", info.ShardSize, arenatest.Plan(t, c).Shards(), err)
	}
}

// Matches nobody logs the throws of are drawn goal by goal; EveryThrow draws them one at a
// time, as a logged run does, so the two play the same matches — and a run.json without a
// sampler (from a build before the goal sampler) resumes only as such.
func TestEveryThrowPlaysTheLoggedMatches(t *testing.T) {
	logged, every, goals := cfg(2), cfg(2), cfg(2)
	logged.LogThrows, every.EveryThrow = true, true
	dirs := map[string]string{}
	for name, c := range map[string]arena.Config{"logged": logged, "every": every, "goals": goals} {
		dirs[name] = t.TempDir()
		if _, err := arena.Play(context.Background(), c, dirs[name], arena.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	rows := func(name string) []datasets.MatchRow { // rows, not bytes: logged runs write smaller shards
		r, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dirs[name], "matches.parquet"), datasets.MatchesSchema)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if !slices.Equal(rows("logged"), rows("every")) {
		t.Fatal("EveryThrow played other matches than the logged run")
	}
	if slices.Equal(rows("goals"), rows("every")) {
		t.Fatal("the goal sampler drew the very same matches: is it in use?")
	}
	for name, want := range map[string]string{"logged": "throws", "every": "throws", "goals": "goals"} {
		if info, _ := arena.ReadInfo(dirs[name]); info.DrawnBy() != want {
			t.Errorf("%s run: run.json says sampler %q, want %q", name, info.Sampler, want)
		}
	}
	// A run.json as a build before the goal sampler wrote it: no "sampler".
	path := filepath.Join(dirs["every"], "run.json")
	var stored map[string]any
	if b, err := os.ReadFile(path); err != nil || json.Unmarshal(b, &stored) != nil {
		t.Fatal(err)
	}
	delete(stored, "sampler")
	delete(stored, "checksum") // nor a checksum: those came later still
	b, _ := json.Marshal(stored)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := arenatest.Plan(t, every).Dir(dirs["every"]).Start(true); err != nil {
		t.Errorf("an older run drawn throw by throw does not resume with EveryThrow: %v", err)
	}
	if err := arenatest.Plan(t, goals).Dir(dirs["every"]).Start(true); err == nil || !strings.Contains(err.Error(), "sampler") {
		t.Errorf("an older run resumed goal by goal: %v", err)
	}
}

// TestTooManyAgentsAreRefusedUpFront: 15,000 agents reached 16 GB before a match was played.
func TestTooManyAgentsAreRefusedUpFront(t *testing.T) {
	specs := make([]string, arena.MaxAgents+1)
	for i := range specs {
		specs[i] = fmt.Sprintf("random#%d", i)
	}
	c := arena.Config{Format: arena.Knockout, Agents: specs, Rules: env.Rules{Knockout: true}, Matches: 1}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "at most 2048") {
		t.Fatalf("%d agents: %v", len(specs), err)
	}
}
