package arena

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// runFiles are the files of a run directory besides run.json and the shards.
var runFiles = []string{"matches.parquet", "throws.parquet", "decisions.parquet", "ratings.png", "head_to_head.png"}

// ShardSize is the number of matches per shard file. An interrupted run saves the finished
// matches of its open shards too, so the size only bounds what a hard kill can lose.
const ShardSize = 8192

// Format is the kind of competition.
type Format uint8

const (
	League   Format = iota // every pair of agents
	Gauntlet               // the first agent against each of the others
)

func (f Format) String() string {
	if f == Gauntlet {
		return "gauntlet"
	}
	return "league"
}

// ParseFormat reads league or gauntlet.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "league":
		return League, nil
	case "gauntlet":
		return Gauntlet, nil
	}
	return 0, fmt.Errorf("arena: format %q: want league or gauntlet", s)
}

// Config describes a competition: every pair of Agents (League) or the first agent against
// each other (Gauntlet) plays Matches matches, sides alternating, each fixture and its mirror
// sharing their dice. The zero values of Format, Matches and Workers mean a league, 20 and all
// cores.
type Config struct {
	Format  Format
	Agents  []string  // registry specs, at least two
	Rules   env.Rules // the rules of every match
	Matches int       // per pairing
	Seed    uint64
	Workers int
	// LogThrows also writes throws.parquet, one row per chance node; with Dice every die is
	// rolled and its value logged (a different random stream: another run). LogDecisions also
	// writes decisions.parquet, one row per agent decision.
	LogThrows, Dice, LogDecisions bool
}

func (c Config) matches() int {
	if c.Matches == 0 {
		return 20
	}
	return c.Matches
}

// Fixture is one scheduled match.
type Fixture struct {
	ID           int64
	Pairing, Leg int
	Home, Away   int // agent indices
	DiceSeed     uint64
	homeS, awayS uint64 // the agents' seeds
}

// Schedule lists the matches in ID order: pairings (i, j) with i < j in order (i = 0 only in
// a gauntlet), then their matches; match k has leg k/2, and odd k swaps sides.
func (c Config) Schedule() []Fixture {
	var out []Fixture
	pairing := 0
	for i := range c.Agents {
		if c.Format == Gauntlet && i > 0 {
			break
		}
		for j := i + 1; j < len(c.Agents); j++ {
			for k := range c.matches() {
				f := Fixture{ID: int64(len(out)), Pairing: pairing, Leg: k / 2, Home: i, Away: j}
				if k%2 == 1 {
					f.Home, f.Away = j, i
				}
				f.DiceSeed = env.SeededSource(c.Seed, uint64(pairing)<<32|uint64(f.Leg)).Uint64()
				f.homeS = env.SeededSource(c.Seed^0xa9e7, uint64(f.ID)<<1).Uint64()
				f.awayS = env.SeededSource(c.Seed^0xa9e7, uint64(f.ID)<<1|1).Uint64()
				out = append(out, f)
			}
			pairing++
		}
	}
	return out
}

// Validate checks the configuration and that every agent spec builds.
func (c Config) Validate() error {
	if len(c.Agents) < 2 {
		return fmt.Errorf("arena: a %s needs at least two agents, got %d", c.Format, len(c.Agents))
	}
	if c.Format > Gauntlet {
		return fmt.Errorf("arena: format %d unknown", c.Format)
	}
	if c.Matches < 0 || c.Workers < 0 {
		return errors.New("arena: matches and workers must not be negative")
	}
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	for _, s := range c.Agents {
		if _, err := agents.New(s, agents.Setup{Rules: c.Rules}); err != nil {
			return err
		}
	}
	return nil
}

// RunInfo is run.json: what was run, with what, and how much of it is done.
type RunInfo struct {
	Format            string            `json:"format"` // "kingoal-run"
	SchemaVersion     int               `json:"schema_version"`
	Competition       string            `json:"competition"`
	Agents            []string          `json:"agents"`
	Rules             string            `json:"rules"`
	RulesConfig       env.Rules         `json:"rules_config"`
	Seed              uint64            `json:"seed"`
	MatchesPerPairing int               `json:"matches_per_pairing"`
	TotalMatches      int               `json:"total_matches"`
	ShardSize         int               `json:"shard_size"`
	Complete          bool              `json:"complete"`
	LogThrows         bool              `json:"log_throws"`
	Dice              bool              `json:"dice"`
	LogDecisions      bool              `json:"log_decisions"`
	Schemas           map[string]string `json:"schemas"`
	GoVersion         string            `json:"go_version"`
}

func (c Config) info(total int, complete bool) RunInfo {
	return RunInfo{Format: "kingoal-run", SchemaVersion: 1, Competition: c.Format.String(), Agents: c.Agents, Rules: c.Rules.String(), RulesConfig: c.Rules,
		Seed: c.Seed, MatchesPerPairing: c.matches(), TotalMatches: total, ShardSize: ShardSize, Complete: complete,
		Schemas: c.schemas(), GoVersion: runtime.Version(), LogThrows: c.LogThrows, Dice: c.Dice, LogDecisions: c.LogDecisions}
}

func (c Config) schemas() map[string]string {
	m := map[string]string{"matches.parquet": datasets.MatchesSchema}
	if c.LogThrows {
		m["throws.parquet"] = datasets.ThrowsSchema
	}
	if c.LogDecisions {
		m["decisions.parquet"] = datasets.DecisionsSchema
	}
	return m
}

// sameRun reports whether two run descriptions describe the same matches.
func sameRun(a, b RunInfo) bool {
	key := func(r RunInfo) []byte {
		j, _ := json.Marshal(RunInfo{Competition: r.Competition, Agents: r.Agents, Rules: r.Rules, Seed: r.Seed,
			MatchesPerPairing: r.MatchesPerPairing, ShardSize: r.ShardSize, LogThrows: r.LogThrows, Dice: r.Dice, LogDecisions: r.LogDecisions})
		return j
	}
	ja, jb := key(a), key(b)
	return string(ja) == string(jb)
}

// Options tune Run.
type Options struct {
	Resume   bool                  // keep the finished shards of an interrupted run in the directory
	Progress func(done, total int) // called from Run's goroutine as matches finish
}

// ReadInfo reads dir/run.json.
func ReadInfo(dir string) (RunInfo, error) {
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		return RunInfo{}, fmt.Errorf("arena: %w", err)
	}
	var info RunInfo
	if err := json.Unmarshal(b, &info); err != nil || info.Format != "kingoal-run" {
		return RunInfo{}, fmt.Errorf("arena: %s/run.json is not a kingoal run description", dir)
	}
	return info, nil
}

func shardPath(dir string, s int) string {
	return filepath.Join(dir, "shards", fmt.Sprintf("matches-%05d.parquet", s))
}

func throwShardPath(dir string, s int) string {
	return filepath.Join(dir, "shards", fmt.Sprintf("throws-%05d.parquet", s))
}

func decisionShardPath(dir string, s int) string {
	return filepath.Join(dir, "shards", fmt.Sprintf("decisions-%05d.parquet", s))
}

// shardRows are the finished matches of one shard (and their throws, if logged).
type shardRows struct {
	matches   []datasets.MatchRow
	throws    []datasets.ThrowRow
	decisions []datasets.DecisionRow
}

// played is one finished match.
type played struct {
	match     datasets.MatchRow
	throws    []datasets.ThrowRow
	decisions []datasets.DecisionRow
}

// Run plays the league into dir: shards as they complete, then matches.parquet and
// run.json, and returns the tally of all matches. If ctx is cancelled it stops dispatching,
// finishes the matches in flight, saves them, and returns the context's error (resume with
// Options.Resume). Memory is bounded by the open shards, whatever the number of matches.
func Run(ctx context.Context, c Config, dir string, opt Options) (*Tally, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	fixtures := c.Schedule()
	shards := (len(fixtures) + ShardSize - 1) / ShardSize
	if err := os.MkdirAll(filepath.Join(dir, "shards"), 0o755); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	info := c.info(len(fixtures), false)
	if opt.Resume {
		old, err := ReadInfo(dir)
		if err != nil {
			return nil, err
		}
		if !sameRun(old, info) {
			return nil, fmt.Errorf("arena: %s holds another run (agents, rules, seed or matches differ); resume it with its own settings", dir)
		}
	} else {
		// A fresh run owns the directory's run files: stale ones of an earlier run must not
		// sit beside the new ones looking complete.
		if err := os.RemoveAll(filepath.Join(dir, "shards")); err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
		os.MkdirAll(filepath.Join(dir, "shards"), 0o755)
		for _, f := range runFiles {
			if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("arena: %w", err)
			}
		}
	}
	if err := writeInfo(dir, info); err != nil {
		return nil, err
	}
	kept := map[int]*shardRows{} // finished matches of each shard on disk
	done := 0
	for sh := range shards {
		if !opt.Resume {
			break
		}
		ms, err := datasets.ReadParquet[datasets.MatchRow](shardPath(dir, sh), datasets.MatchesSchema)
		if err != nil {
			continue // an unreadable shard is played again
		}
		var ts []datasets.ThrowRow
		if c.LogThrows {
			if ts, err = datasets.ReadParquet[datasets.ThrowRow](throwShardPath(dir, sh), datasets.ThrowsSchema); err != nil {
				continue // the files of a shard go together
			}
		}
		var ds []datasets.DecisionRow
		if c.LogDecisions {
			if ds, err = datasets.ReadParquet[datasets.DecisionRow](decisionShardPath(dir, sh), datasets.DecisionsSchema); err != nil {
				continue
			}
		}
		kept[sh] = &shardRows{ms, ts, ds}
		done += len(ms)
	}
	if opt.Progress != nil {
		opt.Progress(done, len(fixtures))
	}
	if err := c.play(ctx, dir, fixtures, kept, done, opt); err != nil {
		return nil, err
	}
	tally := NewTally(len(c.Agents))
	err := mergeShards(filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema, shards, func(sh int) string { return shardPath(dir, sh) },
		func(m datasets.MatchRow) { tally.Add(m) })
	if err != nil {
		return nil, err
	}
	if c.LogThrows {
		err := mergeShards(filepath.Join(dir, "throws.parquet"), datasets.ThrowsSchema, shards, func(sh int) string { return throwShardPath(dir, sh) },
			func(datasets.ThrowRow) {})
		if err != nil {
			return nil, err
		}
	}
	if c.LogDecisions {
		err := mergeShards(filepath.Join(dir, "decisions.parquet"), datasets.DecisionsSchema, shards, func(sh int) string { return decisionShardPath(dir, sh) },
			func(datasets.DecisionRow) {})
		if err != nil {
			return nil, err
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "shards")); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return tally, writeInfo(dir, c.info(len(fixtures), true))
}

// mergeShards streams the shards, in order, into one file, showing each row to see.
func mergeShards[T any](path, schema string, shards int, shard func(int) string, see func(T)) error {
	w, err := datasets.NewParquetWriter[T](path, schema)
	if err != nil {
		return err
	}
	for sh := range shards {
		err := datasets.ScanParquet(shard(sh), schema, func(batch []T) error {
			for _, r := range batch {
				see(r)
			}
			return w.Write(batch)
		})
		if err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}

func shardLen(s, total int) int { return min(ShardSize, total-s*ShardSize) }

func writeInfo(dir string, info RunInfo) error {
	return datasets.WriteAtomic(filepath.Join(dir, "run.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(info)
	})
}

// play runs every fixture not yet in kept on the workers, writes each shard when it is
// complete and, if interrupted, the finished matches of every open shard.
func (c Config) play(ctx context.Context, dir string, fixtures []Fixture, kept map[int]*shardRows, done int, opt Options) error {
	workers := c.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	have := make([]bool, len(fixtures))
	for _, rows := range kept {
		for _, r := range rows.matches {
			have[r.MatchID] = true
		}
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx) // a failing match stops the dispatch too
	defer cancel()
	jobs := make(chan []Fixture)   // batches: one channel send per batch, not per match
	results := make(chan []played) // a batch's matches
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			players := make([]agents.Agent, len(c.Agents))
			for i, s := range c.Agents {
				players[i], _ = agents.New(s, agents.Setup{Rules: c.Rules}) // validated
			}
			for batch := range jobs {
				rows := make([]played, 0, len(batch))
				for _, f := range batch {
					p, err := c.playMatch(f, players)
					if err != nil {
						errs <- err
						cancel()
						return
					}
					rows = append(rows, p)
				}
				results <- rows
			}
		}()
	}
	go func() {
		defer close(jobs)
		const batch = 256
		var b []Fixture
		for i, f := range fixtures {
			if !have[f.ID] {
				b = append(b, f)
			}
			if len(b) == batch || (i == len(fixtures)-1 && len(b) > 0) {
				if ctx.Err() != nil { // cancellation first: at most the batches in flight finish
					return
				}
				select {
				case jobs <- b:
					b = nil
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	var firstErr error
	write := func(sh int) {
		rows := kept[sh]
		slices.SortFunc(rows.matches, func(a, b datasets.MatchRow) int { return cmp.Compare(a.MatchID, b.MatchID) })
		err := datasets.WriteParquet(shardPath(dir, sh), datasets.MatchesSchema, rows.matches)
		if err == nil && c.LogThrows {
			slices.SortStableFunc(rows.throws, func(a, b datasets.ThrowRow) int { return cmp.Compare(a.MatchID, b.MatchID) })
			err = datasets.WriteParquet(throwShardPath(dir, sh), datasets.ThrowsSchema, rows.throws)
		}
		if err == nil && c.LogDecisions {
			slices.SortStableFunc(rows.decisions, func(a, b datasets.DecisionRow) int { return cmp.Compare(a.MatchID, b.MatchID) })
			err = datasets.WriteParquet(decisionShardPath(dir, sh), datasets.DecisionsSchema, rows.decisions)
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	for batch := range results {
		for _, p := range batch {
			sh := int(p.match.MatchID) / ShardSize
			if kept[sh] == nil {
				kept[sh] = &shardRows{}
			}
			kept[sh].matches = append(kept[sh].matches, p.match)
			kept[sh].throws = append(kept[sh].throws, p.throws...)
			kept[sh].decisions = append(kept[sh].decisions, p.decisions...)
			if len(kept[sh].matches) == shardLen(sh, len(fixtures)) {
				write(sh)
				delete(kept, sh) // on disk now: memory holds only the open shards
			}
		}
		done += len(batch)
		if opt.Progress != nil {
			opt.Progress(done, len(fixtures))
		}
	}
	select {
	case err := <-errs:
		return err
	default:
	}
	if err := parent.Err(); err != nil { // save what the open shards hold
		for sh, rows := range kept {
			if n := len(rows.matches); n > 0 && n < shardLen(sh, len(fixtures)) {
				write(sh)
			}
		}
		if firstErr != nil {
			return firstErr
		}
		return err
	}
	return firstErr
}

// playMatch plays one fixture with the worker's agents.
func (c Config) playMatch(f Fixture, players []agents.Agent) (played, error) {
	home, away := players[f.Home], players[f.Away]
	for _, x := range []struct {
		a    agents.Agent
		seed uint64
	}{{home, f.homeS}, {away, f.awayS}} {
		if s, ok := x.a.(agents.Seeded); ok {
			s.Reset(x.seed)
		}
	}
	s, err := env.NewState(c.Rules)
	if err != nil {
		return played{}, err
	}
	var smp env.Sampler = env.NewFastSampler(env.SeededSource(f.DiceSeed, 0))
	if c.Dice {
		smp = env.NewDiceSampler(env.SeededSource(f.DiceSeed, 0))
	}
	var throws []datasets.ThrowRow
	var observe func(env.Event)
	if c.LogThrows {
		observe = func(e env.Event) {
			if e.Chance {
				throws = append(throws, throwRow(f.ID, len(throws), e, c.Dice))
			}
		}
	}
	var start [2]env.Lineup
	var log *[]datasets.DecisionRow
	var decisions []datasets.DecisionRow
	if c.LogDecisions {
		log = &decisions
	}
	hp := &recorder{Agent: home, lineup: &start[0], log: log, match: f.ID, spec: c.Agents[f.Home]}
	ap := &recorder{Agent: away, lineup: &start[1], log: log, match: f.ID, spec: c.Agents[f.Away]}
	end, err := env.Play(s, hp, ap, smp, observe)
	if err != nil {
		return played{}, fmt.Errorf("arena: match %d (%s v %s): %w", f.ID, c.Agents[f.Home], c.Agents[f.Away], err)
	}
	for i := len(decisions) - 1; i >= 0; i-- { // each player's last decision carries the result
		d := &decisions[i]
		p := env.Home
		if d.Player == "away" {
			p = env.Away
		}
		if (p == env.Home && !hp.closed) || (p == env.Away && !ap.closed) {
			d.Reward, d.Terminated = float32(end.Result(p)), true
			if p == env.Home {
				hp.closed = true
			} else {
				ap.closed = true
			}
		}
	}
	return played{matchRow(c, f, start, end), throws, decisions}, nil
}

// throwRow records one chance event.
func throwRow(match int64, index int, e env.Event, dice bool) datasets.ThrowRow {
	b := e.Before
	kind := "throw"
	switch {
	case e.Outcome == env.HomeKicksFirst || e.Outcome == env.AwayKicksFirst:
		kind = "coin"
	case b.Period() == env.Penalties:
		kind = "kick"
	}
	r := datasets.ThrowRow{MatchID: match, Index: int32(index), Kind: kind, Period: b.Period().String(), ThrowsLeft: int32(b.ThrowsLeft()),
		BallBefore: int32(b.Ball()), BallAfter: int32(e.After.Ball()), Outcome: e.Outcome.String(),
		Goal:      e.After.Goals(env.Home)+e.After.Goals(env.Away) > b.Goals(env.Home)+b.Goals(env.Away),
		HomeGoals: int32(e.After.Goals(env.Home)), AwayGoals: int32(e.After.Goals(env.Away))}
	if kind == "throw" {
		hd, ad := b.Dice()
		r.HomeDice, r.AwayDice = int32(hd), int32(ad)
	}
	if dice {
		r.HomeValues, r.AwayValues = dieList(e.Roll.Home[:e.Roll.HomeCount]), dieList(e.Roll.Away[:e.Roll.AwayCount])
		r.Rethrows = int32(e.Roll.Rethrows)
	}
	return r
}

func dieList(d []uint8) string {
	b := make([]byte, 0, 2*len(d))
	for i, v := range d {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, '0'+v)
	}
	return string(b)
}

// recorder notes the line-up its agent declares at kick-off and, if log is set, every
// decision it makes.
type recorder struct {
	agents.Agent
	lineup *env.Lineup
	log    *[]datasets.DecisionRow
	match  int64
	spec   string
	steps  int32
	closed bool // its last decision has been given the result
}

func (k *recorder) Act(obs env.Observation, legal env.Mask) int {
	a := k.Agent.Act(obs, legal)
	if obs.Decision == env.KickOff && legal.Has(a) {
		*k.lineup = env.LineupAt(a)
	}
	if k.log != nil {
		*k.log = append(*k.log, datasets.DecisionRow{MatchID: k.match, Player: obs.Player.String(), Agent: k.spec, Step: k.steps,
			Decision: obs.Decision.String(), Observation: obs.Vector(), Mask: legal.Bools(), Action: int32(a)})
		k.steps++
	}
	return a
}

// lineupNames holds every line-up's name, so rows do not format them again.
var lineupNames = func() (n [env.NumLineups]string) {
	for i := range n {
		n[i] = env.LineupAt(i).String()
	}
	return n
}()

func matchRow(c Config, f Fixture, start [2]env.Lineup, end env.State) datasets.MatchRow {
	r := end.Rules()
	kind := "league"
	if r.Knockout {
		kind = "knockout"
	}
	h, a := end.Goals(env.Home), end.Goals(env.Away)
	result := "draw"
	switch {
	case h > a:
		result = "home"
	case a > h:
		result = "away"
	}
	_, scored := end.Shootout()
	winner := ""
	if w, ok := end.Winner(); ok {
		winner = w.String()
	}
	return datasets.MatchRow{
		MatchID: f.ID, Pairing: int32(f.Pairing), Leg: int32(f.Leg), DiceSeed: f.DiceSeed,
		HomeAgent: c.Agents[f.Home], AwayAgent: c.Agents[f.Away], HomeIndex: int32(f.Home), AwayIndex: int32(f.Away), Kind: kind,
		HomeStart: lineupNames[start[0].Index()], AwayStart: lineupNames[start[1].Index()],
		HomeFinal: lineupNames[end.Lineup(env.Home).Index()], AwayFinal: lineupNames[end.Lineup(env.Away).Index()],
		HomeMode: end.Mode(env.Home).String(), AwayMode: end.Mode(env.Away).String(),
		HomeGoals: int32(h), AwayGoals: int32(a), Result: result,
		HomePoints: int32(end.LeaguePoints(env.Home)), AwayPoints: int32(end.LeaguePoints(env.Away)),
		ExtraTime: end.PlayedExtraTime(), Penalties: end.PlayedShootout(), HomePens: int32(scored[0]), AwayPens: int32(scored[1]),
		Winner: winner, HomeMoves: int32(end.MovesUsed(env.Home)), AwayMoves: int32(end.MovesUsed(env.Away)),
	}
}
