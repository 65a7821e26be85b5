//go:build unix

package agents_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/policy"
)

// TestFileParametersRefuseWhatIsNotAFile: a spec naming a device, a FIFO or a directory is
// refused at once, as the input file's fault — before this, qlearning:model=/dev/zero read
// without end (4.5 GB in 8 s) and a FIFO blocked the caller forever.
func TestFileParametersRefuseWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	r := env.Rules{ThrowsPerHalf: 5, Moves: 1}
	for _, spec := range []string{"qlearning:model=/dev/zero", "qlearning:model=" + fifo, "nash:table=" + fifo, "nash:table=/dev/zero", "table:file=" + dir, "table:file=" + fifo} {
		done := make(chan error, 1)
		go func() { _, err := agents.New(spec, agents.Setup{Rules: r}); done <- err }()
		select {
		case err := <-done:
			var me *agents.ModelError
			if !errors.As(err, &me) || !errors.Is(err, safefile.ErrNotRegular) {
				t.Errorf("%s: %v, want a ModelError wrapping ErrNotRegular", spec, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still building after 10 s", spec)
		}
	}
}

// TestSetupOpenConfinesFileParameters: with Setup.Open, the opener decides what a name is —
// a name it refuses is refused whatever exists at that path.
func TestSetupOpenConfinesFileParameters(t *testing.T) {
	root := t.TempDir()
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	f, err := os.Create(filepath.Join(root, "g.kgt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := game.Solve(game.Problem{Rules: r, Payoff: lineup.PayoffWinLoss, Table: f}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	open := func(name string) (*os.File, error) { return safefile.NewRoot(root).Open(name, 1<<30) }
	if _, err := agents.New("nash:table=g.kgt", agents.Setup{Rules: r, Open: open}); err != nil {
		t.Fatalf("a table inside the root: %v", err)
	}
	for _, name := range []string{filepath.Join(root, "g.kgt"), "../g.kgt", "/etc/passwd", "missing.kgt"} {
		_, err := agents.New("nash:table="+name, agents.Setup{Rules: r, Open: open})
		if !errors.Is(err, safefile.ErrOutside) {
			t.Errorf("nash:table=%s: %v, want ErrOutside", name, err)
		}
	}
	_, err = agents.New("nash", agents.Setup{Rules: env.Rules{ThrowsPerHalf: 20, Moves: 1}, MaxBytes: 1 << 20})
	if !errors.Is(err, policy.ErrTooLarge) {
		t.Errorf("nash over MaxBytes: %v, want ErrTooLarge", err)
	}
}
