package cli

import (
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/env"
)

// ruleFlags are the rule knobs (rules §9) shared by every command that plays or solves:
// env.Knobs bound to flags, so the CLI and the Python bridge read them through one parser.
type ruleFlags struct{ env.Knobs }

func (f *ruleFlags) register(fs *pflag.FlagSet) {
	d := env.DefaultKnobs()
	fs.BoolVar(&f.Knockout, "knockout", d.Knockout, "knockout match: a draw goes to extra time, then penalties")
	fs.BoolVar(&f.TiesCount, "ties-count", d.TiesCount, "a tied throw consumes a throw and leaves the ball (default: ties are thrown again)")
	fs.IntVar(&f.ThrowsPerHalf, "throws-per-half", d.ThrowsPerHalf, "throws in each regular half")
	fs.IntVar(&f.ExtraThrows, "extra-throws", d.ExtraThrows, "throws in each extra-time half (0: a level knockout goes straight to penalties)")
	fs.IntVar(&f.Moves, "moves", d.Moves, "Basic-mode moves per match (0: none)")
	fs.StringVar(&f.HomeMode, "home-mode", d.HomeMode, "home's mode: basic or dynamic")
	fs.StringVar(&f.AwayMode, "away-mode", d.AwayMode, "away's mode: basic or dynamic")
	fs.StringVar(&f.Trigger, "dynamic-trigger", d.Trigger, "which won throws earn a Dynamic shift: win or turnover")
	fs.StringVar(&f.Points, "points", d.Points, "league points for win,draw,loss")
}

// rules turns the flags into env.Rules; every problem is a usage error naming its flag.
func (f *ruleFlags) rules() (env.Rules, error) {
	r, err := f.Knobs.Rules()
	var ke *env.KnobError
	switch {
	case errors.As(err, &ke):
		return r, Usagef("--%s %v", ke.Knob, ke.Err)
	case err != nil:
		return r, usageError{err}
	}
	return r, nil
}

// changeFlags are the rule knobs of formation changes: they mean nothing to a command whose
// two line-ups never change.
var changeFlags = []string{"moves", "home-mode", "away-mode", "dynamic-trigger"}

// refuseChangeFlags refuses, for a command of two line-ups kept all match (simulate, solve
// odds), a change knob given on the command line: it cannot apply, and echoing it in the
// rules line would say it did.
func refuseChangeFlags(cmd *cobra.Command) error {
	for _, name := range changeFlags {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return Usagef("--%s: %s plays two line-ups that never change, so formation changes cannot apply "+
				"(kingoal solve policy or solve game for a side that changes; kingoal arena for agents)", name, cmd.CommandPath())
		}
	}
	return nil
}
