package solvecmd

import (
	"context"
	"fmt"
	"math"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/charts"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

type solvePolicyOptions struct {
	force      bool
	rules      command.RuleFlags
	home, away string
	player     string
	objective  string
	out, png   string
	json       bool
}

func newSolvePolicyCmd(io command.Streams) *cobra.Command {
	var o solvePolicyOptions
	cmd := &cobra.Command{
		Use:   "policy [--home L] [--away L] [--player home|away] [--objective O] [rule flags] [--out FILE] [--png FILE] [--json]",
		Short: "The optimal substitution (Basic) or shift (Dynamic) policy against an opponent who keeps its line-up",
		Long: `Policy computes, by backward induction, what the player should do at every break
(Basic mode: moves within the budget) or after every throw won (Dynamic mode, --home-mode
or --away-mode dynamic: one adjacent shift), against an opponent who keeps its line-up.
Objectives: win (P(win)), points (expected league points), win-draw (P(win) + ½P(draw)),
advance (knockout), win-loss (P(win) − P(loss)), goal-diff (expected goal difference). It prints the value against never changing, a summary of what to do
when, and writes the whole policy as Parquet (--out, schema policy/1) and a PNG of the
recommended change by time and score (--png).`,
		Example: `  kingoal solve policy --home 2-2-2-2-2 --away 1-3-3-2-1
  kingoal solve policy --home-mode dynamic --objective points --out policy.parquet --png policy.png`,
		Args: command.ArgsBetween(0, 0, "no arguments (line-ups go in --home and --away)"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runSolvePolicy(cmd.Context(), io, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.home, "home", env.DefaultOpponent, "home's starting line-up")
	f.StringVar(&o.away, "away", "1-3-3-2-1", "away's starting line-up")
	command.EnumFlag(f, &o.player, "player", "whose policy to compute (the other keeps its line-up)", "home", "away")
	command.EnumFlag(f, &o.objective, "objective", "what the policy maximises (win-loss: P(win) − P(loss))", "win", "points", "win-draw", "advance", "win-loss", "goal-diff")
	f.StringVar(&o.out, "out", "", "write the full policy to this Parquet file")
	f.StringVar(&o.png, "png", "", "write a PNG of the recommended change by time and score")
	command.JSONFlag(f, &o.json, "the result")
	f.BoolVar(&o.force, "force", false, "replace --out and --png if they exist")
	o.rules.Register(f)
	return cmd
}

// recommendation is one line of the readable summary.
type recommendation struct {
	Situation string  `json:"situation"`  // the situation, in words
	Action    string  `json:"action"`     // the line-up to play
	Value     float64 `json:"value"`      // the value of playing it
	KeepValue float64 `json:"keep_value"` // the value of keeping the line-up now
}

// policyJSON is what solve policy --json prints: the optimal policy of one side against an
// opponent who keeps its line-up, its value and readable recommendations (the whole policy
// is --out's Parquet, policy/1).
type policyJSON struct {
	Player          string           `json:"player"`          // home or away: the side that adapts
	Mode            string           `json:"mode"`            // basic or dynamic
	Objective       string           `json:"objective"`       // what the policy maximises (--objective)
	Rules           string           `json:"rules"`           // the rules in words
	Own             string           `json:"own"`             // the player's starting line-up
	Opponent        string           `json:"opponent"`        // the opponent's line-up, which it keeps
	Value           float64          `json:"value"`           // the optimal policy's value from the kick-off
	NoChangeValue   float64          `json:"no_change_value"` // the value of never changing
	Recommendations []recommendation `json:"recommendations"` // readable recommendations at typical situations
}

// solvedPolicy is what the command needs of either kind of policy.
type solvedPolicy interface {
	Value() float64
	NoChangeValue() float64
}

func runSolvePolicy(ctx context.Context, io command.Streams, o solvePolicyOptions) error {
	r, err := o.rules.Rules()
	if err != nil {
		return err
	}
	me, err := command.ParseSide("--player", o.player)
	if err != nil {
		return err
	}
	obj, err := odds.ParseObjective(o.objective)
	if err != nil {
		return command.FlagError("--objective", err)
	}
	if obj == odds.ObjectiveAdvance && !r.Knockout {
		return command.Usagef("--objective advance needs --knockout")
	}
	release, err := command.ClaimOutputs(map[string]string{"--out": o.out, "--png": o.png}, o.force)
	if err != nil {
		return err
	}
	defer release()
	lineups := [2]env.Lineup{}
	for p, s := range [2]string{o.home, o.away} {
		if lineups[p], err = env.ParseLineup(s); err != nil {
			return command.FlagError("--"+env.Player(p).String(), err)
		}
	}
	own, opp := lineups[me], lineups[me.Other()]
	var pol solvedPolicy
	var recs []recommendation
	var rows []datasets.PolicyRow
	var chart charts.Heatmap
	var describe func() // the summary, rows and chart of the solved policy
	if r.Modes[me] == env.Dynamic {
		dp, err := policy.SolveDynamic(policy.DynamicProblem{Rules: r, Player: me, Own: own, Opponent: opp, Objective: obj, Context: ctx})
		if err != nil {
			return err
		}
		describe = func() { pol, recs, rows, chart = dp, dynamicSummary(dp, r), dynamicRows(dp, r), dynamicChart(dp, r) }
	} else {
		bp, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Player: me, Own: own, Opponent: opp, Objective: obj, Context: ctx})
		if err != nil {
			return err
		}
		describe = func() { pol, recs, rows, chart = bp, basicSummary(bp, r), basicRows(bp, r), basicChart(bp, r) }
	}
	// describe reads every state of the policy (seconds at long halves) without looking at
	// ctx: Ctrl-C abandons it.
	if err := command.Interruptible(ctx, func() error { describe(); return nil }); err != nil {
		return err
	}
	if o.out != "" {
		if err := datasets.WriteParquet(o.out, datasets.PolicySchema, rows); err != nil {
			return err
		}
		fmt.Fprintf(io.ErrOut, "kingoal: wrote %s (%d rows)\n", o.out, len(rows))
	}
	if o.png != "" {
		if err := chart.WritePNG(o.png); err != nil {
			return err
		}
		fmt.Fprintf(io.ErrOut, "kingoal: wrote %s\n", o.png)
	}
	if o.json {
		return command.WriteJSON(io.Out, policyJSON{me.String(), r.Modes[me].String(), obj.String(), r.String(), own.String(), opp.String(), pol.Value(), pol.NoChangeValue(), recs})
	}
	fmt.Fprintf(io.Out, "optimal %s policy for %s (%s) against %s keeping %s; objective %s\nrules: %s\n\n",
		r.Modes[me], me, own, me.Other(), opp, obj, r)
	fmt.Fprintf(io.Out, "value %.6f, never changing %.6f (gain %+.6f)\n\n", pol.Value(), pol.NoChangeValue(), pol.Value()-pol.NoChangeValue())
	t := command.NewTable(io.Out, 2, "situation", "do", "value", "if you keep")
	var lines [][]string
	for _, rc := range recs {
		lines = append(lines, []string{rc.Situation, rc.Action, fmt.Sprintf("%.4f", rc.Value), fmt.Sprintf("%.4f", rc.KeepValue)})
	}
	return command.AppendRows(t, lines)
}

// basicSummary: at half time and after goals late on, with the starting line-up and the
// whole budget, what to do at each score.
func basicSummary(bp *policy.BasicPolicy, r env.Rules) []recommendation {
	own, moves := bp.Problem.Own, r.MoveBudget()
	var out []recommendation
	for _, when := range command.SummaryTimes(r) {
		for d := -2; d <= 2; d++ {
			s := policy.BreakState{Period: when.Per, ThrowsLeft: when.Left, GoalDiff: d, Own: own, MovesLeft: moves}
			to, err1 := bp.Best(s)
			v, err2 := bp.ValueAt(s)
			s.MovesLeft = 0
			keep, err3 := bp.ValueAt(s)
			if err1 != nil || err2 != nil || err3 != nil {
				continue
			}
			out = append(out, recommendation{fmt.Sprintf("%s, %s", when.Name, command.ScoreWord(d)), env.DescribeChange(own, to), v, keep})
		}
	}
	return out
}

// basicRows lists every break state reachable from the starting line-up, |difference| ≤ 10.
func basicRows(bp *policy.BasicPolicy, r env.Rules) []datasets.PolicyRow {
	var rows []datasets.PolicyRow
	budget := r.MoveBudget()
	for _, per := range r.Periods() {
		for t := 1; t <= r.PeriodLength(per); t++ {
			for d := -10; d <= 10; d++ {
				for l := range env.NumLineups {
					cur := env.LineupAt(l)
					for m := 0; m <= budget-bp.Problem.Own.Moves(cur); m++ {
						s := policy.BreakState{Period: per, ThrowsLeft: t, GoalDiff: d, Own: cur, MovesLeft: m}
						to, err := bp.Best(s)
						if err != nil {
							continue
						}
						v, _ := bp.ValueAt(s)
						s.MovesLeft = 0
						keep, _ := bp.ValueAt(s)
						rows = append(rows, datasets.PolicyRow{Kind: "basic", Period: per.String(), ThrowsLeft: int32(t), GoalDiff: int32(d),
							Lineup: cur.String(), MovesLeft: int32(m), Action: to.String(), Value: v, KeepValue: keep})
					}
				}
			}
		}
	}
	return rows
}

const chartDiffs = 3 // goal differences −3..+3 in the charts

// basicChart: the recommended change from the starting line-up with the whole budget, at a
// break after each possible time of the regular match, by score.
func basicChart(bp *policy.BasicPolicy, r env.Rules) charts.Heatmap {
	own, half := bp.Problem.Own, r.HalfThrows()
	return charts.Heatmap{
		Title:    fmt.Sprintf("Recommended change from %s (%s left): counters × sectors moved forward", own, command.Plural(r.MoveBudget(), "move")),
		XLabel:   "throws played when the break happens",
		YLabel:   "goal difference (own − opponent)",
		BarLabel: "attack (+) / defence (−); grey: keep, white: no data",
		Grid: charts.Grid{Cols: 2*half - 1, Rows: 2*chartDiffs + 1, ColX: charts.OffsetBy(1), RowY: charts.OffsetBy(-chartDiffs), At: func(c, row int) float64 {
			played := c + 1
			per, left := env.FirstHalf, half-played
			if played >= half {
				per, left = env.SecondHalf, 2*half-played
			}
			to, err := bp.Best(policy.BreakState{Period: per, ThrowsLeft: left, GoalDiff: row - chartDiffs, Own: own, MovesLeft: r.MoveBudget()})
			if err != nil {
				return math.NaN()
			}
			return command.Attack(own, to)
		}},
	}
}

// dynamicSummary: after winning a throw that takes the ball to own sector 4 (or scoring),
// early, at half time and late, by score.
func dynamicSummary(dp *policy.DynamicPolicy, r env.Rules) []recommendation {
	own, me := dp.Problem.Own, dp.Problem.Player
	var out []recommendation
	for _, when := range []struct {
		name string
		per  env.Period
		left int
		ball int // own coordinates
	}{{"early, ball won into sector 4", env.FirstHalf, r.HalfThrows() - 1, 4}, {"second half starts", env.SecondHalf, r.HalfThrows(), 3},
		{fmt.Sprintf("%s left, ball won into sector 4", command.Plural(max(1, r.HalfThrows()/9), "throw")), env.SecondHalf, max(1, r.HalfThrows()/9), 4}} {
		for d := -1; d <= 1; d++ {
			s := policy.ShiftState{Period: when.per, ThrowsLeft: when.left, Ball: env.HomeSector(me, when.ball), GoalDiff: d, Own: own, Possession: 1}
			to, v, err := dp.Best(s)
			keep, err2 := dp.ValueAt(s)
			if err != nil || err2 != nil {
				continue
			}
			out = append(out, recommendation{fmt.Sprintf("%s, %s", when.name, command.ScoreWord(d)), env.DescribeChange(own, to), v, keep})
		}
	}
	return out
}

// rowDiffs bounds the goal differences of a Dynamic policy's rows.
const rowDiffs = 5

// dynamicRows lists every throw state with |difference| ≤ rowDiffs and the best shift before it.
func dynamicRows(dp *policy.DynamicPolicy, r env.Rules) []datasets.PolicyRow {
	me := dp.Problem.Player
	poss := []int{0}
	if r.DynamicTrigger == env.TriggerTurnover {
		poss = []int{-1, 0, 1}
	}
	// Millions of rows at long halves: made in one allocation, the line-ups' names written
	// once. Growing the slice by append copied hundreds of MB at a time, which the runtime
	// cannot preempt, and with the garbage of a name a row it held off Ctrl-C past a second.
	throws := 0
	for _, per := range r.Periods() {
		throws += r.PeriodLength(per)
	}
	rows := make([]datasets.PolicyRow, 0, throws*(2*rowDiffs+1)*env.Sectors*len(poss)*env.NumLineups)
	var names [env.NumLineups]string
	for l := range names {
		names[l] = env.LineupAt(l).String()
	}
	for _, per := range r.Periods() {
		for t := 1; t <= r.PeriodLength(per); t++ {
			for d := -rowDiffs; d <= rowDiffs; d++ {
				for ball := 1; ball <= env.Sectors; ball++ {
					for _, ps := range poss {
						for l := range env.NumLineups {
							s := policy.ShiftState{Period: per, ThrowsLeft: t, Ball: env.HomeSector(me, ball), GoalDiff: d, Own: env.LineupAt(l), Possession: ps}
							to, v, err := dp.Best(s)
							if err != nil {
								continue
							}
							keep, _ := dp.ValueAt(s)
							rows = append(rows, datasets.PolicyRow{Kind: "dynamic", Period: per.String(), ThrowsLeft: int32(t), GoalDiff: int32(d),
								Ball: int32(ball), Possession: int32(ps), Lineup: names[l], Action: names[to.Index()], Value: v, KeepValue: keep})
						}
					}
				}
			}
		}
	}
	return rows
}

// dynamicChart: the best shift from the starting line-up after winning the ball into own
// sector 3, by time and score.
func dynamicChart(dp *policy.DynamicPolicy, r env.Rules) charts.Heatmap {
	own, half := dp.Problem.Own, r.HalfThrows()
	return charts.Heatmap{
		Title:    fmt.Sprintf("Best shift from %s after winning the ball into midfield: sectors moved forward", own),
		XLabel:   "throws played",
		YLabel:   "goal difference (own − opponent)",
		BarLabel: "attack (+) / defence (−); grey: keep, white: no data",
		Grid: charts.Grid{Cols: 2 * half, Rows: 2*chartDiffs + 1, ColX: charts.Identity, RowY: charts.OffsetBy(-chartDiffs), At: func(c, row int) float64 {
			per, left := env.FirstHalf, half-c
			if c >= half {
				per, left = env.SecondHalf, 2*half-c
			}
			to, _, err := dp.Best(policy.ShiftState{Period: per, ThrowsLeft: left, Ball: env.KickOffSector, GoalDiff: row - chartDiffs, Own: own, Possession: 1})
			if err != nil {
				return math.NaN()
			}
			return command.Attack(own, to)
		}},
	}
}
