// Package lineup solves the hidden choice of line-ups at a kick-off: a 121×121 zero-sum
// game over the odds matrix under a payoff (Payoff: win-loss, goal difference, points or
// advance), solved exactly and verified by best responses (Equilibrium), and each side's
// answer to a given mix (MixPayoffs, BestResponses). Weighted is a mix: line-ups with
// their probabilities, the form every mixed answer of the solver packages takes.
package lineup
