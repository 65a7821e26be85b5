package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

type generateOptions struct {
	rules     command.RuleFlags
	agents    string
	episodes  int
	seed      uint64
	workers   int
	out       string
	logThrows bool
	resume    bool
	force     bool
}

// GenerateCommand is kingoal's dataset-generation command playing on engine.
func GenerateCommand(io command.Streams, engine arena.Engine) *cobra.Command {
	var o generateOptions
	cmd := &cobra.Command{
		Use:   "generate --agents A,B [--episodes N] [--seed S] --out DIR [rule flags]",
		Short: "Generate an offline-RL dataset: N matches between two agents with every decision logged",
		Long: `Generate plays N matches between agents A and B (sides alternating, fixtures and mirrors
sharing dice) and writes DIR/decisions.parquet (one row per decision: observation, mask,
action, reward, terminated — both players' episodes), DIR/matches.parquet and DIR/run.json.
It is the arena's machinery without a tournament, so it is reproducible, parallel, and
resumable the same way. Separate the two specs by ',' or, when a spec has commas itself, ';'.`,
		Example: `  kingoal datasets generate --agents heuristic,random --episodes 10000 --out data
  kingoal datasets generate --agents "mcts:iters=300;optimal" --episodes 500 --out mcts-data`,
		Args: command.ArgsBetween(0, 0, "no arguments"),
		RunE: command.Resumable(&o.resume, &o.out, generateFlagValues, func(cmd *cobra.Command) error {
			return runGenerate(cmd.Context(), cmd.Root().Name(), io, engine, o)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.agents, "agents", "heuristic,random", "the two agents")
	f.IntVar(&o.episodes, "episodes", 1000, "matches to play")
	command.SeedFlag(f, &o.seed, "")
	command.WorkersFlag(f, &o.workers, "")
	command.RunDirFlags(f, &o.out, &o.resume, &o.force, "kingoal-dataset", "dataset", "its decisions, matches and logs")
	f.BoolVar(&o.logThrows, "log-throws", false, "also write throws.parquet")
	o.rules.Register(f)
	return cmd
}

// generateFlagValues are the flags of the generation a run.json describes.
func generateFlagValues(info arena.RunInfo) map[string]string {
	v := command.ArenaFlagValues(info)
	v["episodes"] = v["matches"]
	return v
}

func runGenerate(ctx context.Context, prog string, io command.Streams, engine arena.Engine, o generateOptions) error {
	r, err := o.rules.Rules()
	if err != nil {
		return err
	}
	specs := command.SplitSpecs(o.agents)
	if len(specs) != 2 {
		return command.Usagef("--agents %q: want exactly two agent specs, got %d", o.agents, len(specs))
	}
	if o.episodes <= 0 {
		return command.Usagef("--episodes %d: want at least 1 episode", o.episodes)
	}
	if err := command.CheckWorkers(o.workers); err != nil {
		return err
	}
	if err := command.OutputChoices(o.out, false, false, o.resume, o.force); err != nil {
		return err
	}
	c, err := command.Plan(ctx, arena.Config{Agents: specs, Rules: r, Matches: o.episodes, Seed: o.seed, Workers: o.workers, LogDecisions: true, LogThrows: o.logThrows}, io.ErrOut)
	if err != nil {
		return err
	}
	bar := command.LazyProgress(io.ErrOut, "matches")
	tally, err := arena.Generate(ctx, o.out, c, arena.Options{Resume: o.resume, Force: o.force, Engine: engine, Events: arena.Events{
		Playing: func() {
			fmt.Fprintf(io.ErrOut, "%s: generating %d episodes of %s v %s, seed %d, into %s\n", prog, o.episodes, specs[0], specs[1], o.seed, o.out)
		},
		Matches: bar.Set,
		Played:  func(*arena.Tally) { bar.Finish() },
	}})
	bar.Finish()
	if err != nil {
		return command.RunError(err)
	}
	fmt.Fprintf(io.Out, "%s; decisions in %s\n", command.Plural(tally.Matches(), "match"), filepath.Join(o.out, "decisions.parquet"))
	return nil
}
