package env_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// randomPolicy plays uniformly random legal actions from its own seeded stream.
type randomPolicy struct{ rng *rand.Rand }

func (r *randomPolicy) Reset(seed uint64)                     { r.rng = rand.New(rand.NewPCG(seed, 0)) }
func (r *randomPolicy) Act(_ env.Observation, m env.Mask) int { return randomAction(r.rng, m) }

func TestEnvEpisode(t *testing.T) {
	for _, scheme := range []env.RewardScheme{env.RewardResult, env.RewardGoalDiff, env.RewardPoints} {
		e, err := env.New(env.Config{Player: env.Away, Reward: scheme, Opponent: &randomPolicy{}, Rules: env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Basic}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Step(0); err == nil {
			t.Fatal("Step before Reset must fail")
		}
		obs, info := e.Reset(42)
		if obs.Decision != env.KickOff || info.Mask.Count() != env.NumActions || !info.Acting || obs.Player != env.Away {
			t.Fatalf("reset: %+v %+v", obs, info)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		total, steps := 0.0, 0
		for {
			tr, err := e.Step(randomAction(rng, info.Mask))
			if err != nil {
				t.Fatal(err)
			}
			steps++
			total += tr.Reward
			if tr.Terminated {
				break
			}
			if tr.Obs.Decision == env.NoDecision || !tr.Info.Acting {
				t.Fatalf("Step returned at a node where the agent does not act: %+v", tr)
			}
			info = tr.Info
		}
		s := e.State()
		want := map[env.RewardScheme]float64{
			env.RewardResult:   float64(s.Result(env.Away)),
			env.RewardGoalDiff: float64(s.Goals(env.Away) - s.Goals(env.Home)),
			env.RewardPoints:   float64(s.LeaguePoints(env.Away)),
		}[scheme]
		if total != want {
			t.Errorf("%v: return %v, want %v (%s)", scheme, total, want, s)
		}
		if _, err := e.Step(0); !errors.Is(err, env.ErrEpisodeOver) {
			t.Errorf("step after the end: %v", err)
		}
		if steps < 2 {
			t.Errorf("%d steps: the Basic away agent should face at least one break", steps)
		}
	}
}

func TestEnvRejectsBadOpponent(t *testing.T) {
	e, _ := env.New(env.Config{Opponent: env.PolicyFunc(func(env.Observation, env.Mask) int { return 500 })})
	e.Reset(1)
	if _, err := e.Step(0); !errors.Is(err, env.ErrIllegalAction) {
		t.Fatalf("an opponent's illegal action must be reported: %v", err)
	}
	if _, err := env.New(env.Config{Rules: env.Rules{ThrowsPerHalf: -3}}); !errors.Is(err, env.ErrRules) {
		t.Fatalf("bad rules: %v", err)
	}
}

func TestParallelEnvIgnoresNonActingActions(t *testing.T) {
	r := env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Dynamic}, ThrowsPerHalf: 8}
	run := func(filler int) []env.ParallelTransition {
		p, _ := env.NewParallel(env.ParallelConfig{Rules: r})
		_, info := p.Reset(9)
		rng := rand.New(rand.NewPCG(2, 2))
		var out []env.ParallelTransition
		for !p.Done() {
			var joint [2]int
			for pl := range joint {
				joint[pl] = filler
				if info[pl].Acting {
					joint[pl] = randomAction(rng, info[pl].Mask)
				}
			}
			tr, err := p.Step(joint)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, tr)
			info = tr.Info
			if !tr.Terminated && (info[0].Acting == info[1].Acting) {
				t.Fatalf("a shift has exactly one actor: %+v", info)
			}
		}
		return out
	}
	if a, b := run(-1), run(77); !reflect.DeepEqual(a, b) {
		t.Fatal("actions of a player who is not acting must be ignored")
	}
}

func TestVecEnvAutoreset(t *testing.T) {
	cfg := env.Config{Rules: env.Rules{ThrowsPerHalf: 3, Moves: env.NoMoves}}
	run := func() ([]float64, int) {
		v, err := env.NewVecEnv(3, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out := v.Reset(5)
		var rewards []float64
		resets := 0
		wasDone := make([]bool, v.Len())
		for range 12 {
			actions := make([]int, v.Len())
			for i := range actions {
				actions[i] = out.Masks[i].Nth(0)
			}
			out, err = v.Step(actions)
			if err != nil {
				t.Fatal(err)
			}
			for i := range actions {
				if wasDone[i] {
					resets++
					if out.Rewards[i] != 0 || out.Terminated[i] || out.Observations[i].Decision != env.KickOff {
						t.Fatalf("autoreset step of env %d: %+v", i, out.Observations[i])
					}
				}
				wasDone[i] = out.Terminated[i] || out.Truncated[i]
				rewards = append(rewards, out.Rewards[i])
			}
			if len(out.Obs) != v.Len()*env.ObservationSize {
				t.Fatal("observation buffer size")
			}
		}
		return rewards, resets
	}
	a, resets := run()
	b, _ := run()
	if resets == 0 {
		t.Fatal("no episode ended in 12 steps of a 6-throw match")
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("VecEnv is not reproducible from its seed")
	}
	v, _ := env.NewVecEnv(2, cfg)
	v.Reset(1)
	if _, err := v.Step([]int{0, 999}); !errors.Is(err, env.ErrIllegalAction) {
		t.Fatalf("illegal action in a batch: %v", err)
	}
	if _, err := env.NewVecEnv(0, cfg); err == nil {
		t.Fatal("empty VecEnv accepted")
	}
}

func TestObservationVector(t *testing.T) {
	s := mustMatch(t, env.Rules{}, "1-2-3-3-1", "5-1-1-1-2")
	play(t, &s, env.HomeWins) // ball 4 in home coordinates
	o := s.Observe(env.Away)
	v := o.Vector()
	if len(v) != env.ObservationSize {
		t.Fatalf("len %d", len(v))
	}
	if o.Ball != 2 || v[10+1] != 1 {
		t.Fatalf("away sees the ball in its sector 2: %+v %v", o, v[10:15])
	}
	// Away's own sector 1 faces home's sector 5 (1 counter): slot 5 = 1/5.
	if v[0] != 1 || v[5] != 0.2 || v[29] != -1 || v[34] != 1 {
		t.Fatalf("slots: %v", v)
	}
	for i, x := range v {
		if i != 16 && i != 17 && (x < -1 || x > 1) {
			t.Fatalf("slot %d = %v out of [-1,1]", i, x)
		}
	}
}

// TestKeepOnIllegal plays matches twice from one seed: once with an illegal action at every
// decision after the kick-off (KeepOnIllegal), once keeping the line-up explicitly. The two
// must be the same match step for step, and only the first must be flagged; the default
// still refuses the illegal action, and an action outside the space is refused either way.
func TestKeepOnIllegal(t *testing.T) {
	rules := env.Rules{Modes: [2]env.Mode{env.Basic, env.Dynamic}, ThrowsPerHalf: 10}
	for _, player := range []env.Player{env.Home, env.Away} {
		cfg := env.Config{Rules: rules, Player: player, Opponent: &randomPolicy{}, Reward: env.RewardGoalDiff}
		strict, _ := env.New(cfg)
		cfg.IllegalAction, cfg.Opponent = env.KeepOnIllegal, &randomPolicy{} // one random stream each
		lax, _ := env.New(cfg)
		flagged := 0
		for seed := uint64(0); seed < 40; seed++ {
			_, is := strict.Reset(seed)
			_, il := lax.Reset(seed)
			first := true
			for {
				keep := strict.State().Lineup(player).Index()
				illegal := -1
				for a := range env.NumActions {
					if !il.Mask.Has(a) {
						illegal = a
						break
					}
				}
				ta, tb := first || illegal < 0, false
				var a, b env.Transition
				var err error
				if ta { // kick-off (everything legal) or nothing to refuse: the same action in both
					act := is.Mask.Nth(0)
					a, err = strict.Step(act)
					if err == nil {
						b, err = lax.Step(act)
					}
				} else {
					if _, err := strict.Step(illegal); !errors.Is(err, env.ErrIllegalAction) {
						t.Fatalf("RaiseIllegal took illegal action %d: %v", illegal, err)
					}
					a, err = strict.Step(keep)
					if err == nil {
						b, err = lax.Step(illegal)
					}
					tb = true
				}
				if err != nil {
					t.Fatal(err)
				}
				if b.Info.IllegalAction != tb || a.Info.IllegalAction {
					t.Fatalf("seed %d: flag %v, want %v (strict env: %v)", seed, b.Info.IllegalAction, tb, a.Info.IllegalAction)
				}
				if tb {
					flagged++
				}
				b.Info.IllegalAction = false
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("seed %d: kept line-up plays differently:\n%+v\n%+v", seed, a, b)
				}
				if a.Terminated {
					break
				}
				is, il, first = a.Info, b.Info, false
			}
		}
		if flagged == 0 {
			t.Fatalf("%v: no illegal action was ever played", player)
		}
	}
	lax, _ := env.New(env.Config{IllegalAction: env.KeepOnIllegal})
	lax.Reset(1)
	if _, err := lax.Step(env.NumActions); !errors.Is(err, env.ErrIllegalAction) {
		t.Fatalf("an action outside the space must be refused under KeepOnIllegal: %v", err)
	}
	v, _ := env.NewVecEnv(2, env.Config{IllegalAction: env.KeepOnIllegal, Rules: env.Rules{ThrowsPerHalf: 4, Moves: 1}})
	v.Reset(3)
	even := env.MustParseLineup("2-2-2-2-2").Index()
	v.Step([]int{even, even})
	st, err := v.Step([]int{0, 120}) // at half time 2-2-2-2-2 → 1-1-1-2-5 or 5-2-1-1-1 costs 3 moves, 1 allowed
	if err != nil || !st.IllegalAction[0] || !st.IllegalAction[1] {
		t.Fatalf("vector env under KeepOnIllegal: %v %v", st.IllegalAction, err)
	}
}
