package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/frontend/cli/command"
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

// TestPlayKeep: at a break, "keep" (any case) keeps the line-up as Enter does; at the
// kick-off there is nothing to keep, and it is explained and asked again.
func TestPlayKeep(t *testing.T) {
	args := []string{"play", "--vs", "fixed:2-2-2-2-2", "--throws-per-half", "8", "--seed", "2", "--hints=false"}
	_, byEnter, _ := runWithInput(t, "1-2-3-3-1\n\n\n\n\n\n\n\n", args...)
	code, byWord, stderr := runWithInput(t, "keep\n1-2-3-3-1\nkeep\nKEEP\n keep \nkeep\nkeep\nkeep\nkeep\n", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(byWord, "keep") || strings.Contains(byWord, "input ended") != strings.Contains(byEnter, "input ended") {
		t.Fatalf("transcript:\n%s", byWord)
	}
	score := func(s string) string { return s[strings.LastIndex(s, "Final score"):] }
	if score(byWord) != score(byEnter) || strings.Count(byWord, "→") != strings.Count(byEnter, "→") {
		t.Errorf("keep played otherwise than Enter:\n%s\nEnter:\n%s", score(byWord), score(byEnter))
	}
	if n := strings.Count(byWord, "try again"); n != 1 {
		t.Errorf("%d answers asked again, want 1 (keep at the kick-off):\n%s", n, byWord)
	}
}
