package policy

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

// CheckBasicSize reports, without solving, whether a Basic policy against a fixed opponent
// fits under r (an error wrapping ErrTooLarge if not): agents built on SolveBasic refuse such
// rules when they are built, not at their first break.
func CheckBasicSize(r env.Rules) error {
	lengths, total := odds.PeriodLengths(r)
	if blocks := policyBlocks(lengths, total/odds.ThrowsToScore()+1); blocks > maxPolicyBlocks {
		return fmt.Errorf("%w: %d-throw halves need %d breaks of ~8 KB each, more than the limit of %d (about 800 MB)", ErrTooLarge, r.HalfThrows(), blocks, maxPolicyBlocks)
	}
	return nil
}

// policyBlocks is the number of breaks a policy against a fixed opponent holds: every
// throw of every period by every goal difference up to ±maxDiff.
func policyBlocks(lengths []int, maxDiff int) int {
	n := 0
	for _, l := range lengths {
		n += l * (2*maxDiff + 1)
	}
	return n
}
