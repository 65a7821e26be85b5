package arena

import (
	"context"
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/kingoal/kingoal/env"
)

// Rating is one agent's strength on an Elo-like scale (400 points = ten-to-one odds of a
// decided match), with a bootstrap 95% interval.
type Rating struct {
	Agent     string
	Index     int
	Rating    float64
	Low, High float64
}

// nan marks a missing head-to-head score.
var nan = math.NaN()

// eloScale turns a log-strength into rating points.
const eloScale = 400 / math.Ln10

// Ratings fits a Bradley–Terry model with draws (Davidson 1970) to the matches by maximum
// likelihood (gonum's BFGS):
//
//	P(i beats j) = π_i / (π_i + π_j + ν√(π_i π_j)),   P(draw) = ν√(π_i π_j) / (same)
//
// with log π centred on 0, and brackets each rating with the 2.5% and 97.5% quantiles of
// `bootstrap` refits on matches resampled with replacement (seeded) — drawn as counts of the
// (pair, result) cells (a multinomial draw, as a chain of binomials), which is the same law,
// needs no rows and costs nothing per match. Ratings are sorted best
// first.
//
// It stops, returning ctx's error, within one step of the optimiser once ctx is done (a fit
// of 600 agents takes about half a second).
func Ratings(ctx context.Context, t *Tally, agentSpecs []string, bootstrap int, seed uint64) ([]Rating, error) {
	n := len(agentSpecs)
	cells := outcomeCells(t)
	theta, err := fitDavidson(ctx, cells, n)
	if err != nil {
		return nil, err
	}
	samples := make([][]float64, n)
	src := env.SeededSource(seed^streamRatings, 0)
	total := 0.0
	for _, c := range cells {
		total += c.count
	}
	resampled := make([]cell, len(cells))
	for range bootstrap {
		// A multinomial draw of total matches over the cells, as a chain of binomials: the
		// cost does not grow with the number of matches.
		copy(resampled, cells)
		left, mass := total, total
		for i := range resampled {
			k := 0.0
			if left > 0 && mass > 0 {
				p := min(1, resampled[i].count/mass)
				k = distuv.Binomial{N: left, P: p, Src: src}.Rand()
			}
			mass -= resampled[i].count
			left -= k
			resampled[i].count = k
		}
		th, err := fitDavidson(ctx, resampled, n)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			continue // a degenerate resample (say, an agent with no match): skip it
		}
		for i := range n {
			samples[i] = append(samples[i], th[i]*eloScale)
		}
	}
	out := make([]Rating, n)
	for i := range n {
		out[i] = Rating{Agent: agentSpecs[i], Index: i, Rating: theta[i] * eloScale, Low: math.NaN(), High: math.NaN()}
		if len(samples[i]) > 1 {
			slices.Sort(samples[i])
			out[i].Low = stat.Quantile(0.025, stat.Empirical, samples[i], nil)
			out[i].High = stat.Quantile(0.975, stat.Empirical, samples[i], nil)
		}
	}
	slices.SortStableFunc(out, func(a, b Rating) int { return cmpFloat(b.Rating, a.Rating) })
	return out, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cell counts the matches between agents i < j with one result: 0 i won, 1 j won, 2 draw.
type cell struct {
	i, j, result int
	count        float64
}

// outcomeCells lists the non-empty (pair, result) counts in a fixed order.
func outcomeCells(t *Tally) []cell {
	var cells []cell
	for i := range t.N {
		for j := i + 1; j < t.N; j++ {
			ij, ji := t.Pairs[i][j], t.Pairs[j][i]
			for r, c := range []int{ij.HomeWins + ji.AwayWins, ij.AwayWins + ji.HomeWins, ij.Draws + ji.Draws} {
				if c > 0 {
					cells = append(cells, cell{i, j, r, float64(c)})
				}
			}
		}
	}
	return cells
}

// fitDavidson returns the centred log-strengths. Parameters: θ_1..θ_{n−1} (θ_0 = 0 during the
// fit) and log ν; a weak ridge (1e-3 θ²) keeps an unbeaten or winless agent finite.
func fitDavidson(ctx context.Context, cells []cell, n int) ([]float64, error) {
	if len(cells) == 0 || n < 2 {
		return nil, errors.New("arena: no matches to rate")
	}
	d := davidson{pairs: pairTallies(cells), n: n}
	res, err := optimize.Minimize(optimize.Problem{Func: d.negLogLik, Grad: d.grad}, make([]float64, n), &optimize.Settings{Recorder: stopOn{ctx}}, &optimize.BFGS{})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil && res == nil {
		return nil, err
	}
	out := make([]float64, n)
	mean := 0.0
	for k := range n {
		out[k] = theta(res.X, k)
		mean += out[k]
	}
	for k := range out {
		out[k] -= mean / float64(n)
	}
	return out, nil
}

// pairTally is the results of one ordered pairing: i's wins, j's wins, draws.
type pairTally struct{ i, j, wi, wj, d float64 }

// pairTallies sums the cells by pairing, in the cells' (fixed) order: so are the sums.
func pairTallies(cells []cell) []*pairTally {
	byPair := map[[2]int]*pairTally{}
	var pairs []*pairTally
	for _, c := range cells {
		t := byPair[[2]int{c.i, c.j}]
		if t == nil {
			t = &pairTally{i: float64(c.i), j: float64(c.j)}
			byPair[[2]int{c.i, c.j}] = t
			pairs = append(pairs, t)
		}
		switch c.result {
		case 0:
			t.wi += c.count
		case 1:
			t.wj += c.count
		default:
			t.d += c.count
		}
	}
	return pairs
}

// davidson is the Davidson model's likelihood over n agents: x[k-1] is agent k's strength
// (agent 0's is 0), x[n-1] the log of the draw parameter; a small ridge keeps it bounded.
type davidson struct {
	pairs []*pairTally
	n     int
}

const ridge = 1e-3

// theta is agent k's strength in x.
func theta(x []float64, k int) float64 {
	if k == 0 {
		return 0
	}
	return x[k-1]
}

func (dv davidson) negLogLik(x []float64) float64 {
	lnu := x[dv.n-1]
	ll := 0.0
	for _, p := range dv.pairs {
		a, b := theta(x, int(p.i)), theta(x, int(p.j))
		// log of the common denominator, stably.
		m := max(a, b, lnu+(a+b)/2)
		den := m + math.Log(math.Exp(a-m)+math.Exp(b-m)+math.Exp(lnu+(a+b)/2-m))
		ll += p.wi*(a-den) + p.wj*(b-den) + p.d*(lnu+(a+b)/2-den)
	}
	for k := 0; k < dv.n-1; k++ {
		ll -= ridge * x[k] * x[k]
	}
	return -ll
}

func (dv davidson) grad(g, x []float64) {
	clear(g)
	lnu := x[dv.n-1]
	for _, p := range dv.pairs {
		i, j := int(p.i), int(p.j)
		a, b := theta(x, i), theta(x, j)
		m := max(a, b, lnu+(a+b)/2)
		ea, eb, ed := math.Exp(a-m), math.Exp(b-m), math.Exp(lnu+(a+b)/2-m)
		s := ea + eb + ed
		pa, pb, pd := ea/s, eb/s, ed/s
		tot := p.wi + p.wj + p.d
		// d ll / d a, d b, d lnu
		da := p.wi + p.d/2 - tot*(pa+pd/2)
		db := p.wj + p.d/2 - tot*(pb+pd/2)
		dn := p.d - tot*pd
		if i > 0 {
			g[i-1] -= da
		}
		if j > 0 {
			g[j-1] -= db
		}
		g[dv.n-1] -= dn
	}
	for k := 0; k < dv.n-1; k++ {
		g[k] += 2 * ridge * x[k]
	}
}

// stopOn stops an optimisation once ctx is done: gonum asks its Recorder after every step.
type stopOn struct{ ctx context.Context }

func (stopOn) Init() error { return nil }
func (s stopOn) Record(*optimize.Location, optimize.Operation, *optimize.Stats) error {
	return s.ctx.Err()
}

// RatingBootstrapFor is the number of bootstrap refits behind the intervals of n agents:
// RatingBootstrap up to 64 agents, then fewer (a refit costs about n² and the refits n² × k),
// never under 20 — the leaderboard says how many.
func RatingBootstrapFor(n int) int {
	if n <= 64 {
		return RatingBootstrap
	}
	return max(20, RatingBootstrap*64*64/(n*n))
}
