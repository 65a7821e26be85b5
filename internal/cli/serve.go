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

	"github.com/kingoal/kingoal/web"
)

type serveOptions struct {
	runs []string
	addr string
}

func newServeCmd(streams Streams) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [--runs DIR]... [--addr 127.0.0.1:8080]",
		Short: "Serve a local web app over arena runs: the runs and their leaderboards",
		Long: `Serve starts a small web app (everything embedded, nothing fetched) over the arena run
directories under each --runs DIR (or DIR itself, if it is a run): the runs with their format,
agents, matches and status, and each run's leaderboard. It binds to loopback by default and
serves nothing outside those directories. Ctrl-C stops it within a second.
Work in progress: replay, play and policy pages are not built yet.`,
		Example: `  kingoal arena --out runs/league
  kingoal serve --runs runs`,
		Args: argsBetween(0, 0, "no arguments (--runs DIR)"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd.Context(), streams, o) },
	}
	cmd.Flags().StringArrayVar(&o.runs, "runs", []string{"."}, "a directory of arena runs (repeatable)")
	cmd.Flags().StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	return cmd
}

func runServe(ctx context.Context, streams Streams, o serveOptions) error {
	for _, dir := range o.runs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return Usagef("--runs %s: not a directory", dir)
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return Usagef("--addr %s: %v", o.addr, err)
	}
	srv := &http.Server{Handler: (&web.Server{Roots: o.runs}).Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(streams.ErrOut, "kingoal: serving %d run directories on http://%s (Ctrl-C stops)\n", len(o.runs), ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
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
	return nil
}
