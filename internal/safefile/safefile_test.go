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
	if err := r.CheckTree("run", 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("CheckTree of a run holding links: %v", err)
	}
	clean := t.TempDir()
	write(t, filepath.Join(clean, "r", "a"), "a")
	write(t, filepath.Join(clean, "r", "shards", "b"), "b")
	if err := NewRoot(clean).CheckTree("r", 100); err != nil {
		t.Errorf("CheckTree of a clean run: %v", err)
	}
	if err := NewRoot(clean).CheckTree("r", 2); err == nil {
		t.Error("CheckTree past its bound passed")
	}
}
