// Keeping a solve: solving into a table and reading it back.

package dyngame

import (
	"context"
	"io"

	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/internal/framed"
)

// ReadBack reads the table at path that the solve of solved wrote (Problem.Table) and checks
// it holds that solve: the kick-off's value to the bit and the statistics. The game returned
// is the table's.
func ReadBack(ctx context.Context, path string, solved *Game) (*Game, error) {
	g, err := LoadFile(ctx, path)
	if err != nil {
		return nil, err
	}
	if g.Value() != solved.Value() || g.Stats() != solved.Stats() {
		return nil, tableKind.Badf("it holds value %v, its solve %v", g.Value(), solved.Value())
	}
	return g, nil
}

// SolveToFile solves p and writes its table to a new file at path (atomically: nothing is
// left there if the solve fails, is stopped or its check — with p.Verify — finds the strategy
// exploitable beyond 1e-9), and returns the table read back (ReadBack). p.Table is set here.
func SolveToFile(path string, p game.Problem) (*Game, error) {
	return framed.Keep(path, func(w io.Writer) (*Game, error) {
		p.Table = w
		g, err := Solve(p)
		if err != nil {
			return nil, err
		}
		return g, game.Checked(g)
	}, func(g *Game) (*Game, error) { return ReadBack(p.Context, path, g) })
}
