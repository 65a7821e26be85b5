// A run's files read through its directory opened once.

package arena

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/internal/safefile"
)

// A RunFiles reads the files of a run from its directory opened once (an os.Root): never by the
// directory's path again, never through a symbolic link leading out of it, never waiting on
// a FIFO. A server showing directories others can write reads that run and nothing else,
// even if a name is swapped for a link while it reads. The functions taking a directory's
// path (ReadInfo, ReadLeaderboard, …) open a RunFiles for the one call.
type RunFiles struct {
	dir *os.Root
}

// FilesIn is the run in dir, a directory opened already; the RunFiles does not close it.
func FilesIn(dir *os.Root) RunFiles { return RunFiles{dir} }

// withRun opens the directory at path for one read of it.
func withRun[T any](path string, read func(RunFiles) (T, error)) (T, error) {
	dir, err := os.OpenRoot(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("arena: %w", err)
	}
	defer dir.Close()
	return read(RunFiles{dir})
}

// Path is the run's directory as it was named when opened (for messages).
func (r RunFiles) Path() string { return r.dir.Name() }

// open opens the run's file name (a path inside the directory, such as "shards/x").
func (r RunFiles) open(name string) (*os.File, error) {
	f, err := safefile.OpenIn(r.dir, filepath.FromSlash(name), 0)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return f, nil
}

// Open opens the run's regular file name, of at most limit bytes (≤ 0: no bound).
func (r RunFiles) Open(name string, limit int64) (*os.File, error) {
	return safefile.OpenIn(r.dir, filepath.FromSlash(name), limit)
}

// readFile reads the run's JSON file name, bounded.
func (r RunFiles) readFile(name string) ([]byte, error) {
	return safefile.ReadFileIn(r.dir, name, maxDescriptionBytes)
}

// Held reports whether a process holds the run's directory (an arena playing it), and its
// pid.
func (r RunFiles) Held() (held bool, pid int, err error) { return safefile.DirHolderIn(r.dir) }

// ScanMatches streams the finished run's matches.parquet to fn (see datasets.ScanParquet).
func (r RunFiles) ScanMatches(fn func(batch []datasets.MatchRow) error) error {
	f, err := r.open("matches.parquet")
	if err != nil {
		return err
	}
	defer f.Close()
	return datasets.ScanParquetFile(f, datasets.MatchesSchema, fn)
}

// open opens the run's file name (relative to the directory): through the RunFiles a reader
// opened, or by the path of the directory the arena writes.
func (d RunDir) open(name string) (*os.File, error) {
	if d.files.dir != nil {
		return d.files.open(name)
	}
	return safefile.Open(filepath.Join(d.Path, name), 0)
}

// readDescription reads the run's JSON file name (relative to the directory), bounded.
func (d RunDir) readDescription(name string) ([]byte, error) {
	f, err := d.open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return safefile.ReadAll(f, maxDescriptionBytes)
}
