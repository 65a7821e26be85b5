package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/frontend/cli"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cli.ExecuteRoot(newRoot, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// kingoal-beam and kingoal, given the same flags, write the same matches.parquet and print
// the same leaderboard. kingoal is built from the core module (its own dependency versions),
// so this also holds across the two binaries.
func TestSameFlagsSameRunAsKingoal(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	bin := filepath.Join(t.TempDir(), "kingoal")
	build := exec.Command("go", "build", "-o", bin, "./cmd/kingoal")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building kingoal: %v\n%s", err, out)
	}
	for _, flags := range [][]string{
		{"arena", "--agents", "random;heuristic;fixed:1-3-3-2-1", "--matches", "40", "--throws-per-half", "6", "--seed", "4", "--log-throws"},
		{"arena", "--format", "knockout", "--draw-bracket", "--agents", "random;heuristic;fixed:1-3-3-2-1;fixed:2-2-2-2-2;optimal", "--matches", "12", "--throws-per-half", "5"},
	} {
		local, beamDir := filepath.Join(t.TempDir(), "run"), filepath.Join(t.TempDir(), "run")
		cmd := exec.Command(bin, append(flags, "--out", local)...)
		var want bytes.Buffer
		cmd.Stdout = &want
		if err := cmd.Run(); err != nil {
			t.Fatalf("kingoal %v: %v", flags, err)
		}
		code, got, stderr := run(t, append(flags, "--out", beamDir)...)
		if code != 0 {
			t.Fatalf("kingoal-beam %v: exit %d: %s", flags, code, stderr)
		}
		if got != want.String() {
			t.Errorf("%v: the leaderboards differ:\n%s\n---\n%s", flags, got, want.String())
		}
		a, _ := os.ReadFile(filepath.Join(local, "matches.parquet"))
		b, _ := os.ReadFile(filepath.Join(beamDir, "matches.parquet"))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%v: matches.parquet differs", flags)
		}
	}
}

func TestGenerateAndBadInput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	code, out, stderr := run(t, "generate", "--agents", "heuristic,random", "--episodes", "30", "--throws-per-half", "5", "--out", dir)
	if code != 0 || !strings.Contains(out, "30 matches") {
		t.Fatalf("generate: exit %d %q %q", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "decisions.parquet")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{
		{"arena", "--runner", "direct", "--out", dir},
		{"arena", "--agents", "random", "--out", dir},
		{"arena", "--format", "swiss", "--out", dir},
		{"generate", "--agents", "nobody,random", "--out", dir},
	} {
		code, out, stderr := run(t, bad...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.HasPrefix(stderr, "kingoal-beam: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line", bad, code, out, stderr)
		}
	}
}
