package command

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestMessageSaysInterrupted: every interruption's line says it was interrupted and in which
// command (issue 64: eval, arena and watch said only `agents: "nash"`, solve game only
// "interrupted"); a message that says so already is kept as it is. Every line starts with
// the command, a package prefix the user never typed dropped.
func TestMessageSaysInterrupted(t *testing.T) {
	for _, c := range []struct {
		err        error
		what, want string
	}{
		{context.Canceled, "solve game", "solve game: interrupted"},
		{fmt.Errorf("solve game: %w", context.Canceled), "solve game", "solve game: interrupted"},
		{fmt.Errorf("kingoal: agents: %q: %w", "nash", context.Canceled), "eval", `eval: interrupted in agents: "nash"`},
		{fmt.Errorf("simulate: interrupted; printed the partial result: %w", context.Canceled), "simulate", "simulate: interrupted; printed the partial result"},
		{errors.New("kingoal: solve odds: bad line-up"), "solve odds", "solve odds: bad line-up"},
		{errors.New("arena: open /x: no such file or directory"), "leaderboard", "leaderboard: open /x: no such file or directory"},
		{errors.New("--in x: solver: stat x: no such file"), "solve game", "solve game: --in x: solver: stat x: no such file"},
		{errors.New(`unknown command "x" for "kingoal"`), "kingoal", `unknown command "x" for "kingoal"`},
	} {
		if got := Message(c.err, "kingoal: ", c.what); got != c.want {
			t.Errorf("Message(%q, %q) = %q, want %q", c.err, c.what, got, c.want)
		}
	}
}
