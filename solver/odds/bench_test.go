package odds_test

import (
	"testing"

	"github.com/kingoal/kingoal/env"
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
