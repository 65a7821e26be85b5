package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2   // bad flags, arguments or values
	exitInterrupted = 130 // Ctrl-C
)

// streams are the command's input and outputs: data to out, status and progress to errOut.
type streams struct {
	in          io.Reader
	out, errOut io.Writer
}

// usageError marks bad input from the user: exit code 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// execute runs the CLI and returns the process exit code. Errors are one line on errOut.
func execute(args []string, in io.Reader, out, errOut io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root := newRootCmd(streams{in, out, errOut})
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(errOut, "kingoal: "+strings.TrimPrefix(err.Error(), "kingoal: "))
	var u usageError
	switch {
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &u), isCobraUsage(err):
		return exitUsage
	}
	return exitFailure
}

// isCobraUsage recognises the errors cobra raises itself for unknown commands.
func isCobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") ||
		strings.HasPrefix(msg, "unknown shorthand flag")
}

func newRootCmd(io streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "kingoal",
		Short: "Kingoal: rules engine, simulator and research tools for the dice-football board game",
		Long: `Kingoal is a toolkit for AI research on the dice-football board game Kingoal:
an exact rules engine, a fast simulator and Gym-style environments.

Data goes to standard output, progress and status to standard error.
Bad input exits with code 2, an interrupted run with 130.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(io.out)
	root.SetErr(io.errOut)
	root.SetIn(io.in)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newRulesCmd(io), newLineupsCmd(io), newSimulateCmd(io), newSolveCmd(io), newAgentsCmd(io), newWatchCmd(io), newTrainCmd(io), newPlayCmd(io), newEvalCmd(io), newArenaCmd(io), newLeaderboardCmd(io), newDatasetsCmd(io))
	return root
}

// checkOutput reports, before any work is done, an output file whose directory is missing.
func checkOutput(flag, path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usagef("%s %s: directory %s does not exist", flag, path, dir)
	}
	return nil
}

// argsBetween is cobra.RangeArgs with a usage error.
func argsBetween(lo, hi int, names string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usagef("want %s, got %d arguments", names, len(args))
		}
		return nil
	}
}
