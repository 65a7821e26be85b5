package main

/*
#include <stdint.h>
*/
import "C"

import (
	"encoding/json"
	"math/rand/v2"
	"sync"
	"time"
	"unsafe"

	"github.com/kingoal/kingoal/env"
)

// The game's states for Python's kingoal.State (OpenSpiel's shape). An env.State is a small
// value without pointers, so Python holds its bytes itself — a ctypes buffer of
// kg_state_size() bytes, freed by Python's GC like any object — and every call here works on
// them in place: clone() is a copy in Python, with no handle to free and no call into Go.
// The hot calls take no error buffer: a negative return is the error, which Python words.

func stateAt(p unsafe.Pointer) *env.State { return (*env.State)(p) }

//export kg_state_size
func kg_state_size() C.int { return C.int(unsafe.Sizeof(env.State{})) }

//export kg_state_new
func kg_state_new(rulesJSON *C.char, st unsafe.Pointer, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	r, err := parseRules(json.RawMessage(C.GoString(rulesJSON)))
	if err != nil {
		return report(err, errBuf, errSize)
	}
	s, err := env.NewState(r)
	if err != nil {
		return report(inputError{err}, errBuf, errSize)
	}
	*stateAt(st) = s
	return ok
}

// kg_state_match is kg_state_new right after the kick-off, the line-ups home and away
// declared (indices): the game from a given start.
//
//export kg_state_match
func kg_state_match(rulesJSON *C.char, home, away C.int, st unsafe.Pointer, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	r, err := parseRules(json.RawMessage(C.GoString(rulesJSON)))
	if err != nil {
		return report(err, errBuf, errSize)
	}
	if home < 0 || home >= env.NumActions || away < 0 || away >= env.NumActions {
		return report(inputf("lineups: indices %d and %d: want 0..%d", home, away, env.NumActions-1), errBuf, errSize)
	}
	s, err := env.NewMatch(r, env.LineupAt(int(home)), env.LineupAt(int(away)))
	if err != nil {
		return report(inputError{err}, errBuf, errSize)
	}
	*stateAt(st) = s
	return ok
}

// kg_state_node packs what Python asks of a node in one call: the node kind (0 decision, 1
// chance, 2 terminal) in bits 0–1, home and away acting in bits 2 and 3, the decision kind
// (env.DecisionKind) from bit 4.
//
//export kg_state_node
func kg_state_node(st unsafe.Pointer) C.int {
	s := stateAt(st)
	n := 0
	switch s.Node() {
	case env.Chance:
		n = 1
	case env.Terminal:
		n = 2
	default:
		for p := env.Home; p <= env.Away; p++ {
			if s.Acting(p) {
				n |= 4 << p
			}
		}
		n |= int(s.Decision()) << 4
	}
	return C.int(n)
}

// kg_state_legal writes player's legal actions, ascending, into out (room for 121) and
// returns how many.
//
//export kg_state_legal
func kg_state_legal(st unsafe.Pointer, player C.int, out *C.int32_t) C.int {
	if player != 0 && player != 1 {
		return -1
	}
	m := stateAt(st).Legal(env.Player(player))
	dst := unsafe.Slice((*int32)(unsafe.Pointer(out)), env.NumActions)
	n := 0
	for a := range env.NumActions {
		if m.Has(a) {
			dst[n] = int32(a)
			n++
		}
	}
	return C.int(n)
}

// kg_state_chance writes the chance node's outcomes and their exact probabilities as pairs
// (outcome, probability; room for 3) and returns how many (0 at other nodes): one buffer,
// as Python allocates one per call.
//
//export kg_state_chance
func kg_state_chance(st unsafe.Pointer, pairs *C.double) C.int {
	var buf [3]env.ChanceOutcome
	cs := stateAt(st).AppendChanceOutcomes(buf[:0])
	out := unsafe.Slice((*float64)(unsafe.Pointer(pairs)), 6)
	for i, c := range cs {
		out[2*i], out[2*i+1] = float64(c.Outcome), c.Prob
	}
	return C.int(len(cs))
}

// kg_state_chance_key names the law of the chance node — the same key, the same outcomes
// and probabilities — so that Python asks for each law once; −1 at other nodes. A match
// meets a few dozen laws (the dice each side throws, the shoot-out's coin and kicks).
//
//export kg_state_chance_key
func kg_state_chance_key(st unsafe.Pointer) C.int {
	var law [3]env.ChanceOutcome
	if len(stateAt(st).AppendChanceOutcomes(law[:0])) == 0 {
		return -1
	}
	if id, ok := chanceLaws.Load(law); ok {
		return id.(C.int)
	}
	lawMu.Lock()
	defer lawMu.Unlock()
	id, _ := chanceLaws.LoadOrStore(law, C.int(lawCount))
	if id.(C.int) == C.int(lawCount) {
		lawCount++
	}
	return id.(C.int)
}

var (
	chanceLaws sync.Map // [3]env.ChanceOutcome → C.int
	lawMu      sync.Mutex
	lawCount   int
)

// kg_state_apply_chance plays a chance outcome: 0, or −1 (the state unchanged) if it is not
// possible here.
//
//export kg_state_apply_chance
func kg_state_apply_chance(st unsafe.Pointer, outcome C.int) C.int {
	if outcome < 0 || outcome > 255 || stateAt(st).ApplyChanceChecked(env.Outcome(outcome)) != nil {
		return -1
	}
	return ok
}

// kg_state_apply_joint plays both players' actions: 0, or −1 (the state unchanged) if an
// acting player's is illegal or no decision is pending.
//
//export kg_state_apply_joint
func kg_state_apply_joint(st unsafe.Pointer, home, away C.int) C.int {
	if stateAt(st).ApplyChecked([2]int{int(home), int(away)}) != nil {
		return -1
	}
	return ok
}

// kg_state_apply plays action as apply_action does in Python: at a chance node an outcome,
// at a decision node the joint action home × 121 + away. 0, or −1 (the state unchanged) if it
// is not legal; −2 at the end.
//
//export kg_state_apply
func kg_state_apply(st unsafe.Pointer, action C.int) C.int {
	s := stateAt(st)
	switch {
	case action < 0:
		return -1
	case s.Node() == env.Chance:
		return kg_state_apply_chance(st, action)
	case s.Node() == env.Terminal:
		return -2
	case action >= env.NumActions*env.NumActions:
		return -1
	}
	return kg_state_apply_joint(st, action/env.NumActions, action%env.NumActions)
}

// kg_state_why writes why apply_joint refused (home, away), for the error Python raises.
//
//export kg_state_why
func kg_state_why(st unsafe.Pointer, home, away C.int, buf *C.char, size C.int) {
	s := *stateAt(st)
	writeString(errorText(s.ApplyChecked([2]int{int(home), int(away)})), buf, size)
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// kg_state_returns writes both players' returns (+1, 0, −1 at the end; 0 before).
//
//export kg_state_returns
func kg_state_returns(st unsafe.Pointer, out *C.double) {
	s, r := stateAt(st), doubles(out, 2)
	r[0], r[1] = 0, 0
	if s.Node() == env.Terminal {
		r[0], r[1] = float64(s.Result(env.Home)), float64(s.Result(env.Away))
	}
}

// kg_state_observation writes player's 36-slot observation (the environments').
//
//export kg_state_observation
func kg_state_observation(st unsafe.Pointer, player C.int, out *C.float) C.int {
	if player != 0 && player != 1 {
		return -1
	}
	stateAt(st).Observe(env.Player(player)).AppendVector(floats(out, obsSize)[:0])
	return ok
}

// kg_state_info writes the state's numbers for Python's properties: period, throws left,
// goals home and away, ball (0 when none), moves left home and away, line-up indices home and
// away, penalties scored home and away, the winner (0 home, 1 away, −1 none).
//
//export kg_state_info
func kg_state_info(st unsafe.Pointer, out *C.int32_t) {
	s := stateAt(st)
	v := unsafe.Slice((*int32)(unsafe.Pointer(out)), 12)
	_, scored := s.Shootout()
	winner := int32(-1)
	if w, won := s.Winner(); won {
		winner = int32(w)
	}
	ball := int32(0)
	if s.Node() != env.Terminal {
		ball = int32(s.Ball())
	}
	lineups := [2]int32{-1, -1} // none declared yet
	if s.Period() != env.PreMatch {
		lineups = [2]int32{int32(s.Lineup(env.Home).Index()), int32(s.Lineup(env.Away).Index())}
	}
	copy(v, []int32{int32(s.Period()), int32(s.ThrowsLeft()), int32(s.Goals(env.Home)), int32(s.Goals(env.Away)), ball,
		int32(s.MovesLeft(env.Home)), int32(s.MovesLeft(env.Away)), lineups[0], lineups[1], int32(scored[0]), int32(scored[1]), winner})
}

// kg_state_string writes the state's one-line description.
//
//export kg_state_string
func kg_state_string(st unsafe.Pointer, buf *C.char, size C.int) {
	writeString(stateAt(st).String(), buf, size)
}

// stateWalkCall is the Go engine's own random walk for Python's tests: steps actions from
// the initial state, uniform among the legal ones (chance outcomes by their probabilities),
// a fresh match after each end, from seed. It returns the actions (as kingoal.State's
// apply_action takes them) and after each the state's summary: node kind, goals home and
// away, ball, throws left and the returns' home entry.
func stateWalkCall(in []byte) (any, error) {
	var a struct {
		Rules json.RawMessage `json:"rules"`
		Seed  uint64          `json:"seed"`
		Steps int             `json:"steps"`
	}
	if err := decode(in, &a, "state_walk"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	if a.Steps < 0 || a.Steps > 10_000_000 {
		return nil, inputf("state_walk: steps=%d: want 0..10000000", a.Steps)
	}
	start, err := env.NewState(r)
	if err != nil {
		return nil, inputError{err}
	}
	rng := rand.New(env.SeededSource(a.Seed, 0))
	s := start
	actions, summary := make([]int, 0, a.Steps), make([][6]int, 0, a.Steps)
	for range a.Steps {
		if s.Node() == env.Terminal {
			s = start
		}
		var action int
		if s.Node() == env.Chance {
			u, cs := rng.Float64(), s.ChanceOutcomes()
			o := cs[len(cs)-1].Outcome
			for _, c := range cs {
				if u < c.Prob {
					o = c.Outcome
					break
				}
				u -= c.Prob
			}
			action = int(o)
			s.ApplyChance(o)
		} else {
			var joint [2]int
			for p := env.Home; p <= env.Away; p++ {
				legal := s.Legal(p).Actions()
				joint[p] = legal[rng.IntN(len(legal))]
			}
			action = joint[0]*env.NumActions + joint[1]
			s.Apply(joint)
		}
		ball, result := 0, 0
		if s.Node() != env.Terminal {
			ball = s.Ball()
		} else {
			result = s.Result(env.Home)
		}
		actions = append(actions, action)
		summary = append(summary, [6]int{int(s.Node()), s.Goals(env.Home), s.Goals(env.Away), ball, s.ThrowsLeft(), result})
	}
	return map[string]any{"actions": actions, "summary": summary}, nil
}

// stateHolder is what kg_env_state needs of an environment: its match as it stands.
type stateHolder interface{ current() env.State }

func (s *single) current() env.State   { return s.e.State() }
func (p *parallel) current() env.State { return p.e.State() }

// kg_env_state copies an environment's current state into Python's buffer (the
// environments' .state, for planning from where the match is).
//
//export kg_env_state
func kg_env_state(h C.uint64_t, st unsafe.Pointer, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	e, release, err := acquire[stateHolder](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	*stateAt(st) = e.current()
	return ok
}

// benchStateCall times, in Go, what python/bench.py times through kingoal.State: copying a
// state (clone), playing a throw's outcome (apply_action) and listing a throw's outcomes
// (chance_outcomes), at the first throw of a default-rules match; ns per call.
func benchStateCall(in []byte) (any, error) {
	var a struct {
		N int `json:"n"`
	}
	if err := decode(in, &a, "bench_state"); err != nil {
		return nil, err
	}
	if a.N < 1 || a.N > 100_000_000 {
		return nil, inputf("bench_state: n=%d: want 1..100000000", a.N)
	}
	s, err := env.NewMatch(env.Rules{}, env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("1-2-3-3-1"))
	if err != nil {
		return nil, err
	}
	states := make([]env.State, a.N)
	t := time.Now()
	for i := range states {
		states[i] = s // the clone
	}
	clone := time.Since(t)
	t = time.Now()
	for i := range states {
		_ = states[i].ApplyChanceChecked(env.HomeWins)
	}
	apply := time.Since(t)
	var buf [3]env.ChanceOutcome
	t = time.Now()
	n := 0
	for range a.N {
		n += len(s.AppendChanceOutcomes(buf[:0]))
	}
	chance := time.Since(t)
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(a.N) }
	return map[string]float64{"clone_ns": per(clone), "apply_action_ns": per(apply), "chance_outcomes_ns": per(chance), "outcomes": float64(n) / float64(a.N)}, nil
}
