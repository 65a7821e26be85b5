// Package env is the rules engine of Kingoal and the only code that knows the rules
// (docs/rules.md): line-ups, throws, goals, time, Basic moves, Dynamic shifts, extra
// time and penalties, with every knob of the rules' §9 in Rules, whose zero value is the
// documented defaults.
//
// A match is a State: a plain value describing a node of a two-player game with
// simultaneous moves and chance. At a chance node ChanceOutcomes lists the exact
// probabilities of the results (solvers enumerate them) and a Sampler draws one (the
// simulator); at a decision node each acting player picks an action from Legal — one
// action space for every decision, "choose the formation": the index 0..120 of the target
// line-up. Apply and ApplyChance are unchecked and fast, for search; ApplyChecked and
// ApplyChanceChecked validate user input.
//
// Three samplers share one law: FastSampler draws one uniform number a throw (RunChance and
// Playout give it whole runs of throws, applied in registers); DiceSampler rolls every die;
// GoalSampler draws a Basic-mode match goal by goal — one number from a kick-off to the next
// goal or the end of the period, from the exact law of the throws between — for simulators
// that need no throw-level record.
//
// On top sit the Gymnasium-style environments: Env (one agent against an opponent Policy),
// ParallelEnv (both players, PettingZoo-parallel style) and VecEnv (a batch with next-step
// autoreset). Package envtest checks any such environment for conformance.
//
// The probability that one side wins a physical throw with n dice against m is
//
//	Σ_k [(k/6)^n − ((k−1)/6)^n] · ((k−1)/6)^m
//
// and by default ties are thrown again, so the decided odds are the physical ones divided
// by 1 − P(tie).
//
// Randomness: nothing here reads a global generator. Samplers take a rand.Source;
// environments derive their streams from the seed given to Reset. Package-level tables are
// computed at start-up and read-only afterwards, so everything is safe to use from many
// goroutines as long as each State, Sampler and environment stays on one.
package env
