package solvecmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver/odds"
)

type solveOddsOptions struct {
	rules command.RuleFlags
	top   int
	json  bool
}

func newSolveOddsCmd(io command.Streams) *cobra.Command {
	var o solveOddsOptions
	cmd := &cobra.Command{
		Use:   "odds [HOME [AWAY]] [rule flags] [--json]",
		Short: "Exact odds of two fixed line-ups: win/draw/loss, expected goals, likeliest scores, P(advance)",
		Example: `  kingoal solve odds 1-2-3-3-1 2-2-2-2-2
  kingoal solve odds 1-3-3-2-1 2-2-2-2-2 --knockout --json`,
		Args: command.ArgsBetween(0, 2, "HOME and AWAY line-ups (or none for the defaults)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := command.RefuseChangeFlags(cmd); err != nil {
				return err
			}
			return runSolveOdds(cmd.Context(), io, o, args)
		},
	}
	cmd.Flags().IntVar(&o.top, "top", 10, "how many of the likeliest scores to list")
	command.JSONFlag(cmd.Flags(), &o.json, "the result")
	o.rules.Register(cmd.Flags())
	return cmd
}

// scoreJSON is a final score and its probability.
type scoreJSON struct {
	Home int     `json:"home"` // home goals
	Away int     `json:"away"` // away goals
	P    float64 `json:"p"`    // its probability
}

// oddsJSON is what solve odds --json prints: the exact result probabilities of two fixed
// line-ups, expected goals, the likeliest scores and, in a knockout, P(advance).
type oddsJSON struct {
	Home          string      `json:"home"`            // home's line-up
	Away          string      `json:"away"`            // away's line-up
	Rules         string      `json:"rules"`           // the rules in words
	HomeWin       float64     `json:"home_win"`        // P(home wins) (after extra time in a knockout)
	Draw          float64     `json:"draw"`            // P(draw) (in a knockout: P(penalties))
	AwayWin       float64     `json:"away_win"`        // P(away wins)
	HomeGoalsMean float64     `json:"home_goals_mean"` // expected home goals
	AwayGoalsMean float64     `json:"away_goals_mean"` // expected away goals
	HomeAdvance   float64     `json:"home_advance"`    // P(home advances), the shoot-out and its sudden death included (= home_win in a league)
	ExtraTime     float64     `json:"extra_time"`      // P(extra time)
	Shootout      float64     `json:"shootout"`        // P(penalties)
	Truncated     float64     `json:"truncated"`       // probability mass beyond the score table: 0 up to rounding
	Likeliest     []scoreJSON `json:"likeliest"`       // the likeliest scores, likeliest first (--top)
}

func runSolveOdds(ctx context.Context, io command.Streams, o solveOddsOptions, args []string) error {
	r, home, away, err := command.RulesAndPair(o.rules, args)
	if err != nil {
		return err
	}
	if o.top < 0 {
		return command.Usagef("--top %d: want 0 or more", o.top)
	}
	var mo odds.Odds
	err = command.Interruptible(ctx, func() (err error) { mo, err = odds.MatchOdds(home, away, r); return err })
	if err != nil {
		return err
	}
	likeliest := mo.Score.Likeliest(o.top)
	if o.json {
		j := oddsJSON{home.String(), away.String(), r.String(), mo.HomeWin, mo.Draw, mo.AwayWin, mo.HomeGoals, mo.AwayGoals,
			mo.HomeAdvance, mo.ExtraTime, mo.Shootout, mo.Truncated, []scoreJSON{}}
		for _, s := range likeliest {
			j.Likeliest = append(j.Likeliest, scoreJSON{s.Home, s.Away, s.P})
		}
		return command.WriteJSON(io.Out, j)
	}
	fmt.Fprintf(io.Out, "%s (home) v %s (away), exact\nrules: %s\n\n", home, away, r)
	t := command.NewTable(io.Out, 1, "result", "probability")
	rows := [][]string{{"home win", f7(mo.HomeWin)}, {"draw", f7(mo.Draw)}, {"away win", f7(mo.AwayWin)}}
	if r.Knockout {
		rows = append(rows, []string{"home advances", f7(mo.HomeAdvance)}, []string{"extra time", f7(mo.ExtraTime)}, []string{"penalties", f7(mo.Shootout)})
	}
	if err := command.AppendRows(t, rows); err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "\nexpected goals: home %.4f, away %.4f\n", mo.HomeGoals, mo.AwayGoals)
	if mo.Truncated > 1e-12 {
		fmt.Fprintf(io.Out, "note: %.3g of the probability lies beyond the solver's goal cap and is left out\n", mo.Truncated)
	}
	if len(likeliest) > 0 {
		fmt.Fprintf(io.Out, "\nthe %d likeliest scores:\n", len(likeliest))
		t = command.NewTable(io.Out, 1, "score", "probability")
		rows = rows[:0]
		for _, s := range likeliest {
			rows = append(rows, []string{fmt.Sprintf("%d-%d", s.Home, s.Away), f7(s.P)})
		}
		return command.AppendRows(t, rows)
	}
	return nil
}

func f7(x float64) string { return fmt.Sprintf("%.7f", x) }
