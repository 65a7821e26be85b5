// Package framed is the framing Kingoal's solved-game files share — game tables, policy tables,
// the game tables of a Dynamic side: a magic line, a version, a header of JSON, a zstd body and a
// SHA-256 of every byte before it. A reader bounds what a damaged file can make it hold and
// names every refusal with its kind's error.
package framed
