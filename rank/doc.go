// Package rank ranks agents from their head-to-head table by game theory rather than by
// ratings: α-Rank (the stationary mass of the table's evolutionary dynamics) and Nash
// averaging (each agent's score against the maximum-entropy Nash equilibrium of the
// meta-game). Both are exact on a table whose every pair of agents has met; the arena's
// leaderboards carry them beside the Bradley–Terry ratings.
package rank
