// Argument helpers: positional arguments and command groups, with errors that say what a command takes.

package command

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// group makes cmd, a command that only holds subcommands, refuse an unknown one (exit 2,
// naming the ones that exist) instead of printing its help and exiting 0; alone, it prints
// its help.
func Group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return c.Help()
		}
		var names []string
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		return Usagef("unknown command %q for %q; its commands: %s", args[0], c.CommandPath(), strings.Join(names, ", "))
	}
	return cmd
}

// ArgsBetween is cobra.RangeArgs with a usage error that says what the command takes.
func ArgsBetween(lo, hi int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			got := "no arguments"
			if len(args) > 0 {
				got = fmt.Sprintf("%q", args)
			}
			return Usagef("%s takes %s; got %s", cmd.CommandPath(), names, got)
		}
		return nil
	}
}
