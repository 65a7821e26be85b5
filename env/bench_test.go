package env_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// BenchmarkThrowKernel is the reference a researcher would write by hand: 90 throws of a
// fixed pairing with a per-sector threshold table, a goal counter and the half-time reset,
// and nothing else. BenchmarkMatch must stay within 1.5× of it.
func BenchmarkThrowKernel(b *testing.B) {
	home, away := env.MustParseLineup("1-2-3-3-1"), env.MustParseLineup("2-2-2-2-2")
	var thr [6]uint64
	for ball := 1; ball <= 5; ball++ {
		hd, ad := env.DiceFor(home, away, ball)
		h, _, _ := env.ThrowOdds(hd, ad, false)
		thr[ball] = uint64(h * (1 << 63) * 2)
	}
	src := rand.NewPCG(1, 2)
	var goals [2]int
	b.ReportAllocs()
	for b.Loop() {
		ball := 3
		for t := 0; t < 90; t++ {
			if t == 45 {
				ball = 3
			}
			if src.Uint64() < thr[ball] {
				if ball == 5 {
					goals[0]++
					ball = 3
				} else {
					ball++
				}
			} else if ball == 1 {
				goals[1]++
				ball = 3
			} else {
				ball--
			}
		}
	}
	if goals[0]+goals[1] == 0 {
		b.Fatal("no goals")
	}
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
