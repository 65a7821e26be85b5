package game

import (
	"math"

	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// This file solves one break of the substitution game: home chooses among the entries it
// can reach (rows), away among its own (columns), both at once, each entry's value being K,
// the value from the kick-off that follows. The cheap cases first — one side without a
// choice (a max or a min), a pure saddle point (the largest row minimum equals the smallest
// column maximum, up to nearSaddleTol) — and only then
// one simplex tableau (stagelp.go), whose answer is verified against every pure reply.

// nearSaddleTol: when the largest row minimum and the smallest column maximum are this
// close, the pure pair that attains them is an equilibrium up to it (each side's guarantee
// is within it of the value) and the midpoint is the value to within half of it. This is
// what breaks late in a decided-looking match need: their entries differ by rounding
// (1e-13), which the simplex, scaling the spread to 1, would turn into noise.
const nearSaddleTol = 1e-12

// stageAnswer is the solution of one stage game.
type stageAnswer struct {
	value    float64
	row, col int       // the pure choices (indices into the reach lists); −1 when mixed
	x, y     []float64 // the mixes, when mixed (LP)
}

// stageBuf is a worker's scratch space.
type stageBuf struct {
	a      [][]float64
	flat   []float64
	tab    zerosum.Tableau
	oracle zerosum.OracleBuf
	stats  Stats // where strategyOf counts when nobody asked
}

// matrix fills the rows × cols stage matrix from K.
func (b *stageBuf) matrix(k []float64, rows, cols []int32, entries int) [][]float64 {
	if need := len(rows) * len(cols); cap(b.flat) < need {
		b.flat = make([]float64, need)
	}
	b.a = b.a[:0]
	for i, r := range rows {
		row := b.flat[i*len(cols) : (i+1)*len(cols)]
		base := int(r) * entries
		for j, c := range cols {
			row[j] = k[base+int(c)]
		}
		b.a = append(b.a, row)
	}
	return b.a
}

// stage solves the break at configuration (h, a) given K.
func (sp *gameSpace) stage(k []float64, h, a int, buf *stageBuf, st *Stats) (stageAnswer, error) {
	rows, cols := sp.reach[h], sp.reach[a]
	e := sp.entries
	switch {
	case len(rows) == 1 && len(cols) == 1:
		return stageAnswer{value: k[h*e+a]}, nil
	case len(cols) == 1: // only home chooses
		st.OneSided++
		i, v := induction.BestKeepingTies(len(rows), func(i int) float64 { return k[int(rows[i])*e+a] })
		return stageAnswer{value: v, row: i}, nil
	case len(rows) == 1: // only away chooses: it minimises
		st.OneSided++
		j, v := induction.BestKeepingTies(len(cols), func(j int) float64 { return -k[h*e+int(cols[j])] })
		return stageAnswer{value: -v, col: j}, nil
	}
	st.StageGames++
	m := buf.matrix(k, rows, cols, e)
	// Pure saddle: max over rows of the row minimum against min over columns of the column
	// maximum.
	lower, bi := math.Inf(-1), 0
	for i, row := range m {
		if lo := minOf(row); lo > lower {
			lower, bi = lo, i
		}
	}
	upper, bj := math.Inf(1), 0
	for j := range cols {
		hi := math.Inf(-1)
		for _, row := range m {
			hi = max(hi, row[j])
		}
		if hi < upper {
			upper, bj = hi, j
		}
	}
	if upper-lower <= nearSaddleTol {
		st.Saddles++
		return stageAnswer{value: (lower + upper) / 2, row: bi, col: bj}, nil
	}
	st.LPs++
	g, err := zerosum.SolveStageGame(m, &buf.tab)
	if err != nil {
		return stageAnswer{}, err
	}
	return stageAnswer{value: g.Value, row: -1, col: -1, x: g.X, y: g.Y}, nil
}

func minOf(row []float64) float64 {
	v := row[0]
	for _, x := range row[1:] {
		v = min(v, x)
	}
	return v
}
