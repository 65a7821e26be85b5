package env

import "fmt"

// Keep returns the policy that declares l at kick-off and never changes formation.
func Keep(l Lineup) Policy { return keep(l.Index()) }

type keep int

func (k keep) Act(obs Observation, _ Mask) int {
	if obs.Decision == KickOff {
		return int(k)
	}
	return obs.Own.Index()
}

func (keep) KeepsLineup() bool { return true }

// DefaultOpponent is the line-up of Config's nil opponent.
const DefaultOpponent = "2-2-2-2-2"

// Config configures an Env. The zero value is the agent playing Home under the default
// rules against an opponent that keeps 2-2-2-2-2, rewarded by result.
type Config struct {
	Rules    Rules
	Player   Player       // the agent's side
	Opponent Policy       // nil: Keep(2-2-2-2-2); a Reset(seed uint64) method is called on Env.Reset
	Reward   RewardScheme //
	Dice     DiceKind     //
	MaxSteps int          // truncate after this many agent steps (0: no cap)
	Observe  func(Event)  // if set, sees every event (see ParallelConfig.Observe)
	// IllegalAction: what the agent's illegal action does (the opponent's are always errors).
	IllegalAction IllegalActions
}

// Transition is what Env.Step returns: Gymnasium's (observation, reward, terminated,
// truncated, info).
type Transition struct {
	Obs        Observation
	Reward     float64
	Terminated bool
	Truncated  bool
	Info       Info
}

// Env is the Gymnasium-style single-agent environment: the agent plays one side, the
// opponent policy the other. Step resolves chance nodes and opponent-only decisions until
// the agent must act or the match ends. It is not safe for concurrent use.
type Env struct {
	par      *ParallelEnv
	me       Player
	opp      Policy
	maxSteps int
	steps    int
	seed     uint64 // of the episode (History)
	actions  []int  // the agent's since Reset (History)
}

// New returns an Env; call Reset before Step.
func New(cfg Config) (*Env, error) {
	par, err := NewParallel(ParallelConfig{Rules: cfg.Rules, Reward: cfg.Reward, Dice: cfg.Dice, Observe: cfg.Observe,
		IllegalAction: cfg.IllegalAction})
	if err != nil {
		return nil, err
	}
	if cfg.Player > Away {
		return nil, fmt.Errorf("env: player %d: want Home or Away", cfg.Player)
	}
	if err := checkMaxSteps(cfg.MaxSteps); err != nil {
		return nil, err
	}
	opp := cfg.Opponent
	if opp == nil {
		opp = Keep(MustParseLineup(DefaultOpponent))
	}
	return &Env{par: par, me: cfg.Player, opp: opp, maxSteps: cfg.MaxSteps}, nil
}

// Reset starts a new match from seed and returns the agent's kick-off observation.
// The opponent, if it has a Reset(uint64) method, is reseeded from the same seed.
func (e *Env) Reset(seed uint64) (Observation, Info) {
	obs, info := e.par.Reset(seed)
	e.steps, e.seed, e.actions = 0, seed, e.actions[:0]
	Reseed(e.opp, mix64(seed^streamOpponentReseed))
	return obs[e.me], info[e.me]
}

// Step plays the agent's action. An illegal action returns an error wrapping
// ErrIllegalAction and changes nothing; a Step after the end returns ErrEpisodeOver.
func (e *Env) Step(action int) (Transition, error) {
	var out Transition
	switch {
	case !e.par.started:
		return out, errNotReset
	case e.par.done:
		return out, ErrEpisodeOver
	}
	if err := e.checkAction(action); err != nil {
		return out, err
	}
	illegal := false
	for mine := action; ; mine = -1 { // after the first pass the opponent decides alone
		rewards, terminated, truncated, err := e.stepWithOpponent(mine)
		if err != nil {
			return Transition{}, err
		}
		illegal = illegal || e.par.illegal[e.me]
		out.Reward += rewards[e.me]
		if terminated || truncated || e.par.state.Acting(e.me) {
			out.Terminated, out.Truncated = terminated, truncated
			break
		}
	}
	e.steps++
	e.actions = append(e.actions, action)
	out.Obs, out.Info = e.par.observation(e.me)
	if !out.Terminated && e.maxSteps > 0 && e.steps >= e.maxSteps {
		e.par.done, out.Truncated = true, true
		out.Info, out.Obs.Decision = Info{}, NoDecision
	}
	out.Info.IllegalAction = illegal
	return out, nil
}

// checkAction refuses the agent's action before anything moves: any illegal one under
// RaiseIllegal, one outside the action space under KeepOnIllegal.
func (e *Env) checkAction(action int) error {
	if e.par.cfg.IllegalAction == KeepOnIllegal && action >= 0 && action < NumActions {
		return nil
	}
	return e.par.state.CheckAction(e.me, action)
}

// stepWithOpponent asks the opponent for its action if it is acting and advances the game.
func (e *Env) stepWithOpponent(mine int) (rewards [2]float64, terminated, truncated bool, err error) {
	s := &e.par.state
	them := e.me.Other()
	theirs := -1
	if s.Acting(them) {
		theirs = e.opp.Act(s.Observe(them), s.Legal(them))
		if err := s.CheckAction(them, theirs); err != nil {
			return rewards, false, false, fmt.Errorf("env: opponent: %w", err)
		}
	}
	return e.par.advance(e.jointWith(mine, theirs))
}

func (e *Env) jointWith(mine, theirs int) [2]int {
	var j [2]int
	j[e.me], j[e.me.Other()] = mine, theirs
	return j
}

// Player is the side the agent plays.
func (e *Env) Player() Player { return e.me }

// State returns a copy of the current state.
func (e *Env) State() State { return e.par.state }

// LastRoll returns the dice of the last chance node (RolledDice only).
func (e *Env) LastRoll() Roll { return e.par.LastRoll() }
