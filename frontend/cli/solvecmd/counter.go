package solvecmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver/lineup"
)

type solveCounterOptions struct {
	rules   command.RuleFlags
	top     int
	payoff  string
	workers int
	json    bool
}

func newSolveCounterCmd(io command.Streams) *cobra.Command {
	var o solveCounterOptions
	cmd := &cobra.Command{
		Use:     "counter LINEUP [--top K] [--payoff P] [rule flags] [--json]",
		Short:   "The best line-ups to play against LINEUP, with their exact odds",
		Example: "  kingoal solve counter 2-2-2-2-2 --top 5",
		Args:    command.ArgsBetween(1, 1, "one LINEUP to counter"),
		RunE:    func(cmd *cobra.Command, args []string) error { return runSolveCounter(cmd.Context(), io, o, args) },
	}
	cmd.Flags().IntVar(&o.top, "top", 10, "how many replies to list")
	command.PayoffFlag(cmd.Flags(), &o.payoff, "ranking payoff", "win-loss", "goal-diff", "points", "advance")
	command.WorkersFlag(cmd.Flags(), &o.workers, "for the odds matrix")
	command.JSONFlag(cmd.Flags(), &o.json, "the replies")
	o.rules.Register(cmd.Flags())
	return cmd
}

// replyJSON is one reply to LINEUP, played at home: solve counter --json prints them best first.
type replyJSON struct {
	Lineup      string  `json:"lineup"`          // the reply, played at home
	Payoff      float64 `json:"payoff"`          // its payoff against LINEUP (--payoff)
	HomeWin     float64 `json:"home_win"`        // P(the reply wins)
	Draw        float64 `json:"draw"`            // P(draw)
	AwayWin     float64 `json:"away_win"`        // P(LINEUP wins)
	HomeGoals   float64 `json:"home_goals_mean"` // expected goals of the reply
	AwayGoals   float64 `json:"away_goals_mean"` // expected goals of LINEUP
	HomeAdvance float64 `json:"home_advance"`    // P(the reply advances) (= home_win in a league)
}

func runSolveCounter(ctx context.Context, io command.Streams, o solveCounterOptions, args []string) error {
	r, payoff, err := command.RulesAndPayoff(o.rules, o.payoff)
	if err != nil {
		return err
	}
	target, err := command.ParseLineupArg(args, 0, "")
	if err != nil {
		return err
	}
	if o.top < 1 {
		return command.Usagef("--top %d: want at least 1", o.top)
	}
	m, err := command.ComputeMatrix(ctx, io, r, o.workers)
	if err != nil {
		return err
	}
	replies, err := lineup.BestResponses(m, payoff, []env.Weighted{{Lineup: target, Prob: 1}})
	if err != nil {
		return err
	}
	replies = replies[:min(o.top, len(replies))]
	if o.json {
		out := make([]replyJSON, len(replies))
		for i, rp := range replies {
			out[i] = replyJSON{rp.Lineup.String(), rp.Payoff, rp.HomeWin, rp.Draw, rp.AwayWin, rp.HomeGoals, rp.AwayGoals, rp.HomeAdvance}
		}
		return command.WriteJSON(io.Out, out)
	}
	fmt.Fprintf(io.Out, "best replies (as home) to %s (away), ranked by %s\nrules: %s\n\n", target, payoff, r)
	header := []string{"rank", "line-up", payoff.String(), "win", "draw", "loss", "goals for", "goals against"}
	if r.Knockout {
		header = append(header, "advance")
	}
	t := command.NewTable(io.Out, 1, header...)
	var rows [][]string
	for k, rp := range replies {
		row := []string{fmt.Sprint(k + 1), rp.Lineup.String(), fmt.Sprintf("%+.5f", rp.Payoff), fmt.Sprintf("%.4f", rp.HomeWin),
			fmt.Sprintf("%.4f", rp.Draw), fmt.Sprintf("%.4f", rp.AwayWin), fmt.Sprintf("%.3f", rp.HomeGoals), fmt.Sprintf("%.3f", rp.AwayGoals)}
		if r.Knockout {
			row = append(row, fmt.Sprintf("%.4f", rp.HomeAdvance))
		}
		rows = append(rows, row)
	}
	return command.AppendRows(t, rows)
}
