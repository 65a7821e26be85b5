//go:build unix

package cli

import (
	"os"
	"syscall"
	"testing"
)

// holdStill stops p (it keeps what it holds, its locks included) and returns what lets
// it go on.
func holdStill(t *testing.T, p *os.Process) (resume func()) {
	t.Helper()
	if err := p.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := p.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
	}
}
