package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/policy"
	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/frontend/cli/solvecmd"
	"github.com/kingoal/kingoal/internal/version"
)

// Execute runs the kingoal CLI and returns the process exit code.
func Execute(args []string, in io.Reader, out, errOut io.Writer) int {
	return ExecuteRoot(newRootCmd, args, in, out, errOut)
}

// ExecuteRoot runs the command tree root builds (kingoal's, or another front end's built
// from this package's commands) with kingoal's conventions, and returns the exit code: 0,
// 1 for a failure, 2 for bad input (one line on errOut, prefixed with the program's name),
// 130 when interrupted (Ctrl-C cancels the command's context).
func ExecuteRoot(root func(command.Streams) *cobra.Command, args []string, in io.Reader, out, errOut io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return ExecuteContext(ctx, root, args, in, out, errOut)
}

// ExecuteContext is ExecuteRoot with ctx in place of Ctrl-C: for a host that owns the
// signals (the Python package's kingoal.arena, whose Ctrl-C cancels ctx).
func ExecuteContext(ctx context.Context, root func(command.Streams) *cobra.Command, args []string, in io.Reader, out, errOut io.Writer) int {
	cmd := root(command.Streams{In: in, Out: out, ErrOut: errOut})
	cmd.SetArgs(args)
	ran, err := cmd.ExecuteContextC(ctx)
	if err == nil {
		return command.ExitOK
	}
	prefix := cmd.Name() + ": "
	msg := command.Message(err, prefix, strings.TrimPrefix(ran.CommandPath(), cmd.Name()+" "))
	if errors.Is(err, syscall.ENOSPC) { // what to do, not only what happened
		msg += " — the disk is full: free some space, then run the same command again with --resume " +
			"(arena, datasets generate and train continue where they stopped; other commands start over)"
	}
	fmt.Fprintln(errOut, prefix+msg)
	var u command.UsageError
	var model *agents.ModelError
	switch {
	case errors.Is(err, context.Canceled):
		return command.ExitInterrupted
	case errors.As(err, &model): // a file that failed, wherever a spec named it
		return command.ExitFailure
	case errors.As(err, &u), command.IsCobraUsage(err), errors.Is(err, safefile.ErrLocked),
		errors.Is(err, policy.ErrTooLarge): // help exit-codes: a request the machine cannot hold, from any command
		return command.ExitUsage
	}
	return command.ExitFailure
}

// NewRootCmd is kingoal's command tree, for ExecuteContext.
func NewRootCmd(streams command.Streams) *cobra.Command { return newRootCmd(streams) }

func newRootCmd(streams command.Streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "kingoal",
		Short: "Kingoal: rules engine, simulator and research tools for the dice-football board game",
		Long: `Kingoal is a toolkit for AI research on the dice-football board game Kingoal:
an exact rules engine, a fast simulator and Gym-style environments.

Data goes to standard output, progress and status to standard error.
Bad input exits with code 2, an interrupted run with 130 (see kingoal help exit-codes).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version is a flag of the root's own (cobra's prints the version whatever
		// follows it): "kingoal --version extra" is a usage error, like any stray argument.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if v, _ := cmd.Flags().GetBool("version"); v {
				_, err := fmt.Fprintf(cmd.OutOrStdout(), "kingoal %s\n", version.String())
				return err
			}
			return cmd.Help()
		},
	}
	root.Flags().BoolP("version", "v", false, "the release (and revision) of this build")
	root.SetHelpCommand(helpCommand())
	Configure(root, streams)
	root.AddCommand(exitCodesTopic(), newRulesCmd(streams), newLineupsCmd(streams), newSimulateCmd(streams), solvecmd.New(streams), newAgentsCmd(streams), newWatchCmd(streams), newTrainCmd(streams), newBenchCmd(streams), newPlayCmd(streams), newEvalCmd(streams), ArenaCommand(streams, nil), newLeaderboardCmd(streams), newAnalyseCmd(streams), newDatasetsCmd(streams), newServeCmd(streams))
	return root
}

// helpCommand is cobra's help, except that an unknown topic is a usage error (exit 2),
// not the root's help and exit 0.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help for any command or topic: kingoal help COMMAND [SUBCOMMAND], kingoal help exit-codes.",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 || len(args) > 0 && cmd == c.Root() {
				return command.Usagef("help %s: no such command or topic (kingoal help lists them)", strings.Join(args, " "))
			}
			return cmd.Help()
		},
	}
}

// exitCodesTopic is `kingoal help exit-codes`.
func exitCodesTopic() *cobra.Command {
	return &cobra.Command{
		Use:   "exit-codes",
		Short: "What kingoal's exit codes mean",
		Long: `Every kingoal command exits with one of:

  0    success
  1    failure: something could not be read, written or computed — a missing, corrupt
       or foreign input file or directory, named by an argument or a flag alike (a
       Parquet file of another schema, a model for other rules), a full disk, a solve
       that failed its own check, an agent that could not decide
  2    usage: bad flags, arguments or values (a line-up, an agent spec, a rule knob, a
       value the input does not have: analyse --match 99 of a 10-match run); a request
       the machine cannot hold (a policy, a game or a learner too large for memory); a
       request that contradicts what is on disk (an output that exists without --force,
       a --resume whose flags differ from the run's, a --resume with no run to resume,
       an output another kingoal process is writing now: a run directory, a model, a
       dataset)
  130  interrupted (Ctrl-C): what was finished is kept, and the last line says how to
       continue (--resume) where a command can

The error is always one line on standard error: the program's name, the command, then what
is wrong (kingoal: leaderboard: open runs/x: no such file or directory).`,
	}
}

// Configure gives a root command kingoal's streams and error conventions (flag errors are
// usage errors: exit code 2).
func Configure(root *cobra.Command, streams command.Streams) {
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return command.FlagMessage(err) })
}
