package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

type evalOptions struct {
	rules     command.RuleFlags
	vs        string
	matches   int
	seed      uint64
	json      bool
	noExploit bool
}

func newEvalCmd(io command.Streams) *cobra.Command {
	var o evalOptions
	cmd := &cobra.Command{
		Use:   "eval SPEC [--vs A;B;C] [-n N] [--seed S] [rule flags] [--json]",
		Short: "Score an agent against reference opponents, with its regret against the solver's optimum",
		Long: `Eval reports the agent's win/draw/loss and score (P(win) + ½ P(draw), both sides)
against each reference opponent. Against fixed:L (both players Basic) it also reports the
optimum's score — the best kick-off line-up with the optimal policy after it — and the
regret, the optimum minus the agent. A deterministic agent (fixed, heuristic, optimal with
a fixed kick-off, qlearning) is scored exactly; others by N matches with 95% intervals.
Opponent specs are separated by ';' because specs themselves contain ','.

It then prints the agent's exploitability: what a best response scores against it beyond the
game's value ½ (averaged over both sides) — exact for Basic agents whose choices depend on
the break state alone: fixed, heuristic, qlearning and table (a saved policy) at any rules whose best responses fit
in 12 GiB, and random where the work fits (10-throw halves, one move) — the best response
solved against the agent by SolveBasic where its line-ups change few ways, else both best
responses by one backward induction over every break state with the agent's choice read at
each (a Q-table at the default rules: ~8 minutes, ~3.6 GB) — nash (the best response to
its mixed strategy), and optimal and equilibrium up to 20-throw halves with one move (their
table read off one solve per opponent line-up). Otherwise (mcts, uct, optimal and
equilibrium beyond, Dynamic rules) a Monte Carlo lower bound
with its 95% interval over N matches, clamped at 0 (the exploiter is optimal starting from
the best reply to the agent's kick-off mix). A zoo policy (table:file=DIR/KEY.kgp or
network:file=DIR/KEY.kgn with its card DIR/KEY.card.json, under the card's rules) shows the
card's exact figure, measured as it learnt, once the file's SHA-256 matches the card's.
--no-exploitability skips it.`,
		Example: `  kingoal eval heuristic
  kingoal eval "mcts:iters=500" --vs "fixed:2-2-2-2-2;random" -n 400`,
		Args: command.ArgsBetween(1, 1, "one agent SPEC"),
		RunE: func(cmd *cobra.Command, args []string) error { return runEval(cmd.Context(), io, o, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&o.vs, "vs", "fixed:2-2-2-2-2;fixed:1-3-3-2-1;heuristic", "reference opponents, separated by ';' (the solver-backed agents re-solve for every new opponent line-up, so against random they take about 0.3 s a match)")
	f.IntVarP(&o.matches, "matches", "n", 400, "matches per opponent when scoring by Monte Carlo")
	command.SeedFlag(f, &o.seed, "")
	command.JSONFlag(f, &o.json, "the reports")
	f.BoolVar(&o.noExploit, "no-exploitability", false, "do not compute the agent's exploitability")
	o.rules.Register(f)
	return cmd
}

func runEval(ctx context.Context, io command.Streams, o evalOptions, spec string) error {
	r, err := o.rules.Rules()
	if err != nil {
		return err
	}
	if o.matches <= 0 {
		return command.Usagef("-n %d: want at least 1", o.matches)
	}
	newAgent := func() (agents.Agent, error) {
		return agents.New(spec, agents.Setup{Rules: r, Context: ctx, Notify: command.Notifier(io.ErrOut)})
	}
	if _, err := newAgent(); err != nil {
		return command.Usage(err)
	}
	var opps []string
	for _, s := range command.SplitSpecs(o.vs) {
		if _, err := agents.New(s, agents.Setup{Rules: r, Context: ctx, Notify: command.Notifier(io.ErrOut)}); err != nil {
			return command.Usage(err)
		}
		opps = append(opps, s)
	}
	if len(opps) == 0 {
		return command.Usagef("--vs: no opponents")
	}
	fmt.Fprintf(io.ErrOut, "kingoal: evaluating %s against %s, seed %d\n", spec, command.Plural(len(opps), "opponent"), o.seed)
	bar := command.LazyProgress(io.ErrOut, "opponents")
	bar.Set(0, len(opps))
	var known *exploit.Exploitability
	if e, ok := command.CardFigures(io, []string{spec}, r, o.noExploit)[spec]; ok {
		known = &e
	}
	ev, err := exploit.Evaluate(ctx, newAgent, opps, r, exploit.EvalOptions{Matches: o.matches, Seed: o.seed, NoExploitability: o.noExploit, Known: known,
		Evaluated: bar.Set,
		Measuring: func() {
			bar.Finish()
			fmt.Fprintf(io.ErrOut, "kingoal: exploitability of %s (exact where it can be; else %s)\n", spec, command.Plural(o.matches, "match"))
		}})
	bar.Finish()
	switch {
	case errors.Is(err, context.Canceled) && len(ev.Reports) < len(opps):
		return fmt.Errorf("eval: interrupted after %d of %d opponents (nothing printed: a partial evaluation is not a result): %w", len(ev.Reports), len(opps), err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("eval: interrupted while measuring the exploitability (nothing printed): %w", err)
	case err != nil:
		return err
	}
	if o.json {
		return command.WriteJSON(io.Out, ev)
	}
	return writeEvalTable(io.Out, spec, r, ev.Reports, ev.Exploitability)
}

// writeEvalTable prints the reports as a table, and the exploitability under it.
func writeEvalTable(w io.Writer, spec string, r env.Rules, reps []exploit.Report, expl *exploit.Exploitability) error {
	fmt.Fprintf(w, "%s\nrules: %s\n\n", spec, r)
	t := command.NewTable(w, 2, "opponent", "method", "win", "draw", "loss", "score", "best response", "regret")
	var rows [][]string
	for _, rp := range reps {
		method, score := "exact", fmt.Sprintf("%.4f", rp.Score)
		if !rp.Exact {
			method, score = command.Plural(rp.Matches, "match"), fmt.Sprintf("%.4f ± %.4f", rp.Score, rp.ScoreCI)
		}
		best, regret := "—", "—"
		if !math.IsNaN(rp.BestResponse) {
			best, regret = fmt.Sprintf("%.4f", rp.BestResponse), fmt.Sprintf("%.4f", rp.Regret)
		}
		rows = append(rows, []string{rp.Opponent, method, fmt.Sprintf("%.4f", rp.Win), fmt.Sprintf("%.4f", rp.Draw), fmt.Sprintf("%.4f", rp.Loss), score, best, regret})
	}
	if err := command.AppendRows(t, rows); err != nil {
		return err
	}
	if expl != nil {
		fmt.Fprintf(w, "\nexploitability: %s — %s (%s)\n", expl.String(), expl.Method, exploit.Scale)
	}
	return nil
}
