package odds_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

func ExampleMatchOdds() {
	l := env.MustParseLineup("2-2-2-2-2")
	o, _ := odds.MatchOdds(l, l, env.Rules{})
	fmt.Printf("home %.7f draw %.7f away %.7f goals %.7f\n", o.HomeWin, o.Draw, o.AwayWin, o.HomeGoals)
	s := o.Score.Likeliest(1)[0]
	fmt.Printf("likeliest score %d-%d (%.4f)\n", s.Home, s.Away, s.P)
	// Output:
	// home 0.4263056 draw 0.1473888 away 0.4263056 goals 3.7227816
	// likeliest score 3-4 (0.0473)
}
