// Package testtool holds what tests in several packages share: the rule for checks that
// need a tool outside Go (Node's DuckDB, Jupyter, Python).
package testtool

import (
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
		t.Skipf("skipping: %s is missing (.ci/run installs it)", what)
	}
}

// Partial reports a tool whose absence skips only some of a test's checks (they skip on their
// own): a failure under KINGOAL_REQUIRE_TOOLS, a line in the test's log otherwise.
func Partial(t *testing.T, what string, ok bool) {
	t.Helper()
	if !ok {
		failIfRequired(t, what)
		t.Logf("%s is missing: the checks that use it skip (.ci/run installs it)", what)
	}
}

func failIfRequired(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("KINGOAL_REQUIRE_TOOLS") != "" {
		t.Fatalf("%s is required (KINGOAL_REQUIRE_TOOLS is set) but missing", what)
	}
}
