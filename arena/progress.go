// How far a run has come, read from its files while it is played.

package arena

import (
	"context"
	"fmt"

	"github.com/kingoal/kingoal/datasets"
)

// Progress is how far the run in a directory has come, read from its files alone (no agent
// is built, so it is cheap while the run plays): its shards, those whole on disk, and the
// tally of the matches on disk (an interrupted run's last shards may be part-played). A
// finished run has every shard done.
type Progress struct {
	Info    RunInfo
	Shards  int    // the run's shards
	Done    int    // those whole on disk with all their matches
	Matches int    // the matches on disk, of Info.TotalMatches
	Tally   *Tally // those matches summed
	full    *Tally // the done shards' matches, which do not change: kept for the next reading
	counted []bool // by shard: done, in full
}

// Progress reads how far the run has come. prev, if not nil, is an earlier reading of the
// same directory: the done shards it counted are not read again while the run is the same
// one (a done shard of a run never changes). A shard of another run is an error wrapping
// ErrForeignShard.
func (r RunFiles) Progress(ctx context.Context, prev *Progress) (*Progress, error) {
	info, c, err := r.config()
	if err != nil {
		return nil, err
	}
	d := RunDir{Path: r.Path(), files: r, plan: layout(c)}
	if info.ShardSize > 0 { // run.json's, which a run resumes with
		d.plan.useShardSize(info.ShardSize)
	}
	d.plan.runID = info.RunID()
	p := &Progress{Info: info, Shards: d.plan.Shards(), full: c.NewTally(), counted: make([]bool, d.plan.Shards())}
	if prev != nil && prev.Info.RunID() == info.RunID() && len(prev.counted) == p.Shards {
		if prev.Info.Complete && info.Complete {
			return prev, nil
		}
		p.full.Merge(prev.full)
		copy(p.counted, prev.counted)
	}
	if info.Complete {
		if p.Tally, err = r.Tally(info); err != nil {
			return nil, err
		}
		p.Done, p.Matches, p.full = p.Shards, p.Tally.Matches(), p.Tally
		for s := range p.counted {
			p.counted[s] = true
		}
		return p, nil
	}
	p.Tally = c.NewTally()
	for s := range p.Shards {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if p.counted[s] {
			p.Done++
			continue
		}
		part, done, err := d.tallyShard(s, c.NewTally())
		switch {
		case err != nil:
			return nil, err
		case done:
			p.full.Merge(part)
			p.counted[s] = true
			p.Done++
		case part != nil:
			p.Tally.Merge(part)
		}
	}
	p.Tally.Merge(p.full)
	p.Matches = p.Tally.Matches()
	return p, nil
}

// tallyShard adds shard s's matches to t, if its files are whole (nil otherwise), and
// reports whether it holds all its matches.
func (d RunDir) tallyShard(s int, t *Tally) (*Tally, bool, error) {
	n, whole, err := d.checkShard(s)
	if err != nil || !whole {
		return nil, false, err
	}
	f, err := d.open(ShardFile("", "matches", s))
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	err = datasets.ScanParquetFile(f, datasets.MatchesSchema, func(batch []datasets.MatchRow) error {
		for _, m := range batch {
			if err := t.Add(m); err != nil {
				return fmt.Errorf("%w (shard %d of %s)", err, s, d.Path)
			}
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return t, n == d.plan.shardLen(s), nil
}

// ReadProgress reads the progress of the run in dir (see RunFiles.Progress).
func ReadProgress(ctx context.Context, dir string, prev *Progress) (*Progress, error) {
	return withRun(dir, func(r RunFiles) (*Progress, error) { return r.Progress(ctx, prev) })
}
