package cli

// The random streams of the commands that play one match themselves (play, watch), each
// mixed with --seed (env.SeededSource): named once, as in each library package's seeds.go.
// Changing a value changes what a seed plays.
const (
	streamMatchDice    uint64 = 0 // the match's dice (play, watch)
	streamHomeAgent    uint64 = 1 // watch: the home agent's own randomness
	streamAwayAgent    uint64 = 2 // watch: the away agent's; play: the opponent's
	streamPlayOpponent        = streamAwayAgent
)
