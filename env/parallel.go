package env

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
)

// RewardScheme says how a player is rewarded.
type RewardScheme uint8

const (
	// RewardResult: +1 win, 0 draw, −1 loss at the end (a shoot-out decides a knockout).
	RewardResult RewardScheme = iota
	// RewardGoalDiff: +1 for each goal scored and −1 for each conceded, when it happens;
	// an episode's return is the final goal difference.
	RewardGoalDiff
	// RewardPoints: the league points of the result (Rules.Points) at the end.
	RewardPoints
)

var rewardNames = optionNames{"result", "goal-diff", "points"}

func (r RewardScheme) String() string { return rewardNames.name(int(r), "reward") }

// ParseRewardScheme reads "result", "goal-diff" or "points".
func ParseRewardScheme(s string) (RewardScheme, error) {
	i, err := rewardNames.parse(s, "reward scheme")
	return RewardScheme(i), err
}

// optionNames are the names of an option's values, by value.
type optionNames []string

func (n optionNames) name(i int, option string) string {
	if i >= 0 && i < len(n) {
		return n[i]
	}
	return fmt.Sprintf("%s(%d)", option, i)
}

// parse returns the value named s, or an error listing the names.
func (n optionNames) parse(s, option string) (int, error) {
	for i, name := range n {
		if s == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("env: %s %q: want %s or %s", option, s, strings.Join(n[:len(n)-1], ", "), n[len(n)-1])
}

// DiceKind selects the sampler an environment rolls with.
type DiceKind uint8

const (
	FastDice   DiceKind = iota // one uniform per chance node (the default)
	RolledDice                 // every die rolled; see DiceSampler
)

// IllegalActions says what an environment does with an action its mask forbids.
type IllegalActions uint8

const (
	// RaiseIllegal: Step returns an error wrapping ErrIllegalAction and changes nothing
	// (the default: a masked learner that picks an illegal action has a bug to see).
	RaiseIllegal IllegalActions = iota
	// KeepOnIllegal: the player keeps its current line-up (always legal) and
	// Info.IllegalAction says so — for learners that sample the action space without the
	// mask (plain PPO or DQN, SB3's and Gymnasium's env checkers). An action outside
	// 0..NumActions-1 is still an error.
	KeepOnIllegal
)

var illegalNames = optionNames{"raise", "keep"}

func (a IllegalActions) String() string { return illegalNames.name(int(a), "illegal-actions") }

// ParseIllegalActions reads "raise" or "keep".
func ParseIllegalActions(s string) (IllegalActions, error) {
	i, err := illegalNames.parse(s, "illegal actions")
	return IllegalActions(i), err
}

// ParallelConfig configures a ParallelEnv. The zero value is a league match under the
// default rules, rewarded by result, fast dice, no step cap, illegal actions refused.
type ParallelConfig struct {
	Rules         Rules
	Reward        RewardScheme
	Dice          DiceKind
	MaxSteps      int // truncate after this many Step calls (0: no cap)
	IllegalAction IllegalActions
	// Observe, if set, sees every event as Play shows them: each decision and each throw,
	// coin and kick (for transcripts; the fast path is off then).
	Observe func(Event)
}

// Info accompanies every observation.
type Info struct {
	Mask   Mask // the player's legal actions now (only the current line-up if not acting; empty when over)
	Acting bool // whether the player must choose now
	// IllegalAction: the player's action in the last Step was illegal and its line-up was
	// kept instead (KeepOnIllegal only).
	IllegalAction bool
}

// ParallelTransition is what ParallelEnv.Step returns, indexed by Player.
type ParallelTransition struct {
	Obs        [2]Observation
	Rewards    [2]float64
	Terminated bool // the rules ended the match
	Truncated  bool // MaxSteps was reached first
	Info       [2]Info
}

var errNotReset = errors.New("env: Step before Reset")

// ErrEpisodeOver is returned by Step after the episode has ended, until Reset.
var ErrEpisodeOver = errors.New("env: episode is over; call Reset")

// ParallelEnv is the two-player, PettingZoo-parallel-style environment: at every decision
// both players submit an action at once (hidden from each other); chance nodes are resolved
// inside Step until the next decision or the end. It is not safe for concurrent use.
type ParallelEnv struct {
	cfg     ParallelConfig
	state   State
	initial State
	src     *rand.PCG
	smp     Sampler
	dice    *DiceSampler // non-nil with RolledDice
	steps   int
	started bool
	done    bool
	illegal [2]bool  // who played an illegal action in the last Step (KeepOnIllegal)
	seed    uint64   // of the match (History)
	joints  [][2]int // given to Step since Reset (History)
}

// NewParallel returns a ParallelEnv; call Reset before Step.
func NewParallel(cfg ParallelConfig) (*ParallelEnv, error) {
	s, err := NewState(cfg.Rules)
	if err != nil {
		return nil, err
	}
	if cfg.Reward > RewardPoints {
		return nil, fmt.Errorf("env: reward scheme %d unknown", cfg.Reward)
	}
	if cfg.IllegalAction > KeepOnIllegal {
		return nil, fmt.Errorf("env: %v unknown", cfg.IllegalAction)
	}
	if err := checkMaxSteps(cfg.MaxSteps); err != nil {
		return nil, err
	}
	e := &ParallelEnv{cfg: cfg, initial: s, src: rand.NewPCG(0, 0)}
	switch cfg.Dice {
	case FastDice:
		e.smp = NewFastSampler(e.src)
	case RolledDice:
		e.dice = NewDiceSampler(e.src)
		e.smp = e.dice
	default:
		return nil, fmt.Errorf("env: dice kind %d unknown", cfg.Dice)
	}
	return e, nil
}

func checkMaxSteps(n int) error {
	if n < 0 {
		return fmt.Errorf("env: max steps %d: want ≥ 0 (0: no cap)", n)
	}
	return nil
}

// Reset starts a new match whose dice come from seed, and returns both observations at the
// kick-off decision.
func (e *ParallelEnv) Reset(seed uint64) ([2]Observation, [2]Info) {
	e.src.Seed(mix64(seed), mix64(seed^streamDiceSecondWord))
	e.state = e.initial
	e.steps, e.started, e.done, e.illegal = 0, true, false, [2]bool{}
	e.seed, e.joints = seed, e.joints[:0]
	var t ParallelTransition
	e.observe(&t)
	return t.Obs, t.Info
}

// Step applies both players' actions (entries of a player who is not acting are ignored),
// then resolves chance nodes until a player must act or the match ends. An illegal action
// returns an error wrapping ErrIllegalAction and changes nothing.
func (e *ParallelEnv) Step(joint [2]int) (ParallelTransition, error) {
	var t ParallelTransition
	var err error
	if t.Rewards, t.Terminated, t.Truncated, err = e.advance(joint); err != nil {
		return t, err
	}
	e.joints = append(e.joints, joint)
	e.observe(&t)
	return t, nil
}

// advance is Step without the observations (Env builds only its own player's).
func (e *ParallelEnv) advance(joint [2]int) (rewards [2]float64, terminated, truncated bool, err error) {
	switch {
	case !e.started:
		return rewards, false, false, errNotReset
	case e.done:
		return rewards, false, false, ErrEpisodeOver
	}
	decided := e.state
	joint = e.keepIllegal(joint)
	if err := e.state.ApplyChecked(joint); err != nil {
		return rewards, false, false, err
	}
	if e.cfg.Observe != nil {
		e.cfg.Observe(Event{Before: decided, After: e.state, Joint: joint})
	}
	e.steps++
	before := e.state.score
	runChance(&e.state, e.smp, e.cfg.Observe)
	if e.cfg.Reward == RewardGoalDiff {
		d := float64(int(e.state.score[Home]) - int(before[Home]) - int(e.state.score[Away]) + int(before[Away]))
		rewards[Home], rewards[Away] = d, -d
	}
	if e.state.Node() == Terminal {
		e.done, terminated = true, true
		for p := Home; p <= Away; p++ {
			switch e.cfg.Reward {
			case RewardResult:
				rewards[p] += float64(e.state.Result(p))
			case RewardPoints:
				rewards[p] += float64(e.state.LeaguePoints(p))
			}
		}
	} else if e.cfg.MaxSteps > 0 && e.steps >= e.cfg.MaxSteps {
		e.done, truncated = true, true
	}
	return rewards, terminated, truncated, nil
}

// keepIllegal replaces, under KeepOnIllegal, an acting player's illegal action (in range)
// by its current line-up, and notes who it was.
func (e *ParallelEnv) keepIllegal(joint [2]int) [2]int {
	e.illegal = [2]bool{}
	if e.cfg.IllegalAction != KeepOnIllegal || e.state.Node() != Decision {
		return joint
	}
	for p := Home; p <= Away; p++ {
		if a := joint[p]; a >= 0 && a < NumActions && e.state.CheckAction(p, a) != nil {
			joint[p], e.illegal[p] = e.state.lineups[p].Index(), true
		}
	}
	return joint
}

// observation returns p's observation and info now (empty mask and no decision once done).
func (e *ParallelEnv) observation(p Player) (Observation, Info) {
	o := e.state.Observe(p)
	info := Info{Mask: e.state.Legal(p), Acting: e.state.Acting(p)}
	if e.done {
		info = Info{}
		o.Decision = NoDecision
	}
	info.IllegalAction = e.illegal[p]
	return o, info
}

func (e *ParallelEnv) observe(t *ParallelTransition) {
	for p := Home; p <= Away; p++ {
		t.Obs[p], t.Info[p] = e.observation(p)
	}
}

// State returns a copy of the current state.
func (e *ParallelEnv) State() State { return e.state }

// Done reports whether the episode has ended (terminated or truncated).
func (e *ParallelEnv) Done() bool { return e.done }

// LastRoll returns the dice of the last chance node (RolledDice only; zero otherwise).
func (e *ParallelEnv) LastRoll() Roll {
	if e.dice == nil {
		return Roll{}
	}
	return e.dice.LastRoll()
}
