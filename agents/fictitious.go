// Fictitious self-play over the substitution game: at every break state, each side's average strategy moves toward its exact best response to the other's.

package agents

import (
	"context"
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
	// Passes is the learner's updates so far: full-width passes over the game's break states
	// (each as long as a best response's), measurements included — the cost axis on which
	// full-width learners compare, as samples are sampling learners'.
	Passes int
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
	*breakMixes // the averages
	rules       env.Rules
	iter        int
	training    time.Duration
}

// breakMixes is a float64 for every line-up each side may choose at every break state met
// (rows made as a pass meets them) and at the kick-off: fictitious play's averages, regret
// matching's regrets and averages.
type breakMixes struct {
	moves   int
	mu      sync.Mutex // the rows, as they are met in the first pass
	rows    map[fspKey]*fspRow
	awayOff []int // where away entry a's mix starts in a row's away block
	awayLen int
	kick    [2][]float64
	zero    bool // a new row's entries are 0, not uniform mixes
}

// newBreakMixes holds mixes (zero: all 0) for the rules' moves budget.
func newBreakMixes(moves int, zero bool) *breakMixes {
	b := &breakMixes{moves: moves, rows: map[fspKey]*fspRow{}, zero: zero}
	w := moves + 1
	for a := range env.NumLineups * w {
		b.awayOff = append(b.awayOff, b.awayLen)
		b.awayLen += env.LineupAt(a / w).Reachable(a % w).Count()
	}
	for s := range b.kick {
		b.kick[s] = make([]float64, env.NumLineups)
		if !zero {
			for l := range b.kick[s] {
				b.kick[s][l] = 1.0 / env.NumLineups
			}
		}
	}
	return b
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
// responses and averages would not fit in memory are refused here (an error wrapping
// policy.ErrTooLarge), before any work.
func NewFictitious(r env.Rules) (*Fictitious, error) {
	if err := checkLearnerFits(r, "fictitious play", func(choices float64) float64 { return 16 * choices }); err != nil {
		return nil, err
	}
	return &Fictitious{breakMixes: newBreakMixes(r.MoveBudget(), false), rules: r}, nil
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
			progress(FictitiousPoint{Iteration: f.iter, Exploitability: x / 4, NashConv: x / 2, Seconds: f.training.Seconds(), Passes: f.iter})
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
				side := &fspSide{rowCache: rowCache{m: f.breakMixes}, side: env.Player(s), alpha: alpha}
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
	rowCache
	side  env.Player
	alpha float64
}

// rowCache is a worker's way into a breakMixes: the row it met last.
type rowCache struct {
	m   *breakMixes
	key fspKey
	row *fspRow
}

// fspPlain is the average without learning (no ReplyObserver).
type fspPlain struct{ s *fspSide }

func (p fspPlain) KickOff() ([]env.Weighted, error) { return p.s.KickOff() }
func (p fspPlain) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	return p.s.Breaks(side, states, mixes)
}

func (p *fspSide) KickOff() ([]env.Weighted, error) { return weightedMix(p.m.kick[p.side], nil), nil }

// weightedMix is the mix of probabilities by line-up index (or by legal's line-ups), appended to out.
func weightedMix(probs []float64, out []env.Weighted, legal ...env.Mask) []env.Weighted {
	for j, q := range probs {
		if q > 0 {
			l := j
			if len(legal) > 0 {
				l = legal[0].Nth(j)
			}
			out = append(out, env.Weighted{Lineup: env.LineupAt(l), Prob: q})
		}
	}
	return out
}

// rowOf is the row of s, made (uniform, or 0) when first met.
func (c *rowCache) rowOf(s game.State) *fspRow {
	b := c.m
	w := b.moves + 1
	k := fspKey{int(s.Period), s.ThrowsLeft, s.GoalDiff, s.Home.Index()*w + s.HomeMoves}
	if c.row != nil && k == c.key {
		return c.row
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	row := b.rows[k]
	if row == nil {
		count := s.Home.Reachable(s.HomeMoves).Count()
		row = &fspRow{home: make([]float64, count*env.NumLineups*w), away: make([]float64, b.awayLen), count: count}
		fill := func(mixes []float64, n int) {
			for i := range mixes {
				mixes[i] = 1 / float64(n)
			}
		}
		for a := range env.NumLineups * w {
			if !b.zero { // regrets start at 0; mixes uniform
				fill(row.home[a*count:(a+1)*count], count)
				fill(row.away[b.awayOff[a]:b.awayOff[a]+b.awayCount(a)], b.awayCount(a))
			}
		}
		b.rows[k] = row
	}
	c.key, c.row = k, row
	return row
}

func (b *breakMixes) awayCount(a int) int {
	if a+1 < len(b.awayOff) {
		return b.awayOff[a+1] - b.awayOff[a]
	}
	return b.awayLen - b.awayOff[a]
}

// mixOf is side's entries at s (seen from home), over its legal line-ups in index order.
func (c *rowCache) mixOf(side env.Player, s game.State) ([]float64, env.Mask) {
	row := c.rowOf(s)
	b := c.m
	w := b.moves + 1
	a := s.Away.Index()*w + s.AwayMoves
	if side == env.Home {
		return row.home[a*row.count : (a+1)*row.count], s.Home.Reachable(s.HomeMoves)
	}
	return row.away[b.awayOff[a] : b.awayOff[a]+b.awayCount(a)], s.Away.Reachable(s.AwayMoves)
}

func (p *fspSide) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	for i, s := range states {
		mix, legal := p.mixOf(side, s)
		mixes[i] = weightedMix(mix, mixes[i][:0], legal)
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
