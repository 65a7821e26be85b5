package bench

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/charts"
	"github.com/kingoal/kingoal/internal/safefile"
)

// Files are a report's, in its directory.
var Files = struct{ Table, BySeconds, ByPasses, BySamples, Markdown string }{
	"bench.parquet", "nash_conv_seconds.png", "nash_conv_passes.png", "nash_conv_samples.png", "bench.md"}

// Report writes rows to dir: the table, the three charts (a chart with no learner of its
// kind is not written) and the Markdown summary, each atomically.
func Report(dir string, rows []datasets.BenchCurveRow) error {
	if err := datasets.WriteParquet(filepath.Join(dir, Files.Table), datasets.BenchCurveSchema, rows); err != nil {
		return err
	}
	runs := byRun(rows)
	for _, c := range []struct {
		file, x string
		at      func(datasets.BenchCurveRow) float64
		kind    func(datasets.BenchCurveRow) bool
	}{
		{Files.BySeconds, "learning time (s)", func(r datasets.BenchCurveRow) float64 { return r.Seconds }, func(r datasets.BenchCurveRow) bool { return r.Learner != "solver" && r.Exact }},
		{Files.ByPasses, "full-width passes over the break states", func(r datasets.BenchCurveRow) float64 { return float64(r.Passes) }, func(r datasets.BenchCurveRow) bool { return r.Passes > 0 }},
		{Files.BySamples, "samples (episodes played; the PPO-based learners: decisions trained on)", func(r datasets.BenchCurveRow) float64 { return float64(r.Samples) }, func(r datasets.BenchCurveRow) bool { return r.Samples > 0 && r.Exact }},
	} {
		var series []charts.Series
		for _, run := range runs {
			var xy plotter.XYs
			for _, r := range run {
				if c.kind(r) {
					xy = append(xy, plotter.XY{X: c.at(r), Y: math.Log10(max(r.OpenSpielNashConv, 1e-12))})
				}
			}
			if len(xy) > 0 {
				series = append(series, charts.Series{Name: runName(run[0]), Points: xy})
			}
		}
		if len(series) == 0 {
			continue
		}
		title := fmt.Sprintf("Kingoal-Bench %s: exact NashConv (OpenSpiel's, ±1 returns) of each learner's policy", rows[0].Suite)
		if err := charts.LineChart(filepath.Join(dir, c.file), title, c.x, "log10 OpenSpiel NashConv (±1 returns; −12: 0)", series...); err != nil {
			return err
		}
	}
	md := Markdown(rows)
	return safefile.WriteAtomic(filepath.Join(dir, Files.Markdown), func(w io.Writer) error { _, err := io.WriteString(w, md); return err })
}

// byRun groups rows by run (rules, learner, seed; a search's budget), in the rows' order of
// first appearance.
func byRun(rows []datasets.BenchCurveRow) [][]datasets.BenchCurveRow {
	var runs [][]datasets.BenchCurveRow
	at := map[[3]string]int{}
	for _, r := range rows {
		k := [3]string{r.Rules, runName(r), fmt.Sprint(r.Seed)}
		i, ok := at[k]
		if !ok {
			i = len(runs)
			at[k] = i
			runs = append(runs, nil)
		}
		runs[i] = append(runs[i], r)
	}
	return runs
}

// runName names a run in a chart's legend.
func runName(r datasets.BenchCurveRow) string {
	name := r.Learner
	if !r.Exact {
		name += fmt.Sprintf(" (%d simulations a decision)", r.Samples)
	}
	if r.Seed != 0 {
		name += fmt.Sprintf(" (seed %d)", r.Seed)
	}
	return name
}

// Markdown is the summary: a row a run — its last measurement, its best, and what it spent —
// under the rules it ran, the solver's verified equilibrium first.
func Markdown(rows []datasets.BenchCurveRow) string {
	var b strings.Builder
	runs := byRun(rows)
	slices.SortStableFunc(runs, func(a, b []datasets.BenchCurveRow) int {
		return cmp.Or(cmp.Compare(a[0].Rules, b[0].Rules), cmp.Compare(boolInt(a[0].Learner != "solver"), boolInt(b[0].Learner != "solver")))
	})
	fmt.Fprintf(&b, "| rules | learner | seed | final NashConv (OpenSpiel, ±1) | best NashConv (OpenSpiel, ±1) | final NashConv (score scale) | seconds | passes | samples |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, run := range runs {
		last, best := run[len(run)-1], run[0].OpenSpielNashConv
		for _, r := range run {
			best = min(best, r.OpenSpielNashConv)
		}
		seed, passes, samples := "—", "—", "—"
		if last.Seed != 0 {
			seed = fmt.Sprint(last.Seed)
		}
		if last.Passes > 0 {
			passes = fmt.Sprint(last.Passes)
		}
		if last.Samples > 0 {
			samples = fmt.Sprint(last.Samples)
		}
		learner := last.Learner
		if learner == "solver" {
			learner = "solver (exact equilibrium, verified)"
		}
		final, bestText, score := fmt.Sprintf("%.6f", last.OpenSpielNashConv), fmt.Sprintf("%.6f", best), fmt.Sprintf("%.6f", last.ScoreNashConv)
		if !last.Exact { // a search: an exploiter's estimate, a lower bound
			learner = fmt.Sprintf("%s at %d simulations a decision (estimated: an exploiter's matches)", last.Learner, last.Samples)
			final, bestText, samples = fmt.Sprintf("≥ %.4f ± %.4f", last.OpenSpielNashConv, last.OpenSpielNashConvCI95), "—", "—"
			score = fmt.Sprintf("≥ %.4f ± %.4f", last.ScoreNashConv, last.OpenSpielNashConvCI95/2)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %.2f | %s | %s |\n", last.Rules, learner, seed, final, bestText, score, last.Seconds, passes, samples)
	}
	b.WriteString("\nNashConv: the two best responses' gains summed. " + exploit.UnitsNote + "\n")
	return b.String()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
