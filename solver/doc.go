// Package solver computes exact answers for Kingoal: throw and match odds for any two
// line-ups, the 121×121 odds matrix, the equilibrium of the hidden line-up choice (a
// zero-sum matrix game, solved by linear programming and verified by best responses),
// optimal substitution and shift policies by backward induction, and the substitution game
// itself — both coaches adapting — solved by backward induction over break states with a
// matrix game at each (SolveGame, double oracle first) and checked by each side's best response
// (GameProblem.Verify, in the same induction; VerifyGame after it; VerifyGameByBasic another way).
// With a Dynamic coach on either side the game after the kick-off has perfect information —
// each shift and each break a max or a min — and SolveDynamicGame solves it, possession in the
// state under the turnover trigger, keeping one byte a decision for DynamicGame.Choice.
//
// The solver knows no rule of its own: it reads env's throw odds (env.ThrowOdds,
// env.DiceFor), ball movement (env.MoveBall) and period lengths (env.Rules), and enumerates
// env.State chance outcomes where a process has no closed form (the shoot-out). Tests check
// every figure against the simulator and against a plain enumeration of env states.
//
// Every function is safe for concurrent use; Matrix uses all cores and its result does not
// depend on how many there are.
package solver
