package zerosum

import (
	"errors"
	"fmt"
)

// This file solves the small matrix games of the substitution game's breaks exactly with
// one dense simplex tableau. gonum's simplex (SolveMatrixGame) solves two LPs through LU
// factorisations, allocates per pivot, and cycles on some degenerate stage games (it ran
// forever on an 8 × 5 game of 4-throw halves with ties counted); here Bland's rule
// guarantees termination, one tableau gives both mixes (the row player's are the dual
// prices), and the buffers are reused: ~3× faster on stage games (BenchmarkStageLP).
//
// With a mapped affinely onto A with entries in [1, 2] (a shift alone would leave the
// entries of a stage game — values within a few hundredths of each other — all ≈ 1, a
// nearly rank-one tableau that loses whole percents to rounding), the column player's LP is
//
//	maximise Σw  s.t.  A w ≤ 1, w ≥ 0,
//
// from the slack basis; at the optimum z = Σw, y = w/z, the value of A is 1/z, and the
// reduced costs of the slacks are the dual prices u with Σu = z: x = u/z. The answer is then
// verified against every pure reply (verify), as SolveMatrixGame's is.

// pivotTol: a pivot element or reduced cost at or below it counts as zero (entries are ≥ 1
// and well scaled; rounding is ~1e-15).
const pivotTol = 1e-12

// tableau is the reusable working space of SolveStageGame.
type Tableau struct {
	t     []float64 // (m+1) × (n+m+1), row-major; row m is the objective
	basis []int
}

// SolveStageGame solves the zero-sum game a (rows maximise): weakly dominated strategies
// removed (equal ones too: near-duplicate rows would leave pivots of 1e-12 in the tableau),
// the rest by the tableau, the answer verified in the full game.
//
// The tableau cannot cycle, but on a near-degenerate game (entries of 1e-15 beside 1e-3, as
// a knockout's level breaks have) its basis can end ill-conditioned and its answer fail the
// check; gonum's two LPs (LU factorisations) then answer, checked the same way.
func SolveStageGame(a [][]float64, tab *Tableau) (MatrixGame, error) {
	g, err := solveReduced(a, tab.mixes)
	if errors.Is(err, ErrUnverified) {
		return SolveMatrixGame(a)
	}
	return g, err
}

// mixes solves the game a by one tableau — see the file comment.
func (tab *Tableau) mixes(a [][]float64) (x, y []float64, err error) {
	m, n := len(a), len(a[0])
	w := tab.load(a)
	t, obj := tab.t, tab.t[m*w:(m+1)*w]
	limit := 50 * (n + m) * (n + m)
	for it := 0; ; it++ {
		if it == limit {
			return nil, nil, fmt.Errorf("solver: stage game simplex: no optimum after %d pivots", it)
		}
		e := -1 // Bland: the first improving column
		for j := range n + m {
			if obj[j] < -pivotTol {
				e = j
				break
			}
		}
		if e < 0 {
			break
		}
		r := -1 // the least ratio; among ties, the smallest basic variable
		var best float64
		for i := range m {
			p := t[i*w+e]
			if p <= pivotTol {
				continue
			}
			ratio := t[i*w+w-1] / p
			if r < 0 || ratio < best || ratio == best && tab.basis[i] < tab.basis[r] {
				r, best = i, ratio
			}
		}
		if r < 0 {
			return nil, nil, errors.New("solver: stage game simplex: unbounded (cannot happen for a positive matrix)")
		}
		tab.pivot(r, e, m, w)
	}
	z := obj[w-1]
	if !(z > 0) {
		return nil, nil, errors.New("solver: stage game simplex: an empty strategy")
	}
	x, y = make([]float64, m), make([]float64, n)
	for i, b := range tab.basis {
		if b < n {
			y[b] = max(t[i*w+w-1], 0)
		}
	}
	for i := range m {
		x[i] = max(obj[n+i], 0)
	}
	// Σy and Σx equal z in exact arithmetic; normalising by their own sums keeps the
	// rounding of a long pivot sequence out of the mixes (verify then judges them).
	return normalised(x), normalised(y), nil
}

// load writes game a into the tableau, shifted and scaled into [1, 2] (a positive matrix:
// the game's value is positive), slacks basic; it returns the row width.
func (tab *Tableau) load(a [][]float64) (w int) {
	m, n := len(a), len(a[0])
	lo, hi := a[0][0], a[0][0]
	for _, row := range a {
		for _, v := range row {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == lo {
		hi = lo + 1 // a constant game: any mix
	}
	scale := 1 / (hi - lo)
	w = n + m + 1 // columns: w, slacks, right-hand side
	if need := (m + 1) * w; cap(tab.t) < need {
		tab.t = make([]float64, need)
	} else {
		tab.t = tab.t[:need]
		clear(tab.t)
	}
	tab.basis = tab.basis[:0]
	t := tab.t
	for i, row := range a {
		r := t[i*w : (i+1)*w]
		for j, v := range row {
			r[j] = (v-lo)*scale + 1
		}
		r[n+i], r[w-1] = 1, 1
		tab.basis = append(tab.basis, n+i)
	}
	obj := t[m*w : (m+1)*w]
	for j := range n {
		obj[j] = -1
	}
	return w
}

func normalised(p []float64) []float64 {
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// pivot makes column e basic in row r.
func (tab *Tableau) pivot(r, e, m, w int) {
	t := tab.t
	pr := t[r*w : (r+1)*w]
	inv := 1 / pr[e]
	for j := range pr {
		pr[j] *= inv
	}
	pr[e] = 1
	for i := 0; i <= m; i++ {
		if i == r {
			continue
		}
		row := t[i*w : (i+1)*w]
		f := row[e]
		if f == 0 {
			continue
		}
		for j, v := range pr {
			row[j] -= f * v
		}
		row[e] = 0
	}
	tab.basis[r] = e
}
