package web

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestFlightComputesOnce: 16 requests for one cold value compute it once; 6 keys at once run
// at most coldReads computations together; when the request that started a computation ends,
// a request still waiting computes the value itself rather than failing.
func TestFlightComputesOnce(t *testing.T) {
	var f flight[string, int]
	var calls, running, most atomic.Int32
	slow := func(ctx context.Context) (int, error) {
		calls.Add(1)
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		defer running.Add(-1)
		select {
		case <-time.After(50 * time.Millisecond):
			return 7, nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if v, err := f.do(context.Background(), "run", slow); v != 7 || err != nil {
				t.Errorf("got %d, %v", v, err)
			}
		})
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("16 requests for one value computed it %d times", calls.Load())
	}
	calls.Store(0)
	for i := range 6 {
		wg.Go(func() { f.do(context.Background(), string(rune('a'+i)), slow) })
	}
	wg.Wait()
	if calls.Load() != 6 || most.Load() > coldReads {
		t.Errorf("6 keys: %d computations, at most %d at once (want 6, ≤ %d)", calls.Load(), most.Load(), coldReads)
	}
	// The starter gives up; the waiter gets the value all the same.
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go f.do(ctx, "x", func(ctx context.Context) (int, error) { close(started); <-ctx.Done(); return 0, ctx.Err() })
	<-started
	got := make(chan int)
	go func() { v, _ := f.do(context.Background(), "x", slow); got <- v }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if v := <-got; v != 7 {
		t.Errorf("a waiter whose starter left got %d", v)
	}
}
