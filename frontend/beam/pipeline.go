package arenabeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/internal/safefile"
)

// TallyFile is the run directory's copy of the combined tally (the leaderboard's input),
// written by the pipeline's last step.
const TallyFile = "tally.json"

// batchUnits is the number of units (fixtures, or whole cups) a work item plays: enough to
// make the per-element cost of the runner small, few enough to spread a small run.
const batchUnits = 64

// work is one item of the fixture list: units [Lo, Hi) of shard Shard.
type work struct {
	Shard, Lo, Hi int
}

// spec is what every step needs to rebuild the competition: the arena configuration as
// JSON (DoFn fields are serialised with the pipeline; a string keeps that exact) and the
// run directory, which every worker must see (a local disk for prism, a shared filesystem
// on a cluster).
type spec struct {
	Config string
	Dir    string
}

func (s spec) config() (arena.Config, error) {
	var c arena.Config
	if err := json.Unmarshal([]byte(s.Config), &c); err != nil {
		return c, fmt.Errorf("arenabeam: configuration: %w", err)
	}
	return c, nil
}

// plan is the configuration's arena.Plan, made once per DoFn instance (in Setup): the
// runner stops a DoFn, so its agents need no context of their own.
func (s spec) plan() (*arena.Plan, error) {
	c, err := s.config()
	if err != nil {
		return nil, err
	}
	return arena.NewPlan(context.Background(), c)
}

// listWork emits the fixture list: every shard to play, in batches of units.
type listWork struct {
	spec
	Shards []int
}

func (f *listWork) ProcessElement(_ []byte, emit func(work)) error {
	c, err := f.plan()
	if err != nil {
		return err
	}
	per := max(1, batchUnits/max(1, c.TotalMatches()/max(1, c.Units())))
	for _, s := range f.Shards {
		lo, hi := c.ShardUnits(s)
		for u := lo; u < hi; u += per {
			emit(work{s, u, min(u+per, hi)})
		}
	}
	return nil
}

// playUnits plays a batch with agents built once per DoFn instance, keyed by shard.
type playUnits struct {
	spec
	player *arena.Worker
}

func (f *playUnits) Setup() error {
	c, err := f.plan()
	if err != nil {
		return err
	}
	f.player, err = arena.NewWorker(context.Background(), c)
	return err
}

// ProcessElement emits the batch's matches as one element: the runner's cost is per
// element, and a match is much cheaper than that.
func (f *playUnits) ProcessElement(w work, emit func(int, []arena.Played)) error {
	var out []arena.Played
	for u := w.Lo; u < w.Hi; u++ {
		var err error
		if out, err = f.player.PlayUnit(u, out); err != nil {
			return err
		}
	}
	emit(w.Shard, out)
	return nil
}

// writeShard writes one shard's files (atomically, under names fixed by the shard: a
// retried bundle replaces them) and then passes its matches on to the tally.
type writeShard struct {
	spec
	// FailOnce, if set, names a marker file: the first attempt to write shard FailShard
	// writes it, then fails, as a worker dying after its output would; tests use it.
	FailOnce  string
	FailShard int
	run       arena.RunDir
}

func (f *writeShard) Setup() error {
	c, err := f.plan()
	f.run = c.Dir(f.Dir)
	return err
}

func (f *writeShard) ProcessElement(s int, batches func(*[]arena.Played) bool, emit func(datasets.MatchRow)) error {
	c := f.run.Plan()
	lo, hi := c.ShardUnits(s)
	all := make([]arena.Played, 0, (hi-lo)*c.TotalMatches()/c.Units())
	var batch []arena.Played
	for batches(&batch) {
		all = append(all, batch...)
		batch = nil
	}
	if err := f.run.WriteShard(s, all); err != nil {
		return err
	}
	if f.FailOnce != "" && s == f.FailShard {
		if _, err := os.Stat(f.FailOnce); errors.Is(err, os.ErrNotExist) {
			os.WriteFile(f.FailOnce, nil, 0o644)
			return fmt.Errorf("arenabeam: deliberate failure after writing shard %d", s)
		}
	}
	for _, p := range all {
		emit(p.Match)
	}
	return nil
}

// readShard passes on the matches of a shard finished by an earlier attempt (resume).
type readShard struct{ spec }

func (f *readShard) ProcessElement(s int, emit func(datasets.MatchRow)) error {
	return datasets.ScanParquet(arena.ShardFile(f.Dir, "matches", s), datasets.MatchesSchema, func(batch []datasets.MatchRow) error {
		for _, m := range batch {
			emit(m)
		}
		return nil
	})
}

// tallyMatches is the leaderboard's aggregation as a combine: a tally per bundle, merged.
type tallyMatches struct{ spec }

func (f *tallyMatches) CreateAccumulator() *arena.Tally {
	c, err := f.config()
	if err != nil {
		panic(err) // as in AddInput: the runner fails the bundle with it
	}
	return c.NewTally()
}

func (f *tallyMatches) AddInput(t *arena.Tally, m datasets.MatchRow) *arena.Tally {
	if err := t.Add(m); err != nil {
		panic(err) // a combine cannot return an error: the runner fails the bundle with it
	}
	return t
}

func (f *tallyMatches) MergeAccumulators(a, b *arena.Tally) *arena.Tally {
	a.Merge(b)
	return a
}

// finish runs once every shard is written (its input, the combined tally, exists only
// then): it concatenates the shards into the run's files, marks run.json complete and
// saves the tally.
type finish struct{ spec }

func (f *finish) ProcessElement(t *arena.Tally) error {
	c, err := f.plan()
	if err != nil {
		return err
	}
	if got, want := t.Matches(), c.TotalMatches(); got != want {
		return fmt.Errorf("arenabeam: the tally counts %d matches, the run has %d", got, want)
	}
	if err := c.Dir(f.Dir).Finish(); err != nil {
		return err
	}
	return safefile.WriteAtomic(filepath.Join(f.Dir, TallyFile), func(w io.Writer) error { return json.NewEncoder(w).Encode(t) })
}

func encodeTally(t *arena.Tally) ([]byte, error) { return json.Marshal(t) }

func decodeTally(b []byte) (*arena.Tally, error) {
	var t arena.Tally
	err := json.Unmarshal(b, &t)
	return &t, err
}

func init() {
	register.DoFn2x1[[]byte, func(work), error](&listWork{})
	register.DoFn2x1[work, func(int, []arena.Played), error](&playUnits{})
	register.DoFn3x1[int, func(*[]arena.Played) bool, func(datasets.MatchRow), error](&writeShard{})
	register.DoFn2x1[int, func(datasets.MatchRow), error](&readShard{})
	register.Combiner2[*arena.Tally, datasets.MatchRow](&tallyMatches{})
	register.DoFn1x1[*arena.Tally, error](&finish{})
	register.Emitter1[work]()
	register.Emitter2[int, []arena.Played]()
	register.Emitter1[datasets.MatchRow]()
	register.Iter1[[]arena.Played]()
	beam.RegisterType(reflect.TypeOf((*work)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*arena.Played)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*datasets.MatchRow)(nil)).Elem())
	beam.RegisterCoder(reflect.TypeOf((*arena.Tally)(nil)), encodeTally, decodeTally)
}

// Options tune Arena.
type Options struct {
	// Done lists shards finished by an earlier attempt (resume): they are read, not played.
	Done []int
	// FailOnce and FailShard inject one failure after shard FailShard is written (tests).
	FailOnce  string
	FailShard int
}

// Arena adds the competition c, written into dir, to the pipeline:
//
//	fixtures (impulse → work items) → reshuffle → play (registry agents, the arena's per-match
//	seeds) → group by shard → write shard Parquet (datasets schemas, parquet-go) →
//	combine into a tally → finish (matches.parquet, run.json, tally.json)
//
// Start the run directory (RunDir.Start) first; the pipeline's result is the same set of
// files, byte for byte, as arena.Local's.
func Arena(s beam.Scope, c *arena.Plan, dir string, opt Options) error {
	cj, err := json.Marshal(c.Config)
	if err != nil {
		return err
	}
	sp := spec{Config: string(cj), Dir: dir}
	done := map[int]bool{}
	for _, d := range opt.Done {
		done[d] = true
	}
	var todo []int
	for sh := range c.Shards() {
		if !done[sh] {
			todo = append(todo, sh)
		}
	}
	s = s.Scope("kingoal-arena")
	items := beam.ParDo(s, &listWork{spec: sp, Shards: todo}, beam.Impulse(s))
	played := beam.ParDo(s, &playUnits{spec: sp}, beam.Reshuffle(s, items))
	written := beam.ParDo(s, &writeShard{spec: sp, FailOnce: opt.FailOnce, FailShard: opt.FailShard}, beam.GroupByKey(s, played))
	matches := written
	if len(opt.Done) > 0 {
		kept := beam.ParDo(s, &readShard{spec: sp}, beam.CreateList(s, opt.Done))
		matches = beam.Flatten(s, written, kept)
	}
	tally := beam.Combine(s, &tallyMatches{spec: sp}, matches)
	beam.ParDo0(s, &finish{spec: sp}, tally)
	return nil
}
