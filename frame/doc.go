// Package frame draws a Kingoal match as a picture: the pitch with both line-ups by sector,
// the ball, the agents' names and the score, the period, the throws left, the moves left and
// the last throw (with its dice when they were rolled) — the rgb_array frames of the Python
// environments, which Gymnasium's RecordVideo turns into videos, and kingoal watch's GIFs.
//
// A Picture is a list of Shapes (rectangles, discs, lines of text, in pixels) before it is
// painted: Draw paints them, and the web app's live pitch draws the same list as SVG, so the
// PNG and the page show one geometry. Counters keep their names from one picture to the next
// (numbered from home's goal), so a drawing can move them.
//
// It reads the match only through env.State's accessors: it draws the rules, it does not
// know them.
package frame
