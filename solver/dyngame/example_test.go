package dyngame_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/dyngame"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// A Basic coach with one move against a Dynamic one, 10-throw halves: the game's value to
// home, the kick-off line-ups, the check, and the Dynamic side's shift after winning a
// throw a goal down.
func ExampleSolve() {
	r := env.Rules{ThrowsPerHalf: 10, Moves: 1, Modes: [2]env.Mode{env.Basic, env.Dynamic}}
	g, err := dyngame.Solve(game.Problem{Rules: r, Payoff: lineup.PayoffWinLoss, Verify: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	k := g.KickOff()
	c, _ := g.Check()
	fmt.Printf("value to home %+.4f, home %s, away %s, exploitability %.0g\n", g.Value(), k.Home[0].Lineup, k.Away[0].Lineup, c.Exploitability)
	away := k.Away[0].Lineup
	to, _ := g.ChoiceFor(env.Observation{Player: env.Away, Decision: env.Shift, Period: env.SecondHalf, ThrowsLeft: 6,
		Own: away, Opp: k.Home[0].Lineup, OwnMode: env.Dynamic, Ball: 3, OwnGoals: 0, OppGoals: 1, OppMovesLeft: 1, Possession: 1})
	fmt.Println(env.DescribeChange(away, to))
	// Output:
	// value to home -0.2746, home 1-2-4-2-1, away 1-2-5-1-1, exploitability 0
	// move 1 counter (sector 3 → 4): 1-2-5-1-1 → 1-2-4-2-1
}
