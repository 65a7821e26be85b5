//go:build unix

package safefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kingoal/kingoal/internal/safefile"
)

// TestLockRefusesAFIFO: a FIFO (or any file not regular) where a lock file goes is refused at
// once by asking (DirHolder, DirHolderIn) and by locking (LockDir, LockFile); before, opening it
// waited for a writer for good.
func TestLockRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ".kingoal.lock"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.parquet")
	if err := syscall.Mkfifo(filepath.Join(dir, ".out.parquet.lock"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for name, try := range map[string]func() error{
		"DirHolder":   func() error { _, _, err := safefile.DirHolder(dir); return err },
		"DirHolderIn": func() error { _, _, err := safefile.DirHolderIn(root); return err },
		"FileHolder":  func() error { _, _, err := safefile.FileHolder(out); return err },
		"LockDir":     func() error { _, err := safefile.LockDir(dir); return err },
		"LockFile":    func() error { _, err := safefile.LockFile(out); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- try() }()
		select {
		case err := <-done:
			if !errors.Is(err, safefile.ErrNotRegular) {
				t.Errorf("%s of a FIFO: %v, want an error wrapping safefile.ErrNotRegular", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s of a FIFO still waits after 5 s", name)
		}
	}
}
