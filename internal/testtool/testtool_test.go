package testtool

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestChildSkips is the check a run of go test below skips (it runs only there).
func TestChildSkips(t *testing.T) {
	if os.Getenv("KINGOAL_TESTTOOL_CHILD") == "" {
		t.Skip("run by TestSkipsAreSaidWithoutV")
	}
	Require(t, "a tool this test never finds", false)
}

// TestSkipsAreSaidWithoutV: go test without -v, its output a pipe (no terminal, as when a
// script or an editor runs it), says in one line that a check skipped and why — it printed
// only "ok" before (issue 56).
func TestSkipsAreSaidWithoutV(t *testing.T) {
	if os.Getenv("KINGOAL_TESTTOOL_CHILD") != "" {
		return
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestChildSkips$", ".")
	cmd.Env = append(os.Environ(), "KINGOAL_TESTTOOL_CHILD=1", "KINGOAL_REQUIRE_TOOLS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := "--- SKIP TestChildSkips: a tool this test never finds is missing (.ci/run installs it)"
	if len(lines) != 2 || lines[0] != want || !strings.HasPrefix(lines[1], "ok") {
		t.Errorf("go test said:\n%s\nwant the line %q, then ok", out, want)
	}
}
