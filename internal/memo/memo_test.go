package memo

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kingoal/kingoal/env"
)

// A long computation of one key does not hold up another key; callers of one key share one
// computation; a failure is not kept; equal rules written two ways are one key.
func TestMemoComputesEachKeyOnceWithoutBlockingOthers(t *testing.T) {
	var c Cache[testKey, int]
	slow := testKey{rules: env.Rules{}.Canonical()}
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
	fast := testKey{rules: env.Rules{ThrowsPerHalf: 9}.Canonical()}
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
	if v, _ := c.Get(context.Background(), testKey{rules: env.Rules{ThrowsPerHalf: 45}.Canonical()}, func() (int, error) { return -1, nil }); v != 7 {
		t.Fatalf("Rules{ThrowsPerHalf: 45} is not Rules{}'s entry: %d", v)
	}
	bad := testKey{rules: env.Rules{ThrowsPerHalf: 5}.Canonical()}
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
	other := testKey{rules: env.Rules{ThrowsPerHalf: 6}.Canonical()}
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
type testKey struct{ rules env.Rules }
