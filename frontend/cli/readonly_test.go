//go:build unix

package cli

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestResumeOfReadOnlyRun resumes finished runs from a process that may not write into
// them (a real process as another user when the tests run as root, who may write anywhere):
// the leaderboard of the finished run is printed with exit 0 and nothing written; an
// unfinished run, or one whose exploitability column is not cached, is refused in one line.
func TestResumeOfReadOnlyRun(t *testing.T) {
	bin := kingoalBinary(t)
	base, err := os.MkdirTemp("", "kingoal-readonly")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = filepath.WalkDir(base, func(p string, _ fs.DirEntry, _ error) error { return os.Chmod(p, 0o755) })
		os.RemoveAll(base)
	})
	args := []string{"arena", "--agents", "fixed:2-2-2-2-2;random", "--matches", "20", "--throws-per-half", "4", "--moves", "0", "--seed", "3"}
	finished, uncached := filepath.Join(base, "finished"), filepath.Join(base, "uncached")
	code, want, stderr := run(t, append(args, "--out", finished)...)
	if code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr = run(t, append(args, "--out", uncached, "--no-exploitability")...); code != 0 {
		t.Fatal(stderr)
	}
	readOnly := func(dir string) map[string]string { // every file's bytes, then no write permission
		files := map[string]string{}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				files[p] = string(b)
			}
			return nil
		})
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, _ error) error {
			if d != nil && d.IsDir() {
				return os.Chmod(p, 0o555)
			}
			return os.Chmod(p, 0o444)
		})
		return files
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	resume := func(dir string, more ...string) (int, string, string) {
		cmd := exec.Command(bin, append([]string{"arena", "--out", dir, "--resume"}, more...)...)
		if os.Geteuid() == 0 {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		}
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String(), errOut.String()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, out.String(), errOut.String()
	}
	before := readOnly(finished)
	code, got, stderr := resume(finished)
	if code != 0 || got != want || !strings.Contains(stderr, "read-only here") {
		t.Fatalf("resume of a finished read-only run: exit %d, same leaderboard %v\n%s", code, got == want, stderr)
	}
	if after := readOnly(finished); len(after) != len(before) {
		t.Fatalf("the resume changed the files: %d before, %d after", len(before), len(after))
	} else {
		for p, b := range before {
			if after[p] != b {
				t.Fatalf("the resume changed %s", p)
			}
		}
	}
	readOnly(uncached)
	if code, _, stderr = resume(uncached, "--no-exploitability=false"); code == 0 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 ||
		!strings.Contains(stderr, "not cached") {
		t.Fatalf("a read-only run without its exploitability column: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = resume(uncached); code != 0 {
		t.Fatalf("a read-only run that skips its exploitability column: exit %d\n%s", code, stderr)
	}
}
