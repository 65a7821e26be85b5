//go:build !unix && !windows

package safefile

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// tryLock fails: this system has no file lock kingoal knows how to take.
func tryLock(*os.File) (bool, error) {
	return false, fmt.Errorf("no file locks on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}
