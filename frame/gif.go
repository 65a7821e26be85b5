package frame

import (
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"io"

	"github.com/kingoal/kingoal/env"
)

// An Animation gathers pictures (Draw's) for an animated GIF: one frame an event, the last
// one held longer.
type Animation struct {
	Names [2]string // the agents' names in every picture's header; "" writes HOME and AWAY
	g     gif.GIF
}

// gifPalette holds the picture's own colours first (so they come out exact), then web-safe
// ones for what scaling the font blends.
var gifPalette = func() color.Palette {
	p := color.Palette{background, grass[0], grass[1], chalk, ink, dim, side[0], side[1]}
	for _, c := range palette.WebSafe {
		if len(p) == 256 {
			break
		}
		p = append(p, c)
	}
	return p
}()

// Add appends the picture of s with its caption, shown for delay hundredths of a second.
func (a *Animation) Add(s env.State, caption string, delay int) {
	img := Picture{State: s, LastThrow: caption, Names: a.Names}.Draw()
	p := image.NewPaletted(img.Bounds(), gifPalette)
	draw.Draw(p, p.Rect, img, image.Point{}, draw.Src) // nearest colour: the picture has few
	a.g.Image = append(a.g.Image, p)
	a.g.Delay = append(a.g.Delay, delay)
}

// Frames is the number of pictures added.
func (a *Animation) Frames() int { return len(a.g.Image) }

// Encode writes the animation, looping, its last frame held hold hundredths of a second.
func (a *Animation) Encode(w io.Writer, hold int) error {
	if n := len(a.g.Delay); n > 0 {
		a.g.Delay[n-1] = max(a.g.Delay[n-1], hold)
	}
	return gif.EncodeAll(w, &a.g)
}
