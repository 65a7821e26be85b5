package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
)

type playOptions struct {
	rules ruleFlags
	vs    string
	side  string
	seed  uint64
	hints bool
}

func newPlayCmd(streams Streams) *cobra.Command {
	var o playOptions
	cmd := &cobra.Command{
		Use:   "play [--vs SPEC] [--side home|away] [--seed S] [--hints=false] [rule flags]",
		Short: "Play a match yourself against an agent, in the terminal (or scripted through standard input)",
		Long: `Play lets you pick your line-up (with the equilibrium mix and each line-up's value
against it as a hint), watch every throw with its dice, and decide your moves at breaks (Basic)
or your shifts after throws you win (Dynamic, --home-mode/--away-mode dynamic). Type a line-up
like 1-2-3-3-1 or its index; at a break or shift press Enter to keep your line-up. Wrong input
is explained and asked again. When standard input ends you keep your line-up to the end.`,
		Example: "  kingoal play --vs optimal\n  printf '1-2-3-3-1\\n' | kingoal play --vs heuristic --seed 3",
		Args:    argsBetween(0, 0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runPlay(cmd.Context(), streams, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.vs, "vs", "heuristic", "the agent you play against (see kingoal agents)")
	enumFlag(f, &o.side, "side", "your side", "home", "away")
	seedFlag(f, &o.seed, "dice and the agent")
	f.BoolVar(&o.hints, "hints", true, "show the solver's hints")
	o.rules.register(f)
	return cmd
}

// human asks the player at every decision; it is an env.Policy.
type human struct {
	ctx    context.Context
	lines  <-chan string // standard input, line by line; closed at its end
	err    error         // the context's error once it is done: the match is abandoned
	out    io.Writer
	rules  env.Rules
	hints  bool
	advice *agents.Optimal // the solver's suggestion at breaks and shifts
	ended  bool            // standard input has ended: keep from now on
	echo   bool            // input is not a terminal: show what was read
}

func (h *human) Act(obs env.Observation, legal env.Mask) int {
	if h.ended || h.err != nil {
		return h.fallback(obs, legal)
	}
	switch obs.Decision {
	case env.KickOff:
		h.kickoffHint()
		fmt.Fprint(h.out, "Your line-up (defence→attack, like 1-2-3-3-1, or an index 0..120): ")
	case env.Break:
		fmt.Fprintf(h.out, "\nBreak (%s, %s left): you %d, opponent %d. You play %s with %s left; the opponent plays %s.\n",
			obs.Period, plural(obs.ThrowsLeft, "throw"), obs.OwnGoals, obs.OppGoals, obs.Own, plural(obs.OwnMovesLeft, "move"), obs.Opp)
		h.adviceHint(obs, legal)
		fmt.Fprint(h.out, "New line-up within your moves, or Enter to keep: ")
	case env.Shift:
		var opts []string
		for _, a := range legal.Actions() {
			if a != obs.Own.Index() {
				opts = append(opts, env.LineupAt(a).String())
			}
		}
		fmt.Fprintf(h.out, "\nYou won the throw (ball in your sector %d). You may shift one counter: %s\n", obs.Ball, strings.Join(opts, ", "))
		h.adviceHint(obs, legal)
		fmt.Fprint(h.out, "Shift to, or Enter to keep: ")
	}
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-h.lines:
		case <-h.ctx.Done(): // Ctrl-C at the prompt
			h.err = h.ctx.Err()
			return h.fallback(obs, legal)
		}
		if !ok {
			h.ended = true
			fmt.Fprintln(h.out, "\n(input ended: keeping the line-up for the rest of the match)")
			return h.fallback(obs, legal)
		}
		text := strings.TrimSpace(line)
		if h.echo {
			fmt.Fprintln(h.out, text)
		}
		if text == "" && obs.Decision != env.KickOff {
			return obs.Own.Index()
		}
		a, err := parseChoice(text)
		if err == nil && !legal.Has(a) {
			err = fmt.Errorf("%s is not allowed here", env.LineupAt(a))
			if obs.Decision == env.Break {
				err = fmt.Errorf("%s costs %s, you have %d", env.LineupAt(a), plural(obs.Own.Moves(env.LineupAt(a)), "move"), obs.OwnMovesLeft)
			}
		}
		if err != nil {
			fmt.Fprintf(h.out, "%v — try again: ", err)
			continue
		}
		return a
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
		return 0, prefixless{err}
	}
	return l.Index(), nil
}

func (h *human) kickoffHint() {
	if !h.hints {
		return
	}
	payoff := solver.PayoffWinLoss
	if h.rules.Knockout {
		payoff = solver.PayoffAdvance
	}
	m, err := solver.Matrix(h.rules)
	if err != nil {
		return
	}
	eq, err := solver.Equilibrium(m, payoff)
	if err != nil {
		return
	}
	var mix []string
	for _, w := range eq.Home {
		mix = append(mix, fmt.Sprintf("%s %.0f%%", w.Lineup, 100*w.Prob))
	}
	fmt.Fprintf(h.out, "Hint: the equilibrium mix is %s. Best line-ups against it (%s payoff):\n", strings.Join(mix, ", "), payoff)
	replies, err := solver.BestResponses(m, payoff, eq.Away)
	if err != nil {
		return
	}
	for _, r := range replies[:5] {
		fmt.Fprintf(h.out, "  %s  %s (win %.3f, draw %.3f)\n", r.Lineup, signedf(r.Payoff, 4), r.HomeWin, r.Draw)
	}
}

func (h *human) adviceHint(obs env.Observation, legal env.Mask) {
	if !h.hints {
		return
	}
	to := env.LineupAt(h.advice.Act(obs, legal))
	fmt.Fprintf(h.out, "Hint: the solver (best response if the opponent keeps %s) says: %s\n", obs.Opp, describeChange(obs.Own, to))
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

func runPlay(ctx context.Context, streams Streams, o playOptions) error {
	r, err := o.rules.rules()
	if err != nil {
		return err
	}
	me, err := parseSide("--side", o.side)
	if err != nil {
		return err
	}
	opp, err := agents.New(o.vs, agents.Setup{Rules: r, Context: ctx})
	if err != nil {
		return usageError{err}
	}
	agents.Reseed(opp, env.SeededSource(o.seed, streamPlayOpponent).Uint64())
	advice, err := agents.New("optimal", agents.Setup{Rules: r, Context: ctx})
	if err != nil {
		return err
	}
	h := &human{ctx: ctx, lines: readLines(streams.In), out: streams.Out, rules: r, hints: o.hints, advice: advice.(*agents.Optimal), echo: !isTerminalReader(streams.In)}
	home, away := env.Policy(h), env.Policy(opp)
	if me == env.Away {
		home, away = opp, h
	}
	fmt.Fprintf(streams.Out, "You play %s against %s (seed %d).\nrules: %s\n\n", me, o.vs, o.seed, r)
	s, err := env.NewState(r)
	if err != nil {
		return err
	}
	end, err := env.Play(s, home, away, env.NewDiceSampler(env.SeededSource(o.seed, streamMatchDice)), func(e env.Event) {
		if h.err == nil {
			fmt.Fprintln(streams.Out, e.Describe())
		}
	})
	if err != nil {
		return err
	}
	if h.err != nil {
		return fmt.Errorf("play: interrupted; the match is abandoned: %w", h.err)
	}
	if err := agents.ErrOf(opp); err != nil {
		return fmt.Errorf("play: %s could not decide: %w", o.vs, err)
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
