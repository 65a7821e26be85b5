package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/match"
)

type playOptions struct {
	rules command.RuleFlags
	vs    string
	side  string
	seed  uint64
	hints bool
}

func newPlayCmd(streams command.Streams) *cobra.Command {
	var o playOptions
	cmd := &cobra.Command{
		Use:   "play [--vs SPEC] [--side home|away] [--seed S] [--hints=false] [rule flags]",
		Short: "Play a match yourself against an agent, in the terminal (or scripted through standard input)",
		Long: `Play lets you pick your line-up (with the equilibrium mix and each line-up's value
against it as a hint), watch every throw with its dice, and decide your moves at breaks (Basic)
or your shifts after throws you win (Dynamic, --home-mode/--away-mode dynamic). Type a line-up
like 1-2-3-3-1 or its index; at a break or shift press Enter (or type keep) to keep your line-up. Wrong input
is explained and asked again. When standard input ends you keep your line-up to the end.`,
		Example: "  kingoal play --vs optimal\n  printf '1-2-3-3-1\\n' | kingoal play --vs heuristic --seed 3",
		Args:    command.ArgsBetween(0, 0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runPlay(cmd.Context(), streams, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.vs, "vs", "heuristic", "the agent you play against (see kingoal agents)")
	command.EnumFlag(f, &o.side, "side", "your side", "home", "away")
	command.SeedFlag(f, &o.seed, "dice and the agent")
	f.BoolVar(&o.hints, "hints", true, "show the solver's hints")
	o.rules.Register(f)
	return cmd
}

// human asks the player at every decision, at the terminal (match.Human's Ask).
type human struct {
	ctx   context.Context
	lines <-chan string // standard input, line by line; closed at its end
	out   io.Writer
	ended bool // standard input has ended: keep from now on
	echo  bool // input is not a terminal: show what was read
}

func (h *human) ask(q match.Prompt) (int, error) {
	obs, legal := q.Obs, q.Legal
	if h.ended {
		return q.Default(), nil
	}
	switch obs.Decision {
	case env.KickOff:
		h.kickoffHint(q)
		fmt.Fprint(h.out, "Your line-up (defence→attack, like 1-2-3-3-1, or an index 0..120): ")
	case env.Break:
		fmt.Fprintf(h.out, "\nBreak (%s, %s left): you %d, opponent %d. You play %s with %s left; the opponent plays %s.\n",
			obs.Period, command.Plural(obs.ThrowsLeft, "throw"), obs.OwnGoals, obs.OppGoals, obs.Own, command.Plural(obs.OwnMovesLeft, "move"), obs.Opp)
		h.adviceHint(q)
		fmt.Fprint(h.out, "New line-up within your moves, or Enter (or keep) to keep: ")
	case env.Shift:
		var opts []string
		for _, a := range legal.Actions() {
			if a != obs.Own.Index() {
				opts = append(opts, env.LineupAt(a).String())
			}
		}
		fmt.Fprintf(h.out, "\nYou won the throw (%s). You may shift one counter: %s\n", ballWords(obs), strings.Join(opts, ", "))
		h.adviceHint(q)
		fmt.Fprint(h.out, "Shift to, or Enter (or keep) to keep: ")
	}
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-h.lines:
		case <-h.ctx.Done(): // Ctrl-C at the prompt
			return 0, h.ctx.Err()
		}
		if !ok {
			h.ended = true
			fmt.Fprintln(h.out, "\n(input ended: keeping the line-up for the rest of the match)")
			return q.Default(), nil
		}
		text := strings.TrimSpace(line)
		if h.echo {
			fmt.Fprintln(h.out, text)
		}
		if (text == "" || strings.EqualFold(text, "keep")) && obs.Decision != env.KickOff {
			return obs.Own.Index(), nil
		}
		a, err := parseChoice(text)
		if err == nil && !legal.Has(a) {
			err = fmt.Errorf("%s is not allowed here", env.LineupAt(a))
			if obs.Decision == env.Break {
				err = fmt.Errorf("%s costs %s, you have %d", env.LineupAt(a), command.Plural(obs.Own.Moves(env.LineupAt(a)), "move"), obs.OwnMovesLeft)
			}
		}
		if err != nil {
			fmt.Fprintf(h.out, "%v — try again: ", err)
			continue
		}
		return a, nil
	}
}

func parseChoice(text string) (int, error) {
	if i, err := strconv.Atoi(text); err == nil {
		if i < 0 || i >= env.NumLineups {
			return 0, fmt.Errorf("index %d: want 0..120", i)
		}
		return i, nil
	}
	l, err := env.ParseLineup(text)
	if err != nil {
		return 0, command.NoPrefix(err)
	}
	return l.Index(), nil
}

func (h *human) kickoffHint(q match.Prompt) {
	if !q.Hints() {
		return
	}
	hint, err := q.KickOffHint()
	if err != nil {
		fmt.Fprintf(h.out, "(no hint: %v)\n", err)
		return
	}
	var mix []string
	for _, w := range hint.Mix {
		mix = append(mix, fmt.Sprintf("%s %.0f%%", w.Lineup, 100*w.Prob))
	}
	fmt.Fprintf(h.out, "Hint: the equilibrium mix is %s. Best line-ups against it (%s payoff):\n", strings.Join(mix, ", "), hint.Payoff)
	for _, r := range hint.Best {
		fmt.Fprintf(h.out, "  %s  %s (win %.3f, draw %.3f)\n", r.Lineup, command.Signedf(r.Payoff, 4), r.HomeWin, r.Draw)
	}
}

func (h *human) adviceHint(q match.Prompt) {
	if to, ok := q.Advice(); ok {
		fmt.Fprintf(h.out, "Hint: the solver (best response if the opponent keeps %s) says: %s\n", q.Obs.Opp, env.DescribeChange(q.Obs.Own, to))
	}
}

// readLines sends in's lines on the channel it returns, which it closes at the end of in,
// so that a prompt can wait for a line and for Ctrl-C at once.
func readLines(in io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return lines
}

func runPlay(ctx context.Context, streams command.Streams, o playOptions) error {
	r, err := o.rules.Rules()
	if err != nil {
		return err
	}
	me, err := command.ParseSide("--side", o.side)
	if err != nil {
		return err
	}
	h := &human{ctx: ctx, lines: readLines(streams.In), out: streams.Out, echo: !command.IsTerminalReader(streams.In)}
	header := sync.OnceFunc(func() { // once the agents are built: a bad spec prints only its error
		fmt.Fprintf(streams.Out, "You play %s against %s (seed %d).\nrules: %s\n\n", me, o.vs, o.seed, r)
	})
	m := match.Human{Rules: r, Opponent: o.vs, Side: me, Seed: o.seed, Hints: o.hints}
	ask := func(q match.Prompt) (int, error) { header(); return h.ask(q) }
	end, err := m.Play(ctx, ask, func(e env.Event) { header(); fmt.Fprintln(streams.Out, e.Describe()) })
	var bad match.SpecError
	switch {
	case errors.As(err, &bad):
		return command.Usage(bad.Err)
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("play: interrupted; the match is abandoned: %w", ctx.Err())
	case err != nil:
		return fmt.Errorf("play: %w", err)
	}
	outcome := "a draw"
	switch end.Result(me) {
	case 1:
		outcome = "you win"
	case -1:
		outcome = "you lose"
	}
	fmt.Fprintf(streams.Out, "\nFinal score %d-%d (you are %s): %s.\n", end.Goals(env.Home), end.Goals(env.Away), me, outcome)
	return nil
}

// ballWords says where the ball is in the transcript's numbering (home's: 1 is home's
// defence) and, for the away side, in its own too (1 its defence): the two differ.
func ballWords(obs env.Observation) string {
	if obs.Player == env.Home {
		return fmt.Sprintf("ball in sector %d", obs.Ball)
	}
	return fmt.Sprintf("ball in sector %d as the transcript numbers it from home's goal: your sector %d", env.HomeSector(env.Away, obs.Ball), obs.Ball)
}
