package match

// The random streams of a match played here, each mixed with its seed (env.SeededSource):
// named once, as in each library package's seeds.go. Changing a value changes what a seed
// plays.
const (
	streamDice         uint64 = 0 // the match's dice
	streamHomeAgent    uint64 = 1 // two agents: the home agent's own randomness
	streamAwayAgent    uint64 = 2 // two agents: the away agent's; a person's match: the opponent's
	streamPlayOpponent        = streamAwayAgent
)
