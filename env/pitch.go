package env

// The pitch: sectors in each side's coordinates and how a won throw moves the ball (rules §1, §4).

// HomeSector converts sector k of player p's own pitch (1 = p's defence) to home
// coordinates; the map is its own inverse (rules §1: a player's sector k is the opponent's
// 6−k).
func HomeSector(p Player, k int) int {
	if p == Away {
		return Sectors + 1 - k
	}
	return k
}

// KickOffSector is where the ball is placed at every kick-off: the start of each period and
// after each goal (home coordinates; it is midfield for both sides).
const KickOffSector = midfield

// MoveBall applies a throw won by winner to the ball in home-sector ball (rules §4): the
// winner moves it one sector towards the opponent's goal, or scores from the opponent's
// sector 1, after which the ball is back at KickOffSector.
func MoveBall(ball int, winner Player) (next int, goal bool) {
	if winner == Home {
		if ball == Sectors {
			return midfield, true
		}
		return ball + 1, false
	}
	if ball == 1 {
		return midfield, true
	}
	return ball - 1, false
}

// ballAfter is MoveBall as a table, 0 where the throw scores: the fast path's throws look
// the sector up instead of branching on the winner.
var ballAfter = func() (t [Sectors + 1][2]uint8) {
	for b := 1; b <= Sectors; b++ {
		for p := Home; p <= Away; p++ {
			if next, goal := MoveBall(b, p); !goal {
				t[b][p] = uint8(next)
			}
		}
	}
	return t
}()

// ballAfterLoser is ballAfter indexed by the loser (1 − the winner): plainRun indexes it with
// the borrow it computes, one instruction fewer on the path from one throw to the next.
var ballAfterLoser = func() (t [Sectors + 1][2]uint8) {
	for b := range t {
		t[b] = [2]uint8{ballAfter[b][Away], ballAfter[b][Home]}
	}
	return t
}()
