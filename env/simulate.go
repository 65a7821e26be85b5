package env

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// SimConfig configures Simulate. The zero value of each optional field means: all cores,
// the fast dice (drawn goal by goal, GoalSampler), no progress reports.
type SimConfig struct {
	Rules      Rules
	Home, Away Lineup
	Matches    int    // how many matches (> 0)
	Seed       uint64 // chunk c of simChunk matches draws from SeededSource(Seed, c)
	Workers    int    // goroutines; 0 means runtime.GOMAXPROCS(0)
	Dice       DiceKind
	// Progress, if set, is called from Simulate's goroutine with the matches finished so far.
	Progress func(done int)
}

// simChunk is the unit of work and of seeding, so results do not depend on Workers.
const simChunk = 2048

// SimResult summarises simulated matches with fixed line-ups.
type SimResult struct {
	Matches                   int
	HomeWins, Draws, AwayWins int   // by goals in play (extra time included)
	HomeAdvances              int   // knockout: matches home won, shoot-outs included
	ExtraTime, Shootouts      int   // knockout: matches that needed them
	HomeGoals, AwayGoals      int64 // sums
	HomeGoalsSq, AwayGoalsSq  int64 // sums of squares, for intervals
	GoalDiff                  map[int]int
}

func (r *SimResult) add(o SimResult) {
	r.Matches += o.Matches
	r.HomeWins += o.HomeWins
	r.Draws += o.Draws
	r.AwayWins += o.AwayWins
	r.HomeAdvances += o.HomeAdvances
	r.ExtraTime += o.ExtraTime
	r.Shootouts += o.Shootouts
	r.HomeGoals += o.HomeGoals
	r.AwayGoals += o.AwayGoals
	r.HomeGoalsSq += o.HomeGoalsSq
	r.AwayGoalsSq += o.AwayGoalsSq
	if r.GoalDiff == nil {
		r.GoalDiff = map[int]int{}
	}
	for d, n := range o.GoalDiff {
		r.GoalDiff[d] += n
	}
}

// Share returns k/Matches and its 95% Wilson score interval.
func (r SimResult) Share(k int) (p, lo, hi float64) {
	lo, hi = WilsonInterval(k, r.Matches)
	if r.Matches > 0 {
		p = float64(k) / float64(r.Matches)
	}
	return p, lo, hi
}

// WilsonInterval is the 95% Wilson score interval of a share of k in n; [0, 1] when n is 0.
func WilsonInterval(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(0, mid-half), min(1, mid+half)
}

// MeanGoals returns the mean goals of p and the half-width of its 95% normal interval.
func (r SimResult) MeanGoals(p Player) (mean, half float64) {
	sum, sq := r.HomeGoals, r.HomeGoalsSq
	if p == Away {
		sum, sq = r.AwayGoals, r.AwayGoalsSq
	}
	n := float64(r.Matches)
	if n == 0 {
		return 0, 0
	}
	mean = float64(sum) / n
	variance := max(0, float64(sq)/n-mean*mean) * n / max(1, n-1)
	return mean, 1.959963984540054 * math.Sqrt(variance/n)
}

// GoalDiffs returns the goal differences (home − away) that occurred, in increasing order.
func (r SimResult) GoalDiffs() []int {
	ds := make([]int, 0, len(r.GoalDiff))
	for d := range r.GoalDiff {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	return ds
}

// Simulate plays cfg.Matches matches with both line-ups fixed (nobody moves or shifts),
// spread over cfg.Workers goroutines. The result depends only on the configuration, not on
// the number of workers. If ctx is cancelled, Simulate stops and returns ctx's error with
// the matches finished so far.
func Simulate(ctx context.Context, cfg SimConfig) (SimResult, error) {
	start, err := NewMatch(cfg.Rules, cfg.Home, cfg.Away)
	if err != nil {
		return SimResult{}, err
	}
	if cfg.Matches <= 0 {
		return SimResult{}, fmt.Errorf("env: simulate %d matches: want at least 1", cfg.Matches)
	}
	if cfg.Dice > RolledDice {
		return SimResult{}, fmt.Errorf("env: dice kind %d unknown", cfg.Dice)
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := (cfg.Matches-1)/simChunk + 1 // no overflow for any Matches > 0
	jobs := make(chan int)
	results := make(chan SimResult)
	var wg sync.WaitGroup
	for range min(workers, chunks) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				n := min(simChunk, cfg.Matches-c*simChunk)
				results <- simulateChunk(start, cfg.Rules, cfg.Dice, SeededSource(cfg.Seed, uint64(c)), n)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for c := 0; c < chunks; c++ {
			select {
			case jobs <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	var total SimResult
	total.GoalDiff = map[int]int{}
	for r := range results {
		total.add(r)
		if cfg.Progress != nil {
			cfg.Progress(total.Matches)
		}
	}
	if err := ctx.Err(); err != nil && total.Matches < cfg.Matches {
		return total, err
	}
	return total, nil
}

func simulateChunk(start State, rules Rules, dice DiceKind, src rand.Source, n int) SimResult {
	var smp Sampler = NewGoalSampler(src) // the line-ups are fixed: goal by goal, not throw by throw
	if dice == RolledDice {
		smp = NewDiceSampler(src)
	}
	r := SimResult{Matches: n, GoalDiff: map[int]int{}}
	m := maxGoals(rules)
	diffs := make([]int, 2*m+1) // by goal difference + m: a map update a match cost as much as a third of it
	for range n {
		s := start
		Playout(&s, smp)
		h, a := int64(s.score[Home]), int64(s.score[Away])
		r.HomeGoals += h
		r.AwayGoals += a
		r.HomeGoalsSq += h * h
		r.AwayGoalsSq += a * a
		diffs[int(h-a)+m]++
		switch {
		case h > a:
			r.HomeWins++
		case h == a:
			r.Draws++
		default:
			r.AwayWins++
		}
		if w, ok := s.Winner(); ok && w == Home {
			r.HomeAdvances++
		}
		if s.PlayedExtraTime() {
			r.ExtraTime++
		}
		if s.PlayedShootout() {
			r.Shootouts++
		}
	}
	for i, k := range diffs {
		if k > 0 {
			r.GoalDiff[i-m] = k
		}
	}
	return r
}
