package web

import (
	"context"
	"errors"
	"sync"
)

// A flight computes a value once for all the requests that want it at the same time (a cold
// leaderboard of a large run: seconds of reading), and at most `slots` such computations at
// once; more wait for a slot. A request that ends stops waiting; the computation belongs to
// the request that started it, and if that one ends first the others start it again.
type flight[K comparable, V any] struct {
	mu    sync.Mutex
	calls map[K]*flightCall[V]
	slots chan struct{}
}

type flightCall[V any] struct {
	done chan struct{}
	v    V
	err  error
	ctx  context.Context // the starter's
}

// coldReads bounds the cold reads (leaderboards, a live run's progress) running at once.
const coldReads = 2

// do returns fn's value for key, computed by this request or by one already computing it.
func (f *flight[K, V]) do(ctx context.Context, key K, fn func(ctx context.Context) (V, error)) (V, error) {
	for {
		f.mu.Lock()
		if f.calls == nil {
			f.calls, f.slots = map[K]*flightCall[V]{}, make(chan struct{}, coldReads)
		}
		c, running := f.calls[key]
		if !running {
			c = &flightCall[V]{done: make(chan struct{}), ctx: ctx}
			f.calls[key] = c
		}
		f.mu.Unlock()
		if !running {
			f.run(key, c, fn)
			return c.v, c.err
		}
		select {
		case <-c.done:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
		if c.ctx.Err() == nil || !errors.Is(c.err, c.ctx.Err()) {
			return c.v, c.err
		}
		// The starter's request ended before the value: ours goes on, so compute it again.
	}
}

func (f *flight[K, V]) run(key K, c *flightCall[V], fn func(ctx context.Context) (V, error)) {
	defer func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		close(c.done)
	}()
	select {
	case f.slots <- struct{}{}:
	case <-c.ctx.Done():
		c.err = c.ctx.Err()
		return
	}
	defer func() { <-f.slots }()
	c.v, c.err = fn(c.ctx)
}
