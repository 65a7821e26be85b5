package arena

// The random streams of a run, each a constant mixed with the run's seed (env.SeededSource):
// named here, once, so no two uses share a stream by accident and a reader sees them all.
// Changing a value changes every run's matches.
const (
	streamFixtureSides uint64 = 0xa9e7 // a fixture's two agents' seeds (ID<<1, ID<<1|1)
	streamBracketDraw  uint64 = 0xb7ac // a cup's drawn bracket
	streamWorldCupDraw uint64 = 0x6c0f // a World Cup's group draw
	streamTieBreakLots uint64 = 0x1075 // lots that separate agents level on every criterion
	streamRatings      uint64 = 0xb007 // the ratings' bootstrap resamples
	streamMatchDice    uint64 = 0      // a match's dice, from its fixture's DiceSeed (not the run's seed)
)
