package arenatest

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
)

// Plan is arena.NewPlan's plan of c under a background context; a configuration it refuses
// fails the test.
func Plan(tb testing.TB, c arena.Config) *arena.Plan {
	tb.Helper()
	p, err := arena.NewPlan(context.Background(), c)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// Swappable is a finished run inside Root and another outside it, for the tests of what a
// server reads when a name is swapped for a link: the runs differ in an agent
// (fixed:2-2-2-2-2 inside, fixed:1-1-4-2-2 outside), in their matches (2, 3) and so in
// their charts (both written).
type Swappable struct {
	Root, Run, Outside string
	Ours, Theirs       arena.Config
}

// PlaySwappable plays the two runs of a Swappable.
func PlaySwappable(tb testing.TB) Swappable {
	tb.Helper()
	s := Swappable{Root: tb.TempDir(), Outside: filepath.Join(tb.TempDir(), "secret"),
		Ours:   arena.Config{Agents: []string{"random", "fixed:2-2-2-2-2"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 2, Seed: 3},
		Theirs: arena.Config{Agents: []string{"random", "fixed:1-1-4-2-2"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 3, Seed: 4}}
	s.Run = filepath.Join(s.Root, "r")
	for dir, c := range map[string]arena.Config{s.Run: s.Ours, s.Outside: s.Theirs} {
		_, err := arena.Play(context.Background(), c, dir, arena.Options{})
		var lb *arena.Leaderboard
		if err == nil {
			lb, err = arena.ReadLeaderboard(context.Background(), dir)
		}
		if err == nil {
			err = lb.WriteFiles(dir)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// Interrupted plays a league of 1,800 matches in four shards into dir, stopped after
// about stop matches; it returns the config that finishes it (the web app's
// tests of a run shown while it is played).
func Interrupted(t testing.TB, dir string, stop int) arena.Config {
	t.Helper()
	c := arena.Config{Agents: []string{"random", "fixed:2-2-2-2-2", "heuristic"}, Rules: env.Rules{ThrowsPerHalf: 6}, Matches: 600, Seed: 11, LogThrows: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := arena.Play(ctx, c, dir, arena.Options{Events: arena.Events{Matches: func(done, _ int) {
		if done >= stop {
			cancel()
		}
	}}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("the run was to be interrupted: %v", err)
	}
	return c
}
