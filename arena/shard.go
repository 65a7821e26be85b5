// A run's shards: the matches of one slice of the fixtures, their files and manifest, read back on resume.

package arena

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/kingoal/kingoal/datasets"
)

// ShardComplete reports whether shard s of the run in dir is on disk with all its matches
// and logs, whole (its manifest agrees with every file). A shard another run wrote is an
// error wrapping ErrForeignShard.
func (d RunDir) ShardComplete(s int) (bool, error) {
	n, ok, err := d.checkShard(s)
	return ok && n == d.plan.shardLen(s), err
}

// shardLen is the number of matches of shard s.
func (c *Plan) shardLen(s int) int64 {
	lo, hi := c.ShardUnits(s)
	return int64((hi - lo) * c.perUnit)
}

// shard is the part of the run held in memory while it is played: the matches of one shard
// (and their logs, if logged), by ID − first.
type shard struct {
	index     int
	first     int64
	matches   []datasets.MatchRow
	throws    [][]datasets.ThrowRecord
	decisions [][]datasets.DecisionRow
	filled    []bool
	n         int // filled rows
}

// newShard returns shard s, empty, reusing spare's memory if it has the size.
func (c *Plan) newShard(s int, spare *shard) *shard {
	per := c.shardMatches()
	n := min(per, c.TotalMatches()-s*per)
	b := spare
	if b == nil || len(b.matches) != n {
		b = &shard{matches: make([]datasets.MatchRow, n), filled: make([]bool, n)}
		if c.LogThrows {
			b.throws = make([][]datasets.ThrowRecord, n)
		}
		if c.LogDecisions {
			b.decisions = make([][]datasets.DecisionRow, n)
		}
	} else {
		clear(b.filled)
		clear(b.throws)
		clear(b.decisions)
	}
	b.index, b.first, b.n = s, int64(s*per), 0
	return b
}

func (b *shard) put(p Played) {
	i := p.Match.MatchID - b.first
	if !b.filled[i] {
		b.n++
	}
	b.matches[i], b.filled[i] = p.Match, true
	if b.throws != nil {
		b.throws[i] = p.Throws
	}
	if b.decisions != nil {
		b.decisions[i] = p.Decisions
	}
}

func (b *shard) drop(i int) {
	if b.filled[i] {
		b.filled[i] = false
		b.n--
	}
}

func (b *shard) complete() bool { return b.n == len(b.matches) }

// WriteShard writes shard s of the run in dir from its matches, given in any order, each
// file atomically under a name fixed by s: writing a shard again (a retried task) replaces
// it with the same bytes.
func (d RunDir) WriteShard(s int, matches []Played) error {
	b := d.plan.newShard(s, nil)
	for _, p := range matches {
		if d.plan.ShardOf(p.Match.MatchID) != s {
			return fmt.Errorf("arena: match %d does not belong to shard %d", p.Match.MatchID, s)
		}
		b.put(p)
	}
	return d.writeShard(b)
}

// readShard reads shard s of an earlier attempt. Only whole units count: a unit missing any
// of its matches or logs is dropped and played again. ok is false if the shard is torn (its
// files disagree with its manifest) or a file is unreadable; a shard of another run is an
// error.
func (d RunDir) readShard(s int) (b *shard, ok bool, err error) {
	if _, whole, err := d.checkShard(s); err != nil || !whole {
		return nil, false, err
	}
	b, ok = d.readShardFiles(s)
	return b, ok, nil
}

// readShardFiles reads the files of shard s, whose manifest agrees with them.
func (d RunDir) readShardFiles(s int) (b *shard, ok bool) {
	c, dir := d.plan, d.Path
	b = c.newShard(s, nil)
	ms, err := datasets.ReadParquet[datasets.MatchRow](ShardFile(dir, "matches", s), datasets.MatchesSchema)
	if err != nil {
		return nil, false
	}
	index := func(id int64) (int, bool) {
		i := id - b.first
		return int(i), i >= 0 && i < int64(len(b.matches))
	}
	for _, m := range ms {
		if _, in := index(m.MatchID); !in {
			return nil, false
		}
		b.put(Played{Match: m})
	}
	if c.LogThrows {
		ts, err := datasets.ReadParquet[datasets.ThrowRow](ShardFile(dir, "throws", s), datasets.ThrowsSchema)
		if err != nil {
			return nil, false // the files of a shard go together
		}
		for _, t := range ts {
			i, in := index(t.MatchID)
			r, err := datasets.ThrowRecordOf(t)
			if !in || !b.filled[i] || err != nil {
				return nil, false
			}
			b.throws[i] = append(b.throws[i], r)
		}
	}
	if c.LogDecisions {
		ds, err := datasets.ReadParquet[datasets.DecisionRow](ShardFile(dir, "decisions", s), datasets.DecisionsSchema)
		if err != nil {
			return nil, false
		}
		for _, d := range ds {
			i, in := index(d.MatchID)
			if !in || !b.filled[i] {
				return nil, false
			}
			b.decisions[i] = append(b.decisions[i], d)
		}
	}
	mpu := c.perUnit
	for u := 0; u < len(b.matches); u += mpu { // only whole units are kept
		if slices.Contains(b.filled[u:u+mpu], false) {
			for i := u; i < u+mpu; i++ {
				b.drop(i)
			}
		}
	}
	return b, true
}

// writeShard writes the filled matches of b (and their logs) as shard files.
func (d RunDir) writeShard(b *shard) error {
	c, dir := d.plan, d.Path
	ms := b.matches
	if !b.complete() {
		ms = make([]datasets.MatchRow, 0, b.n)
		for i, m := range b.matches {
			if b.filled[i] {
				ms = append(ms, m)
			}
		}
	}
	// The manifest goes first and comes back last: a kill in between leaves a shard that
	// counts for nothing, never old logs beside new matches.
	if err := os.Remove(manifestPath(dir, b.index)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("arena: %w", err)
	}
	rows := map[string]int64{"matches": int64(len(ms))}
	err := datasets.WriteParquet(ShardFile(dir, "matches", b.index), datasets.MatchesSchema, ms)
	if err == nil && c.LogThrows {
		rows["throws"], err = writeLogs(ShardFile(dir, "throws", b.index), datasets.ThrowsSchema, b, b.throws)
	}
	if err == nil && c.LogDecisions {
		rows["decisions"], err = writeLogs(ShardFile(dir, "decisions", b.index), datasets.DecisionsSchema, b, b.decisions)
	}
	if err != nil {
		return err
	}
	return d.writeManifest(b.index, rows)
}

// writeLogs writes the logs of b's filled matches in match order, match by match (joining
// them first would copy every row once more), and returns how many rows it wrote.
func writeLogs[T any](path, schema string, b *shard, logs [][]T) (int64, error) {
	w, err := datasets.NewParquetWriter[T](path, schema)
	if err != nil {
		return 0, err
	}
	n := 0
	for i, l := range logs {
		if b.filled[i] {
			w.Write(l) // sticky: Close reports it
			n += len(l)
		}
	}
	return int64(n), w.Close()
}
