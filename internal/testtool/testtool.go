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
		tellTerminal(t, "SKIP", what+" is missing (.ci/run installs it)")
		t.Skipf("skipping: %s is missing (.ci/run installs it)", what)
	}
}

// Partial reports a tool whose absence skips only some of a test's checks (they skip on their
// own): a failure under KINGOAL_REQUIRE_TOOLS, a line in the test's log otherwise.
func Partial(t *testing.T, what string, ok bool) {
	t.Helper()
	if !ok {
		failIfRequired(t, what)
		tellTerminal(t, "PARTIAL", what+" is missing: the checks that use it skip (.ci/run installs it)")
		t.Logf("%s is missing: the checks that use it skip (.ci/run installs it)", what)
	}
}

func failIfRequired(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("KINGOAL_REQUIRE_TOOLS") != "" {
		t.Fatalf("%s is required (KINGOAL_REQUIRE_TOOLS is set) but missing", what)
	}
}

// tellTerminal writes a line for the person running the tests: go test ./... shows a passing
// package's output only with -v, so its "ok" alone would hide that a check did not run. The
// line goes to the controlling terminal, if there is one (CI has none, and requires the
// tools anyway).
func tellTerminal(t *testing.T, verdict, why string) {
	if testing.Verbose() {
		return // -v prints the skip itself
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer tty.Close()
	fmt.Fprintf(tty, "--- %s %s: %s\n", verdict, t.Name(), why)
}
