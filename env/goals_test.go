package env_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// exactLaw is the exact law of the state RunChance stops at (a decision node or the end)
// from s, by expanding every chance outcome with its probability (ChanceOutcomes), merging
// equal states as it goes.
func exactLaw(s env.State) map[env.State]float64 {
	law, open := map[env.State]float64{}, map[env.State]float64{s: 1}
	for len(open) > 0 {
		next := map[env.State]float64{}
		for st, p := range open {
			if st.Node() != env.Chance {
				law[st] += p
				continue
			}
			for _, o := range st.ChanceOutcomes() {
				c := st
				c.ApplyChance(o.Outcome)
				next[c] += p * o.Prob
			}
		}
		open = next
	}
	return law
}

// chiSquareFit tests counts (n draws) against law: cells expected at least 5 times on
// their own, the rest pooled; a state outside law's support fails outright.
func chiSquareFit(t *testing.T, name string, law map[env.State]float64, counts map[env.State]int, n int) {
	t.Helper()
	for st := range counts {
		if law[st] == 0 {
			t.Fatalf("%s: drew %s, which the exact law never reaches", name, st)
		}
	}
	chi, cells, poolE, poolO := 0.0, 0, 0.0, 0.0
	for st, p := range law {
		e, o := p*float64(n), float64(counts[st])
		if e < 5 {
			poolE, poolO = poolE+e, poolO+o
			continue
		}
		chi += (o - e) * (o - e) / e
		cells++
	}
	if poolE >= 5 {
		chi += (poolO - poolE) * (poolO - poolE) / poolE
		cells++
	}
	if crit := chiSquareCritical(cells - 1); chi > crit || cells < 4 {
		t.Errorf("%s: χ²=%.1f > %.1f over %d cells", name, chi, crit, cells)
	}
}

// TestGoalSamplerIsExact: the state the goal-by-goal sampler stops at — every field: score,
// ball, possession, throws left, period — follows the exact law from enumeration: to the
// end of no-move matches, to the first break of matches with moves, with ties rethrown and
// counted, from a kick-off and from a ball away from midfield (where it throws throw by
// throw until the next kick-off). FastSampler passes the same test (the yardstick).
func TestGoalSamplerIsExact(t *testing.T) {
	const n = 100000
	for vi, v := range []struct {
		rules env.Rules
		moves []env.Outcome // chance outcomes applied before the test starts
	}{
		{env.Rules{ThrowsPerHalf: 5, Moves: env.NoMoves}, nil},
		{env.Rules{ThrowsPerHalf: 5, Moves: env.NoMoves, TiesCount: true}, nil},
		{env.Rules{ThrowsPerHalf: 6}, nil}, // stops at the first break: a goal or half time
		{env.Rules{ThrowsPerHalf: 5, Moves: env.NoMoves}, []env.Outcome{env.HomeWins}},
		{env.Rules{ThrowsPerHalf: 4, Moves: env.NoMoves, TiesCount: true}, []env.Outcome{env.Tie, env.AwayWins, env.AwayWins}},
	} {
		start := mustMatch(t, v.rules, "1-2-3-3-1", "3-1-2-2-2")
		for _, o := range v.moves {
			play(t, &start, o)
		}
		law := exactLaw(start)
		for name, smp := range map[string]env.Sampler{
			"goal": env.NewGoalSampler(rand.NewPCG(uint64(vi), 7)),
			"fast": env.NewFastSampler(rand.NewPCG(uint64(vi), 8)),
		} {
			counts := map[env.State]int{}
			for range n {
				s := start
				env.RunChance(&s, smp)
				counts[s]++
			}
			chiSquareFit(t, fmt.Sprintf("variant %d, %s sampler", vi, name), law, counts, n)
		}
	}
}

// TestGoalSamplerAgreesOnFullMatches compares whole default-length matches (score pairs;
// a knockout's shoot-out winner) played by Playout with the goal and the throw sampler: a
// two-sample χ² test of homogeneity.
func TestGoalSamplerAgreesOnFullMatches(t *testing.T) {
	const n = 20000
	for _, r := range []env.Rules{
		{Moves: env.NoMoves},
		{Moves: env.NoMoves, Knockout: true, TiesCount: true},
	} {
		start := mustMatch(t, r, "1-2-3-3-1", "2-2-2-2-2")
		hist := [2]map[int]int{{}, {}}
		for i, smp := range []env.Sampler{env.NewGoalSampler(rand.NewPCG(21, 1)), env.NewFastSampler(rand.NewPCG(21, 2))} {
			for range n {
				s := start
				env.Playout(&s, smp)
				h, a := min(6, s.Goals(env.Home)), min(6, s.Goals(env.Away))
				cell := h*10 + a
				if s.PlayedShootout() {
					cell = 100 + s.Result(env.Home) // 99 or 101 by the shoot-out's winner
				}
				hist[i][cell]++
			}
		}
		chi, cells := 0.0, 0
		for k := range union(hist[0], hist[1]) {
			a, b := float64(hist[0][k]), float64(hist[1][k])
			if a+b < 10 {
				continue
			}
			e := (a + b) / 2
			chi += (a-e)*(a-e)/e + (b-e)*(b-e)/e
			cells++
		}
		if crit := chiSquareCritical(cells - 1); chi > crit || cells < 20 {
			t.Errorf("%v: the goal and throw samplers disagree: χ²=%.1f > %.1f over %d cells", r, chi, crit, cells)
		}
	}
}

// countingSource counts the numbers drawn.
type countingSource struct {
	rand.Source
	n int
}

func (c *countingSource) Uint64() uint64 { c.n++; return c.Source.Uint64() }

// TestGoalSamplerJumps: a default no-move match takes one draw a goal and a period, not one
// a throw, and Dynamic players (whose shifts need every throw) are played throw by throw.
func TestGoalSamplerJumps(t *testing.T) {
	for _, bc := range []struct {
		modes    [2]env.Mode
		min, max float64
	}{{[2]env.Mode{env.Basic, env.Basic}, 2, 12}, {[2]env.Mode{env.Dynamic, env.Basic}, 90, 1000}} {
		src := &countingSource{Source: rand.NewPCG(1, 1)}
		smp := env.NewGoalSampler(src)
		start := mustMatch(t, env.Rules{Moves: env.NoMoves, Modes: bc.modes}, "1-2-3-3-1", "2-2-2-2-2")
		goals := 0
		for range 1000 {
			s := start
			for s.Node() != env.Terminal {
				env.RunChance(&s, smp)
				if s.Node() == env.Decision {
					keepAll(t, &s)
				}
			}
			goals += s.Goals(env.Home) + s.Goals(env.Away)
		}
		if per := float64(src.n) / 1000; per < bc.min || per > bc.max || goals == 0 {
			t.Errorf("%v: %.1f draws a match (%d goals in 1000), want %g–%g", bc.modes, per, goals, bc.min, bc.max)
		}
	}
}

// TestGoalSamplerReseed: Reseed gives the stream of SeededSource(seed, stream).
func TestGoalSamplerReseed(t *testing.T) {
	start := mustMatch(t, env.Rules{Moves: env.NoMoves}, "1-2-3-3-1", "2-2-2-2-2")
	a, b := env.NewGoalSampler(rand.NewPCG(0, 0)), env.NewGoalSampler(env.SeededSource(5, 9))
	a.Reseed(5, 9)
	for range 100 {
		x, y := start, start
		env.Playout(&x, a)
		env.Playout(&y, b)
		if x != y {
			t.Fatalf("reseeded %s, fresh %s", x, y)
		}
	}
}

// TestObservedGoalSamplerPlaysTheSameMatch: watching a goal-by-goal match (Play with an
// observer: one event a jump) draws exactly what playing it unwatched does, the jumps' throws
// add up to the match's, and every goal is an event of its own.
func TestObservedGoalSamplerPlaysTheSameMatch(t *testing.T) {
	for _, r := range []env.Rules{{}, {Knockout: true, TiesCount: true}, {Modes: [2]env.Mode{env.Dynamic, env.Basic}}} {
		s0, err := env.NewState(r)
		if err != nil {
			t.Fatal(err)
		}
		jumps := 0
		for seed := range uint64(200) {
			home, away := env.Keep(env.MustParseLineup("1-2-3-3-1")), env.Keep(env.MustParseLineup("2-2-2-2-2"))
			blind, err := env.Play(s0, home, away, env.NewGoalSampler(env.SeededSource(seed, 0)), nil)
			if err != nil {
				t.Fatal(err)
			}
			throws, goals := 0, 0
			seen, err := env.Play(s0, home, away, env.NewGoalSampler(env.SeededSource(seed, 0)), func(e env.Event) {
				if !e.Chance || e.Before.Period() > env.ExtraSecond {
					return
				}
				throws += max(e.Jump, 1)
				if e.Jump > 0 {
					jumps++
				}
				if d := e.After.Goals(env.Home) + e.After.Goals(env.Away) - e.Before.Goals(env.Home) - e.Before.Goals(env.Away); d > 0 {
					goals += d
				}
				if e.Describe() == "" {
					t.Fatal("an event without a line")
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if seen != blind {
				t.Fatalf("%v seed %d: watched %s, unwatched %s", r, seed, seen, blind)
			}
			want := 2 * r.PeriodLength(env.FirstHalf)
			if seen.PlayedExtraTime() {
				want += 2 * r.PeriodLength(env.ExtraFirst)
			}
			if throws != want || goals != seen.Goals(env.Home)+seen.Goals(env.Away) {
				t.Fatalf("%v seed %d: events stand for %d throws and %d goals, the match had %d and %d", r, seed, throws, goals, want, seen.Goals(env.Home)+seen.Goals(env.Away))
			}
		}
		if dynamic := r.Modes[0] == env.Dynamic; dynamic != (jumps == 0) {
			t.Errorf("%v: %d jumps", r, jumps)
		}
	}
}
