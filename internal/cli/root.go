package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/internal/version"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2   // bad flags, arguments or values
	exitInterrupted = 130 // Ctrl-C
)

// Streams are a command's input and outputs: data to Out, status and progress to ErrOut.
type Streams struct {
	In          io.Reader
	Out, ErrOut io.Writer
}

// usageError marks bad input from the user: exit code 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// Usagef is a usage error (exit 2) with a formatted message; kingoal-beam's own flags use it
// too.
func Usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// Execute runs the kingoal CLI and returns the process exit code.
func Execute(args []string, in io.Reader, out, errOut io.Writer) int {
	return ExecuteRoot(newRootCmd, args, in, out, errOut)
}

// ExecuteRoot runs the command tree root builds (kingoal's, or another front end's built
// from this package's commands) with kingoal's conventions, and returns the exit code: 0,
// 1 for a failure, 2 for bad input (one line on errOut, prefixed with the program's name),
// 130 when interrupted (Ctrl-C cancels the command's context).
func ExecuteRoot(root func(Streams) *cobra.Command, args []string, in io.Reader, out, errOut io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cmd := root(Streams{in, out, errOut})
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	prefix := cmd.Name() + ": "
	msg := message(err, prefix)
	if errors.Is(err, syscall.ENOSPC) { // what to do, not only what happened
		msg += " — the disk is full: free some space, then run the same command again with --resume " +
			"(arena, datasets generate and train continue where they stopped; other commands start over)"
	}
	fmt.Fprintln(errOut, prefix+msg)
	var u usageError
	var model *agents.ModelError
	switch {
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &model): // a file that failed, wherever a spec named it
		return exitFailure
	case errors.As(err, &u), isCobraUsage(err), errors.Is(err, datasets.ErrLocked):
		return exitUsage
	}
	return exitFailure
}

// message is err's one line for the user: without a doubled program prefix, and an
// interruption says so in words rather than Go's "context canceled".
func message(err error, prefix string) string {
	msg := strings.TrimPrefix(err.Error(), prefix)
	if errors.Is(err, context.Canceled) {
		msg = strings.TrimSuffix(strings.TrimSuffix(msg, "context canceled"), ": ")
		if msg == "" {
			msg = "interrupted"
		}
	}
	return msg
}

// isCobraUsage recognises the errors cobra raises itself for unknown commands.
func isCobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") ||
		strings.HasPrefix(msg, "unknown shorthand flag")
}

func newRootCmd(streams Streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "kingoal",
		Short: "Kingoal: rules engine, simulator and research tools for the dice-football board game",
		Long: `Kingoal is a toolkit for AI research on the dice-football board game Kingoal:
an exact rules engine, a fast simulator and Gym-style environments.

Data goes to standard output, progress and status to standard error.
Bad input exits with code 2, an interrupted run with 130 (see kingoal help exit-codes).`,
		Version:       version.String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("kingoal {{.Version}}\n")
	root.SetHelpCommand(helpCommand())
	Configure(root, streams)
	root.AddCommand(exitCodesTopic(), newRulesCmd(streams), newLineupsCmd(streams), newSimulateCmd(streams), newSolveCmd(streams), newAgentsCmd(streams), newWatchCmd(streams), newTrainCmd(streams), newPlayCmd(streams), newEvalCmd(streams), ArenaCommand(streams, LocalEngine), newLeaderboardCmd(streams), newDatasetsCmd(streams))
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
				return Usagef("help %s: no such command or topic (kingoal help lists them)", strings.Join(args, " "))
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
       or foreign input file (a Parquet file of another schema, a model for other rules),
       a full disk, a solve that failed its own check, an agent that could not decide
  2    usage: bad flags, arguments or values (a line-up, an agent spec, a rule knob); a
       request the machine cannot hold (a policy too large); a request that contradicts
       what is on disk (an output that exists without --force, a --resume whose flags
       differ from the run's, a --resume with no run to resume, an output another
       kingoal process is writing now: a run directory, a model, a dataset)
  130  interrupted (Ctrl-C): what was finished is kept, and the last line says how to
       continue (--resume) where a command can

The error is always one line on standard error, starting with the program's name.`,
	}
}

// Configure gives a root command kingoal's streams and error conventions (flag errors are
// usage errors: exit code 2).
func Configure(root *cobra.Command, streams Streams) {
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return flagMessage(err) })
}

// checkOutput reports, before any work is done, an output file whose directory is missing.
func checkOutput(flag, path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return Usagef("%s %s: directory %s does not exist", flag, path, dir)
	}
	return nil
}

// claimOutputs checks each output file (flag → path; "" for none) as checkOutput does, locks
// it for this process (another kingoal writing it is refused: exit 2, naming it), and refuses
// one that exists unless force is set: a command never replaces by surprise a result it did
// not make. release gives the locks up; call it when the last file is written.
func claimOutputs(outputs map[string]string, force bool) (release func(), err error) {
	var locks []*datasets.Lock
	release = func() {
		for _, l := range locks {
			l.Unlock()
		}
	}
	flags := make([]string, 0, len(outputs))
	for flag := range outputs {
		flags = append(flags, flag)
	}
	slices.Sort(flags) // the same order every time: two commands never wait on each other's second file
	for _, flag := range flags {
		path := outputs[flag]
		if path == "" {
			continue
		}
		if err := checkOutput(flag, path); err != nil {
			release()
			return nil, err
		}
		l, err := datasets.LockFile(path)
		if err != nil {
			release()
			return nil, lockError(err)
		}
		locks = append(locks, l)
		if err := refuseOverwrite(flag, path, force, "replace it with --force"); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}

// interruptible runs f, a computation that cannot be stopped from inside (a match's exact
// odds, an LP), and returns its error, or ctx's error as soon as ctx is done: f is then
// abandoned, its result unused, and the command exits.
func interruptible(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// group makes cmd, a command that only holds subcommands, refuse an unknown one (exit 2,
// naming the ones that exist) instead of printing its help and exiting 0; alone, it prints
// its help.
func group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return c.Help()
		}
		var names []string
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		return Usagef("unknown command %q for %q; its commands: %s", args[0], c.CommandPath(), strings.Join(names, ", "))
	}
	return cmd
}

// flagError is a usage error naming the flag, its message without the package prefix of err
// ("--format: format "x": …" rather than "--format: arena: format …"), err still in its chain.
func flagError(flag string, err error) error {
	return usageError{fmt.Errorf("%s: %w", flag, prefixless{err})}
}

// prefixless is err whose message drops its leading package name ("env: ", "solver: "): for
// one-line messages that already say where they come from. errors.Is and As see err.
type prefixless struct{ err error }

func (p prefixless) Error() string {
	msg := p.err.Error()
	if pkg, rest, found := strings.Cut(msg, ": "); found && pkg != "" && strings.Trim(pkg, "abcdefghijklmnopqrstuvwxyz") == "" {
		return rest
	}
	return msg
}
func (p prefixless) Unwrap() error { return p.err }

// argsBetween is cobra.RangeArgs with a usage error that says what the command takes.
func argsBetween(lo, hi int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			got := "no arguments"
			if len(args) > 0 {
				got = fmt.Sprintf("%q", args)
			}
			return Usagef("%s takes %s; got %s", cmd.CommandPath(), names, got)
		}
		return nil
	}
}

// flagValueError rewrites pflag's "invalid argument "x" for "-n, --matches" flag:
// strconv.ParseInt: parsing "x": invalid syntax" in the user's words.
var flagValueError = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag: strconv\.Parse(Int|Uint|Float|Bool): .*?(value out of range|invalid syntax)$`)

func flagMessage(err error) error {
	m := flagValueError.FindStringSubmatch(err.Error())
	if m == nil {
		return usageError{err}
	}
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number ≥ 0", "Float": "a number", "Bool": "true or false"}[m[3]]
	if m[4] == "value out of range" {
		want += " in range"
	}
	return Usagef("%s %s: want %s", m[2], m[1], want)
}
