// Where the judging game comes from: a table, or a solve here when the game is small.

package analysis

import (
	"context"
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// DefaultSolveBytes bounds a game solved to judge a match when no table is given: 2 GiB,
// a second or so of solving at short halves; the default rules need their table.
const DefaultSolveBytes = 2 << 30

// Source says which game judges a match: a table, or the game solved here.
type Source struct {
	// Table is a game table (kingoal solve game --out FILE.kgt) made under the match's
	// rules; "" solves the game here within MaxBytes.
	Table string
	// Payoff, if set (win-loss, goal-diff or advance), must be the game's; "" means a
	// table's own, or for a solve advance in a knockout and win-loss in a league.
	Payoff string
	// MaxBytes bounds a solve here (0: DefaultSolveBytes).
	MaxBytes int64
	// Progress, if set, sees a solve's layers.
	Progress func(done, total int)
}

// ErrRules is wrapped when a table was made under other rules or payoff than asked.
var ErrRules = errors.New("analysis: the game table does not match")

// Game reads or solves the game that judges matches under r.
func (src Source) Game(ctx context.Context, r env.Rules) (*game.Game, error) {
	if r.Modes != [2]env.Mode{env.Basic, env.Basic} {
		return nil, ErrDynamic
	}
	want, set := lineup.PayoffWinLoss, src.Payoff != ""
	if r.Knockout {
		want = lineup.PayoffAdvance
	}
	if set {
		var err error
		if want, err = lineup.ParsePayoff(src.Payoff); err != nil {
			return nil, err
		}
	}
	if src.Table != "" {
		g, err := game.LoadFile(ctx, src.Table)
		if err != nil {
			return nil, err
		}
		switch {
		case !g.Problem.Rules.Equal(r):
			return nil, fmt.Errorf("%w: %s was made under %s, the match is played under %s", ErrRules, src.Table, g.Problem.Rules, r)
		case set && g.Problem.Payoff != want:
			return nil, fmt.Errorf("%w: %s holds payoff %s, not %s", ErrRules, src.Table, g.Problem.Payoff, want)
		}
		return g, nil
	}
	limit := src.MaxBytes
	if limit <= 0 {
		limit = DefaultSolveBytes
	}
	g, err := game.Solve(game.Problem{Rules: r, Payoff: want, Context: ctx, MaxBytes: limit, Progress: src.Progress})
	if err != nil {
		return nil, fmt.Errorf("analysis: solving the game to judge with (give a table made by kingoal solve game --out FILE.kgt): %w", err)
	}
	return g, nil
}

// Replay reads a match replayed from a run (arena.Replayer) against g.
func Replay(ctx context.Context, g *game.Game, rep arena.Replay) (Report, error) {
	out, err := Match(ctx, g, rep.Start, rep.Events, [2]string{rep.Match.HomeAgent, rep.Match.AwayAgent})
	if err != nil {
		return Report{}, fmt.Errorf("analysis: match %d: %w", rep.Match.MatchID, err)
	}
	out.Match = rep.Match.MatchID
	return out, nil
}
