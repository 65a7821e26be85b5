package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

type watchOptions struct {
	rules ruleFlags
	seed  uint64
	dice  bool
}

func newWatchCmd(io Streams) *cobra.Command {
	var o watchOptions
	cmd := &cobra.Command{
		Use:   "watch HOME_SPEC AWAY_SPEC [--seed S] [--dice] [rule flags]",
		Short: "A readable transcript of one match between two agents",
		Long: `Watch plays one match between two agents (see kingoal agents) and prints every
line-up decision, throw, goal, break and shift, and the result. With --dice every die is
rolled and shown. The same seed gives the same transcript.`,
		Example: "  kingoal watch heuristic optimal --seed 7 --dice",
		Args:    argsBetween(2, 2, "two agent specs"),
		RunE:    func(cmd *cobra.Command, args []string) error { return runWatch(cmd.Context(), io, o, args) },
	}
	seedFlag(cmd.Flags(), &o.seed, "dice and agents")
	cmd.Flags().BoolVar(&o.dice, "dice", false, "roll and show every die")
	o.rules.register(cmd.Flags())
	return cmd
}

func runWatch(ctx context.Context, io Streams, o watchOptions, args []string) error {
	r, err := o.rules.rules()
	if err != nil {
		return err
	}
	var players [2]agents.Agent
	for p, spec := range args {
		if players[p], err = agents.New(spec, agents.Setup{Rules: r, Context: ctx}); err != nil {
			return usageError{err}
		}
		agents.Reseed(players[p], env.SeededSource(o.seed, [2]uint64{streamHomeAgent, streamAwayAgent}[p]).Uint64())
	}
	var smp env.Sampler = env.NewFastSampler(env.SeededSource(o.seed, streamMatchDice))
	if o.dice {
		smp = env.NewDiceSampler(env.SeededSource(o.seed, streamMatchDice))
	}
	s, err := env.NewState(r)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "home %s v away %s, seed %d\nrules: %s\n\n", args[0], args[1], o.seed, r)
	end, err := env.Play(s, players[0], players[1], smp, func(e env.Event) {
		if ctx.Err() == nil { // after Ctrl-C the agents only fall back: not their match to show
			fmt.Fprintln(io.Out, e.Describe())
		}
	})
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("watch: interrupted; the match is abandoned: %w", err)
	}
	for p, a := range players {
		if err := agents.ErrOf(a); err != nil {
			return fmt.Errorf("watch: %s could not decide, so the transcript above is not its play: %w", args[p], err)
		}
	}
	result := "a draw"
	if w, ok := end.Winner(); ok {
		result = fmt.Sprintf("%s (%s) wins", w, args[w])
	}
	fmt.Fprintf(io.Out, "\nfinal score %d-%d: %s\n", end.Goals(env.Home), end.Goals(env.Away), result)
	return nil
}
