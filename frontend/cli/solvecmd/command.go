package solvecmd

import (
	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/frontend/cli/command"
)

// New is the solve command with its subcommands, writing to io.
func New(io command.Streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "solve",
		Short: "Exact answers: match odds, the odds matrix, the line-up equilibrium, counters, optimal policies, the substitution game",
		Long: `The solve commands compute exact figures from the rules (no sampling): dynamic
programming over the match, linear programming for the hidden line-up choice (verified
against every pure reply), and backward induction for substitution and shift policies.`,
	}
	cmd.AddCommand(newSolveOddsCmd(io), newSolveMatrixCmd(io), newSolveEquilibriumCmd(io), newSolveCounterCmd(io), newSolvePolicyCmd(io), newSolveGameCmd(io), newSolveCatalogueCmd(io))
	return command.Group(cmd)
}
