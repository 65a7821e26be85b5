package frame

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/kingoal/kingoal/env"
)

// The picture's size in pixels: 16:9, a multiple of 16 each way (video encoders' blocks).
const (
	Width  = 640
	Height = 368
)

var (
	background = color.RGBA{0x1c, 0x1f, 0x24, 0xff}
	grass      = [2]color.RGBA{{0x2e, 0x7d, 0x32, 0xff}, {0x38, 0x8e, 0x3c, 0xff}}
	chalk      = color.RGBA{0xf5, 0xf5, 0xf5, 0xff}
	ink        = color.RGBA{0x10, 0x10, 0x10, 0xff}
	dim        = color.RGBA{0xb0, 0xb8, 0xc0, 0xff}
	side       = [2]color.RGBA{{0xe5, 0x39, 0x35, 0xff}, {0x1e, 0x88, 0xe5, 0xff}} // home red, away blue
)

// Layout, in pixels: a header, the pitch of five sectors between two goals, a footer.
const (
	headerHeight = 60
	pitchTop     = headerHeight
	pitchHeight  = 248
	pitchLeft    = 20
	sectorWidth  = (Width - 2*pitchLeft) / env.Sectors
	counterR     = 9
	ballR        = 11
)

// Draw returns the picture of state s; lastThrow, if not "", is the caption of the last
// chance node (env.Event.Describe's line).
func Draw(s env.State, lastThrow string) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	fill(img, img.Bounds(), background)
	drawHeader(img, s)
	drawPitch(img, s)
	caption := lastThrow
	if caption == "" {
		caption = "no throw yet"
	}
	text(img, pitchLeft, pitchTop+pitchHeight+22, 1, dim, "last: "+caption)
	text(img, pitchLeft, pitchTop+pitchHeight+42, 1, dim, nextLine(s))
	return img
}

// AppendRGB appends img's pixels to dst as rows of R, G, B bytes (NumPy's uint8[H, W, 3]).
func AppendRGB(dst []byte, img *image.RGBA) []byte {
	for i := 0; i < len(img.Pix); i += 4 {
		dst = append(dst, img.Pix[i], img.Pix[i+1], img.Pix[i+2])
	}
	return dst
}

func drawHeader(img *image.RGBA, s env.State) {
	score := fmt.Sprintf("HOME %d - %d AWAY", s.Goals(env.Home), s.Goals(env.Away))
	if taken, scored := s.Shootout(); taken[env.Home]+taken[env.Away] > 0 {
		score += fmt.Sprintf("  (pens %d-%d)", scored[env.Home], scored[env.Away])
	}
	text(img, pitchLeft, 30, 2, chalk, score)
	when := s.Period().String()
	if s.Node() != env.Terminal && s.Period() != env.PreMatch {
		when += fmt.Sprintf(", %s left", plural(s.ThrowsLeft(), "throw"))
	}
	text(img, pitchLeft, 50, 1, dim, fmt.Sprintf("%s   moves left %d v %d   %s v %s", when,
		s.MovesLeft(env.Home), s.MovesLeft(env.Away), s.Mode(env.Home), s.Mode(env.Away)))
}

func drawPitch(img *image.RGBA, s env.State) {
	mid := pitchTop + pitchHeight/2
	for k := 1; k <= env.Sectors; k++ { // k in home coordinates: 1 is home's defence, on the left
		x0 := pitchLeft + (k-1)*sectorWidth
		fill(img, image.Rect(x0, pitchTop, x0+sectorWidth, pitchTop+pitchHeight), grass[k%2])
		if k > 1 {
			fill(img, image.Rect(x0-1, pitchTop, x0+1, pitchTop+pitchHeight), chalk)
		}
		text(img, x0+sectorWidth/2-3, pitchTop+pitchHeight-6, 1, chalk, fmt.Sprint(k))
		for p := env.Home; p <= env.Away; p++ {
			n := s.Lineup(p).Sector(env.HomeSector(p, k)) // a side's own sector k' is home's HomeSector(p, k')
			top := pitchTop + 14
			if p == env.Away {
				top = mid + 14
			}
			counters(img, x0, top, n, side[p])
		}
	}
	fill(img, image.Rect(pitchLeft, mid, Width-pitchLeft, mid+1), chalk) // halfway between the sides' rows
	for p, x := range [2]int{4, Width - pitchLeft} {                     // the goals, home's on the left
		fill(img, image.Rect(x, mid-40, x+pitchLeft-4, mid+40), chalk)
		fill(img, image.Rect(x+3, mid-36, x+pitchLeft-7, mid+36), side[p])
	}
	if s.Node() != env.Terminal {
		cx := pitchLeft + (s.Ball()-1)*sectorWidth + sectorWidth/2
		disc(img, cx, mid, ballR+2, ink)
		disc(img, cx, mid, ballR, chalk)
	}
}

// counters draws n counters in rows of three from (x0, top) within a sector.
func counters(img *image.RGBA, x0, top, n int, c color.RGBA) {
	const step = 2*counterR + 8
	for i := range n {
		row, col := i/3, i%3
		cx := x0 + sectorWidth/2 + (col-1)*step
		cy := top + counterR + row*step
		disc(img, cx, cy, counterR+1, ink)
		disc(img, cx, cy, counterR, c)
	}
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

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func disc(img *image.RGBA, cx, cy, r int, c color.RGBA) {
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			if x*x+y*y <= r*r {
				img.SetRGBA(cx+x, cy+y, c)
			}
		}
	}
}

// text writes s with its baseline at y, in the 7×13 bitmap font magnified scale times
// (ASCII: an arrow becomes "->", an en dash "-").
func text(img *image.RGBA, x, y, scale int, c color.RGBA, s string) {
	s = strings.NewReplacer("→", "->", "–", "-").Replace(s)
	face := basicfont.Face7x13
	w := font.MeasureString(face, s).Ceil()
	small := image.NewRGBA(image.Rect(0, 0, w, face.Height))
	d := font.Drawer{Dst: small, Src: image.NewUniform(c), Face: face, Dot: fixed.P(0, face.Ascent)}
	d.DrawString(s)
	at := image.Rect(x, y-face.Ascent*scale, x+w*scale, y+(face.Height-face.Ascent)*scale)
	xdraw.NearestNeighbor.Scale(img, at, small, small.Bounds(), xdraw.Over, nil)
}
