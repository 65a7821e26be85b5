package solver

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/kingoal/kingoal/env"
)

// Payoff is what the line-up game's players maximise (home) and minimise (away).
type Payoff uint8

const (
	PayoffWinLoss  Payoff = iota // P(home win) − P(away win)
	PayoffGoalDiff               // expected home goals − away goals
	PayoffPoints                 // expected league points of home − of away
	PayoffAdvance                // P(home advances) − P(away advances) (knockout)
)

var payoffNames = [...]string{"win-loss", "goal-diff", "points", "advance"}

func (p Payoff) String() string {
	if int(p) < len(payoffNames) {
		return payoffNames[p]
	}
	return fmt.Sprintf("payoff(%d)", p)
}

// ParsePayoff reads win-loss, goal-diff, points or advance.
func ParsePayoff(s string) (Payoff, error) {
	for i, n := range payoffNames {
		if s == n {
			return Payoff(i), nil
		}
	}
	return 0, fmt.Errorf("solver: payoff %q: want win-loss, goal-diff, points or advance", s)
}

// Of returns the payoff of one cell under rules r (points come from r).
func (p Payoff) Of(c Cell, r env.Rules) float64 {
	switch p {
	case PayoffGoalDiff:
		return c.HomeGoals - c.AwayGoals
	case PayoffPoints:
		pt := r.LeaguePoints()
		home := c.HomeWin*float64(pt.Win) + c.Draw*float64(pt.Draw) + c.AwayWin*float64(pt.Loss)
		away := c.AwayWin*float64(pt.Win) + c.Draw*float64(pt.Draw) + c.HomeWin*float64(pt.Loss)
		return home - away
	case PayoffAdvance:
		return 2*c.HomeAdvance - 1
	}
	return c.HomeWin - c.AwayWin
}

// Weighted is a line-up with its probability in a mixed strategy.
type Weighted struct {
	Lineup env.Lineup
	Prob   float64
}

// LineupEquilibrium is a verified equilibrium of the hidden line-up choice.
type LineupEquilibrium struct {
	Payoff Payoff
	Value  float64    // the game's value to home
	Home   []Weighted // home's optimal mix, most likely first
	Away   []Weighted // away's optimal mix
	// Exploitability is what a best pure reply gains against the pair: max over home
	// line-ups of their payoff against Away minus min over away line-ups against Home.
	// It is ≥ 0 and 0 for an exact equilibrium.
	Exploitability float64
	Dominated      int // line-ups (rows + columns) removed as dominated before the LP
}

// verifyTol bounds the exploitability Equilibrium accepts.
const verifyTol = 1e-9

// ErrUnverified is wrapped when a computed equilibrium fails the best-response check.
var ErrUnverified = errors.New("solver: equilibrium failed best-response verification")

// Equilibrium solves the zero-sum game whose payoff to home for line-ups (i, j) is
// payoff.Of(m.At(i, j)). It removes weakly dominated line-ups (iterated), solves each
// side's linear program with gonum's simplex from the slack basis, and checks the answer
// against every pure reply in the full game; an answer off by more than 1e-9 is an error
// wrapping ErrUnverified, never a result.
func Equilibrium(m *OddsMatrix, payoff Payoff) (LineupEquilibrium, error) {
	if payoff > PayoffAdvance {
		return LineupEquilibrium{}, fmt.Errorf("solver: payoff %d unknown", payoff)
	}
	if payoff == PayoffAdvance && !m.Rules.Knockout {
		return LineupEquilibrium{}, errors.New("solver: payoff advance needs knockout rules")
	}
	const n = env.NumLineups
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			a[i][j] = payoff.Of(m.At(i, j), m.Rules)
		}
	}
	rows, cols := undominated(a)
	sub := make([][]float64, len(rows))
	for x, i := range rows {
		sub[x] = make([]float64, len(cols))
		for y, j := range cols {
			sub[x][y] = a[i][j]
		}
	}
	// Away's strategy minimises home's payoff; home's is away's problem in the transposed,
	// negated game.
	ySub, _, err := minimiser(sub)
	if err != nil {
		return LineupEquilibrium{}, err
	}
	neg := make([][]float64, len(cols))
	for y := range cols {
		neg[y] = make([]float64, len(rows))
		for x := range rows {
			neg[y][x] = -sub[x][y]
		}
	}
	xSub, _, err := minimiser(neg)
	if err != nil {
		return LineupEquilibrium{}, err
	}
	x, y := make([]float64, n), make([]float64, n)
	for k, i := range rows {
		x[i] = xSub[k]
	}
	for k, j := range cols {
		y[j] = ySub[k]
	}
	value, exploit, err := verify(a, x, y)
	if err != nil {
		return LineupEquilibrium{}, err
	}
	return LineupEquilibrium{
		Payoff:         payoff,
		Value:          value,
		Home:           weighted(x),
		Away:           weighted(y),
		Exploitability: exploit,
		Dominated:      2*n - len(rows) - len(cols),
	}, nil
}

// verify checks the mixes x (rows) and y (columns) against every pure reply in the game a:
// the best row against y and the best column against x may differ by at most verifyTol.
// It returns the value (their midpoint) and the exploitability (their gap).
func verify(a [][]float64, x, y []float64) (value, exploitability float64, err error) {
	best, worst := math.Inf(-1), math.Inf(1)
	for i := range a {
		best = max(best, dot(a[i], y))
	}
	for j := range a[0] {
		s := 0.0
		for i := range a {
			s += x[i] * a[i][j]
		}
		worst = min(worst, s)
	}
	for _, mix := range [][]float64{x, y} {
		sum := 0.0
		for _, p := range mix {
			if p < 0 || math.IsNaN(p) {
				return 0, 0, fmt.Errorf("%w: negative or NaN probability %v", ErrUnverified, p)
			}
			sum += p
		}
		if math.Abs(sum-1) > verifyTol {
			return 0, 0, fmt.Errorf("%w: probabilities sum to %v", ErrUnverified, sum)
		}
	}
	gap := best - worst
	if !(gap <= verifyTol) || gap < -verifyTol {
		return 0, 0, fmt.Errorf("%w: best pure replies gain %.3g (home's best %.12f, away's best %.12f)", ErrUnverified, gap, best, worst)
	}
	return (best + worst) / 2, max(gap, 0), nil
}

// undominated returns the rows and columns that survive iterated removal of weakly
// dominated strategies (home maximises rows, away minimises columns), in index order.
// Removing them keeps an equilibrium of the full game and spares the simplex the
// degenerate rows it stumbles on.
func undominated(a [][]float64) (rows, cols []int) {
	const eps = 1e-13
	rows, cols = make([]int, len(a)), make([]int, len(a[0]))
	for i := range rows {
		rows[i] = i
	}
	for j := range cols {
		cols[j] = j
	}
	dominates := func(better, worse func(k int) float64, over []int) bool {
		for _, k := range over {
			if better(k) < worse(k)-eps {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for x := 0; x < len(rows) && len(rows) > 1; x++ {
			r := rows[x]
			row := func(i int) func(int) float64 { return func(k int) float64 { return a[i][k] } }
			for _, d := range rows {
				// Of two equal rows, the lower index stays.
				if d != r && dominates(row(d), row(r), cols) && (d < r || !dominates(row(r), row(d), cols)) {
					rows = slices.Delete(rows, x, x+1)
					x--
					changed = true
					break
				}
			}
		}
		for y := 0; y < len(cols) && len(cols) > 1; y++ {
			c := cols[y]
			col := func(j int) func(int) float64 { return func(k int) float64 { return -a[k][j] } }
			for _, d := range cols {
				if d != c && dominates(col(d), col(c), rows) && (d < c || !dominates(col(c), col(d), rows)) {
					cols = slices.Delete(cols, y, y+1)
					y--
					changed = true
					break
				}
			}
		}
	}
	return rows, cols
}

// minimiser returns the column player's optimal mix in the game g (the row player
// maximises g) and the game's value. With g shifted to M ≥ 1 it solves
//
//	maximise Σw  s.t.  M w ≤ 1, w ≥ 0
//
// as  minimise −Σw  s.t.  M w + s = 1  from the feasible slack basis s = 1; then
// y = w/Σw and the value of M is 1/Σw.
func minimiser(g [][]float64) (y []float64, value float64, err error) {
	nr, nc := len(g), len(g[0])
	lo := math.Inf(1)
	for _, row := range g {
		lo = min(lo, slices.Min(row))
	}
	shift := 1 - lo
	A := mat.NewDense(nr, nc+nr, nil)
	c := make([]float64, nc+nr)
	b := make([]float64, nr)
	basis := make([]int, nr)
	for i, row := range g {
		for j, v := range row {
			A.Set(i, j, v+shift)
		}
		A.Set(i, nc+i, 1)
		b[i] = 1
		basis[i] = nc + i
	}
	for j := 0; j < nc; j++ {
		c[j] = -1
	}
	opt, w, err := lp.Simplex(c, A, b, 1e-12, basis)
	if err != nil {
		return nil, 0, fmt.Errorf("solver: simplex: %w", err)
	}
	sum := -opt
	if sum <= 0 {
		return nil, 0, errors.New("solver: simplex returned an empty strategy")
	}
	y = make([]float64, nc)
	for j := range y {
		y[j] = max(0, w[j]) / sum
	}
	return y, 1/sum - shift, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// weighted lists the line-ups with probability above 1e-12, renormalised, most likely first.
func weighted(p []float64) []Weighted {
	var out []Weighted
	total := 0.0
	for i, q := range p {
		if q > 1e-12 {
			out = append(out, Weighted{env.LineupAt(i), q})
			total += q
		}
	}
	for k := range out {
		out[k].Prob /= total
	}
	slices.SortStableFunc(out, func(a, b Weighted) int {
		return cmp.Or(cmp.Compare(b.Prob, a.Prob), a.Lineup.Index()-b.Lineup.Index())
	})
	return out
}

// Reply is one home line-up's result against an away mix.
type Reply struct {
	Lineup env.Lineup
	Payoff float64 // expected payoff to home
	Cell           // expected odds against the mix
}

// BestResponses ranks every home line-up by its expected payoff against the away mix
// (a single line-up is a mix of one), best first.
func BestResponses(m *OddsMatrix, payoff Payoff, away []Weighted) ([]Reply, error) {
	total := 0.0
	for _, w := range away {
		if !w.Lineup.Valid() || w.Prob < 0 || math.IsNaN(w.Prob) {
			return nil, fmt.Errorf("solver: bad mix entry %v %v", w.Lineup, w.Prob)
		}
		total += w.Prob
	}
	if math.Abs(total-1) > 1e-9 {
		return nil, fmt.Errorf("solver: mix probabilities sum to %v, want 1", total)
	}
	out := make([]Reply, env.NumLineups)
	for i := range out {
		r := Reply{Lineup: env.LineupAt(i)}
		for _, w := range away {
			c := m.At(i, w.Lineup.Index())
			r.Payoff += w.Prob * payoff.Of(c, m.Rules)
			r.HomeWin += w.Prob * c.HomeWin
			r.Draw += w.Prob * c.Draw
			r.AwayWin += w.Prob * c.AwayWin
			r.HomeGoals += w.Prob * c.HomeGoals
			r.AwayGoals += w.Prob * c.AwayGoals
			r.HomeAdvance += w.Prob * c.HomeAdvance
		}
		out[i] = r
	}
	slices.SortStableFunc(out, func(a, b Reply) int {
		return cmp.Or(cmp.Compare(b.Payoff, a.Payoff), a.Lineup.Index()-b.Lineup.Index())
	})
	return out, nil
}
