package solvecmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver/lineup"
)

type solveEquilibriumOptions struct {
	force   bool
	rules   command.RuleFlags
	payoff  string
	workers int
	json    bool
	out     string
}

func newSolveEquilibriumCmd(io command.Streams) *cobra.Command {
	var o solveEquilibriumOptions
	cmd := &cobra.Command{
		Use:   "equilibrium [--payoff P] [rule flags] [--json]",
		Short: "The optimal (equilibrium) mix of line-ups for the hidden, simultaneous line-up choice",
		Long: `Equilibrium solves the zero-sum game of choosing line-ups: payoff win-loss
(P(win) − P(loss)), goal-diff, points (expected league points margin) or advance (knockout).
Dominated line-ups are removed, the linear program is solved, and the answer is checked
against every pure reply: an unverified answer is an error, never printed.`,
		Args: command.ArgsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runSolveEquilibrium(cmd.Context(), io, o) },
	}
	command.PayoffFlag(cmd.Flags(), &o.payoff, "the payoff", "win-loss", "goal-diff", "points", "advance")
	command.WorkersFlag(cmd.Flags(), &o.workers, "for the odds matrix")
	command.JSONFlag(cmd.Flags(), &o.json, "the result")
	cmd.Flags().StringVar(&o.out, "out", "", "also write both mixes to this Parquet file (schema equilibrium/1)")
	cmd.Flags().BoolVar(&o.force, "force", false, "replace --out if it exists")
	o.rules.Register(cmd.Flags())
	return cmd
}

// equilibriumJSON is what solve equilibrium --json prints: the hidden line-up choice solved
// as a zero-sum matrix game, each side's optimal mix, verified by the best pure reply.
type equilibriumJSON struct {
	Payoff         string                 `json:"payoff"`            // win-loss, goal-diff, points or advance
	Rules          string                 `json:"rules"`             // the rules in words
	Value          float64                `json:"value"`             // the game's value to home
	Exploitability float64                `json:"exploitability"`    // what the best pure reply gains over the value (the verification: near 0)
	Dominated      int                    `json:"dominated_removed"` // line-ups removed as dominated before the LP
	Strategy       []command.WeightedJSON `json:"strategy"`          // home's equilibrium mix
	AwayStrategy   []command.WeightedJSON `json:"away_strategy"`     // away's equilibrium mix
}

func runSolveEquilibrium(ctx context.Context, io command.Streams, o solveEquilibriumOptions) error {
	r, payoff, err := command.RulesAndPayoff(o.rules, o.payoff)
	if err != nil {
		return err
	}
	if o.out != "" { // its directory is made, as solve matrix makes its own
		if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
			return fmt.Errorf("solve equilibrium: %w", err)
		}
	}
	release, err := command.ClaimOutputs(map[string]string{"--out": o.out}, o.force)
	if err != nil {
		return err
	}
	defer release()
	m, err := command.ComputeMatrix(ctx, io, r, o.workers)
	if err != nil {
		return err
	}
	var eq lineup.LineupEquilibrium
	err = command.Interruptible(ctx, func() (err error) { eq, err = lineup.Equilibrium(m, payoff); return err })
	if err != nil {
		return err
	}
	if o.out != "" {
		var rows []datasets.EquilibriumRow
		for _, side := range sidesOf(eq) {
			for _, w := range side.mix {
				rows = append(rows, datasets.EquilibriumRow{Payoff: payoff.String(), Side: side.name, Lineup: w.Lineup.String(),
					LineupIndex: int32(w.Lineup.Index()), Probability: w.Prob, Value: eq.Value, Exploitability: eq.Exploitability})
			}
		}
		if err := datasets.WriteParquet(o.out, datasets.EquilibriumSchema, rows); err != nil {
			return err
		}
	}
	if o.json {
		return command.WriteJSON(io.Out, equilibriumJSON{payoff.String(), r.String(), eq.Value, eq.Exploitability, eq.Dominated, command.ToWeightedJSON(eq.Home), command.ToWeightedJSON(eq.Away)})
	}
	fmt.Fprintf(io.Out, "line-up equilibrium, payoff %s\nrules: %s\n\n", payoff, r)
	fmt.Fprintf(io.Out, "value to home: %s (%s)\nexploitability (best pure reply's gain, on the value's scale): %.3g — verified\n",
		command.SignedFixed(eq.Value, 9), eq.Payoff.Scale(), eq.Exploitability)
	fmt.Fprintf(io.Out, "dominated line-ups removed before the LP: %d of 242 (rows + columns)\n\n", eq.Dominated)
	t := command.NewTable(io.Out, 2, "side", "line-up", "probability")
	var rows [][]string
	for _, side := range sidesOf(eq) {
		for _, w := range side.mix {
			rows = append(rows, []string{side.name, w.Lineup.String(), fmt.Sprintf("%.6f", w.Prob)})
		}
	}
	return command.AppendRows(t, rows)
}

type sideMix struct {
	name string
	mix  []env.Weighted
}

func sidesOf(eq lineup.LineupEquilibrium) []sideMix {
	return []sideMix{{"home", eq.Home}, {"away", eq.Away}}
}
