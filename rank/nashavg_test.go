package rank_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/kingoal/kingoal/rank"
)

// table is a head-to-head table from the row agents' scores above the diagonal.
func table(upper [][]float64) [][]float64 {
	n := len(upper)
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			h[i][j], h[j][i] = upper[i][j], 1-upper[i][j]
		}
	}
	return h
}

func near(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

// Rock, paper, scissors: the uniform mix; a copy of rock splits rock's share and changes no
// Nash average (the property the method is for); a transitive table: its top agent; a table
// of draws: everyone.
func TestNashAverageKnownTables(t *testing.T) {
	rps := table([][]float64{{0, 0, 1}, {0, 0, 0}, {0, 0, 0}}) // R loses to P, beats S; P loses to S
	mix, avg, err := rank.NashAverage(rps)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "RPS mix", mix, []float64{1. / 3, 1. / 3, 1. / 3}, 1e-9)
	near(t, "RPS averages", avg, []float64{0, 0, 0}, 1e-9)
	copied := table([][]float64{{0, 0, 1, 0.5}, {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}}) // a 4th agent plays as rock
	mix, avg, err = rank.NashAverage(copied)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "RPS + a copy of rock, mix", mix, []float64{1. / 6, 1. / 3, 1. / 3, 1. / 6}, 1e-7)
	near(t, "RPS + a copy of rock, averages", avg, []float64{0, 0, 0, 0}, 1e-7)

	transitive := table([][]float64{{0, 0.7, 0.9}, {0, 0, 0.6}, {0, 0, 0}})
	mix, avg, err = rank.NashAverage(transitive)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "transitive mix", mix, []float64{1, 0, 0}, 1e-9)
	near(t, "transitive averages", avg, []float64{0, -0.4, -0.8}, 1e-9)

	draws := table([][]float64{{0, 0.5, 0.5}, {0, 0, 0.5}, {0, 0, 0}})
	if mix, _, err = rank.NashAverage(draws); err != nil {
		t.Fatal(err)
	}
	near(t, "draws", mix, []float64{1. / 3, 1. / 3, 1. / 3}, 1e-9)
	if _, _, err := rank.NashAverage([][]float64{{0, math.NaN()}, {math.NaN(), 0}}); err == nil {
		t.Error("a pair that never met")
	}
}

// On random tables (seeded), the mix is an equilibrium, and no equilibrium found another way
// — mixes of vertices of the equilibria, each the optimum of a linear program with a random
// objective — has more entropy.
func TestNashAverageIsTheMaximumEntropyEquilibrium(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2))
	for trial := range 60 {
		n := 2 + trial%7
		upper := make([][]float64, n)
		for i := range upper {
			upper[i] = make([]float64, n)
			for j := range upper[i] {
				upper[i][j] = float64(rng.IntN(5)) / 4 // quarters: ties and degenerate faces are common
			}
		}
		h := table(upper)
		mix, avg, err := rank.NashAverage(h)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		a := func(i, j int) float64 { return h[i][j] - h[j][i] }
		sum := 0.0
		for j := range n {
			col := 0.0
			for i := range n {
				col += a(i, j) * mix[i]
			}
			if col < -1e-9 || math.Abs(avg[j]+col) > 1e-12 || mix[j] < 0 {
				t.Fatalf("trial %d: not an equilibrium: agent %d gains %v (mix %v)", trial, j, col, mix)
			}
			sum += mix[j]
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("trial %d: the mix sums to %v", trial, sum)
		}
		best := entropy(mix)
		vertices := randomVertices(t, h, rng, 12)
		for k := range 200 {
			q := make([]float64, n)
			w := 0.0
			for _, v := range vertices {
				c := rng.Float64()
				if k%3 == 0 {
					c *= c * c // some near the polytope's boundary
				}
				w += c
				for i := range q {
					q[i] += c * v[i]
				}
			}
			for i := range q {
				q[i] /= w
			}
			if e := entropy(q); e > best+1e-9 {
				t.Fatalf("trial %d: an equilibrium with entropy %v > %v: %v against %v", trial, e, best, q, mix)
			}
		}
	}
}

func entropy(p []float64) float64 {
	e := 0.0
	for _, q := range p {
		if q > 0 {
			e -= q * math.Log(q)
		}
	}
	return e
}

// randomVertices are k equilibria of h's game, each a vertex maximising a random objective.
func randomVertices(t *testing.T, h [][]float64, rng *rand.Rand, k int) [][]float64 {
	n := len(h)
	g := mat.NewDense(n+1, 2*n, nil)
	for j := range n {
		for i := range n {
			g.Set(j, i, h[i][j]-h[j][i])
		}
		g.Set(j, n+j, -1)
		g.Set(n, j, 1)
	}
	b := make([]float64, n+1)
	b[n] = 1
	var out [][]float64
	for range k {
		c := make([]float64, 2*n)
		for i := range n {
			c[i] = rng.NormFloat64()
		}
		_, x, err := lp.Simplex(c, g, b, 1e-12, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, x[:n])
	}
	return out
}
