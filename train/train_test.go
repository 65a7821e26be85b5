package train_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/train"
)

// Fictitious play stopped after one iteration and resumed from its checkpoint writes the same
// table, byte for byte, as a run of two iterations at once; the checkpoint is removed.
func TestFictitiousResumesToTheSameTable(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 2, Moves: 1} // resuming does not depend on the size: 3-throw halves took minutes under -race
	dir := t.TempDir()
	whole := train.Fictitious{Table: filepath.Join(dir, "whole.kgp"), Iterations: 2}
	f, err := agents.NewFictitious(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := whole.Train(context.Background(), f, nil); err != nil {
		t.Fatal(err)
	}
	split := train.Fictitious{Table: filepath.Join(dir, "split.kgp"), Iterations: 1}
	if f, err = agents.NewFictitious(r); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	split.Progress = func(agents.FictitiousPoint) { cancel() } // stop once the first iteration is kept
	split.Iterations = 2
	if _, _, err := split.Train(ctx, f, nil); err == nil {
		t.Fatal("the interrupted run reported no error")
	}
	_, _, checkpoint := split.Files()
	file, err := os.Open(checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	resumed, head, err := agents.ResumeFictitious(file, r)
	file.Close()
	if err != nil {
		t.Fatal(err)
	}
	curve, x, err := split.Train(context.Background(), resumed, head.Curve)
	if err != nil {
		t.Fatal(err)
	}
	a, errA := os.ReadFile(whole.Table)
	b, errB := os.ReadFile(split.Table)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("the resumed table differs from the whole run's (%v, %v)", errA, errB)
	}
	if len(curve) != 2 || !(x >= 0) {
		t.Fatalf("curve %v, exploitability %v", curve, x)
	}
	if _, err := os.Stat(checkpoint); !os.IsNotExist(err) {
		t.Fatalf("the checkpoint stays: %v", err)
	}
}

// A short Q-learning run evaluates at every save: one curve row each, the model, the curve
// and its chart on disk.
func TestQLearningWritesItsCurve(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3}
	dir := t.TempDir()
	opp, err := agents.New("fixed:2-2-2-2-2", agents.Setup{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	run := train.QLearning{Model: filepath.Join(dir, "q.json"), Rules: r, Opponent: opp, EvalVs: "fixed:2-2-2-2-2",
		Episodes: 200, Every: 100, EvalMatches: 50, Seed: 1}
	curve, err := run.Train(context.Background(), agents.NewQLearning(agents.QConfig{Epsilon: 0.1}, r), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(curve) != 2 || curve[1].Episodes != 200 || !curve[1].Exact {
		t.Fatalf("curve %+v", curve)
	}
	curvePath, png := run.Files()
	for _, p := range []string{run.Model, curvePath, png} {
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	}
	if back, err := run.ReadCurve(); err != nil || len(back) != 2 {
		t.Fatalf("read back %d rows: %v", len(back), err)
	}
}
