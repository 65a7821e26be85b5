package env_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/kingoal/kingoal/env"
)

// TestSimulateMatchesReference: the simulator against rules §10's exact figures. With
// n = 40,000 the standard error of a share near 0.43 is 0.0025; the bound is 4.4 standard
// errors (two-sided α ≈ 1e-5), and the seed is fixed.
func TestSimulateMatchesReference(t *testing.T) {
	const n = 40000
	for _, tc := range []struct {
		r          env.Rules
		win, goals float64
	}{
		{env.Rules{}, 0.4263056, 3.7227816},
		{env.Rules{TiesCount: true}, 0.4162050, 2.8501842},
	} {
		res, err := env.Simulate(context.Background(), env.SimConfig{Rules: tc.r, Home: l22222, Away: l22222, Matches: n, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{res.HomeWins, res.AwayWins} {
			p, _, _ := res.Share(k)
			if se := math.Sqrt(tc.win * (1 - tc.win) / n); math.Abs(p-tc.win) > 4.4*se {
				t.Errorf("%v: win share %.4f, exact %.7f (bound %.4f)", tc.r, p, tc.win, 4.4*se)
			}
		}
		mean, half := res.MeanGoals(env.Home)
		if math.Abs(mean-tc.goals) > 2.25*half { // 2.25 × the 95% half-width ≈ 4.4 standard errors
			t.Errorf("%v: mean goals %.3f ± %.3f, exact %.4f", tc.r, mean, half, tc.goals)
		}
	}
}

func TestSimulateIsIndependentOfWorkers(t *testing.T) {
	cfg := env.SimConfig{Rules: env.Rules{Knockout: true}, Home: env.MustParseLineup("1-2-3-3-1"), Away: l22222, Matches: 9000, Seed: 77}
	cfg.Workers = 1
	a, err := env.Simulate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 3
	b, _ := env.Simulate(context.Background(), cfg)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("1 worker %+v\n3 workers %+v", a, b)
	}
	if a.Matches != 9000 || a.HomeWins+a.Draws+a.AwayWins != 9000 || a.Shootouts == 0 || a.ExtraTime < a.Shootouts || a.Draws != a.Shootouts {
		t.Fatalf("counts %+v", a)
	}
	sum := 0
	for _, d := range a.GoalDiffs() {
		sum += a.GoalDiff[d]
	}
	if sum != 9000 {
		t.Fatalf("histogram holds %d matches", sum)
	}
}

func TestSimulateErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := env.Simulate(ctx, env.SimConfig{Home: l22222, Away: l22222, Matches: 1 << 20}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, err := env.Simulate(context.Background(), env.SimConfig{Home: l22222, Away: l22222}); err == nil {
		t.Fatal("0 matches accepted")
	}
	if _, err := env.Simulate(context.Background(), env.SimConfig{Home: env.Lineup{}, Away: l22222, Matches: 1}); err == nil {
		t.Fatal("invalid line-up accepted")
	}
	// The largest count must not overflow into "nothing to do": it runs until cancelled.
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res, err := env.Simulate(ctx, env.SimConfig{Home: l22222, Away: l22222, Matches: math.MaxInt})
	if !errors.Is(err, context.DeadlineExceeded) || res.Matches == 0 {
		t.Fatalf("MaxInt matches: %d played, %v", res.Matches, err)
	}
}
