// Package frame draws a Kingoal match as a picture: the pitch with both line-ups by sector,
// the ball, the score, the period, the throws left, the moves left and the last throw (with
// its dice when they were rolled) — the rgb_array frames of the Python environments, which
// Gymnasium's RecordVideo turns into videos.
//
// It reads the match only through env.State's accessors: it draws the rules, it does not
// know them.
package frame
