// Package testtool holds what tests in several packages share: the rule for checks that
// need a tool outside Go (Node's DuckDB, Jupyter, Python).
package testtool

import (
	"fmt"
	"os"
	"testing"
)

// Require skips t with a message when a tool is missing (ok false), or fails it when the
// environment variable KINGOAL_REQUIRE_TOOLS is set (as .ci/run sets it): a check CI must
// run never skips silently there.
func Require(t *testing.T, what string, ok bool) {
	t.Helper()
	if !ok {
		failIfRequired(t, what)
		tellRunner(t, "SKIP", what+" is missing (.ci/run installs it)")
		t.Skipf("skipping: %s is missing (.ci/run installs it)", what)
	}
}

// Partial reports a tool whose absence skips only some of a test's checks (they skip on their
// own): a failure under KINGOAL_REQUIRE_TOOLS, a line in the test's log otherwise.
func Partial(t *testing.T, what string, ok bool) {
	t.Helper()
	if !ok {
		failIfRequired(t, what)
		tellRunner(t, "PARTIAL", what+" is missing: the checks that use it skip (.ci/run installs it)")
		t.Logf("%s is missing: the checks that use it skip (.ci/run installs it)", what)
	}
}

func failIfRequired(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("KINGOAL_REQUIRE_TOOLS") != "" {
		t.Fatalf("%s is required (KINGOAL_REQUIRE_TOOLS is set) but missing", what)
	}
}

// tellRunner writes a line for the person running the tests: go test ./... shows a passing
// package's output only with -v, so its "ok" alone would hide that a check did not run. The
// line goes where go test's own output goes — the standard error of the process that started
// the test binary (the go command), where the system lets us open it (Linux) — or else to
// the controlling terminal, if there is one.
func tellRunner(t *testing.T, verdict, why string) {
	if testing.Verbose() {
		return // -v prints the skip itself
	}
	out, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", os.Getppid()), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		if out, err = os.OpenFile("/dev/tty", os.O_WRONLY, 0); err != nil {
			return
		}
	}
	defer out.Close()
	fmt.Fprintf(out, "--- %s %s: %s\n", verdict, t.Name(), why)
}

// Heavy reports whether the heavy checks run: the environment variable KINGOAL_HEAVY is set
// (.ci/run sets it for its go test ./...). Without it, go test ./... stays within about a
// minute a package on a 2-core machine (issue 64): a heavy check skips (SkipUnlessHeavy) or
// runs a smaller version of itself, which still checks the same thing.
func Heavy() bool { return os.Getenv("KINGOAL_HEAVY") != "" }

// SkipUnlessHeavy skips t unless Heavy, in one line saying what it is and how to run it.
func SkipUnlessHeavy(t *testing.T, what string) {
	t.Helper()
	if !Heavy() {
		tellRunner(t, "SKIP", what+" is heavy: KINGOAL_HEAVY=1 runs it (.ci/run does)")
		t.Skipf("skipping: %s is heavy: KINGOAL_HEAVY=1 runs it (.ci/run does)", what)
	}
}
