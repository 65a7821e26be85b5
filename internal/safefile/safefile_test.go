//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Each refusal comes at once: a FIFO with no writer would block an ordinary open forever.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "big"), "0123456789")
	for _, c := range []struct {
		path  string
		limit int64
		want  error
	}{
		{fifo, 0, ErrNotRegular},
		{"/dev/zero", 0, ErrNotRegular},
		{dir, 0, ErrNotRegular},
		{filepath.Join(dir, "big"), 9, ErrTooLarge},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(c.path, c.limit); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, c.want) {
				t.Errorf("ReadFile(%s, %d): %v, want %v", c.path, c.limit, err, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) blocked", c.path)
		}
	}
	if b, err := ReadFile(filepath.Join(dir, "big"), 10); err != nil || string(b) != "0123456789" {
		t.Errorf("a file of exactly the bound: %q, %v", b, err)
	}
}

func TestRootRefusesLinksAndEscapes(t *testing.T) {
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret"), "secret")
	dir := t.TempDir()
	write(t, filepath.Join(dir, "run", "ok.json"), "{}")
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "run", "out.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ok.json", filepath.Join(dir, "run", "in.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "run", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := NewRoot(dir)
	if b, err := r.ReadFile("run/ok.json", 100); err != nil || string(b) != "{}" {
		t.Fatalf("a file inside: %q, %v", b, err)
	}
	for _, name := range []string{"run/out.json", "run/in.json", "linked/secret", "../" + filepath.Base(outside) + "/secret", "/etc/passwd", "run/missing", ""} {
		if _, err := r.ReadFile(name, 100); !errors.Is(err, ErrOutside) {
			t.Errorf("%q: %v, want ErrOutside", name, err)
		}
	}
	if _, err := r.ReadFile("run/fifo", 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a FIFO inside: %v", err)
	}
	if _, err := r.OpenRootIn("linked"); !errors.Is(err, ErrOutside) {
		t.Errorf("OpenRootIn of a link: %v, want ErrOutside", err)
	}
	run, err := r.OpenRootIn("run")
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if b, err := ReadFileIn(run, "in.json", 100); err != nil || string(b) != "{}" {
		t.Errorf("a link inside the opened run, to a file of it: %q, %v", b, err)
	}
	if _, err := ReadFileIn(run, "out.json", 100); err == nil {
		t.Error("a link out of the opened run was followed")
	}
	if _, err := ReadFileIn(run, "../run/ok.json", 100); err == nil {
		t.Error("a name out of the opened run was followed")
	}
	if _, err := OpenIn(run, "fifo", 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a FIFO in the opened run: %v, want ErrNotRegular", err)
	}
	if _, err := OpenFile(filepath.Join(dir, "run", "fifo"), os.O_RDONLY, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OpenFile of a FIFO: %v, want ErrNotRegular", err)
	}
}
