package agents

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/memo"
)

// readOnce opens the file name through s, and reads it with read unless c holds it already.
func readOnce[V any](c *memo.Cache[tableKey, V], s Setup, name string, read func(r io.ReaderAt, size int64) (V, error)) (V, error) {
	var zero V
	f, err := s.open(name)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	key, err := fileKey(f)
	if err != nil {
		return zero, err
	}
	return c.Get(s.context(), key, func() (V, error) { return read(f, key.size) })
}

// drawFrom draws a line-up from a mix (probabilities summing to 1).
func drawFrom(rng *rand.Rand, mix []env.Weighted) env.Lineup {
	u := rng.Float64()
	for _, w := range mix {
		if u < w.Prob {
			return w.Lineup
		}
		u -= w.Prob
	}
	return mix[len(mix)-1].Lineup
}

// fileKey names an open file as it is now: a changed file is read again.
func fileKey(f *os.File) (tableKey, error) {
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return tableKey{}, err
	}
	info, err := f.Stat()
	if err != nil {
		return tableKey{}, err
	}
	return tableKey{abs, info.Size(), info.ModTime()}, nil
}
