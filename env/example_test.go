package env_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/kingoal/kingoal/env"
)

func ExampleParseLineup() {
	l, err := env.ParseLineup("1-2-3-3-1")
	fmt.Println(l, l.Index(), err)
	to := env.MustParseLineup("1-2-2-3-2")
	fmt.Println("moves:", l.Moves(to))
	_, err = env.ParseLineup("6-1-1-1-1")
	fmt.Println(err)
	// Output:
	// 1-2-3-3-1 29 <nil>
	// moves: 1
	// env: line-up 6-1-1-1-1: sector 1 holds 6 counters, at most 5
}

func ExampleThrowOdds() {
	home, away, _ := env.ThrowOdds(2, 3, false)
	fmt.Printf("2 dice v 3: %.7f v %.7f\n", home, away)
	// Output:
	// 2 dice v 3: 0.3731624 v 0.6268376
}

func ExampleState_ChanceOutcomes() {
	// Kick-off: home's 2 midfielders throw 2 dice against away's 3.
	s, _ := env.NewMatch(env.Rules{TiesCount: true}, env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("1-1-3-3-2"))
	for _, c := range s.ChanceOutcomes() {
		fmt.Printf("%s %.4f\n", c.Outcome, c.Prob)
	}
	// Output:
	// home wins 0.2807
	// away wins 0.4716
	// tie 0.2477
}

func ExamplePlayout() {
	s, _ := env.NewMatch(env.Rules{}, env.MustParseLineup("1-2-3-3-1"), env.MustParseLineup("2-2-2-2-2"))
	env.Playout(&s, env.NewFastSampler(rand.NewPCG(1, 2)))
	fmt.Println(s.Node(), s.Goals(env.Home), s.Goals(env.Away))
	// Output:
	// terminal 4 3
}

func ExampleEnv() {
	e, _ := env.New(env.Config{Reward: env.RewardGoalDiff})
	obs, info := e.Reset(7)
	fmt.Println(obs.Decision, info.Mask.Count(), "legal line-ups")
	ret := 0.0
	for {
		a := env.MustParseLineup("1-2-3-3-1").Index()
		if obs.Decision != env.KickOff {
			a = obs.Own.Index() // keep the formation at every break
		}
		t, err := e.Step(a)
		if err != nil {
			panic(err)
		}
		ret += t.Reward
		if t.Terminated || t.Truncated {
			break
		}
		obs = t.Obs
	}
	s := e.State()
	fmt.Println("return", ret, "score", s.Goals(env.Home), s.Goals(env.Away))
	// Output:
	// kick-off 121 legal line-ups
	// return 1 score 6 5
}

// A state's one-line summary, as transcripts print it.
func ExampleState_String() {
	s, _ := env.NewMatch(env.Rules{}, env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("1-2-3-3-1"))
	s.ApplyChance(env.HomeWins)
	fmt.Println(s)
	// Output: first half, 44 left | ball 4 | 0-0 | 2-2-2-2-2 v 1-2-3-3-1 | chance
}

// What a break decision changed, in words.
func ExampleDescribeDecision() {
	r := env.Rules{ThrowsPerHalf: 3}
	s, _ := env.NewMatch(r, env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("1-2-3-3-1"))
	for s.Node() != env.Decision { // three throws won by home: a goal, then a break
		s.ApplyChance(env.HomeWins)
	}
	after := s
	after.Apply([2]int{env.MustParseLineup("1-2-2-2-3").Index(), s.Lineup(env.Away).Index()})
	fmt.Println(env.DescribeDecision(s, after))
	// Output: break: home 2-2-2-2-2 → 1-2-2-2-3 (1 moved, 2 left); away keeps 1-2-3-3-1
}

// The words for a change of line-up (kingoal play's hints, solve policy's summary).
func ExampleDescribeChange() {
	fmt.Println(env.DescribeChange(env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("2-1-2-2-3")))
	fmt.Println(env.DescribeChange(env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("1-2-2-2-3")))
	fmt.Println(env.DescribeChange(env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("2-2-2-2-2")))
	// Output:
	// move 1 counter (sector 2 → 5): 2-2-2-2-2 → 2-1-2-2-3
	// move 1 counter (sector 1 → 5): 2-2-2-2-2 → 1-2-2-2-3
	// keep 2-2-2-2-2
}
