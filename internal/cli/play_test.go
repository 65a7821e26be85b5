package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/internal/cli/command"
)

func runWithInput(t *testing.T, input string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Execute(args, strings.NewReader(input), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPlayScripted(t *testing.T) {
	// Bad line-up, bad index, a good kick-off; at the first break an over-budget move, then a
	// legal one; then input ends (keep to the end).
	input := "9-9-9-9-9\n500\n1-2-3-3-1\n5-2-1-1-1\n1-2-3-2-2\n"
	args := []string{"play", "--vs", "fixed:2-2-2-2-2", "--throws-per-half", "8", "--seed", "2"}
	code, out, stderr := runWithInput(t, input, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Hint: the equilibrium mix is", "sector 1 holds 9 counters", "index 500: want 0..120",
		"kick-off: home 1-2-3-3-1", "costs 4 moves, you have 3", "Hint: the solver", "Final score",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if !strings.Contains(out, "1-2-3-3-1 → 1-2-3-2-2") && !strings.Contains(out, "input ended") {
		t.Errorf("the legal move was not played:\n%s", out)
	}
	_, again, _ := runWithInput(t, input, args...)
	if again != out {
		t.Error("the same seed and input gave another transcript")
	}
	// Away, no hints, no input at all: the equilibrium line-up and keeping.
	code, out, _ = runWithInput(t, "", "play", "--side", "away", "--hints=false", "--throws-per-half", "4")
	if code != 0 || !strings.Contains(out, "input ended") || strings.Contains(out, "Hint") || !strings.Contains(out, "you are away") {
		t.Errorf("exit %d\n%s", code, out)
	}
	if code, _, stderr := runWithInput(t, "", "play", "--side", "middle"); code != command.ExitUsage || !strings.Contains(stderr, "--side") {
		t.Errorf("bad side: exit %d %q", code, stderr)
	}
}
