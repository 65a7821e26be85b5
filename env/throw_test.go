package env_test

import (
	"math"
	"testing"

	"github.com/kingoal/kingoal/env"
)

func TestThrowOddsWorkedExample(t *testing.T) {
	// rules §3: 2 dice v 3 dice.
	h, _, tie := env.PhysicalThrowOdds(2, 3)
	near(t, "physical 2v3 win", h, 0.2807356, 5e-8)
	near(t, "physical 2v3 tie", tie, 0.2476852, 5e-8)
	h, a, tie := env.ThrowOdds(2, 3, false)
	near(t, "decided 2v3 win", h, 0.3731624, 5e-8)
	near(t, "decided 2v3 sum", h+a+tie, 1, 1e-15)
	h, a, _ = env.ThrowOdds(1, 1, false)
	near(t, "1v1 home", h, 0.5, 1e-15)
	near(t, "1v1 away", a, 0.5, 1e-15)
	h, a, tie = env.ThrowOdds(1, 1, true)
	near(t, "1v1 ties-count home", h, 15.0/36, 1e-15)
	near(t, "1v1 ties-count away", a, 15.0/36, 1e-15)
	near(t, "1v1 ties-count tie", tie, 6.0/36, 1e-15)
}

// TestThrowOddsByEnumeration counts every equally likely roll of n+m dice: an independent
// computation of the physical odds.
func TestThrowOddsByEnumeration(t *testing.T) {
	for n := 1; n <= env.MaxDice; n++ {
		for m := 1; m <= env.MaxDice; m++ {
			if n+m > 8 {
				continue // 6^8 rolls is enough to trust the closed form for the rest
			}
			var win, lose, tie int
			total := int(math.Pow(6, float64(n+m)))
			for r := 0; r < total; r++ {
				x, hi := r, [2]int{}
				for i := 0; i < n+m; i++ {
					side := 0
					if i >= n {
						side = 1
					}
					hi[side] = max(hi[side], x%6+1)
					x /= 6
				}
				switch {
				case hi[0] > hi[1]:
					win++
				case hi[0] < hi[1]:
					lose++
				default:
					tie++
				}
			}
			h, a, ti := env.PhysicalThrowOdds(n, m)
			near(t, "enumerated win", h, float64(win)/float64(total), 1e-14)
			near(t, "enumerated loss", a, float64(lose)/float64(total), 1e-14)
			near(t, "enumerated tie", ti, float64(tie)/float64(total), 1e-14)
		}
	}
	for n := 1; n <= env.MaxDice; n++ {
		for m := 1; m <= env.MaxDice; m++ {
			h, a, ti := env.PhysicalThrowOdds(n, m)
			near(t, "physical sum", h+a+ti, 1, 1e-14)
			h2, a2, _ := env.PhysicalThrowOdds(m, n)
			near(t, "mirror", h, a2, 1e-15)
			near(t, "mirror", a, h2, 1e-15)
		}
	}
}

func TestDiceFor(t *testing.T) {
	h, a := env.MustParseLineup("1-2-3-3-1"), env.MustParseLineup("4-1-1-2-2")
	for ball, want := range map[int][2]int{
		1: {1 + 1, 2}, // home's defence + goalkeeper v away's attack (sector 5)
		2: {2, 2},
		3: {3, 1},
		4: {3, 1},
		5: {1, 4 + 1}, // home's attack v away's defence + goalkeeper
	} {
		hd, ad := env.DiceFor(h, a, ball)
		if [2]int{hd, ad} != want {
			t.Errorf("ball %d: dice %d v %d, want %v", ball, hd, ad, want)
		}
	}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s: got %.10g, want %.10g (±%g)", what, got, want, tol)
	}
}
