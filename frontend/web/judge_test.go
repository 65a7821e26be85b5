package web

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kingoal/kingoal/env"
)

// Requests for a game being solved wait, at most judgeWaiters of them; the next is refused at
// once, and a waiter whose request ends stops waiting.
func TestJudgeWaitersBounded(t *testing.T) {
	s := &Server{}
	s.Handler()
	s.judges.solving <- struct{}{} // another request's solve under way
	rules := env.Rules{ThrowsPerHalf: 2, Moves: 1}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, judgeWaiters)
	for range judgeWaiters {
		go func() { _, err := s.judge(ctx, rules); done <- err }()
	}
	for s.judges.waiting.Load() < judgeWaiters {
		time.Sleep(time.Millisecond)
	}
	if _, err := s.judge(context.Background(), rules); !errors.Is(err, errBusy) {
		t.Fatalf("one more waiter: %v, want errBusy", err)
	}
	cancel()
	for range judgeWaiters {
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("a waiter whose request ended: %v", err)
		}
	}
	<-s.judges.solving
	if g, err := s.judge(context.Background(), rules); err != nil || !g.Problem.Rules.Equal(rules) || s.judges.waiting.Load() != 0 {
		t.Fatalf("once the solve is done: %v, %d waiting", err, s.judges.waiting.Load())
	}
}
