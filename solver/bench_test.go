package solver_test

import (
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// BenchmarkMatchOdds: one exact MatchOdds, default league rules (target ≤ 100 µs).
func BenchmarkMatchOdds(b *testing.B) {
	h, a := lu("1-2-3-3-1"), lu("2-2-2-2-2")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := odds.MatchOdds(h, a, env.Rules{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatchOddsKnockout: the same with extra time and penalties.
func BenchmarkMatchOddsKnockout(b *testing.B) {
	h, a := lu("1-2-3-3-1"), lu("2-2-2-2-2")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := odds.MatchOdds(h, a, env.Rules{Knockout: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatrix: all 121×121 pairings on all cores, default rules (target ≤ 1 s).
func BenchmarkMatrix(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := odds.Matrix(env.Rules{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatchSummary: one matrix cell.
func BenchmarkMatchSummary(b *testing.B) {
	h, a := lu("1-2-3-3-1"), lu("2-2-2-2-2")
	for b.Loop() {
		if _, err := odds.MatchSummary(h, a, env.Rules{Knockout: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEquilibrium: the line-up equilibrium with verification, from a computed matrix
// (target with the matrix ≤ 2 s).
func BenchmarkEquilibrium(b *testing.B) {
	m, err := odds.Matrix(env.Rules{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lineup.Equilibrium(m, lineup.PayoffWinLoss); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveBasic: one optimal Basic policy, default rules (target ≤ 2 s).
func BenchmarkSolveBasic(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := solver.SolveBasic(solver.BasicProblem{Own: lu("2-2-2-2-2"), Opponent: lu("1-3-3-2-1")}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveDynamic: one optimal Dynamic policy, default rules (target ≤ 10 s).
func BenchmarkSolveDynamic(b *testing.B) {
	r := env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Basic}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := solver.SolveDynamic(solver.DynamicProblem{Rules: r, Own: lu("2-2-2-2-2"), Opponent: lu("1-3-3-2-1")}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveBasicVsPolicy: the best response to an opponent that plays its own optimal
// Basic policy, default rules.
func BenchmarkSolveBasicVsPolicy(b *testing.B) {
	own, opp := lu("2-2-2-2-2"), lu("1-3-3-2-1")
	theirs, err := solver.SolveBasic(solver.BasicProblem{Player: env.Away, Own: opp, Opponent: own})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := solver.SolveBasic(solver.BasicProblem{Own: own, Opponent: opp, OpponentBreaks: solver.Playing(theirs)}); err != nil {
			b.Fatal(err)
		}
	}
}
