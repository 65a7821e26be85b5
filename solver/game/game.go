package game

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// The substitution game: in Basic mode the match is a two-player zero-sum stochastic game.
// At every break both players choose their next line-up at once and hidden, within their
// remaining moves; at the kick-off that follows everything is public again. Solve
// solves it by backward induction over break states (Shapley): the throw recursion of
// layers.go with both sides' line-ups and budgets in the vector, and at each break a
// matrix game per configuration (home's reachable line-ups × away's) over the values from
// the kick-off that follows.

// Problem asks for the equilibrium of the substitution game under Rules (both players
// in Basic mode) for Payoff: win-loss, goal-diff or (knockout) advance.
type Problem struct {
	Rules  env.Rules
	Payoff lineup.Payoff
	// Context, if set, stops the solve: Solve then returns its error.
	Context context.Context
	// Workers solving stage games at once (0: every core). The result does not depend on it.
	Workers int
	// MaxBytes bounds the solve's estimated peak memory, Size.Peak (0: DefaultMaxBytes);
	// a game that needs more is refused before anything is allocated, with an error wrapping
	// policy.ErrTooLarge.
	MaxBytes int64
	// Progress, if set, is called after each layer of breaks with the layers done and the
	// total (from one goroutine).
	Progress func(done, total int)
	// noMirror solves every stage game instead of deriving half of them by the mirror
	// symmetry (tests compare the two).
	noMirror bool
	// Verify also solves, in the same backward induction, each side's best response to the
	// other's strategy (two more values a break, each from its own recursion; Game.Check
	// has the result): the whole strategy checked at the cost of a few more reads a break.
	// Verify does the same for a game solved without it.
	Verify bool
	// Table, if set, receives the strategy table as the solve goes (Load reads it): every
	// break's mixes for both sides, the breaks' values, the first kick-off's values, the
	// statistics and check. The solve holds only one layer of it at a time.
	Table io.Writer
	// Stream, with Table, keeps no values beyond the layers the recursion still reads and the
	// first kick-off's: the table is the solve's result. The Game answers the first kick-off
	// (Value, KickOff, KickOffWith, Stats, Check) and refuses the rest with ErrStreamed; Load
	// reads the table back. The knockout game with three moves fits 12 GiB only this way.
	Stream bool
	// Keep forces a side of the game with a Dynamic side to keep its line-up at every
	// decision (the tests compare such a game with the one-sided solves).
	Keep [2]bool
	// reference solves the way the first version did — every difference up to the most
	// possible, reachable from the kick-off or not, and every stage game afresh on its whole
	// matrix — for the tests that hold the faster solve to it.
	reference bool
}

// DefaultMaxBytes is the default bound on a game solve's peak memory: 12 GiB, which leaves
// room on a 16 GB machine.
const DefaultMaxBytes = 12 << 30

// State is a break of the substitution game, seen from home: the period about to
// (re)start, the throws left in it, home goals − away goals, both line-ups and moves left.
type State struct {
	Period     env.Period
	ThrowsLeft int
	GoalDiff   int
	Home, Away env.Lineup
	HomeMoves  int
	AwayMoves  int
}

// String names the break in words: "second half, 1 throw left, difference +2, 2-3-3-1-1 (1
// move) v 2-2-2-2-2 (1 move)".
func (s State) String() string {
	return fmt.Sprintf("%s, %s left, difference %+d, %v (%s) v %v (%s)", s.Period, env.Plural(s.ThrowsLeft, "throw"), s.GoalDiff,
		s.Home, env.Plural(s.HomeMoves, "move"), s.Away, env.Plural(s.AwayMoves, "move"))
}

// StateOf reads the State of an env state at a break (or the start of a period).
func StateOf(s env.State) State {
	return State{Period: s.Period(), ThrowsLeft: s.ThrowsLeft(), GoalDiff: s.Goals(env.Home) - s.Goals(env.Away),
		Home: s.Lineup(env.Home), Away: s.Lineup(env.Away), HomeMoves: s.MovesLeft(env.Home), AwayMoves: s.MovesLeft(env.Away)}
}

// StageSolution is the equilibrium at one break: home's value before choosing and each
// side's mix over the line-ups to play next (its current line-up to keep), most likely first.
type StageSolution struct {
	Value      float64
	Home, Away []env.Weighted
}

// Stats measures a solve.
type Stats struct {
	Layers      int   `json:"layers"`       // (period, throws left) layers of breaks
	BreakStates int64 `json:"break_states"` // (time, difference, both line-ups and budgets) states with a value
	StageGames  int64 `json:"stage_games"`  // breaks where both sides have a choice
	Saddles     int64 `json:"saddles"`      // of those, solved by a pure saddle point
	LPs         int64 `json:"lps"`          // of those, solved by the simplex (a mixed equilibrium)
	OneSided    int64 `json:"one_sided"`    // breaks where only one side has a choice (a max or a min)
	Mirrored    int64 `json:"mirrored"`     // breaks whose value came from their mirror image
	Oracle      int64 `json:"oracle"`       // stage games solved by double oracle (the rest afresh, on the whole matrix)
	Bytes       int64 `json:"bytes"`        // values held by the result
}

// Game is a solved substitution game. It is read-only and safe for concurrent use.
type Game struct {
	Problem Problem
	moves   int // budget held, capped at 5 (no change costs more)
	kicks   [][]*kickLayer
	kickOff zerosum.MatrixGame // the first kick-off's hidden choice, full budgets
	stats   Stats
	space   *gameSpace
	decided func(per, t, d int) bool
	final   func(d int) float64
	lengths []int
	add     bool // additive (goal difference in a league): only d = 0 is held
	mirror  bool // half the breaks were read off their mirror image (answerAt mirrors them too)
	check   *Check
	table   [][]*tableLayer // a loaded table's strategy (Load); nil: solved here
}

// Check is the best-response check the solve ran (Problem.Verify), if it ran.
func (g *Game) Check() (Check, bool) {
	if g.check == nil {
		return Check{}, false
	}
	return *g.check, true
}

// kickLayer is the values from the kick-off with the same time, differences lo..lo+n−1:
// entry (d−lo)*configs + h*entries + a.
type kickLayer struct {
	lo, n int
	k     []float64
}

// ErrNotSolved is wrapped when a game state is outside what a solve holds: a difference no
// match reaches by then from its kick-off (goals take throws).
var ErrNotSolved = errors.New("solver: state not held by this game solve")

// ErrStreamed is returned for a break of a game solved with Problem.Stream: its strategy is in
// the table, not in the Game.
var ErrStreamed = errors.New("solver: the solve streamed its strategy to its table and kept no values past the kick-off: read the table (Load)")

// gameSolver holds Solve's working state.
type gameSolver struct {
	*induction.Layers
	g       *Game
	space   *gameSpace
	workers int
	mirror  bool
	oracle  bool // stage games by double oracle (strategyOf), not as the reference solves them
	done    int
	total   int
	stats   []Stats   // per worker
	verify  bool      // the best responses ride along (Problem.Verify)
	kick    []float64 // their values from the first kick-off
	table   *tableWriter
}

// Solve solves the substitution game. Every stage game's answer is verified against
// every pure reply (≤ 1e-9, or the solve fails); Verify checks the whole strategy.
func Solve(p Problem) (*Game, error) {
	moves, err := checkGame(p)
	if err != nil {
		return nil, err
	}
	size, err := Estimate(p.Rules, p.Payoff)
	if err != nil {
		return nil, err
	}
	if p.Stream && p.Table == nil {
		return nil, errors.New("solver: Stream writes the strategy to Problem.Table: set it")
	}
	peak := size.PeakOf(p.Verify, p.Stream)
	if err := p.Fits(peak, fmt.Sprintf("the substitution game under these rules holds %d break states", size.BreakStates)); err != nil {
		return nil, err
	}
	gs, err := newGameSolver(p, moves)
	if err != nil {
		return nil, err
	}
	if err := gs.Run(); err != nil {
		return nil, err
	}
	// The game keeps the recursion's rules (for decided breaks), not its working layers.
	gs.Free, gs.Layers.Breaks, gs.Coef, gs.Consts = nil, nil, [env.Sectors + 1][3][]float64{}, nil
	g := gs.g
	for _, st := range gs.stats {
		g.stats.StageGames += st.StageGames
		g.stats.Saddles += st.Saddles
		g.stats.LPs += st.LPs
		g.stats.OneSided += st.OneSided
		g.stats.Mirrored += st.Mirrored
		g.stats.Oracle += st.Oracle
	}
	if err := g.solveKickOff(); err != nil {
		return nil, err
	}
	if gs.verify {
		n := g.space.configs()
		c := kickOffCheck(g.space, g.kickOff.X, g.kickOff.Y, gs.kick[:n], gs.kick[n:])
		g.check = &c
	}
	if gs.table != nil {
		if err := gs.table.finish(g); err != nil {
			return nil, err
		}
	}
	return g, nil
}

func newGameSolver(p Problem, moves int) (*gameSolver, error) {
	ctx := p.Context
	if ctx == nil {
		ctx = context.Background()
	}
	g, ls, err := newGame(p, moves, p.reference)
	if err != nil {
		return nil, err
	}
	space, lengths := g.space, ls.Lengths
	ls.Size, ls.Ctx, ls.Consts = space.configs(), ctx, map[float64][]float64{}
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	gs := &gameSolver{Layers: ls, g: g, space: space, workers: workers, mirror: g.mirror, oracle: !p.reference, total: ls.Remaining(0, lengths[0]),
		stats: make([]Stats, workers), verify: p.Verify && !p.reference}
	if gs.verify {
		ls.Size = 3 * space.configs() // the game's values, home's best response's, away's
	}
	if p.Table != nil {
		if p.reference {
			return nil, errors.New("solver: the reference solve writes no table")
		}
		if gs.table, err = newTableWriter(p.Table, p, moves, workers); err != nil {
			return nil, err
		}
	}
	gs.sectors()
	ls.Step = gs.breaks
	return gs, nil
}

// fits refuses a solve whose estimated peak exceeds p.MaxBytes (0: DefaultMaxBytes), saying
// what it holds.
func (p Problem) Fits(peak int64, holds string) error {
	limit := p.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if peak > limit {
		return fmt.Errorf("%w: %s and needs ~%s at its peak, more than the limit of %s", policy.ErrTooLarge, holds, formatBytes(peak), formatBytes(limit))
	}
	return nil
}

// mirrorSymmetric reports whether home's value at a state is minus home's value at its
// mirror image (the sides swapped, the difference negated): the pitch is symmetric, so this
// holds whenever the payoff is antisymmetric — a shoot-out included only if it is fair.
func mirrorSymmetric(p lineup.Payoff) bool {
	if p != lineup.PayoffAdvance {
		return true
	}
	so, err := odds.ShootoutLaw()
	return err == nil && math.Abs(so.Home-0.5) <= 1e-12
}

// newGame lays out the Game of a problem, nothing solved, and the layers of its recursion.
func newGame(p Problem, moves int, whole bool) (*Game, *induction.Layers, error) {
	final, err := induction.GameFinal(p.Payoff)
	if err != nil {
		return nil, nil, err
	}
	ls := induction.GameLayers(p.Rules, p.Payoff, final, whole)
	g := &Game{Problem: p, moves: moves, space: newGameSpace(moves), decided: ls.Decided, final: func(d int) float64 { return final(d, false) },
		lengths: ls.Lengths, add: ls.Additive, kicks: make([][]*kickLayer, len(ls.Lengths))}
	for per, n := range ls.Lengths {
		g.kicks[per] = make([]*kickLayer, n+1)
	}
	g.mirror = !p.noMirror && mirrorSymmetric(p.Payoff)
	return g, ls, nil
}
