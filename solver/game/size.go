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
	// StreamBytes and StreamVerifyBytes are Bytes and VerifyBytes for a solve that streams
	// its strategy to a table (Problem.Stream): K of the first kick-off's layer only, the
	// working layers and the table's layer being written.
	StreamBytes, StreamVerifyBytes int64
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
	widest, first := int64(0), int64(0)
	for per, n := range lengths {
		for t := 1; t <= n; t++ {
			lo, hi := ls.Span(per, t)
			w := int64(max(hi-lo+1, 0))
			size.Layers++
			size.BreakStates += w * int64(size.Configs)
			widest = max(widest, w)
			if per == 0 && t == n {
				first = w
			}
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
	// A streamed solve keeps the first kick-off's K (the kick-off games, the table's end) and
	// a layer of the table: a float32 value and two codes a break (mixes are few).
	streamed := 8*first*c + 6*widest*c
	size.StreamBytes = streamed + working
	size.StreamVerifyBytes = streamed + 3*working
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

// PeakOf is Peak, PeakVerified or the same for a solve that streams its strategy to a
// table (Problem.Stream). A streamed solve's values all churn — allocated and dropped a layer
// at a time, nothing long-lived beneath them — so the collector lets its heap overshoot more:
// three times what it holds. Measured for the knockout game with three moves, which holds
// 3.57 GiB: peak RSS 8.92 GiB and 9.10 GiB (kingoal solve game --out, two runs) and 9.84 GiB
// (kingoal solve catalogue's row); estimated 10.7 GiB. For the default league game: 6.02 GiB
// measured, 7.2 GiB estimated.
func (s Size) PeakOf(verify, stream bool) int64 {
	switch {
	case stream && verify:
		return 3 * s.StreamVerifyBytes
	case stream:
		return 3 * s.StreamBytes
	case verify:
		return s.PeakVerified()
	}
	return s.Peak()
}

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

// DefaultGameMemory is the estimated peak memory (PeakOf) of the default rules' game solved
// with its check: held in memory, and streamed to a table (kingoal solve game --out
// FILE.kgt). It is the one figure every help text, the nash agent's notice and the pages quote
// (a test holds the pages to it); measured peaks, below it, are in BENCHMARKS.md.
func DefaultGameMemory() (inMemory, streamed string) {
	s, err := Estimate(env.Rules{}, lineup.PayoffWinLoss)
	if err != nil {
		panic(err) // the default rules are valid
	}
	return formatBytes(s.PeakOf(true, false)), formatBytes(s.PeakOf(true, true))
}
