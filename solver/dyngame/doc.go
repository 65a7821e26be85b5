// Package dyngame solves Kingoal's game with a Dynamic coach on either side. After the
// kick-off's hidden choice the game has perfect information — each shift and each break a
// max or a min — so one backward induction solves it, possession in the state under the
// turnover trigger, keeping one byte a decision for Game.Choice; the kick-off is a matrix
// game over both sides' first line-ups, and the answer is checked by best responses like
// game.Solve's. It takes game.Problem and reuses the game's recursion and checks.
package dyngame
