package safefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/internal/safefile"
)

func TestLockIsExclusiveAndReleased(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run") // created by LockDir
	l, err := safefile.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if held, pid, err := safefile.DirHolder(dir); err != nil || !held || pid != os.Getpid() {
		t.Fatalf("DirHolder while held: %v %d %v", held, pid, err)
	}
	_, err = safefile.LockDir(dir) // a second open file description: refused like another process
	var le *safefile.LockedError
	if !errors.Is(err, safefile.ErrLocked) || !errors.As(err, &le) || le.PID != os.Getpid() {
		t.Fatalf("second lock: %v", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if held, _, err := safefile.DirHolder(dir); err != nil || held {
		t.Fatalf("DirHolder after unlock: %v %v", held, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Fatalf("Unlock left %v", left)
	}
	again, err := safefile.LockDir(dir)
	if err != nil {
		t.Fatalf("relock after unlock: %v", err)
	}
	again.Unlock()

	model := filepath.Join(t.TempDir(), "q.json")
	a, err := safefile.LockFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := safefile.LockFile(model); !errors.Is(err, safefile.ErrLocked) {
		t.Fatalf("second lock of a file: %v", err)
	}
	a.Unlock()
	if held, _, err := safefile.DirHolder(t.TempDir()); err != nil || held {
		t.Fatalf("a directory never locked: %v %v", held, err)
	}
}
