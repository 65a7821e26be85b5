package rank_test

import (
	"errors"
	"math"
	"testing"

	"github.com/kingoal/kingoal/rank"
)

// α-Rank on tables whose answer is known another way: a cycle (rock, paper, scissors) shares
// the mass evenly; of two agents, the masses stand as the two fixation probabilities (the
// chain's balance, solved by hand); an agent that beats everyone takes almost all.
func TestAlphaRank(t *testing.T) {
	nan := math.NaN()
	cycle := [][]float64{{nan, 0.2, 0.8}, {0.8, nan, 0.2}, {0.2, 0.8, nan}}
	pi, err := rank.AlphaRank(cycle, rank.AlphaRankParams{})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pi {
		if math.Abs(p-1.0/3) > 1e-12 {
			t.Errorf("cycle: agent %d has %v, want 1/3", i, p)
		}
	}
	// Two agents: π₀ ρ(1 invades 0) = π₁ ρ(0 invades 1).
	const m, alpha = 50, 2.0
	pair := [][]float64{{nan, 0.55}, {0.45, nan}}
	pi, err = rank.AlphaRank(pair, rank.AlphaRankParams{Population: m, Intensity: alpha})
	if err != nil {
		t.Fatal(err)
	}
	rho := func(u float64) float64 { return (1 - math.Exp(-u)) / (1 - math.Exp(-m*u)) }
	into1, into0 := rho(alpha*(0.45-0.55)), rho(alpha*(0.55-0.45))
	if want := into0 / (into0 + into1); math.Abs(pi[0]-want) > 1e-12 || math.Abs(pi[0]+pi[1]-1) > 1e-12 {
		t.Errorf("pair: %v, want %v for the stronger", pi, want)
	}
	strong := [][]float64{{nan, 0.9, 0.8}, {0.1, nan, 0.5}, {0.2, 0.5, nan}}
	if pi, err = rank.AlphaRank(strong, rank.AlphaRankParams{Population: 50, Intensity: 100}); err != nil || pi[0] < 0.999 {
		t.Errorf("a dominant agent: %v, %v", pi, err)
	}
	if _, err := rank.AlphaRank([][]float64{{nan, nan}, {nan, nan}}, rank.AlphaRankParams{}); !errors.Is(err, rank.ErrIncomplete) {
		t.Errorf("pairs that never met: %v", err)
	}
}

// The knobs: zero fields take the defaults, and a population or intensity out of range is an
// error naming it, not a ranking.
func TestAlphaRankParams(t *testing.T) {
	p, err := rank.AlphaRankParams{Intensity: 3}.Resolved()
	if err != nil || p.Population != rank.AlphaRankPopulation || p.Intensity != 3 {
		t.Errorf("resolved %+v, %v", p, err)
	}
	nan := math.NaN()
	pair := [][]float64{{nan, 0.55}, {0.45, nan}}
	for _, bad := range []rank.AlphaRankParams{{Population: 1}, {Population: -5}, {Population: 2_000_000}, {Intensity: -1}, {Intensity: math.Inf(1)}, {Intensity: nan}} {
		if _, err := rank.AlphaRank(pair, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	// A stronger intensity concentrates the mass on the stronger agent.
	weak, _ := rank.AlphaRank(pair, rank.AlphaRankParams{Intensity: 1})
	strong, _ := rank.AlphaRank(pair, rank.AlphaRankParams{Intensity: 1000})
	if !(weak[0] < strong[0] && strong[0] > 0.999) {
		t.Errorf("α = 1: %v, α = 1000: %v", weak, strong)
	}
}
