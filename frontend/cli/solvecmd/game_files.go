package solvecmd

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/charts"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// writeGameFiles writes --out (every break's mixes) and --png (the chart), each atomically.
func writeGameFiles(ctx context.Context, io command.Streams, g *game.Game, out, png string) error {
	if out != "" {
		if err := writeGameParquet(ctx, io, g, out); err != nil {
			return err
		}
	}
	if png != "" {
		return gameChart(g, png)
	}
	return nil
}

// writeGameParquet streams every break the game holds with a move left, a row per line-up
// in each side's mix; Ctrl-C gives the file up (nothing appears under path).
func writeGameParquet(ctx context.Context, io command.Streams, g *game.Game, path string) error {
	w, err := datasets.NewParquetWriter[datasets.GameRow](path, datasets.GameSchema)
	if err != nil {
		return err
	}
	bar := command.NewProgress(io.ErrOut, int(g.Stats().BreakStates), "breaks")
	payoff := g.Problem.Payoff.String()
	var rows []datasets.GameRow
	n := 0
	err = g.Breaks(func(s game.State, sol game.StageSolution) error {
		base := datasets.GameRow{Payoff: payoff, Period: s.Period.String(), ThrowsLeft: int32(s.ThrowsLeft), GoalDiff: int32(s.GoalDiff),
			Home: s.Home.String(), HomeIndex: int32(s.Home.Index()), HomeMoves: int32(s.HomeMoves),
			Away: s.Away.String(), AwayIndex: int32(s.Away.Index()), AwayMoves: int32(s.AwayMoves), Value: sol.Value}
		for _, side := range []struct {
			name string
			mix  []env.Weighted
		}{{"home", sol.Home}, {"away", sol.Away}} {
			for _, m := range side.mix {
				r := base
				r.Side, r.Lineup, r.LineupIndex, r.Probability = side.name, m.Lineup.String(), int32(m.Lineup.Index()), m.Prob
				rows = append(rows, r)
			}
		}
		if n++; n%65536 == 0 {
			_ = bar.Set(n)
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if len(rows) >= 8192 {
			err := w.Write(rows)
			rows = rows[:0]
			return err
		}
		return nil
	})
	_ = bar.Finish()
	if err == nil {
		err = w.Write(rows)
	}
	if err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// gameChart plots P(home changes its line-up) at each break of the match, by home's goal
// difference, for the likeliest starting pair with nobody having moved yet.
func gameChart(g *game.Game, path string) error {
	r, ko := g.Problem.Rules, g.KickOff()
	home, away := ko.Home[0].Lineup, ko.Away[0].Lineup
	scores := []int{-2, -1, 0, 1, 2}
	if additive(g) {
		scores = []int{0}
	}
	var lines []charts.Series
	for _, d := range scores {
		s := charts.Series{Name: "home " + command.ScoreWord(d)}
		if additive(g) {
			s.Name = "any score"
		}
		elapsed := 0
		for _, per := range []env.Period{env.FirstHalf, env.SecondHalf} {
			for left := r.PeriodLength(per); left >= 1; left-- {
				at := elapsed + r.PeriodLength(per) - left // throws played before this break
				if at == 0 || abs(d)*odds.ThrowsToScore() > at {
					continue // no break at kick-off; the score cannot be reached yet
				}
				sol, err := g.At(game.State{Period: per, ThrowsLeft: left, GoalDiff: d, Home: home, Away: away, HomeMoves: g.Moves(), AwayMoves: g.Moves()})
				if err != nil {
					return err
				}
				change := 1.0
				for _, w := range sol.Home {
					if w.Lineup == home {
						change -= w.Prob
					}
				}
				s.Points = append(s.Points, plotter.XY{X: float64(at), Y: change})
			}
			elapsed += r.PeriodLength(per)
		}
		lines = append(lines, s)
	}
	title := fmt.Sprintf("Equilibrium of %s v %s, %s each, nobody moved yet (%s)", home, away, command.Plural(g.Moves(), "move"), g.Problem.Payoff)
	return charts.PanelChart(path, title, "throws played before the break", "P(home changes its line-up) at a break, by score", lines...)
}

func abs(x int) int { return max(x, -x) }

// additive reports whether the score drops out of the game (goal difference in a league).
func additive(g *game.Game) bool {
	return g.Problem.Payoff == lineup.PayoffGoalDiff && !g.Problem.Rules.Knockout
}

// gameOutputs splits --out by its extension: a game table or Parquet rows.
func gameOutputs(out string) (table, parquet string, err error) {
	switch ext := strings.ToLower(filepath.Ext(out)); {
	case out == "":
	case ext == ".kgt":
		table = out
	case ext == ".parquet":
		parquet = out
	default:
		return "", "", command.Usagef("--out %s: name a game table FILE.kgt or Parquet rows FILE.parquet", out)
	}
	return table, parquet, nil
}

// notAnEquilibrium is the refusal of a loaded table whose strategy a check found exploitable
// (game.Check.Verified), a Basic game's or a Dynamic one's.
func notAnEquilibrium(in string, c game.Check) error {
	return fmt.Errorf("--in %s: the loaded strategy's best responses gain %.3g (home %.12f, away %.12f): not an equilibrium", in, c.Exploitability, c.HomeBest, c.AwayBest)
}
