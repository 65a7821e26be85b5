package game

import (
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/lineup"
)

// Size is what a game solve would hold, computed without solving.
type Size struct {
	Configs     int   // configurations a break's value vector holds (both line-ups and budgets)
	Layers      int   // (period, throws left) layers
	BreakStates int64 // break states with a value
	Bytes       int64 // values held at once by a solve: K of every layer, the working layers
	VerifyBytes int64 // the same for a solve with its best responses (Problem.Verify): three values a break
	// RespondBytes is what best responses alone hold (Verify, RespondToPolicies): two values
	// a break in the working layers, no K.
	RespondBytes int64
	// ReplyProducts is Σ over break states of the two sides' reach (line-ups and budgets a
	// side can play next): what best replies to mixes over every reachable line-up weigh.
	ReplyProducts float64
}

// Estimate returns the size of the substitution game under r for payoff p.
func Estimate(r env.Rules, p lineup.Payoff) (Size, error) {
	moves, err := checkGame(Problem{Rules: r, Payoff: p})
	if err != nil {
		return Size{}, err
	}
	final, err := induction.GameFinal(p)
	if err != nil {
		return Size{}, err
	}
	ls := induction.GameLayers(r, p, final, false)
	lengths := ls.Lengths
	sp := newGameSpace(moves)
	size := Size{Configs: sp.configs()}
	reach := 0.0
	for _, r := range sp.reach {
		reach += float64(len(r))
	}
	reach /= float64(sp.entries)
	widest := int64(0)
	for per, n := range lengths {
		for t := 1; t <= n; t++ {
			lo, hi := ls.Span(per, t)
			w := int64(max(hi-lo+1, 0))
			size.Layers++
			size.BreakStates += w * int64(size.Configs)
			widest = max(widest, w)
		}
	}
	c := int64(size.Configs)
	// Per value vector: two throw layers of five sectors, the breaks still read (two of
	// this period, the first of each later one), the throw coefficients. A solve holds one
	// vector a state, with its best responses three (Verify alone: two).
	working := 8 * (2*env.Sectors*widest*c + int64(2+len(lengths))*widest*c + 3*env.Sectors*c)
	size.Bytes = 8*size.BreakStates + working
	size.VerifyBytes = 8*size.BreakStates + 3*working
	size.RespondBytes = 2 * working
	size.ReplyProducts = float64(size.BreakStates) * reach * reach
	return size, nil
}

// Peak is the estimated peak memory of a solve and its verification: twice the values held —
// Go's collector lets the heap grow up to about twice what is live (measured before issue
// 26: 3.55 GB at one move and 45-throw halves for 1.75 GB of values; since, 5.08 GB for
// the default rules' solve, whose values are ~3.8 GB).
func (s Size) Peak() int64 { return 2 * s.Bytes }

// PeakVerified is Peak for a solve with its best responses (measured: 9.05 GB for the default
// rules, estimated 9.7 GiB).
func (s Size) PeakVerified() int64 { return 2 * s.VerifyBytes }

// PeakResponses is Peak for best responses alone: four times what they hold (measured: Verify
// on the default rules' table, 8.01 GB with the table's 2.1 GB, for 1.68 GB held).
func (s Size) PeakResponses() int64 { return 4 * s.RespondBytes }

// formatBytes writes n bytes in GiB or MiB.
func formatBytes(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}

// checkGame validates a problem and returns the budget held.
func checkGame(p Problem) (int, error) {
	r := p.Rules
	if err := r.Validate(); err != nil {
		return 0, err
	}
	if r.Modes[env.Home] != env.Basic || r.Modes[env.Away] != env.Basic {
		return 0, errors.New("solver: SolveGame solves the game of two Basic coaches; with a Dynamic side, SolveDynamicGame")
	}
	if p.Payoff == lineup.PayoffAdvance && !r.Knockout {
		return 0, errors.New("solver: payoff advance needs knockout rules")
	}
	if _, err := induction.GameFinal(p.Payoff); err != nil {
		return 0, err
	}
	return min(r.MoveBudget(), 5), nil
}
