package datasets

import "github.com/kingoal/kingoal/env"

// MatchesSchema names MatchRow files.
const MatchesSchema = "matches/2"

// MatchRow is one played match of an arena run (kingoal arena writes matches.parquet).
// Sides are "home"/"away"; agent columns hold the registry specs. matches/2 added Cup and
// Round (knockout cups); matches/1 files are refused.
type MatchRow struct {
	MatchID    int64  `parquet:"match_id"`   // 0.. in schedule order
	Pairing    int32  `parquet:"pairing"`    // index of the pair of agents
	Leg        int32  `parquet:"leg"`        // matches sharing a leg share their dice (a fixture and its mirror); 0 in a cup
	Cup        int32  `parquet:"cup"`        // knockout: the cup (0..); 0 otherwise
	Round      int32  `parquet:"round"`      // knockout: 1 = first round … the final; 0 otherwise
	DiceSeed   uint64 `parquet:"dice_seed"`  // the dice stream's seed, from (run seed, pairing, leg) or (run seed, cup, round, tie)
	HomeAgent  string `parquet:"home_agent"` // spec
	AwayAgent  string `parquet:"away_agent"`
	HomeIndex  int32  `parquet:"home_index"` // agent index in run.json
	AwayIndex  int32  `parquet:"away_index"`
	Kind       string `parquet:"kind,dict"`  // league or knockout
	HomeStart  string `parquet:"home_start"` // home's kick-off line-up
	AwayStart  string `parquet:"away_start"`
	HomeFinal  string `parquet:"home_final"` // home's line-up at the end
	AwayFinal  string `parquet:"away_final"`
	HomeMode   string `parquet:"home_mode"` // basic or dynamic
	AwayMode   string `parquet:"away_mode"`
	HomeGoals  int32  `parquet:"home_goals"` // goals in play (extra time included, the shoot-out not)
	AwayGoals  int32  `parquet:"away_goals"`
	Result     string `parquet:"result"`      // home, draw or away (goals in play)
	HomePoints int32  `parquet:"home_points"` // league points (--points)
	AwayPoints int32  `parquet:"away_points"`
	ExtraTime  bool   `parquet:"extra_time"` // the match went to extra time
	Penalties  bool   `parquet:"penalties"`  // the match went to a shoot-out
	HomePens   int32  `parquet:"home_pens"`  // shoot-out goals
	AwayPens   int32  `parquet:"away_pens"`
	Winner     string `parquet:"winner"`     // home, away, or "" for a league draw
	HomeMoves  int32  `parquet:"home_moves"` // Basic moves spent (env.State.MovesUsed)
	AwayMoves  int32  `parquet:"away_moves"`
}

// WinnerSide reads Winner: the side that won (the shoot-out's in a knockout), and false for
// a league draw or a value that names no side.
func (m MatchRow) WinnerSide() (env.Player, bool) {
	for p := env.Home; p <= env.Away; p++ {
		if m.Winner == p.String() {
			return p, true
		}
	}
	return 0, false
}

// ThrowsSchema names ThrowRow files.
const ThrowsSchema = "throws/2" // 2: the dice shown as lists of int32 (1: space-separated strings)

// ThrowRow is one chance node of an arena match (kingoal arena --log-throws): a throw, the
// shoot-out coin or a penalty kick. Ball sectors are in home coordinates.
type ThrowRow struct {
	MatchID    int64   `parquet:"match_id"`    // the match's match_id in matches.parquet
	Index      int32   `parquet:"index"`       // 0.. within the match
	Kind       string  `parquet:"kind,dict"`   // throw, coin or kick
	Period     string  `parquet:"period,dict"` // first half, second half, extra time 1, extra time 2, penalties
	ThrowsLeft int32   `parquet:"throws_left"` // throws left in the period after this one
	BallBefore int32   `parquet:"ball_before"` // the ball's sector before the throw, home's numbering (1 = home's defence, 5 = its attack)
	BallAfter  int32   `parquet:"ball_after"`  // its sector after the throw (3 after a goal: the kick-off)
	HomeDice   int32   `parquet:"home_dice"`   // dice thrown (counters in the sector, + the goalkeeper's)
	AwayDice   int32   `parquet:"away_dice"`
	HomeValues []int32 `parquet:"home_values,list"` // the dice shown (--dice only, else empty)
	AwayValues []int32 `parquet:"away_values,list"`
	Rethrows   int32   `parquet:"rethrows"`     // tied physical throws thrown again (--dice only)
	Outcome    string  `parquet:"outcome,dict"` // home wins, away wins, tie, scored, saved, home kicks first, …
	Goal       bool    `parquet:"goal"`         // the throw scored
	HomeGoals  int32   `parquet:"home_goals"`   // score after the node
	AwayGoals  int32   `parquet:"away_goals"`
}

// DecisionsSchema names DecisionRow files.
const DecisionsSchema = "decisions/1"

// DecisionRow is one agent decision of an arena match (kingoal arena --log-decisions), shaped
// like an offline-RL episode step (Minari): the episode is the match seen by one player.
// Reward is what the player received after this decision up to its next one: 0, except on
// its last decision, which carries the result (+1 win, 0 draw, −1 loss; a shoot-out decides a
// knockout) and Terminated.
type DecisionRow struct {
	MatchID     int64     `parquet:"match_id"`         // the match's match_id in matches.parquet
	Player      string    `parquet:"player"`           // home or away
	Agent       string    `parquet:"agent"`            // the deciding agent's spec
	Step        int32     `parquet:"step"`             // 0.. within the player's episode
	Decision    string    `parquet:"decision"`         // kick-off, break or shift
	Observation []float32 `parquet:"observation,list"` // env.Observation.Vector (36 slots)
	Mask        []bool    `parquet:"mask,list"`        // 121 legal-action flags
	Action      int32     `parquet:"action"`           // line-up index
	Reward      float32   `parquet:"reward"`           // 0, or the result on the player's last decision (see the row type)
	Terminated  bool      `parquet:"terminated"`       // the match ended after this decision
	Truncated   bool      `parquet:"truncated"`        // always false: matches end by the rules, never cut
}
