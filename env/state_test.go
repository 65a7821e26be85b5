package env_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
)

var l22222 = env.MustParseLineup("2-2-2-2-2")

func mustMatch(t *testing.T, r env.Rules, home, away string) env.State {
	t.Helper()
	s, err := env.NewMatch(r, env.MustParseLineup(home), env.MustParseLineup(away))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play applies scripted chance outcomes, keeping formations at decisions.
func play(t *testing.T, s *env.State, outcomes ...env.Outcome) {
	t.Helper()
	for _, o := range outcomes {
		for s.Node() == env.Decision {
			keepAll(t, s)
		}
		if err := s.ApplyChanceChecked(o); err != nil {
			t.Fatalf("%v at %s", err, s)
		}
	}
}

func keepAll(t *testing.T, s *env.State) {
	t.Helper()
	if err := s.ApplyChecked([2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()}); err != nil {
		t.Fatal(err)
	}
}

func repeat(o env.Outcome, n int) []env.Outcome {
	out := make([]env.Outcome, n)
	for i := range out {
		out[i] = o
	}
	return out
}

// TestReferenceFigure enumerates every chance outcome of a whole match (states are
// comparable values) and checks rules §10 exactly.
func TestReferenceFigure(t *testing.T) {
	for _, tc := range []struct {
		ties             bool
		win, draw, goals float64
	}{
		{false, 0.4263056, 0.1473888, 3.7227816},
		{true, 0.4162050, 0.1675900, 2.8501842},
	} {
		s, _ := env.NewMatch(env.Rules{Moves: env.NoMoves, TiesCount: tc.ties}, l22222, l22222)
		var res [3]float64
		var goals [2]float64
		for st, p := range exactLaw(s) { // no moves: every state it ends in is terminal
			res[st.Result(env.Home)+1] += p
			goals[0] += p * float64(st.Goals(env.Home))
			goals[1] += p * float64(st.Goals(env.Away))
		}
		near(t, "P(home win)", res[2], tc.win, 5e-8)
		near(t, "P(away win)", res[0], tc.win, 5e-8)
		near(t, "P(draw)", res[1], tc.draw, 5e-8)
		near(t, "home goals", goals[0], tc.goals, 5e-8)
		near(t, "away goals", goals[1], tc.goals, 5e-8)
		near(t, "total mass", res[0]+res[1]+res[2], 1, 1e-12)
	}
}

func TestGoalsAndBallMovement(t *testing.T) {
	s := mustMatch(t, env.Rules{Moves: env.NoMoves}, "2-2-2-2-2", "2-2-2-2-2")
	if s.Ball() != 3 || s.Period() != env.FirstHalf || s.ThrowsLeft() != 45 {
		t.Fatalf("kick-off state %s", &s)
	}
	play(t, &s, env.HomeWins, env.HomeWins)
	if s.Ball() != 5 {
		t.Fatalf("ball %d after two home wins, want 5", s.Ball())
	}
	play(t, &s, env.HomeWins)
	if s.Goals(env.Home) != 1 || s.Ball() != 3 || s.ThrowsLeft() != 42 {
		t.Fatalf("after the goal: %s", &s)
	}
	play(t, &s, env.AwayWins, env.AwayWins, env.AwayWins)
	if s.Goals(env.Away) != 1 || s.Ball() != 3 {
		t.Fatalf("after away's goal: %s", &s)
	}
	play(t, &s, repeat(env.AwayWins, 39)...) // the rest of the half: ball 3→2→1→goal…
	if s.Period() != env.SecondHalf || s.ThrowsLeft() != 45 || s.Ball() != 3 {
		t.Fatalf("half time: %s", &s)
	}
	if s.Goals(env.Away) != 1+13 {
		t.Fatalf("away goals %d, want 14 (39 wins = 13 goals)", s.Goals(env.Away))
	}
	play(t, &s, repeat(env.HomeWins, 45)...)
	if s.Node() != env.Terminal || s.Goals(env.Home) != 16 {
		t.Fatalf("full time: %s", &s)
	}
	if w, ok := s.Winner(); !ok || w != env.Home || s.Result(env.Away) != -1 || s.LeaguePoints(env.Home) != 3 {
		t.Fatalf("result: %v %v", w, ok)
	}
}

func TestTiesCount(t *testing.T) {
	s := mustMatch(t, env.Rules{Moves: env.NoMoves, TiesCount: true}, "2-2-2-2-2", "2-2-2-2-2")
	if got := len(s.ChanceOutcomes()); got != 3 {
		t.Fatalf("%d outcomes, want 3 with ties-count", got)
	}
	play(t, &s, env.Tie, env.Tie)
	if s.Ball() != 3 || s.ThrowsLeft() != 43 {
		t.Fatalf("ties must use throws and leave the ball: %s", &s)
	}
	d := mustMatch(t, env.Rules{}, "2-2-2-2-2", "2-2-2-2-2")
	if err := d.ApplyChanceChecked(env.Tie); !errors.Is(err, env.ErrIllegalAction) {
		t.Fatalf("a tie without ties-count must be illegal, got %v", err)
	}
}

func TestBasicBreaks(t *testing.T) {
	s := mustMatch(t, env.Rules{Moves: 2}, "2-2-2-2-2", "1-2-3-3-1")
	play(t, &s, env.HomeWins, env.HomeWins, env.HomeWins) // home scores: a break
	if s.Decision() != env.Break || !s.Acting(env.Home) || !s.Acting(env.Away) {
		t.Fatalf("after a goal: %s", &s)
	}
	to := env.MustParseLineup("1-1-2-2-4").Index() // costs 2
	if err := s.ApplyChecked([2]int{env.MustParseLineup("5-2-1-1-1").Index(), s.Lineup(env.Away).Index()}); err == nil ||
		!strings.Contains(err.Error(), "costs 3 moves, 2 left") {
		t.Fatalf("over-budget move: %v", err)
	}
	if err := s.ApplyChecked([2]int{to, s.Lineup(env.Away).Index()}); err != nil {
		t.Fatal(err)
	}
	if s.MovesUsed(env.Home) != 2 || s.MovesLeft(env.Home) != 0 || s.Lineup(env.Home).Index() != to {
		t.Fatalf("after moving: %s", &s)
	}
	play(t, &s, env.AwayWins, env.AwayWins, env.AwayWins) // away scores
	if s.Decision() != env.Break || s.Acting(env.Home) || !s.Acting(env.Away) {
		t.Fatalf("only away has moves left: %s", &s)
	}
	if s.Legal(env.Home) != singleton(s.Lineup(env.Home)) {
		t.Fatal("a player who cannot move may only keep the line-up")
	}
	// A goal on the last throw of the half makes one break, not two.
	n := mustMatch(t, env.Rules{ThrowsPerHalf: 3}, "2-2-2-2-2", "2-2-2-2-2")
	play(t, &n, env.HomeWins, env.HomeWins, env.HomeWins)
	if n.Decision() != env.Break || n.Period() != env.SecondHalf || n.ThrowsLeft() != 3 {
		t.Fatalf("goal at half time: %s", &n)
	}
	keepAll(t, &n)
	if n.Node() != env.Chance {
		t.Fatalf("after the half-time break: %s", &n)
	}
	// No break when nobody may move.
	z := mustMatch(t, env.Rules{Moves: env.NoMoves}, "2-2-2-2-2", "2-2-2-2-2")
	play(t, &z, env.HomeWins, env.HomeWins, env.HomeWins)
	if z.Node() != env.Chance {
		t.Fatalf("break without budgets: %s", &z)
	}
}

func singleton(l env.Lineup) env.Mask {
	var m env.Mask
	m.Set(l.Index())
	return m
}

func TestDynamicShifts(t *testing.T) {
	r := env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Basic}, Moves: env.NoMoves}
	s := mustMatch(t, r, "2-2-2-2-2", "2-2-2-2-2")
	if err := s.ApplyChanceChecked(env.HomeWins); err != nil {
		t.Fatal(err)
	}
	if s.Decision() != env.Shift || s.Shifter() != env.Home || !s.Acting(env.Home) || s.Acting(env.Away) {
		t.Fatalf("after home (dynamic) wins: %s", &s)
	}
	if s.Legal(env.Home) != l22222.Shifts() {
		t.Fatal("shift mask")
	}
	far := env.MustParseLineup("1-2-2-2-3").Index()
	if err := s.ApplyChecked([2]int{far, 0}); !errors.Is(err, env.ErrIllegalAction) {
		t.Fatalf("a two-sector shift must be illegal: %v", err)
	}
	up := env.MustParseLineup("2-2-2-1-3").Index()
	if err := s.ApplyChecked([2]int{up, 0}); err != nil {
		t.Fatal(err)
	}
	if s.Node() != env.Chance || s.Lineup(env.Home).Index() != up {
		t.Fatalf("after the shift: %s", &s)
	}
	if err := s.ApplyChanceChecked(env.AwayWins); err != nil || s.Node() != env.Chance {
		t.Fatalf("basic away winning earns nothing: %s %v", &s, err)
	}

	// Turnover: a shift only when regaining the ball; the first throw after kick-off counts.
	r.DynamicTrigger = env.TriggerTurnover
	u := mustMatch(t, r, "2-2-2-2-2", "2-2-2-2-2")
	play(t, &u, env.HomeWins)
	if u.Decision() != env.Shift {
		t.Fatalf("first throw after kick-off regains: %s", &u)
	}
	keepAll(t, &u)
	play(t, &u, env.HomeWins)
	if u.Node() != env.Chance {
		t.Fatalf("a second win in a row earns no shift with turnover: %s", &u)
	}
	play(t, &u, env.AwayWins, env.HomeWins)
	if u.Decision() != env.Shift {
		t.Fatalf("regaining the ball earns a shift: %s", &u)
	}
}

func TestKnockoutExtraTimeAndPenalties(t *testing.T) {
	r := env.Rules{Knockout: true, ThrowsPerHalf: 2, ExtraThrowsPerHalf: 1, Moves: env.NoMoves}
	s := mustMatch(t, r, "2-2-2-2-2", "2-2-2-2-2")
	play(t, &s, env.HomeWins, env.AwayWins, env.HomeWins, env.AwayWins)
	if s.Period() != env.ExtraFirst || s.ThrowsLeft() != 1 {
		t.Fatalf("a level knockout goes to extra time: %s", &s)
	}
	play(t, &s, env.HomeWins, env.AwayWins)
	if s.Period() != env.Penalties || s.Node() != env.Chance {
		t.Fatalf("still level: penalties: %s", &s)
	}
	play(t, &s, env.AwayKicksFirst)
	if s.NextKicker() != env.Away {
		t.Fatal("away kicks first")
	}
	// Away scores 3, home misses 3: after home's third miss home cannot catch up (3 > 0+2).
	play(t, &s, env.KickScored, env.KickSaved, env.KickScored, env.KickSaved, env.KickScored)
	if s.Node() == env.Terminal {
		t.Fatal("decided too early")
	}
	play(t, &s, env.KickSaved)
	if s.Node() != env.Terminal {
		t.Fatalf("home cannot catch up: %s", &s)
	}
	if w, _ := s.Winner(); w != env.Away || s.Result(env.Away) != 1 || s.LeaguePoints(env.Away) != 1 {
		t.Fatalf("shoot-out winner %v (league points count goals in play: a draw)", w)
	}
	// Sudden death: all ten regular kicks scored, then home scores and away misses.
	k := mustMatch(t, env.Rules{Knockout: true, ThrowsPerHalf: 1, ExtraThrowsPerHalf: env.NoExtraTime, Moves: env.NoMoves}, "2-2-2-2-2", "2-2-2-2-2")
	play(t, &k, env.HomeWins, env.AwayWins)
	if k.Period() != env.Penalties {
		t.Fatalf("no extra time: straight to penalties: %s", &k)
	}
	play(t, &k, env.HomeKicksFirst)
	play(t, &k, repeat(env.KickScored, 10)...)
	if k.Node() == env.Terminal {
		t.Fatal("5-5 after five each: sudden death")
	}
	play(t, &k, env.KickScored)
	if k.Node() == env.Terminal {
		t.Fatal("away still has its sixth kick")
	}
	play(t, &k, env.KickSaved)
	taken, scored := k.Shootout()
	if w, ok := k.Winner(); k.Node() != env.Terminal || !ok || w != env.Home || taken != [2]int{6, 6} || scored != [2]int{6, 5} {
		t.Fatalf("sudden death: %s", &k)
	}
	// A league match may end level.
	d := mustMatch(t, env.Rules{ThrowsPerHalf: 1, Moves: env.NoMoves}, "2-2-2-2-2", "2-2-2-2-2")
	play(t, &d, env.HomeWins, env.AwayWins)
	if _, ok := d.Winner(); d.Node() != env.Terminal || ok || d.LeaguePoints(env.Home) != 1 {
		t.Fatalf("league draw: %s", &d)
	}
}

// randomAction picks uniformly among the legal actions.
func randomAction(rng *rand.Rand, m env.Mask) int { return m.Nth(rng.IntN(m.Count())) }

// TestRandomPlayInvariants plays many seeded matches with random decisions under many
// rule variants and checks the invariants of docs/rules.md at every step.
func TestRandomPlayInvariants(t *testing.T) {
	variants := []env.Rules{
		{},
		{Knockout: true},
		{Knockout: true, TiesCount: true},
		{Modes: [2]env.Mode{env.Dynamic, env.Dynamic}},
		{Modes: [2]env.Mode{env.Dynamic, env.Basic}, DynamicTrigger: env.TriggerTurnover, Knockout: true},
		{ThrowsPerHalf: 3, ExtraThrowsPerHalf: 1, Knockout: true, Moves: 5},
		{ThrowsPerHalf: 2, ExtraThrowsPerHalf: env.NoExtraTime, Knockout: true, TiesCount: true},
		{Moves: 1, Points: env.Points{Win: 2, Draw: 1}},
	}
	for vi, r := range variants {
		budget := r.MoveBudget()
		for seed := uint64(0); seed < 250; seed++ {
			rng := rand.New(rand.NewPCG(uint64(vi), seed))
			var smp env.Sampler = env.NewFastSampler(rand.NewPCG(seed, 7))
			if seed%2 == 1 {
				smp = env.NewDiceSampler(rand.NewPCG(seed, 7))
			}
			s, err := env.NewState(r)
			if err != nil {
				t.Fatal(err)
			}
			throws := map[env.Period]int{}
			goals := [2]int{}
			for steps := 0; s.Node() != env.Terminal; steps++ {
				if steps > 100000 {
					t.Fatalf("variant %d seed %d: match does not end: %s", vi, seed, &s)
				}
				if s.Period() != env.PreMatch {
					checkState(t, &s, budget)
				}
				if s.Node() == env.Decision {
					var joint [2]int
					for p := env.Home; p <= env.Away; p++ {
						m := s.Legal(p)
						if m.Count() == 0 || (!s.Acting(p) && m != singleton(s.Lineup(p))) {
							t.Fatalf("mask of %s at %s: %v", p, &s, m.Actions())
						}
						joint[p] = randomAction(rng, m)
					}
					before := s
					if err := s.ApplyChecked(joint); err != nil {
						t.Fatal(err)
					}
					for p := env.Home; p <= env.Away; p++ {
						cost := before.Lineup(p).Moves(s.Lineup(p))
						if before.Period() != env.PreMatch && s.MovesUsed(p)-before.MovesUsed(p) != cost && s.Mode(p) == env.Basic {
							t.Fatalf("moves used not charged: %s → %s", &before, &s)
						}
					}
					continue
				}
				sum := 0.0
				for _, c := range s.ChanceOutcomes() {
					if c.Prob < 0 || c.Prob > 1 {
						t.Fatalf("probability %v", c)
					}
					sum += c.Prob
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Fatalf("chance probabilities sum to %v at %s", sum, &s)
				}
				before := s
				o := smp.Sample(s)
				s.ApplyChance(o)
				if before.Period() >= env.FirstHalf && before.Period() <= env.ExtraSecond {
					throws[before.Period()]++
				}
				for p := env.Home; p <= env.Away; p++ {
					if d := s.Goals(p) - before.Goals(p); d != 0 {
						scoring := (p == env.Home && o == env.HomeWins && before.Ball() == 5) ||
							(p == env.Away && o == env.AwayWins && before.Ball() == 1)
						if d != 1 || !scoring || s.Ball() != 3 {
							t.Fatalf("goal event %s → %s", &before, &s)
						}
						goals[p]++
					}
				}
			}
			if s.Goals(env.Home) != goals[0] || s.Goals(env.Away) != goals[1] {
				t.Fatalf("score %s but %v goal events", &s, goals)
			}
			if throws[env.FirstHalf] != r.HalfThrows() || throws[env.SecondHalf] != r.HalfThrows() {
				t.Fatalf("regular throws %v, want %d a half", throws, r.HalfThrows())
			}
			if e := throws[env.ExtraFirst]; e != 0 && (e != r.ExtraThrows() || throws[env.ExtraSecond] != r.ExtraThrows()) {
				t.Fatalf("extra-time throws %v, want %d a half", throws, r.ExtraThrows())
			}
			if _, ok := s.Winner(); r.Knockout && !ok {
				t.Fatalf("a knockout match must have a winner: %s", &s)
			}
			if len(s.ChanceOutcomes()) != 0 || s.Legal(env.Home).Count() != 0 {
				t.Fatal("a terminal node has no outcomes and no actions")
			}
		}
	}
}

func checkState(t *testing.T, s *env.State, budget int) {
	t.Helper()
	for p := env.Home; p <= env.Away; p++ {
		l := s.Lineup(p)
		total := 0
		for k := 1; k <= 5; k++ {
			if l.Sector(k) < 1 || l.Sector(k) > 5 {
				t.Fatalf("%s: sector %d holds %d", s, k, l.Sector(k))
			}
			total += l.Sector(k)
		}
		if total != 10 {
			t.Fatalf("%s: %d outfield counters", s, total)
		}
		if s.MovesUsed(p) > budget || (s.Mode(p) == env.Dynamic && s.MovesUsed(p) != 0) {
			t.Fatalf("%s: %s used %d moves of %d", s, p, s.MovesUsed(p), budget)
		}
	}
	if s.Ball() < 1 || s.Ball() > 5 {
		t.Fatalf("ball %d", s.Ball())
	}
}

func TestRulesValidate(t *testing.T) {
	for _, r := range []env.Rules{
		{ThrowsPerHalf: -1}, {ExtraThrowsPerHalf: -2}, {Moves: -2}, {Moves: 1000},
		{Points: env.Points{Win: 0, Draw: 1, Loss: 0}}, {Modes: [2]env.Mode{7, 0}}, {DynamicTrigger: 9},
	} {
		err := r.Validate()
		if !errors.Is(err, env.ErrRules) || !strings.HasPrefix(err.Error(), "env: invalid rules: ") {
			t.Errorf("%+v: %v", r, err)
		}
		if _, err := env.NewState(r); err == nil {
			t.Errorf("NewState accepted %+v", r)
		}
	}
	if err := (env.Rules{}).Validate(); err != nil {
		t.Fatal(err)
	}
	r := env.Rules{}
	if r.HalfThrows() != 45 || r.ExtraThrows() != 15 || r.MoveBudget() != 3 || r.LeaguePoints() != (env.Points{Win: 3, Draw: 1}) {
		t.Fatal("zero Rules must mean docs/rules.md's defaults")
	}
	s, _ := env.NewState(env.Rules{Moves: env.NoMoves, ExtraThrowsPerHalf: env.NoExtraTime})
	if got := s.Rules(); got.MoveBudget() != 0 || got.ExtraThrows() != 0 {
		t.Fatalf("Rules round trip: %+v", got)
	}
}

func FuzzParseKnobs(f *testing.F) {
	for _, s := range []string{"3,1,0", "2,1,0", "1,1,1", "3,1", "a,b,c", "3, 1, 0", "", "basic", "dynamic", "turnover", "win"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p, err := env.ParsePoints(s); err == nil {
			back, err := env.ParsePoints(p.String())
			if err != nil || back.String() != p.String() {
				t.Fatalf("points %q → %v → %v %v", s, p, back, err)
			}
		} else if !strings.HasPrefix(err.Error(), "env: points") {
			t.Fatal(err)
		}
		if m, err := env.ParseMode(s); err == nil && m.String() != strings.ToLower(strings.TrimSpace(s)) {
			t.Fatalf("mode %q → %v", s, m)
		}
		if tr, err := env.ParseTrigger(s); err == nil {
			if _, err := env.ParseTrigger(tr.String()); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestStateFromObservation: at every decision of many random matches, each acting player's
// observation rebuilds exactly the state (kick-off: the state before line-ups).
func TestStateFromObservation(t *testing.T) {
	for vi, r := range []env.Rules{
		{}, {Knockout: true, ThrowsPerHalf: 6, ExtraThrowsPerHalf: 2, TiesCount: true},
		{Modes: [2]env.Mode{env.Dynamic, env.Basic}, DynamicTrigger: env.TriggerTurnover, ThrowsPerHalf: 10},
		{Modes: [2]env.Mode{env.Basic, env.Dynamic}, Moves: 1, ThrowsPerHalf: 10},
	} {
		for seed := uint64(0); seed < 40; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(vi)))
			start, _ := env.NewState(r)
			checked := 0
			random := env.PolicyFunc(func(o env.Observation, m env.Mask) int {
				return randomAction(rng, m)
			})
			_, err := env.Play(start, random, random, env.NewFastSampler(rand.NewPCG(seed, 3)), func(e env.Event) {
				if e.Chance {
					return
				}
				for p := env.Home; p <= env.Away; p++ {
					if !e.Before.Acting(p) {
						continue
					}
					got, err := env.StateFromObservation(e.Before.Observe(p), r)
					if err != nil {
						t.Fatal(err)
					}
					if got != e.Before {
						t.Fatalf("variant %d: rebuilt\n %s\nfrom %s's view of\n %s", vi, got.String(), p, e.Before.String())
					}
					checked++
				}
			})
			if err != nil || checked == 0 {
				t.Fatalf("%v, %d checked", err, checked)
			}
		}
	}
	if _, err := env.StateFromObservation(env.Observation{Decision: env.NoDecision}, env.Rules{}); err == nil {
		t.Error("a non-decision observation was accepted")
	}
}

func TestAfterPeriod(t *testing.T) {
	league, ko, koNoExtra := env.Rules{}, env.Rules{Knockout: true}, env.Rules{Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime}
	for _, c := range []struct {
		r     env.Rules
		p     env.Period
		level bool
		want  env.Period
	}{
		{league, env.FirstHalf, true, env.SecondHalf},
		{league, env.SecondHalf, true, env.FullTime},
		{ko, env.SecondHalf, false, env.FullTime},
		{ko, env.SecondHalf, true, env.ExtraFirst},
		{ko, env.ExtraFirst, false, env.ExtraSecond},
		{ko, env.ExtraSecond, true, env.Penalties},
		{ko, env.ExtraSecond, false, env.FullTime},
		{koNoExtra, env.SecondHalf, true, env.Penalties},
	} {
		if got := c.r.AfterPeriod(c.p, c.level); got != c.want {
			t.Errorf("%v after %s (level %v): %s, want %s", c.r, c.p, c.level, got, c.want)
		}
	}
	if ko.PeriodLength(env.ExtraFirst) != 15 || league.PeriodLength(env.SecondHalf) != 45 || league.PeriodLength(env.Penalties) != 0 {
		t.Error("PeriodLength")
	}
}

// TestEnumStringsNeverPanic: a value out of range names its kind instead of indexing past an
// array (issue 12); in range, the names are the documented ones.
func TestEnumStringsNeverPanic(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{env.NodeKind(9).String(), "node(9)"}, {env.DecisionKind(200).String(), "decision(200)"},
		{env.Period(42).String(), "period(42)"}, {env.Player(2).String(), "player(2)"}, {env.Mode(3).String(), "mode(3)"},
		{env.Terminal.String(), "terminal"}, {env.Shift.String(), "shift"}, {env.Away.String(), "away"}, {env.Dynamic.String(), "dynamic"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestRulesIdentityIsByValue: equal rules written with or without their defaults are Equal,
// rules that play other matches are not, and String says "no extra time" where there is none
// (it said "extra time 0+0"; issue 12).
func TestRulesIdentityIsByValue(t *testing.T) {
	same := [][2]env.Rules{
		{{}, {ThrowsPerHalf: 45, ExtraThrowsPerHalf: 15, Moves: 3, Points: env.Points{Win: 3, Draw: 1}}},
		{{ExtraThrowsPerHalf: 7}, {}},                                // extra time is for knockouts
		{{DynamicTrigger: env.TriggerTurnover}, {}},                  // the trigger is for Dynamic players
		{{Knockout: true, ExtraThrowsPerHalf: 15}, {Knockout: true}}, // the default written out
		{{Moves: env.NoMoves, Knockout: true}, {Moves: -1, Knockout: true}},
	}
	for _, p := range same {
		if !p[0].Equal(p[1]) || !p[1].Equal(p[0]) {
			t.Errorf("%+v and %+v should be Equal", p[0], p[1])
		}
	}
	differ := [][2]env.Rules{
		{{Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime}, {Knockout: true}},
		{{Modes: [2]env.Mode{env.Dynamic}}, {Modes: [2]env.Mode{env.Dynamic}, DynamicTrigger: env.TriggerTurnover}},
		{{TiesCount: true}, {}},
		{{Moves: env.NoMoves}, {}},
	}
	for _, p := range differ {
		if p[0].Equal(p[1]) {
			t.Errorf("%+v and %+v should differ", p[0], p[1])
		}
	}
	if s := (env.Rules{Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime}).String(); !strings.HasPrefix(s, "knockout (no extra time, penalties)") {
		t.Errorf("String: %q", s)
	}
}

func TestRulesPeriods(t *testing.T) {
	for _, c := range []struct {
		r    env.Rules
		want []env.Period
	}{
		{env.Rules{}, []env.Period{env.FirstHalf, env.SecondHalf}},
		{env.Rules{Knockout: true}, []env.Period{env.FirstHalf, env.SecondHalf, env.ExtraFirst, env.ExtraSecond}},
		{env.Rules{Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime}, []env.Period{env.FirstHalf, env.SecondHalf}},
	} {
		if got := c.r.Periods(); !slices.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.r, got, c.want)
		}
	}
}
