package solver

import "math"

// Most stage games of the substitution game are decided by a few of their rows and columns:
// a pure saddle point, or a mixed equilibrium over two or three line-ups a side. So a break
// is first solved by double oracle (McMahan, Gordon, Blum 2003) on its matrix read in place:
// solve the game restricted to a few rows and columns, find each side's best pure reply in
// the whole game to the other's restricted mix, add the replies that gain, and repeat until
// neither gains — which is the check against every pure reply, passed. Each round reads
// O(k·(rows + cols)) entries for supports of k, against the whole matrix, the dominance
// removal and the tableau of a fresh solve (stage); a break that needs more rounds or wider
// supports than oracleRounds and maxOracle allow is solved afresh.

// oracleRounds bounds the rounds of one double-oracle solve.
const oracleRounds = 12

// maxOracle bounds the rows (and the columns) of the restricted game.
const maxOracle = 8

// oracleGapTol is the largest gap between the two sides' best pure replies an answer may
// leave: far inside verifyTol, so its value is the game's to 1e-12.
const oracleGapTol = 1e-13

// oracleSet is the rows and columns (indices into the reach lists) of a restricted game.
type oracleSet struct {
	nr, nc     uint8
	rows, cols [maxOracle]uint8
}

func (s *oracleSet) addRow(i int) bool {
	for _, r := range s.rows[:s.nr] {
		if int(r) == i {
			return false
		}
	}
	if s.nr == maxOracle {
		return false
	}
	s.rows[s.nr] = uint8(i)
	s.nr++
	return true
}

func (s *oracleSet) addCol(j int) bool {
	for _, c := range s.cols[:s.nc] {
		if int(c) == j {
			return false
		}
	}
	if s.nc == maxOracle {
		return false
	}
	s.cols[s.nc] = uint8(j)
	s.nc++
	return true
}

// oracleBuf is a worker's scratch space for the restricted games.
type oracleBuf struct {
	sub  [maxOracle][maxOracle]float64
	rows [maxOracle][]float64
	tab  tableau
}

// oracleAnswer is double oracle's answer: the value, and the mixes x (rows) and y (columns)
// over the restricted game it ended with.
type oracleAnswer struct {
	value float64
	set   oracleSet
	x, y  [maxOracle]float64
}

// doubleOracle solves the stage game rows × cols of k from the restricted game start, and
// reports whether it converged.
func doubleOracle(k []float64, rows, cols []int32, e int, start oracleSet, buf *oracleBuf) (ans oracleAnswer, ok bool) {
	s := start
	for range oracleRounds {
		nr, nc := int(s.nr), int(s.nc)
		for a := range nr {
			base := int(rows[s.rows[a]]) * e
			for b := range nc {
				buf.sub[a][b] = k[base+int(cols[s.cols[b]])]
			}
			buf.rows[a] = buf.sub[a][:nc]
		}
		var x, y []float64
		if nr == 1 && nc == 1 {
			x, y = []float64{1}, []float64{1}
		} else {
			g, err := solveStageGame(buf.rows[:nr], &buf.tab)
			if err != nil {
				return oracleAnswer{}, false
			}
			x, y = g.x, g.y
		}
		best, bi := math.Inf(-1), 0 // home's best pure reply to y
		for i, r := range rows {
			base := int(r) * e
			v := 0.0
			for b := range nc {
				if y[b] != 0 {
					v += y[b] * k[base+int(cols[s.cols[b]])]
				}
			}
			if v > best {
				best, bi = v, i
			}
		}
		worst, bj := math.Inf(1), 0 // away's best pure reply to x
		for j, c := range cols {
			v := 0.0
			for a := range nr {
				if x[a] != 0 {
					v += x[a] * k[int(rows[s.rows[a]])*e+int(c)]
				}
			}
			if v < worst {
				worst, bj = v, j
			}
		}
		if best-worst <= oracleGapTol {
			ans = oracleAnswer{value: (best + worst) / 2, set: s}
			copy(ans.x[:], x)
			copy(ans.y[:], y)
			return ans, true
		}
		grew := false
		if best-worst > oracleGapTol { // the side whose reply gains more than rounding joins
			grew = s.addRow(bi) || grew
			grew = s.addCol(bj) || grew
		}
		if !grew {
			return oracleAnswer{}, false
		}
	}
	return oracleAnswer{}, false
}
