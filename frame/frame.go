package frame

import (
	"image"
	"image/color"

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
	face       = basicfont.Face7x13
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
	return Picture{State: s, LastThrow: lastThrow}.Draw()
}

// Draw paints the picture's shapes.
func (p Picture) Draw() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	for _, sh := range p.Shapes() {
		c := color.RGBA(sh.Fill)
		switch sh.Kind {
		case Rect:
			fill(img, image.Rect(sh.X, sh.Y, sh.X+sh.W, sh.Y+sh.H), c)
		case Disc:
			disc(img, sh.X, sh.Y, sh.R+sh.Outline, ink)
			disc(img, sh.X, sh.Y, sh.R, c)
		case Text:
			paint(img, sh.X, sh.Y, sh.Scale, c, sh.Text)
		}
	}
	return img
}

// AppendRGB appends img's pixels to dst as rows of R, G, B bytes (NumPy's uint8[H, W, 3]).
func AppendRGB(dst []byte, img *image.RGBA) []byte {
	for i := 0; i < len(img.Pix); i += 4 {
		dst = append(dst, img.Pix[i], img.Pix[i+1], img.Pix[i+2])
	}
	return dst
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

// paint writes s with its baseline at y, in the 7×13 bitmap font magnified scale times.
func paint(img *image.RGBA, x, y, scale int, c color.RGBA, s string) {
	w := font.MeasureString(face, s).Ceil()
	small := image.NewRGBA(image.Rect(0, 0, w, face.Height))
	d := font.Drawer{Dst: small, Src: image.NewUniform(c), Face: face, Dot: fixed.P(0, face.Ascent)}
	d.DrawString(s)
	at := image.Rect(x, y-face.Ascent*scale, x+w*scale, y+(face.Height-face.Ascent)*scale)
	xdraw.NearestNeighbor.Scale(img, at, small, small.Bounds(), xdraw.Over, nil)
}
