// Package columnar is the datasets package's own Parquet writer for flat row types written
// by the million (match and throw rows). parquet-go's row path spends most of its time on
// reflection, a Go map per dictionary value and compressing plain integers (BENCHMARKS.md,
// issue 14), so here rows are split into typed columns by code written for each row type
// (the datasets package's splitters, with Fill, FillStrings and FillLists), integers are
// delta-encoded and strings dictionary-encoded before zstd, and the file is the same
// Parquet parquet-go would write — the same schema elements (taken from parquet-go
// itself), read by parquet-go, DuckDB and Arrow alike. Statistics: min/max on the integer
// columns a Shape names as Bounded; DuckDB prunes row groups with them.
//
// It knows Parquet and nothing of Kingoal: the schemas, their names and versions live in
// datasets.
package columnar
