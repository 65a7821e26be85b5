// Package arenabeam runs kingoal arenas and dataset generation as Apache Beam pipelines, so
// a competition too big for one machine runs on an existing engine (Flink, Spark, Dataflow)
// — or, with the embedded prism runner, on this one. It is its own Go module: Beam adds
// ~100 MB to a binary and minutes to a cold build, which the core module and the kingoal
// binary do without.
//
// The pipeline reuses the arena package for everything that defines the result — the
// fixtures and their per-match seeds, the agents, the shard files and their names, the final
// concatenation and run.json — so a Beam run and a local run of the same configuration write
// the same bytes. Shard files are named by their shard and written atomically: a retried
// bundle replaces its output instead of adding to it.
package arenabeam
