// Command kingoal is the command-line interface of the Kingoal toolkit.
//
//	kingoal rules [rule flags]          the rules, every knob and its default
//	kingoal lineups [--json]            the 121 line-ups and their stable indices
//	kingoal simulate [HOME [AWAY]] ...  Monte Carlo of matches between fixed line-ups
//
// Every command that plays takes the rule flags (--knockout, --ties-count,
// --throws-per-half, --extra-throws, --moves, --home-mode, --away-mode,
// --dynamic-trigger, --points). Data goes to standard output, progress and status to
// standard error; bad input exits with code 2 and one line on standard error.
//
// The commands live in internal/cli (shared with kingoal-beam, which runs the same arena
// and dataset generation on Apache Beam); the work is done by the library packages.
package main
