package env

// Weighted is a line-up with its probability in a mixed strategy: the form every mixed
// answer takes, at any decision and in every solver.
type Weighted struct {
	Lineup Lineup
	Prob   float64
}
