package odds

import (
	"context"
	"runtime"
	"sync"

	"github.com/kingoal/kingoal/env"
)

// Cell holds the odds of one line-up pairing in an OddsMatrix.
type Cell struct {
	HomeWin, Draw, AwayWin float64
	HomeGoals, AwayGoals   float64
	HomeAdvance            float64 // = HomeWin in a league
}

// OddsMatrix holds the exact odds of every pairing of line-ups: row = home index,
// column = away index (env.LineupAt).
type OddsMatrix struct {
	Rules env.Rules
	cells []Cell
}

// At returns the odds of line-up home (index) against line-up away.
func (m *OddsMatrix) At(home, away int) Cell { return m.cells[home*env.NumLineups+away] }

// MatrixOptions tune ComputeMatrix; the zero value uses all cores and reports nothing.
type MatrixOptions struct {
	Workers  int            // 0: runtime.GOMAXPROCS(0)
	Progress func(rows int) // called from ComputeMatrix's goroutine after each finished row
}

// Matrix returns the odds of all 121×121 pairings under r, on all cores.
func Matrix(r env.Rules) (*OddsMatrix, error) {
	return ComputeMatrix(context.Background(), r, MatrixOptions{})
}

// ComputeMatrix is Matrix with cancellation, a worker count and progress. The result is the
// same whatever the worker count: each cell is computed independently.
func ComputeMatrix(ctx context.Context, r env.Rules, opt MatrixOptions) (*OddsMatrix, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	m := &OddsMatrix{Rules: r, cells: make([]Cell, env.NumLineups*env.NumLineups)}
	rows := make(chan int)
	done := make(chan error)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for h := range rows {
				var err error
				for a := 0; a < env.NumLineups && err == nil; a++ {
					if err = ctx.Err(); err == nil { // a row of long halves takes seconds: look per cell
						m.cells[h*env.NumLineups+a], err = MatchSummary(env.LineupAt(h), env.LineupAt(a), r)
					}
				}
				done <- err
			}
		}()
	}
	go func() {
		defer close(rows)
		for h := 0; h < env.NumLineups; h++ {
			select {
			case rows <- h:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()
	finished := 0
	var firstErr error
	for err := range done {
		if err != nil && firstErr == nil {
			firstErr = err
		}
		finished++
		if opt.Progress != nil {
			opt.Progress(finished)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if finished < env.NumLineups {
		return nil, ctx.Err()
	}
	return m, nil
}
