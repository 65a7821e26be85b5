package memo

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A long computation of one key does not hold up another key; callers of one key share one
// computation; a failure is not kept; an equal key finds the entry (the solvers' keys are
// canonical rules, env's business: memo's tests import nothing of the toolkit, issue 65).
func TestMemoComputesEachKeyOnceWithoutBlockingOthers(t *testing.T) {
	var c Cache[testKey, int]
	slow := testKey{rules: 0}
	release := make(chan struct{})
	var computes atomic.Int32
	var wg sync.WaitGroup
	for range 3 { // three callers of the slow key: one computation
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.Get(context.Background(), slow, func() (int, error) { computes.Add(1); <-release; return 7, nil })
			if v != 7 || err != nil {
				t.Errorf("slow key: %d, %v", v, err)
			}
		}()
	}
	time.Sleep(10 * time.Millisecond)
	fast := testKey{rules: 9}
	got := make(chan int)
	go func() {
		v, _ := c.Get(context.Background(), fast, func() (int, error) { return 3, nil })
		got <- v
	}()
	select {
	case v := <-got:
		if v != 3 {
			t.Fatalf("fast key: %d", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a key waited for another key's computation")
	}
	close(release)
	wg.Wait()
	if n := computes.Load(); n != 1 {
		t.Fatalf("the slow key was computed %d times", n)
	}
	if v, _ := c.Get(context.Background(), testKey{rules: 0}, func() (int, error) { return -1, nil }); v != 7 {
		t.Fatalf("an equal key is not the entry: %d", v)
	}
	bad := testKey{rules: 5}
	if _, err := c.Get(context.Background(), bad, func() (int, error) { return 0, errors.New("too large") }); err == nil {
		t.Fatal("the failure was not returned")
	}
	if v, err := c.Get(context.Background(), bad, func() (int, error) { return 5, nil }); v != 5 || err != nil {
		t.Fatalf("a failure was kept: %d, %v", v, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	block := make(chan struct{})
	defer close(block)
	other := testKey{rules: 6}
	go c.Get(context.Background(), other, func() (int, error) { <-block; return 1, nil })
	time.Sleep(10 * time.Millisecond)
	if _, err := c.Get(ctx, other, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a waiter with a cancelled context got %v", err)
	}
}

func TestMemoLimit(t *testing.T) {
	c := Cache[int, int]{Limit: 2}
	for k := range 3 {
		c.Get(context.Background(), k, func() (int, error) { return k, nil })
	}
	if _, kept := c.m[0]; kept || len(c.m) != 2 {
		t.Fatalf("kept %v", c.m)
	}
}

// testKey is a key holding rules, as the agents' caches' keys do.
type testKey struct{ rules int } // a comparable key, as the solvers' canonical rules are
