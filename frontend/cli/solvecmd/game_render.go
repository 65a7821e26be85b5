package solvecmd

import (
	"fmt"
	"strings"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver/game"
)

// mixWords writes a mix as changes from the current line-up: "keep 0.62 · 2→5 0.38".
func mixWords(from env.Lineup, mix []env.Weighted) string {
	parts := make([]string, len(mix))
	for i, w := range mix {
		parts[i] = fmt.Sprintf("%s %.2f", strings.Join(env.MovedCounters(from, w.Lineup), " "), w.Prob)
	}
	return strings.Join(parts, " · ")
}

// renderKickOffMix prints both sides' kick-off mixes under a title.
func renderKickOffMix(io command.Streams, title string, home, away []command.WeightedJSON) error {
	fmt.Fprintln(io.Out, title)
	t := command.NewTable(io.Out, 2, "side", "line-up", "probability")
	var rows [][]string
	for _, side := range []struct {
		name string
		mix  []command.WeightedJSON
	}{{"home", home}, {"away", away}} {
		for _, w := range side.mix {
			rows = append(rows, []string{side.name, w.Lineup, fmt.Sprintf("%.6f", w.Prob)})
		}
	}
	return command.AppendRows(t, rows)
}

func renderGame(io command.Streams, rep GameReport) error {
	st := rep.Stats
	fmt.Fprintf(io.Out, "substitution game, payoff %s\nrules: %s\n\n", rep.Payoff, rep.Rules)
	took := fmt.Sprintf("solved in %.1f s", rep.Seconds)
	if rep.Table != "" {
		took = fmt.Sprintf("read from %s in %.1f s", rep.Table, rep.Seconds)
	}
	fmt.Fprintf(io.Out, "%d break states, %d stage games (%d pure saddles, %d mixed, by LP), %d one-sided; %s\n",
		st.BreakStates, st.StageGames, st.Saddles, st.LPs, st.OneSided, took)
	when := ""
	if rep.Table != "" && !rep.Reverified {
		when = " (run by the solve that wrote the table; --verify runs it again)"
	}
	renderValue(io, rep.Value, rep.Scale, rep.Verification, when)
	if err := renderKickOffMix(io, "kick-off mix (both budgets full):", rep.KickOffHome, rep.KickOffAway); err != nil {
		return err
	}
	var rows [][]string
	fmt.Fprintln(io.Out, "\nthe right to substitute: the value to home of the starting line-ups' equilibrium, then equilibrium play, by who may substitute:")
	t := command.NewTable(io.Out, 1, "who may substitute", "value to home")
	for _, w := range rep.Worth {
		rows = append(rows, []string{w.Who, fmt.Sprintf("%+.6f", w.Value)})
	}
	if err := command.AppendRows(t, rows); err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "\nequilibrium substitutions for %s (home) v %s (away), nobody has moved yet (a → b: a counter from sector a to b):\n",
		rep.KickOffHome[0].Lineup, rep.KickOffAway[0].Lineup)
	t = command.NewTable(io.Out, 3, "situation", "home plays", "away plays", "value")
	rows = rows[:0]
	for _, s := range rep.Summary {
		rows = append(rows, []string{s.Situation, s.Home, s.Away, command.Signedf(s.Value, 4)})
	}
	return command.AppendRows(t, rows)
}

// renderValue writes a game's value to home and its best-response check, naming the scale
// both are on (the payoff's: P(win) − P(loss) for win-loss, where the fair game is 0).
func renderValue(io command.Streams, value float64, scale string, c *game.Check, when string) {
	fmt.Fprintf(io.Out, "value to home: %s (%s)\n", command.SignedFixed(value, 9), scale)
	if c == nil {
		fmt.Fprintf(io.Out, "best-response check: not run\n\n")
		return
	}
	fmt.Fprintf(io.Out, "best-response check%s: home's best response %+.3g, away's %+.3g, exploitability %.3g (on the value's scale) — verified\n\n",
		when, c.HomeBest, c.AwayBest, c.Exploitability)
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
