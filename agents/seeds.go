package agents

// The random streams of the agents and of their evaluations, each a constant mixed with a
// seed (env.SeededSource): named here, once, so no two uses share a stream by accident.
// Changing a value changes every agent's play.
const (
	streamRandom    uint64 = 0x4a6  // Random's draws
	streamNash      uint64 = 0x7a5  // Nash's draws from the equilibrium mix
	streamTable     uint64 = 0x7a6  // Table's draws from its mixes
	streamNetwork   uint64 = 0x7a7  // Network's draws from its mixes
	streamOptimal   uint64 = 0x0971 // Optimal's draws from a mixed kick-off
	streamQLearning uint64 = 0x9e41 // QLearning's exploration
	streamMCTS      uint64 = 0x5c75 // MCTS's choices
	streamMCTSDice  uint64 = 0x5c76 // MCTS's simulated dice
	streamUCT       uint64 = 0x3c75 // UCT's choices
	streamUCTDice   uint64 = 0x3c76 // UCT's simulated dice
)
