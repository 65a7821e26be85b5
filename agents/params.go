package agents

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/game"
)

func (s Setup) open(name string) (*os.File, error) {
	if s.Open != nil {
		return s.Open(name)
	}
	return safefile.Open(name, 0)
}

func (s Setup) maxBytes() int64 { return cmp.Or(s.MaxBytes, game.DefaultMaxBytes) }

func (s Setup) context() context.Context {
	if s.Context == nil {
		return context.Background()
	}
	return s.Context
}

// params are the parsed values of a spec, defaults filled in.
type params map[string]string

func (p params) int(name string) (int, error) {
	v, err := strconv.Atoi(p[name])
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not an integer", name, p[name])
	}
	return v, nil
}

func (p params) float(name string) (float64, error) {
	v, err := strconv.ParseFloat(p[name], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s=%q is not a finite number", name, p[name])
	}
	return v, nil
}

func (p params) searchBudget() (iters int, d time.Duration, err error) {
	if iters, err = p.int("iters"); err != nil || iters < 1 || iters > maxSearchIterations {
		return 0, 0, fmt.Errorf("iters=%q: want a whole number from 1 to %d", p["iters"], maxSearchIterations)
	}
	ms, err := p.int("ms")
	if err != nil || ms < 0 || ms > maxSearchMillis {
		return 0, 0, fmt.Errorf("ms=%q: want a whole number of milliseconds from 0 to %d", p["ms"], maxSearchMillis)
	}
	return iters, time.Duration(ms) * time.Millisecond, nil
}
