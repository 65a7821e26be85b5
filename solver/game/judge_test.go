package game_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// choices is what p may play at the decision s: every legal line-up, or its own when it
// does not act.
func choices(s env.State, p env.Player) []env.Lineup {
	if !s.Acting(p) {
		return []env.Lineup{s.Lineup(p)}
	}
	var out []env.Lineup
	for _, a := range s.Legal(p).Actions() {
		out = append(out, env.LineupAt(a))
	}
	return out
}

// TestValuesFollowThePlay holds ValueOf and ChoiceValues to the rules' own odds (env's
// ChanceOutcomes and Apply, not the solver's recursion) along random matches: at each throw
// the value is the odds-weighted mean of the values after it; at each decision the stage
// game's payoffs have the game's equilibrium — home's mix gets the value against every away
// choice and no home choice gets more against away's mix (and the reverse) — and the state
// after any pair of choices has that pair's payoff as its value. A loaded table gives the
// same values to float32. League, goal difference, ties that count, and a knockout with
// extra time and a shoot-out.
func TestValuesFollowThePlay(t *testing.T) {
	ctx := context.Background()
	cases := []game.Problem{
		{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}, Payoff: lineup.PayoffAdvance},
		{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 2, TiesCount: true}, Payoff: lineup.PayoffWinLoss},
		{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 1}, Payoff: lineup.PayoffGoalDiff},
	}
	if testing.Short() { // the race stage: the knockout (no goroutines here: it ran in full before)
		cases = cases[:1]
	}
	for ci, p := range cases {
		g, table := solveWithTable(t, p)
		l, err := loadTable(table)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(ci), 44))
		for range 6 {
			s, err := env.NewState(p.Rules)
			if err != nil {
				t.Fatal(err)
			}
			for s.Node() != env.Terminal {
				v, err := g.ValueOf(ctx, s)
				if s.Period() == env.Penalties {
					if err == nil {
						t.Fatalf("%v: a shoot-out kick valued %v", p.Rules, v)
					}
					s.ApplyChance(s.ChanceOutcomes()[rng.IntN(2)].Outcome)
					continue
				}
				if err != nil {
					t.Fatalf("%v: %v: %v", p.Rules, s, err)
				}
				lv, err := l.ValueOf(ctx, s)
				if err != nil || math.Abs(lv-v) > 1e-6 {
					t.Fatalf("%v: table's value %v (%v), the solve's %v", p.Rules, lv, err, v)
				}
				if s.Node() == env.Chance {
					mean := 0.0
					for _, o := range s.ChanceOutcomes() {
						next := s
						next.ApplyChance(o.Outcome)
						w, err := g.ValueOf(ctx, next)
						if next.Period() == env.Penalties && err != nil { // the shoot-out's value at its start
							w, err = shootoutValue(t), nil
						}
						if err != nil {
							t.Fatal(err)
						}
						mean += o.Prob * w
					}
					if math.Abs(mean-v) > 1e-9 {
						t.Fatalf("%v: %v: value %v, mean after the throw %v", p.Rules, s, v, mean)
					}
					s.ApplyChance(s.ChanceOutcomes()[rng.IntN(len(s.ChanceOutcomes()))].Outcome)
					continue
				}
				homes, aways := choices(s, env.Home), choices(s, env.Away)
				c, err := g.ChoiceValues(ctx, s, homes, aways)
				if err != nil {
					t.Fatal(err)
				}
				checkStage(t, g, s, v, homes, aways, c)
				i, j := rng.IntN(len(homes)), rng.IntN(len(aways))
				s.Apply([2]int{homes[i].Index(), aways[j].Index()})
				if w, err := g.ValueOf(ctx, s); err != nil || math.Abs(w-c[i][j]) > 1e-9 {
					t.Fatalf("%v: after %v v %v: value %v (%v), payoff %v", p.Rules, homes[i], aways[j], w, err, c[i][j])
				}
			}
			if _, err := g.ValueOf(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// shootoutValue is home's payoff (advance) of a shoot-out about to start: 2 P(home wins it) − 1.
func shootoutValue(t *testing.T) float64 {
	so, err := odds.ShootoutLaw()
	if err != nil {
		t.Fatal(err)
	}
	return 2*so.Home - 1
}

// checkStage: the payoffs c at the decision s have the game's mixes as an equilibrium of
// value v.
func checkStage(t *testing.T, g *game.Game, s env.State, v float64, homes, aways []env.Lineup, c [][]float64) {
	t.Helper()
	var x, y map[env.Lineup]float64
	if s.Decision() == env.KickOff {
		k := g.KickOff()
		x, y = weights(k.Home), weights(k.Away)
	} else {
		sol, err := g.At(game.StateOf(s))
		if err != nil {
			t.Fatal(err)
		}
		x, y = weights(sol.Home), weights(sol.Away)
	}
	for i, h := range homes {
		row := 0.0
		for j, a := range aways {
			row += y[a] * c[i][j]
		}
		if row > v+1e-9 || x[h] > 0 && row < v-1e-9 {
			t.Fatalf("%v: home's %v gets %v against away's mix, the value is %v (weight %v)", s, h, row, v, x[h])
		}
	}
	for j, a := range aways {
		col := 0.0
		for i, h := range homes {
			col += x[h] * c[i][j]
		}
		if col < v-1e-9 || y[a] > 0 && col > v+1e-9 {
			t.Fatalf("%v: away's %v gives %v against home's mix, the value is %v (weight %v)", s, a, col, v, y[a])
		}
	}
}

func weights(m []env.Weighted) map[env.Lineup]float64 {
	out := map[env.Lineup]float64{}
	for _, w := range m {
		out[w.Lineup] += w.Prob
	}
	return out
}
