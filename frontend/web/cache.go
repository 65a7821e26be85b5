package web

import (
	"container/list"
	"sync"
)

// lru keeps the values most recently used while their costs add up to at most capacity;
// a value costing more than capacity is not kept at all. Every cache of the server is one,
// so no stream of distinct requests grows it past its bound.
type lru[K comparable, V any] struct {
	capacity int64

	mu    sync.Mutex
	total int64
	order *list.List // front: most recent; elements hold *lruEntry
	at    map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	key  K
	val  V
	cost int64
}

func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.at[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruEntry[K, V]).val, true
	}
	var zero V
	return zero, false
}

func (c *lru[K, V]) put(k K, v V, cost int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at == nil {
		c.at, c.order = map[K]*list.Element{}, list.New()
	}
	if e, ok := c.at[k]; ok {
		c.total -= e.Value.(*lruEntry[K, V]).cost
		c.order.Remove(e)
		delete(c.at, k)
	}
	if cost > c.capacity {
		return
	}
	c.at[k] = c.order.PushFront(&lruEntry[K, V]{k, v, cost})
	c.total += cost
	for c.total > c.capacity {
		old := c.order.Back().Value.(*lruEntry[K, V])
		c.order.Remove(c.order.Back())
		delete(c.at, old.key)
		c.total -= old.cost
	}
}

// len is how many values are kept.
func (c *lru[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.at)
}
