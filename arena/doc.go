// Package arena runs competitions between agents — for now round-robin leagues — in
// parallel and reproducibly, writes every match to Parquet (datasets.MatchRow), and ranks
// the agents.
//
// Fairness: match m of a pairing takes its dice from (run seed, pairing, leg), where a
// fixture and its mirror (sides swapped) share a leg, so luck cancels between the two
// (common random numbers); each agent's own randomness comes from (run seed, match, side).
// Nothing depends on the number of workers or on which worker played a match: every worker
// builds its own agents once and reseeds them before each match. The same seed gives the same
// bytes.
//
// Durability: matches are written in shards of ShardSize, each atomically when complete; a
// cancelled run (Ctrl-C) also saves the finished matches of its open shards, so it loses
// none, and a killed run loses at most its open shards. Resume plays only the matches
// missing from the shards on disk, then the shards are merged into matches.parquet.
package arena
