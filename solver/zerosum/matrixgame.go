package zerosum

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// Tolerances of the matrix-game pipeline. Payoffs are differences of probabilities (or of
// goals, points) computed to ~1e-15.
const (
	// dominanceTol: a strategy is dominated when another is at least as good everywhere up
	// to this; above rounding, so equal strategies computed two ways still compare equal.
	dominanceTol = 1e-13
	// simplexTol is gonum's simplex tolerance for the reduced costs and pivots.
	simplexTol = 1e-12
	// SupportTol: probabilities at or below it are the simplex's rounding, not support.
	SupportTol = 1e-12
	// VerifyTol bounds the exploitability an answer may have (and how far a mix may be from
	// summing to 1): far above rounding, far below any difference that matters.
	VerifyTol = 1e-9
)

// ErrUnverified is wrapped when a computed equilibrium fails the best-response check.
var ErrUnverified = errors.New("solver: equilibrium failed best-response verification")

// MatrixGame is the solution of a zero-sum matrix game (SolveMatrixGame).
type MatrixGame struct {
	X, Y           []float64 // the row player's (maximiser's) and the column player's mixes
	Value          float64
	Exploitability float64 // what the best pure reply gains against the pair (≤ VerifyTol)
	Dominated      int     // rows + columns removed as weakly dominated
}

// SolveMatrixGame solves the zero-sum game a (the row player maximises a[i][j]): iterated
// removal of weakly dominated strategies, each side's linear program with gonum's simplex
// from the slack basis (the column player's directly, the row player's as the column player
// of the transposed, negated game), then the check against every pure reply in the full
// game — an error wrapping ErrUnverified if it fails, never a result.
func SolveMatrixGame(a [][]float64) (MatrixGame, error) { return solveReduced(a, gonumMixes) }

// solveReduced removes weakly dominated strategies from a, finds both mixes of what is left
// with mixes, and verifies them in the full game.
func solveReduced(a [][]float64, mixes func(sub [][]float64) (x, y []float64, err error)) (MatrixGame, error) {
	rows, cols := undominated(a)
	sub := make([][]float64, len(rows))
	for x, i := range rows {
		sub[x] = make([]float64, len(cols))
		for y, j := range cols {
			sub[x][y] = a[i][j]
		}
	}
	xSub, ySub, err := mixes(sub)
	if err != nil {
		return MatrixGame{}, err
	}
	g := MatrixGame{X: make([]float64, len(a)), Y: make([]float64, len(a[0])), Dominated: len(a) + len(a[0]) - len(rows) - len(cols)}
	for k, i := range rows {
		g.X[i] = xSub[k]
	}
	for k, j := range cols {
		g.Y[j] = ySub[k]
	}
	if g.Value, g.Exploitability, err = verify(a, g.X, g.Y); err != nil {
		return MatrixGame{}, err
	}
	return g, nil
}

// gonumMixes solves each side's linear program with gonum's simplex.
func gonumMixes(sub [][]float64) (x, y []float64, err error) {
	if y, _, err = minimiser(sub); err != nil {
		return nil, nil, err
	}
	neg := make([][]float64, len(sub[0]))
	for j := range neg {
		neg[j] = make([]float64, len(sub))
		for i := range sub {
			neg[j][i] = -sub[i][j]
		}
	}
	x, _, err = minimiser(neg)
	return x, y, err
}

// verify checks the mixes x (rows) and y (columns) against every pure reply in the game a:
// the best row against y and the best column against x may differ by at most VerifyTol.
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
		if math.Abs(sum-1) > VerifyTol {
			return 0, 0, fmt.Errorf("%w: probabilities sum to %v", ErrUnverified, sum)
		}
	}
	gap := best - worst
	if !(gap <= VerifyTol) || gap < -VerifyTol {
		return 0, 0, fmt.Errorf("%w: best pure replies gain %.3g (home's best %.12f, away's best %.12f)", ErrUnverified, gap, best, worst)
	}
	return (best + worst) / 2, max(gap, 0), nil
}

// undominated returns the rows and columns that survive iterated removal of weakly
// dominated strategies (home maximises rows, away minimises columns), in index order.
// Removing them keeps an equilibrium of the full game and spares the simplex the
// degenerate rows it stumbles on.
func undominated(a [][]float64) (rows, cols []int) {
	const eps = dominanceTol
	rows, cols = make([]int, len(a)), make([]int, len(a[0]))
	for i := range rows {
		rows[i] = i
	}
	for j := range cols {
		cols[j] = j
	}
	// rowOver: row d is at least as good as row r for the maximiser against every column
	// left; colOver: column d at least as good as column c for the minimiser.
	rowOver := func(d, r int) bool {
		ad, ar := a[d], a[r]
		for _, k := range cols {
			if ad[k] < ar[k]-eps {
				return false
			}
		}
		return true
	}
	colOver := func(d, c int) bool {
		for _, k := range rows {
			if a[k][d] > a[k][c]+eps {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for x := 0; x < len(rows) && len(rows) > 1; x++ {
			r := rows[x]
			for _, d := range rows {
				// Of two equal rows, the lower index stays.
				if d != r && rowOver(d, r) && (d < r || !rowOver(r, d)) {
					rows = slices.Delete(rows, x, x+1)
					x--
					changed = true
					break
				}
			}
		}
		for y := 0; y < len(cols) && len(cols) > 1; y++ {
			c := cols[y]
			for _, d := range cols {
				if d != c && colOver(d, c) && (d < c || !colOver(c, d)) {
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
	opt, w, err := lp.Simplex(c, A, b, simplexTol, basis)
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
