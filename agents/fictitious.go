// Fictitious self-play over the substitution game: at every break state, each side's average strategy moves toward its exact best response to the other's.

package agents

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// FictitiousPoint is one iteration of fictitious play: the exploitability of the average
// strategies it started from (exact: both best responses to them), and the time so far.
type FictitiousPoint struct {
	Iteration      int
	Exploitability float64 // score terms, as Exploit's: the best responses' mean gain over ½
	NashConv       float64 // the two best responses' gains summed (2 × Exploitability)
	Seconds        float64
}

// Fictitious learns the substitution game (Basic v Basic) by full-width fictitious self-play:
// each iteration solves both sides' exact best responses to the current average strategies
// (game.RespondToPolicies) and moves each side's average, at every break state and at the
// kick-off, toward its best response there by 1/(k+2) — stage by stage, fictitious play in
// the matrix game of each break with the values of the breaks after it, which converge first
// (the game is layered in time). The same pass measures the averages' exploitability, so the
// learning curve is exact. Memory: the averages, a float64 for every line-up a side can reach
// from every break state (~0.4 GB at 10-throw halves with one move).
type Fictitious struct {
	rules    env.Rules
	moves    int
	iter     int
	mu       sync.Mutex // the rows, as they are met in the first pass
	rows     map[fspKey]*fspRow
	awayOff  []int // where away entry a's mix starts in a row's away block
	awayLen  int
	kick     [2][]float64
	training time.Duration
}

type fspKey struct {
	per, t, d, h int
}

// fspRow holds a row's average mixes, each over the legal line-ups in index order: home's
// (one entry, every away entry: count × entries) and away's (awayOff).
type fspRow struct {
	home, away []float64
	count      int // home's legal line-ups
}

// NewFictitious starts fictitious play under r from uniform strategies. Rules whose best
// responses would not fit in memory are refused here (an error wrapping policy.ErrTooLarge),
// before any work.
func NewFictitious(r env.Rules) (*Fictitious, error) {
	if _, err := (game.PolicyProblem{Rules: r, Payoff: lineup.ScorePayoff(r)}).Fits(); err != nil {
		return nil, fmt.Errorf("agents: fictitious play: %w", bareError{err})
	}
	moves := r.MoveBudget()
	f := &Fictitious{rules: r, moves: moves, rows: map[fspKey]*fspRow{}}
	w := moves + 1
	for a := range env.NumLineups * w {
		f.awayOff = append(f.awayOff, f.awayLen)
		f.awayLen += env.LineupAt(a / w).Reachable(a % w).Count()
	}
	for s := range f.kick {
		f.kick[s] = make([]float64, env.NumLineups)
		for l := range f.kick[s] {
			f.kick[s][l] = 1.0 / env.NumLineups
		}
	}
	return f, nil
}

// Iterations is the number of iterations trained.
func (f *Fictitious) Iterations() int { return f.iter }

// Train runs n iterations (stopping on ctx), calling progress after each with its point.
func (f *Fictitious) Train(ctx context.Context, n int, progress func(FictitiousPoint)) error {
	for range n {
		began := time.Now()
		c, err := f.respond(ctx, nil, true)
		if err != nil {
			return err
		}
		f.training += time.Since(began)
		alpha := 1 / float64(f.iter+2)
		for s, reply := range [2]env.Lineup{c.HomeReply, c.AwayReply} {
			for l := range f.kick[s] {
				f.kick[s][l] *= 1 - alpha
			}
			f.kick[s][reply.Index()] += alpha
		}
		f.iter++
		if progress != nil {
			x := max(c.Exploitability, 0)
			progress(FictitiousPoint{Iteration: f.iter, Exploitability: x / 4, NashConv: x / 2, Seconds: f.training.Seconds()})
		}
	}
	return nil
}

// Table is the average strategy as a policy table named name (what the table agent plays),
// with its exact exploitability in score terms (as Exploit's: the exact best response to the
// agent's choice at every break state), measured in the same pass.
func (f *Fictitious) Table(ctx context.Context, name string) (*game.PolicyTable, float64, error) {
	t, err := game.NewPolicyTable(f.rules, name)
	if err != nil {
		return nil, 0, err
	}
	c, err := f.respond(ctx, t, false)
	if err != nil {
		return nil, 0, err
	}
	x := max(c.Exploitability, 0) / 4
	t.SetExploitability(x)
	return t, x, nil
}

// respond is one pass of both best responses to the averages: with learn, each break's
// average moves toward its best response as the pass leaves it; with table, recorded.
func (f *Fictitious) respond(ctx context.Context, table *game.PolicyTable, learn bool) (game.Check, error) {
	alpha := 1 / float64(f.iter+2)
	return game.RespondToPolicies(game.PolicyProblem{Rules: f.rules, Payoff: lineup.ScorePayoff(f.rules), Context: ctx,
		Policies: func(int) (home, away game.Policy, err error) {
			var sides [2]game.Policy
			for s := range sides {
				side := &fspSide{f: f, side: env.Player(s), alpha: alpha}
				switch {
				case table != nil:
					sides[s] = table.Record(env.Player(s), fspPlain{side})
				case learn:
					sides[s] = side
				default:
					sides[s] = fspPlain{side}
				}
			}
			return sides[env.Home], sides[env.Away], nil
		}})
}

// fspSide is one side's average as a GamePolicy that learns from the replies it observes;
// one a worker (its row cache).
type fspSide struct {
	f     *Fictitious
	side  env.Player
	alpha float64
	key   fspKey
	row   *fspRow
}

// fspPlain is the average without learning (no ReplyObserver).
type fspPlain struct{ s *fspSide }

func (p fspPlain) KickOff() ([]env.Weighted, error) { return p.s.KickOff() }
func (p fspPlain) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	return p.s.Breaks(side, states, mixes)
}

func (p *fspSide) KickOff() ([]env.Weighted, error) {
	var out []env.Weighted
	for l, q := range p.f.kick[p.side] {
		if q > 0 {
			out = append(out, env.Weighted{Lineup: env.LineupAt(l), Prob: q})
		}
	}
	return out, nil
}

// rowOf is the row of s, made (uniform) when first met.
func (p *fspSide) rowOf(s game.State) *fspRow {
	w := p.f.moves + 1
	k := fspKey{int(s.Period), s.ThrowsLeft, s.GoalDiff, s.Home.Index()*w + s.HomeMoves}
	if p.row != nil && k == p.key {
		return p.row
	}
	f := p.f
	f.mu.Lock()
	defer f.mu.Unlock()
	row := f.rows[k]
	if row == nil {
		count := s.Home.Reachable(s.HomeMoves).Count()
		row = &fspRow{home: make([]float64, count*env.NumLineups*w), away: make([]float64, f.awayLen), count: count}
		fill := func(mixes []float64, n int) {
			for i := range mixes {
				mixes[i] = 1 / float64(n)
			}
		}
		for a := range env.NumLineups * w {
			fill(row.home[a*count:(a+1)*count], count)
			fill(row.away[f.awayOff[a]:f.awayOff[a]+f.awayCount(a)], f.awayCount(a))
		}
		f.rows[k] = row
	}
	p.key, p.row = k, row
	return row
}

func (f *Fictitious) awayCount(a int) int {
	if a+1 < len(f.awayOff) {
		return f.awayOff[a+1] - f.awayOff[a]
	}
	return f.awayLen - f.awayOff[a]
}

// lineup.MixOf is side's average at s (seen from home), over its legal line-ups in index order.
func (p *fspSide) mixOf(side env.Player, s game.State) ([]float64, env.Mask) {
	row := p.rowOf(s)
	w := p.f.moves + 1
	a := s.Away.Index()*w + s.AwayMoves
	if side == env.Home {
		return row.home[a*row.count : (a+1)*row.count], s.Home.Reachable(s.HomeMoves)
	}
	return row.away[p.f.awayOff[a] : p.f.awayOff[a]+p.f.awayCount(a)], s.Away.Reachable(s.AwayMoves)
}

func (p *fspSide) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	for i, s := range states {
		mix, legal := p.mixOf(side, s)
		mixes[i] = mixes[i][:0]
		for j, q := range mix {
			if q > 0 {
				mixes[i] = append(mixes[i], env.Weighted{Lineup: env.LineupAt(legal.Nth(j)), Prob: q})
			}
		}
	}
	return nil
}

// ObserveReplies moves the average at s toward the best reply there (game.ReplyObserver).
func (p *fspSide) ObserveReplies(side env.Player, s game.State, choices []env.Lineup, values []float64) {
	best, top := 0, math.Inf(-1)
	for i, v := range values {
		if v > top+1e-12 { // ties: the first, keeping, as the solver's replies
			best, top = i, v
		}
	}
	mix, legal := p.mixOf(side, s)
	for j := range mix {
		mix[j] *= 1 - p.alpha
	}
	mix[legal.Rank(choices[best].Index())] += p.alpha
}
