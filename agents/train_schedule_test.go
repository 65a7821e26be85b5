package agents_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// A schedule checkpoints at the multiples of Every and at the end, also when it resumes a
// model trained part of the way, and the resumed model is the model of one run.
func TestTrainScheduledCheckpoints(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 4, Moves: 1}
	run := func(q *agents.QLearning, total int) []int {
		var at []int
		opp, _ := agents.New("fixed:2-2-2-2-2", agents.Setup{Rules: r})
		err := q.TrainScheduled(context.Background(), agents.Schedule{Opponent: opp, Episodes: total, Every: 200, Seed: 3,
			Checkpoint: func(float64) error { at = append(at, q.Episodes); return nil }})
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	whole := agents.NewQLearning(agents.QConfig{}, r)
	if at := run(whole, 500); !slices.Equal(at, []int{200, 400, 500}) {
		t.Fatalf("checkpoints at %v", at)
	}
	part := agents.NewQLearning(agents.QConfig{}, r)
	run(part, 300)
	if at := run(part, 500); !slices.Equal(at, []int{400, 500}) {
		t.Fatalf("resumed checkpoints at %v", at)
	}
	var a, b bytes.Buffer
	if err := whole.Save(&a); err != nil {
		t.Fatal(err)
	}
	if err := part.Save(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("a model trained in two runs differs from one trained in one")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := agents.NewQLearning(agents.QConfig{}, r).TrainScheduled(ctx, agents.Schedule{Episodes: 100}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled schedule returned %v", err)
	}
}
