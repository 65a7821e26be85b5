package lineup

import "github.com/kingoal/kingoal/env"

// ScorePayoff is the game payoff under r whose value is affine in an agent's score, P(win) +
// ½ P(draw) = (1 + win-loss)/2 in a league, P(advance) = (1 + advance)/2 in a knockout: the
// payoff exploitability is measured in.
func ScorePayoff(r env.Rules) Payoff {
	if r.Knockout {
		return PayoffAdvance
	}
	return PayoffWinLoss
}
