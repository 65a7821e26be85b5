// Package agents holds Kingoal's agents and the registry that builds them from spec strings
// such as "random", "fixed:1-2-3-3-1", "heuristic", "optimal:objective=points",
// "equilibrium", "nash" (the substitution game's equilibrium), "mcts:iters=1000"
// (simultaneous-move MCTS) or "uct" (decoupled UCT, its baseline). What measures them —
// score and regret against a reference, what a best response wins against an agent — is
// package exploit.
//
// Every agent decides through the one action space of env — "choose the formation", a line-up
// index 0..120 — from an env.Observation and the legal env.Mask, so the same agent declares
// its kick-off line-up, moves at Basic breaks and shifts in Dynamic mode. An Agent is an
// env.Policy, so it can be an Env's opponent directly. Agents with randomness take their
// stream from Reset(seed) (the arena gives each match its own); the others ignore seeds.
//
// Agents are not safe for concurrent use; build one per goroutine. The solver-backed agents
// cache the policies they solve for the life of the agent; nash shares its solved game
// (read-only) with every nash agent of the same rules and payoff in the process.
package agents
