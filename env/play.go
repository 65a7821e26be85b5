package env

import "fmt"

// Event is one step of a played match: a decision (Chance false, Joint holds the actions
// of the acting players) or a chance node (Outcome, and the dice in Roll when the sampler is
// a DiceSampler).
type Event struct {
	Before, After State
	Chance        bool
	Outcome       Outcome
	Joint         [2]int
	Roll          Roll
	// Jump is how many throws a chance event stands for where a GoalSampler jumped from a
	// kick-off to the next goal (Outcome: the scoring throw's) or to the end of the period
	// without one (Outcome: Tie); 0 for one throw or kick. Observing such a match changes
	// none of its draws.
	Jump int
}

// Play plays s to the end: home and away decide for their player whenever it acts (each
// sees only its own Observation and legal Mask), smp draws every chance outcome, and
// observe, if not nil, sees every event. An illegal action ends play with an error wrapping
// ErrIllegalAction that names the player.
func Play(s State, home, away Policy, smp Sampler, observe func(Event)) (State, error) {
	keeper := [2]bool{KeepsLineup(home), KeepsLineup(away)}
	for s.Node() != Terminal {
		if s.Node() == Chance {
			runChance(&s, smp, observe)
			continue
		}
		ev, asked := Event{Before: s}, [2]bool{}
		for p, pol := range [2]Policy{home, away} {
			pl := Player(p)
			if s.Acting(pl) && (!keeper[p] || s.Decision() == KickOff) {
				ev.Joint[p] = pol.Act(s.Observe(pl), s.Legal(pl))
				asked[p] = true
			}
		}
		if asked == [2]bool{} && observe == nil {
			s.keepAll() // nobody was asked: the indices would only be read back
		} else {
			for p := Home; p <= Away; p++ {
				if !asked[p] {
					ev.Joint[p] = s.Lineup(p).Index() // keeping is always legal
				}
			}
			if asked == [2]bool{} {
				s.Apply(ev.Joint)
			} else if err := s.ApplyChecked(ev.Joint); err != nil {
				return s, fmt.Errorf("env: play: %w", err)
			}
		}
		ev.After = s
		if observe != nil {
			observe(ev)
		}
	}
	return s, nil
}

// runChance resolves the chance nodes at s, one event each for observe; without an
// observer, through the sampler's fast path.
func runChance(s *State, smp Sampler, observe func(Event)) {
	if observe == nil {
		RunChance(s, smp)
		return
	}
	dice, _ := smp.(*DiceSampler)
	fast, _ := smp.(*FastSampler)
	goals, _ := smp.(*GoalSampler)
	ev := Event{Chance: true}
	for s.Node() == Chance {
		ev.Before, ev.Jump = *s, 0
		switch {
		case goals != nil && s.phase == phaseThrow:
			ev.Jump, ev.Outcome = goals.step(s)
		case fast != nil:
			ev.Outcome = fast.sample(s)
			s.ApplyChance(ev.Outcome)
		default:
			ev.Outcome = smp.Sample(*s)
			s.ApplyChance(ev.Outcome)
		}
		if dice != nil {
			ev.Roll = dice.LastRoll()
		}
		ev.After = *s
		observe(ev)
	}
}

// Describe returns DescribeChance or DescribeDecision of the event.
func (e Event) Describe() string {
	switch {
	case e.Jump > 0:
		return describeJump(e.Before, e.After, e.Jump)
	case e.Chance:
		return DescribeChance(e.Before, e.After, e.Outcome, e.Roll)
	}
	return DescribeDecision(e.Before, e.After)
}
