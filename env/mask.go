package env

import "math/bits"

// Mask is a set of actions (line-up indices 0..120): bit i set means action i is legal.
// It is a value; the zero Mask is empty.
type Mask [2]uint64

// Set adds action a.
func (m *Mask) Set(a int) { m[a>>6] |= 1 << uint(a&63) }

// Has reports whether action a is in the mask; out-of-range actions are never in it.
func (m Mask) Has(a int) bool {
	if a < 0 || a >= NumActions {
		return false
	}
	return m[a>>6]&(1<<uint(a&63)) != 0
}

// Count returns the number of legal actions.
func (m Mask) Count() int { return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) }

// Nth returns the n-th legal action (0-based) in index order, or -1 if n ≥ Count().
// Agents use it to pick uniformly among legal actions without allocating.
func (m Mask) Nth(n int) int {
	for w := range m {
		c := bits.OnesCount64(m[w])
		if n < c {
			x := m[w]
			for ; n > 0; n-- {
				x &= x - 1
			}
			return w*64 + bits.TrailingZeros64(x)
		}
		n -= c
	}
	return -1
}

// Rank returns how many legal actions come before a: its position among them (Nth's inverse
// for a legal a).
func (m Mask) Rank(a int) int {
	a = max(0, min(a, NumActions))
	if a < 64 {
		return bits.OnesCount64(m[0] & (1<<uint(a) - 1))
	}
	return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]&(1<<uint(a-64)-1))
}

// Actions returns the legal actions in increasing order (a fresh slice).
func (m Mask) Actions() []int {
	out := make([]int, 0, m.Count())
	for w := range m {
		for x := m[w]; x != 0; x &= x - 1 {
			out = append(out, w*64+bits.TrailingZeros64(x))
		}
	}
	return out
}

// Bools returns the mask as 121 booleans, the shape learners and datasets use.
func (m Mask) Bools() []bool {
	out := make([]bool, NumActions)
	for a := range out {
		out[a] = m.Has(a)
	}
	return out
}

// fullMask holds every action.
var fullMask = Mask{^uint64(0), 1<<(NumActions-64) - 1}

func singleMask(a int) Mask {
	var m Mask
	m.Set(a)
	return m
}
