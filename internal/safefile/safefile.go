package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

var (
	// ErrNotRegular is wrapped when a name is a FIFO, a device, a socket or a directory.
	ErrNotRegular = errors.New("safefile: not a regular file")
	// ErrTooLarge is wrapped when a file holds more than the reader's bound.
	ErrTooLarge = errors.New("safefile: file too large")
	// ErrOutside is wrapped when a Root refuses a name: outside it, through a symbolic link,
	// or not there. It says no more, so a refusal tells nothing of what exists outside.
	ErrOutside = errors.New("safefile: no such file here")
)

// openFlags open a FIFO without waiting for a writer (it is then refused by its mode).
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// Open opens path for reading if it is a regular file of at most limit bytes (limit ≤ 0:
// no bound). A symbolic link is followed: the user named it.
func Open(path string, limit int64) (*os.File, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if err := check(path, st, limit); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, err
	}
	return checked(f, path, limit) // the name may have changed since Stat
}

// ReadFile reads the whole regular file at path, refusing one of more than limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, limit)
}

// readAll reads f to its end, refusing more than limit bytes (a file that grew since Stat).
func readAll(f *os.File, path string, limit int64) ([]byte, error) {
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if limit > 0 && int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: %s holds more than %s", ErrTooLarge, path, FormatBytes(limit))
	}
	return b, nil
}

func checked(f *os.File, path string, limit int64) (*os.File, error) {
	st, err := f.Stat()
	if err == nil {
		err = check(path, st, limit)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func check(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		what := "a directory"
		switch m := st.Mode(); {
		case m&fs.ModeNamedPipe != 0:
			what = "a FIFO"
		case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
			what = "a device"
		case m&fs.ModeSocket != 0:
			what = "a socket"
		case m&fs.ModeSymlink != 0:
			what = "a symbolic link"
		case !m.IsDir():
			what = "not a file"
		}
		return fmt.Errorf("%w: %s is %s", ErrNotRegular, path, what)
	}
	if limit > 0 && st.Size() > limit {
		return fmt.Errorf("%w: %s holds %s, more than the %s this reads", ErrTooLarge, path, FormatBytes(st.Size()), FormatBytes(limit))
	}
	return nil
}

// FormatBytes writes n in the largest binary unit that keeps it ≥ 1 ("7.3 MiB").
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	x, u := float64(n)/unit, 0
	for x >= unit && u < 4 {
		x /= unit
		u++
	}
	return fmt.Sprintf("%.1f %ciB", x, "KMGTP"[u])
}

// Root is a directory whose files are opened by names inside it, none of whose parts may be
// a symbolic link.
type Root struct {
	dir string
}

// NewRoot is the directory dir as a Root (it is opened afresh for every name: a root
// replaced while a server runs is the new one).
func NewRoot(dir string) Root { return Root{dir} }

// Dir is the root's directory as given.
func (r Root) Dir() string { return r.dir }

// Lstat describes name inside the root without following a link, refusing a name that
// leaves the root or passes through a symbolic link on the way. "." is the root itself.
func (r Root) Lstat(name string) (fs.FileInfo, error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return lstatIn(root, name)
}

func lstatIn(root *os.Root, name string) (fs.FileInfo, error) {
	name = filepath.ToSlash(name)
	if name != "." && !fs.ValidPath(name) {
		return nil, fmt.Errorf("%w: %q", ErrOutside, name)
	}
	var st fs.FileInfo
	var err error
	parts := strings.Split(name, "/")
	for i := range parts {
		st, err = root.Lstat(strings.Join(parts[:i+1], "/"))
		if err != nil {
			return nil, fmt.Errorf("%w: %q", ErrOutside, name)
		}
		if st.Mode()&fs.ModeSymlink != 0 || (i < len(parts)-1 && !st.IsDir()) {
			return nil, fmt.Errorf("%w: %q", ErrOutside, name)
		}
	}
	return st, nil
}

// Open opens the regular file name inside the root, of at most limit bytes.
func (r Root) Open(name string, limit int64) (*os.File, error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	st, err := lstatIn(root, name)
	if err != nil {
		return nil, err
	}
	if err := check(name, st, limit); err != nil {
		return nil, err
	}
	f, err := root.OpenFile(filepath.FromSlash(name), openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %q", ErrOutside, name)
	}
	if now, err := f.Stat(); err != nil || !os.SameFile(st, now) {
		f.Close() // swapped for a link since Lstat
		return nil, fmt.Errorf("%w: %q", ErrOutside, name)
	}
	return checked(f, name, limit)
}

// ReadFile reads the regular file name inside the root, refusing more than limit bytes.
func (r Root) ReadFile(name string, limit int64) ([]byte, error) {
	f, err := r.Open(name, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, name, limit)
}

// OpenIn opens the regular file name in dir, of at most limit bytes (≤ 0: no bound), by
// os.Root's rules: found from the directory opened once, never through a link leading out of
// it. A FIFO there is refused without waiting for a writer.
func OpenIn(dir *os.Root, name string, limit int64) (*os.File, error) {
	f, err := OpenFileIn(dir, name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	return checked(f, f.Name(), limit)
}

// ReadFileIn reads the regular file name in dir (see OpenIn), refusing more than limit bytes.
func ReadFileIn(dir *os.Root, name string, limit int64) ([]byte, error) {
	f, err := OpenIn(dir, name, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, f.Name(), limit)
}

// OpenRootIn opens the directory name inside the root as a root of its own: reached through
// no symbolic link, and the directory that was checked (not one swapped in since). What is
// then read from it cannot be outside it, whatever is renamed or linked meanwhile.
func (r Root) OpenRootIn(name string) (*os.Root, error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	st, err := lstatIn(root, name)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%w: %q", ErrOutside, name)
	}
	sub, err := root.OpenRoot(filepath.FromSlash(name))
	if err != nil {
		return nil, fmt.Errorf("%w: %q", ErrOutside, name)
	}
	if now, err := sub.Stat("."); err != nil || !os.SameFile(st, now) {
		sub.Close() // swapped since Lstat
		return nil, fmt.Errorf("%w: %q", ErrOutside, name)
	}
	return sub, nil
}

// OpenFile is os.OpenFile for a regular file only (such as a lock file): it does not wait
// for a writer when the name is a FIFO, and refuses anything but a regular file.
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, err
	}
	return checked(f, path, 0)
}

// OpenFileIn is OpenFile of name in dir, by os.Root's rules.
func OpenFileIn(dir *os.Root, name string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := dir.OpenFile(name, flag|syscall.O_NONBLOCK, perm)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		pe.Op, pe.Path = "open", filepath.Join(dir.Name(), pe.Path) // os.Root names the file in the root alone
	}
	if err != nil {
		return nil, err
	}
	return checked(f, filepath.Join(dir.Name(), name), 0)
}

// ReadAll reads f to its end, refusing more than limit bytes.
func ReadAll(f *os.File, limit int64) ([]byte, error) { return readAll(f, f.Name(), limit) }
