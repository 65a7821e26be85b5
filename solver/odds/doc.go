// Package odds computes the exact chances of a Kingoal match between two fixed line-ups:
// one throw's odds (ThrowOdds), the score and result of a match (MatchOdds, MatchSummary),
// the 121×121 odds matrix of every pair (Matrix, ComputeMatrix), the value of a state
// when neither side changes again (KeptValues), the objectives a coach may play for
// (Objective) and the shoot-out's law (ShootoutLaw).
//
// It knows no rule of its own: it reads env's throw odds, ball movement and period
// lengths, and enumerates env.State chance outcomes where a process has no closed form
// (the shoot-out). Every figure is checked against the simulator in the tests.
package odds
