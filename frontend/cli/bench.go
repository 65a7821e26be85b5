package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/game"
)

func newBenchCmd(streams command.Streams) *cobra.Command {
	var suite, out string
	var force, reportOnly bool
	memory, _ := game.DefaultGameMemory()
	cmd := &cobra.Command{
		Use:   "bench [--suite tiny|standard|default] [--out DIR] [--force | --report-only]",
		Short: "Run Kingoal-Bench: learners measured exactly (NashConv, no sampling) as they learn, beside the solved equilibrium",
		Long:  benchLong(memory),
		Example: `  kingoal bench --suite tiny --out bench-tiny
  kingoal bench --suite standard --out bench-standard
  kingoal bench --suite default --out bench-default --report-only   # after Python learners wrote their rows`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s := bench.Suites[suite]
			if force && reportOnly {
				return command.Usagef("bench: --force and --report-only: choose one")
			}
			if err := command.CheckOutput("--out", out); err != nil {
				return err
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("bench: %w", err)
			}
			lock, err := safefile.LockFile(filepath.Join(out, bench.Files.Table))
			if err != nil {
				return command.LockError(err)
			}
			defer lock.Unlock()
			if force {
				if err := os.RemoveAll(filepath.Join(out, "parts")); err != nil {
					return fmt.Errorf("bench: %w", err)
				}
			}
			progress := streams.ErrOut
			if reportOnly { // nothing runs: no header, no bar
				progress = io.Discard
			}
			fmt.Fprintf(progress, "kingoal: bench suite %s, %s, into %s (seeds in the suite: %s)\n", s.Name, command.Plural(len(s.Entries), "entry"), out, seedsOf(s))
			bar := command.NewProgress(progress, len(s.Entries), "entries")
			rows, err := bench.Run(cmd.Context(), s, bench.Options{Dir: out, ReportOnly: reportOnly, Progress: func(done, _ int, e bench.Entry, last *datasets.BenchCurveRow) {
				what := fmt.Sprintf("%s under %s", e.Learner, e.Rules)
				if last != nil {
					what += fmt.Sprintf(": NashConv %.5f (OpenSpiel's, ±1 returns) after %.0f s", last.OpenSpielNashConv, last.Seconds)
				}
				bar.Describe(what)
				_ = bar.Set(done)
			}})
			_ = bar.Finish()
			if err != nil {
				return err
			}
			if len(rows) == 0 {
				return fmt.Errorf("bench: %s holds no finished entry of suite %s and no external rows to report", out, s.Name)
			}
			if err := bench.Report(out, rows); err != nil {
				return err
			}
			fmt.Fprintf(streams.ErrOut, "kingoal: wrote %s, its charts and %s in %s\n", bench.Files.Table, bench.Files.Markdown, out)
			_, err = fmt.Fprint(streams.Out, bench.Markdown(rows))
			return err
		},
	}
	f := cmd.Flags()
	command.EnumFlag(f, &suite, "suite", "the suite to run", "tiny", "standard", "default")
	f.StringVar(&out, "out", "kingoal-bench", "the report's directory (made if missing; its parts are reused)")
	f.BoolVar(&force, "force", false, "run every entry again (remove DIR/parts)")
	f.BoolVar(&reportOnly, "report-only", false, "run nothing: write the report from DIR's finished entries and external rows")
	return cmd
}

// benchLong is bench's help: what it writes, the units, the suites (memory: the default
// game's peak).
func benchLong(memory string) string {
	return fmt.Sprintf(`Bench runs a declared suite of learners × rule sizes × seeds, with the exact solver's
verified equilibrium as the truth beside them, and measures every learner's policy exactly as
it learns (both best responses, no sampling). It writes DIR/bench.parquet (schema
bench-curve/2: a row a measurement — iteration, samples, full-width passes, learning
seconds, and NashConv and exploitability in OpenSpiel's units and on the score scale),
charts of NashConv against learning time
(nash_conv_seconds.png), against passes (nash_conv_passes.png) and against episodes
(nash_conv_samples.png), and a Markdown summary (bench.md, also printed).

Suites (learners beside the solver):
  tiny      3-throw halves, one move; 44 s on 2 cores idle, ~3 minutes beside other
            work; CI runs it.
            %s
  standard  10-throw halves, one move: the published figures; about half an hour.
            %s
  default   the real rules; about half an hour, the solver ~%s at the peak (the
            full-width learners' strategies would not fit in memory there).
            %s
Units: the headline NashConv is OpenSpiel's, on the registered game whose returns are ±1
(a win +1, a draw 0, a loss −1): what OpenSpiel's exploitability.nash_conv reports. The
score scale (a win 1, a draw ½) halves every gain: score-scale NashConv = OpenSpiel NashConv
/ 2 = OpenSpiel exploitability; score-scale exploitability = OpenSpiel NashConv / 4.

Learners written in Python (kingoal.bench; python/examples: selfplay_maskable_ppo.py for
MaskablePPO and MMD, psro_ppo.py, openspiel_learners.py for OpenSpiel's NFSP, A2C, QPG and
RPG) write their rows into DIR/external, and they join the report. Every finished entry is kept in
DIR/parts, so an interrupted run (Ctrl-C) continues where it stopped when run again; --force
starts over. The same suite gives the same figures but the seconds: the full-width learners
are deterministic and Q-learning's episodes come from the suite's seeds.`,
		suiteLearners("tiny"), suiteLearners("standard"), memory, suiteLearners("default"))
}

// seedsOf lists the seeds s's entries use.
func seedsOf(s bench.Suite) string {
	var seeds []string
	for _, e := range s.Entries {
		if e.Seed != 0 && !strings.Contains(" "+strings.Join(seeds, " ")+" ", fmt.Sprintf(" %d ", e.Seed)) {
			seeds = append(seeds, fmt.Sprint(e.Seed))
		}
	}
	if len(seeds) == 0 {
		return "none"
	}
	return strings.Join(seeds, ", ")
}

// suiteLearners lists a suite's learners for the help, the solver left out (every suite has it).
func suiteLearners(name string) string {
	var names []string
	for _, l := range bench.Suites[name].Learners() {
		if l != "the exact solver" {
			names = append(names, l)
		}
	}
	return strings.Join(names, ", ")
}
