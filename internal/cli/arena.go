package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/shellquote"
)

// defaultAgents is the built-in league of `kingoal arena` (with 60 matches a pair, about 6 s
// on two cores, and 9 s more for the exploitability column).
const defaultAgents = "random;fixed:2-2-2-2-2;fixed:1-3-3-2-1;heuristic;optimal;mcts:iters=200"

type arenaOptions struct {
	rules        ruleFlags
	logDecisions bool
	logThrows    bool
	dice         bool
	format       string
	drawBracket  bool
	groupSize    int
	sampler      string
	agents       string
	matches      int
	seed         uint64
	workers      int
	out          string
	resume       bool
	force        bool
	markdown     bool
	json         bool
	// the exploitability column (not run settings: a resume may change them)
	noExploit      bool
	exploitMatches int
}

// Engine plays the planned competition c into the run directory dir (resuming the run there
// if resume is set) and returns its tally. LocalEngine plays on this machine's cores;
// kingoal-beam passes one that runs an Apache Beam pipeline; tests pass one that records.
type Engine func(ctx context.Context, streams Streams, c *arena.Plan, dir string, resume bool) (*arena.Tally, error)

// ArenaCommand is kingoal's arena command playing on engine.
func ArenaCommand(streams Streams, engine Engine) *cobra.Command {
	var o arenaOptions
	cmd := &cobra.Command{
		Use:   "arena [--agents \"A;B;C\"] [--format league|gauntlet|knockout|worldcup] [--matches N] [--seed S] [--out DIR] [--resume] [rule flags]",
		Short: "Run a league, gauntlet, knockout cups or World Cups between agents, write DIR/matches.parquet and DIR/run.json, print the leaderboard",
		Long: `Arena plays a competition between agents (registry specs, see kingoal agents).

  league    every pair of agents plays --matches matches, sides alternating; each fixture
            and its mirror share their dice (common random numbers), so luck cancels
  gauntlet  the same, for the first agent against each of the others
  knockout  --matches single-elimination cups of all the agents (also "cup"): seeded in
            the order given (1 v N, …; byes to the top seeds), or drawn afresh for every
            cup with --draw-bracket; one match a tie under knockout rules (extra time, then
            penalties; --knockout is implied)
  worldcup  --matches World Cups (also "world-cup"): groups of --group-size agents drawn
            afresh for every cup play a round robin under league rules (rules §7 table);
            the top two of each group go into a knockout bracket — each group winner
            meets the runner-up of the paired group (A1–B2, C1–D2, …, B1–A2, D1–C2),
            extra time and penalties. The number of groups must be 1, 2, 4, 8, …

The run is reproducible from its seed, whatever --workers is. Matches are written in shards
as they finish, so Ctrl-C (or a crash) keeps them: finish the run with --resume and the same
flags. The league table is ordered by points, goal difference, goals scored, head-to-head
points, then a seeded draw of lots (rules §7); cups are ranked by titles, then rounds
reached (World Cups: then knockout ties won, then group points). Ratings (Bradley–Terry
with draws) and head-to-head cover every format. Re-print the leaderboard later with
kingoal leaderboard DIR. Matches whose throws are not logged are drawn goal by goal
(--sampler).

The ratings table has each agent's exploitability: what a best response scores against it
beyond the game's value ½ — exact for agents whose choices depend on the break state alone
(fixed, heuristic, qlearning at any rules that fit in 12 GiB, the default ones included;
random at short rules; nash), otherwise a Monte Carlo lower bound "≥ x ± ci" over
--exploitability-matches matches (see kingoal eval). It is computed once and cached in
DIR/exploitability.json; --no-exploitability skips it.`,
		Example: `  kingoal arena
  kingoal arena --agents "heuristic;optimal;mcts:iters=500" --matches 100 --seed 7 --out runs/a
  kingoal arena --agents "heuristic;random" --log-throws --dice --out runs/b
  kingoal arena --format knockout --draw-bracket --matches 200 --agents "optimal;heuristic;random;fixed:1-3-3-2-1;fixed:2-2-2-2-2"
  kingoal arena --format worldcup --matches 500 --agents "optimal;heuristic;random;fixed:1-3-3-2-1;fixed:2-2-2-2-2;fixed:1-2-3-2-2;mcts:iters=100;fixed:2-3-2-2-1"`,
		Args: argsBetween(0, 0, "no arguments (agents go in --agents)"),
		RunE: resumable(&o.resume, &o.out, arenaFlagValues, func(cmd *cobra.Command) error {
			return runArena(cmd.Context(), cmd.Root().Name(), streams, engine, o)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.agents, "agents", defaultAgents, "agent specs separated by ';' (or ',' where no spec has parameters of its own; see kingoal agents)")
	enumFlagWithAliases(f, &o.format, "format", "the competition (see above; knockout is also \"cup\", worldcup \"world-cup\")",
		map[string]string{"cup": "knockout", "world-cup": "worldcup"}, "league", "gauntlet", "knockout", "worldcup")
	f.BoolVar(&o.drawBracket, "draw-bracket", false, "knockout: draw every cup's seeding from the seed (default: the order of --agents)")
	f.IntVar(&o.groupSize, "group-size", arena.DefaultGroupSize, "worldcup: agents a group (groups as even as the numbers allow; 1, 2, 4, … groups)")
	enumFlag(f, &o.sampler, "sampler", "goals: matches whose throws are not logged are drawn goal by goal (the same law as throw by throw, faster); throws: every throw drawn, the matches of a --log-throws run of the same seed", "goals", "throws")
	f.IntVar(&o.matches, "matches", 60, "matches per pair of agents; knockout and worldcup: the number of cups")
	seedFlag(f, &o.seed, "")
	workersFlag(f, &o.workers, "")
	runDirFlags(f, &o.out, &o.resume, &o.force, "kingoal-arena", "run", "its matches, logs and leaderboard files")
	f.BoolVar(&o.logThrows, "log-throws", false, "also write throws.parquet: one row per throw, coin and penalty kick")
	f.BoolVar(&o.dice, "dice", false, "roll every die and log the values in throws.parquet (another random stream: another run)")
	f.BoolVar(&o.logDecisions, "log-decisions", false, "also write decisions.parquet: one row per agent decision (observation, mask, action, reward), for offline RL")
	f.BoolVar(&o.markdown, "markdown", false, "print the table as Markdown")
	jsonFlag(f, &o.json, "the table")
	f.BoolVar(&o.noExploit, "no-exploitability", false, "leave the exploitability column out (it costs seconds to minutes; cached in DIR/exploitability.json)")
	f.IntVar(&o.exploitMatches, "exploitability-matches", 200, "matches behind each estimated exploitability")
	o.rules.register(f)
	return cmd
}

// LocalEngine runs c into dir on all cores (Plan.Run) with a progress bar on stderr; an
// interruption says how to resume.
func LocalEngine(ctx context.Context, streams Streams, c *arena.Plan, dir string, resume bool) (*arena.Tally, error) {
	bar := newProgress(streams.ErrOut, c.TotalMatches(), "matches")
	tally, err := c.Run(ctx, dir, arena.Options{Resume: resume, Progress: func(done, _ int) { _ = bar.Set(done) }})
	_ = bar.Finish()
	if errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("interrupted; finished matches are kept in %s: continue with --out %s --resume: %w", dir, shellquote.Quote(dir), err)
	}
	return tally, err
}

// filesOf lists the data files a run writes.
func filesOf(c *arena.Plan) []string {
	var files []string
	for _, kind := range c.Kinds() {
		files = append(files, kind+".parquet")
	}
	return files
}

// config turns the flags into a competition, or a one-line usage error.
func (o arenaOptions) config() (arena.Config, error) {
	r, err := o.rules.rules()
	if err != nil {
		return arena.Config{}, err
	}
	if o.matches <= 0 {
		return arena.Config{}, Usagef("--matches %d: want at least 1 match", o.matches)
	}
	if err := checkWorkers(o.workers); err != nil {
		return arena.Config{}, err
	}
	if o.exploitMatches <= 0 && !o.noExploit {
		return arena.Config{}, Usagef("--exploitability-matches %d: want at least 1 (or --no-exploitability)", o.exploitMatches)
	}
	if err := outputChoices(o.out, o.markdown, o.json, o.resume, o.force); err != nil {
		return arena.Config{}, err
	}
	format, err := arena.ParseFormat(o.format)
	if err != nil {
		return arena.Config{}, flagError("--format", err)
	}
	if o.dice && !o.logThrows {
		return arena.Config{}, Usagef("--dice only matters with --log-throws")
	}
	if o.drawBracket && format != arena.Knockout {
		return arena.Config{}, Usagef("--draw-bracket only matters with --format knockout")
	}
	if o.sampler != "goals" && o.sampler != "throws" {
		return arena.Config{}, Usagef("--sampler %q: want goals or throws", o.sampler)
	}
	groupSize := 0
	if format == arena.WorldCup {
		if o.groupSize < 2 { // 0 would quietly mean the default, 1 a group with nobody to play
			return arena.Config{}, Usagef("--group-size %d: want at least 2 agents a group", o.groupSize)
		}
		groupSize = o.groupSize
	} else if o.groupSize != arena.DefaultGroupSize {
		return arena.Config{}, Usagef("--group-size only matters with --format worldcup")
	}
	if format == arena.Knockout || format == arena.WorldCup {
		r.Knockout = true // a World Cup's groups play league matches all the same
	}
	c := arena.Config{Format: format, Agents: labelled(splitSpecs(o.agents)), Rules: r, Matches: o.matches, DrawBracket: o.drawBracket, GroupSize: groupSize,
		Seed: o.seed, Workers: o.workers, LogThrows: o.logThrows, Dice: o.dice, LogDecisions: o.logDecisions, EveryThrow: o.sampler == "throws",
		NoExploitability: o.noExploit}
	return c, nil
}

func runArena(ctx context.Context, prog string, streams Streams, engine Engine, o arenaOptions) error {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	c, err := plan(ctx, cfg)
	if err != nil {
		return err
	}
	lock, err := prepareRunDir(o.out, o.resume, o.force)
	if o.resume && isReadOnly(err) {
		return printFinishedRun(ctx, streams, o, err)
	}
	if err != nil {
		return err
	}
	defer lock.Unlock()
	fmt.Fprintf(streams.ErrOut, "%s: %s of %d agents, %d matches, seed %d, into %s\n", prog, c.Format, len(c.Agents), c.TotalMatches(), o.seed, o.out)
	began := time.Now()
	tally, err := engine(ctx, streams, c, o.out, o.resume)
	if err != nil {
		return runDirError(err)
	}
	took := fmt.Sprintf("in %.1fs", time.Since(began).Seconds())
	if o.resume { // some were played by an earlier attempt: a rate from the total would lie
		took = fmt.Sprintf("done (this attempt: %.1fs)", time.Since(began).Seconds())
	}
	fmt.Fprintf(streams.ErrOut, "%s: %d matches %s; wrote %s, run.json and the charts\n", prog, tally.Matches(), took, strings.Join(filesOf(c), ", "))
	info, err := arena.ReadInfo(o.out)
	if err != nil {
		return err
	}
	var expl []exploit.Exploitability
	if !o.noExploit {
		if expl, err = exploitability(ctx, streams, o.out, info, o.exploitMatches, o.workers); err != nil {
			return err
		}
	}
	lb, err := arena.NewLeaderboard(ctx, info, tally, expl)
	if err != nil {
		return err
	}
	if err := lb.WriteFiles(o.out); err != nil {
		return err
	}
	return writeLeaderboard(streams.Out, lb, o.markdown, o.json)
}

// plan is the competition planned (arena.NewPlan): a configuration it refuses, an agent
// spec that does not build included, is a usage error; an interruption while an agent
// builds is not.
func plan(ctx context.Context, c arena.Config) (*arena.Plan, error) {
	p, err := arena.NewPlan(ctx, c)
	if err != nil && ctx.Err() == nil {
		return nil, usageError{err}
	}
	return p, err
}

// isReadOnly reports an error of a directory we may not write into.
func isReadOnly(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// printFinishedRun answers --resume on a run directory this process may not write: a
// finished run (with its exploitability column cached, unless the run skips it) has nothing
// left to write, so its leaderboard is printed as kingoal leaderboard would; anything else
// is refused with why.
func printFinishedRun(ctx context.Context, streams Streams, o arenaOptions, lockErr error) error {
	info, err := arena.ReadInfo(o.out)
	if err != nil {
		return err
	}
	if !info.Complete {
		return fmt.Errorf("the run in %s is not finished and this process may not write there (%w): make it writable to resume it", o.out, lockErr)
	}
	if !o.noExploit {
		if _, ok, err := arena.ReadExploitability(o.out, info, o.exploitMatches); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("the run in %s is finished, but its exploitability column is not cached and this process may not write there (%w): "+
				"resume with --no-exploitability, or make it writable", o.out, lockErr)
		}
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: the run in %s is finished and read-only here: its leaderboard, nothing written\n", o.out)
	return runLeaderboard(ctx, streams, leaderboardOptions{markdown: o.markdown, json: o.json}, o.out)
}

// exploitability computes (or reads from the run's cache) the exploitability column.
func exploitability(ctx context.Context, streams Streams, dir string, info arena.RunInfo, matches, workers int) ([]exploit.Exploitability, error) {
	if res, ok, err := arena.ReadExploitability(dir, info, matches); err != nil || ok {
		return res, err
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: exploitability of the %d agents (exact where it can be, else %d matches each; cached in %s)\n",
		len(info.Agents), matches, filepath.Join(dir, arena.ExploitabilityFile))
	bar := newProgress(streams.ErrOut, len(info.Agents), "agents")
	res, err := arena.Exploitability(ctx, dir, info, matches, workers, func() { _ = bar.Add(1) })
	_ = bar.Finish()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted while measuring the exploitability; the run in %s is complete: print it with kingoal leaderboard %s, or run again with --resume: %w", dir, dir, ctx.Err())
	}
	return res, err
}
