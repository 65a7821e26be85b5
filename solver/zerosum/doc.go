// Package zerosum solves two-player zero-sum matrix games exactly: the full solve
// (SolveMatrixGame: weakly dominated rows and columns removed, each side's linear program
// with gonum's simplex, then the answer checked against every pure reply), a dense
// tableau for the many small stage games of a substitution game (SolveStageGame), and
// double oracle over a matrix read in place (DoubleOracle).
//
// It knows nothing of Kingoal: a game is a payoff matrix, the row player maximises, and
// every answer is verified — an answer a pure reply beats by more than VerifyTol is an
// error wrapping ErrUnverified, never a result.
package zerosum
