package solver

import "github.com/kingoal/kingoal/env"

// entryLayout places a player's (line-up, moves left) pairs in a value vector: line-up l's
// budgets 0..top[l] at offset[l]... — every pair, or those reachable from one line-up and
// budget — and solves a break's move search over them.
type entryLayout struct {
	offset [env.NumLineups]int32 // start of line-up l's entries; −1: not in the layout
	top    [env.NumLineups]int8  // highest budget held for l
	size   int                   // entries in a vector
	// search lists, budget by budget from 1 up, the entries with that budget: entry, line-up
	// and the entries of its one-move neighbours with one move less (nbr[from:to]).
	search []searchEntry
	nbr    []int32
}

type searchEntry struct {
	entry, from, to int32
	lineup          uint8
}

// newEntryLayout lays out the line-ups reachable from own within budget moves, each with the
// budgets it can still have there (a closed set: a neighbour of a reachable (l, m) with m ≥ 1
// is reachable with m−1); an invalid own means every line-up with every budget 0..moves.
// neighbours[l] lists l's one-move neighbours.
func newEntryLayout(own env.Lineup, budget, moves int, neighbours [][]int) *entryLayout {
	e := &entryLayout{}
	for l := range env.NumLineups {
		e.offset[l] = -1
		top := moves
		if own.Valid() {
			top = budget - own.Moves(env.LineupAt(l))
		}
		if top >= 0 {
			e.offset[l], e.top[l] = int32(e.size), int8(top)
			e.size += top + 1
		}
	}
	for m := 1; m <= moves; m++ {
		for l := range env.NumLineups {
			if e.offset[l] < 0 || m > int(e.top[l]) {
				continue
			}
			se := searchEntry{entry: e.offset[l] + int32(m), lineup: uint8(l), from: int32(len(e.nbr))}
			for _, n := range neighbours[l] {
				e.nbr = append(e.nbr, int32(e.entry(env.LineupAt(n), m-1)))
			}
			se.to = int32(len(e.nbr))
			e.search = append(e.search, se)
		}
	}
	return e
}

// entry returns the index of (l, m), or −1 if the layout does not hold it.
func (e *entryLayout) entry(l env.Lineup, m int) int {
	i := l.Index()
	if e.offset[i] < 0 || m > int(e.top[i]) {
		return -1
	}
	return int(e.offset[i]) + m
}

// changeTolerance is the gain below which a change of line-up is not worth making: it is
// rounding (values are sums of ~10⁴ products of probabilities, exact to ~10⁻¹⁵).
const changeTolerance = 1e-15

// bestWithin is a break's move search: from K, the values from the kick-off that follows
// for each entry, the best line-up reachable within the budget one single move at a time,
// W(l, m) = max(K(l, m), W(n, m−1) for one-move neighbours n), into wv and its line-up into
// wt. A change is made only when it gains more than changeTolerance; among equal best
// neighbours the first is taken.
func (e *entryLayout) bestWithin(k, wv []float64, wt []uint8) {
	copy(wv, k)
	for l := range env.NumLineups { // no move left: keep
		if e.offset[l] >= 0 {
			wt[e.offset[l]] = uint8(l)
		}
	}
	for _, se := range e.search {
		nbr := e.nbr[se.from:se.to]
		best := wv[nbr[0]] // every line-up has a one-move neighbour
		for _, j := range nbr[1:] {
			if v := wv[j]; v > best {
				best = v
			}
		}
		if keep := k[se.entry]; best <= keep+changeTolerance {
			wv[se.entry], wt[se.entry] = keep, se.lineup
			continue
		}
		for _, j := range nbr { // the first neighbour with the best value
			if wv[j] == best {
				wv[se.entry], wt[se.entry] = best, wt[j]
				break
			}
		}
	}
}
