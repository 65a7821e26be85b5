package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/rank"
	"github.com/kingoal/kingoal/solver/game"
)

// defaultAgents is the built-in league of `kingoal arena` (with 60 matches a pair, about 6 s
// on two cores, and 9 s more for the exploitability column).
const defaultAgents = "random;fixed:2-2-2-2-2;fixed:1-3-3-2-1;heuristic;optimal;mcts:iters=200"

type arenaOptions struct {
	rules        command.RuleFlags
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
	alpharank      rank.AlphaRankParams
	exploitMatches int
}

// ArenaCommand is kingoal's arena command playing on engine (nil: arena.Local; kingoal-beam
// passes one that runs an Apache Beam pipeline).
func ArenaCommand(streams command.Streams, engine arena.Engine) *cobra.Command {
	var o arenaOptions
	memory, _ := game.DefaultGameMemory()
	cmd := &cobra.Command{
		Use:   "arena [--agents \"A;B;C\"] [--format league|gauntlet|knockout|worldcup] [--matches N] [--seed S] [--out DIR] [--resume] [rule flags]",
		Short: "Run a league, gauntlet, knockout cups or World Cups between agents, write DIR/matches.parquet and DIR/run.json, print the leaderboard",
		Long: fmt.Sprintf(`Arena plays a competition between agents (registry specs, see kingoal agents). The default
league (six agents, the default rules) has no nash: at the default rules it first solves the
whole game (~9 minutes, ~%s at the peak) — add it with a game table (nash:table=FILE.kgt, from
kingoal solve game --out FILE.kgt) or at short rules (the third example). Its "optimal" is a
best response to the opponent's current line-up assumed kept, not the equilibrium.

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
random at short rules; nash; a zoo policy with its card: the card's figure), otherwise a
Monte Carlo lower bound "≥ x ± ci" over --exploitability-matches matches (see kingoal
eval). It is computed once and cached in
DIR/exploitability.json; --no-exploitability skips it.`, memory),
		Example: `  kingoal arena
  kingoal arena --agents "heuristic;optimal;mcts:iters=500" --matches 100 --seed 7 --out runs/a
  kingoal arena --agents "random;heuristic;optimal;mcts:iters=200;nash" --throws-per-half 10 --moves 1 --out runs/short
  kingoal arena --agents "heuristic;random" --log-throws --dice --out runs/b
  kingoal arena --format knockout --draw-bracket --matches 200 --agents "optimal;heuristic;random;fixed:1-3-3-2-1;fixed:2-2-2-2-2"
  kingoal arena --format worldcup --matches 500 --agents "optimal;heuristic;random;fixed:1-3-3-2-1;fixed:2-2-2-2-2;fixed:1-2-3-2-2;mcts:iters=100;fixed:2-3-2-2-1"`,
		Args: command.ArgsBetween(0, 0, "no arguments (agents go in --agents)"),
		RunE: command.Resumable(&o.resume, &o.out, command.ArenaFlagValues, func(cmd *cobra.Command) error {
			return runArena(cmd.Context(), cmd.Root().Name(), streams, engine, o)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.agents, "agents", defaultAgents, "agent specs separated by ';' (or ',' where no spec has parameters of its own; see kingoal agents)")
	command.EnumFlagWithAliases(f, &o.format, "format", "the competition (see above; knockout is also \"cup\", worldcup \"world-cup\")",
		map[string]string{"cup": "knockout", "world-cup": "worldcup"}, "league", "gauntlet", "knockout", "worldcup")
	f.BoolVar(&o.drawBracket, "draw-bracket", false, "knockout: draw every cup's seeding from the seed (default: the order of --agents)")
	f.IntVar(&o.groupSize, "group-size", arena.DefaultGroupSize, "worldcup: agents a group (groups as even as the numbers allow; 1, 2, 4, … groups)")
	command.EnumFlag(f, &o.sampler, "sampler", "goals: matches whose throws are not logged are drawn goal by goal (the same law as throw by throw, faster); throws: every throw drawn, the matches of a --log-throws run of the same seed", "goals", "throws")
	f.IntVar(&o.matches, "matches", 60, "matches per pair of agents; knockout and worldcup: the number of cups")
	command.SeedFlag(f, &o.seed, "")
	command.WorkersFlag(f, &o.workers, "")
	command.RunDirFlags(f, &o.out, &o.resume, &o.force, "kingoal-arena", "run", "its matches, logs and leaderboard files")
	f.BoolVar(&o.logThrows, "log-throws", false, "also write throws.parquet: one row per throw, coin and penalty kick")
	f.BoolVar(&o.dice, "dice", false, "roll every die and log the values in throws.parquet (another random stream: another run)")
	f.BoolVar(&o.logDecisions, "log-decisions", false, "also write decisions.parquet: one row per agent decision (observation, mask, action, reward), for offline RL")
	f.BoolVar(&o.markdown, "markdown", false, "print the table as Markdown")
	command.JSONFlag(f, &o.json, "the table")
	f.BoolVar(&o.noExploit, "no-exploitability", false, "leave the exploitability column out (it costs seconds to minutes; cached in DIR/exploitability.json)")
	f.IntVar(&o.exploitMatches, "exploitability-matches", arena.DefaultExploitabilityMatches, "matches behind each estimated exploitability")
	command.AlphaRankFlags(f, &o.alpharank)
	o.rules.Register(f)
	return cmd
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
	r, err := o.rules.Rules()
	if err != nil {
		return arena.Config{}, err
	}
	if o.matches <= 0 {
		return arena.Config{}, command.Usagef("--matches %d: want at least 1 match", o.matches)
	}
	if err := command.CheckWorkers(o.workers); err != nil {
		return arena.Config{}, err
	}
	if o.exploitMatches <= 0 && !o.noExploit {
		return arena.Config{}, command.Usagef("--exploitability-matches %d: want at least 1 (or --no-exploitability)", o.exploitMatches)
	}
	if err := command.OutputChoices(o.out, o.markdown, o.json, o.resume, o.force); err != nil {
		return arena.Config{}, err
	}
	format, err := arena.ParseFormat(o.format)
	if err != nil {
		return arena.Config{}, command.FlagError("--format", err)
	}
	if o.dice && !o.logThrows {
		return arena.Config{}, command.Usagef("--dice only matters with --log-throws")
	}
	if o.drawBracket && format != arena.Knockout {
		return arena.Config{}, command.Usagef("--draw-bracket only matters with --format knockout")
	}
	if o.sampler != "goals" && o.sampler != "throws" {
		return arena.Config{}, command.Usagef("--sampler %q: want goals or throws", o.sampler)
	}
	groupSize := 0
	if format == arena.WorldCup {
		if o.groupSize < 2 { // 0 would quietly mean the default, 1 a group with nobody to play
			return arena.Config{}, command.Usagef("--group-size %d: want at least 2 agents a group", o.groupSize)
		}
		groupSize = o.groupSize
	} else if o.groupSize != arena.DefaultGroupSize {
		return arena.Config{}, command.Usagef("--group-size only matters with --format worldcup")
	}
	r = format.RulesFor(r)
	c := arena.Config{Format: format, Agents: arena.Labelled(command.SplitSpecs(o.agents)), Rules: r, Matches: o.matches, DrawBracket: o.drawBracket, GroupSize: groupSize,
		Seed: o.seed, Workers: o.workers, LogThrows: o.logThrows, Dice: o.dice, LogDecisions: o.logDecisions, EveryThrow: o.sampler == "throws",
		NoExploitability: o.noExploit}
	return c, nil
}

func runArena(ctx context.Context, prog string, streams command.Streams, engine arena.Engine, o arenaOptions) error {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	if err := command.CheckAlphaRank(o.alpharank); err != nil {
		return err
	}
	c, err := command.Plan(ctx, cfg, streams.ErrOut)
	if err != nil {
		return err
	}
	known := command.CardFigures(streams, c.Agents, c.Rules, c.NoExploitability)
	var began time.Time
	matches, measured := command.LazyProgress(streams.ErrOut, "matches"), command.LazyProgress(streams.ErrOut, "agents")
	lb, err := arena.Run(ctx, o.out, c, arena.Options{Resume: o.resume, Force: o.force, Engine: engine, ExploitabilityMatches: o.exploitMatches,
		KnownExploitability: known,
		Events: arena.Events{
			Playing: func() {
				began = time.Now()
				fmt.Fprintf(streams.ErrOut, "%s: %s of %d agents, %s, seed %d, into %s\n", prog, c.Format, len(c.Agents), command.Plural(c.TotalMatches(), "match"), o.seed, o.out)
			},
			Matches: matches.Set,
			Played: func(tally *arena.Tally) {
				matches.Finish()
				took := fmt.Sprintf("in %.1fs", time.Since(began).Seconds())
				if o.resume { // some were played by an earlier attempt: a rate from the total would lie
					took = fmt.Sprintf("done (this attempt: %.1fs)", time.Since(began).Seconds())
				}
				fmt.Fprintf(streams.ErrOut, "%s: %s %s; wrote %s, run.json and the charts\n", prog, command.Plural(tally.Matches(), "match"), took, strings.Join(filesOf(c), ", "))
			},
			Measuring: func(agents int) {
				fmt.Fprintf(streams.ErrOut, "kingoal: exploitability of the %d agents (exact where it can be, else %d matches each; cached in %s)\n",
					agents, o.exploitMatches, filepath.Join(o.out, arena.ExploitabilityFile))
			},
			Measured: measured.Set,
			ReadOnly: func() {
				fmt.Fprintf(streams.ErrOut, "kingoal: the run in %s is finished and read-only here: its leaderboard, nothing written\n", o.out)
			},
		}})
	matches.Finish()
	measured.Finish()
	if err != nil {
		return command.RunError(err)
	}
	return command.WriteLeaderboard(streams.Out, lb, o.markdown, o.json, o.alpharank)
}
