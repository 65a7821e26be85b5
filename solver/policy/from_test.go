package policy_test

import (
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// TestSolveBasicFromAgreesWithTheWholeMatch: a policy solved from a break answers, at that
// break and every break reachable from it, exactly (bit for bit) as the whole-match policy,
// and refuses line-ups and budgets that cannot follow it.
func TestSolveBasicFromAgreesWithTheWholeMatch(t *testing.T) {
	for _, r := range []env.Rules{{ThrowsPerHalf: 15}, {ThrowsPerHalf: 9, Knockout: true, ExtraThrowsPerHalf: 4, TiesCount: true, Moves: 2}} {
		own, opp := env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("1-3-3-2-1")
		whole, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: own, Opponent: opp, Objective: odds.ObjectiveWinDraw})
		if err != nil {
			t.Fatal(err)
		}
		half := r.HalfThrows()
		checked := 0
		for _, from := range []policy.BreakState{
			{Period: env.FirstHalf, ThrowsLeft: half - 4, GoalDiff: 1, Own: own, MovesLeft: r.MoveBudget()},
			{Period: env.SecondHalf, ThrowsLeft: half, GoalDiff: -1, Own: env.MustParseLineup("1-2-3-3-1"), MovesLeft: 1},
			{Period: env.SecondHalf, ThrowsLeft: 3, GoalDiff: 0, Own: own, MovesLeft: 2},
		} {
			part, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: from.Own, Opponent: opp, Objective: odds.ObjectiveWinDraw, From: &from})
			if err != nil {
				t.Fatal(err)
			}
			if part.Breaks() >= whole.Breaks() {
				t.Errorf("from %+v: %d breaks, the whole match has %d", from, part.Breaks(), whole.Breaks())
			}
			if v, _ := whole.ValueAt(from); part.Value() != v {
				t.Errorf("from %+v: value %v, whole match %v", from, part.Value(), v)
			}
			// Every break reachable from it in its period: after each goal (three throws at
			// least from a kick-off) the difference moves by one; every line-up and budget.
			type key struct{ left, d int }
			seen := map[key]bool{{from.ThrowsLeft, from.GoalDiff}: true}
			queue := []key{{from.ThrowsLeft, from.GoalDiff}}
			for len(queue) > 0 {
				b := queue[0]
				queue = queue[1:]
				for g := 3; g < b.left; g++ {
					for _, d := range []int{b.d - 1, b.d + 1} {
						if n := (key{b.left - g, d}); !seen[n] {
							seen[n] = true
							queue = append(queue, n)
						}
					}
				}
			}
			for b := range seen {
				for i, l := range env.AllLineups() {
					if i%5 != 0 {
						continue
					}
					for m := 0; m <= from.MovesLeft; m++ {
						s := policy.BreakState{Period: from.Period, ThrowsLeft: b.left, GoalDiff: b.d, Own: l, MovesLeft: m}
						a2, err2 := part.Best(s)
						if from.Own.Moves(l) > from.MovesLeft-m { // not reachable with m moves left
							if err2 == nil {
								t.Fatalf("%+v: answered %v, but it cannot follow %+v", s, a2, from)
							}
							continue
						}
						a1, err1 := whole.Best(s)
						v1, _ := whole.ValueAt(s)
						v2, _ := part.ValueAt(s)
						if err1 != nil || err2 != nil || a1 != a2 || v1 != v2 {
							t.Fatalf("%+v: whole %v %v %v, from %v %v %v", s, a1, v1, err1, a2, v2, err2)
						}
						checked++
					}
				}
			}
		}
		t.Logf("%v: %d breaks agree", r, checked)
	}
}
