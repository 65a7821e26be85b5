// File safety: outputs checked and claimed before any work, work that Ctrl-C abandons.

package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kingoal/kingoal/internal/safefile"
)

// CheckOutput reports, before any work is done, an output file whose directory is missing.
func CheckOutput(flag, path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return Usagef("%s %s: directory %s does not exist", flag, path, dir)
	}
	return nil
}

// ClaimOutputs checks each output file (flag → path; "" for none) as CheckOutput does, locks
// it for this process (another kingoal writing it is refused: exit 2, naming it), and refuses
// one that exists unless force is set: a command never replaces by surprise a result it did
// not make. release gives the locks up; call it when the last file is written.
func ClaimOutputs(outputs map[string]string, force bool) (release func(), err error) {
	var locks []*safefile.Lock
	release = func() {
		for _, l := range locks {
			l.Unlock()
		}
	}
	flags := make([]string, 0, len(outputs))
	for flag := range outputs {
		flags = append(flags, flag)
	}
	slices.Sort(flags) // the same order every time: two commands never wait on each other's second file
	for _, flag := range flags {
		path := outputs[flag]
		if path == "" {
			continue
		}
		if err := CheckOutput(flag, path); err != nil {
			release()
			return nil, err
		}
		l, err := safefile.LockFile(path)
		if err != nil {
			release()
			return nil, LockError(err)
		}
		locks = append(locks, l)
		if err := l.RemoveStaleTempsOf(path); err != nil { // a killed run's, under this lock
			release()
			return nil, err
		}
		if err := RefuseOverwrite(flag, path, force, "replace it with --force"); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}

// Interruptible runs f, a computation that cannot be stopped from inside (a match's exact
// odds, an LP), and returns its error, or ctx's error as soon as ctx is done: f is then
// abandoned, its result unused, and the command exits.
func Interruptible(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RefuseOverwrite reports a file the command would replace that it did not create in this
// invocation, unless force is set: one line that says what is there and the ways on.
func RefuseOverwrite(flag, path string, force bool, ways string) error {
	if force || path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return Usagef("%s %s is a directory; want a file name", flag, path)
	}
	if _, err := os.Lstat(path); err == nil {
		return Usagef("%s %s already exists; %s", flag, path, ways)
	}
	return nil
}

// LockError is a lock held by another process in the user's words (exit 2); other errors
// pass as they are.
func LockError(err error) error {
	var held *safefile.LockedError
	if !errors.As(err, &held) {
		return err
	}
	who := "another process"
	if held.PID > 0 {
		who = fmt.Sprintf("another process (pid %d)", held.PID)
	}
	return Usagef("%s is in use by %s: wait for it to finish, or stop it", held.Path, who)
}

// RunDirChoice is where a command that plays into a run directory writes when --out is left
// at its default def: a rerun must not need a flag, and must not touch an earlier run.
// A fresh run takes def, or def-2, def-3, … past the highest-numbered one that exists (the
// numbers stay in the order the runs were made); latest (--resume, --force) takes the
// highest that exists. Numbered is false where dir is def itself.
func RunDirChoice(def string, latest bool) (dir string, numbered bool, err error) {
	highest := 0 // 1: def exists; n ≥ 2: def-n exists
	if _, err := os.Lstat(def); err == nil {
		highest = 1
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", false, err
	}
	matches, err := filepath.Glob(globEscape(def) + "-[0-9]*")
	if err != nil {
		return "", false, err
	}
	for _, m := range matches {
		suffix := strings.TrimPrefix(m, def+"-")
		if n, err := strconv.Atoi(suffix); err == nil && n >= 2 && strconv.Itoa(n) == suffix { // kingoal-arena-2, not -02 or -2x
			highest = max(highest, n)
		}
	}
	n := highest + 1
	if latest {
		n = max(highest, 1)
	}
	if n <= 1 {
		return def, false, nil
	}
	return fmt.Sprintf("%s-%d", def, n), true, nil
}

// globEscape quotes the pattern characters of a literal path for filepath.Glob.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteRune('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
