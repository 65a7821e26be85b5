//go:build unix

package safefile

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's exclusive lock without waiting: held reports that another open file
// description holds it (f is left unlocked then).
func tryLock(f *os.File) (held bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}
