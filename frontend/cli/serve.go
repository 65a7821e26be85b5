package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/frontend/web"
	"github.com/kingoal/kingoal/solver"
)

type serveOptions struct {
	runs    []string
	addr    string
	maxFile int64
	tables  []string
}

func newServeCmd(streams command.Streams) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [--runs DIR]... [--table FILE.kgt]... [--addr 127.0.0.1:8080] [--max-file-mib 16]",
		Short: "Serve a local web app: leaderboards, replays, play in the browser, policy heatmaps",
		Long: `Serve starts a small web app (everything embedded, nothing fetched) over the arena run
directories under each --runs DIR (or DIR itself, if it is a run):
  Runs         every run with its format, agents, matches and status (finished, interrupted
               with its --resume command, or being played), with how far each unfinished one
               has come
  Leaderboard  a run's table, ratings with their intervals, exploitability and head to head:
               the numbers of kingoal leaderboard; while a run plays, the standings of the
               matches on disk and its progress, following it as its shards land
  Replay       any match of a run, played again from its seeds (no --log-throws needed) and
               checked against its row in matches.parquet: the pitch drawn live, the ball, the
               dice, score, period, throws left and substitutions; step, play, pause, next
               goal, a timeline
  Analysis     a match read against the solved game (kingoal analyse): each side's choice
               at every kick-off and break beside the equilibrium, graded by what it gives
               away, and home's exact value after every event as a curve — judged by the
               --table made under the run's rules, or by the game solved in the request
               when small (up to about 6-throw halves with two moves)
  Play         you against any registry agent: set your counters on the pitch (only legal
               line-ups) or click a listed choice, with the hints of kingoal play drawn on the
               pitch; the match kingoal play plays with the same seed and moves
  Explore      any break of the solved game: both mixes, the value, the matrix game
  Policies     solve policy's Parquet files and solve game's tables (.kgt) in the directories,
               as heatmaps by time and score
It binds to loopback by default and then answers only requests addressed to localhost,
127.0.0.1 or [::1] (a page of another site cannot reach it by DNS rebinding); any other
--addr serves the network, with a warning. It reads nothing outside those directories: no
file through a symbolic link out of them (a run is read through its directory opened once,
whatever is renamed meanwhile), no FIFO or device, no file past --max-file-mib — an agent spec
on the Play page may name a model or table inside them only — and what a request may solve is
bounded (larger games: a table in the directories, nash:table=FILE.kgt); a client that stops
reading is cut off after 20 s, a query past 2 KiB is refused. Every answer carries a
Content-Security-Policy. Ctrl-C stops it within a second (exit 130).`,
		Example: `  kingoal arena --out runs/league
  kingoal serve --runs runs`,
		Args: command.ArgsBetween(0, 0, "no arguments (--runs DIR)"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd.Context(), streams, o) },
	}
	cmd.Flags().StringArrayVar(&o.runs, "runs", []string{"."}, "a directory of arena runs (repeatable)")
	cmd.Flags().StringArrayVar(&o.tables, "table", nil, "a game table (kingoal solve game --out FILE.kgt) to judge the runs played under its rules on the analysis pages (repeatable; read at the first analysis page and kept)")
	cmd.Flags().StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	cmd.Flags().Int64Var(&o.maxFile, "max-file-mib", web.DefaultMaxFileBytes>>20, "the largest policy file, game table or model the pages read, in MiB (a table is held whole while read: 8 to 11 times its size, a Dynamic side's ~18; the default rules' table is 186 MiB)")
	return cmd
}

func runServe(ctx context.Context, streams command.Streams, o serveOptions) error {
	if o.maxFile <= 0 || o.maxFile > 1<<20 {
		return command.Usagef("--max-file-mib %d: want 1 to %d", o.maxFile, 1<<20)
	}
	// A path that is missing is an input that cannot be read (exit 1, as every command's); one
	// that is there but of the wrong kind is a bad value (exit 2).
	for _, dir := range o.runs {
		if info, err := os.Stat(dir); err != nil {
			return fmt.Errorf("--runs %s: %w", dir, err)
		} else if !info.IsDir() {
			return command.Usagef("--runs %s: not a directory", dir)
		}
	}
	for _, t := range o.tables {
		if info, err := os.Stat(t); err != nil {
			return fmt.Errorf("--table %s: %w", t, err)
		} else if !info.Mode().IsRegular() {
			return command.Usagef("--table %s: not a file", t)
		}
		switch solver.TableKindOf(t) {
		case solver.DynamicTable:
			return command.Usagef("--table %s: a table with a Dynamic side keeps decisions, not values: it judges no match", t)
		case solver.NotATable:
			return command.Usagef("--table %s: not a game table (kingoal solve game --out FILE.kgt writes one)", t)
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return command.Usagef("--addr %s: %v", o.addr, err)
	}
	public := !ln.Addr().(*net.TCPAddr).IP.IsLoopback()
	srv := &http.Server{Handler: (&web.Server{Roots: o.runs, Context: ctx, Public: public, MaxFileBytes: o.maxFile << 20, Tables: o.tables}).Handler(), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10, // and each write ends a stalled client (web.Server)
		BaseContext: func(net.Listener) context.Context { return ctx }} // Ctrl-C ends the requests' replays and games too
	if public {
		fmt.Fprintf(streams.ErrOut, "kingoal: warning: --addr %s is not loopback: the pages, and the files in the run directories, are now visible to the network\n", o.addr)
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: serving %s on http://%s (Ctrl-C stops)\n", command.Plural(len(o.runs), "run directory"), ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(web.SecureListener(ln)) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := srv.Shutdown(stop); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	srv.Close()
	return fmt.Errorf("serve: stopped: %w", ctx.Err())
}
