// Grading a loss: points of P(win) + ½ P(draw) and the thresholds.

package analysis

import (
	"fmt"

	"github.com/kingoal/kingoal/solver/lineup"
)

// Grade says how much a choice gives away, in points of P(win) + ½ P(draw) (Thresholds).
type Grade uint8

const (
	Best       Grade = iota // less than Thresholds[0]: as good as the equilibrium
	Inaccuracy              // at least Thresholds[0]
	Mistake                 // at least Thresholds[1]
	Blunder                 // at least Thresholds[2]
)

// Thresholds are the points a choice must give away to be an inaccuracy, a mistake or a
// blunder: 0.5, 2 and 5 points of P(win) + ½ P(draw) in a hundred.
var Thresholds = [3]float64{0.005, 0.02, 0.05}

func (g Grade) String() string {
	names := [...]string{"none", "inaccuracy", "mistake", "blunder"}
	if int(g) < len(names) {
		return names[g]
	}
	return fmt.Sprintf("grade(%d)", uint8(g))
}

// MarshalText writes the grade's name.
func (g Grade) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// GradeOf grades a loss in points.
func GradeOf(points float64) Grade {
	g := Best
	for _, t := range Thresholds {
		if points >= t {
			g++
		}
	}
	return g
}

// PointsOf turns a loss in payoff units into points of P(win) + ½ P(draw): half the loss
// for win-loss and advance (their value is P(win) − P(loss)); goal-diff's loss is in goals
// and is graded as it is.
func PointsOf(p lineup.Payoff, loss float64) float64 {
	if p == lineup.PayoffGoalDiff {
		return loss
	}
	return loss / 2
}

// UnmarshalText reads a grade's name.
func (g *Grade) UnmarshalText(b []byte) error {
	for c := Best; c <= Blunder; c++ {
		if c.String() == string(b) {
			*g = c
			return nil
		}
	}
	return fmt.Errorf("analysis: grade %q: want none, inaccuracy, mistake or blunder", b)
}
