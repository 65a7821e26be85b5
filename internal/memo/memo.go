package memo

import (
	"context"
	"sync"
)

// Cache computes each key's value once, for every caller, without one lock held through a
// computation: callers of other keys go on at once; callers of the same key wait for the
// first one (or for their own context). A failed computation — cancelled, too large — is not
// kept: a waiter with a live context tries again. Keys of rules are the rules' Canonical
// form, so equal rules written two ways share an entry.
type Cache[K comparable, V any] struct {
	Limit int // entries kept at most, the oldest dropped first (0: no bound)

	mu    sync.Mutex
	m     map[K]*memoEntry[V]
	order []K // kept entries, oldest first
}

type memoEntry[V any] struct {
	done chan struct{} // closed when v and err are set
	v    V
	err  error
}

// Get returns k's value, computed by compute if no caller has computed it yet (the error of
// a failed computation is returned to its callers and not kept).
func (c *Cache[K, V]) Get(ctx context.Context, k K, compute func() (V, error)) (V, error) {
	for {
		c.mu.Lock()
		if c.m == nil {
			c.m = map[K]*memoEntry[V]{}
		}
		e, found := c.m[k]
		if !found {
			e = &memoEntry[V]{done: make(chan struct{})}
			c.m[k] = e
			c.mu.Unlock()
			return c.fill(k, e, compute)
		}
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
		if e.err == nil {
			return e.v, nil
		}
		if err := ctx.Err(); err != nil {
			var zero V
			return zero, err
		}
	}
}

// fill computes e, the entry of k this caller made, and keeps it if it succeeded.
func (c *Cache[K, V]) fill(k K, e *memoEntry[V], compute func() (V, error)) (V, error) {
	e.v, e.err = compute()
	c.mu.Lock()
	if e.err != nil {
		delete(c.m, k)
	} else {
		c.order = append(c.order, k)
		if c.Limit > 0 && len(c.order) > c.Limit {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.mu.Unlock()
	close(e.done)
	return e.v, e.err
}
