// Reading a solved game: its kick-off and its strategy at every break (one answer for At, Breaks, the best responses and nash).

package game

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// KickOff is the equilibrium of the first kick-off's hidden choice, both budgets full.
func (g *Game) KickOff() lineup.LineupEquilibrium {
	return lineup.LineupEquilibrium{Payoff: g.Problem.Payoff, Value: g.kickOff.Value, Home: lineup.MixOf(g.kickOff.X), Away: lineup.MixOf(g.kickOff.Y),
		Exploitability: g.kickOff.Exploitability, Dominated: g.kickOff.Dominated}
}

// Value is the game's value to home.
func (g *Game) Value() float64 { return g.kickOff.Value }

// Stats measures the solve.
func (g *Game) Stats() Stats { return g.stats }

// Rules are the rules the game was solved under.
func (g *Game) Rules() env.Rules { return g.Problem.Rules }

// Payoff is the payoff the game was solved for.
func (g *Game) Payoff() lineup.Payoff { return g.Problem.Payoff }

// Moves is the budget the game was solved with (capped at 5).
func (g *Game) Moves() int { return g.moves }

// solveKickOff solves the 121 × 121 hidden choice at the first kick-off.
func (g *Game) solveKickOff() error {
	var err error
	g.kickOff, err = g.kickOffGame(g.moves, g.moves)
	return err
}

// kickOffGame solves the hidden choice of starting line-ups when home will have hm moves
// and away am (each at most Moves()).
func (g *Game) kickOffGame(hm, am int) (zerosum.MatrixGame, error) {
	a, err := g.kickOffValues(hm, am)
	if err != nil {
		return zerosum.MatrixGame{}, err
	}
	m, err := zerosum.SolveMatrixGame(a)
	if err != nil {
		return zerosum.MatrixGame{}, fmt.Errorf("solver: the kick-off's line-up game (%d and %d moves): %w", hm, am, err)
	}
	return m, nil
}

// kickOffValues is the first kick-off's payoff to home, [home's line-up][away's], when home
// will have hm moves and away am.
func (g *Game) kickOffValues(hm, am int) ([][]float64, error) {
	kl := g.kicks[0][g.lengths[0]]
	if kl == nil || kl.lo > 0 || kl.lo+kl.n <= 0 || kl.k == nil {
		return nil, errors.New("solver: the kick-off was not solved")
	}
	sp, w := g.space, g.moves+1
	k := kl.k[(0-kl.lo)*sp.configs():]
	a := make([][]float64, env.NumLineups)
	for i := range a {
		a[i] = make([]float64, env.NumLineups)
		for j := range a[i] {
			a[i][j] = k[(i*w+hm)*sp.entries+j*w+am]
		}
	}
	return a, nil
}

// KickOffWith is the equilibrium of the starting line-ups when home will have homeMoves
// moves for the match and away awayMoves, both then playing the game's equilibrium — with
// (Moves(), 0) the value of substituting when only home may, with (0, 0) the line-up game
// of solve equilibrium.
func (g *Game) KickOffWith(homeMoves, awayMoves int) (lineup.LineupEquilibrium, error) {
	if homeMoves < 0 || awayMoves < 0 || homeMoves > g.moves || awayMoves > g.moves {
		return lineup.LineupEquilibrium{}, fmt.Errorf("solver: budgets %d and %d: want 0..%d", homeMoves, awayMoves, g.moves)
	}
	m, err := g.kickOffGame(homeMoves, awayMoves)
	if err != nil {
		return lineup.LineupEquilibrium{}, err
	}
	return lineup.LineupEquilibrium{Payoff: g.Problem.Payoff, Value: m.Value, Home: lineup.MixOf(m.X), Away: lineup.MixOf(m.Y), Exploitability: m.Exploitability, Dominated: m.Dominated}, nil
}

// Breaks calls fn with every break the game holds at which at least one side has a move
// left, and its equilibrium, in order: period, throws left (most first), difference, home's
// line-up and moves, away's. It stops at fn's first error.
func (g *Game) Breaks(fn func(State, StageSolution) error) error {
	sp, w := g.space, g.moves+1
	var buf stageBuf
	for per, layers := range g.kicks {
		for t := len(layers) - 1; t >= 1; t-- {
			kl := layers[t]
			if kl == nil {
				continue
			}
			for d := kl.lo; d < kl.lo+kl.n; d++ {
				for h := range sp.entries {
					for a := range sp.entries {
						if h%w == 0 && a%w == 0 {
							continue // nobody can move: no break
						}
						ans, err := g.answerAt(per, t, d, h, a, &buf)
						if err != nil {
							return err
						}
						home, away := ans.home.weighted(sp.reach[h], w), ans.away.weighted(sp.reach[a], w)
						s := State{Period: env.FirstHalf + env.Period(per), ThrowsLeft: t, GoalDiff: d,
							Home: env.LineupAt(h / w), HomeMoves: h % w, Away: env.LineupAt(a / w), AwayMoves: a % w}
						if err := fn(s, StageSolution{Value: ans.value, Home: home, Away: away}); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// At returns the equilibrium at the break s: home's value before choosing and both mixes.
// A break whose result nothing can change any more is answered with both keeping.
func (g *Game) At(s State) (StageSolution, error) {
	per := int(s.Period) - int(env.FirstHalf)
	switch {
	case per < 0 || per >= len(g.lengths):
		return StageSolution{}, fmt.Errorf("solver: no break in period %s under these rules", s.Period)
	case s.ThrowsLeft < 1 || s.ThrowsLeft > g.lengths[per]:
		return StageSolution{}, fmt.Errorf("solver: %d throws left in a %d-throw period", s.ThrowsLeft, g.lengths[per])
	case !s.Home.Valid() || !s.Away.Valid() || s.HomeMoves < 0 || s.AwayMoves < 0:
		return StageSolution{}, fmt.Errorf("solver: a break needs two valid line-ups and moves left ≥ 0 (%v, %v, %d, %d)", s.Home, s.Away, s.HomeMoves, s.AwayMoves)
	}
	keep := StageSolution{Home: []env.Weighted{{Lineup: s.Home, Prob: 1}}, Away: []env.Weighted{{Lineup: s.Away, Prob: 1}}}
	d, add := s.GoalDiff, 0.0
	if g.add {
		d, add = 0, float64(s.GoalDiff)
	} else if g.decided(per, s.ThrowsLeft, d) {
		keep.Value = g.final(d)
		return keep, nil
	}
	kl := g.kicks[per][s.ThrowsLeft]
	if kl == nil || d < kl.lo || d >= kl.lo+kl.n {
		return StageSolution{}, fmt.Errorf("%w: no match reaches difference %d with %d throws left in %s (a goal takes %d throws from a kick-off)",
			ErrNotSolved, s.GoalDiff, s.ThrowsLeft, s.Period, odds.ThrowsToScore())
	}
	sp, w := g.space, g.moves+1
	h := s.Home.Index()*w + min(s.HomeMoves, g.moves)
	a := s.Away.Index()*w + min(s.AwayMoves, g.moves)
	var buf stageBuf
	ans, err := g.answerAt(per, s.ThrowsLeft, d, h, a, &buf)
	if err != nil {
		return StageSolution{}, err
	}
	home, away := ans.home.weighted(sp.reach[h], w), ans.away.weighted(sp.reach[a], w)
	return StageSolution{Value: ans.value + add, Home: home, Away: away}, nil
}

// Strategy returns player p's equilibrium strategy at breaks, for SolveBasic's Drawing opponent.
func (g *Game) Strategy(p env.Player) policy.MixedBreakPolicy { return gameStrategy{g, p} }

type gameStrategy struct {
	g *Game
	p env.Player
}

// Mix returns the player's equilibrium mix at the break s (seen by that player).
func (gs gameStrategy) Mix(s policy.BreakState) ([]env.Weighted, error) {
	st := State{Period: s.Period, ThrowsLeft: s.ThrowsLeft, GoalDiff: s.GoalDiff, Home: s.Own, Away: s.OppLineup,
		HomeMoves: s.MovesLeft, AwayMoves: s.OppMovesLeft}
	if gs.p == env.Away {
		st = State{Period: s.Period, ThrowsLeft: s.ThrowsLeft, GoalDiff: -s.GoalDiff, Home: s.OppLineup, Away: s.Own,
			HomeMoves: s.OppMovesLeft, AwayMoves: s.MovesLeft}
	}
	sol, err := gs.g.At(st)
	if errors.Is(err, ErrNotSolved) {
		// A break no match reaches (SolveBasic asks for every difference of its layers): what
		// is played there changes no value a match can meet.
		return []env.Weighted{{Lineup: s.Own, Prob: 1}}, nil
	}
	if err != nil {
		return nil, err
	}
	if gs.p == env.Away {
		return sol.Away, nil
	}
	return sol.Home, nil
}

// maxMix bounds the line-ups a side's equilibrium mix at a break may hold.
const maxMix = 16

// breakMix is one side's mix at a break: probabilities over indices into its reach list.
type breakMix struct {
	n  int
	at [maxMix]uint8
	p  [maxMix]float64
}

func pureMix(i int) breakMix {
	return breakMix{n: 1, at: [maxMix]uint8{uint8(i)}, p: [maxMix]float64{1}}
}

// breakAnswer is the game's strategy at one break: home's value and both mixes.
type breakAnswer struct {
	value      float64
	home, away breakMix
}

// answerAt is the game's strategy at the break (d, h, a) of the layer (per, t) (strategyOf
// on the values the game holds). A break the solve read off its mirror image plays the
// mirror of the image's answer.
func (g *Game) answerAt(per, t, d, h, a int, buf *stageBuf) (breakAnswer, error) {
	kl := g.kicks[per][t]
	if !canonicalBreak(g.mirror, kl.lo, kl.n, d, h, a) {
		m, err := g.answerAt(per, t, -d, a, h, buf)
		return m.mirrored(), err
	}
	n := g.space.configs()
	if tl := g.table; tl != nil {
		return tl[per][t].answer(tl[per][t].index(d-kl.lo, h, a)), nil
	}
	if kl.k == nil {
		return breakAnswer{}, ErrStreamed
	}
	return g.space.strategyOf(kl.k[(d-kl.lo)*n:(d-kl.lo+1)*n], h, a, buf, nil)
}

// mirrored is the answer at the mirror image of the break: the sides' mixes swapped, the
// value negated.
func (b breakAnswer) mirrored() breakAnswer {
	return breakAnswer{value: -b.value, home: b.away, away: b.home}
}

// strategyOf solves the stage game of configuration (h, a) given K, the values from the
// kick-off that follows: by double oracle from both keeping (game_oracle.go), afresh on the
// whole matrix if that does not converge (stage). It is a function of K alone — the solve,
// its best responses, At and nash all play the answer it gives. st, if set, counts it.
func (sp *gameSpace) strategyOf(k []float64, h, a int, buf *stageBuf, st *Stats) (breakAnswer, error) {
	if st == nil {
		st = &buf.stats
	}
	rows, cols := sp.reach[h], sp.reach[a]
	if len(rows) > 1 && len(cols) > 1 {
		if o, ok := zerosum.DoubleOracle(k, rows, cols, sp.entries, zerosum.OracleSet{Nr: 1, Nc: 1}, &buf.oracle); ok {
			ans := breakAnswer{value: o.Value}
			for i := range int(o.Set.Nr) {
				ans.home.add(int(o.Set.Rows[i]), o.X[i])
			}
			for j := range int(o.Set.Nc) {
				ans.away.add(int(o.Set.Cols[j]), o.Y[j])
			}
			st.StageGames++
			st.Oracle++
			if ans.home.n == 1 && ans.away.n == 1 {
				st.Saddles++
			} else {
				st.LPs++
			}
			return ans, nil
		}
	}
	s, err := sp.stage(k, h, a, buf, st)
	if err != nil {
		return breakAnswer{}, err
	}
	ans := breakAnswer{value: s.value}
	if ans.home, err = sparseMix(s.x, s.row); err == nil {
		ans.away, err = sparseMix(s.y, s.col)
	}
	return ans, err
}

// entries is the mix over a side's entries (its reach list's), appended to out.
func (m *breakMix) entries(reach []int32, out []mixEntry) []mixEntry {
	for i := range m.n {
		out = append(out, mixEntry{reach[m.at[i]], m.p[i]})
	}
	return out
}

// add puts probability p on index i, if p is more than rounding.
func (m *breakMix) add(i int, p float64) {
	if p > zerosum.SupportTol {
		m.at[m.n], m.p[m.n] = uint8(i), p
		m.n++
	}
}

// sparseMix is a dense mix (or, if nil, the pure choice) as a breakMix.
func sparseMix(dense []float64, pure int) (breakMix, error) {
	if dense == nil {
		return pureMix(max(pure, 0)), nil
	}
	var m breakMix
	for i, p := range dense {
		if p > zerosum.SupportTol {
			if m.n == maxMix {
				return breakMix{}, fmt.Errorf("solver: an equilibrium mix over more than %d line-ups at a break", maxMix)
			}
			m.add(i, p)
		}
	}
	return m, nil
}

// weighted is the mix over line-ups, most likely first.
func (m breakMix) weighted(reach []int32, w int) []env.Weighted {
	p := make([]float64, env.NumLineups)
	for i := range m.n {
		p[int(reach[m.at[i]])/w] += m.p[i]
	}
	return lineup.MixOf(p)
}

// tableLayer is one layer of a loaded table: its canonical breaks (answerAt mirrors the
// others) in the order the solve wrote them.
type tableLayer struct {
	entries int
	base    []int   // per difference: the index of its first break
	kind    []uint8 // per difference: which breaks are held (differenceKind)
	value   []float32
	code    [2][]uint8
	mixAt   []uint64 // index*2 + side of each mix, ascending
	mixOff  []uint32 // where each mix starts in mix
	mix     []byte   // n, n indices, n float64 probabilities
}

// index is where the canonical break (lo+dd, h, a) is held.
func (tl *tableLayer) index(dd, h, a int) int {
	if tl.kind[dd] == solvedTriangle { // rows h.. of a triangle: row h starts after Σ_{k<h} (entries − k)
		return tl.base[dd] + h*tl.entries - h*(h-1)/2 + a - h
	}
	return tl.base[dd] + h*tl.entries + a
}

// answer is the stored strategy at an index.
func (tl *tableLayer) answer(i int) breakAnswer {
	ans := breakAnswer{value: float64(tl.value[i])}
	for side, m := range [2]*breakMix{&ans.home, &ans.away} {
		c := tl.code[side][i]
		if c != mixedCode {
			*m = pureMix(int(c))
			continue
		}
		k, _ := slices.BinarySearch(tl.mixAt, uint64(i)*2+uint64(side))
		b := tl.mix[tl.mixOff[k]:]
		m.n = int(b[0])
		copy(m.at[:], b[1:1+m.n])
		for j := range m.n {
			m.p[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[1+m.n+8*j:]))
		}
	}
	return ans
}
