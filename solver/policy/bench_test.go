package policy_test

import (
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/policy"
)

// BenchmarkSolveBasic: one optimal Basic policy, default rules (target ≤ 2 s).
func BenchmarkSolveBasic(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := policy.SolveBasic(policy.BasicProblem{Own: lu("2-2-2-2-2"), Opponent: lu("1-3-3-2-1")}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveDynamic: one optimal Dynamic policy, default rules (target ≤ 10 s).
func BenchmarkSolveDynamic(b *testing.B) {
	r := env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Basic}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := policy.SolveDynamic(policy.DynamicProblem{Rules: r, Own: lu("2-2-2-2-2"), Opponent: lu("1-3-3-2-1")}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveBasicVsPolicy: the best response to an opponent that plays its own optimal
// Basic policy, default rules.
func BenchmarkSolveBasicVsPolicy(b *testing.B) {
	own, opp := lu("2-2-2-2-2"), lu("1-3-3-2-1")
	theirs, err := policy.SolveBasic(policy.BasicProblem{Player: env.Away, Own: opp, Opponent: own})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := policy.SolveBasic(policy.BasicProblem{Own: own, Opponent: opp, OpponentBreaks: policy.Playing(theirs)}); err != nil {
			b.Fatal(err)
		}
	}
}
