package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// Entry is one learner's run in a suite.
type Entry struct {
	// Learner is fictitious, regret, psro, qlearning (tabular self-play), mcts
	// (simultaneous-move MCTS at a fixed budget: a search, measured by an exploiter's matches),
	// or solver (the exact equilibrium: solved and verified, the truth the others are
	// measured against).
	Learner string
	Rules   env.Rules
	// Budget is the iterations of a full-width learner, the episodes of Q-learning, the
	// simulations a decision of mcts.
	Budget int
	// Points is how many times Q-learning is measured along its budget (0: 10); mcts's
	// matches against its exploiter (0: 200).
	Points int
	Seed   uint64 // Q-learning's (full-width learners and the solver are deterministic)
}

// key names e's part file and zoo files: what it ran, so a part is never another entry's —
// the learner, throws a half and moves, budget, Q-learning's points and seed, and for rules
// beyond those two knobs a digest of them.
func (e Entry) key() string {
	k := fmt.Sprintf("%s_%dt%dm_b%d", e.Learner, e.Rules.HalfThrows(), e.Rules.MoveBudget(), e.Budget)
	if e.Points != 0 {
		k += fmt.Sprintf("_p%d", e.Points)
	}
	if e.Seed != 0 {
		k += fmt.Sprintf("_s%d", e.Seed)
	}
	if plain := (env.Rules{ThrowsPerHalf: e.Rules.ThrowsPerHalf, Moves: e.Rules.Moves}); !plain.Equal(e.Rules) {
		sum := sha256.Sum256([]byte(e.Rules.String()))
		k += "_r" + hex.EncodeToString(sum[:4])
	}
	return k
}
