package solver

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// GameSize is what a game solve would hold, computed without solving.
type GameSize struct {
	Configs     int   // configurations a break's value vector holds (both line-ups and budgets)
	Layers      int   // (period, throws left) layers
	BreakStates int64 // break states with a value
	Bytes       int64 // values held at once: K of every layer, two throw layers, the breaks read
}

// EstimateGame returns the size of the substitution game under r for payoff p.
func EstimateGame(r env.Rules, p Payoff) (GameSize, error) {
	moves, err := checkGame(GameProblem{Rules: r, Payoff: p})
	if err != nil {
		return GameSize{}, err
	}
	final, err := gameFinal(p)
	if err != nil {
		return GameSize{}, err
	}
	ls := gameLayers(r, p, final)
	lengths := ls.lengths
	size := GameSize{Configs: newGameSpace(moves).configs()}
	widest := int64(0)
	for per, n := range lengths {
		for t := 1; t <= n; t++ {
			lo, hi := ls.span(per, t)
			w := int64(max(hi-lo+1, 0))
			size.Layers++
			size.BreakStates += w * int64(size.Configs)
			widest = max(widest, w)
		}
	}
	c := int64(size.Configs)
	// K of every layer; two throw layers of five sectors; the breaks still read (two of
	// this period, the first of each later one); the throw coefficients.
	size.Bytes = 8 * (size.BreakStates + 2*env.Sectors*widest*c + int64(2+len(lengths))*widest*c + 3*env.Sectors*c)
	return size, nil
}

// Peak is the estimated peak memory of a solve: twice the values held — Go's collector lets
// the heap grow to about twice what is live (measured: 3.55 GB at one move and 45-throw
// halves for 1.75 GB of values, 7.90 GB at two moves for 3.95 GB).
func (s GameSize) Peak() int64 { return 2 * s.Bytes }

// gameLayers is the throw recursion's setup for the game under r and payoff p: every
// difference from the kick-off, the score dropped under goal-diff in a league.
func gameLayers(r env.Rules, p Payoff, final func(d int, shootout bool) float64) *layers {
	lengths, total := periodLengths(r)
	return &layers{r: r, lengths: lengths, maxDiff: total/throwsToScore() + 1, final: final, whole: true,
		additive: p == PayoffGoalDiff && !r.Knockout, from: BreakState{Period: env.FirstHalf, ThrowsLeft: lengths[0]}}
}

// formatBytes writes n bytes in GiB or MiB.
func formatBytes(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}
