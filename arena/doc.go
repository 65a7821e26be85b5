// Package arena runs competitions between agents — round-robin leagues, gauntlets, knockout
// cups and World Cups (group stages, then a bracket) — in parallel and reproducibly, writes every match to Parquet
// (datasets.MatchRow), and ranks the agents.
//
// A run is data, then a plan, then a store: a Config describes the competition; NewPlan
// validates it once, builds every agent once under the caller's context and lays the run
// out (units, matches per unit, shards, the run's identity); the Plan's RunDir owns the
// directory — run.json, shards and their manifests, start, resume and finish — and its
// runner hands units to Workers, each with agents of its own. Run does all of it in one
// call; kingoal-beam drives the same Plan, RunDir and Worker from a Beam pipeline.
//
// Fairness: match m of a pairing takes its dice from (run seed, pairing, leg), where a
// fixture and its mirror (sides swapped) share a leg, so luck cancels between the two
// (common random numbers); a cup's tie takes them from (run seed, cup, round, tie). Each
// agent's own randomness comes from (run seed, match, side). Match IDs are fixed before
// anything is played: a cup of n agents owns n − 1 consecutive IDs, a World Cup its group
// matches and then its bracket's.
// Nothing depends on the number of workers or on which worker played a match: every worker
// builds its own agents once and reseeds them before each match. The same seed gives the same
// bytes.
//
// Durability: matches are written in shards of about ShardSize (LoggedShardSize with logs;
// whole cups), each atomically when complete and encoded in the background while play goes
// on; a cancelled run (Ctrl-C) also saves the finished matches of its open shards, so it
// loses none, and a killed run loses at most its open shards. Resume plays only the units
// (fixtures, cups) missing from the shards on disk; then the shards are concatenated into
// matches.parquet by copying their compressed row groups.
package arena
