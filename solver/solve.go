package solver

import (
	"context"
	"errors"
	"io"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/dyngame"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/internal/framed"
	"github.com/kingoal/kingoal/solver/lineup"
)

// Size is what a solve would hold, computed without solving, for either kind of game.
type Size struct {
	// States is the number of states the solve holds a value for, named by StatesAre.
	States int64
	// StatesAre names them: "break states" for two Basic sides, "throw states" (before
	// each throw: difference, ball, possession and both line-ups) with a Dynamic side.
	StatesAre string
	// Layers is the (period, throws left) layers: what a solve's progress counts.
	Layers int
	// peaks[verify][stream] is the estimated peak memory (Peak).
	peaks [2][2]int64
}

// Peak is the estimated peak memory of a solve, with its best-response check or without,
// held in memory or streamed to a table (SolveToFile; a game with a Dynamic side keeps its
// decisions either way, so streaming changes nothing for it).
func (s Size) Peak(verify, stream bool) int64 { return s.peaks[b2i(verify)][b2i(stream)] }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Estimate returns the size of the substitution game under r for payoff p, of the kind the
// rules ask for.
func Estimate(r env.Rules, p lineup.Payoff) (Size, error) {
	var s Size
	if HasDynamic(r) {
		d, err := dyngame.Estimate(r, p)
		if err != nil {
			return s, err
		}
		s = Size{States: d.ThrowStates, StatesAre: "throw states", Layers: d.Layers}
		for v := range 2 {
			s.peaks[v] = [2]int64{d.Peak(v == 1), d.Peak(v == 1)}
		}
		return s, nil
	}
	b, err := game.Estimate(r, p)
	if err != nil {
		return s, err
	}
	s = Size{States: b.BreakStates, StatesAre: "break states", Layers: b.Layers}
	for v := range 2 {
		for st := range 2 {
			s.peaks[v][st] = b.PeakOf(v == 1, st == 1)
		}
	}
	return s, nil
}

// Solve solves the substitution game p asks for — two Basic sides (game.Solve) or a Dynamic
// side (dyngame.Solve) — and, with p.Verify, refuses it if its check finds it exploitable
// beyond game.Tolerance (game.Checked).
func Solve(p game.Problem) (Game, error) {
	var g Game
	var err error
	if HasDynamic(p.Rules) {
		g, err = nilIfFailed(dyngame.Solve(p))
	} else {
		g, err = nilIfFailed(game.Solve(p))
	}
	if err != nil {
		return nil, err
	}
	return g, game.Checked(g)
}

// SolveToFile solves p into a new game table at path — written atomically, and only for a
// solve that passed its check — and returns the table read back.
func SolveToFile(path string, p game.Problem) (Game, error) {
	if HasDynamic(p.Rules) {
		return nilIfFailed(dyngame.SolveToFile(path, p))
	}
	return nilIfFailed(game.SolveToFile(path, p))
}

// Load reads a game table of either kind (its first bytes say which) of size bytes from r.
func Load(ctx context.Context, r io.ReaderAt, size int64) (Game, error) {
	if dyngame.IsTable(r) {
		return nilIfFailed(dyngame.Load(ctx, r, size))
	}
	return nilIfFailed(game.Load(ctx, r, size))
}

// LoadFile reads the game table at path, of either kind.
func LoadFile(ctx context.Context, path string) (Game, error) {
	if dyngame.IsTableFile(path) {
		return nilIfFailed(dyngame.LoadFile(ctx, path))
	}
	return nilIfFailed(game.LoadFile(ctx, path))
}

// Verify checks g's whole strategy again by each side's best response to the other's, a
// backward induction of its own (game.Verify, dyngame.Verify); progress, if set, is called
// after each layer.
func Verify(ctx context.Context, g Game, progress func(done, total int)) (game.Check, error) {
	switch g := g.(type) {
	case *game.Game:
		return game.Verify(ctx, g, progress)
	case *dyngame.Game:
		return dyngame.Verify(ctx, g, progress)
	}
	return game.Check{}, errors.New("solver: verify: not a game Solve or Load made")
}

// TableKind is what a file is as a game table.
type TableKind int

const (
	NotATable    TableKind = iota // neither kind's first bytes
	BasicTable                    // the table of a game of two Basic sides: values and mixes at every break
	DynamicTable                  // the table of a game with a Dynamic side: a byte each decision, no values
)

// TableKindOf says from its first bytes what kind of game table the regular file at path is
// (LoadFile says whether it is a whole one); NotATable for anything else.
func TableKindOf(path string) TableKind {
	kind := NotATable
	_ = framed.Open(path, func(r io.ReaderAt, _ int64) error { kind = TableKindAt(r); return nil })
	return kind
}

// TableKindAt is TableKindOf for an open file or any reader.
func TableKindAt(r io.ReaderAt) TableKind {
	switch {
	case dyngame.IsTable(r):
		return DynamicTable
	case game.IsTable(r):
		return BasicTable
	}
	return NotATable
}

// nilIfFailed returns a nil interface, not a typed nil pointer, with an error.
func nilIfFailed[G Game](g G, err error) (Game, error) {
	if err != nil {
		return nil, err
	}
	return g, nil
}
