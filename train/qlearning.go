package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/charts"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// QLearning is a training run of a tabular Q-learning agent into a model file (Model, a
// .json name) against Opponent, evaluated at every save: the learning curve
// (learning-curve/3) and its chart beside the model (Files).
type QLearning struct {
	Model       string
	Rules       env.Rules
	Opponent    agents.Agent // nil: self-play
	EvalVs      string       // the evaluations' opponent, a registry spec
	Episodes    int          // the total to reach
	Every       int          // episodes between evaluations (0: Episodes/20)
	EvalMatches int          // behind each Monte Carlo evaluation
	Seed        uint64
	// NoExploitability skips the greedy policy's exact exploitability at each evaluation
	// (measured where the game has at most CurveExploitStates break states).
	NoExploitability bool
	Progress         func(total int, mean float64) // as agents.Schedule's, if set
}

// CurveExploitStates bounds the games whose exploitability QLearning measures at every
// evaluation: seconds each up to 20-throw halves with one move (18 million break states).
const CurveExploitStates = 25_000_000

// Files names the learning curve and its chart beside t.Model.
func (t QLearning) Files() (curve, png string) {
	base := strings.TrimSuffix(t.Model, ".json")
	return base + ".curve.parquet", base + ".curve.png"
}

// ReadCurve reads the learning curve of the model in t.Model (none: an empty curve).
func (t QLearning) ReadCurve() ([]datasets.LearningCurveRow, error) {
	path, _ := t.Files()
	curve, err := datasets.ReadParquet[datasets.LearningCurveRow](path, datasets.LearningCurveSchema)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return curve, err
}

// Train trains q (new, or resumed with its curve so far) to t.Episodes and returns the whole
// curve. At every save it evaluates the greedy policy (exploit.EvaluateAgainst: exact against
// a fixed line-up, with the best response and the regret; Monte Carlo otherwise), then
// writes the curve and its chart, and only then the model, all atomically: a kill in between
// leaves a model behind its curve, and the resume trains it again (training is
// deterministic) to the curve's last row, finds the row there and saves the model. The
// other order lost that row for good. Interrupted by ctx, it keeps what was learned and
// returns an error wrapping ctx's.
func (t QLearning) Train(ctx context.Context, q *agents.QLearning, curve []datasets.LearningCurveRow) ([]datasets.LearningCurveRow, error) {
	curvePath, pngPath := t.Files()
	began := time.Now()
	var before float64 // training time of the earlier runs of a resumed model
	if n := len(curve); n > 0 {
		before = curve[n-1].Seconds
	}
	checkpoint := func(last float64) error {
		if n := len(curve); n == 0 || curve[n-1].Episodes != int64(q.Episodes) {
			row, err := t.evaluate(ctx, q)
			if err != nil {
				return err
			}
			row.TrainResult = last
			row.Seconds = before + time.Since(began).Seconds()
			curve = append(curve, row)
			if err := datasets.WriteParquet(curvePath, datasets.LearningCurveSchema, curve); err != nil {
				return err
			}
			if err := writeCurvePNG(pngPath, curve, t.EvalVs); err != nil {
				return err
			}
		}
		return safefile.WriteAtomic(t.Model, q.Save)
	}
	err := q.TrainScheduled(ctx, agents.Schedule{Opponent: t.Opponent, Episodes: t.Episodes, Every: t.Every, Seed: t.Seed, Checkpoint: checkpoint,
		Progress: t.Progress})
	if errors.Is(err, context.Canceled) {
		return curve, t.interrupted(q)
	}
	return curve, err
}

// interrupted keeps what was learned (the curve keeps its evaluated rows) and says so.
func (t QLearning) interrupted(q *agents.QLearning) error {
	if t.Opponent != nil && env.ErrOf(t.Opponent) != nil {
		// The opponent stopped thinking mid-episode, and that episode was learned from
		// fallback moves: the model on disk (the last evaluation's) is the exact one.
		return fmt.Errorf("train: interrupted; %s keeps the model of the last evaluation, if any (continue with --resume): %w", t.Model, context.Canceled)
	}
	if err := safefile.WriteAtomic(t.Model, q.Save); err != nil {
		return err
	}
	return fmt.Errorf("train: interrupted after %d episodes; saved %s (continue with --resume): %w", q.Episodes, t.Model, context.Canceled)
}

// evaluate scores the greedy policy against t.EvalVs, and measures its exploitability where
// the game is small enough.
func (t QLearning) evaluate(ctx context.Context, q *agents.QLearning) (datasets.LearningCurveRow, error) {
	greedy := func() (agents.Agent, error) { return q, nil }
	rep, err := exploit.EvaluateAgainst(ctx, greedy, t.EvalVs, t.Rules, t.EvalMatches, t.Seed)
	if err != nil {
		return datasets.LearningCurveRow{}, err
	}
	row := datasets.LearningCurveRow{Episodes: int64(q.Episodes), States: int64(q.States()), Score: rep.Score, ScoreCI: rep.ScoreCI,
		Exact: rep.Exact, BestResponse: rep.BestResponse, Regret: rep.Regret, ScoreExploitability: math.NaN()}
	if size, err := game.Estimate(t.Rules, lineup.PayoffWinLoss); !t.NoExploitability && err == nil && size.BreakStates <= CurveExploitStates {
		x, err := exploit.Measure(ctx, greedy, t.Rules, 0, t.Seed)
		if err != nil {
			return row, err
		}
		if x.Exact {
			row.ScoreExploitability = x.Value
		}
	}
	return row, nil
}

func writeCurvePNG(path string, curve []datasets.LearningCurveRow, vs string) error {
	var score, best, regret, exploitability plotter.XYs
	for _, c := range curve {
		score = append(score, plotter.XY{X: float64(c.Episodes), Y: c.Score})
		if !math.IsNaN(c.ScoreExploitability) {
			exploitability = append(exploitability, plotter.XY{X: float64(c.Episodes), Y: c.ScoreExploitability})
		}
		if !math.IsNaN(c.BestResponse) {
			best = append(best, plotter.XY{X: float64(c.Episodes), Y: c.BestResponse})
			regret = append(regret, plotter.XY{X: float64(c.Episodes), Y: c.Regret})
		}
	}
	return charts.LineChart(path, "Q-learning v "+vs+", evaluated at every save", "episodes",
		"score P(win) + ½ P(draw), or a gap between two",
		charts.Series{Name: "greedy policy's score", Points: score}, charts.Series{Name: "best response's score (exact)", Points: best}, charts.Series{Name: "regret: best response − greedy", Points: regret},
		charts.Series{Name: "exploitability (exact, score scale):\na best response's score − ½", Points: exploitability})
}
