package solvecmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"

	"github.com/kingoal/kingoal/env"
)

type solveGameOptions struct {
	rules    command.RuleFlags
	payoff   string
	workers  int
	out, png string
	in       string
	json     bool
	force    bool
	noVerify bool
	verify   bool
	maxGiB   float64
	given    []string // rule and payoff flags set on the command line (refused with --in)
}

func newSolveGameCmd(io command.Streams) *cobra.Command {
	var o solveGameOptions
	memory, streamed := game.DefaultGameMemory()
	cmd := &cobra.Command{
		Use:   "game [--payoff P] [rule flags] [--out FILE.kgt|FILE.parquet] [--in FILE.kgt] [--png FILE] [--json]",
		Short: "The substitution game's equilibrium: optimal substitutions when both coaches adapt",
		Long: fmt.Sprintf(`Game solves Basic-mode Kingoal as a two-player zero-sum stochastic game: at every break
both players choose their next line-up at once and hidden, within their moves left. Backward
induction over break states (both line-ups and budgets, time, score) with an exact matrix
game at each break; the kick-off is the hidden choice of starting line-ups. Payoffs:
win-loss (P(win) − P(loss)), goal-diff, advance (knockout).

It prints the game's value, the equilibrium kick-off mix, what the right to substitute is
worth (both sides, only one, neither), and how equilibrium substitutions look at half time
and after goals by score. The whole strategy is checked as it is solved: each side's best
response to the other's strategy, solved in the same backward induction from values of its
own, and the exploitability reported (an error if it exceeds 1e-9; --no-verify skips it).
--out FILE.kgt writes the whole equilibrium as a game table: every break's mixes for both
sides (exactly as checked), the breaks' values (float32), the kick-off's values, the solve's
statistics and check — zstd-compressed and checksummed, streamed as the solve goes: the solve
then keeps no values but the layers it still reads (about two thirds of the memory), and the
summary is printed from the table read back. nash:table=FILE.kgt plays it and --in FILE.kgt
prints this summary from it without solving (--verify checks the loaded strategy again by
both best responses, a separate backward induction: ~2.5 minutes and ~8 GB for the default
game, the table included). --out FILE.parquet writes every break's mixes as Parquet rows (schema game/1) for
analysis; --png a chart of how often home changes by time and score.

Without --out FILE.kgt the solve holds a value for every break state a match can reach. With
no rule flags it solves the default rules (three moves, 45-throw halves, 337 M break states):
~9 minutes and ~%[1]s at the peak on two cores (with --out FILE.kgt ~%[2]s; estimated as
every size here is, BENCHMARKS.md has the measured peaks). The knockout game
with three moves (--knockout --payoff advance, 590 M break states) fits 12 GiB only with
--out FILE.kgt: ~10 minutes, 8.9–9.8 GiB measured. Rules that need more than --max-gib are
refused up front, naming the size; it prints the size first; BENCHMARKS.md has the measured
frontier, and kingoal solve catalogue solves every rule set of the sheets.

With a Dynamic side (--home-mode or --away-mode dynamic, either --dynamic-trigger) the game
after the kick-off has perfect information: a Dynamic side's shift after a throw it wins is a
max (home) or a min (away) inside the throw recursion, with possession in the state under
the turnover trigger, and a break a max or a min over the Basic side's reachable line-ups;
the kick-off stays a hidden matrix game. It prints the value, the kick-off mix, the check and
the equilibrium's decisions at a few times and scores; --out FILE.kgt writes its table (every
decision, a byte each; nash:table= plays it, --in reads it, --in --verify checks it again by
both best responses; --out FILE.parquet and --png are not available for it yet). Every mode pair at the default
length solves with its check in at most 100 s and 7.4 GiB (BENCHMARKS.md).`, memory, streamed),
		Example: `  kingoal solve game --throws-per-half 5 --moves 1
  kingoal solve game --throws-per-half 10 --moves 1 --payoff goal-diff --out game.parquet --png game.png
  kingoal solve game --out game.kgt && kingoal solve game --in game.kgt --out game.parquet
  kingoal solve game --away-mode dynamic --dynamic-trigger turnover`,
		Args: command.ArgsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.Flags().Visit(func(f *pflag.Flag) {
				if _, knob := env.KnobNamed(f.Name); knob || f.Name == "payoff" {
					o.given = append(o.given, "--"+f.Name)
				}
			})
			return runSolveGame(cmd.Context(), io, o)
		},
	}
	f := cmd.Flags()
	command.PayoffFlag(f, &o.payoff, "the payoff (advance: knockout)", "win-loss", "goal-diff", "advance")
	command.WorkersFlag(f, &o.workers, "solving stage games")
	f.StringVar(&o.out, "out", "", "write the equilibrium to FILE.kgt (a game table nash:table= plays) or FILE.parquet (rows of schema game/1)")
	f.StringVar(&o.in, "in", "", "read the equilibrium from a game table (FILE.kgt) instead of solving; the rules are the table's")
	f.BoolVar(&o.verify, "verify", false, "with --in: check the loaded strategy again by both best responses")
	f.StringVar(&o.png, "png", "", "write a PNG of P(home changes its line-up) by time and score")
	command.JSONFlag(f, &o.json, "the result")
	f.BoolVar(&o.force, "force", false, "replace --out and --png if they exist")
	f.BoolVar(&o.noVerify, "no-verify", false, "skip the best-response check of the whole strategy")
	f.Float64Var(&o.maxGiB, "max-gib", 12, "refuse a game whose solve would need more memory than this at its peak (GiB)")
	o.rules.Register(f)
	return cmd
}

func runSolveGame(ctx context.Context, io command.Streams, o solveGameOptions) error {
	if o.in != "" {
		return runLoadedGame(ctx, io, o)
	}
	if o.verify {
		return command.Usagef("--verify checks a table read with --in; a solve checks itself (unless --no-verify)")
	}
	r, payoff, err := command.RulesAndPayoff(o.rules, o.payoff)
	if err != nil {
		return err
	}
	if err := command.CheckWorkers(o.workers); err != nil {
		return err
	}
	if !(o.maxGiB > 0) || o.maxGiB > 1<<20 {
		return command.Usagef("--max-gib %v: want a size in GiB above 0", o.maxGiB)
	}
	table, parquet, err := gameOutputs(o.out)
	if err != nil {
		return err
	}
	name := "the substitution game"
	if solver.HasDynamic(r) {
		if parquet != "" || o.png != "" {
			return command.Usagef("--out FILE.parquet and --png are not available yet for a game with a Dynamic side (--out FILE.kgt is)")
		}
		name = "the game with a Dynamic side"
	}
	release, err := command.ClaimOutputs(map[string]string{"--out": o.out, "--png": o.png}, o.force)
	if err != nil {
		return err
	}
	defer release()
	size, err := solver.Estimate(r, payoff)
	if err != nil {
		return command.Usage(err)
	}
	limit, stream := int64(o.maxGiB*(1<<30)), table != ""
	if peak := size.Peak(!o.noVerify, stream); peak > limit {
		hint := ""
		if streamed := size.Peak(!o.noVerify, true); !stream && streamed <= limit {
			hint = fmt.Sprintf("; with --out FILE.kgt the solve streams its strategy to the table and needs ~%.1f GiB", float64(streamed)/(1<<30))
		}
		return command.Usagef("solve game: %s under these rules holds %d %s and needs ~%.1f GiB at its peak, over --max-gib %v%s (BENCHMARKS.md: the frontier)",
			name, size.States, size.StatesAre, float64(peak)/(1<<30), o.maxGiB, hint)
	}
	what := "solving " + strings.Replace(name, "the game", "the substitution game", 1)
	if !o.noVerify {
		what += " and both best responses"
	}
	fmt.Fprintf(io.ErrOut, "kingoal: %s: %d %s, ~%.0f MiB at the peak\n", what, size.States, size.StatesAre, float64(size.Peak(!o.noVerify, stream))/(1<<20))
	start := time.Now()
	bar := command.NewProgress(io.ErrOut, size.Layers, "layers")
	p := game.Problem{Rules: r, Payoff: payoff, Context: ctx, Workers: o.workers, MaxBytes: limit,
		Verify: !o.noVerify, Progress: func(done, _ int) { _ = bar.Set(done) }}
	var g solver.Game
	if table != "" { // the table is committed only for a solve that passed its check
		g, err = solver.SolveToFile(table, p)
	} else {
		g, err = solver.Solve(p)
	}
	_ = bar.Finish()
	if err != nil {
		return err
	}
	return finishGame(ctx, io, o, solvedGame{g: g, took: time.Since(start)}, parquet)
}

// runLoadedGame is solve game --in: the summary of a game table, no solve.
func runLoadedGame(ctx context.Context, io command.Streams, o solveGameOptions) error {
	if len(o.given) > 0 {
		return command.Usagef("--in %s: the rules and payoff are the table's; drop %s", o.in, strings.Join(o.given, ", "))
	}
	table, parquet, err := gameOutputs(o.out)
	if err != nil {
		return err
	}
	if solver.TableKindOf(o.in) == solver.DynamicTable {
		if o.out != "" || o.png != "" {
			return command.Usagef("--out and --png are not available for the table of a game with a Dynamic side")
		}
	} else if table != "" {
		return command.Usagef("--out %s: the table is already %s (copy it)", table, o.in)
	}
	release, err := command.ClaimOutputs(map[string]string{"--out": o.out, "--png": o.png}, o.force)
	if err != nil {
		return err
	}
	defer release()
	start := time.Now()
	g, err := solver.LoadFile(ctx, o.in)
	if err != nil {
		return fmt.Errorf("--in %s: %w", o.in, err)
	}
	s := solvedGame{g: g, took: time.Since(start), table: o.in}
	if o.verify {
		bar := command.NewProgress(io.ErrOut, g.Stats().Layers, "layers")
		c, err := solver.Verify(ctx, g, func(done, _ int) { _ = bar.Set(done) })
		_ = bar.Finish()
		if err != nil {
			return fmt.Errorf("--in %s --verify: %w", o.in, err)
		}
		if !c.Verified() {
			return notAnEquilibrium(o.in, c)
		}
		s.reverified = &c
	}
	return finishGame(ctx, io, o, s, parquet)
}

// solvedGame is a game solved here or read from a table, and how.
type solvedGame struct {
	g          solver.Game
	took       time.Duration // solving it, or reading the table
	table      string        // the table read instead of solving (--in)
	reverified *game.Check   // the check run again on the loaded table (--in --verify)
}

// finishGame writes a Basic game's Parquet rows and chart, then the report of either kind.
func finishGame(ctx context.Context, io command.Streams, o solveGameOptions, s solvedGame, parquet string) error {
	switch g := s.g.(type) {
	case *game.Game:
		rep, err := newGameReport(g, s)
		if err != nil {
			return err
		}
		if err := writeGameFiles(ctx, io, g, parquet, o.png); err != nil {
			return err
		}
		return output(io, o, rep, renderGame)
	case solver.Decisions:
		return output(io, o, newDynamicGameReport(g, s), renderDynamicGame)
	}
	return fmt.Errorf("solve game: a game of no kind it reports: %T", s.g)
}

// output writes the report as JSON (--json) or as text.
func output[R any](io command.Streams, o solveGameOptions, rep R, render func(command.Streams, R) error) error {
	if o.json {
		return command.WriteJSON(io.Out, rep)
	}
	return render(io, rep)
}
