package zerosum

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
// leave: far inside VerifyTol, so its value is the game's to 1e-12.
const oracleGapTol = 1e-13

// OracleSet is the rows and columns (indices into the reach lists) of a restricted game.
type OracleSet struct {
	Nr, Nc     uint8
	Rows, Cols [maxOracle]uint8
}

func (s *OracleSet) addRow(i int) bool {
	for _, r := range s.Rows[:s.Nr] {
		if int(r) == i {
			return false
		}
	}
	if s.Nr == maxOracle {
		return false
	}
	s.Rows[s.Nr] = uint8(i)
	s.Nr++
	return true
}

func (s *OracleSet) addCol(j int) bool {
	for _, c := range s.Cols[:s.Nc] {
		if int(c) == j {
			return false
		}
	}
	if s.Nc == maxOracle {
		return false
	}
	s.Cols[s.Nc] = uint8(j)
	s.Nc++
	return true
}

// OracleBuf is a worker's scratch space for the restricted games.
type OracleBuf struct {
	sub  [maxOracle][maxOracle]float64
	rows [maxOracle][]float64
	tab  Tableau
}

// OracleAnswer is double oracle's answer: the value, and the mixes x (rows) and y (columns)
// over the restricted game it ended with.
type OracleAnswer struct {
	Value float64
	Set   OracleSet
	X, Y  [maxOracle]float64
}

// DoubleOracle solves the stage game rows × cols of k from the restricted game start, and
// reports whether it converged.
func DoubleOracle(k []float64, rows, cols []int32, e int, start OracleSet, buf *OracleBuf) (ans OracleAnswer, ok bool) {
	s := start
	for range oracleRounds {
		nr, nc := int(s.Nr), int(s.Nc)
		for a := range nr {
			base := int(rows[s.Rows[a]]) * e
			for b := range nc {
				buf.sub[a][b] = k[base+int(cols[s.Cols[b]])]
			}
			buf.rows[a] = buf.sub[a][:nc]
		}
		var x, y []float64
		if nr == 1 && nc == 1 {
			x, y = []float64{1}, []float64{1}
		} else {
			g, err := SolveStageGame(buf.rows[:nr], &buf.tab)
			if err != nil {
				return OracleAnswer{}, false
			}
			x, y = g.X, g.Y
		}
		best, bi := math.Inf(-1), 0 // home's best pure reply to y
		for i, r := range rows {
			base := int(r) * e
			v := 0.0
			for b := range nc {
				if y[b] != 0 {
					v += y[b] * k[base+int(cols[s.Cols[b]])]
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
					v += x[a] * k[int(rows[s.Rows[a]])*e+int(c)]
				}
			}
			if v < worst {
				worst, bj = v, j
			}
		}
		if best-worst <= oracleGapTol {
			ans = OracleAnswer{Value: (best + worst) / 2, Set: s}
			copy(ans.X[:], x)
			copy(ans.Y[:], y)
			return ans, true
		}
		grew := false
		if best-worst > oracleGapTol { // the side whose reply gains more than rounding joins
			grew = s.addRow(bi) || grew
			grew = s.addCol(bj) || grew
		}
		if !grew {
			return OracleAnswer{}, false
		}
	}
	return OracleAnswer{}, false
}
