package rank

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// α-Rank (Omidshafiei et al. 2019) ranks a population by the evolutionary dynamics of its
// head-to-head table: a population playing one agent is invaded by another with the
// fixation probability of a Moran process of AlphaRankPopulation individuals at ranking
// intensity AlphaRankIntensity, and an agent's mass is its share of the stationary
// distribution of that Markov chain over agents. Unlike a rating it needs no transitive
// order: agents that beat each other in a cycle share the mass of the cycle. The definition
// is OpenSpiel's alpharank.compute for one population with its default local selection
// model (the tests compare the two): from s to r with probability ρ(r, s)/(n − 1), where
// u = α (M[r][s] − M[s][r]) and ρ = (1 − e^−u)/(1 − e^−mu) (1/m when u is 0).

// The α-Rank parameters a leaderboard uses unless told others (AlphaRankParams' zero value):
// a population of 50 (OpenSpiel's default) and an intensity at which a score difference of
// 0.1 makes an invasion e¹⁰ times likelier than the reverse, where the ranking has settled
// for head-to-head scores.
const (
	AlphaRankPopulation = 50
	AlphaRankIntensity  = 100
)

// AlphaRankParams are α-Rank's two knobs: the population m and the ranking intensity α
// (OpenSpiel's alpharank.compute(m=, alpha=)). The zero value means the defaults above; a
// field left 0 takes its default.
type AlphaRankParams struct {
	Population int     // m, 2..1,000,000 (0: AlphaRankPopulation)
	Intensity  float64 // α, positive and finite (0: AlphaRankIntensity)
}

// maxAlphaRankPopulation bounds m: far beyond where e^(−m·u) underflows for every score gap
// that matters, so the ranking no longer changes.
const maxAlphaRankPopulation = 1_000_000

// Resolved returns p with its defaults filled in, or an error naming the knob out of range.
func (p AlphaRankParams) Resolved() (AlphaRankParams, error) {
	if p.Population == 0 {
		p.Population = AlphaRankPopulation
	}
	if p.Intensity == 0 {
		p.Intensity = AlphaRankIntensity
	}
	if p.Population < 2 || p.Population > maxAlphaRankPopulation {
		return p, fmt.Errorf("rank: α-Rank population m = %d: want 2..%d", p.Population, maxAlphaRankPopulation)
	}
	if !(p.Intensity > 0) || math.IsInf(p.Intensity, 0) {
		return p, fmt.Errorf("rank: α-Rank intensity α = %v: want a positive finite number", p.Intensity)
	}
	return p, nil
}

// Note says what a leaderboard's α-Rank column is, with the knobs it was computed with (p
// resolved), as the CLI and the web app print it.
func (p AlphaRankParams) Note() string {
	return fmt.Sprintf("α-Rank: each agent's mass in the stationary distribution of the head-to-head table's evolutionary dynamics "+
		"(OpenSpiel's alpharank: a population of m = %d, α = %g); a cycle of agents shares its mass.", p.Population, p.Intensity)
}

// ErrIncomplete is returned by AlphaRank and NashAverage for a head-to-head table with pairs
// that never met.
var ErrIncomplete = errors.New("rank: α-Rank and Nash averaging need every pair of agents to have met")

// AlphaRank is the α-Rank mass of each agent of the head-to-head table h (h[i][j]: i's score
// against j, win 1, draw ½; the diagonal is not read) with p's population m and intensity
// α: the stationary distribution of the invasion chain, summing to 1.
func AlphaRank(h [][]float64, p AlphaRankParams) ([]float64, error) {
	p, err := p.Resolved()
	if err != nil {
		return nil, err
	}
	m, alpha := p.Population, p.Intensity
	n := len(h)
	if n == 0 {
		return nil, nil
	}
	if n == 1 {
		return []float64{1}, nil
	}
	c := mat.NewDense(n, n, nil) // c[s][r]: from a population of s to one of r
	for s := range n {
		stay := 1.0
		for r := range n {
			if r == s {
				continue
			}
			if math.IsNaN(h[r][s]) || math.IsNaN(h[s][r]) {
				return nil, fmt.Errorf("%w (%d and %d did not)", ErrIncomplete, r, s)
			}
			p := fixation(alpha*(h[r][s]-h[s][r]), m) / float64(n-1)
			c.Set(s, r, p)
			stay -= p
		}
		c.Set(s, s, stay)
	}
	return stationary(c)
}

// fixation is the probability that one mutant whose payoff exceeds the residents' by u/α
// takes over a population of m.
func fixation(u float64, m int) float64 {
	if math.Abs(u) < 1e-14 {
		return 1 / float64(m)
	}
	return -math.Expm1(-u) / -math.Expm1(-float64(m)*u)
}

// stationary solves π c = π, Σπ = 1: the equations of all but the last state, and the sum.
func stationary(c *mat.Dense) ([]float64, error) {
	n, _ := c.Dims()
	a := mat.NewDense(n, n, nil)
	b := mat.NewVecDense(n, nil)
	for i := range n - 1 { // (cᵀ − I) π = 0, row i
		for j := range n {
			v := c.At(j, i)
			if i == j {
				v--
			}
			a.Set(i, j, v)
		}
	}
	for j := range n {
		a.Set(n-1, j, 1)
	}
	b.SetVec(n-1, 1)
	var pi mat.VecDense
	if err := pi.SolveVec(a, b); err != nil {
		return nil, fmt.Errorf("rank: α-Rank's stationary distribution: %w", err)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = max(pi.AtVec(i), 0) // −1e-17 is rounding
	}
	return out, nil
}
