package arenabeam

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	// The runners of Runners, and no others (beamx would link every runner).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"

	"github.com/kingoal/kingoal/arena"
)

// Runners are the Beam runners kingoal-beam links in: prism runs in this process; the
// others submit to a cluster through Beam's standard options (--endpoint for a Flink or
// Spark job server; --project, --region, --temp_location, … for Dataflow).
var Runners = []string{"prism", "flink", "spark", "dataflow"}

// Run plays the plan c into dir on a Beam runner and returns the tally the pipeline combined. With
// resume, the shards an earlier attempt finished are read instead of played. status gets
// a line before and after.
func Run(ctx context.Context, runner string, c *arena.Plan, dir string, resume bool, status io.Writer) (*arena.Tally, error) {
	return run(ctx, runner, c, dir, resume, status, Options{})
}

func run(ctx context.Context, runner string, c *arena.Plan, dir string, resume bool, status io.Writer, opt Options) (*arena.Tally, error) {
	known := false
	for _, r := range Runners {
		known = known || r == runner
	}
	if !known {
		return nil, fmt.Errorf("arenabeam: runner %q: want one of %v", runner, Runners)
	}
	if !beam.Initialized() {
		beam.Init()
	}
	run := c.Dir(dir)
	if err := run.Start(resume); err != nil {
		return nil, err
	}
	if resume {
		for s := range c.Shards() {
			whole, err := run.ShardComplete(s)
			if err != nil {
				return nil, err
			}
			if whole {
				opt.Done = append(opt.Done, s)
			}
		}
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Arena(s, c, dir, opt); err != nil {
		return nil, err
	}
	fmt.Fprintf(status, "kingoal-beam: %d matches in %d shards (%d done) on %s\n", c.TotalMatches(), c.Shards(), len(opt.Done), runner)
	began := time.Now()
	if _, err := beam.Run(ctx, runner, p); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted; shards written so far are kept in %s (Beam writes them after the play stage): continue with --out %s --resume: %w", dir, dir, ctx.Err())
		}
		// Beam's errors span lines ("caused by:"); a command's error is one line.
		msg := strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "caused by:", "—")), " ")
		return nil, fmt.Errorf("arenabeam: the pipeline failed (finished shards are kept in %s; run again with --resume): %s", dir, msg)
	}
	b, err := os.ReadFile(filepath.Join(dir, TallyFile))
	if err != nil {
		return nil, fmt.Errorf("arenabeam: the pipeline ended without its tally: %w", err)
	}
	var t arena.Tally
	if err := json.Unmarshal(b, &t); err != nil || t.N != len(c.Agents) {
		return nil, fmt.Errorf("arenabeam: %s is not this run's tally", filepath.Join(dir, TallyFile))
	}
	fmt.Fprintf(status, "kingoal-beam: pipeline done in %.1fs\n", time.Since(began).Seconds())
	return &t, nil
}
