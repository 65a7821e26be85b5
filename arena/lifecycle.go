package arena

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"

	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/safefile"
)

// A run directory's life, from the arena's side: prepared (locked against a second writer,
// what a killed process left removed, an earlier run replaced or refused), played by an
// engine, finished (matches.parquet, run.json), measured (the exploitability column, cached)
// and summed up (the leaderboard and its files). Run does it all; a front end maps its
// flags to Options and renders the Leaderboard it returns.

// Engine plays the planned competition p into the run directory dir and returns its tally,
// resuming the run there if o.Resume is set and calling o.Events.Matches as matches finish.
// Local plays on this machine's cores; kingoal-beam passes one that runs an Apache Beam
// pipeline.
type Engine func(ctx context.Context, p *Plan, dir string, o Options) (*Tally, error)

// Local is the Engine of this machine: Plan.Run on p.Workers goroutines.
func Local(ctx context.Context, p *Plan, dir string, o Options) (*Tally, error) {
	return p.Run(ctx, dir, o)
}

// DefaultExploitabilityMatches is the matches behind each estimated exploitability when
// Options leaves it at 0.
const DefaultExploitabilityMatches = 200

// Options tune Run, Generate and Play, and are what an Engine is handed: it reads Resume and
// reports Events.Matches. The zero value plays a fresh run on this machine and measures the
// exploitability column (unless the plan's Config.NoExploitability skips it).
type Options struct {
	Resume bool   // continue the run in the directory, keeping its finished shards
	Force  bool   // replace a run in the directory (Resume and Force: choose one)
	Engine Engine // nil: Local
	// ExploitabilityMatches are the matches behind each estimated exploitability (0:
	// DefaultExploitabilityMatches).
	ExploitabilityMatches int
	// KnownExploitability are figures measured elsewhere, by agent spec (see
	// ColumnOptions.Known): a live agent's, a zoo policy's.
	KnownExploitability map[string]exploit.Exploitability
	Events              Events
}

// Events are called as a run goes, from the goroutine that called Run (Matches and
// Measured from the engine's and the measurement's); each may be nil.
type Events struct {
	Playing   func()                // the directory is locked and ready: the matches begin
	Matches   func(done, total int) // matches finished so far (an engine that reports them)
	Played    func(t *Tally)        // every match played and the run's files finished
	Measuring func(agents int)      // the exploitability column is not cached: measuring it
	Measured  func(done, total int) // agents measured so far
	// ReadOnly: a resume of a finished run this process may not write; its leaderboard is
	// read from its files and nothing is written.
	ReadOnly func()
}

// InterruptedError is a run stopped by its context: what it keeps and how it goes on.
type InterruptedError struct {
	Dir string
	// Measuring: the matches were all played and the run is complete; the exploitability
	// column was being measured. Otherwise the finished matches are kept for a resume.
	Measuring bool
	Err       error // the context's error
}

func (e *InterruptedError) Error() string {
	if e.Measuring {
		return fmt.Sprintf("arena: interrupted while measuring the exploitability; the run in %s is complete: %v", e.Dir, e.Err)
	}
	return fmt.Sprintf("arena: interrupted; the finished matches are kept in %s: %v", e.Dir, e.Err)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// Run plays the planned competition p into the run directory dir and returns its
// leaderboard, its files written: dir is locked for the whole run (another writer is
// refused with a *safefile.LockedError), cleared with o.Force or refused when it holds a run
// (an *ExistingRunError) or none to resume (ErrNoRun), played by o.Engine, then the
// exploitability column is measured (or read from the run's cache), and the leaderboard
// computed and written (Leaderboard.WriteFiles). Interrupted by ctx, it returns an
// *InterruptedError: the finished matches are kept for o.Resume.
func Run(ctx context.Context, dir string, p *Plan, o Options) (*Leaderboard, error) {
	lock, err := prepare(dir, o.Resume, o.Force)
	if o.Resume && isReadOnly(err) {
		return finishedReadOnly(ctx, dir, p, o, err)
	}
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	tally, err := play(ctx, dir, p, o)
	if err != nil {
		return nil, err
	}
	info, err := ReadInfo(dir)
	if err != nil {
		return nil, err
	}
	var expl []exploit.Exploitability
	if !p.NoExploitability {
		if expl, err = measureColumn(ctx, dir, info, p, o); err != nil {
			return nil, err
		}
	}
	lb, err := NewLeaderboard(ctx, info, tally, expl)
	if err != nil {
		return nil, err
	}
	return lb, lb.WriteFiles(dir)
}

// Play plays the competition c into dir: NewPlan, then Generate — shards as they complete,
// then matches.parquet (and the logs) and run.json; it returns the tally of all matches. If
// ctx is cancelled it stops dispatching, finishes the units in flight, saves them, and
// returns an *InterruptedError wrapping the context's error (resume with Options.Resume).
// Memory is bounded by the open shards, whatever the number of matches.
func Play(ctx context.Context, c Config, dir string, opt Options) (*Tally, error) {
	p, err := NewPlan(ctx, c)
	if err != nil {
		return nil, err
	}
	return Generate(ctx, dir, p, opt)
}

// Generate plays p into dir as Run does, for a run whose files are the product (datasets
// generate: the decisions of every match): no exploitability, no leaderboard.
func Generate(ctx context.Context, dir string, p *Plan, o Options) (*Tally, error) {
	lock, err := prepare(dir, o.Resume, o.Force)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	return play(ctx, dir, p, o)
}

// play runs the engine on the prepared directory.
func play(ctx context.Context, dir string, p *Plan, o Options) (*Tally, error) {
	if o.Events.Playing != nil {
		o.Events.Playing()
	}
	engine := o.Engine
	if engine == nil {
		engine = Local
	}
	tally, err := engine(ctx, p, dir, o)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil, &InterruptedError{Dir: dir, Err: err}
	}
	if err != nil {
		return nil, err
	}
	if o.Events.Played != nil {
		o.Events.Played(tally)
	}
	return tally, nil
}

// prepare locks dir for this process (refusing a resume of a directory that does not
// exist, which it then does not create), then removes what a killed process left, clears the
// run in it for force, or refuses a fresh run into a directory that holds one. The caller
// holds the lock until its last file is written.
func prepare(dir string, resume, force bool) (*safefile.Lock, error) {
	if _, err := os.Stat(dir); resume && errors.Is(err, os.ErrNotExist) { // nothing to resume: nothing is created
		return nil, fmt.Errorf("%w in %s (it has no run.json)", ErrNoRun, dir)
	}
	lock, err := safefile.LockDir(dir)
	if err != nil {
		return nil, err
	}
	for _, d := range []string{dir, filepath.Join(dir, "shards")} { // up to a shard's size each
		if err = lock.RemoveStaleTemps(d); err != nil {
			lock.Unlock()
			return nil, err
		}
	}
	switch {
	case force:
		err = Clear(dir)
	case !resume:
		if e := Existing(dir); e != nil {
			err = e
		}
	}
	if err != nil {
		lock.Unlock()
		return nil, err
	}
	return lock, nil
}

// isReadOnly reports an error of a directory this process may not write into.
func isReadOnly(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// finishedReadOnly answers a resume of a run directory this process may not write: a
// finished run (with its exploitability column cached, unless the run skips it) has nothing
// left to write, so its leaderboard is read; anything else is refused with why.
func finishedReadOnly(ctx context.Context, dir string, p *Plan, o Options, lockErr error) (*Leaderboard, error) {
	info, err := ReadInfo(dir)
	if err != nil {
		return nil, err
	}
	if !info.Complete {
		// In the words of the command that resumes (kingoal arena, Python's kingoal.arena).
		return nil, fmt.Errorf("the run in %s is not finished and this process may not write there (%w): make it writable to resume it", dir, lockErr)
	}
	if !p.NoExploitability {
		if _, ok, err := ReadExploitability(dir, info, exploitabilityMatches(o)); err != nil {
			return nil, err
		} else if !ok {
			return nil, fmt.Errorf("the run in %s is finished, but its exploitability column is not cached and this process may not write there (%w): "+
				"resume with --no-exploitability, or make it writable", dir, lockErr)
		}
	}
	if o.Events.ReadOnly != nil {
		o.Events.ReadOnly()
	}
	return ReadLeaderboard(ctx, dir)
}

// measureColumn computes (or reads from the run's cache) the exploitability column.
func measureColumn(ctx context.Context, dir string, info RunInfo, p *Plan, o Options) ([]exploit.Exploitability, error) {
	matches := exploitabilityMatches(o)
	if res, ok, err := ReadExploitability(dir, info, matches); err != nil || ok {
		return res, err
	}
	if o.Events.Measuring != nil {
		o.Events.Measuring(len(info.Agents))
	}
	var done atomic.Int32
	res, err := Exploitability(ctx, dir, info, ColumnOptions{Matches: matches, Workers: p.Workers, Known: o.KnownExploitability, Limits: p.limits,
		Done: func() {
			if n := done.Add(1); o.Events.Measured != nil {
				o.Events.Measured(int(n), len(info.Agents))
			}
		}})
	if ctx.Err() != nil {
		return nil, &InterruptedError{Dir: dir, Measuring: true, Err: ctx.Err()}
	}
	return res, err
}

func exploitabilityMatches(o Options) int {
	if o.ExploitabilityMatches > 0 {
		return o.ExploitabilityMatches
	}
	return DefaultExploitabilityMatches
}
