package solvecmd

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/charts"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

type solveMatrixOptions struct {
	rules   command.RuleFlags
	force   bool
	out     string
	payoff  string
	workers int
}

func newSolveMatrixCmd(io command.Streams) *cobra.Command {
	var o solveMatrixOptions
	cmd := &cobra.Command{
		Use:   "matrix [--out DIR] [--payoff P] [rule flags]",
		Short: "Exact odds of all 121×121 line-up pairings: DIR/matrix.parquet and a heat map DIR/matrix.png",
		Long: `Matrix computes the exact odds of every pairing of line-ups and writes
DIR/matrix.parquet (columns home_index, away_index, home, away, home_win, draw, away_win,
home_goals_mean, away_goals_mean, home_advance; schema matrix/1) and DIR/matrix.png, a heat
map of the payoff to home. It prints the line-ups with the best average payoff.`,
		Args: command.ArgsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runSolveMatrix(cmd.Context(), io, o) },
	}
	cmd.Flags().StringVar(&o.out, "out", "kingoal-matrix", "output directory (created if missing)")
	command.PayoffFlag(cmd.Flags(), &o.payoff, "payoff drawn in the heat map", "win-loss", "goal-diff", "points", "advance")
	command.WorkersFlag(cmd.Flags(), &o.workers, "")
	cmd.Flags().BoolVar(&o.force, "force", false, "replace the matrix files already in --out")
	o.rules.Register(cmd.Flags())
	return cmd
}

func runSolveMatrix(ctx context.Context, io command.Streams, o solveMatrixOptions) error {
	r, payoff, err := command.RulesAndPayoff(o.rules, o.payoff)
	if err != nil {
		return err
	}
	if strings.TrimSpace(o.out) == "" {
		return command.Usagef("--out: want a directory name (it is created if missing)")
	}
	lock, err := safefile.LockDir(o.out) // creates it if missing
	if err != nil {
		return command.LockError(err)
	}
	defer lock.Unlock()
	for _, f := range []string{"matrix.parquet", "matrix.png"} {
		if err := command.RefuseOverwrite("--out", filepath.Join(o.out, f), o.force, "replace it with --force"); err != nil {
			return err
		}
	}
	m, err := command.ComputeMatrix(ctx, io, r, o.workers)
	if err != nil {
		return err
	}
	n := env.NumLineups
	rows := make([]datasets.MatrixRow, 0, n*n)
	limit := 0.0
	for h := range n {
		for a := range n {
			c := m.At(h, a)
			rows = append(rows, datasets.MatrixRow{HomeIndex: int32(h), AwayIndex: int32(a), Home: env.LineupAt(h).String(), Away: env.LineupAt(a).String(),
				HomeWin: c.HomeWin, Draw: c.Draw, AwayWin: c.AwayWin, HomeGoalsMean: c.HomeGoals, AwayGoalsMean: c.AwayGoals, HomeAdvance: c.HomeAdvance})
			limit = max(limit, math.Abs(payoff.Of(c, r)))
		}
	}
	pq := filepath.Join(o.out, "matrix.parquet")
	if err := datasets.WriteParquet(pq, datasets.MatrixSchema, rows); err != nil {
		return err
	}
	png := filepath.Join(o.out, "matrix.png")
	err = charts.Heatmap{
		Title:    fmt.Sprintf("Payoff to home (%s), exact; %s", payoff, r),
		XLabel:   "away line-up index (0 = 1-1-1-2-5 … 120 = 5-2-1-1-1)",
		YLabel:   "home line-up index",
		BarLabel: payoff.String(),
		Grid: charts.Grid{Cols: n, Rows: n, ColX: charts.Identity, RowY: charts.Identity,
			At: func(c, row int) float64 { return payoff.Of(m.At(row, c), r) }},
		Limit: limit,
	}.WritePNG(png)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.ErrOut, "kingoal: wrote %s (%d rows) and %s\n", pq, len(rows), png)
	return writeAverageTable(io, m, payoff, r)
}

// writeAverageTable prints the ten line-ups with the best average payoff against all 121.
func writeAverageTable(io command.Streams, m *odds.OddsMatrix, payoff lineup.Payoff, r env.Rules) error {
	type avg struct {
		i int
		v float64
	}
	avgs := make([]avg, env.NumLineups)
	for h := range avgs {
		s := 0.0
		for a := range env.NumLineups {
			s += payoff.Of(m.At(h, a), r)
		}
		avgs[h] = avg{h, s / env.NumLineups}
	}
	slices.SortStableFunc(avgs, func(x, y avg) int { return cmp.Or(cmp.Compare(y.v, x.v), x.i-y.i) })
	fmt.Fprintf(io.Out, "best average %s against all 121 line-ups (%s)\n", payoff, r)
	t := command.NewTable(io.Out, 1, "rank", "line-up", "index", "average payoff")
	var rows [][]string
	for k, a := range avgs[:10] {
		rows = append(rows, []string{fmt.Sprint(k + 1), env.LineupAt(a.i).String(), fmt.Sprint(a.i), fmt.Sprintf("%+.5f", a.v)})
	}
	return command.AppendRows(t, rows)
}
