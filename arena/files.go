package arena

import (
	"fmt"
	"path/filepath"
)

func ShardFile(dir, kind string, s int) string {
	return filepath.Join(dir, "shards", fmt.Sprintf("%s-%05d.parquet", kind, s))
}
