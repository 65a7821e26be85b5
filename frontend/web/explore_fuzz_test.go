package web

import (
	"context"
	"net/url"
	"sync"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

var (
	tinyGameOnce sync.Once
	tinyGame     *game.Game
	tinyGameErr  error
)

// FuzzExploreBreak: any query either is refused with an error or names a break the game
// answers — At and the payoffs of every line-up each side may reach — or refuses with an
// error: nothing panics, whatever the numbers (3-throw halves, one move).
func FuzzExploreBreak(f *testing.F) {
	for _, q := range []string{"period=second+half&throws-left=3&diff=0&home=1-1-4-2-2&home-moves=1&away=1-2-3-2-2&away-moves=1",
		"period=first+half&throws-left=1&diff=-9&home=5-1-1-1-2&home-moves=99999999&away=1-1-1-1-6&away-moves=-1",
		"period=extra+time+2&throws-left=0&diff=0&home=2-2-2-2-2&home-moves=0&away=2-2-2-2-2&away-moves=0"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tinyGameOnce.Do(func() {
			tinyGame, tinyGameErr = game.Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Payoff: lineup.PayoffWinLoss})
		})
		if tinyGameErr != nil {
			t.Fatal(tinyGameErr)
		}
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		st, err := breakOf(q)
		if err != nil {
			return
		}
		sol, err := tinyGame.At(st)
		if err != nil {
			return
		}
		homes := lineupsAt(st.Home.Reachable(st.HomeMoves).Actions())
		if _, err := tinyGame.BreakValues(context.Background(), st, homes, lineupsOf(sol.Away)); err != nil && len(homes) > 0 {
			t.Logf("%v: %v", st, err) // refused, not a panic
		}
	})
}
