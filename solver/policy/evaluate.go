package policy

import (
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

// Policy is a deterministic policy over env states: the action (line-up index) player p
// plays at a decision node where it acts, including the kick-off line-up.
type Policy interface {
	Action(s env.State, p env.Player) (int, error)
}

// PolicyOf lets Evaluate play any env.Policy (an agent, say) exactly: its action at an env
// state is its choice on that state's observation. Only meaningful for deterministic ones.
func PolicyOf(p env.Policy) Policy { return policyOf{p} }

type policyOf struct{ p env.Policy }

func (p policyOf) Action(s env.State, pl env.Player) (int, error) {
	return p.p.Act(s.Observe(pl), s.Legal(pl)), nil
}

// Keeping is the policy that declares Lineup at kick-off and never changes it (env.Keep).
type Keeping struct{ Lineup env.Lineup }

// Action keeps the line-up.
func (k Keeping) Action(s env.State, p env.Player) (int, error) {
	return PolicyOf(env.Keep(k.Lineup)).Action(s, p)
}

// Action plays the Basic policy: its starting line-up at kick-off, Best at breaks.
func (bp *BasicPolicy) Action(s env.State, p env.Player) (int, error) {
	switch s.Decision() {
	case env.KickOff:
		return bp.Problem.Own.Index(), nil
	case env.Break:
		l, err := bp.Best(BreakStateOf(s, p))
		return l.Index(), err
	}
	return s.Lineup(p).Index(), nil
}

// Evaluation is the exact outcome law of a match between two policies.
type Evaluation struct {
	HomeWin, Draw, AwayWin float64 // goals in play
	HomeAdvance            float64 // shoot-outs included (= HomeWin in a league)
	AwayAdvance            float64 // shoot-outs included (= AwayWin in a league)
	HomeGoals, AwayGoals   float64
	HomePoints, AwayPoints float64 // expected league points
	Truncated              float64 // mass left in sudden death when enumeration stopped
}

// Objective returns the value of objective o for player p.
func (e Evaluation) Objective(o odds.Objective, p env.Player, r env.Rules) float64 {
	win, advance, points := e.HomeWin, e.HomeAdvance, e.HomePoints
	if p == env.Away {
		win, advance, points = e.AwayWin, e.AwayAdvance, e.AwayPoints
	}
	switch {
	case o == odds.ObjectivePoints:
		return points
	case r.Knockout:
		return advance
	case o == odds.ObjectiveWinDraw:
		return win + e.Draw/2
	}
	return win
}

// Evaluate returns the exact outcome of home's policy against away's under r, by walking
// the distribution over env states node by node (equal states merge; the walk is in a fixed
// order, so the result is the same to the last bit on every run). A shoot-out is
// folded in from env's enumerated shoot-out law (its sudden death is cut below 1e-16).
func Evaluate(home, away Policy, r env.Rules) (Evaluation, error) {
	s, err := env.NewState(r)
	if err != nil {
		return Evaluation{}, err
	}
	if home == nil || away == nil {
		return Evaluation{}, errors.New("solver: Evaluate needs two policies")
	}
	so, err := odds.ShootoutLaw()
	if err != nil {
		return Evaluation{}, err
	}
	var ev Evaluation
	dist := odds.NewStateDist(1)
	dist.Add(s, 1)
	var buf []env.ChanceOutcome
	for dist.Len() > 0 {
		next := odds.NewStateDist(dist.Len())
		for i, st := range dist.States {
			p := dist.P[i]
			switch {
			case st.Period() == env.Penalties:
				ev.addShootout(p, st, so, r)
			case st.Node() == env.Terminal:
				ev.addFinal(p, st)
			case st.Node() == env.Decision:
				n, err := decide(st, home, away)
				if err != nil {
					return Evaluation{}, err
				}
				next.Add(n, p)
			default:
				buf = st.AppendChanceOutcomes(buf[:0])
				for _, c := range buf {
					n := st
					n.ApplyChance(c.Outcome)
					next.Add(n, p*c.Prob)
				}
			}
		}
		dist = next
	}
	return ev, nil
}

// addShootout counts a match that reaches the shoot-out with probability p. Nobody decides
// in a shoot-out and its law has no knobs: it is folded in from env's enumerated shoot-out
// instead of carrying every state through it.
func (ev *Evaluation) addShootout(p float64, st env.State, so odds.Shootout, r env.Rules) {
	h, a := st.Goals(env.Home), st.Goals(env.Away)
	ev.Draw += p
	ev.HomeAdvance += p * so.Home
	ev.AwayAdvance += p * (1 - so.Home - so.Truncated)
	ev.Truncated += p * so.Truncated
	ev.HomeGoals += p * float64(h)
	ev.AwayGoals += p * float64(a)
	ev.HomePoints += p * float64(r.LeaguePoints().Draw)
	ev.AwayPoints += p * float64(r.LeaguePoints().Draw)
}

// addFinal counts a finished match, reached with probability p.
func (ev *Evaluation) addFinal(p float64, st env.State) {
	h, a := st.Goals(env.Home), st.Goals(env.Away)
	switch {
	case h > a:
		ev.HomeWin += p
	case h < a:
		ev.AwayWin += p
	default:
		ev.Draw += p
	}
	if w, ok := st.Winner(); ok && w == env.Home {
		ev.HomeAdvance += p
	} else if ok {
		ev.AwayAdvance += p
	}
	ev.HomeGoals += p * float64(h)
	ev.AwayGoals += p * float64(a)
	ev.HomePoints += p * float64(st.LeaguePoints(env.Home))
	ev.AwayPoints += p * float64(st.LeaguePoints(env.Away))
}

// decide applies both policies' actions at decision state st.
func decide(st env.State, home, away Policy) (env.State, error) {
	var joint [2]int
	for pl, pol := range [2]Policy{home, away} {
		if !st.Acting(env.Player(pl)) {
			continue
		}
		a, err := pol.Action(st, env.Player(pl))
		if err != nil {
			return st, fmt.Errorf("solver: %s policy at %s: %w", env.Player(pl), st, err)
		}
		joint[pl] = a
	}
	n := st
	if err := n.ApplyChecked(joint); err != nil {
		return st, fmt.Errorf("solver: policy at %s: %w", st, err)
	}
	return n, nil
}
