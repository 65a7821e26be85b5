// kingoal leaderboard, and the leaderboard every arena run prints and writes: tables, JSON, charts.

package cli

import (
	"context"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/rank"
	"github.com/spf13/cobra"
)

type leaderboardOptions struct {
	markdown, json, write bool
	alpharank             rank.AlphaRankParams
}

func newLeaderboardCmd(streams command.Streams) *cobra.Command {
	var o leaderboardOptions
	cmd := &cobra.Command{
		Use:   "leaderboard RUN_DIR [--markdown] [--json] [--write-files]",
		Short: "Print the league table of an arena run from its Parquet files alone",
		Long: `Leaderboard prints the standings of a finished arena run from its files alone (run.json,
matches.parquet, and the exploitability column kingoal arena cached). It writes nothing
unless --write-files asks it to write the run's ratings.parquet and charts again.`,
		Args: command.ArgsBetween(1, 1, "one RUN_DIR"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLeaderboard(cmd.Context(), streams, o, args[0])
		},
	}
	cmd.Flags().BoolVar(&o.markdown, "markdown", false, "print the table as Markdown")
	command.JSONFlag(cmd.Flags(), &o.json, "the table")
	cmd.Flags().BoolVar(&o.write, "write-files", false, "write the run's ratings.parquet, ratings.png and head_to_head.png again")
	command.AlphaRankFlags(cmd.Flags(), &o.alpharank)
	return cmd
}

func runLeaderboard(ctx context.Context, streams command.Streams, o leaderboardOptions, dir string) error {
	if o.markdown && o.json {
		return command.Usagef("--markdown and --json: choose one")
	}
	if err := command.CheckAlphaRank(o.alpharank); err != nil {
		return err
	}
	if o.write { // it writes into the run: hold the run's lock as the run would
		lock, err := safefile.LockDir(dir)
		if err != nil {
			return command.LockError(err)
		}
		defer lock.Unlock()
	} else if held, pid, err := safefile.DirHolder(dir); err != nil {
		return err
	} else if held {
		return command.Usagef("%s is a run in progress (pid %d is writing it): its leaderboard is printed when it finishes; "+
			"look again then", dir, pid)
	}
	var lb *arena.Leaderboard
	// A run of millions of matches takes seconds to read: Ctrl-C abandons the read (nothing
	// is written before it ends).
	if err := command.Interruptible(ctx, func() (err error) { lb, err = arena.ReadLeaderboard(ctx, dir); return err }); err != nil {
		return err
	}
	if o.write {
		if err := lb.WriteFiles(dir); err != nil {
			return err
		}
	}
	return command.WriteLeaderboard(streams.Out, lb, o.markdown, o.json, o.alpharank)
}
