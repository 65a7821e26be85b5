package analysis

import (
	"context"
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
)

// Weight is one line-up of a mix.
type Weight struct {
	Lineup string  `json:"lineup"`
	Prob   float64 `json:"prob"`
}

// Decision is one side's choice at a kick-off or break, judged.
type Decision struct {
	Event  int    `json:"event"`  // the event's index in the match (its step)
	Kind   string `json:"kind"`   // "kick-off" or "break"
	Side   string `json:"side"`   // "home" or "away"
	Agent  string `json:"agent"`  // the side's agent
	Before string `json:"before"` // the state, in words
	Time   string `json:"time"`   // "kick-off", or the period and throws left
	Score  string `json:"score"`  // home-away goals
	Chose  string `json:"chose"`  // the line-up chosen
	// Mix is the side's equilibrium mix here, most likely first.
	Mix []Weight `json:"equilibrium"`
	// Value is home's value at the decision; Got home's value when this side plays its
	// choice and the other side its equilibrium mix.
	Value float64 `json:"value"`
	Got   float64 `json:"got"`
	// Loss is what the choice gives away to the other side, in payoff units (≥ 0); Points
	// the same in points of P(win) + ½ P(draw).
	Loss   float64 `json:"loss"`
	Points float64 `json:"points"`
	Grade  Grade   `json:"grade"`
}

// Point is home's exact value after an event (Event −1: before the kick-off).
type Point struct {
	Event int     `json:"event"`
	Value float64 `json:"value"`
	Score string  `json:"score"`
	Time  string  `json:"time"`
}

// Agent sums one side's decisions.
type Agent struct {
	Side         string  `json:"side"`
	Agent        string  `json:"agent"`
	Decisions    int     `json:"decisions"`
	Points       float64 `json:"points"`       // given away in all
	Worst        float64 `json:"worst_points"` // at its worst decision
	Blunders     int     `json:"blunders"`
	Mistakes     int     `json:"mistakes"`
	Inaccuracies int     `json:"inaccuracies"`
}

// Report is a match read against the game.
type Report struct {
	Match     int64      `json:"match"` // its id in the run (0 for a match not from a run)
	Payoff    string     `json:"payoff"`
	Rules     string     `json:"rules"`
	Decisions []Decision `json:"decisions"`
	Curve     []Point    `json:"curve"`
	Agents    [2]Agent   `json:"agents"`
}

// ErrDynamic is wrapped when a match has a Dynamic side: its shifts are not judged.
var ErrDynamic = errors.New("analysis: a Dynamic side's shifts are not judged; the game must be Basic on both sides")

// Match reads the match that starts at start and plays events (env.Play's, in order)
// against g; names are the sides' agents.
func Match(ctx context.Context, g *game.Game, start env.State, events []env.Event, names [2]string) (Report, error) {
	r := g.Problem.Rules
	if start.Mode(env.Home) != env.Basic || start.Mode(env.Away) != env.Basic || r.Modes != [2]env.Mode{env.Basic, env.Basic} {
		return Report{}, ErrDynamic
	}
	rep := Report{Payoff: g.Problem.Payoff.String(), Rules: r.String()}
	for p := range rep.Agents {
		rep.Agents[p] = Agent{Side: env.Player(p).String(), Agent: names[p]}
	}
	v, err := g.ValueOf(ctx, start)
	if err != nil {
		return Report{}, err
	}
	rep.Curve = append(rep.Curve, pointOf(-1, start, v))
	for i, ev := range events {
		if err := ctx.Err(); err != nil {
			return Report{}, err
		}
		if !ev.Chance {
			ds, err := decisions(ctx, g, i, ev, names)
			if err != nil {
				return Report{}, fmt.Errorf("analysis: event %d: %w", i, err)
			}
			rep.Decisions = append(rep.Decisions, ds...)
		}
		if ev.After.Node() != env.Terminal && ev.After.Period() == env.Penalties {
			continue // the shoot-out's kicks are not valued one by one
		}
		v, err := g.ValueOf(ctx, ev.After)
		if err != nil {
			return Report{}, fmt.Errorf("analysis: event %d: %w", i, err)
		}
		rep.Curve = append(rep.Curve, pointOf(i, ev.After, v))
	}
	for _, d := range rep.Decisions {
		a := &rep.Agents[sideIndex(d.Side)]
		a.Decisions++
		a.Points += d.Points
		a.Worst = max(a.Worst, d.Points)
		switch d.Grade {
		case Blunder:
			a.Blunders++
		case Mistake:
			a.Mistakes++
		case Inaccuracy:
			a.Inaccuracies++
		}
	}
	return rep, nil
}

func sideIndex(side string) int {
	if side == env.Away.String() {
		return 1
	}
	return 0
}

func pointOf(i int, s env.State, v float64) Point {
	return Point{Event: i, Value: v, Score: scoreOf(s), Time: timeOf(s)}
}
