package solvecmd

import (
	"context"
	"fmt"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/cli/command"
	"github.com/kingoal/kingoal/solver/dyngame"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// dynamicGameReport is what solve game prints (and --json writes) when a side plays Dynamic.
type dynamicGameReport struct {
	Payoff       string                 `json:"payoff"`               // win-loss, goal-diff, points or advance
	Scale        string                 `json:"scale"`                // what the value and the check measure (the payoff's scale)
	Rules        string                 `json:"rules"`                // the rules in words
	Modes        [2]string              `json:"modes"`                // home's, away's
	Trigger      string                 `json:"dynamic_trigger"`      // win or turnover: what earns a Dynamic shift
	Value        float64                `json:"value"`                // the game's value to home
	KickOffHome  []command.WeightedJSON `json:"kickoff_home"`         // home's equilibrium mix of starting line-ups
	KickOffAway  []command.WeightedJSON `json:"kickoff_away"`         // away's
	Decisions    []dynamicSituation     `json:"decisions"`            // equilibrium decisions in typical situations
	Stats        game.Stats             `json:"stats"`                // the solve's size
	Seconds      float64                `json:"seconds"`              // the solve with its check (with --in: reading the table)
	Table        string                 `json:"table,omitempty"`      // the table read instead of solving (--in)
	Verification *game.Check            `json:"verification"`         // nil: not run (with --in: the check its solve stored, or with --verify the one run again)
	Reverified   bool                   `json:"reverified,omitempty"` // Verification ran on the loaded table (--in --verify), not stored by its solve
}

// dynamicSituation is one decision of the equilibrium, for the summary.
type dynamicSituation struct {
	Situation string `json:"situation"` // the decision point, in words
	Side      string `json:"side"`      // home or away: who decides
	Plays     string `json:"plays"`     // its equilibrium choice, as a mix of changes
}

// runDynamicGame is solve game when either side plays Dynamic: the game is solved, its
// table written (--out FILE.kgt) and read back, and summarised.
func runDynamicGame(ctx context.Context, io command.Streams, o solveGameOptions, r env.Rules, payoff lineup.Payoff) error {
	table, parquet, err := gameOutputs(o.out)
	if err != nil {
		return err
	}
	if parquet != "" || o.png != "" {
		return command.Usagef("--out FILE.parquet and --png are not available yet for a game with a Dynamic side (--out FILE.kgt is)")
	}
	release, err := command.ClaimOutputs(map[string]string{"--out": table}, o.force)
	if err != nil {
		return err
	}
	defer release()
	size, err := dyngame.Estimate(r, payoff)
	if err != nil {
		return command.Usage(err)
	}
	limit, peak := int64(o.maxGiB*(1<<30)), size.Peak(!o.noVerify)
	if peak > limit {
		return command.Usagef("solve game: the game with a Dynamic side under these rules holds %d throw states and needs ~%.1f GiB at its peak, over --max-gib %v",
			size.ThrowStates, float64(peak)/(1<<30), o.maxGiB)
	}
	what := "solving the substitution game with a Dynamic side and both best responses"
	if o.noVerify {
		what = "solving the substitution game with a Dynamic side"
	}
	fmt.Fprintf(io.ErrOut, "kingoal: %s: %d throw states, ~%.0f MiB at the peak\n", what, size.ThrowStates, float64(peak)/(1<<20))
	start := time.Now()
	bar := command.NewProgress(io.ErrOut, size.Layers, "layers")
	p := game.Problem{Rules: r, Payoff: payoff, Context: ctx, Workers: o.workers, MaxBytes: limit,
		Verify: !o.noVerify, Progress: func(done, _ int) { _ = bar.Set(done) }}
	var g *dyngame.Game
	if table != "" { // the table is committed only for a solve that passed its check
		g, err = dyngame.SolveToFile(table, p)
	} else if g, err = dyngame.Solve(p); err == nil {
		err = game.Checked(g)
	}
	_ = bar.Finish()
	if err != nil {
		return err
	}
	return finishDynamicGame(io, o, newDynamicGameReport(g, time.Since(start)))
}

// runLoadedDynamicGame is solve game --in with the table of a game with a Dynamic side.
func runLoadedDynamicGame(ctx context.Context, io command.Streams, o solveGameOptions) error {
	if o.out != "" || o.png != "" {
		return command.Usagef("--out and --png are not available for the table of a game with a Dynamic side")
	}
	start := time.Now()
	g, err := dyngame.LoadFile(ctx, o.in)
	if err != nil {
		return fmt.Errorf("--in %s: %w", o.in, err)
	}
	rep := newDynamicGameReport(g, time.Since(start))
	rep.Table = o.in
	if o.verify {
		bar := command.NewProgress(io.ErrOut, g.Stats().Layers, "layers")
		c, err := dyngame.Verify(ctx, g, func(done, _ int) { _ = bar.Set(done) })
		_ = bar.Finish()
		if err != nil {
			return fmt.Errorf("--in %s --verify: %w", o.in, err)
		}
		rep.Verification, rep.Reverified = &c, true
		if !c.Verified() {
			return notAnEquilibrium(o.in, c)
		}
	}
	return finishDynamicGame(io, o, rep)
}

func finishDynamicGame(io command.Streams, o solveGameOptions, rep dynamicGameReport) error {
	if o.json {
		return command.WriteJSON(io.Out, rep)
	}
	return renderDynamicGame(io, rep)
}

func newDynamicGameReport(g *dyngame.Game, took time.Duration) dynamicGameReport {
	p := g.Problem
	ko := g.KickOff()
	rep := dynamicGameReport{Payoff: p.Payoff.String(), Scale: p.Payoff.Scale(), Rules: p.Rules.String(), Modes: [2]string{p.Rules.Modes[env.Home].String(), p.Rules.Modes[env.Away].String()},
		Trigger: p.Rules.DynamicTrigger.String(), Value: g.Value(), KickOffHome: command.ToWeightedJSON(ko.Home), KickOffAway: command.ToWeightedJSON(ko.Away),
		Stats: g.Stats(), Seconds: took.Seconds(), Decisions: dynamicGameSummary(g)}
	if c, ok := g.Check(); ok {
		rep.Verification = &c
	}
	return rep
}

// dynamicGameSummary: for the likeliest starting pair, what each side does at the summary's
// times and scores — a Dynamic side's shift after winning a throw that leaves the ball in
// midfield, a Basic side's choice at the break after a goal.
func dynamicGameSummary(g *dyngame.Game) []dynamicSituation {
	r, ko := g.Problem.Rules, g.KickOff()
	start := [2]env.Lineup{ko.Home[0].Lineup, ko.Away[0].Lineup}
	var out []dynamicSituation
	for _, when := range command.SummaryTimes(r) {
		for d := -1; d <= 1; d++ {
			for p := env.Home; p <= env.Away; p++ {
				to, at, err := g.Typical(p, when.Per, when.Left, d, start[env.Home], start[env.Away])
				if err != nil {
					continue // a score no match reaches by then
				}
				situation := fmt.Sprintf("%s, home %s", when.Name, command.ScoreWord(d))
				if r.Modes[p] == env.Dynamic {
					situation = fmt.Sprintf("%s, %s left, home %s: %s wins a throw to midfield", when.Per, command.Plural(at, "throw"), command.ScoreWord(d), p)
				}
				out = append(out, dynamicSituation{situation, p.String(), env.DescribeChange(start[p], to)})
			}
		}
	}
	return out
}

func renderDynamicGame(io command.Streams, rep dynamicGameReport) error {
	st := rep.Stats
	fmt.Fprintf(io.Out, "substitution game, payoff %s, home %s v away %s (shift on %s)\nrules: %s\n\n", rep.Payoff, rep.Modes[0], rep.Modes[1], rep.Trigger, rep.Rules)
	took, when := fmt.Sprintf("solved in %.1f s", rep.Seconds), ""
	if rep.Table != "" {
		took = fmt.Sprintf("read from %s in %.1f s", rep.Table, rep.Seconds)
		if !rep.Reverified {
			when = " (run by the solve that wrote the table; --verify runs it again)"
		}
	}
	fmt.Fprintf(io.Out, "%d throw states, %d decisions (shifts and breaks, each a max or a min), 1 kick-off matrix game; %s\n",
		st.BreakStates, st.OneSided, took)
	renderValue(io, rep.Value, rep.Scale, rep.Verification, when)
	if err := renderKickOffMix(io, "kick-off mix:", rep.KickOffHome, rep.KickOffAway); err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "\nequilibrium decisions for %s (home) v %s (away), nothing changed yet:\n", rep.KickOffHome[0].Lineup, rep.KickOffAway[0].Lineup)
	t := command.NewTable(io.Out, 3, "situation", "side", "plays")
	var rows [][]string
	for _, s := range rep.Decisions {
		rows = append(rows, []string{s.Situation, s.Side, s.Plays})
	}
	return command.AppendRows(t, rows)
}
