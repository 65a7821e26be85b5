package arena

import (
	"context"
	"fmt"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// Played is one finished match with its logs (empty unless logged).
type Played struct {
	Match     datasets.MatchRow
	Throws    []datasets.ThrowRecord
	Decisions []datasets.DecisionRow
}

// A Worker plays a competition's units with agents of its own: one per goroutine or
// distributed worker. Every match's randomness comes from its ID, so which Worker plays a
// unit changes nothing.
type Worker struct {
	plan   *Plan
	ctx    context.Context
	agents []agents.Agent
	// goals plays the matches whose throws nobody logs, goal by goal (reseeded for every
	// match; it keeps the laws of the line-up pairs it met).
	goals *env.GoalSampler
	// the match being played: its recorders and what they note (fields, not a match's
	// locals, which escaped to the heap at every match)
	rec       [2]recorder
	start     [2]env.Lineup
	decisions []datasets.DecisionRow
	// watch is the ID of the match whose events go in watched (a Replayer's; -1: none)
	watch   int64
	watched Replay
	// kickOffs are the states before kick-off of the run's matches (0) and of a World
	// Cup's group stage (1, groupRules): made once, not validated again every match.
	kickOffs [2]kickOff
}

// kickOff is a match's state before kick-off and its row's kind ("league" or "knockout").
type kickOff struct {
	state env.State
	kind  string
}

// NewWorker builds agents of its own for the plan. Once ctx is done, the agents stop
// thinking and PlayUnit returns ctx's error within milliseconds.
func NewWorker(ctx context.Context, c *Plan) (*Worker, error) {
	p := &Worker{plan: c, ctx: ctx, agents: make([]agents.Agent, len(c.Agents)), goals: env.NewGoalSampler(env.SeededSource(0, 0)), watch: -1}
	groups := c.Rules
	if c.Format == WorldCup {
		groups = c.groupRules()
	}
	for i, r := range [2]env.Rules{c.Rules, groups} {
		s, err := env.NewState(r)
		if err != nil {
			return nil, err
		}
		p.kickOffs[i] = kickOff{s, "league"}
		if r.Knockout {
			p.kickOffs[i].kind = "knockout"
		}
	}
	for i, s := range c.Agents {
		a, err := agents.New(s, c.limits.setup(ctx, c.Rules))
		if err != nil {
			return nil, err
		}
		p.agents[i] = a
	}
	return p, nil
}

// PlayUnit plays unit u (0 ≤ u < Units(): a fixture, or a whole cup), appending its matches
// to out in ID order. On an error out holds no match of u.
func (p *Worker) PlayUnit(u int, out []Played) ([]Played, error) {
	n := len(out)
	out, err := p.playUnit(u, out)
	if err != nil {
		return out[:n], err
	}
	return out, nil
}

// playUnit plays unit u (a fixture, a cup or a World Cup), appending its matches to out in
// ID order.
func (p *Worker) playUnit(u int, out []Played) ([]Played, error) {
	c := p.plan
	switch c.Format {
	case Knockout:
		out, _, err := p.playBracket(u, int64(u)*int64(c.perUnit), c.Bracket(u), out)
		return out, err
	case WorldCup:
		return p.playWorldCup(u, out)
	}
	m, err := p.playMatch(c.leagueFixture(int64(u)))
	return append(out, m), err
}

// playBracket plays cup's knockout rounds from the first-round draw alive (−1: a bye), the
// first match numbered id, and returns the matches appended to out and the next free ID.
func (p *Worker) playBracket(cup int, id int64, alive []int, out []Played) ([]Played, int64, error) {
	for r := 1; len(alive) > 1; r++ {
		next := make([]int, len(alive)/2)
		for t := range next {
			home, away := alive[2*t], alive[2*t+1]
			if home < 0 || away < 0 { // a bye
				next[t] = max(home, away)
				continue
			}
			m, err := p.playMatch(p.plan.cupFixture(id, cup, r, t, home, away))
			if err != nil {
				return out, id, err
			}
			id++
			next[t] = home
			if w, _ := m.Match.WinnerSide(); w == env.Away {
				next[t] = away
			}
			out = append(out, m)
		}
		alive = next
	}
	return out, id, nil
}

// playMatch plays one fixture with the worker's agents, in four steps: the dice (sampler),
// what watches the match (the observer, made here), the agents with what records their decisions
// (recorders), and the result given to each side's last decision (closeRewards). A match
// in which an agent failed (an interrupted solve included) is an error, never a result.
func (p *Worker) playMatch(f Fixture) (Played, error) {
	c, ctx, players := p.plan, p.ctx, p.agents
	if err := ctx.Err(); err != nil {
		return Played{}, err
	}
	home, away := players[f.Home], players[f.Away]
	env.Reseed(home, f.homeS)
	env.Reseed(away, f.awayS)
	env.StartMatch(home, f.ID)
	env.StartMatch(away, f.ID)
	ko := p.kickOffs[0]
	if c.Format == WorldCup && f.Round == 0 {
		ko = p.kickOffs[1]
	}
	s := ko.state
	// What watches the match: the throw log and the worker's watched match. The closure is
	// made here so that it and the log stay on the stack (made in a method, they cost a
	// fifth of a logged match).
	var throws []datasets.ThrowRecord
	if c.LogThrows {
		throws = make([]datasets.ThrowRecord, 0, c.expectedThrows())
	}
	watched := f.ID == p.watch
	if watched {
		p.watched.Start = s
	}
	var observe func(env.Event)
	if c.LogThrows || watched {
		observe = func(e env.Event) {
			if watched {
				p.watched.Events = append(p.watched.Events, e)
			}
			if c.LogThrows && e.Chance {
				throws = append(throws, throwRecord(f.ID, len(throws), &e, c.Dice))
			}
		}
	}
	hp, ap := p.recorders(&f, home, away)
	end, err := env.Play(s, hp, ap, p.sampler(&f), observe)
	if err != nil {
		return Played{}, fmt.Errorf("arena: match %d (%s v %s): %w", f.ID, c.Agents[f.Home], c.Agents[f.Away], err)
	}
	for _, i := range []int{f.Home, f.Away} {
		if err := env.ErrOf(players[i]); err != nil {
			if ctx.Err() != nil {
				return Played{}, ctx.Err()
			}
			return Played{}, fmt.Errorf("arena: match %d: agent %s failed: %w", f.ID, c.Agents[i], err)
		}
	}
	closeRewards(p.decisions, end, hp, ap)
	return Played{matchRow(c, f, ko.kind, p.start, end), throws, p.decisions}, nil
}

// sampler is the dice of fixture f: every die rolled (Dice), every throw drawn (logged
// throws, or asked for), or goal by goal (the worker's goal sampler, reseeded).
func (p *Worker) sampler(f *Fixture) env.Sampler {
	switch {
	case p.plan.Dice:
		return env.NewDiceSampler(env.SeededSource(f.DiceSeed, streamMatchDice))
	case p.plan.Sampler() == "throws":
		return env.NewFastSampler(env.SeededSource(f.DiceSeed, streamMatchDice))
	}
	p.goals.Reseed(f.DiceSeed, streamMatchDice)
	return p.goals
}

// recorders wrap the two agents of fixture f: each records its side's kick-off line-up
// (p.start) and, when the run logs decisions, its decisions (p.decisions, reset here).
func (p *Worker) recorders(f *Fixture, home, away agents.Agent) (hp, ap *recorder) {
	c := p.plan
	var log *[]datasets.DecisionRow
	if p.decisions = nil; c.LogDecisions {
		log = &p.decisions
	}
	p.start = [2]env.Lineup{}
	hp, ap = &p.rec[0], &p.rec[1]
	*hp = recorder{Wrapped: agents.Wrapped{Inner: home}, lineup: &p.start[0], log: log, match: f.ID, spec: c.Agents[f.Home]}
	*ap = recorder{Wrapped: agents.Wrapped{Inner: away}, lineup: &p.start[1], log: log, match: f.ID, spec: c.Agents[f.Away]}
	return hp, ap
}

// closeRewards gives each side's last decision the match's result, marking it terminal.
func closeRewards(decisions []datasets.DecisionRow, end env.State, hp, ap *recorder) {
	for i := len(decisions) - 1; i >= 0; i-- {
		d := &decisions[i]
		side, rec := env.Home, hp
		if d.Player == env.Away.String() {
			side, rec = env.Away, ap
		}
		if !rec.closed {
			d.Reward, d.Terminated = float32(end.Result(side)), true
			rec.closed = true
		}
	}
}

// groupRules are the rules of a World Cup's group stage (round 0): the run's, played as
// league matches.
func (c Config) groupRules() env.Rules {
	r := c.Rules
	r.Knockout = false
	return r
}

// throwRecord records one chance event.
func throwRecord(match int64, index int, e *env.Event, dice bool) datasets.ThrowRecord {
	b := &e.Before
	kind := datasets.ChanceThrow
	switch {
	case e.Outcome == env.HomeKicksFirst || e.Outcome == env.AwayKicksFirst:
		kind = datasets.ChanceCoin
	case b.Period() == env.Penalties:
		kind = datasets.ChanceKick
	}
	r := datasets.ThrowRecord{MatchID: match, Index: int32(index), Kind: kind, Period: b.Period(), ThrowsLeft: int32(b.ThrowsLeft()),
		BallBefore: uint8(b.Ball()), BallAfter: uint8(e.After.Ball()), Outcome: e.Outcome,
		Goal:      e.After.Goals(env.Home)+e.After.Goals(env.Away) > b.Goals(env.Home)+b.Goals(env.Away),
		HomeGoals: uint16(e.After.Goals(env.Home)), AwayGoals: uint16(e.After.Goals(env.Away))}
	if kind == datasets.ChanceThrow {
		hd, ad := b.Dice()
		r.HomeDice, r.AwayDice = uint8(hd), uint8(ad)
	}
	if dice {
		r.HomeValues = datasets.DiceValues{Values: e.Roll.Home, Count: e.Roll.HomeCount}
		r.AwayValues = datasets.DiceValues{Values: e.Roll.Away, Count: e.Roll.AwayCount}
		r.Rethrows = int32(e.Roll.Rethrows)
	}
	return r
}

// recorder notes the line-up its agent declares at kick-off and, if log is set, every
// decision it makes.
type recorder struct {
	agents.Wrapped
	lineup *env.Lineup
	log    *[]datasets.DecisionRow
	match  int64
	spec   string
	steps  int32
	closed bool // its last decision has been given the result
}

// KeepsLineup passes the agent's promise on while nothing is logged: the kick-off, which
// the recorder notes, is always asked.
func (k *recorder) KeepsLineup() bool { return k.log == nil && env.KeepsLineup(k.Inner) }

func (k *recorder) Act(obs env.Observation, legal env.Mask) int {
	a := k.Inner.Act(obs, legal)
	if obs.Decision == env.KickOff && legal.Has(a) {
		*k.lineup = env.LineupAt(a)
	}
	if k.log != nil {
		*k.log = append(*k.log, datasets.DecisionRow{MatchID: k.match, Player: obs.Player.String(), Agent: k.spec, Step: k.steps,
			Decision: obs.Decision.String(), Observation: obs.Vector(), Mask: legal.Bools(), Action: int32(a)})
		k.steps++
	}
	return a
}

// lineupNames holds every line-up's name, so rows do not format them again.
var lineupNames = func() (n [env.NumLineups]string) {
	for i := range n {
		n[i] = env.LineupAt(i).String()
	}
	return n
}()

// matchRow is fixture f's row, played under rules of the given kind from the kick-off
// line-ups start to end.
func matchRow(c *Plan, f Fixture, kind string, start [2]env.Lineup, end env.State) datasets.MatchRow {
	h, a := end.Goals(env.Home), end.Goals(env.Away)
	result := "draw"
	switch {
	case h > a:
		result = "home"
	case a > h:
		result = "away"
	}
	_, scored := end.Shootout()
	winner := ""
	if w, ok := end.Winner(); ok {
		winner = w.String()
	}
	return datasets.MatchRow{
		MatchID: f.ID, Pairing: int32(f.Pairing), Leg: int32(f.Leg), Cup: int32(f.Cup), Round: int32(f.Round), DiceSeed: f.DiceSeed,
		HomeAgent: c.Agents[f.Home], AwayAgent: c.Agents[f.Away], HomeIndex: int32(f.Home), AwayIndex: int32(f.Away), Kind: kind,
		HomeStart: lineupNames[start[0].Index()], AwayStart: lineupNames[start[1].Index()],
		HomeFinal: lineupNames[end.Lineup(env.Home).Index()], AwayFinal: lineupNames[end.Lineup(env.Away).Index()],
		HomeMode: end.Mode(env.Home).String(), AwayMode: end.Mode(env.Away).String(),
		HomeGoals: int32(h), AwayGoals: int32(a), Result: result,
		HomePoints: int32(end.LeaguePoints(env.Home)), AwayPoints: int32(end.LeaguePoints(env.Away)),
		ExtraTime: end.PlayedExtraTime(), Penalties: end.PlayedShootout(), HomePens: int32(scored[0]), AwayPens: int32(scored[1]),
		Winner: winner, HomeMoves: int32(end.MovesUsed(env.Home)), AwayMoves: int32(end.MovesUsed(env.Away)),
	}
}

// playWorldCup plays World Cup u: its groups, then its bracket.
func (p *Worker) playWorldCup(u int, out []Played) ([]Played, error) {
	c := p.plan
	id := int64(u) * int64(c.perUnit)
	groups := c.Groups(u)
	qualified := make([][2]int, len(groups))
	tie := 0
	for g, members := range groups {
		table := NewTally(len(members)) // in the group's own numbering
		for i := range members {
			for j := i + 1; j < len(members); j++ {
				hi, ai := i, j
				if (i+j)%2 == 1 { // sides alternate through the round robin
					hi, ai = j, i
				}
				f := c.cupFixture(id, u, 0, tie, members[hi], members[ai])
				f.Leg = g
				m, err := p.playMatch(f)
				if err != nil {
					return out, err
				}
				local := m.Match
				local.HomeIndex, local.AwayIndex = int32(hi), int32(ai)
				if err := table.Add(local); err != nil {
					return out, err
				}
				out = append(out, m)
				id++
				tie++
			}
		}
		names := make([]string, len(members))
		for i, a := range members {
			names[i] = c.Agents[a]
		}
		st := LeagueTable(table, names, c.Seed^uint64(u)<<8^uint64(g)) // lots drawn afresh for every group
		qualified[g] = [2]int{members[st[0].Index], members[st[1].Index]}
	}
	out, _, err := p.playBracket(u, id, KnockoutDraw(qualified), out)
	return out, err
}
