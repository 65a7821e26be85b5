package env_test

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// BenchmarkThrowKernel is the yardstick: the fastest honest bare loop for BenchmarkMatch's
// match (1-2-3-3-1 v 2-2-2-2-2, 45 + 45 throws, ties rethrown), written by hand — one
// uniform number a throw compared with the ball's sector's 64-bit threshold, the winner
// (0 or 1, no branch) indexing a [sector][winner] table of the next sector and one of the
// goal it scores, goals counted and the ball back to midfield at half time. BenchmarkMatch
// must stay within 1.5× of it (BENCHMARKS.md lists the variants tried; this is the fastest).
func BenchmarkThrowKernel(b *testing.B) {
	home, away := env.MustParseLineup("1-2-3-3-1"), env.MustParseLineup("2-2-2-2-2")
	var k kernel
	for ball := 1; ball <= env.Sectors; ball++ {
		hd, ad := env.DiceFor(home, away, ball)
		h, _, _ := env.ThrowOdds(hd, ad, false)
		k.thr[ball] = uint64(h * (1 << 63) * 2)
		for loser, winner := range []env.Player{env.Away, env.Home} { // indexed by the loser: the borrow, as computed
			nb, g := env.MoveBall(ball, winner)
			k.next[ball][loser] = uint8(nb)
			if g {
				k.goal[ball][loser] = 1
			}
		}
	}
	src := rand.NewPCG(1, 2)
	var goals, awayGoals uint64
	b.ReportAllocs()
	for b.Loop() {
		g, a := k.match(src)
		goals, awayGoals = goals+g, awayGoals+a
	}
	if goals == 0 || awayGoals == goals {
		b.Fatal("no goals, or none for home")
	}
}

// kernel is BenchmarkThrowKernel's tables.
type kernel struct {
	thr  [env.Sectors + 1]uint64
	next [env.Sectors + 1][2]uint8 // the ball after a throw lost by home (0) or away (1)
	goal [env.Sectors + 1][2]uint8 // 1 where that throw scores
}

// match plays the kernel's 90 throws and returns the goals and the away side's. A function
// of its own, so its loop keeps everything in registers (inside b.Loop's body the compiler
// kept the ball and the counters on the stack, one store and load a throw).
func (k *kernel) match(src *rand.PCG) (goals, awayGoals uint64) {
	for range 2 { // two halves, each from midfield
		ball := uint8(env.KickOffSector)
		for range 45 {
			_, homeWon := bits.Sub64(src.Uint64(), k.thr[ball], 0) // the winner without a branch
			l := homeWon & 1                                       // the loser: 0 home, 1 away
			g := uint64(k.goal[ball][l])
			goals += g
			awayGoals += g &^ l
			ball = k.next[ball][l]
		}
	}
	return goals, awayGoals
}

// BenchmarkMatch plays one regulation match with fixed line-ups through the rules engine
// (State, FastSampler, Playout).
func BenchmarkMatch(b *testing.B) { benchMatch(b, env.NewFastSampler(rand.NewPCG(1, 2))) }

// benchMatch plays BenchmarkMatch's match with smp.
func benchMatch(b *testing.B, smp env.Sampler) {
	start, _ := env.NewMatch(env.Rules{Moves: env.NoMoves}, env.MustParseLineup("1-2-3-3-1"), env.MustParseLineup("2-2-2-2-2"))
	goals := 0
	b.ReportAllocs()
	for b.Loop() {
		s := start
		env.Playout(&s, smp)
		goals += s.Goals(env.Home)
	}
	if goals == 0 {
		b.Fatal("no goals")
	}
}

// BenchmarkMatchGoals is BenchmarkMatch with the goal-by-goal sampler (GoalSampler): the
// same law, one draw a goal instead of one a throw.
func BenchmarkMatchGoals(b *testing.B) { benchMatch(b, env.NewGoalSampler(rand.NewPCG(1, 2))) }

// BenchmarkPlayObserved is BenchmarkMatch's match through Play with an observer that does
// nothing: the path every logged arena match takes (an Event a throw), against
// BenchmarkMatch's unobserved one.
func BenchmarkPlayObserved(b *testing.B) {
	start, _ := env.NewMatch(env.Rules{Moves: env.NoMoves}, env.MustParseLineup("1-2-3-3-1"), env.MustParseLineup("2-2-2-2-2"))
	smp := env.NewFastSampler(rand.NewPCG(1, 2))
	keep := env.PolicyFunc(func(o env.Observation, m env.Mask) int { return o.Own.Index() })
	events := 0
	b.ReportAllocs()
	for b.Loop() {
		if _, err := env.Play(start, keep, keep, smp, func(env.Event) { events++ }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}

// BenchmarkMatchDice is BenchmarkMatch with every die rolled.
func BenchmarkMatchDice(b *testing.B) { benchMatch(b, env.NewDiceSampler(rand.NewPCG(1, 2))) }

// BenchmarkEnvStep steps the single-agent Env against the no-op opponent (Keep) with an
// agent that keeps its formation, default rules (so the agent is asked at every break). One op = one Step;
// the match count per op is reported as matches/op.
func BenchmarkEnvStep(b *testing.B) {
	e, _ := env.New(env.Config{})
	obs, _ := e.Reset(1)
	keep := env.MustParseLineup("1-2-3-3-1").Index()
	matches, seed := 0, uint64(1)
	b.ReportAllocs()
	for b.Loop() {
		a := keep
		if obs.Decision != env.KickOff {
			a = obs.Own.Index()
		}
		if t, _ := e.Step(a); t.Terminated || t.Truncated {
			matches++
			seed++
			obs, _ = e.Reset(seed)
		} else {
			obs = t.Obs
		}
	}
	b.ReportMetric(float64(matches)/float64(b.N), "matches/op")
}

// BenchmarkEnvMatch plays whole matches through the Env API (Reset + Steps), the figure
// compared with BenchmarkMatch.
func BenchmarkEnvMatch(b *testing.B) {
	e, _ := env.New(env.Config{Rules: env.Rules{Moves: env.NoMoves}})
	keep := env.MustParseLineup("1-2-3-3-1").Index()
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		obs, _ := e.Reset(seed)
		for {
			a := keep
			if obs.Decision != env.KickOff {
				a = obs.Own.Index()
			}
			t, _ := e.Step(a)
			if t.Terminated || t.Truncated {
				break
			}
			obs = t.Obs
		}
	}
}

// BenchmarkVecEnv steps 64 environments at once; one op = one batch Step.
func BenchmarkVecEnv(b *testing.B) {
	v, _ := env.NewVecEnv(64, env.Config{})
	out := v.Reset(1)
	actions := make([]int, v.Len())
	b.ReportAllocs()
	for b.Loop() {
		for i := range actions {
			actions[i] = out.Masks[i].Nth(0)
		}
		out, _ = v.Step(actions)
	}
	b.ReportMetric(float64(b.N*v.Len())/b.Elapsed().Seconds(), "env-steps/s")
}

// BenchmarkSimulate runs env.Simulate (what kingoal simulate runs) on all cores, default
// rules and line-ups 2-2-2-2-2 v 2-2-2-2-2 as the CLI's defaults; one op is one match. The
// target (issue 15): ≥ 80% of cores × BenchmarkMatch's rate.
func BenchmarkSimulate(b *testing.B) {
	l := env.MustParseLineup("2-2-2-2-2")
	for b.Loop() {
		if _, err := env.Simulate(context.Background(), env.SimConfig{Home: l, Away: l, Matches: 1 << 20, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N<<20)/b.Elapsed().Seconds(), "matches/s")
}
