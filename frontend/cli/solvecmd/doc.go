// Package solvecmd is `kingoal solve`: the commands that compute exact answers — odds,
// the odds matrix, the line-up equilibrium, counters, one-sided policies and the
// substitution game — each mapping its flags to one solver call and rendering the answer
// (tables, JSON, Parquet and charts). New builds the command tree the root adds.
package solvecmd
