package analysis_test

import (
	"context"
	"os"
	"testing"

	"github.com/kingoal/kingoal/analysis"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// benchMatch analyses one match of random against random (every event valued) against g.
func benchMatch(b *testing.B, g *game.Game) {
	start, events := played(b, g.Problem.Rules, randomPolicy(1), randomPolicy(2), 3)
	b.ResetTimer()
	for range b.N {
		if _, err := analysis.Match(context.Background(), g, start, events, [2]string{"a", "b"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(events)), "events")
}

// BenchmarkMatchShortRules: 6-throw halves with two moves, the game solved in memory (its
// breaks' values are stage games solved again as they are read).
func BenchmarkMatchShortRules(b *testing.B) {
	g, err := game.Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 6, Moves: 2}, Payoff: lineup.PayoffWinLoss})
	if err != nil {
		b.Fatal(err)
	}
	benchMatch(b, g)
}

// BenchmarkMatchDefaultTable: the default rules, judged by the table in
// $KINGOAL_GAME_TABLE (kingoal solve game --out FILE.kgt; skipped without it).
func BenchmarkMatchDefaultTable(b *testing.B) {
	path := os.Getenv("KINGOAL_GAME_TABLE")
	if path == "" {
		b.Skip("KINGOAL_GAME_TABLE: a table of the default rules (kingoal solve game --out FILE.kgt)")
	}
	g, err := game.LoadFile(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	benchMatch(b, g)
}
