package safefile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteAtomic creates path by writing a temporary file in the same directory, syncing it
// and renaming it over path. If write fails, nothing is left at path.
func WriteAtomic(path string, write func(w io.Writer) error) error {
	a, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	if err := write(a.tmp); err != nil {
		a.Abort()
		return err
	}
	return a.Commit()
}

// AtomicFile is a file written under a temporary name beside its target and renamed onto it
// only when complete, so a crash or an error never leaves a half-written file under the name
// (WriteAtomic and the Parquet writer of package datasets share it).
type AtomicFile struct {
	path string
	tmp  *os.File
}

// CreateAtomic starts the file path: write to File, then Commit or Abort.
func CreateAtomic(path string) (*AtomicFile, error) {
	if err := checkTarget(path); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("safefile: %w", err)
	}
	return &AtomicFile{path, tmp}, nil
}

// File is where the content goes (the temporary file).
func (a *AtomicFile) File() *os.File { return a.tmp }

// Commit makes the file readable by all (CreateTemp makes 0600; outputs are for sharing),
// syncs it and renames it onto its target; on any error the temporary file is removed.
func (a *AtomicFile) Commit() error {
	err := a.tmp.Chmod(0o644)
	if err == nil {
		err = a.tmp.Sync()
	}
	if cerr := a.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(a.tmp.Name(), a.path)
	}
	if err != nil {
		os.Remove(a.tmp.Name())
		return fmt.Errorf("safefile: %w", err)
	}
	return nil
}

// Abort removes the temporary file.
func (a *AtomicFile) Abort() {
	a.tmp.Close()
	os.Remove(a.tmp.Name())
}

// checkTarget refuses a path a file cannot be renamed onto (a directory), before anything
// is written, with words rather than rename's "file exists".
func checkTarget(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("safefile: %s is a directory; want a file name", path)
	}
	return nil
}
