package rank

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// Nash averaging (Balduzzi, Tuyls, Pérolat and Graepel 2018, "Re-evaluating evaluation")
// rates a population by the game its head-to-head table defines: the symmetric zero-sum game
// A = h − hᵀ (i's score against j less j's against i), whose value is 0. Its maximum-entropy
// Nash equilibrium p is unique; an agent's Nash average is (A p)ᵢ, what it gains against
// that mix — 0 for the agents the mix plays, below 0 for the others. Unlike a rating it is
// not fooled by copies: adding a copy of an agent splits that agent's mass and changes no
// Nash average, so a population cannot be stacked to favour one agent. OpenSpiel's
// nash_averaging computes the same (the tests compare the two on one table).
//
// How it is computed, exactly rather than by a generic solver: the equilibria are the mixes
// p with Aᵀp ≥ 0, a polytope. One linear program per agent and per constraint finds which
// agents some equilibrium plays and which constraints every equilibrium meets with
// equality; the entropy is then maximised over the polytope's affine hull by Newton's
// method with a logarithmic barrier on the constraints that are not always tight, from the
// mean of the programs' solutions (a point of the polytope's relative interior).

// NashAverageNote says what a leaderboard's Nash columns are, as the CLI and the web app print it.
func NashAverageNote() string {
	return "Nash averaging: the maximum-entropy equilibrium of the head-to-head table as a zero-sum game (mass: the share it plays the agent; " +
		"average: what the agent gains against it, score difference, ≤ 0; 0 for the agents it plays); copies of an agent do not change it."
}

// faceTol is the tolerance below which a linear program's optimum counts as 0: the
// head-to-head scores are multiples of ½ divided by the matches played.
const faceTol = 1e-9

// NashAverage returns the maximum-entropy Nash equilibrium mix of the head-to-head table h
// (h[i][j]: i's score against j; the diagonal is not read) as a symmetric zero-sum game, and
// each agent's Nash average (A p)ᵢ.
func NashAverage(h [][]float64) (mix, average []float64, err error) {
	n := len(h)
	if n == 0 {
		return nil, nil, nil
	}
	a := make([][]float64, n)
	for i := range n {
		a[i] = make([]float64, n)
		for j := range n {
			if i == j {
				continue
			}
			if math.IsNaN(h[i][j]) || math.IsNaN(h[j][i]) {
				return nil, nil, fmt.Errorf("%w (%d and %d did not)", ErrIncomplete, i, j)
			}
			a[i][j] = h[i][j] - h[j][i]
		}
	}
	f, err := equilibriumFace(a)
	if err != nil {
		return nil, nil, err
	}
	mix, err = maxEntropy(a, f)
	if err != nil {
		return nil, nil, err
	}
	average = make([]float64, n)
	for i := range n {
		for j := range n {
			average[i] += a[i][j] * mix[j]
		}
	}
	return mix, average, nil
}

// face is the polytope of equilibria {p ∈ Δ : Aᵀp ≥ 0} as the programs found it: a point of
// its relative interior, the agents no equilibrium plays, and the constraints (Aᵀp)ⱼ ≥ 0
// every equilibrium meets with equality.
type face struct {
	interior []float64
	unplayed []bool
	tight    []bool
}

// equilibriumFace solves 2n linear programs over the equilibria: the most each agent can be
// played, and the most each constraint can be slack. Variables p (n) and slacks s (n):
// Σᵢ Aᵢⱼ pᵢ − sⱼ = 0 for every j, Σ pᵢ = 1.
func equilibriumFace(a [][]float64) (face, error) {
	n := len(a)
	g := mat.NewDense(n+1, 2*n, nil)
	for j := range n {
		for i := range n {
			g.Set(j, i, a[i][j])
		}
		g.Set(j, n+j, -1)
		g.Set(n, j, 1)
	}
	b := make([]float64, n+1)
	b[n] = 1
	f := face{interior: make([]float64, n), unplayed: make([]bool, n), tight: make([]bool, n)}
	c := make([]float64, 2*n)
	for k := range 2 * n {
		clear(c)
		c[k] = -1
		opt, x, err := lp.Simplex(c, g, b, 1e-12, nil)
		if err != nil {
			return face{}, fmt.Errorf("rank: Nash averaging's linear program: %w", err)
		}
		if k < n {
			f.unplayed[k] = -opt <= faceTol
		} else {
			f.tight[k-n] = -opt <= faceTol
		}
		for i := range n {
			f.interior[i] += max(x[i], 0) / float64(2*n)
		}
	}
	return f, nil
}

// errNewton is a barrier step that found no direction: a bug, or a table beyond float64.
var errNewton = errors.New("rank: Nash averaging's entropy maximisation did not converge")

// maxEntropy maximises the entropy over the face: p = p₀ + N z on the agents some equilibrium
// plays, N a basis of the directions that keep Σp = 1 and every always-tight constraint at 0,
// with the barrier −μ Σ log sⱼ on the other constraints, μ down to 1e-15.
func maxEntropy(a [][]float64, f face) ([]float64, error) {
	n := len(a)
	var played, loose []int // the agents p may play; the constraints not always tight
	for i := range n {
		if !f.unplayed[i] {
			played = append(played, i)
		}
		if !f.tight[i] {
			loose = append(loose, i)
		}
	}
	basis := directions(a, played, f.tight)
	p := f.interior
	for i := range p {
		if f.unplayed[i] {
			p[i] = 0
		}
	}
	if basis == nil { // the face is a point
		return normalised(p), nil
	}
	b := barrier{a: a, played: played, loose: loose, basis: basis}
	for mu := 1e-2; mu >= 1e-15; mu /= 10 {
		var err error
		if p, err = b.minimise(p, mu); err != nil {
			return nil, err
		}
	}
	return normalised(p), nil
}

// directions is a basis (columns, over played) of the moves that keep Σp and the always-tight
// constraints fixed: the null space of those equations; nil if there is none.
func directions(a [][]float64, played []int, tight []bool) *mat.Dense {
	rows := [][]float64{make([]float64, len(played))}
	for k := range played {
		rows[0][k] = 1
	}
	for j, t := range tight {
		if !t {
			continue
		}
		row := make([]float64, len(played))
		for k, i := range played {
			row[k] = a[i][j]
		}
		rows = append(rows, row)
	}
	e := mat.NewDense(len(rows), len(played), nil)
	for r, row := range rows {
		e.SetRow(r, row)
	}
	var svd mat.SVD
	if !svd.Factorize(e, mat.SVDFull) {
		return nil
	}
	values := svd.Values(nil)
	rank := 0
	for _, v := range values {
		if v > 1e-10*values[0] {
			rank++
		}
	}
	if rank == len(played) {
		return nil
	}
	var v mat.Dense
	svd.VTo(&v)
	return mat.DenseCopyOf(v.Slice(0, len(played), rank, len(played)))
}

// normalised is p with tiny negatives (rounding) at 0, summing to 1.
func normalised(p []float64) []float64 {
	sum := 0.0
	for i := range p {
		p[i] = max(p[i], 0)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// barrier is the entropy maximisation over a face: the negative entropy plus −μ Σ log sⱼ over
// the loose constraints, in the directions of basis (over played).
type barrier struct {
	a             [][]float64
	played, loose []int
	basis         *mat.Dense
}

// value is the barrier objective at p, +Inf outside the face's interior.
func (b barrier) value(p []float64, mu float64) float64 {
	v := 0.0
	for _, i := range b.played {
		if !(p[i] > 0) {
			return math.Inf(1)
		}
		v += p[i] * math.Log(p[i])
	}
	for _, j := range b.loose {
		s := b.slack(p, j)
		if !(s > 0) {
			return math.Inf(1)
		}
		v -= mu * math.Log(s)
	}
	return v
}

// slack is (Aᵀp)ⱼ.
func (b barrier) slack(p []float64, j int) float64 {
	s := 0.0
	for _, i := range b.played {
		s += b.a[i][j] * p[i]
	}
	return s
}

// minimise takes Newton steps on the barrier at μ from p (in the face's interior) until the
// decrement is negligible.
func (b barrier) minimise(p []float64, mu float64) ([]float64, error) {
	m, d := b.basis.Dims()
	g, h := mat.NewVecDense(m, nil), mat.NewSymDense(m, nil)
	var gr, dz, dp mat.VecDense
	var nh, full mat.Dense
	hr := mat.NewSymDense(d, nil)
	var chol mat.Cholesky
	next := make([]float64, len(p))
	for range 200 {
		for k, i := range b.played {
			g.SetVec(k, math.Log(p[i])+1)
			for l := k; l < m; l++ {
				h.SetSym(k, l, 0)
			}
			h.SetSym(k, k, 1/p[i])
		}
		for _, j := range b.loose {
			s := b.slack(p, j)
			for k, i := range b.played {
				g.SetVec(k, g.AtVec(k)-mu*b.a[i][j]/s)
				for l := k; l < m; l++ {
					h.SetSym(k, l, h.At(k, l)+mu*b.a[i][j]*b.a[b.played[l]][j]/(s*s))
				}
			}
		}
		gr.MulVec(b.basis.T(), g) // the gradient and Hessian in the face's directions: Nᵀg, NᵀHN
		nh.Mul(b.basis.T(), h)
		full.Mul(&nh, b.basis)
		for r := range d {
			for c := r; c < d; c++ {
				hr.SetSym(r, c, (full.At(r, c)+full.At(c, r))/2)
			}
		}
		if !chol.Factorize(hr) {
			return nil, errNewton
		}
		if err := chol.SolveVecTo(&dz, &gr); err != nil {
			return nil, errNewton
		}
		dz.ScaleVec(-1, &dz)
		decrement := -mat.Dot(&gr, &dz)
		if decrement < 1e-22 {
			return p, nil
		}
		dp.MulVec(b.basis, &dz)
		now := b.value(p, mu)
		t := 1.0
		for ; t > 1e-30; t /= 2 {
			copy(next, p)
			for k, i := range b.played {
				next[i] += t * dp.AtVec(k)
			}
			if b.value(next, mu) <= now-0.25*t*decrement {
				break
			}
		}
		if t <= 1e-30 {
			return p, nil // no step improves: as close as float64 gets
		}
		p, next = next, p
	}
	return p, nil
}
