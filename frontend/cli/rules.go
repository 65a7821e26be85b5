package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

const rulesSummary = `Kingoal rules (the project's docs/rules.md; every number below is a default)

Line-ups  Each side has a goalkeeper and 10 outfield counters in 5 sectors (1 defence ..
          5 attack), 1 to 5 per sector: 121 legal line-ups, declared at once, hidden.
Throws    With the ball in a sector, each side throws one die per counter it has there;
          the side defending its own goal adds a goalkeeper die. The highest single die
          wins; equal scores are thrown again. The winner moves the ball one sector on;
          winning in the opponent's last sector scores, and the ball returns to midfield.
Time      Two halves of 45 throws; the ball goes back to midfield at half time.
Changes   Basic mode: 3 moves per match (one counter from any sector to any other) at
          breaks only: half time, after a goal, before and within extra time.
          Dynamic mode: after each throw won, one counter may shift to an adjacent sector.
Results   League: 3 points a win, 1 a draw. Knockout: a draw goes to extra time (two
          halves of 15 throws), then penalties: 5 each, a kick scores if the taker's die
          beats the goalkeeper's (15/36), then sudden death.
`

type rulesOptions struct{ rules command.RuleFlags }

func newRulesCmd(io command.Streams) *cobra.Command {
	var o rulesOptions
	cmd := &cobra.Command{
		Use:   "rules [rule flags]",
		Short: "Print the rules, every knob with its default, and the rules the flags select",
		Args:  command.ArgsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runRules(io, o)
		},
	}
	o.rules.Register(cmd.Flags())
	return cmd
}

func runRules(io command.Streams, o rulesOptions) error {
	r, err := o.rules.Rules()
	if err != nil {
		return err
	}
	fmt.Fprint(io.Out, rulesSummary)
	fmt.Fprintln(io.Out, "\nKnobs (rules §9):")
	t := command.NewTable(io.Out, 4, "knob", "flag", "default", "selected")
	selected := env.KnobsOf(r)
	for _, k := range env.KnobTable {
		if err := t.Append([]string{k.Label, "--" + k.Name, k.Default(), k.Get(selected)}); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "\nSelected: %s\n", r)
	return nil
}
