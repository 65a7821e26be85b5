package web

import "testing"

func TestLRUKeepsItsBound(t *testing.T) {
	c := lru[int, string]{capacity: 10}
	for i := range 100 {
		c.put(i, "v", 3)
	}
	if c.len() != 3 || c.total != 9 {
		t.Fatalf("kept %d values costing %d, want 3 costing 9", c.len(), c.total)
	}
	if _, ok := c.get(99); !ok {
		t.Error("the newest value is gone")
	}
	if _, ok := c.get(96); ok {
		t.Error("an old value is kept")
	}
	c.get(97) // now the most recent: 98 goes first
	c.put(100, "w", 3)
	if _, ok := c.get(97); !ok {
		t.Error("a value just used was dropped")
	}
	if _, ok := c.get(98); ok {
		t.Error("the least recently used value was kept")
	}
	c.put(200, "huge", 11)
	if _, ok := c.get(200); ok || c.total > 10 {
		t.Error("a value over the capacity was kept")
	}
	c.put(100, "again", 2) // replacing a value counts its new cost only
	if c.total != 3+3+2 {
		t.Errorf("total %d after a replacement, want 8", c.total)
	}
}
