package cli

import (
	"strings"
	"testing"

	"github.com/kingoal/kingoal/frontend/cli/command"
)

// A value outside an enum flag's choices, or of the wrong type for a rule knob, is refused
// when the flags are parsed: exit 2, one line naming the flag, the value and what it wants.
func TestBadFlagValuesSayWhatTheyWant(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "policy", "--objective", "wins"}, `--objective "wins": want win, points, win-draw, advance, win-loss or goal-diff`},
		{[]string{"solve", "game", "--payoff", "points"}, `--payoff "points": want win-loss, goal-diff or advance`},
		{[]string{"arena", "--sampler", "dice", "--out", t.TempDir()}, `--sampler "dice": want goals or throws`},
		{[]string{"play", "--side", "left"}, `--side "left": want home or away`},
		{[]string{"rules", "--moves", "two"}, `--moves "two": want a whole number`},
		{[]string{"rules", "--ties-count=maybe"}, `--ties-count "maybe": want true or false`},
	} {
		code, _, stderr := run(t, c.args...)
		if code != command.ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
