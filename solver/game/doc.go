// Package game solves Kingoal's substitution game — both coaches adapting, each break a
// simultaneous choice of line-ups — exactly: backward induction over break states with a
// zero-sum matrix game at each (Solve: double oracle first, a fresh verified solve where it
// does not settle), checked by each side's best response in the same induction
// (Problem.Verify), after it (Verify) or another way (VerifyByBasic). A solved game is kept
// as a game table (Problem.Table, Load) that answers any break state (Game.At) without
// solving again.
//
// It also measures any two policies exactly: RespondToPolicies solves each side's best
// response to the other's stationary policy over every break state (the exploitability of
// an agent), and PolicyTable keeps a policy's answers at every break state in a file. A
// policy in another runtime (a network in Python) is asked in batches of tens of thousands
// of breaks, ahead of the solve on a goroutine of its own (PolicyProblem.Batch), and a
// DensePolicy answers with a probability a line-up, as a softmax does.
//
// Every function is safe for concurrent use; solves use Problem.Workers goroutines and
// their results do not depend on how many.
package game
