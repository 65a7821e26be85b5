package induction

import (
	"math"
	"sync"

	"github.com/kingoal/kingoal/env"
)

// EntryLayout places a player's (line-up, moves left) pairs in a value vector: line-up l's
// budgets 0..top[l] at offset[l]... — every pair, or those reachable from one line-up and
// budget — and solves a break's move search over them.
type EntryLayout struct {
	Offset [env.NumLineups]int32 // start of line-up l's entries; −1: not in the layout
	Top    [env.NumLineups]int8  // highest budget held for l
	Size   int                   // entries in a vector
	// levels[m−1] is the move search of the entries with budget m.
	levels []searchLevel
	av     []float64 // scratch: the best value of each partial of a level
	at     []uint8   // and its line-up
	keep   []uint8   // each entry's own line-up
}

// A move takes one counter from a sector and puts it in another, so the one-move neighbours
// of l are the line-ups l − e_i + e_j: through the "partial" line-ups l − e_i of 9 counters
// (70 of them). The best neighbour of l is the best over its partials p of the best p + e_j,
// and the partials' best are shared by all the line-ups around them: about half the
// comparisons of scanning each line-up's ~17 neighbours. The line-up itself (j = i) is among
// them; with one move less it is never worth more than the move search's answer (moves left
// never hurt), so counting it changes no value.
type searchLevel struct {
	partials []int32 // members of each partial used here: entries p + e_j with one move less, partials[pFrom[k]:pFrom[k+1]]
	pFrom    []int32
	entries  []searchEntry
	slots    []int32 // the partials of each entry (indices into pFrom), slots[from:to]
}

type searchEntry struct {
	entry, from, to int32
	lineup          uint8
}

// partialTables: partialOf[l][i] is the partial l − e_i (−1 if sector i holds one counter);
// plus[p][j] is the line-up p + e_j (−1 if sector j would hold six).
var partialTables = sync.OnceValues(func() (partialOf [env.NumLineups][env.Sectors]int16, plus [][env.Sectors]int16) {
	index := map[[env.Sectors]int]int16{}
	for l := range env.NumLineups {
		c := env.LineupAt(l).Counts()
		for i := range env.Sectors {
			partialOf[l][i] = -1
			if c[i] < 2 {
				continue
			}
			q := c
			q[i]--
			k, ok := index[q]
			if !ok {
				k = int16(len(plus))
				index[q] = k
				var row [env.Sectors]int16
				for j := range env.Sectors {
					row[j] = -1
					if q[j] < 5 {
						r := q
						r[j]++
						n, _ := env.NewLineup(r)
						row[j] = int16(n.Index())
					}
				}
				plus = append(plus, row)
			}
			partialOf[l][i] = k
		}
	}
	return partialOf, plus
})

// NewEntryLayout lays out the line-ups reachable from own within budget moves, each with the
// budgets it can still have there (a closed set: a neighbour of a reachable (l, m) with m ≥ 1
// is reachable with m−1); an invalid own means every line-up with every budget 0..moves.
// neighbours[l] lists l's one-move neighbours.
func NewEntryLayout(own env.Lineup, budget, moves int, neighbours [][]int) *EntryLayout {
	e := &EntryLayout{}
	for l := range env.NumLineups {
		e.Offset[l] = -1
		top := moves
		if own.Valid() {
			top = budget - own.Moves(env.LineupAt(l))
		}
		if top >= 0 {
			e.Offset[l], e.Top[l] = int32(e.Size), int8(top)
			e.Size += top + 1
			for range top + 1 {
				e.keep = append(e.keep, uint8(l))
			}
		}
	}
	partialOf, plus := partialTables()
	for m := 1; m <= moves; m++ {
		var lv searchLevel
		slot := map[int16]int32{} // partial → its index in this level
		for l := range env.NumLineups {
			if e.Offset[l] < 0 || m > int(e.Top[l]) {
				continue
			}
			se := searchEntry{entry: e.Offset[l] + int32(m), lineup: uint8(l), from: int32(len(lv.slots))}
			for _, p := range partialOf[l] {
				if p < 0 {
					continue
				}
				k, ok := slot[p]
				if !ok {
					k = int32(len(lv.pFrom))
					slot[p] = k
					lv.pFrom = append(lv.pFrom, int32(len(lv.partials)))
					for _, n := range plus[p] {
						if j := e.Entry(env.LineupAt(max(int(n), 0)), m-1); n >= 0 && j >= 0 {
							lv.partials = append(lv.partials, int32(j))
						}
					}
				}
				lv.slots = append(lv.slots, k)
			}
			se.to = int32(len(lv.slots))
			lv.entries = append(lv.entries, se)
		}
		lv.pFrom = append(lv.pFrom, int32(len(lv.partials)))
		e.levels = append(e.levels, lv)
		if n := len(lv.pFrom); n > len(e.av) {
			e.av, e.at = make([]float64, n), make([]uint8, n)
		}
	}
	return e
}

// entry returns the index of (l, m), or −1 if the layout does not hold it.
func (e *EntryLayout) Entry(l env.Lineup, m int) int {
	i := l.Index()
	if e.Offset[i] < 0 || m > int(e.Top[i]) {
		return -1
	}
	return int(e.Offset[i]) + m
}

// ChangeTolerance is the gain below which a change of line-up is not worth making: it is
// rounding (values are sums of ~10⁴ products of probabilities, exact to ~10⁻¹⁵).
const ChangeTolerance = 1e-15

// BestWithin is a break's move search: from K, the values from the kick-off that follows
// for each entry, the best line-up reachable within the budget one single move at a time,
// W(l, m) = max(K(l, m), W(n, m−1) for one-move neighbours n), into wv and its line-up into
// wt. A change is made only when it gains more than ChangeTolerance; among equal best
// neighbours the first is taken.
func (e *EntryLayout) BestWithin(k, wv []float64, wt []uint8) {
	copy(wv, k)
	copy(wt, e.keep) // no move left: keep

	for _, lv := range e.levels {
		av, at := e.av, e.at
		for pi := range len(lv.pFrom) - 1 { // the best member of each partial
			mem := lv.partials[lv.pFrom[pi]:lv.pFrom[pi+1]]
			best, arg := wv[mem[0]], wt[mem[0]]
			for _, j := range mem[1:] {
				if v := wv[j]; v > best {
					best, arg = v, wt[j]
				}
			}
			av[pi], at[pi] = best, arg
		}
		for _, se := range lv.entries {
			slots := lv.slots[se.from:se.to]
			best, arg := av[slots[0]], at[slots[0]]
			for _, pi := range slots[1:] {
				if v := av[pi]; v > best {
					best, arg = v, at[pi]
				}
			}
			if keep := k[se.entry]; best <= keep+ChangeTolerance {
				best, arg = keep, se.lineup
			}
			wv[se.entry], wt[se.entry] = best, arg
		}
	}
}

// BestKeepingTies returns the index of the largest of n values and that value; index 0 (the
// current line-up, kept) unless another gains more than ChangeTolerance, as the move
// search of a single player does.
func BestKeepingTies(n int, value func(i int) float64) (int, float64) {
	best, arg := math.Inf(-1), 0
	for i := 1; i < n; i++ {
		if v := value(i); v > best {
			best, arg = v, i
		}
	}
	if keep := value(0); best <= keep+ChangeTolerance {
		return 0, keep
	}
	return arg, best
}

// ReachLists lists, for each entry l*(moves+1)+m, the entries (l', m − cost) a side at
// line-up l with m moves left can play after a break (cost = l.Moves(l') ≤ m), itself first.
func ReachLists(moves int) [][]int32 {
	w := moves + 1
	out := make([][]int32, env.NumLineups*w)
	for l := range env.NumLineups {
		from := env.LineupAt(l)
		for m := 0; m <= moves; m++ {
			list := []int32{int32(l*w + m)}
			for to := range env.NumLineups {
				if c := from.Moves(env.LineupAt(to)); to != l && c <= m {
					list = append(list, int32(to*w+m-c))
				}
			}
			out[l*w+m] = list
		}
	}
	return out
}
