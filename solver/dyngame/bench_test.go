package dyngame_test

import (
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/dyngame"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// BenchmarkSolveDynamicGame solves the game with a Dynamic side, with its check, at 10-throw
// halves: each mode pair, the turnover trigger (possession in the state), on all cores.
func BenchmarkSolveDynamicGame(b *testing.B) {
	for name, modes := range map[string][2]env.Mode{"dynamic-v-dynamic": {env.Dynamic, env.Dynamic}, "basic-v-dynamic": {env.Basic, env.Dynamic}} {
		b.Run(name, func(b *testing.B) {
			p := game.Problem{Rules: env.Rules{ThrowsPerHalf: 10, Modes: modes, DynamicTrigger: env.TriggerTurnover}, Payoff: lineup.PayoffWinLoss, Verify: true}
			for b.Loop() {
				if _, err := dyngame.Solve(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
