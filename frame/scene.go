package frame

import (
	"fmt"
	"image/color"
	"strings"

	"golang.org/x/image/font"

	"github.com/kingoal/kingoal/env"
)

// A Picture is what Draw paints: a state of a match, the caption of its last throw
// (env.Event.Describe's line; "" before the first) and, if known, the two agents' names.
type Picture struct {
	State     env.State
	LastThrow string
	Names     [2]string // home's and away's; "" writes HOME and AWAY
}

// Kind is what a Shape is.
type Kind string

// The kinds of shape.
const (
	Rect Kind = "rect" // X, Y its top-left corner, W × H
	Disc Kind = "disc" // X, Y its centre, radius R inside an Outline of ink
	Text Kind = "text" // X the start of its baseline Y, W wide: 7 × 13 pixel characters magnified Scale times
)

// A Shape is one thing in the picture, in its pixels. Draw paints a Picture's shapes; the
// web app's live pitch draws the same list as SVG, so both show one geometry.
type Shape struct {
	Kind Kind `json:"k"`
	// ID names what changes from one picture of a match to the next ("" for the pitch): the
	// texts ("score", "clock", "last", "next"), the counters ("home-0" … in order from home's
	// goal, so a counter moved between sectors keeps its name) and the "ball".
	ID      string `json:"id,omitempty"`
	X       int    `json:"x"`
	Y       int    `json:"y"`
	W       int    `json:"w,omitempty"`
	H       int    `json:"h,omitempty"`
	R       int    `json:"r,omitempty"`
	Outline int    `json:"o,omitempty"`
	Fill    Colour `json:"f"`
	Text    string `json:"t,omitempty"`
	Scale   int    `json:"s,omitempty"`
}

// Colour is a colour of the picture, opaque; as text (JSON) it is "#rrggbb".
type Colour color.RGBA

// MarshalText writes c as "#rrggbb".
func (c Colour) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "#%02x%02x%02x", c.R, c.G, c.B), nil
}

// Ink is the colour of a disc's outline.
var Ink = Colour(ink)

// HomeColour and AwayColour are the sides' colours in the picture: red and blue.
var HomeColour, AwayColour = Colour(side[env.Home]), Colour(side[env.Away])

// maxName bounds a name in the header: both fit on its line.
const maxName = 16

// Shapes lists the picture's shapes, back to front.
func (p Picture) Shapes() []Shape {
	s := p.State
	var out []Shape
	out = append(out, rect(0, 0, Width, Height, background, ""))
	out = p.header(out)
	out = pitch(out, s)
	caption := p.LastThrow
	if caption == "" {
		caption = "no throw yet"
	}
	// The last throw or decision takes two lines where one is too short: both sides'
	// changes at a break are ~100 characters, and a line-up is never cut (issue 64).
	last := wrapLine(ascii.Replace("last: "+caption), lineChars)
	out = append(out, text("last", pitchLeft, pitchTop+pitchHeight+18, 1, dim, last[0]))
	if len(last) > 1 {
		out = append(out, text("last-more", pitchLeft+2*7, pitchTop+pitchHeight+33, 1, dim, last[1]))
	}
	return append(out, text("next", pitchLeft, pitchTop+pitchHeight+52, 1, dim, fitLine(nextLine(s))))
}

// lineChars is how many characters a line under the pitch holds (the font is monospaced).
const lineChars = (Width - 2*pitchLeft) / 7

// fitLine cuts a line under the pitch to the picture's width (the whole of it is in the
// event list beside the picture).
func fitLine(s string) string { return shorten(ascii.Replace(s), lineChars) }

// wrapLine breaks s into at most two lines of n characters, the second indented by two: at
// the last "; " (between the sides) that fits, else the last ", " or space. What two lines
// cannot hold is cut (no event of the rules comes near: the longest, a dice throw naming
// twenty dice, is ~110 characters).
func wrapLine(s string, n int) []string {
	r := []rune(s)
	if len(r) <= n {
		return []string{s}
	}
	head := string(r[:n])
	for _, sep := range []string{"; ", ", ", " "} {
		if i := strings.LastIndex(head, sep); i > 0 {
			return []string{strings.TrimRight(s[:i+len(sep)], " "), shorten(s[i+len(sep):], n-2)}
		}
	}
	return []string{head, shorten(string(r[n:]), n-2)}
}

func (p Picture) header(out []Shape) []Shape {
	s := p.State
	names := [2]string{"HOME", "AWAY"}
	for i, n := range p.Names {
		if n != "" {
			names[i] = shorten(n, maxName)
		}
	}
	score := fmt.Sprintf(" %d - %d ", s.Goals(env.Home), s.Goals(env.Away))
	if taken, scored := s.Shootout(); taken[env.Home]+taken[env.Away] > 0 {
		score = fmt.Sprintf(" %d - %d (pens %d-%d) ", s.Goals(env.Home), s.Goals(env.Away), scored[env.Home], scored[env.Away])
	}
	x := pitchLeft
	for _, part := range []Shape{
		text("home", x, 30, 2, side[env.Home], names[env.Home]),
		text("score", 0, 30, 2, chalk, score),
		text("away", 0, 30, 2, side[env.Away], names[env.Away]),
	} {
		part.X = x
		x += part.W
		out = append(out, part)
	}
	when := s.Period().String()
	if s.Node() != env.Terminal && s.Period() != env.PreMatch {
		when += fmt.Sprintf(", %s left", env.Plural(s.ThrowsLeft(), "throw"))
	}
	return append(out, text("clock", pitchLeft, 50, 1, dim, fmt.Sprintf("%s   moves left %d v %d   %s v %s", when,
		s.MovesLeft(env.Home), s.MovesLeft(env.Away), s.Mode(env.Home), s.Mode(env.Away))))
}

func pitch(out []Shape, s env.State) []Shape {
	mid := pitchTop + pitchHeight/2
	for k := 1; k <= env.Sectors; k++ { // k in home coordinates: 1 is home's defence, on the left
		x0 := pitchLeft + (k-1)*sectorWidth
		out = append(out, rect(x0, pitchTop, sectorWidth, pitchHeight, grass[k%2], ""))
		if k > 1 {
			out = append(out, rect(x0-1, pitchTop, 2, pitchHeight, chalk, ""))
		}
		out = append(out, text("", x0+sectorWidth/2-3, pitchTop+pitchHeight-6, 1, chalk, fmt.Sprint(k)))
	}
	out = append(out, rect(pitchLeft, mid, Width-2*pitchLeft, 1, chalk, "")) // halfway between the sides' rows
	for p, x := range [2]int{4, Width - pitchLeft} {                         // the goals, home's on the left
		out = append(out, rect(x, mid-40, pitchLeft-4, 80, chalk, ""), rect(x+3, mid-36, pitchLeft-10, 72, side[p], ""))
	}
	for p := env.Home; p <= env.Away; p++ {
		i := 0 // counters are numbered from home's goal
		for k := 1; k <= env.Sectors; k++ {
			for j := range s.Lineup(p).Sector(env.HomeSector(p, k)) { // a side's own sector k' is home's HomeSector(p, k')
				x, y := CounterAt(p, k, j)
				out = append(out, Shape{Kind: Disc, ID: fmt.Sprintf("%s-%d", p, i), X: x, Y: y, R: counterR, Outline: 1, Fill: Colour(side[p])})
				i++
			}
		}
	}
	if s.Node() != env.Terminal {
		cx := pitchLeft + (s.Ball()-1)*sectorWidth + sectorWidth/2
		out = append(out, Shape{Kind: Disc, ID: "ball", X: cx, Y: mid, R: ballR, Outline: 2, Fill: Colour(chalk)})
	}
	return out
}

// CounterAt is the centre of the j-th counter (from 0) of side p in sector k (1 … 5, home's
// coordinates: 1 is home's defence, on the left): rows of three, home's above halfway.
func CounterAt(p env.Player, k, j int) (x, y int) {
	const step = 2*counterR + 8
	top := pitchTop + 14
	if p == env.Away {
		top = pitchTop + pitchHeight/2 + 14
	}
	return pitchLeft + (k-1)*sectorWidth + sectorWidth/2 + (j%3-1)*step, top + counterR + j/3*step
}

// SideArea is the part of sector k (1 … 5, home's coordinates) where side p's counters stand:
// its half of the sector, between the halfway line and the pitch's edge.
func SideArea(p env.Player, k int) (x0, y0, x1, y1 int) {
	x0, y0 = pitchLeft+(k-1)*sectorWidth, pitchTop
	if p == env.Away {
		y0 = pitchTop + pitchHeight/2
	}
	return x0, y0, x0 + sectorWidth, y0 + pitchHeight/2
}

// CounterRadius is a counter's radius in pixels, inside its one-pixel outline.
const CounterRadius = counterR

func rect(x, y, w, h int, c color.RGBA, id string) Shape {
	return Shape{Kind: Rect, ID: id, X: x, Y: y, W: w, H: h, Fill: Colour(c)}
}

// ascii writes an arrow as "->" and an en dash as "-": the font is ASCII. Lines are
// measured after it.
var ascii = strings.NewReplacer("→", "->", "–", "-")

// text is a line of text, in ASCII.
func text(id string, x, y, scale int, c color.RGBA, s string) Shape {
	s = ascii.Replace(s)
	return Shape{Kind: Text, ID: id, X: x, Y: y, W: font.MeasureString(face, s).Ceil() * scale, Scale: scale, Fill: Colour(c), Text: s}
}

// shorten cuts s to n characters, the last of them "~" when it was longer.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "~"
}

// nextLine says what the match waits for.
func nextLine(s env.State) string {
	switch s.Node() {
	case env.Terminal:
		if w, ok := s.Winner(); ok {
			return "full time: " + w.String() + " wins"
		}
		return "full time: a draw"
	case env.Decision:
		var who []string
		for p := env.Home; p <= env.Away; p++ {
			if s.Acting(p) {
				who = append(who, p.String())
			}
		}
		return fmt.Sprintf("next: %s, %s to decide", s.Decision(), strings.Join(who, " and "))
	}
	return "next: a throw"
}
