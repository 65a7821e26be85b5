package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/analysis"
	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver/game"
)

type analyseOptions struct {
	match  int64
	all    bool
	table  string
	payoff string
	asJSON bool

	matchGiven bool
}

func newAnalyseCmd(streams command.Streams) *cobra.Command {
	var o analyseOptions
	cmd := &cobra.Command{
		Use:   "analyse RUN (--match ID | --all) [--table FILE.kgt] [--json]",
		Short: "Every decision of a match judged against the solved game, and its value curve",
		Long: `Analyse replays one match of an arena run (from its seeds, as kingoal serve does) and
reads it against the solved substitution game, as a chess engine reads a game: at every
kick-off and break, each side's choice beside the equilibrium's mix and the value it gives
away against the other side's mix, in points of P(win) + ½ P(draw) (goals for goal-diff),
graded none (< 0.005), inaccuracy (≥ 0.005), mistake (≥ 0.02) or blunder (≥ 0.05); home's
exact value after every event (the value curve); and what each agent gave away in all and
at its worst decision. With --all it reads every match of the run and prints, for each
agent, the points it gave away a match on average, its worst decision (and its match) and
its inaccuracies, mistakes and blunders.

The game is read from --table (kingoal solve game --out FILE.kgt, made under the run's
rules) or, without one, solved here when it needs at most 2 GiB (short halves). Matches
with a Dynamic side are refused: a shift is not judged.`,
		Example: "  kingoal analyse runs/league-7 --match 12 --table game.kgt\n  kingoal analyse runs/league-7 --all --table game.kgt\n  kingoal analyse runs/short --match 0 --json",
		Args:    command.ArgsBetween(1, 1, "a run directory"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.matchGiven = cmd.Flags().Changed("match")
			return runAnalyse(cmd.Context(), streams, o, args[0])
		},
	}
	cmd.Flags().Int64Var(&o.match, "match", 0, "the match's `ID` in the run (match_id in matches.parquet)")
	cmd.Flags().BoolVar(&o.all, "all", false, "read every match of the run and sum them by agent")
	cmd.Flags().StringVar(&o.table, "table", "", "the game table to judge with (`FILE.kgt`; default: solve the game, if small)")
	cmd.Flags().StringVar(&o.payoff, "payoff", "", "the game's payoff: win-loss, goal-diff or advance (default: the table's; solving, advance in a knockout and win-loss in a league)")
	command.JSONFlag(cmd.Flags(), &o.asJSON, "the analysis")
	return cmd
}

func runAnalyse(ctx context.Context, streams command.Streams, o analyseOptions, dir string) error {
	if o.matchGiven == o.all {
		return command.Usagef("analyse: give one of --match ID (match_id in %s/matches.parquet) or --all", dir)
	}
	if o.match < 0 {
		return command.Usagef("analyse: --match %d: want a match_id ≥ 0", o.match)
	}
	switch o.payoff {
	case "", "win-loss", "goal-diff", "advance":
	default:
		return command.Usagef("analyse: --payoff %q: want win-loss, goal-diff or advance", o.payoff)
	}
	rp, err := arena.NewReplayer(ctx, dir, arena.Limits{})
	if err != nil {
		return err
	}
	defer rp.Close()
	rep, err := rp.Match(o.match)             // with --all, match 0 first
	if errors.Is(err, arena.ErrNoSuchMatch) { // a value the run does not have, as --match -1
		return command.Usage(err)
	}
	if err != nil {
		return err
	}
	src := analysis.Source{Table: o.table, Payoff: o.payoff}
	bar := command.LazyProgress(streams.ErrOut, "layers solved")
	if o.table == "" {
		src.Progress = bar.Set
	}
	g, err := src.Game(ctx, rep.Start.Rules())
	bar.Finish()
	if err != nil {
		return err
	}
	if o.all {
		return analyseAll(ctx, streams, o, rp, g, rep)
	}
	report, err := analysis.Replay(ctx, g, rep)
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.WriteJSON(streams.Out, report)
	}
	return renderAnalysis(streams.Out, report)
}

// analyseAll reads every match of the run (the first already replayed) and prints the sum by
// agent.
func analyseAll(ctx context.Context, streams command.Streams, o analyseOptions, rp *arena.Replayer, g *game.Game, rep arena.Replay) error {
	total := rp.Info().TotalMatches
	bar := command.NewProgress(streams.ErrOut, total, "matches")
	var tally analysis.Tally
	for id := range int64(total) {
		if id > 0 {
			var err error
			if rep, err = rp.Match(id); err != nil {
				return err
			}
		}
		report, err := analysis.Replay(ctx, g, rep)
		if err != nil {
			return err
		}
		tally.Add(report)
		_ = bar.Add(1)
	}
	_ = bar.Finish()
	sums := tally.Agents()
	if o.asJSON {
		return command.WriteJSON(streams.Out, sums)
	}
	fmt.Fprintf(streams.Out, "%s, %s (payoff %s)\n\n", command.Plural(total, "match"), g.Problem.Rules, g.Problem.Payoff)
	rows := make([][]string, len(sums))
	for i, a := range sums {
		rows[i] = []string{a.Agent, strconv.Itoa(a.Matches), strconv.Itoa(a.Decisions), fmt.Sprintf("%.4f", a.PerMatch), fmt.Sprintf("%.4f", a.Worst),
			strconv.FormatInt(a.WorstMatch, 10), strconv.Itoa(a.Inaccuracies), strconv.Itoa(a.Mistakes), strconv.Itoa(a.Blunders)}
	}
	return command.AppendRows(command.NewTable(streams.Out, 1, "agent", "matches", "decisions", "points lost a match", "worst", "in match", "inaccuracies", "mistakes", "blunders"), rows)
}

func renderAnalysis(w io.Writer, r analysis.Report) error {
	end := r.Curve[len(r.Curve)-1]
	fmt.Fprintf(w, "match %d, %s v %s, %s (payoff %s)\nfinal score %s; home's value %s at kick-off\n\n", r.Match, r.Agents[0].Agent, r.Agents[1].Agent,
		r.Rules, r.Payoff, end.Score, command.SignedFixed(r.Curve[0].Value, 4))
	rows := make([][]string, 0, len(r.Decisions))
	for _, d := range r.Decisions {
		best := ""
		if len(d.Mix) > 0 {
			best = fmt.Sprintf("%s %.0f%%", d.Mix[0].Lineup, 100*d.Mix[0].Prob)
			if len(d.Mix) > 1 {
				best += fmt.Sprintf(" (+%d)", len(d.Mix)-1)
			}
		}
		rows = append(rows, []string{strconv.Itoa(d.Event), d.Side, d.Time, d.Score, d.Chose, best, fmt.Sprintf("%.4f", d.Points), d.Grade.String()})
	}
	t := command.NewTable(w, 6, "event", "side", "time", "score", "chose", "equilibrium", "points lost", "grade")
	if err := command.AppendRows(t, rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, a := range r.Agents {
		fmt.Fprintf(w, "%s (%s): %s, gave away %.4f points in all, %.4f at its worst; %s, %s, %s\n",
			a.Agent, a.Side, command.Plural(a.Decisions, "decision"), a.Points, a.Worst, command.Plural(a.Inaccuracies, "inaccuracy"),
			command.Plural(a.Mistakes, "mistake"), command.Plural(a.Blunders, "blunder"))
	}
	return nil
}
