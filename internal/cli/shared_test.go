package cli

import (
	"testing"

	"github.com/kingoal/kingoal/agents"
)

func TestExploitabilityIsPrintedAsWhatIsTrue(t *testing.T) {
	for e, want := range map[agents.Exploitability]string{
		{Value: 0.2512, Exact: true}:             "0.2512",
		{Value: -1e-12, Exact: true}:             "0.0000",
		{Value: 0.175, CI: 0.04, Matches: 200}:   "≥ 0.175 ± 0.040",
		{Value: -0.018, CI: 0.065, Matches: 200}: "≥ 0 (estimate -0.018 ± 0.065)",
	} {
		if got := formatExploitability(e); got != want {
			t.Errorf("%+v: %q, want %q", e, got, want)
		}
	}
}
