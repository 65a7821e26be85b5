//go:build !unix

package cli

import (
	"os"
	"testing"
)

// holdStill needs SIGSTOP, which this system has not.
func holdStill(t *testing.T, _ *os.Process) (resume func()) {
	t.Helper()
	t.Skip("stopping a process needs SIGSTOP (unix)")
	return nil
}
