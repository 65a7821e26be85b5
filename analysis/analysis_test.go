package analysis_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/analysis"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// randomPolicy plays a uniformly random legal action from its own stream.
func randomPolicy(seed uint64) env.Policy {
	rng := rand.New(rand.NewPCG(seed, 1))
	return env.PolicyFunc(func(_ env.Observation, m env.Mask) int { return m.Nth(rng.IntN(m.Count())) })
}

// played plays a match between two policies and returns its start and events.
func played(t testing.TB, r env.Rules, home, away env.Policy, seed uint64) (env.State, []env.Event) {
	t.Helper()
	start, err := env.NewState(r)
	if err != nil {
		t.Fatal(err)
	}
	var events []env.Event
	if _, err := env.Play(start, home, away, env.NewFastSampler(rand.NewPCG(seed, 2)), func(e env.Event) { events = append(events, e) }); err != nil {
		t.Fatal(err)
	}
	return start, events
}

// TestMatchJudgesEveryDecision: a random side's decisions are judged by the payoff of
// its choice against the other side's equilibrium mix, computed here another way — the
// mean over the other side's mix of the value of the state after both choices
// (env.Apply, then game.ValueOf at the throw that follows) — to 1e-9; losses are ≥ 0,
// graded by the thresholds, and the summary adds them up; the curve starts at the game's
// value, has a point after every event outside a shoot-out and ends at the payoff.
func TestMatchJudgesEveryDecision(t *testing.T) {
	ctx := context.Background()
	for _, p := range []game.Problem{
		{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 2}, Payoff: lineup.PayoffWinLoss},
		{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}, Payoff: lineup.PayoffAdvance},
	} {
		g, err := game.Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		judged, lost := 0, 0
		var tally analysis.Tally
		total, worst := map[string]float64{}, map[string]float64{}
		for seed := range uint64(8) {
			start, events := played(t, p.Rules, randomPolicy(seed), randomPolicy(seed+100), seed)
			rep, err := analysis.Match(ctx, g, start, events, [2]string{"random", "random2"})
			if err != nil {
				t.Fatal(err)
			}
			rep.Match = int64(seed)
			tally.Add(rep)
			for _, d := range rep.Decisions {
				total[d.Agent] += d.Points
				worst[d.Agent] = max(worst[d.Agent], d.Points)
			}
			var sum [2]float64
			for _, d := range rep.Decisions {
				ev := events[d.Event]
				side := env.Home
				if d.Side == "away" {
					side = env.Away
				}
				got := expectedAfter(t, g, ev, side, ev.Joint[side])
				if math.Abs(got-d.Got) > 1e-9 {
					t.Fatalf("%v: event %d (%s): got %v, by env.Apply and ValueOf %v", p.Rules, d.Event, d.Side, d.Got, got)
				}
				if d.Loss < 0 || math.Abs(analysis.PointsOf(p.Payoff, d.Loss)-d.Points) > 0 || d.Grade != analysis.GradeOf(d.Points) {
					t.Fatalf("%+v", d)
				}
				if want := math.Abs(d.Value - d.Got); math.Abs(d.Loss-want) > 1e-12 && d.Loss > 0 {
					t.Fatalf("%+v: loss is not |value − got|", d)
				}
				sum[map[string]int{"home": 0, "away": 1}[d.Side]] += d.Points
				judged++
				if d.Loss > 1e-9 {
					lost++
				}
			}
			for i, a := range rep.Agents {
				if math.Abs(a.Points-sum[i]) > 1e-12 {
					t.Fatalf("summary %+v, decisions add to %v", a, sum[i])
				}
			}
			if rep.Curve[0].Value != g.Value() || rep.Curve[0].Event != -1 {
				t.Fatalf("curve starts %+v, the game's value is %v", rep.Curve[0], g.Value())
			}
			last, end := rep.Curve[len(rep.Curve)-1], events[len(events)-1].After
			if want := finalValue(end); last.Event != len(events)-1 || last.Value != want {
				t.Fatalf("curve ends %+v, the match %v", last, want)
			}
		}
		sums := tally.Agents()
		if len(sums) != 2 || sums[0].PerMatch > sums[1].PerMatch {
			t.Fatalf("tally %+v", sums)
		}
		for _, a := range sums {
			if a.Matches != 8 || math.Abs(a.PerMatch-total[a.Agent]/8) > 1e-12 || a.Worst != worst[a.Agent] {
				t.Errorf("tally %+v; the decisions: %v in all, %v at worst", a, total[a.Agent], worst[a.Agent])
			}
		}
		// Random choices give value away at some decisions and not at others (keeping
		// is often in the support): both kinds are checked.
		if judged < 20 || lost == 0 || lost == judged {
			t.Fatalf("%v: %d decisions judged, %d losing value", p.Rules, judged, lost)
		}
	}
}

// expectedAfter is home's value when side plays action and the other side draws from
// its equilibrium mix: each pair applied to the state and valued there.
func expectedAfter(t *testing.T, g *game.Game, ev env.Event, side env.Player, action int) float64 {
	t.Helper()
	var other []env.Weighted
	if ev.Before.Decision() == env.KickOff {
		k := g.KickOff()
		other = [2][]env.Weighted{k.Home, k.Away}[side.Other()]
	} else {
		sol, err := g.At(game.StateOf(ev.Before))
		if err != nil {
			t.Fatal(err)
		}
		other = [2][]env.Weighted{sol.Home, sol.Away}[side.Other()]
	}
	sum := 0.0
	for _, w := range other {
		var joint [2]int
		joint[side], joint[side.Other()] = action, w.Lineup.Index()
		s := ev.Before
		if err := s.ApplyChecked(joint); err != nil {
			t.Fatal(err)
		}
		v, err := g.ValueOf(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		sum += w.Prob * v
	}
	return sum
}

// finalValue is home's win-loss/advance payoff of a finished match.
func finalValue(s env.State) float64 {
	w, ok := s.Winner()
	switch {
	case !ok:
		return 0
	case w == env.Home:
		return 1
	}
	return -1
}

func TestGrades(t *testing.T) {
	for _, c := range []struct {
		points float64
		want   analysis.Grade
	}{{0, analysis.Best}, {0.0049, analysis.Best}, {0.005, analysis.Inaccuracy}, {0.0199, analysis.Inaccuracy}, {0.02, analysis.Mistake}, {0.05, analysis.Blunder}, {0.9, analysis.Blunder}} {
		if g := analysis.GradeOf(c.points); g != c.want {
			t.Errorf("GradeOf(%v) = %v, want %v", c.points, g, c.want)
		}
	}
}
