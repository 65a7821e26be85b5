// Command kingoal-beam runs kingoal's arena and dataset generation on Apache Beam.
//
//	kingoal-beam arena [the flags of kingoal arena] [--runner prism|flink|spark|dataflow] [Beam options]
//	kingoal-beam generate [the flags of kingoal datasets generate] [--runner …] [Beam options]
//
// The competition, agent and rule flags are kingoal's own (the same code parses them), and so
// are the run directory and the leaderboard. On a cluster, --out must be a directory every
// worker sees (a shared filesystem).
package main

import (
	"context"
	"flag"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/arena"
	arenabeam "github.com/kingoal/kingoal/frontend/beam"
	"github.com/kingoal/kingoal/frontend/cli"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

func main() {
	// A cluster starts this binary as a Beam worker (--worker and the harness's flags):
	// then it is Beam's, not a command line's.
	if slices.Contains(os.Args[1:], "--worker") || slices.Contains(os.Args[1:], "-worker") {
		flag.Parse()
		beam.Init()
		return
	}
	os.Exit(cli.ExecuteRoot(newRoot, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func newRoot(io command.Streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "kingoal-beam",
		Short: "kingoal's arena and dataset generation as Apache Beam pipelines",
		Long: `kingoal-beam runs the same competitions as kingoal arena and kingoal datasets
generate, with the same flags and the same output files, as an Apache Beam pipeline:
fixtures → reshuffle → play → shards by key → Parquet shards → a combined tally → the
run's files. --runner prism (the default) runs it here, in this process; flink, spark and
dataflow submit it to a cluster with Beam's own options (listed under Global Flags; Beam
accepts more than are listed). For the same seed, a Beam run writes the same
matches.parquet, byte for byte, as kingoal arena. --workers is ignored: the runner decides
the parallelism. On a cluster, --out must be a directory every worker sees.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cli.Configure(root, io)
	runner, logLevel := "prism", "warn"
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if !slices.Contains(arenabeam.Runners, runner) {
			return command.Usagef("--runner %q: want one of %s", runner, strings.Join(arenabeam.Runners, ", "))
		}
		if !slices.Contains([]string{"debug", "info", "warn", "error"}, logLevel) {
			return command.Usagef("--log-level %q: want debug, info, warn or error", logLevel)
		}
		// Beam and prism log through slog, set up by beam.Init from this level: the job's
		// life cycle at info, failures at error.
		beamlog.LogLevel = logLevel
		return nil
	}
	root.PersistentFlags().StringVar(&logLevel, "log-level", logLevel, "Beam's log on stderr: debug, info, warn or error")
	root.PersistentFlags().StringVar(&runner, "runner", runner, "Beam runner: prism (embedded), flink, spark or dataflow")
	beamFlags := pflag.NewFlagSet("beam", pflag.ContinueOnError)
	beamFlags.AddGoFlagSet(flag.CommandLine)
	beamFlags.VisitAll(func(f *pflag.Flag) {
		if root.PersistentFlags().Lookup(f.Name) == nil {
			f.Hidden = !shownBeamFlags[f.Name]
			root.PersistentFlags().AddFlag(f)
		}
	})
	engine := func(ctx context.Context, c *arena.Plan, dir string, o arena.Options) (*arena.Tally, error) {
		return arenabeam.Run(ctx, runner, c, dir, o.Resume, io.ErrOut)
	}
	root.AddCommand(cli.ArenaCommand(io, engine), cli.GenerateCommand(io, engine))
	return root
}

// shownBeamFlags are the Beam options a user of the four runners needs; the many others
// are accepted but not listed.
var shownBeamFlags = map[string]bool{
	"endpoint": true, "job_name": true, "environment_type": true, "environment_config": true,
	"project": true, "region": true, "temp_location": true, "staging_location": true,
	"worker_machine_type": true, "max_num_workers": true, "parallelism": true,
}
