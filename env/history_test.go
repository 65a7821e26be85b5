package env_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// A replayed environment is the environment it was taken from: from the copy point on, the
// same actions give the same transitions, dice included, to the end of the match — for the
// single-agent env (a seeded random opponent, rolled dice, Dynamic shifts, keep-on-illegal),
// the two-player env and the vector across its autoresets.
func TestReplayContinuesTheSameMatch(t *testing.T) {
	rules := env.Rules{ThrowsPerHalf: 8, Modes: [2]env.Mode{env.Basic, env.Dynamic}}
	cfg := env.Config{Rules: rules, Dice: env.RolledDice, Opponent: &randomPolicy{}, IllegalAction: env.KeepOnIllegal}
	for cut := range 6 {
		a, _ := env.New(cfg)
		_, info := a.Reset(uint64(100 + cut))
		rng := rand.New(rand.NewPCG(uint64(cut), 2))
		act := func(m env.Mask) int {
			if rng.IntN(5) == 0 {
				return rng.IntN(env.NumActions) // illegal now and then: kept, and replayed as kept
			}
			return randomAction(rng, m)
		}
		for range cut {
			tr, err := a.Step(act(info.Mask))
			if err != nil {
				t.Fatal(err)
			}
			info = tr.Info
			if tr.Terminated {
				break
			}
		}
		b, _ := env.New(env.Config{Rules: rules, Dice: env.RolledDice, Opponent: &randomPolicy{}, IllegalAction: env.KeepOnIllegal})
		if err := b.Replay(a.History()); err != nil {
			t.Fatal(err)
		}
		if a.State() != b.State() {
			t.Fatalf("cut %d: replayed state %v, want %v", cut, b.State(), a.State())
		}
		for a.State().Node() != env.Terminal {
			x := act(info.Mask)
			ta, errA := a.Step(x)
			tb, errB := b.Step(x)
			if !reflect.DeepEqual(ta, tb) || (errA == nil) != (errB == nil) || a.LastRoll() != b.LastRoll() {
				t.Fatalf("cut %d: the copy went %+v (%v), the original %+v (%v)", cut, tb, errB, ta, errA)
			}
			info = ta.Info
		}
	}
	fresh, _ := env.New(cfg)
	if err := fresh.Replay(env.History{}); err != nil || fresh.History().Started {
		t.Fatalf("replaying a history before Reset: %v, %+v", err, fresh.History())
	}
	if _, err := fresh.Step(0); err == nil {
		t.Fatal("a replayed never-reset env steps")
	}
}

func TestParallelReplay(t *testing.T) {
	pc := env.ParallelConfig{Rules: env.Rules{ThrowsPerHalf: 6}, Dice: env.RolledDice}
	a, _ := env.NewParallel(pc)
	_, infos := a.Reset(9)
	rng := rand.New(rand.NewPCG(3, 3))
	joint := func() [2]int { return [2]int{randomAction(rng, infos[0].Mask), randomAction(rng, infos[1].Mask)} }
	for range 3 {
		tr, err := a.Step(joint())
		if err != nil {
			t.Fatal(err)
		}
		infos = tr.Info
	}
	b, _ := env.NewParallel(pc)
	if err := b.Replay(a.History()); err != nil {
		t.Fatal(err)
	}
	for !a.Done() {
		j := joint()
		ta, _ := a.Step(j)
		tb, _ := b.Step(j)
		if !reflect.DeepEqual(ta, tb) {
			t.Fatalf("the copy went %+v, the original %+v", tb, ta)
		}
		infos = ta.Info
	}
	other, _ := env.NewParallel(env.ParallelConfig{Rules: env.Rules{ThrowsPerHalf: 6, Moves: env.NoMoves}})
	if err := other.Replay(a.History()); err == nil {
		t.Fatal("a history replayed under other rules (no moves) without an error")
	}
}

func TestVecReplay(t *testing.T) {
	mk := func() *env.VecEnv {
		v, err := env.NewVecEnvFunc(3, func(int) (env.Config, error) {
			return env.Config{Rules: env.Rules{ThrowsPerHalf: 3}, Opponent: &randomPolicy{}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a := mk()
	out := a.Reset(5)
	rng := rand.New(rand.NewPCG(4, 4))
	actions := func() []int {
		acts := make([]int, 3)
		for i := range acts {
			if out.Masks[i].Count() > 0 { // a finished episode's action is ignored
				acts[i] = randomAction(rng, out.Masks[i])
			}
		}
		return acts
	}
	for range 25 { // several episodes each: the copy is taken across autoresets
		var err error
		if out, err = a.Step(actions()); err != nil {
			t.Fatal(err)
		}
	}
	b := mk()
	if err := b.Replay(a.History()); err != nil {
		t.Fatal(err)
	}
	for range 40 {
		acts := actions()
		oa, errA := a.Step(acts)
		want := cloneStep(oa)
		ob, errB := b.Step(acts)
		if errA != nil || errB != nil || !reflect.DeepEqual(want, cloneStep(ob)) {
			t.Fatalf("the copy's batch %+v (%v), the original's %+v (%v)", ob, errB, want, errA)
		}
		out = oa
	}
	if err := mk().Replay(env.VecHistory{Episodes: []uint64{1}}); err == nil {
		t.Fatal("the history of a vector of another size replayed")
	}
}

func cloneStep(s env.VecStep) env.VecStep {
	return env.VecStep{Obs: append([]float32(nil), s.Obs...), Rewards: append([]float64(nil), s.Rewards...),
		Terminated: append([]bool(nil), s.Terminated...), Truncated: append([]bool(nil), s.Truncated...),
		Masks: append([]env.Mask(nil), s.Masks...)}
}

// A finished environment of a vector shows one legal action, the line-up it ended with: a
// learner sampling from the mask (or a masked softmax) has something to pick, and the next
// Step, which resets it, ignores it.
func TestVecFinishedMaskHoldsTheFinalLineup(t *testing.T) {
	v, err := env.NewVecEnv(4, env.Config{Rules: env.Rules{ThrowsPerHalf: 2}, MaxSteps: 3})
	if err != nil {
		t.Fatal(err)
	}
	out := v.Reset(1)
	finished := 0
	for range 30 {
		acts := make([]int, 4)
		for i := range acts {
			acts[i] = out.Masks[i].Nth(0)
		}
		if out, err = v.Step(acts); err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			if out.Terminated[i] || out.Truncated[i] {
				finished++
				final := v.Env(i).State().Lineup(env.Home).Index()
				if out.Masks[i].Count() != 1 || !out.Masks[i].Has(final) {
					t.Fatalf("environment %d finished with mask %v, want only its line-up %d", i, out.Masks[i].Actions(), final)
				}
			}
		}
	}
	if finished < 8 {
		t.Fatalf("only %d episodes finished: the test needs more", finished)
	}
}

// PeriodsPlayed counts the periods a match went through: the distinct periods of its events.
func TestPeriodsPlayed(t *testing.T) {
	seen := map[int]bool{}
	for _, extra := range []int{4, env.NoExtraTime} {
		for seed := range uint64(300) {
			s, _ := env.NewState(env.Rules{ThrowsPerHalf: 6, Knockout: true, ExtraThrowsPerHalf: extra, Moves: env.NoMoves})
			periods := map[env.Period]bool{}
			end, err := env.Play(s, env.Keep(env.MustParseLineup("2-2-2-2-2")), env.Keep(env.MustParseLineup("2-2-2-2-2")),
				env.NewFastSampler(rand.NewPCG(seed, 1)), func(e env.Event) {
					if e.Before.Period() >= env.FirstHalf && e.Before.Period() <= env.Penalties {
						periods[e.Before.Period()] = true
					}
				})
			if err != nil {
				t.Fatal(err)
			}
			if end.PeriodsPlayed() != len(periods) {
				t.Fatalf("seed %d: PeriodsPlayed %d, events in %d periods %v", seed, end.PeriodsPlayed(), len(periods), periods)
			}
			seen[len(periods)] = true
		}
	}
	if !seen[2] || !seen[3] || !seen[4] || !seen[5] {
		t.Fatalf("the sample reached %v periods; the test needs 2, 3, 4 and 5", seen)
	}
}
