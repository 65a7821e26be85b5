package main

import (
	"context"

	"github.com/kingoal/kingoal/analysis"
	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
)

// SolvedGame.analyse(run, match): a match of an arena run replayed and read against the game
// (kingoal analyse --json's document).

func init() { calls["game_analyse"] = gameAnalyseCall }

func gameAnalyseCall(in []byte) (any, error) {
	var a struct {
		Game  uint64 `json:"game"`
		Run   string `json:"run"`
		Match int64  `json:"match"`
	}
	if err := decode(in, &a, "analyse"); err != nil {
		return nil, err
	}
	sg, err := lookup[solver.Game](a.Game, "game")
	if err != nil {
		return nil, err
	}
	g, ok := sg.(*game.Game) // the game of two Basic sides judges moves by its values
	if !ok {
		return nil, inputf("analyse: %s", analysis.ErrDynamic)
	}
	if a.Match < 0 {
		return nil, inputf("analyse: match=%d: want a match ID ≥ 0", a.Match)
	}
	ctx := context.Background()
	rp, err := arena.NewReplayer(ctx, a.Run, arena.Limits{})
	if err != nil {
		return nil, inputf("analyse(%q): %w", a.Run, err)
	}
	defer rp.Close()
	rep, err := rp.Match(a.Match)
	if err != nil {
		return nil, inputf("analyse(%q): %w", a.Run, err)
	}
	if !rep.Start.Rules().Equal(g.Problem.Rules) {
		return nil, inputf("analyse: the run is played under %s, the game was solved under %s", rep.Start.Rules(), g.Problem.Rules)
	}
	return analysis.Replay(ctx, g, rep)
}
