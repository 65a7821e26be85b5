package env

// ObservationBounds returns the true lower and upper bound of every slot of
// Observation.Vector under r (for a Gymnasium Box): most slots lie in [0, 1] or [−1, 1];
// the goal slots are bounded by the most goals the match's throws allow. From a kick-off
// the ball needs three won throws to score (midfield, sector 4, sector 5, goal), and every
// goal sends it back to midfield, so a side scores at most ⌊throws ÷ 3⌋ goals.
func ObservationBounds(r Rules) (low, high [ObservationSize]float32) {
	for i := range high {
		high[i] = 1
	}
	throws := 2 * r.HalfThrows()
	if r.Knockout {
		throws += 2 * r.ExtraThrows()
	}
	const throwsToGoal = Sectors - KickOffSector + 1 // midfield → 4 → 5 → goal
	goals := float32(throws / throwsToGoal)
	low[15], high[15] = -goals/5, goals/5 // goal difference ÷ 5
	high[16], high[17] = goals/10, goals/10
	low[29] = -1 // possession
	high[35] = float32(throws) / float32(2*r.HalfThrows())
	return low, high
}
