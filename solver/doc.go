// Package solver is the front door to Kingoal's solved substitution game: Solve,
// SolveToFile, Load and Verify take or return a Game of either kind — two Basic sides, or a
// Dynamic side — and Estimate sizes one before it is solved. A consumer asks what a game
// can do through abilities (BreakMixes: mixes and values at every break; Decisions: each
// pure decision of a game with a Dynamic side), never by its concrete type, and never
// imports solver/dyngame (internal/archtest holds this).
//
// Each concept is a package of its own, and each imports only those above it in this list:
//
//   - zerosum: two-player zero-sum matrix games (linear programming, a dense stage
//     tableau, double oracle), every answer verified; it knows nothing of Kingoal.
//   - odds: throw and match odds for two line-ups, the odds matrix, kept line-ups'
//     values, objectives and the shoot-out's law.
//   - lineup: the equilibrium of the hidden line-up choice at a kick-off, and Weighted,
//     the mix every mixed answer takes.
//   - policy: one coach's optimal policy against a given opponent (Basic and Dynamic) and
//     the exact evaluation of two stationary policies.
//   - game: the substitution game — both coaches adapting — solved by backward induction
//     with a matrix game at each break, checked by best responses, kept as a game table;
//     best responses to any two policies (RespondToPolicies) and policy tables.
//   - dyngame: the game with a Dynamic coach on either side (perfect information after
//     the kick-off), built on game's problem, checks and recursion; reached through this
//     package only.
//   - catalogue: every rule set of the sheets solved into a table, through this package.
//
// internal/induction is the backward recursion over throws and the move search that
// policy, game and dyngame share.
//
// The solvers know no rule of their own: they read env's throw odds, ball movement and
// period lengths, and enumerate env.State chance outcomes where a process has no closed
// form (the shoot-out). Tests check every figure against the simulator and against a plain
// enumeration of env states.
package solver
