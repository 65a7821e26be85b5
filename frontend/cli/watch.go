package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/match"
)

type watchOptions struct {
	rules command.RuleFlags
	seed  uint64
	dice  bool
	gif   string
	force bool
}

func newWatchCmd(streams command.Streams) *cobra.Command {
	var o watchOptions
	cmd := &cobra.Command{
		Use:   "watch HOME_SPEC AWAY_SPEC [--seed S] [--dice] [--gif FILE] [rule flags]",
		Short: "A readable transcript of one match between two agents (and an animated GIF of it)",
		Long: `Watch plays one match between two agents (see kingoal agents) and prints every
line-up decision, throw, goal, break and shift, and the result. With --dice every die is
rolled and shown. With --gif FILE it also writes the match as an animated GIF, a frame an
event: the picture of the web app's replay page and of the Gymnasium environment's
rgb_array render. The same seed gives the same transcript and the same GIF.`,
		Example: "  kingoal watch heuristic optimal --seed 7 --dice\n  kingoal watch heuristic random --throws-per-half 10 --gif match.gif",
		Args:    command.ArgsBetween(2, 2, "two agent specs"),
		RunE:    func(cmd *cobra.Command, args []string) error { return runWatch(cmd.Context(), streams, o, args) },
	}
	command.SeedFlag(cmd.Flags(), &o.seed, "dice and agents")
	cmd.Flags().BoolVar(&o.dice, "dice", false, "roll and show every die")
	cmd.Flags().StringVar(&o.gif, "gif", "", "also write the match as an animated GIF to `FILE`")
	cmd.Flags().BoolVar(&o.force, "force", false, "replace an existing --gif file")
	o.rules.Register(cmd.Flags())
	return cmd
}

// gifDelay and gifHold are how long a frame shows, and the last (hundredths of a second).
const (
	gifDelay = 60
	gifHold  = 400
)

func runWatch(ctx context.Context, streams command.Streams, o watchOptions, args []string) error {
	r, err := o.rules.Rules()
	if err != nil {
		return err
	}
	if err := command.RefuseOverwrite("--gif", o.gif, o.force, "pass --force to replace it"); err != nil {
		return err
	}
	m := match.Agents{Rules: r, Specs: [2]string{args[0], args[1]}, Seed: o.seed, Dice: o.dice}
	anim := frame.Animation{Names: [2]string{args[0], args[1]}}
	if o.gif != "" {
		s, err := env.NewState(r)
		if err != nil {
			return err
		}
		anim.Add(s, "", gifDelay)
	}
	header := sync.OnceFunc(func() { // once the agents are built: a bad spec prints only its error
		fmt.Fprintf(streams.Out, "home %s v away %s, seed %d\nrules: %s\n\n", args[0], args[1], o.seed, r)
	})
	end, err := m.Play(ctx, func(e env.Event) {
		header()
		fmt.Fprintln(streams.Out, e.Describe())
		if o.gif != "" {
			anim.Add(e.After, e.Describe(), gifDelay)
		}
	})
	var bad match.SpecError
	switch {
	case errors.As(err, &bad):
		return command.Usage(bad.Err)
	case err != nil:
		return err
	}
	result := "a draw"
	if w, ok := end.Winner(); ok {
		result = fmt.Sprintf("%s (%s) wins", w, args[w])
	}
	fmt.Fprintf(streams.Out, "\nfinal score %d-%d: %s\n", end.Goals(env.Home), end.Goals(env.Away), result)
	if o.gif == "" {
		return nil
	}
	if err := safefile.WriteAtomic(o.gif, func(w io.Writer) error { return anim.Encode(w, gifHold) }); err != nil {
		return fmt.Errorf("watch: --gif: %w", err)
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: wrote %s (%s)\n", o.gif, command.Plural(anim.Frames(), "frame"))
	return nil
}
