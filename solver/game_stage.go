package solver

import (
	"errors"
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
)

// This file solves one break of the substitution game: home chooses among the entries it
// can reach (rows), away among its own (columns), both at once, each entry's value being K,
// the value from the kick-off that follows. The cheap cases first — one side without a
// choice (a max or a min), a pure saddle point (the largest row minimum equals the smallest
// column maximum, up to nearSaddleTol) — and only then
// one simplex tableau (stagelp.go), whose answer is verified against every pure reply.

// nearSaddleTol: when the largest row minimum and the smallest column maximum are this
// close, the pure pair that attains them is an equilibrium up to it (each side's guarantee
// is within it of the value) and the midpoint is the value to within half of it. This is
// what breaks late in a decided-looking match need: their entries differ by rounding
// (1e-13), which the simplex, scaling the spread to 1, would turn into noise.
const nearSaddleTol = 1e-12

// stageAnswer is the solution of one stage game.
type stageAnswer struct {
	value    float64
	row, col int       // the pure choices (indices into the reach lists); −1 when mixed
	x, y     []float64 // the mixes, when mixed (LP)
}

// stageBuf is a worker's scratch space.
type stageBuf struct {
	a    [][]float64
	flat []float64
	tab  tableau
}

// matrix fills the rows × cols stage matrix from K.
func (b *stageBuf) matrix(k []float64, rows, cols []int32, entries int) [][]float64 {
	if need := len(rows) * len(cols); cap(b.flat) < need {
		b.flat = make([]float64, need)
	}
	b.a = b.a[:0]
	for i, r := range rows {
		row := b.flat[i*len(cols) : (i+1)*len(cols)]
		base := int(r) * entries
		for j, c := range cols {
			row[j] = k[base+int(c)]
		}
		b.a = append(b.a, row)
	}
	return b.a
}

// stageValue is the value of the break at configuration (h, a).
func (sp *gameSpace) stageValue(k []float64, h, a int, buf *stageBuf, st *GameStats) (float64, error) {
	ans, err := sp.stage(k, h, a, buf, st)
	return ans.value, err
}

// stage solves the break at configuration (h, a) given K.
func (sp *gameSpace) stage(k []float64, h, a int, buf *stageBuf, st *GameStats) (stageAnswer, error) {
	rows, cols := sp.reach[h], sp.reach[a]
	e := sp.entries
	switch {
	case len(rows) == 1 && len(cols) == 1:
		return stageAnswer{value: k[h*e+a]}, nil
	case len(cols) == 1: // only home chooses
		st.OneSided++
		i, v := bestKeepingTies(len(rows), func(i int) float64 { return k[int(rows[i])*e+a] })
		return stageAnswer{value: v, row: i}, nil
	case len(rows) == 1: // only away chooses: it minimises
		st.OneSided++
		j, v := bestKeepingTies(len(cols), func(j int) float64 { return -k[h*e+int(cols[j])] })
		return stageAnswer{value: -v, col: j}, nil
	}
	st.StageGames++
	m := buf.matrix(k, rows, cols, e)
	// Pure saddle: max over rows of the row minimum against min over columns of the column
	// maximum.
	lower, bi := math.Inf(-1), 0
	for i, row := range m {
		if lo := minOf(row); lo > lower {
			lower, bi = lo, i
		}
	}
	upper, bj := math.Inf(1), 0
	for j := range cols {
		hi := math.Inf(-1)
		for _, row := range m {
			hi = max(hi, row[j])
		}
		if hi < upper {
			upper, bj = hi, j
		}
	}
	if upper-lower <= nearSaddleTol {
		st.Saddles++
		return stageAnswer{value: (lower + upper) / 2, row: bi, col: bj}, nil
	}
	st.LPs++
	g, err := solveStageGame(m, &buf.tab)
	if err != nil {
		return stageAnswer{}, err
	}
	return stageAnswer{value: g.value, row: -1, col: -1, x: g.x, y: g.y}, nil
}

func minOf(row []float64) float64 {
	v := row[0]
	for _, x := range row[1:] {
		v = min(v, x)
	}
	return v
}

// bestKeepingTies returns the index of the largest of n values and that value; index 0 (the
// current line-up, kept) unless another gains more than changeTolerance, as the move
// search of a single player does.
func bestKeepingTies(n int, value func(i int) float64) (int, float64) {
	best, arg := math.Inf(-1), 0
	for i := 1; i < n; i++ {
		if v := value(i); v > best {
			best, arg = v, i
		}
	}
	if keep := value(0); best <= keep+changeTolerance {
		return 0, keep
	}
	return arg, best
}

// mixes turns an answer into each side's mix over line-ups, most likely first.
func (sp *gameSpace) mixes(ans stageAnswer, h, a int) (home, away []Weighted) {
	w := sp.moves + 1
	side := func(list []int32, pure int, mix []float64) []Weighted {
		if mix == nil {
			return []Weighted{{Lineup: env.LineupAt(int(list[max(pure, 0)]) / w), Prob: 1}}
		}
		p := make([]float64, env.NumLineups)
		for i, q := range mix {
			p[int(list[i])/w] += q
		}
		return weighted(p)
	}
	return side(sp.reach[h], ans.row, ans.x), side(sp.reach[a], ans.col, ans.y)
}

// KickOff is the equilibrium of the first kick-off's hidden choice, both budgets full.
func (g *Game) KickOff() LineupEquilibrium {
	return LineupEquilibrium{Payoff: g.Problem.Payoff, Value: g.kickOff.value, Home: weighted(g.kickOff.x), Away: weighted(g.kickOff.y),
		Exploitability: g.kickOff.exploitability, Dominated: g.kickOff.dominated}
}

// Value is the game's value to home.
func (g *Game) Value() float64 { return g.kickOff.value }

// Stats measures the solve.
func (g *Game) Stats() GameStats { return g.stats }

// Moves is the budget the game was solved with (capped at 5).
func (g *Game) Moves() int { return g.moves }

// solveKickOff solves the 121 × 121 hidden choice at the first kick-off.
func (g *Game) solveKickOff() error {
	var err error
	g.kickOff, err = g.kickOffGame(g.moves, g.moves)
	return err
}

// kickOffGame solves the hidden choice of starting line-ups when home will have hm moves
// and away am (each at most Moves()).
func (g *Game) kickOffGame(hm, am int) (matrixGame, error) {
	kl := g.kicks[0][g.lengths[0]]
	if kl == nil || kl.lo > 0 || kl.lo+kl.n <= 0 {
		return matrixGame{}, errors.New("solver: the kick-off was not solved")
	}
	sp, w := g.space, g.moves+1
	k := kl.k[(0-kl.lo)*sp.configs():]
	a := make([][]float64, env.NumLineups)
	for i := range a {
		a[i] = make([]float64, env.NumLineups)
		for j := range a[i] {
			a[i][j] = k[(i*w+hm)*sp.entries+j*w+am]
		}
	}
	m, err := solveMatrixGame(a)
	if err != nil {
		return matrixGame{}, fmt.Errorf("solver: the kick-off's line-up game (%d and %d moves): %w", hm, am, err)
	}
	return m, nil
}

// KickOffWith is the equilibrium of the starting line-ups when home will have homeMoves
// moves for the match and away awayMoves, both then playing the game's equilibrium — with
// (Moves(), 0) the value of substituting when only home may, with (0, 0) the line-up game
// of solve equilibrium.
func (g *Game) KickOffWith(homeMoves, awayMoves int) (LineupEquilibrium, error) {
	if homeMoves < 0 || awayMoves < 0 || homeMoves > g.moves || awayMoves > g.moves {
		return LineupEquilibrium{}, fmt.Errorf("solver: budgets %d and %d: want 0..%d", homeMoves, awayMoves, g.moves)
	}
	m, err := g.kickOffGame(homeMoves, awayMoves)
	if err != nil {
		return LineupEquilibrium{}, err
	}
	return LineupEquilibrium{Payoff: g.Problem.Payoff, Value: m.value, Home: weighted(m.x), Away: weighted(m.y), Exploitability: m.exploitability, Dominated: m.dominated}, nil
}

// Breaks calls fn with every break the game holds at which at least one side has a move
// left, and its equilibrium, in order: period, throws left (most first), difference, home's
// line-up and moves, away's. It stops at fn's first error.
func (g *Game) Breaks(fn func(GameState, StageSolution) error) error {
	sp, w := g.space, g.moves+1
	var buf stageBuf
	var st GameStats
	for per, layers := range g.kicks {
		for t := len(layers) - 1; t >= 1; t-- {
			kl := layers[t]
			if kl == nil {
				continue
			}
			for d := kl.lo; d < kl.lo+kl.n; d++ {
				k := kl.k[(d-kl.lo)*sp.configs() : (d-kl.lo+1)*sp.configs()]
				for h := range sp.entries {
					for a := range sp.entries {
						if h%w == 0 && a%w == 0 {
							continue // nobody can move: no break
						}
						ans, err := sp.stage(k, h, a, &buf, &st)
						if err != nil {
							return err
						}
						home, away := sp.mixes(ans, h, a)
						s := GameState{Period: env.FirstHalf + env.Period(per), ThrowsLeft: t, GoalDiff: d,
							Home: env.LineupAt(h / w), HomeMoves: h % w, Away: env.LineupAt(a / w), AwayMoves: a % w}
						if err := fn(s, StageSolution{Value: ans.value, Home: home, Away: away}); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// At returns the equilibrium at the break s: home's value before choosing and both mixes.
// A break whose result nothing can change any more is answered with both keeping.
func (g *Game) At(s GameState) (StageSolution, error) {
	per := int(s.Period) - int(env.FirstHalf)
	switch {
	case per < 0 || per >= len(g.lengths):
		return StageSolution{}, fmt.Errorf("solver: no break in period %s under these rules", s.Period)
	case s.ThrowsLeft < 1 || s.ThrowsLeft > g.lengths[per]:
		return StageSolution{}, fmt.Errorf("solver: %d throws left in a %d-throw period", s.ThrowsLeft, g.lengths[per])
	case !s.Home.Valid() || !s.Away.Valid() || s.HomeMoves < 0 || s.AwayMoves < 0:
		return StageSolution{}, fmt.Errorf("solver: a break needs two valid line-ups and moves left ≥ 0 (%v, %v, %d, %d)", s.Home, s.Away, s.HomeMoves, s.AwayMoves)
	}
	keep := StageSolution{Home: []Weighted{{s.Home, 1}}, Away: []Weighted{{s.Away, 1}}}
	d, add := s.GoalDiff, 0.0
	if g.add {
		d, add = 0, float64(s.GoalDiff)
	} else if g.decided(per, s.ThrowsLeft, d) {
		keep.Value = g.final(d)
		return keep, nil
	}
	kl := g.kicks[per][s.ThrowsLeft]
	if kl == nil || d < kl.lo || d >= kl.lo+kl.n {
		return StageSolution{}, fmt.Errorf("%w: difference %d with %d throws left in %s", ErrNotSolved, s.GoalDiff, s.ThrowsLeft, s.Period)
	}
	sp, w := g.space, g.moves+1
	h := s.Home.Index()*w + min(s.HomeMoves, g.moves)
	a := s.Away.Index()*w + min(s.AwayMoves, g.moves)
	var buf stageBuf
	var st GameStats
	ans, err := sp.stage(kl.k[(d-kl.lo)*sp.configs():(d-kl.lo+1)*sp.configs()], h, a, &buf, &st)
	if err != nil {
		return StageSolution{}, err
	}
	home, away := sp.mixes(ans, h, a)
	return StageSolution{Value: ans.value + add, Home: home, Away: away}, nil
}

// Strategy returns player p's equilibrium strategy at breaks, for SolveBasic's Drawing opponent.
func (g *Game) Strategy(p env.Player) MixedBreakPolicy { return gameStrategy{g, p} }

type gameStrategy struct {
	g *Game
	p env.Player
}

// Mix returns the player's equilibrium mix at the break s (seen by that player).
func (gs gameStrategy) Mix(s BreakState) ([]Weighted, error) {
	st := GameState{Period: s.Period, ThrowsLeft: s.ThrowsLeft, GoalDiff: s.GoalDiff, Home: s.Own, Away: s.OppLineup,
		HomeMoves: s.MovesLeft, AwayMoves: s.OppMovesLeft}
	if gs.p == env.Away {
		st = GameState{Period: s.Period, ThrowsLeft: s.ThrowsLeft, GoalDiff: -s.GoalDiff, Home: s.OppLineup, Away: s.Own,
			HomeMoves: s.OppMovesLeft, AwayMoves: s.MovesLeft}
	}
	sol, err := gs.g.At(st)
	if err != nil {
		return nil, err
	}
	if gs.p == env.Away {
		return sol.Away, nil
	}
	return sol.Home, nil
}
