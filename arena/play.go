package arena

import (
	"context"
	"runtime"
	"sync"
)

// result is what a worker sends back: the matches of a batch of units, in ID order.
type result []Played

// play runs every unit not on disk or in open on the workers, writes each shard (in the
// background) when it is complete and, if interrupted, the finished matches of every open
// shard. Three pieces, as in a pipeline: a dispatcher sends batches of units to play, the
// workers play them, the collector files the matches into shards and writes those that are
// complete.
func (d RunDir) play(ctx context.Context, onDisk []bool, open map[int]*shard, tally *Tally, done int, opt Options) error {
	c := d.plan
	workers := c.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	inner, cancel := context.WithCancel(ctx) // a failure stops the dispatch too
	defer cancel()
	r := &runner{c: c, dir: d, ctx: inner, cancel: cancel,
		jobs: make(chan []int), results: make(chan result),
		spareBatches: make(chan result, 2*workers), spareShards: make(chan *shard, workers), slots: make(chan struct{}, workers)}
	skip := c.skipped(open) // fixed before anything runs: the collector changes open
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() { defer wg.Done(); r.work() }()
	}
	go r.dispatch(onDisk, skip, workers)
	go func() { wg.Wait(); close(r.results) }()
	r.collect(open, tally, done, opt.Events.Matches)
	if ctx.Err() != nil { // save what the open shards hold
		for _, b := range open {
			if b.n > 0 {
				r.write(b)
			}
		}
	}
	r.writing.Wait()
	if r.firstErr != nil {
		return r.firstErr
	}
	return ctx.Err()
}

// skipped marks, for each partly played shard, the units an earlier attempt finished.
func (c *Plan) skipped(open map[int]*shard) map[int][]bool {
	mpu := c.perUnit
	skip := map[int][]bool{}
	for s, b := range open {
		units := make([]bool, (len(b.matches)+mpu-1)/mpu)
		for u := range units {
			units[u] = b.filled[u*mpu]
		}
		skip[s] = units
	}
	return skip
}

// runner is one play's shared state.
type runner struct {
	c      *Plan
	dir    RunDir
	ctx    context.Context // cancelled by the first failure
	cancel context.CancelFunc

	mu       sync.Mutex
	firstErr error

	jobs    chan []int // batches of units: one channel send per batch, not per match
	results chan result
	// Spent batches and written shards are used again: the garbage they would make costs
	// about as much as the matches.
	spareBatches chan result
	spareShards  chan *shard
	// Complete shards are encoded in the background, at most one per worker at a time, so
	// encoding runs in parallel with play and memory stays bounded.
	writing sync.WaitGroup
	slots   chan struct{}
}

// fail records the first error and stops the run.
func (r *runner) fail(err error) {
	r.mu.Lock()
	if r.firstErr == nil {
		r.firstErr = err
	}
	r.mu.Unlock()
	r.cancel()
}

// work plays batches of units with its own agents until the jobs run out or the run stops.
func (r *runner) work() {
	player, err := NewWorker(r.ctx, r.c)
	if err != nil {
		r.fail(err)
		return
	}
	mpu := r.c.perUnit
	for batch := range r.jobs {
		var rows result
		select {
		case rows = <-r.spareBatches:
		default:
			rows = make(result, 0, len(batch)*mpu)
		}
		for _, u := range batch {
			if rows, err = player.PlayUnit(u, rows); err != nil {
				break
			}
		}
		r.results <- rows // the whole units, also of a batch cut short
		if err != nil {
			if r.ctx.Err() == nil { // an interruption is the parent's to report
				r.fail(err)
			}
			return
		}
	}
}

// dispatch sends the units to play, in order and in batches, skipping complete shards and
// the finished units of partly played ones.
func (r *runner) dispatch(onDisk []bool, skip map[int][]bool, workers int) {
	defer close(r.jobs)
	c := r.c
	ups, units := c.unitsPerShard, c.units
	// Logged matches: no more than a shard a batch; and at least four batches a worker, so
	// that every worker plays (an arena with a live agent has a hundred, each a match in
	// flight whose decisions join the live policy's batches).
	per := max(1, min(256, c.shardSize, units/(4*workers))/c.perUnit)
	b := make([]int, 0, per)
	for s := range onDisk {
		if onDisk[s] {
			continue
		}
		for u := s * ups; u < min((s+1)*ups, units); u++ {
			if skip[s] != nil && skip[s][u-s*ups] {
				continue
			}
			b = append(b, u)
			if len(b) < per && u != units-1 {
				continue
			}
			if r.ctx.Err() != nil { // cancellation first: at most the batches in flight finish
				return
			}
			select {
			case r.jobs <- b:
				b = make([]int, 0, per)
			case <-r.ctx.Done():
				return
			}
		}
	}
	if len(b) > 0 && r.ctx.Err() == nil {
		select {
		case r.jobs <- b:
		case <-r.ctx.Done():
		}
	}
}

// collect files the played matches into their shards, counts them and writes each shard as
// it completes.
func (r *runner) collect(open map[int]*shard, tally *Tally, done int, progress func(done, total int)) {
	per := r.c.shardMatches()
	total := r.c.TotalMatches()
	for batch := range r.results {
		for _, p := range batch {
			s := int(p.Match.MatchID) / per
			b := open[s]
			if b == nil {
				var spare *shard
				select {
				case spare = <-r.spareShards:
				default:
				}
				b = r.c.newShard(s, spare)
				open[s] = b
			}
			b.put(p)
			if err := tally.Add(p.Match); err != nil {
				r.fail(err)
			}
			if b.complete() {
				delete(open, s) // written now: memory holds only the open shards
				r.write(b)
			}
		}
		done += len(batch)
		if progress != nil {
			progress(done, total)
		}
		clear(batch) // a spare batch must not hold its matches' logs alive
		select {
		case r.spareBatches <- batch[:0]:
		default:
		}
	}
}

// write encodes shard b in the background (see slots).
func (r *runner) write(b *shard) {
	r.slots <- struct{}{}
	r.writing.Add(1)
	go func() {
		defer func() { <-r.slots; r.writing.Done() }()
		if err := r.dir.writeShard(b); err != nil {
			r.fail(err)
		}
		// A spare keeps its match rows for reuse, not its logs: held by the spares, a
		// shard's logs doubled the run's memory (throw rows were ~100 MB a shard then;
		// records are ~2 MB, decisions still tens of MB).
		clear(b.throws)
		clear(b.decisions)
		select {
		case r.spareShards <- b:
		default:
		}
	}()
}
