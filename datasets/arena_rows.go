package datasets

// MatchesSchema names MatchRow files.
const MatchesSchema = "matches/1"

// MatchRow is one played match of an arena run (kingoal arena writes matches.parquet).
// Sides are "home"/"away"; agent columns hold the registry specs.
type MatchRow struct {
	MatchID    int64  `parquet:"match_id"`   // 0.. in schedule order
	Pairing    int32  `parquet:"pairing"`    // index of the pair of agents
	Leg        int32  `parquet:"leg"`        // matches sharing a leg share their dice (a fixture and its mirror)
	DiceSeed   uint64 `parquet:"dice_seed"`  // the dice stream's seed, from (run seed, pairing, leg)
	HomeAgent  string `parquet:"home_agent"` // spec
	AwayAgent  string `parquet:"away_agent"`
	HomeIndex  int32  `parquet:"home_index"` // agent index in run.json
	AwayIndex  int32  `parquet:"away_index"`
	Kind       string `parquet:"kind"` // league or knockout
	HomeStart  string `parquet:"home_start"`
	AwayStart  string `parquet:"away_start"`
	HomeFinal  string `parquet:"home_final"`
	AwayFinal  string `parquet:"away_final"`
	HomeMode   string `parquet:"home_mode"`
	AwayMode   string `parquet:"away_mode"`
	HomeGoals  int32  `parquet:"home_goals"`
	AwayGoals  int32  `parquet:"away_goals"`
	Result     string `parquet:"result"` // home, draw or away (goals in play)
	HomePoints int32  `parquet:"home_points"`
	AwayPoints int32  `parquet:"away_points"`
	ExtraTime  bool   `parquet:"extra_time"`
	Penalties  bool   `parquet:"penalties"`
	HomePens   int32  `parquet:"home_pens"`
	AwayPens   int32  `parquet:"away_pens"`
	Winner     string `parquet:"winner"` // home, away, or "" for a league draw
	HomeMoves  int32  `parquet:"home_moves"`
	AwayMoves  int32  `parquet:"away_moves"`
}
