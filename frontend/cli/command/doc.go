// Package command is what every kingoal command shares, and kingoal-beam's too: the streams
// a command writes to, usage errors and their exit codes (Usage, Usagef: exit 2), the
// common flags (rule knobs, seed, workers, run directories, JSON), the rendering of tables,
// JSON without negative zeros and progress bars, and the guards of output files. The
// commands themselves are in package cli.
package command
