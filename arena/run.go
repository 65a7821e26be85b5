package arena

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/jsonfile"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/internal/version"
)

// runFiles are the files of a run directory besides run.json and the shards: the data, the
// leaderboard's (Leaderboard.WriteRatings, and the charts the CLI draws from it), the cached
// exploitability column and tally.json (kingoal-beam's combined tally).
var runFiles = []string{"matches.parquet", "throws.parquet", "decisions.parquet", RatingsFile, "ratings.png", "head_to_head.png", "tally.json", ExploitabilityFile}

// ShardSize is the number of matches per shard file (each costs two files made and synced,
// ~1 ms: at 8,192 that was a seventh of a matches-only run); LoggedShardSize when throws or
// decisions are logged too, halved for matches longer than the default until a shard holds
// no more throws than LoggedShardSize default matches. An interrupted run saves the finished
// matches of its open shards too, so the size bounds what a hard kill can lose — and what
// memory holds: a run keeps a few shards in memory (open ones, and one being encoded per
// worker), and a match with its ~95 throw rows is ~12 KB, so logged shards are smaller (8,192
// of them held ~400 MB live, ~0.9 GB of heap; 512 keep a run with throws under 256 MB at any
// size, for ~9% more time and ~5% larger files than 1,024 — BENCHMARKS.md).
const (
	ShardSize       = 32768
	LoggedShardSize = 512
)

// RunInfo is run.json: what was run, with what, and how much of it is done.
type RunInfo struct {
	Format            string            `json:"format"`         // "kingoal-run"
	SchemaVersion     int               `json:"schema_version"` // 3: rules_config as knobs (2: Go field names, still read)
	Competition       string            `json:"competition"`
	Agents            []string          `json:"agents"`
	Rules             string            `json:"rules"`
	RulesConfig       env.Rules         `json:"rules_config"`
	Seed              uint64            `json:"seed"`
	MatchesPerPairing int               `json:"matches_per_pairing"` // knockout: cups
	DrawBracket       bool              `json:"draw_bracket,omitempty"`
	GroupSize         int               `json:"group_size,omitempty"` // World Cup: agents a group
	TotalMatches      int               `json:"total_matches"`
	ShardSize         int               `json:"shard_size"`
	Complete          bool              `json:"complete"`
	LogThrows         bool              `json:"log_throws"`
	Dice              bool              `json:"dice"`
	LogDecisions      bool              `json:"log_decisions"`
	Sampler           string            `json:"sampler,omitempty"`           // Config.Sampler; absent (runs started before the goal sampler): "throws"
	NoExploitability  bool              `json:"no_exploitability,omitempty"` // Config.NoExploitability
	Schemas           map[string]string `json:"schemas"`
	GoVersion         string            `json:"go_version"`
	KingoalVersion    string            `json:"kingoal_version"`    // the release, and the VCS revision when stamped (internal/version)
	ParquetGoVersion  string            `json:"parquet_go_version"` // the writer of the files
}

func (c *Plan) info(total int, complete bool) RunInfo {
	return RunInfo{Format: "kingoal-run", SchemaVersion: 3, Competition: c.Format.String(), Agents: c.Agents, Rules: c.Rules.String(), RulesConfig: c.Rules,
		Seed: c.Seed, MatchesPerPairing: c.matches(), DrawBracket: c.DrawBracket, GroupSize: c.infoGroupSize(), TotalMatches: total, ShardSize: c.shardSize, Complete: complete,
		Schemas: c.schemas(), GoVersion: runtime.Version(), KingoalVersion: version.String(), ParquetGoVersion: depVersion("github.com/parquet-go/parquet-go"), LogThrows: c.LogThrows, Dice: c.Dice, LogDecisions: c.LogDecisions,
		Sampler: c.Sampler(), NoExploitability: c.NoExploitability}
}

// DrawnBy is info's Sampler, "throws" for the runs that did not record one (they came before
// the goal sampler).
func (info RunInfo) DrawnBy() string {
	if info.Sampler == "" {
		return "throws"
	}
	return info.Sampler
}

// infoGroupSize is the group size a World Cup plays (run.json records it, whether it was
// given or the default), 0 for other formats.
func (c Config) infoGroupSize() int {
	if c.Format == WorldCup {
		return c.groupSize()
	}
	return 0
}

// depVersion is the version of a module linked into the binary, or "unknown".
func depVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == path {
				return d.Version
			}
		}
	}
	return "unknown"
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

// RunID is a hash of the settings that decide a run's matches (sameRun's): shards carry it,
// so a resume never keeps a shard another run wrote.
func (info RunInfo) RunID() string {
	id, _ := json.Marshal(struct {
		Competition                  string
		Agents                       []string
		Rules                        goFieldRules // the bytes shards of 0.9.0-dev carry
		Seed                         uint64
		MatchesPerPairing, GroupSize int
		ShardSize                    int
		DrawBracket, LogThrows, Dice bool
		LogDecisions                 bool
		Sampler                      string
	}{info.Competition, info.Agents, goFieldRules(info.RulesConfig.Canonical()), info.Seed, info.MatchesPerPairing, info.GroupSize,
		info.ShardSize, info.DrawBracket, info.LogThrows, info.Dice, info.LogDecisions, info.DrawnBy()})
	sum := sha256.Sum256(id)
	return hex.EncodeToString(sum[:12])
}

// goFieldRules are env.Rules written with Go's field names, as they were before env.Rules
// had JSON methods, so a run's identity did not change with them.
type goFieldRules env.Rules

// sameRun reports whether two run descriptions describe the same matches.
func sameRun(a, b RunInfo) bool {
	return a.Competition == b.Competition && slices.Equal(a.Agents, b.Agents) && a.RulesConfig.Equal(b.RulesConfig) && a.Seed == b.Seed &&
		a.MatchesPerPairing == b.MatchesPerPairing && a.DrawBracket == b.DrawBracket && a.GroupSize == b.GroupSize && a.ShardSize == b.ShardSize &&
		a.LogThrows == b.LogThrows && a.Dice == b.Dice && a.LogDecisions == b.LogDecisions && a.DrawnBy() == b.DrawnBy()
}

// maxDescriptionBytes bounds the JSON files of a run directory (run.json, the manifests, the
// exploitability cache) as they are read: far above what the arena writes, far below harm.
const maxDescriptionBytes = 16 << 20

// Info reads the run's run.json.
func (r RunFiles) Info() (RunInfo, error) {
	dir := r.Path()
	b, err := r.readFile("run.json")
	if err != nil {
		return RunInfo{}, fmt.Errorf("arena: reading the run description: %w", err)
	}
	var info RunInfo
	if err := jsonfile.Decode(b, &info, runKeys...); err != nil {
		return RunInfo{}, fmt.Errorf("arena: %s/run.json is not a kingoal run description this build reads: %v", dir, err)
	}
	if info.Format != "kingoal-run" {
		return RunInfo{}, fmt.Errorf("arena: %s/run.json is not a kingoal run description (format %q)", dir, info.Format)
	}
	return info, nil
}

// runKeys are the keys of run.json that decide a run's matches: one missing is an error,
// never a zero value. (sampler, draw_bracket and group_size may be absent: runs before the
// goal sampler, and formats they do not apply to.)
var runKeys = []string{"format", "competition", "agents", "rules_config", "seed", "matches_per_pairing", "total_matches",
	"shard_size", "complete", "log_throws", "dice", "log_decisions"}

// ShardFile names shard s of one of the run's files: kind is "matches", "throws" or
// "decisions".

// concat writes the shards of one kind, in order, into dir/kind.parquet; their row groups
// are copied, not re-encoded.
func concat[T any](dir, kind, schema string, shards int) error {
	w, err := datasets.NewParquetWriter[T](filepath.Join(dir, kind+".parquet"), schema)
	if err != nil {
		return err
	}
	for s := range shards {
		w.AppendFile(ShardFile(dir, kind, s)) // sticky: Close reports it
	}
	return w.Close()
}

func writeInfo(dir string, info RunInfo) error {
	return safefile.WriteAtomic(filepath.Join(dir, "run.json"), func(w io.Writer) error {
		return jsonfile.Encode(w, info, true)
	})
}

// ReadInfo reads dir/run.json.
func ReadInfo(dir string) (RunInfo, error) { return withRun(dir, RunFiles.Info) }
