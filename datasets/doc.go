// Package datasets holds Kingoal's Parquet schemas and the code that writes and reads them.
// Every file carries its schema name and version in the key-value metadata entry
// "kingoal.schema" (for example "matrix/1"); readers refuse files of another schema, and
// files that are not Parquet or are cut short, with an error naming the file.
//
// Files are written atomically (internal/safefile's AtomicFile): to a temporary file in the
// same directory, synced, then renamed into place, so an interrupted run never leaves a
// half-written file under the final name. The package holds Parquet and nothing else: atomic
// writes of other files and the process locks of outputs are safefile's.
//
// Schemas (one row per record; every column required; the Go structs document each column):
//
//	matches/2         MatchRow: one arena match (kingoal arena: matches.parquet)
//	throws/2          ThrowRow: one throw, coin or penalty kick (kingoal arena --log-throws); the dice shown as lists
//	decisions/1       DecisionRow: one agent decision, offline-RL shaped (--log-decisions);
//	                  observation and mask are LIST columns
//	matrix/1          MatrixRow: the exact odds of one pairing of line-ups (kingoal solve matrix)
//	policy/1          PolicyRow: one state of an optimal policy (kingoal solve policy)
//	learning-curve/3  LearningCurveRow: one evaluation during training (kingoal train), with its exact exploitability
//	exploitability-curve/2  ExploitabilityCurveRow: one iteration of a full-width learner (kingoal train fictitious|regret|psro)
//	bench-curve/2     BenchCurveRow: one measurement of a learner in a benchmark suite (kingoal bench, kingoal.bench)
//	equilibrium/1     EquilibriumRow: a line-up of an equilibrium mix (kingoal solve equilibrium --out)
//	ratings/3         RatingRow: an agent's rating with its interval and its exploitability (kingoal arena: ratings.parquet)
//
// Readers: ReadParquet and ScanParquet (typed, schema-checked), ScanRecords (any flat file
// with optional LIST columns, typed cells: what kingoal datasets inspect and export use).
//
// Writers: ParquetWriter and WriteParquet. Match and throw rows, which the arena writes by
// the million, go through a columnar writer of our own (internal/columnar, which knows
// Parquet and nothing of the schemas; the row splitters are split.go): rows split into
// typed columns without reflection, integers DELTA_BINARY_PACKED, strings in dictionaries
// (RLE_DICTIONARY), every chunk zstd; ThrowRecord is a throw in 48 bytes without pointers,
// written as the ThrowRow it stands for. Other rows go through parquet-go's writer. Either
// way the file is plain Parquet of the same schema: the encoding is the writer's business,
// the columns are the schema's.
//
// The package depends on nothing of the toolkit but env types; it is safe for concurrent
// use on different files.
package datasets
