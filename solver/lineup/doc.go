// Package lineup solves the hidden choice of line-ups at a kick-off: a 121×121 zero-sum
// game over the odds matrix under a payoff (Payoff: win-loss, goal difference, points or
// advance), solved exactly and verified by best responses (Equilibrium), and each side's
// answer to a given mix (MixPayoffs, BestResponses). Mixes are env.Weighted line-ups.
package lineup
