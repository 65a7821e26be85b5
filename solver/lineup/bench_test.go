package lineup_test

import (
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

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
