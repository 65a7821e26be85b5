// What the full-width learners hold beside their best responses, checked before any work.

package agents

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/policy"
)

// checkLearnerFits refuses, before any work, rules under which a full-width learner's best
// responses and its own strategies would pass the solver's memory bound (game.DefaultMaxBytes):
// an error wrapping policy.ErrTooLarge naming both. perBreak is what the learner keeps a
// break state, from the average number of line-ups a side may choose there (mixes: 16 bytes a
// line-up for fictitious play's two sides, regret matching twice that).
func checkLearnerFits(r env.Rules, learner string, perBreak func(choices float64) float64) error {
	p := game.PolicyProblem{Rules: r, Payoff: lineup.ScorePayoff(r)}
	if _, err := p.Fits(); err != nil {
		return fmt.Errorf("agents: %s: %w", learner, bareError{err})
	}
	size, err := game.Estimate(r, p.Payoff)
	if err != nil {
		return fmt.Errorf("agents: %s: %w", learner, bareError{err})
	}
	held := int64(perBreak(meanChoices(r.MoveBudget())) * float64(size.BreakStates))
	if total := size.PeakResponses() + held; total > game.DefaultMaxBytes {
		return fmt.Errorf("agents: %s: %w: its strategies at %d break states need ~%s beside the best responses' ~%s, more than the limit of %s",
			learner, policy.ErrTooLarge, size.BreakStates, safefile.FormatBytes(held), safefile.FormatBytes(size.PeakResponses()), safefile.FormatBytes(game.DefaultMaxBytes))
	}
	return nil
}

// meanChoices is the mean number of line-ups a side may choose at a break, over its line-ups
// and moves left (0 … moves).
func meanChoices(moves int) float64 {
	w, total := moves+1, 0
	for a := range env.NumLineups * w {
		total += env.LineupAt(a / w).Reachable(a % w).Count()
	}
	return float64(total) / float64(env.NumLineups*w)
}
