package env

// The random streams the environments derive from an episode's seed, named once (the
// splitmix constants of mix64 and SeededSource are arithmetic, not streams). Changing a
// value changes every episode.
const (
	streamDiceSecondWord uint64 = 0x5851f42d4c957f2d // the dice PCG's second seed word (ParallelEnv.Reset)
	streamOpponentReseed uint64 = 0x6a09e667f3bcc908 // the opponent's reseed at Env.Reset
)
