package datasets

// MatrixSchema names MatrixRow files.
const MatrixSchema = "matrix/1"

// MatrixRow is the exact odds of one pairing of line-ups under the rules of the run
// (kingoal solve matrix writes all 121×121 rows, home index major).
type MatrixRow struct {
	HomeIndex     int32   `parquet:"home_index"` // env line-up index 0..120
	AwayIndex     int32   `parquet:"away_index"`
	Home          string  `parquet:"home"` // "1-2-3-3-1"
	Away          string  `parquet:"away"`
	HomeWin       float64 `parquet:"home_win"`        // P(home wins) (after extra time in a knockout)
	Draw          float64 `parquet:"draw"`            // P(draw) (in a knockout: P(penalties))
	AwayWin       float64 `parquet:"away_win"`        // P(away wins)
	HomeGoalsMean float64 `parquet:"home_goals_mean"` // expected home goals
	AwayGoalsMean float64 `parquet:"away_goals_mean"`
	HomeAdvance   float64 `parquet:"home_advance"` // = home_win in a league
}

// PolicySchema names PolicyRow files.
const PolicySchema = "policy/1"

// PolicyRow is one decision state of an optimal policy with its recommended line-up. Basic
// policies have a row per break (ball 0, possession 0); Dynamic policies a row per throw
// after which the player might shift.
type PolicyRow struct {
	Kind       string  `parquet:"kind"`        // "basic" or "dynamic"
	Period     string  `parquet:"period"`      // "first half", "second half", "extra time 1", …
	ThrowsLeft int32   `parquet:"throws_left"` // in the period
	GoalDiff   int32   `parquet:"goal_diff"`   // own − opponent
	Ball       int32   `parquet:"ball"`        // dynamic: sector in the player's own coordinates
	Possession int32   `parquet:"possession"`  // dynamic, turnover trigger: +1 own, −1 opponent, 0 none
	Lineup     string  `parquet:"lineup"`      // current line-up
	MovesLeft  int32   `parquet:"moves_left"`  // basic
	Action     string  `parquet:"action"`      // line-up to play next
	Value      float64 `parquet:"value"`       // optimal value
	KeepValue  float64 `parquet:"keep_value"`  // value if the line-up is kept now (and the policy followed after)
}

// LearningCurveSchema names LearningCurveRow files.
const LearningCurveSchema = "learning-curve/3" // 3: the exploitability column named by its unit (score_exploitability)

// LearningCurveRow is one evaluation of a learning agent during training (kingoal train).
type LearningCurveRow struct {
	Episodes     int64   `parquet:"episodes"`      // trained so far
	TrainResult  float64 `parquet:"train_result"`  // mean result (+1/0/−1) of the last training episodes, exploring
	Score        float64 `parquet:"score"`         // greedy policy: P(win) + ½ P(draw) against the opponent, both sides
	ScoreCI      float64 `parquet:"score_ci95"`    // half-width of its 95% interval; 0 when exact
	Exact        bool    `parquet:"exact"`         // score computed exactly (tabular agent v fixed opponent)
	BestResponse float64 `parquet:"best_response"` // the optimum's score against the same opponent; NaN if unknown
	Regret       float64 `parquet:"regret"`        // best_response − score; NaN if unknown
	States       int64   `parquet:"states"`        // table size
	Seconds      float64 `parquet:"seconds"`       // training time so far
	// ScoreExploitability is the greedy policy's exploitability on the score scale (a best
	// response's mean score beyond ½, both sides; × 4 = OpenSpiel's NashConv), exact — NaN
	// where it was not measured (rules beyond train's bound, or --no-exploitability).
	ScoreExploitability float64 `parquet:"score_exploitability"`
}

// ExploitabilityCurveSchema names ExploitabilityCurveRow files. Version 2 names every figure
// by its unit (version 1's exploitability and nash_conv were the score scale's, unnamed).
const ExploitabilityCurveSchema = "exploitability-curve/2"

// ExploitabilityCurveRow is one iteration of a self-play learner (kingoal train
// fictitious|regret|psro): the exact exploitability of the strategy it had then, in
// OpenSpiel's units (±1 returns) and on the score scale (a win 1, a draw ½), as bench-curve's.
type ExploitabilityCurveRow struct {
	Iteration           int64   `parquet:"iteration"`            // the learner's iteration (1: its starting policy)
	OpenSpielNashConv   float64 `parquet:"openspiel_nash_conv"`  // both best responses' gains summed on the ±1 game: OpenSpiel's exploitability.nash_conv
	ScoreNashConv       float64 `parquet:"score_nash_conv"`      // the same on the score scale: openspiel_nash_conv / 2
	ScoreExploitability float64 `parquet:"score_exploitability"` // a best response's mean score beyond ½ (both sides): score_nash_conv / 2
	Seconds             float64 `parquet:"seconds"`              // training time so far
	// Passes counts a full-width learner's updates so far: passes over the break states,
	// each a best response's length (fictitious play one an iteration, regret matching two,
	// PSRO's k-th ~2k); 0 for a sampling learner.
	Passes int64 `parquet:"passes"`
	// Samples counts a sampling learner's experience so far (decisions, or episodes, as its
	// writer says); 0 for a full-width learner.
	Samples int64 `parquet:"samples"`
}

// BenchCurveSchema names BenchCurveRow files. Version 2 names every figure by its unit
// (version 1's nash_conv and exploitability were the score scale's, unnamed).
const BenchCurveSchema = "bench-curve/2"

// BenchCurveRow is one measurement of a learner in a Kingoal-Bench suite (kingoal bench:
// bench.parquet; kingoal.bench in Python): the exact NashConv of its policy after so much
// learning, in OpenSpiel's units (the ±1 game: a win +1, a draw 0, a loss −1) and on the
// score scale (a win 1, a draw ½), which is half of OpenSpiel's. The exact solver's row
// (learner "solver") is the truth beside them: the verified equilibrium.
type BenchCurveRow struct {
	Suite     string `parquet:"suite"`     // tiny, standard, default, or external (rows another program wrote)
	Learner   string `parquet:"learner"`   // fictitious, regret, psro, qlearning, mcts, solver, or an external one (maskable-ppo, nfsp, …)
	Rules     string `parquet:"rules"`     // the rules in words (env.Rules.String)
	Seed      int64  `parquet:"seed"`      // the learner's seed (0: a deterministic learner)
	Iteration int64  `parquet:"iteration"` // the measurement's number along the learner's curve (1..)
	// Samples is a sampling learner's experience so far — episodes played (Q-learning),
	// decisions trained on (MaskablePPO) — or a search's simulations a decision (mcts); 0
	// for full-width learners.
	Samples int64 `parquet:"samples"`
	Passes  int64 `parquet:"passes"` // full-width passes over the break states so far (0 for sampling learners)
	// Seconds is the learning time so far, measurements left out (mcts, which does not
	// learn: the time of the matches behind its estimate).
	Seconds float64 `parquet:"seconds"`
	// OpenSpielNashConv is NashConv on the ±1 game, as OpenSpiel's exploitability.nash_conv
	// reports it: both best responses' gains summed. The headline figure.
	OpenSpielNashConv       float64 `parquet:"openspiel_nash_conv"`
	OpenSpielExploitability float64 `parquet:"openspiel_exploitability"` // openspiel_nash_conv / 2 (OpenSpiel's exploitability)
	ScoreNashConv           float64 `parquet:"score_nash_conv"`          // on the score scale: openspiel_nash_conv / 2
	ScoreExploitability     float64 `parquet:"score_exploitability"`     // score_nash_conv / 2: a best response's mean gain beyond ½
	// Exact is false for an estimate (mcts: an exploiter's score, a lower bound), whose 95%
	// interval's half-width is OpenSpielNashConvCI95.
	Exact                 bool    `parquet:"exact"`
	OpenSpielNashConvCI95 float64 `parquet:"openspiel_nash_conv_ci95"` // an estimate's 95% half-width in openspiel_nash_conv's units; 0 when exact
}

// EquilibriumSchema names EquilibriumRow files.
const EquilibriumSchema = "equilibrium/1"

// EquilibriumRow is one line-up in the support of one side's equilibrium mix (kingoal solve
// equilibrium --out); the game's value and exploitability repeat on every row.
type EquilibriumRow struct {
	Payoff         string  `parquet:"payoff"`         // win-loss, goal-diff, points or advance
	Side           string  `parquet:"side"`           // home or away
	Lineup         string  `parquet:"lineup"`         // a line-up in the side's support, "1-3-3-2-1"
	LineupIndex    int32   `parquet:"lineup_index"`   // its index 0..120 (kingoal lineups)
	Probability    float64 `parquet:"probability"`    // its weight in the side's equilibrium mix
	Value          float64 `parquet:"value"`          // to home
	Exploitability float64 `parquet:"exploitability"` // the best pure reply's gain (verified small)
}

// GameSchema names GameRow files.
const GameSchema = "game/1"

// GameRow is one line-up a side plays with positive probability at one break of the
// substitution game's equilibrium (kingoal solve game --out): every break the solve holds at
// which at least one side has a move left, a row per line-up in the support of each side's
// mix (a side with no move left has one row: keep). Under goal-diff in a league the score
// drops out of the game: goal_diff is 0 and value counts the goals still to come.
type GameRow struct {
	Payoff      string  `parquet:"payoff"`      // win-loss, goal-diff or advance
	Period      string  `parquet:"period"`      // the period about to (re)start
	ThrowsLeft  int32   `parquet:"throws_left"` // in that period
	GoalDiff    int32   `parquet:"goal_diff"`   // home − away
	Home        string  `parquet:"home"`        // home's current line-up
	HomeIndex   int32   `parquet:"home_index"`  // home's line-up index 0..120
	HomeMoves   int32   `parquet:"home_moves"`  // moves left
	Away        string  `parquet:"away"`
	AwayIndex   int32   `parquet:"away_index"` // away's line-up index 0..120
	AwayMoves   int32   `parquet:"away_moves"`
	Value       float64 `parquet:"value"`        // to home, before choosing
	Side        string  `parquet:"side"`         // who plays the line-up: home or away
	Lineup      string  `parquet:"lineup"`       // the line-up played after the break
	LineupIndex int32   `parquet:"lineup_index"` // env index 0..120
	Probability float64 `parquet:"probability"`  // the weight of this change in the side's equilibrium mix at this break
}

// RatingsSchema names RatingRow files (ratings/1 lacked the exploitability columns; ratings/2
// did not name their unit).
const RatingsSchema = "ratings/3"

// RatingRow is one agent's rating in an arena run (kingoal arena and kingoal leaderboard write
// ratings.parquet): Bradley–Terry with draws on the Elo scale, mean 0, with a bootstrap 95%
// interval.
type RatingRow struct {
	Agent      string  `parquet:"agent"`       // the agent's spec
	AgentIndex int32   `parquet:"agent_index"` // as in run.json
	Rating     float64 `parquet:"rating"`      // Bradley–Terry rating with draws, Elo scale
	Low95      float64 `parquet:"low95"`       // bootstrap 95% interval's low end
	High95     float64 `parquet:"high95"`      // bootstrap 95% interval's high end
	Resamples  int32   `parquet:"resamples"`   // bootstrap refits behind the interval
	// ScoreExploitability is a best response's score against the agent minus ½, on the score
	// scale (a win 1, a draw ½; twice it on OpenSpiel's ±1 game) — NaN: not measured; exact,
	// or a Monte Carlo lower bound with the half-width of its 95% interval.
	ScoreExploitability     float64 `parquet:"score_exploitability"`
	ScoreExploitabilityCI95 float64 `parquet:"score_exploitability_ci95"` // an estimate's 95% half-width; 0 when exact
	ExploitabilityExact     bool    `parquet:"exploitability_exact"`      // score_exploitability is exact (else a Monte Carlo lower bound)
}
