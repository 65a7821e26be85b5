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
	throws := maxThrows(r)
	goals := float32(maxGoals(r))
	low[15], high[15] = -goals/5, goals/5 // goal difference ÷ 5
	high[16], high[17] = goals/10, goals/10
	low[29] = -1 // possession
	high[35] = float32(throws) / float32(2*r.HalfThrows())
	return low, high
}

// maxThrows is the most throws a match under r can have (extra time included).
func maxThrows(r Rules) int {
	throws := 2 * r.HalfThrows()
	if r.Knockout {
		throws += 2 * r.ExtraThrows()
	}
	return throws
}

// maxGoals is the most goals one side can score under r (see ObservationBounds).
func maxGoals(r Rules) int {
	const throwsToGoal = Sectors - KickOffSector + 1 // midfield → 4 → 5 → goal
	return maxThrows(r) / throwsToGoal
}
