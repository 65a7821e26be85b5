package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrLocked is wrapped by the error Lock returns when another process holds the lock.
var ErrLocked = errors.New("in use by another process")

// LockedError says who holds an output: the process id the holder wrote into the lock file
// (0 if it could not be read).
type LockedError struct {
	Path string
	PID  int
}

func (e *LockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = fmt.Sprintf("another process (pid %d)", e.PID)
	}
	return fmt.Sprintf("safefile: %s is in use by %s: wait for it to finish or stop it", e.Path, holder)
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// A Lock is an exclusive hold on an output — a run directory, a model file, a solve's
// output — for as long as one process writes it, so that two processes never mix their
// data in it. It is an operating-system lock on a small file (flock on Unix): it dies with
// its process, so a killed run never blocks the --resume that follows it. Unlock removes the
// file (a killed process leaves it, empty of meaning: the next Lock takes it).
type Lock struct {
	f    *os.File
	path string
}

// LockDir takes the lock of directory dir (the file .kingoal.lock inside it), creating dir
// if it is missing. Another process's hold is an error wrapping ErrLocked (a *LockedError).
func LockDir(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("safefile: %w", err)
	}
	return lockAt(lockPathOfDir(dir), dir)
}

// LockFile takes the lock of the output file path (the file .NAME.lock beside it).
func LockFile(path string) (*Lock, error) { return lockAt(lockPathOfFile(path), path) }

// lockName is a directory's lock file.
const lockName = ".kingoal.lock"

func lockPathOfDir(dir string) string { return filepath.Join(dir, lockName) }

func lockPathOfFile(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

func lockAt(lockPath, what string) (*Lock, error) {
	for {
		l, retry, err := tryLockAt(lockPath, what)
		if !retry {
			return l, err
		}
	}
}

// tryLockAt takes the lock file at lockPath once; retry reports that the file was unlinked
// by its last holder between our open and our lock (we hold a file nobody else will open).
func tryLockAt(lockPath, what string) (l *Lock, retry bool, err error) {
	f, err := OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o644) // a FIFO refused, not waited on
	if err != nil {
		return nil, false, fmt.Errorf("safefile: locking %s: %w", what, err)
	}
	held, err := tryLock(f)
	// A holder that is only asking (DirHolder, FileHolder) lets go within microseconds.
	for wait := time.Millisecond; held && err == nil && wait <= 64*time.Millisecond; wait *= 2 {
		time.Sleep(wait)
		held, err = tryLock(f)
	}
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("safefile: locking %s: %w", what, err)
	}
	if held {
		pid := holderPID(f)
		f.Close()
		return nil, false, &LockedError{Path: what, PID: pid}
	}
	if ours, err := f.Stat(); err != nil {
		f.Close()
		return nil, false, fmt.Errorf("safefile: locking %s: %w", what, err)
	} else if now, err := os.Stat(lockPath); err != nil || !os.SameFile(ours, now) {
		f.Close()
		return nil, true, nil
	}
	// The holder's pid, for the message another process prints.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f, lockPath}, false, nil
}

// RemoveStaleTemps removes from dir the temporary files of atomic writes (".NAME.tmp-*")
// that a killed process left behind. Call it only holding dir's lock: then no write of
// another process is in flight there.
func (l *Lock) RemoveStaleTemps(dir string) error {
	if l == nil || l.f == nil {
		return errors.New("safefile: RemoveStaleTemps without the lock")
	}
	return removeTemps(dir, func(name string) bool { return strings.HasPrefix(name, ".") })
}

// RemoveStaleTempsOf removes the temporary files of atomic writes of the output files paths
// (".NAME.tmp-*" beside each) that a killed process left behind. Call it holding the lock of
// the first (LockFile): the command that holds it writes all of them.
func (l *Lock) RemoveStaleTempsOf(paths ...string) error {
	if l == nil || l.f == nil {
		return errors.New("safefile: RemoveStaleTempsOf without the lock")
	}
	for _, path := range paths {
		prefix := "." + filepath.Base(path) + ".tmp-"
		if err := removeTemps(filepath.Dir(path), func(name string) bool { return strings.HasPrefix(name, prefix) }); err != nil {
			return err
		}
	}
	return nil
}

// removeTemps removes the files of dir named ".*.tmp-*" that stale picks.
func removeTemps(dir string, stale func(name string) bool) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil // nothing written there yet
	}
	if err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, ".") || !strings.Contains(name, ".tmp-") || !stale(name) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("safefile: removing a temporary file a killed run left: %w", err)
		}
	}
	return nil
}

// Unlock releases the lock and removes its file (removed first, then released: whoever
// opened it meanwhile finds it unlinked and opens it anew); a nil Lock does nothing.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	rmErr := os.Remove(l.path)
	if errors.Is(rmErr, os.ErrNotExist) {
		rmErr = nil
	}
	err := errors.Join(rmErr, l.f.Close())
	l.f = nil
	if err != nil {
		return fmt.Errorf("safefile: unlocking: %w", err)
	}
	return nil
}

// DirHolder reports whether another process holds the lock of dir, and its pid. It writes
// nothing (a read-only directory can be asked).
func DirHolder(dir string) (held bool, pid int, err error) { return holder(lockPathOfDir(dir)) }

// FileHolder is DirHolder for the lock of an output file.
func FileHolder(path string) (held bool, pid int, err error) { return holder(lockPathOfFile(path)) }

// DirHolderIn is DirHolder of a directory opened already (os.Root's rules).
func DirHolderIn(dir *os.Root) (held bool, pid int, err error) {
	return holderOf(OpenFileIn(dir, lockName, os.O_RDONLY, 0))
}

func holder(lockPath string) (held bool, pid int, err error) {
	return holderOf(OpenFile(lockPath, os.O_RDONLY, 0)) // a FIFO refused, not waited on
}

func holderOf(f *os.File, err error) (held bool, pid int, _ error) {
	if errors.Is(err, os.ErrNotExist) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, fmt.Errorf("safefile: %w", err)
	}
	defer f.Close()
	if held, err = tryLock(f); err != nil || !held {
		return false, 0, err
	}
	return true, holderPID(f), nil
}

func holderPID(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil {
		return 0
	}
	return pid
}
