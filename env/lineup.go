package env

import (
	"fmt"
	"strconv"
	"strings"
)

// Sectors is the number of pitch sectors; Outfield the outfield counters per side.
const (
	Sectors     = 5
	Outfield    = 10
	MinPerLine  = 1
	MaxPerLine  = 5
	NumLineups  = 121
	NumActions  = NumLineups
	maxMoveCost = 5 // Σ(L_k−1) = 5, so no change ever costs more
)

// Lineup is a formation: the outfield counters in sectors 1 (defence) to 5 (attack),
// from its owner's point of view. The zero value is not a legal line-up.
type Lineup struct{ c [Sectors]uint8 }

// ParseLineup reads a line-up written defence→attack, such as "1-2-3-3-1".
func ParseLineup(s string) (Lineup, error) {
	parts := strings.Split(strings.TrimSpace(s), "-")
	if len(parts) != Sectors {
		return Lineup{}, fmt.Errorf("env: line-up %q: want 5 numbers joined by '-', like 2-2-2-2-2", s)
	}
	var c [Sectors]int
	for k, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || len(p) > 2 {
			return Lineup{}, fmt.Errorf("env: line-up %q: sector %d: %q is not a count", s, k+1, p)
		}
		c[k] = n
	}
	return NewLineup(c)
}

// MustParseLineup is ParseLineup for constants in code; it panics on an invalid line-up.
func MustParseLineup(s string) Lineup {
	l, err := ParseLineup(s)
	if err != nil {
		panic(err)
	}
	return l
}

// NewLineup builds a line-up from counts per sector (defence first) and checks rules §2.
func NewLineup(counts [Sectors]int) (Lineup, error) {
	var l Lineup
	sum := 0
	name := formatCounts(counts)
	for k, n := range counts {
		if n < MinPerLine {
			return Lineup{}, fmt.Errorf("env: line-up %s: sector %d holds %d counters, at least %d", name, k+1, n, MinPerLine)
		}
		if n > MaxPerLine {
			return Lineup{}, fmt.Errorf("env: line-up %s: sector %d holds %d counters, at most %d", name, k+1, n, MaxPerLine)
		}
		sum += n
		l.c[k] = uint8(n)
	}
	if sum != Outfield {
		return Lineup{}, fmt.Errorf("env: line-up %s: %d outfield counters, want exactly %d", name, sum, Outfield)
	}
	return l, nil
}

func formatCounts(c [Sectors]int) string {
	var b strings.Builder
	for k, n := range c {
		if k > 0 {
			b.WriteByte('-')
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// String formats the line-up as "1-2-3-3-1".
func (l Lineup) String() string { return formatCounts(l.Counts()) }

// Counts returns the counters per sector, defence first.
func (l Lineup) Counts() [Sectors]int {
	var c [Sectors]int
	for k, n := range l.c {
		c[k] = int(n)
	}
	return c
}

// Sector returns the counters in sector k (1..5); it panics for another k.
func (l Lineup) Sector(k int) int { return int(l.c[k-1]) }

// Valid reports whether l is one of the 121 legal line-ups.
func (l Lineup) Valid() bool { return lineupIndex[l.code()] >= 0 }

// Index returns the stable index 0..120 (lexicographic order, rules §2), or -1 if l is not legal.
func (l Lineup) Index() int { return int(lineupIndex[l.code()]) }

func (l Lineup) code() int {
	code := 0
	for _, n := range l.c {
		if n > MaxPerLine {
			return 0 // the all-zero code: never legal
		}
		code = code*6 + int(n)
	}
	return code
}

// LineupAt returns the line-up with index i. It panics if i is outside 0..120.
func LineupAt(i int) Lineup { return allLineups[i] }

// AllLineups returns the 121 legal line-ups in index order (a fresh slice).
func AllLineups() []Lineup {
	out := make([]Lineup, NumLineups)
	copy(out, allLineups[:])
	return out
}

// Moves returns the Basic-mode cost of changing l into to: Σ|l_k − to_k| / 2 (rules §6).
func (l Lineup) Moves(to Lineup) int {
	d := 0
	for k := range l.c {
		x := int(l.c[k]) - int(to.c[k])
		if x < 0 {
			x = -x
		}
		d += x
	}
	return d / 2
}

// Reachable returns the mask of line-ups that cost at most k Basic moves from l
// (l itself included). l must be legal.
func (l Lineup) Reachable(k int) Mask {
	if k < 0 {
		return Mask{}
	}
	if k > maxMoveCost {
		k = maxMoveCost
	}
	return reachable[l.Index()][k]
}

// Shifts returns the mask of l itself and every line-up one Dynamic shift away
// (one counter to an adjacent sector, 1..5 per sector kept). l must be legal.
func (l Lineup) Shifts() Mask { return shifts[l.Index()] }

// Package-level tables: computed once at start-up, read-only afterwards.
var (
	allLineups  [NumLineups]Lineup
	lineupIndex [6 * 6 * 6 * 6 * 6]int8
	reachable   [NumLineups][maxMoveCost + 1]Mask
	shifts      [NumLineups]Mask
)

func init() {
	for i := range lineupIndex {
		lineupIndex[i] = -1
	}
	n := 0
	var c [Sectors]int
	var rec func(k, left int)
	rec = func(k, left int) {
		if k == Sectors-1 {
			if left >= MinPerLine && left <= MaxPerLine {
				c[k] = left
				l, _ := NewLineup(c)
				allLineups[n] = l
				lineupIndex[l.code()] = int8(n)
				n++
			}
			return
		}
		for v := MinPerLine; v <= MaxPerLine && v <= left; v++ {
			c[k] = v
			rec(k+1, left-v)
		}
	}
	rec(0, Outfield)
	if n != NumLineups {
		panic(fmt.Sprintf("env: enumerated %d line-ups, want %d", n, NumLineups))
	}
	for i, from := range allLineups {
		for j, to := range allLineups {
			cost := from.Moves(to)
			for k := cost; k <= maxMoveCost; k++ {
				reachable[i][k].Set(j)
			}
			if cost <= 1 && isAdjacentShift(from, to) {
				shifts[i].Set(j)
			}
		}
	}
}

// isAdjacentShift reports whether to equals from or is from with one counter
// moved to a neighbouring sector.
func isAdjacentShift(from, to Lineup) bool {
	if from == to {
		return true
	}
	for k := 0; k < Sectors-1; k++ {
		for _, d := range [2]int{1, -1} {
			f := from.c
			if int(f[k])-d < 0 || int(f[k+1])+d < 0 {
				continue
			}
			f[k] = uint8(int(f[k]) - d)
			f[k+1] = uint8(int(f[k+1]) + d)
			if f == to.c {
				return true
			}
		}
	}
	return false
}
