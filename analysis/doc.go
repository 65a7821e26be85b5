// Package analysis reads a match against the solved substitution game, as a chess engine
// reads a game: at every kick-off and break, each side's choice beside the equilibrium's
// mix and the value it gives away against the other side's mix — graded none, inaccuracy,
// mistake or blunder — and the exact value to home after every event (the match's value
// curve), with a summary per agent.
//
// The values come from a game.Game, solved or read from a table: a decision's payoffs are
// game.Game.ChoiceValues, a moment's value game.Game.ValueOf. The game must be Basic on
// both sides; a Dynamic shift is not judged.
package analysis
