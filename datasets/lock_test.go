package datasets_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/datasets"
)

func TestLockIsExclusiveAndReleased(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run") // created by LockDir
	l, err := datasets.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if held, pid, err := datasets.DirHolder(dir); err != nil || !held || pid != os.Getpid() {
		t.Fatalf("DirHolder while held: %v %d %v", held, pid, err)
	}
	_, err = datasets.LockDir(dir) // a second open file description: refused like another process
	var le *datasets.LockedError
	if !errors.Is(err, datasets.ErrLocked) || !errors.As(err, &le) || le.PID != os.Getpid() {
		t.Fatalf("second lock: %v", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if held, _, err := datasets.DirHolder(dir); err != nil || held {
		t.Fatalf("DirHolder after unlock: %v %v", held, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Fatalf("Unlock left %v", left)
	}
	again, err := datasets.LockDir(dir)
	if err != nil {
		t.Fatalf("relock after unlock: %v", err)
	}
	again.Unlock()

	model := filepath.Join(t.TempDir(), "q.json")
	a, err := datasets.LockFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := datasets.LockFile(model); !errors.Is(err, datasets.ErrLocked) {
		t.Fatalf("second lock of a file: %v", err)
	}
	a.Unlock()
	if held, _, err := datasets.DirHolder(t.TempDir()); err != nil || held {
		t.Fatalf("a directory never locked: %v %v", held, err)
	}
}
