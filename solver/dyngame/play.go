// Reading a solved game with a Dynamic side: the decision at a break or a shift, from an
// env state or from what one player observes.

package dyngame

import (
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
)

var errNoKickOff = errors.New("solver: the kick-off was not solved")

// dynQuery is a point of a match, seen from home.
type dynQuery struct {
	period     env.Period
	throwsLeft int
	goalDiff   int
	ball       int // home coordinates
	possession env.Player
	possessed  bool
	home, away env.Lineup
	homeMoves  int
	awayMoves  int
	decision   env.DecisionKind
	actor      env.Player // who decides (at a Shift: the shifter)
}

func queryOf(s env.State) dynQuery {
	q := dynQuery{period: s.Period(), throwsLeft: s.ThrowsLeft(), goalDiff: s.Goals(env.Home) - s.Goals(env.Away), ball: s.Ball(),
		home: s.Lineup(env.Home), away: s.Lineup(env.Away), homeMoves: s.MovesLeft(env.Home), awayMoves: s.MovesLeft(env.Away),
		decision: s.Decision(), actor: s.Shifter()}
	q.possession, q.possessed = s.Possession()
	if q.decision == env.Break {
		q.actor = env.Home
		if !s.Acting(env.Home) {
			q.actor = env.Away
		}
	}
	return q
}

func queryOfObservation(o env.Observation) dynQuery {
	me, them := o.Player, o.Player.Other()
	q := dynQuery{period: o.Period, throwsLeft: o.ThrowsLeft, goalDiff: o.OwnGoals - o.OppGoals, ball: env.HomeSector(me, o.Ball),
		home: o.Own, away: o.Opp, homeMoves: o.OwnMovesLeft, awayMoves: o.OppMovesLeft, decision: o.Decision, actor: me}
	if me == env.Away {
		q.goalDiff, q.home, q.away, q.homeMoves, q.awayMoves = -q.goalDiff, o.Opp, o.Own, o.OppMovesLeft, o.OwnMovesLeft
	}
	switch {
	case o.Possession > 0:
		q.possession, q.possessed = me, true
	case o.Possession < 0:
		q.possession, q.possessed = them, true
	}
	return q
}

// Choice is the line-up the game's strategy plays at the decision pending in s: the Basic
// side's at a break, the shifter's at a shift (its own line-up to keep).
func (g *Game) Choice(s env.State) (env.Lineup, error) { return g.choose(queryOf(s)) }

// ChoiceFor is Choice from the observation of the player who decides.
func (g *Game) ChoiceFor(o env.Observation) (env.Lineup, error) {
	return g.choose(queryOfObservation(o))
}

// Typical is the decision side p takes at a glance of the strategy: with home's line-up
// home and away's away, both budgets whole, home diff goals ahead and left throws to play in
// per — a Basic side's choice at the break, a Dynamic side's shift right after it wins a
// throw that leaves the ball in midfield (then left−1 throws to play, at least 1: at is the
// throws left when it decides). An error wrapping ErrNotSolved for a score no match reaches
// by then.
func (g *Game) Typical(p env.Player, per env.Period, left, diff int, home, away env.Lineup) (to env.Lineup, at int, err error) {
	r := g.Problem.Rules
	own, opp := home, away
	if p == env.Away {
		own, opp = away, home
	}
	o := env.Observation{Player: p, Period: per, ThrowsLeft: left, Own: own, Opp: opp, OwnMode: r.Modes[p], OppMode: r.Modes[p.Other()],
		Ball: env.KickOffSector, Knockout: r.Knockout, OwnMovesLeft: r.MoveBudget(), OppMovesLeft: r.MoveBudget(), Decision: env.Break}
	o.OwnGoals, o.OppGoals = max(diff, 0), max(-diff, 0)
	if p == env.Away {
		o.OwnGoals, o.OppGoals = o.OppGoals, o.OwnGoals
	}
	if r.Modes[p] == env.Dynamic {
		o.Decision, o.Possession, o.OwnMovesLeft = env.Shift, 1, 0
		o.ThrowsLeft = max(left-1, 1) // a throw was just played
	}
	if r.Modes[p.Other()] == env.Dynamic {
		o.OppMovesLeft = 0
	}
	to, err = g.ChoiceFor(o)
	return to, o.ThrowsLeft, err
}

// locate finds the layer and difference of q: ok false for a difference whose result is
// decided (every choice is as good), an error wrapping ErrNotSolved for one no match reaches.
func (g *Game) locate(q dynQuery) (dec *dynDecisions, per, dd int, ok bool, err error) {
	per = int(q.period) - int(env.FirstHalf)
	switch {
	case per < 0 || per >= len(g.ls.Lengths):
		return nil, 0, 0, false, fmt.Errorf("solver: no play in period %s under these rules", q.period)
	case q.throwsLeft < 1 || q.throwsLeft > g.ls.Lengths[per]:
		return nil, 0, 0, false, fmt.Errorf("solver: %d throws left in a %d-throw period", q.throwsLeft, g.ls.Lengths[per])
	case q.ball < 1 || q.ball > env.Sectors || !q.home.Valid() || !q.away.Valid():
		return nil, 0, 0, false, fmt.Errorf("solver: ball in sector %d, line-ups %v and %v", q.ball, q.home, q.away)
	}
	held, _ := g.ls.Shifted(q.goalDiff)
	dec = g.dec[per][q.throwsLeft]
	if dec == nil || held < dec.lo || held >= dec.lo+dec.n {
		if g.ls.Decided(per, q.throwsLeft, held) {
			return nil, per, 0, false, nil
		}
		return nil, 0, 0, false, fmt.Errorf("%w: no match reaches difference %d with %d throws left in %s", game.ErrNotSolved, q.goalDiff, q.throwsLeft, q.period)
	}
	return dec, per, held - dec.lo, true, nil
}

func (g *Game) config(q dynQuery) int {
	sp := g.space
	return sp.config(sp.entry(env.Home, q.home, q.homeMoves), sp.entry(env.Away, q.away, q.awayMoves))
}

func (g *Game) choose(q dynQuery) (env.Lineup, error) {
	sp, p := g.space, q.actor
	own := q.home
	if p == env.Away {
		own = q.away
	}
	switch {
	case q.decision == env.Break && sp.modes[p] != env.Basic,
		q.decision == env.Shift && sp.modes[p] != env.Dynamic:
		return env.Lineup{}, fmt.Errorf("solver: %s plays %s and has no %s decision", p, sp.modes[p], q.decision)
	case q.decision != env.Break && q.decision != env.Shift:
		return env.Lineup{}, fmt.Errorf("solver: no break or shift pending (%s)", q.decision)
	}
	dec, _, dd, ok, err := g.locate(q)
	if err != nil || !ok {
		return own, err
	}
	c, n := g.config(q), sp.configs
	var i uint8
	switch {
	case q.decision == env.Break:
		i = dec.brk[dd*n+c]
	case !q.possessed: // after a goal or at a period's end: the break (or kick-off) follows
		i = dec.breakShift[p][dd*n+c]
	default:
		i = dec.shift[p][(dd*env.Sectors+q.ball-1)*n+c]
	}
	return sp.lineupOf(p, int(sp.options[p][entryOf(sp, p, c)][i])), nil
}

// entryOf is side p's entry in configuration c.
func entryOf(sp *dynSpace, p env.Player, c int) int {
	if p == env.Home {
		return c / sp.entries[env.Away]
	}
	return c % sp.entries[env.Away]
}

// valueAt is home's value at s (a throw, a break or a shift decision) from the values a
// test solve kept.
func (g *Game) valueAt(s env.State) (float64, error) {
	q := queryOf(s)
	_, per, _, ok, err := g.locate(q)
	held, add := g.ls.Shifted(q.goalDiff)
	if err != nil {
		return 0, err
	}
	if !ok {
		return g.ls.Final(held, false) + add, nil
	}
	lay, sp, row, c := g.values[per][q.throwsLeft], g.space, g.row, g.config(q)
	dd := held - lay.lo
	ball := dd*env.Sectors + q.ball - 1 // the ball's row among a difference's
	switch {
	case s.Node() == env.Chance:
		return lay.throws[(ball*sp.poss+sp.possSlot(q.possession, q.possessed))*row+c] + add, nil
	case q.decision == env.Break:
		return lay.breaks[dd*row+c] + add, nil
	case q.decision == env.Shift && !q.possessed:
		return lay.breakShifted[q.actor][dd*row+c] + add, nil
	case q.decision == env.Shift:
		return lay.shifted[q.actor][ball*row+c] + add, nil
	}
	return 0, fmt.Errorf("solver: no value kept at a %s node", s.Node())
}
