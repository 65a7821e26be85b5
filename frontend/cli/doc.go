// Package cli is the kingoal command line (cmd/kingoal is its main): one file per command,
// each with an options struct and a run function writing to injected Streams; the work is
// done by the library packages. The arena and dataset-generation commands take the engine
// that plays the competition (Engine), so another front end — kingoal-beam, in its own
// module — offers the same flags, checks and leaderboard on a distributed runner.
package cli
