package game

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/testtool"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// kickValue is K at the first kick-off for home line-up i with hm moves and away j with am.
func (g *Game) kickValue(i, hm, j, am int) float64 {
	kl := g.kicks[0][g.lengths[0]]
	w := g.moves + 1
	return kl.k[(0-kl.lo)*g.space.configs()+(i*w+hm)*g.space.entries+j*w+am]
}

// TestGameKeptValuesAreTheMatchOdds: with no moves left on either side, the game's value
// from the kick-off is the match's payoff with both line-ups kept, which MatchOdds computes
// by a different method (a forward pass over the score, periods convolved) — for every pair
// of line-ups, under each payoff, league and knockout.
func TestGameKeptValuesAreTheMatchOdds(t *testing.T) {
	cases := []struct {
		r env.Rules
		p lineup.Payoff
	}{
		{env.Rules{ThrowsPerHalf: 4, Moves: 1}, lineup.PayoffWinLoss},
		{env.Rules{ThrowsPerHalf: 4, Moves: 1, TiesCount: true}, lineup.PayoffGoalDiff},
		{env.Rules{ThrowsPerHalf: 3, Moves: env.NoMoves, Knockout: true, ExtraThrowsPerHalf: 2}, lineup.PayoffAdvance},
		{env.Rules{ThrowsPerHalf: 3, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}, lineup.PayoffWinLoss},
	}
	for _, c := range cases {
		g, err := Solve(Problem{Rules: c.r, Payoff: c.p})
		if err != nil {
			t.Fatal(err)
		}
		m, err := odds.Matrix(c.r)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i := range env.NumLineups {
			for j := range env.NumLineups {
				worst = max(worst, math.Abs(g.kickValue(i, 0, j, 0)-c.p.Of(m.At(i, j), c.r)))
			}
		}
		if worst > 1e-12 {
			t.Errorf("%v %v: kept values differ from MatchOdds by %.3g", c.r, c.p, worst)
		}
	}
}

// TestGameMirrorIsExact: the values read off mirror images equal the values of solving
// every stage game (the mirror is a symmetry of the rules, not an approximation), at the
// kick-off and at every break of a 4-throw match.
func TestGameMirrorIsExact(t *testing.T) {
	payoffs := []lineup.Payoff{lineup.PayoffWinLoss, lineup.PayoffAdvance}
	if testing.Short() { // the race stage
		payoffs = payoffs[:1]
	}
	for _, p := range payoffs {
		r := env.Rules{ThrowsPerHalf: 4, Moves: 1}
		if p == lineup.PayoffAdvance {
			r.Knockout, r.ExtraThrowsPerHalf = true, 2
		}
		a, err := Solve(Problem{Rules: r, Payoff: p})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Solve(Problem{Rules: r, Payoff: p, noMirror: true})
		if err != nil {
			t.Fatal(err)
		}
		if a.Stats().Mirrored == 0 || b.Stats().Mirrored != 0 {
			t.Fatalf("mirrored %d and %d breaks", a.Stats().Mirrored, b.Stats().Mirrored)
		}
		worst := 0.0
		for per := range a.kicks {
			for t, kl := range a.kicks[per] {
				if kl == nil {
					continue
				}
				for i, v := range kl.k {
					worst = max(worst, math.Abs(v-b.kicks[per][t].k[i]))
				}
			}
		}
		if worst > 1e-12 || math.Abs(a.Value()-b.Value()) > 1e-12 {
			t.Errorf("%v: mirrored and full solves differ by %.3g (values %v, %v)", p, worst, a.Value(), b.Value())
		}
	}
}

// TestVerifyGameCatchesADeviation: the verification is not blind — with home's kick-off mix
// replaced by a pure line-up outside the equilibrium, away's best response gains.
func TestVerifyGameCatchesADeviation(t *testing.T) {
	g, err := Solve(Problem{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 1}, Payoff: lineup.PayoffWinLoss})
	if err != nil {
		t.Fatal(err)
	}
	bad := *g
	bad.kickOff.X = make([]float64, env.NumLineups)
	l, _ := env.ParseLineup("2-2-2-2-2")
	bad.kickOff.X[l.Index()] = 1
	c, err := Verify(context.Background(), &bad, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Exploitability < 0.01 {
		t.Errorf("a pure 2-2-2-2-2 kick-off: exploitability %.3g, want a clear gain", c.Exploitability)
	}
}

// TestStageSimplexAgreesWithGonum: on 3,000 random games up to 8 × 8 with entries from five
// values (duplicate rows and columns, ties and degenerate pivots everywhere), the stage
// games' tableau finds the value gonum's two LPs find, and both pass the pure-reply check.
func TestStageSimplexAgreesWithGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tab zerosum.Tableau
	for k := range 3000 {
		m, n := 1+rng.IntN(8), 1+rng.IntN(8)
		a := make([][]float64, m)
		for i := range a {
			a[i] = make([]float64, n)
			for j := range a[i] {
				a[i][j] = float64(rng.IntN(5))/4 - 0.5
			}
		}
		g, err := zerosum.SolveStageGame(a, &tab)
		if err != nil {
			t.Fatalf("game %d %v: %v", k, a, err)
		}
		h, err := zerosum.SolveMatrixGame(a)
		if err != nil {
			t.Fatalf("game %d %v: gonum: %v", k, a, err)
		}
		if math.Abs(g.Value-h.Value) > 1e-12 {
			t.Fatalf("game %d %v: value %v, gonum %v", k, a, g.Value, h.Value)
		}
	}
}

// TestGameIsDeterministic: the values do not depend on how many workers solve the stage
// games — bit for bit.
func TestGameIsDeterministic(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 4, Moves: 1, TiesCount: true}
	a, err := Solve(Problem{Rules: r, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Solve(Problem{Rules: r, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	for per := range a.kicks {
		for t2, kl := range a.kicks[per] {
			if kl == nil {
				continue
			}
			for i, v := range kl.k {
				if math.Float64bits(v) != math.Float64bits(b.kicks[per][t2].k[i]) {
					t.Fatalf("%d, %d throws left, entry %d: %v with 1 worker, %v with 3", per, t2, i, v, b.kicks[per][t2].k[i])
				}
			}
		}
	}
	if a.Value() != b.Value() || a.Stats() != b.Stats() {
		t.Errorf("value %v v %v, stats %+v v %+v", a.Value(), b.Value(), a.Stats(), b.Stats())
	}
}

// TestGameMatchesTheReferenceSolve (the reference solved 4-throw two-move knockouts only
// since the tableau's fallback to gonum: it failed its check at one of their breaks): the solve as it is — reachable differences only, stage
// games by double oracle from the last throw's answer — holds the values of the reference
// solve (every difference, every stage game afresh on its whole matrix) at every break it
// holds, to 1e-12, over payoffs, ties, knockout and budgets.
func TestGameMatchesTheReferenceSolve(t *testing.T) {
	cases := []Problem{
		{Rules: env.Rules{ThrowsPerHalf: 6, Moves: 2}, Payoff: lineup.PayoffWinLoss},
		{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 2, TiesCount: true}, Payoff: lineup.PayoffWinLoss},
		{Rules: env.Rules{ThrowsPerHalf: 2, Moves: 3}, Payoff: lineup.PayoffWinLoss},
		{Rules: env.Rules{ThrowsPerHalf: 6, Moves: 1}, Payoff: lineup.PayoffGoalDiff},
		{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 2, Knockout: true, ExtraThrowsPerHalf: 2}, Payoff: lineup.PayoffAdvance},
		{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}, Payoff: lineup.PayoffGoalDiff},
	}
	switch {
	case testing.Short(): // the race stage: the parallel solve on a small game (the reference is slow under -race)
		cases = []Problem{{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Payoff: lineup.PayoffWinLoss}}
	case !testtool.Heavy(): // every kind of rules, shorter halves (go test ./... within a minute: issue 64)
		cases = []Problem{
			{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 2}, Payoff: lineup.PayoffWinLoss},
			{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 2, TiesCount: true}, Payoff: lineup.PayoffWinLoss},
			{Rules: env.Rules{ThrowsPerHalf: 2, Moves: 3}, Payoff: lineup.PayoffWinLoss},
			{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 1}, Payoff: lineup.PayoffGoalDiff},
			{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 2, Knockout: true, ExtraThrowsPerHalf: 2}, Payoff: lineup.PayoffAdvance},
			{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}, Payoff: lineup.PayoffGoalDiff},
		}
	}
	for _, p := range cases {
		fast, err := Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		ref := p
		ref.reference = true
		slow, err := Solve(ref)
		if err != nil {
			t.Fatal(err)
		}
		if fast.Stats().Oracle == 0 || slow.Stats().Oracle != 0 || fast.Stats().BreakStates >= slow.Stats().BreakStates && !fast.add {
			t.Fatalf("%v: stats %+v and %+v", p.Rules, fast.Stats(), slow.Stats())
		}
		worst, held := 0.0, 0
		for per := range fast.kicks {
			for tl, kl := range fast.kicks[per] {
				if kl == nil {
					continue
				}
				rl := slow.kicks[per][tl]
				for d := kl.lo; d < kl.lo+kl.n; d++ {
					a := kl.k[(d-kl.lo)*fast.space.configs() : (d-kl.lo+1)*fast.space.configs()]
					b := rl.k[(d-rl.lo)*slow.space.configs():]
					for i, v := range a {
						worst = max(worst, math.Abs(v-b[i]))
					}
					held += len(a)
				}
			}
		}
		if worst > 1e-12 || math.Abs(fast.Value()-slow.Value()) > 1e-12 || held == 0 {
			t.Errorf("%v %v: %d values differ from the reference by up to %.3g (values %v, %v)", p.Rules, p.Payoff, held, worst, fast.Value(), slow.Value())
		}
	}
}
