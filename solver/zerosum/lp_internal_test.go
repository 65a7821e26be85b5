package zerosum

import (
	"errors"
	"math"
	"testing"
)

// solveGame is SolveMatrixGame for a game the test knows to be solvable.
func solveGame(t *testing.T, a [][]float64) (x, y []float64, value float64) {
	t.Helper()
	g, err := SolveMatrixGame(a)
	if err != nil {
		t.Fatal(err)
	}
	return g.X, g.Y, g.Value
}

func TestKnownGames(t *testing.T) {
	for _, g := range []struct {
		name  string
		a     [][]float64
		x     []float64
		value float64
	}{
		{"matching pennies", [][]float64{{1, -1}, {-1, 1}}, []float64{0.5, 0.5}, 0},
		{"rock-paper-scissors", [][]float64{{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 0},
		// x = (3/7, 4/7), value 1/7: 3x−2(1−x) = −x+(1−x) ⇒ x = 3/7.
		{"2×2 mixed", [][]float64{{3, -1}, {-2, 1}}, []float64{3.0 / 7, 4.0 / 7}, 1.0 / 7},
		// Row 2 is dominated by row 0; column 2 by column 1; the rest is matching pennies shifted by 2.
		{"dominated", [][]float64{{3, 1, 5}, {1, 3, 4}, {0, 0, 4}}, []float64{0.5, 0.5, 0}, 2},
		{"saddle point", [][]float64{{4, 2, 3}, {1, 0, 5}, {3, 1, 6}}, []float64{1, 0, 0}, 2},
		{"weakly dominated duplicates", [][]float64{{1, -1, -1}, {1, -1, -1}, {-1, 1, 1}}, []float64{0.5, 0, 0.5}, 0},
	} {
		x, _, v := solveGame(t, g.a)
		if math.Abs(v-g.value) > 1e-12 {
			t.Errorf("%s: value %v, want %v", g.name, v, g.value)
		}
		for i := range x {
			if math.Abs(x[i]-g.x[i]) > 1e-9 {
				t.Errorf("%s: x = %v, want %v", g.name, x, g.x)
				break
			}
		}
	}
}

func TestVerifyRejectsWrongAnswers(t *testing.T) {
	rps := [][]float64{{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}
	third := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	for name, mixes := range map[string][2][]float64{
		"pure rock":      {{1, 0, 0}, third},
		"slightly off":   {{0.34, 0.33, 0.33}, third},
		"not normalised": {{0.5, 0.5, 0.5}, third},
		"negative":       {{1.5, -0.25, -0.25}, third},
	} {
		if _, _, err := verify(rps, mixes[0], mixes[1]); !errors.Is(err, ErrUnverified) {
			t.Errorf("%s: verify accepted it (%v)", name, err)
		}
	}
	if v, e, err := verify(rps, third, third); err != nil || v != 0 || e > 1e-15 {
		t.Errorf("the true equilibrium: %v %v %v", v, e, err)
	}
}
