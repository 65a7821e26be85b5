package arena

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/internal/safefile"
)

// A shard's files (matches, and the logs) are renamed into place one after another, so a
// kill between two renames leaves files of two attempts side by side. The shard's manifest
// is written last, after every file, and removed before any is rewritten: a shard counts
// only when its manifest is there, names this run, and every file has the rows and bytes it
// records.
type shardManifest struct {
	Run   string               `json:"run"` // RunID of the run that wrote it
	Shard int                  `json:"shard"`
	Files map[string]fileFacts `json:"files"` // by kind: "matches", "throws", "decisions"
}

type fileFacts struct {
	Rows  int64 `json:"rows"`
	Bytes int64 `json:"bytes"`
}

// ErrForeignShard is wrapped by the error for a shard another run wrote (or a run.json
// edited after its shards were written): resuming would mix two runs' matches.
var ErrForeignShard = errors.New("arena: a shard of another run")

func manifestPath(dir string, s int) string {
	return filepath.Join(dir, "shards", fmt.Sprintf("shard-%05d.json", s))
}

// Kinds names the data files of a run of c: "matches", and "throws" and "decisions" when
// logged; kind K is K.parquet in the run's directory, shards/K-NNNNN.parquet while it runs.
func (c *Plan) Kinds() []string {
	k := []string{"matches"}
	if c.LogThrows {
		k = append(k, "throws")
	}
	if c.LogDecisions {
		k = append(k, "decisions")
	}
	return k
}

// writeManifest records shard s's files as they are now, with the rows the writer wrote in
// each (by kind); it is called after the last one is in place.
func (d RunDir) writeManifest(s int, rows map[string]int64) error {
	dir := d.Path
	m := shardManifest{Run: d.plan.runID, Shard: s, Files: map[string]fileFacts{}}
	for _, kind := range d.plan.Kinds() {
		st, err := os.Stat(ShardFile(dir, kind, s))
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		m.Files[kind] = fileFacts{Rows: rows[kind], Bytes: st.Size()}
	}
	return safefile.WriteAtomic(manifestPath(dir, s), func(w io.Writer) error {
		return json.NewEncoder(w).Encode(m)
	})
}

func (d RunDir) facts(kind string, s int) (fileFacts, error) {
	f, err := d.open(ShardFile("", kind, s))
	if err != nil {
		return fileFacts{}, fmt.Errorf("arena: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fileFacts{}, fmt.Errorf("arena: %w", err)
	}
	rows, err := datasets.CountRowsFile(f, schemaOf(kind))
	if err != nil {
		return fileFacts{}, err
	}
	return fileFacts{Rows: rows, Bytes: st.Size()}, nil
}

func schemaOf(kind string) string {
	switch kind {
	case "throws":
		return datasets.ThrowsSchema
	case "decisions":
		return datasets.DecisionsSchema
	}
	return datasets.MatchesSchema
}

// checkShard reports whether shard s's files are whole: the manifest is there and every file
// agrees with it (a missing or torn shard: false, and it is played again). A manifest of
// another run is an error wrapping ErrForeignShard.
func (d RunDir) checkShard(s int) (matches int64, ok bool, err error) {
	c, dir := d.plan, d.Path
	b, err := d.readDescription(manifestPath("", s))
	if err != nil {
		return 0, false, nil
	}
	var m shardManifest
	if json.Unmarshal(b, &m) != nil || m.Shard != s || len(m.Files) != len(c.Kinds()) {
		return 0, false, nil
	}
	if id := c.runID; m.Run != id {
		return 0, false, fmt.Errorf("%w in %s: shard %d was written by run %s, run.json describes run %s; "+
			"resume it with the settings it was started with, or start again with --force", ErrForeignShard, dir, s, m.Run, id)
	}
	for _, kind := range c.Kinds() {
		f, err := d.facts(kind, s)
		if err != nil || f != m.Files[kind] {
			return 0, false, nil
		}
	}
	return m.Files["matches"].Rows, true, nil
}
