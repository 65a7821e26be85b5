package command

import (
	"errors"

	"github.com/kingoal/kingoal/solver/policy"
)

// PolicyError makes a policy too large for this machine a usage error: the rules asked
// for it.
func PolicyError(err error) error {
	if errors.Is(err, policy.ErrTooLarge) {
		return Usage(err)
	}
	return err
}
