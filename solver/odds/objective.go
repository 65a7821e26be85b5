// Objectives: what a policy maximises, and the score of a finished match under one.

package odds

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// Objective is what a policy maximises, always from its own player's point of view.
type Objective uint8

const (
	ObjectiveWin      Objective = iota // P(win); in a knockout a shoot-out win counts
	ObjectivePoints                    // expected league points (goals in play)
	ObjectiveWinDraw                   // P(win) + ½ P(draw)
	ObjectiveAdvance                   // P(going through) in a knockout
	ObjectiveWinLoss                   // P(win) − P(loss), a shoot-out counted as a draw
	ObjectiveGoalDiff                  // expected own goals − opponent goals
)

var objectiveNames = [...]string{"win", "points", "win-draw", "advance", "win-loss", "goal-diff"}

func (o Objective) String() string {
	if int(o) < len(objectiveNames) {
		return objectiveNames[o]
	}
	return fmt.Sprintf("objective(%d)", o)
}

// ParseObjective reads win, points, win-draw, advance, win-loss or goal-diff.
func ParseObjective(s string) (Objective, error) {
	for i, n := range objectiveNames {
		if s == n {
			return Objective(i), nil
		}
	}
	return 0, fmt.Errorf("solver: objective %q: want win, points, win-draw, advance, win-loss or goal-diff", s)
}

// PeriodLengths lists the throws of each period a match may play, in order, walking env's
// period rule (with a level score, the longest path), and their sum.
func PeriodLengths(r env.Rules) (lengths []int, total int) {
	for _, p := range r.Periods() {
		lengths = append(lengths, r.PeriodLength(p))
		total += r.PeriodLength(p)
	}
	return lengths, total
}

// scorer values the end of a match for one player under an objective.
type scorer struct {
	obj     Objective
	pts     env.Points
	pensWin float64 // P(the player wins a shoot-out)
}

func NewScorer(r env.Rules, o Objective, pensWin float64) scorer {
	return scorer{o, r.LeaguePoints(), pensWin}
}

// final values a match ending with goal difference d (own − opponent), or a shoot-out.
func (s scorer) Final(d int, shootout bool) float64 {
	switch s.obj {
	case ObjectiveWinLoss:
		return float64(Sign(d)) // a shoot-out comes at d = 0
	case ObjectiveGoalDiff:
		return float64(d)
	}
	switch {
	case shootout && s.obj != ObjectivePoints:
		return s.pensWin
	case s.obj == ObjectivePoints:
		switch {
		case d > 0:
			return float64(s.pts.Win)
		case d < 0:
			return float64(s.pts.Loss)
		}
		return float64(s.pts.Draw)
	case d > 0:
		return 1
	case d == 0 && s.obj == ObjectiveWinDraw:
		return 0.5
	}
	return 0
}

// PensWinFor is P(player wins a shoot-out), from env's enumerated shoot-out.
func PensWinFor(p env.Player) (float64, error) {
	so, err := ShootoutLaw()
	if err != nil {
		return 0, err
	}
	if p == env.Away {
		return 1 - so.Home, nil
	}
	return so.Home, nil
}
