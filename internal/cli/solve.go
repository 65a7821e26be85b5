package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/env"
)

func newSolveCmd(io Streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "solve",
		Short: "Exact answers: match odds, the odds matrix, the line-up equilibrium, counters, optimal policies",
		Long: `The solve commands compute exact figures from the rules (no sampling): dynamic
programming over the match, linear programming for the hidden line-up choice (verified
against every pure reply), and backward induction for substitution and shift policies.`,
	}
	cmd.AddCommand(newSolveOddsCmd(io), newSolveMatrixCmd(io), newSolveEquilibriumCmd(io), newSolveCounterCmd(io), newSolvePolicyCmd(io))
	return group(cmd)
}

// describeChange says which counters a change of line-up moves (see Example_describeChange).
func describeChange(from, to env.Lineup) string {
	if from == to {
		return "keep " + from.String()
	}
	f, t := from.Counts(), to.Counts()
	var out, in []int // one entry per counter leaving / arriving
	for k := range f {
		for d := f[k] - t[k]; d > 0; d-- {
			out = append(out, k+1)
		}
		for d := t[k] - f[k]; d > 0; d-- {
			in = append(in, k+1)
		}
	}
	parts := make([]string, len(out))
	for i := range out {
		parts[i] = fmt.Sprintf("sector %d → %d", out[i], in[i])
	}
	noun := "counter"
	if len(out) > 1 {
		noun = "counters"
	}
	return fmt.Sprintf("move %d %s (%s): %s → %s", len(out), noun, strings.Join(parts, ", "), from, to)
}
