package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

type simulateOptions struct {
	rules   command.RuleFlags
	matches int
	seed    uint64
	workers int
	dice    bool
	json    bool
}

func newSimulateCmd(streams command.Streams) *cobra.Command {
	var o simulateOptions
	cmd := &cobra.Command{
		Use:   "simulate [HOME [AWAY]] [-n N] [--seed S] [rule flags] [--json]",
		Short: "Monte Carlo of matches between two fixed line-ups (default 2-2-2-2-2 v 2-2-2-2-2)",
		Long: `Simulate plays N matches between two line-ups that never change (no moves, no shifts)
and reports win/draw/loss shares with 95% Wilson intervals, mean goals, and the
goal-difference histogram. The result depends only on the line-ups, the rules and the
seed (not on --workers): the same seed prints the same bytes.`,
		Example: `  kingoal simulate
  kingoal simulate 1-2-3-3-1 2-2-2-2-2 -n 1000000 --seed 7
  kingoal simulate 1-1-3-3-2 2-3-2-2-1 --knockout --json`,
		Args: command.ArgsBetween(0, 2, "HOME and AWAY line-ups (or none for the defaults)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := command.RefuseChangeFlags(cmd); err != nil {
				return err
			}
			return runSimulate(cmd.Context(), streams, o, args)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.matches, "matches", "n", 100000, "number of matches")
	command.SeedFlag(f, &o.seed, "")
	command.WorkersFlag(f, &o.workers, "")
	f.BoolVar(&o.dice, "dice", false, "roll every die (slower; same law as the default, which draws goal by goal)")
	command.JSONFlag(f, &o.json, "the result")
	o.rules.Register(f)
	return cmd
}

// simulateJSON is what simulate --json prints: the shares of results over the matches with
// their intervals, the mean goals and the goal-difference histogram; with --knockout also
// home_advance, extra_time and shootout.
type simulateJSON struct {
	Home          string        `json:"home"`                   // home's line-up
	Away          string        `json:"away"`                   // away's line-up
	Matches       int           `json:"matches"`                // matches simulated (-n)
	Seed          uint64        `json:"seed"`                   // the run's seed
	Rules         string        `json:"rules"`                  // the rules in words
	HomeWin       float64       `json:"home_win"`               // share of matches home won (after extra time in a knockout)
	Draw          float64       `json:"draw"`                   // share drawn (in a knockout: decided by penalties)
	AwayWin       float64       `json:"away_win"`               // share away won
	HomeWinCI     [2]float64    `json:"home_win_ci95"`          // Wilson 95% interval of home_win: [low, high]
	DrawCI        [2]float64    `json:"draw_ci95"`              // Wilson 95% interval of draw
	AwayWinCI     [2]float64    `json:"away_win_ci95"`          // Wilson 95% interval of away_win
	HomeGoalsMean float64       `json:"home_goals_mean"`        // mean home goals a match
	AwayGoalsMean float64       `json:"away_goals_mean"`        // mean away goals a match
	HomeAdvance   *float64      `json:"home_advance,omitempty"` // knockout: share of matches home advanced (shoot-out included)
	ExtraTime     *float64      `json:"extra_time,omitempty"`   // knockout: share that went to extra time
	Shootout      *float64      `json:"shootout,omitempty"`     // knockout: share that went to penalties
	GoalDiff      []goalDiffRow `json:"goal_diff"`              // the histogram of home − away goals
}

type goalDiffRow struct {
	Diff    int `json:"diff"`    // home goals − away goals
	Matches int `json:"matches"` // matches that ended with it
}

func runSimulate(ctx context.Context, streams command.Streams, o simulateOptions, args []string) error {
	r, home, away, err := command.RulesAndPair(o.rules, args)
	if err != nil {
		return err
	}
	if o.matches <= 0 {
		return command.Usagef("-n %d: want at least 1 match", o.matches)
	}
	if err := command.CheckWorkers(o.workers); err != nil {
		return err
	}
	cfg := env.SimConfig{Rules: r, Home: home, Away: away, Matches: o.matches, Seed: o.seed, Workers: o.workers}
	if o.dice {
		cfg.Dice = env.RolledDice
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: simulating %s, seed %d\n", command.Plural(o.matches, "match"), o.seed)
	bar := command.NewProgress(streams.ErrOut, o.matches, "matches")
	cfg.Progress = func(done int) { _ = bar.Set(done) }
	began := time.Now()
	res, err := env.Simulate(ctx, cfg)
	_ = bar.Finish()
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && (!interrupted || res.Matches == 0) {
		return err
	}
	secs := time.Since(began).Seconds()
	fmt.Fprintf(streams.ErrOut, "kingoal: %s in %.2fs (%.0f matches/s)\n", command.Plural(res.Matches, "match"), secs, float64(res.Matches)/secs)
	if o.json {
		err = command.WriteJSON(streams.Out, simulateToJSON(home, away, o.seed, r, res))
	} else {
		err = writeSimulateText(streams.Out, home, away, o.seed, r, res)
	}
	if err == nil && interrupted {
		// The finished chunks are a sample like any other, but which ones finished depends
		// on timing: the partial result is not reproducible from the seed.
		return fmt.Errorf("simulate: interrupted; printed the partial result of %d of %d matches (not reproducible from the seed): %w", res.Matches, o.matches, context.Canceled)
	}
	return err
}

func simulateToJSON(home, away env.Lineup, seed uint64, r env.Rules, res env.SimResult) simulateJSON {
	share := func(k int) (float64, [2]float64) {
		p, lo, hi := res.Share(k)
		return p, [2]float64{lo, hi}
	}
	j := simulateJSON{Home: home.String(), Away: away.String(), Matches: res.Matches, Seed: seed, Rules: r.String()}
	j.HomeWin, j.HomeWinCI = share(res.HomeWins)
	j.Draw, j.DrawCI = share(res.Draws)
	j.AwayWin, j.AwayWinCI = share(res.AwayWins)
	j.HomeGoalsMean, _ = res.MeanGoals(env.Home)
	j.AwayGoalsMean, _ = res.MeanGoals(env.Away)
	if r.Knockout {
		adv, _ := share(res.HomeAdvances)
		et, _ := share(res.ExtraTime)
		so, _ := share(res.Shootouts)
		j.HomeAdvance, j.ExtraTime, j.Shootout = &adv, &et, &so
	}
	for _, d := range res.GoalDiffs() {
		j.GoalDiff = append(j.GoalDiff, goalDiffRow{d, res.GoalDiff[d]})
	}
	return j
}

func writeSimulateText(w io.Writer, home, away env.Lineup, seed uint64, r env.Rules, res env.SimResult) error {
	fmt.Fprintf(w, "%s (home) v %s (away): %s, seed %d\n", home, away, command.Plural(res.Matches, "match"), seed)
	fmt.Fprintf(w, "rules: %s\n\n", r)
	t := command.NewTable(w, 1, "result", "share", "95% interval")
	rows := []struct {
		name string
		k    int
	}{{"home win", res.HomeWins}, {"draw", res.Draws}, {"away win", res.AwayWins}}
	if r.Knockout {
		rows = append(rows, struct {
			name string
			k    int
		}{"home advances", res.HomeAdvances}, struct {
			name string
			k    int
		}{"extra time", res.ExtraTime}, struct {
			name string
			k    int
		}{"penalties", res.Shootouts})
	}
	for _, row := range rows {
		p, lo, hi := res.Share(row.k)
		if err := t.Append([]string{row.name, fmt.Sprintf("%.4f", p), fmt.Sprintf("%.4f – %.4f", lo, hi)}); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	hm, hh := res.MeanGoals(env.Home)
	am, ah := res.MeanGoals(env.Away)
	fmt.Fprintf(w, "\nmean goals: home %.3f ± %.3f, away %.3f ± %.3f (95%%)\n", hm, hh, am, ah)
	fmt.Fprintln(w, "\ngoal difference (home − away):")
	writeHistogram(w, res)
	return nil
}

// writeHistogram draws the goal-difference distribution as text bars, tails beyond ±8 pooled.
func writeHistogram(w io.Writer, res env.SimResult) {
	const tail = 8
	buckets := map[int]int{}
	for d, n := range res.GoalDiff {
		buckets[max(-tail, min(tail, d))] += n
	}
	most := 1
	for _, n := range buckets {
		most = max(most, n)
	}
	for d := -tail; d <= tail; d++ {
		n, ok := buckets[d]
		if !ok {
			continue
		}
		label := strconv.Itoa(d)
		switch d {
		case -tail:
			label = "≤" + label
		case tail:
			label = "≥" + label
		}
		share := float64(n) / float64(res.Matches)
		fmt.Fprintf(w, "%5s %6.2f%% %s\n", label, 100*share, strings.Repeat("█", (n*40+most-1)/most))
	}
}
