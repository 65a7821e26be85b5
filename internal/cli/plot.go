package cli

import (
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
)

// grid adapts a function of (column, row) to gonum's plotter.GridXYZ.
type grid struct {
	cols, rows int
	x, y       func(int) float64
	z          func(c, r int) float64
}

func (g grid) Dims() (int, int)        { return g.cols, g.rows }
func (g grid) Z(c, r int) float64      { return g.z(c, r) }
func (g grid) X(c int) float64         { return g.x(c) }
func (g grid) Y(r int) float64         { return g.y(r) }
func identity(i int) float64           { return float64(i) }
func offsetBy(d int) func(int) float64 { return func(i int) float64 { return float64(i + d) } }

// heatmap describes one PNG heat map with a colour bar; the scale is symmetric around 0
// (blue below, red above) from −limit to +limit.
type heatmap struct {
	title, xLabel, yLabel, barLabel string
	g                               grid
	limit                           float64
}

// writePNG renders h to path atomically.
func (h heatmap) writePNG(path string) error {
	cm := moreland.SmoothBlueRed()
	cm.SetMin(-h.limit)
	cm.SetMax(h.limit)
	p := plot.New()
	p.Title.Text = h.title
	p.X.Label.Text = h.xLabel
	p.Y.Label.Text = h.yLabel
	hm := plotter.NewHeatMap(h.g, cm.Palette(255))
	hm.Min, hm.Max = -h.limit, h.limit
	p.Add(hm)
	bar := plot.New()
	bar.HideX()
	bar.Y.Label.Text = h.barLabel
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	const width, height, barWidth = 9 * vg.Inch, 7 * vg.Inch, 1.3 * vg.Inch
	img := vgimg.New(width, height)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -barWidth, 0, 0))
	bar.Draw(draw.Crop(dc, width-barWidth, 0, 0, -0.6*vg.Inch))
	return datasets.WriteAtomic(path, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
}

// series is one line of a line chart.
type series struct {
	name string
	xy   plotter.XYs
}

// lineChart writes a PNG line chart of the series to path atomically.
func lineChart(path, title, xLabel, yLabel string, lines ...series) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.Top = true
	p.Legend.YOffs = -0.9 * vg.Inch // below the lines that run near the top
	for i, s := range lines {
		if len(s.xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(s.name, l)
	}
	p.Add(plotter.NewGrid())
	w, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, "png")
	if err != nil {
		return err
	}
	return datasets.WriteAtomic(path, func(out io.Writer) error {
		_, err := w.WriteTo(out)
		return err
	})
}

// ratingBars adapts ratings to gonum's XYer and YErrorer: x is the rank.
type ratingBars []arena.Rating

func (r ratingBars) Len() int                    { return len(r) }
func (r ratingBars) XY(i int) (float64, float64) { return float64(i), r[i].Rating }
func (r ratingBars) YError(i int) (float64, float64) {
	return r[i].Rating - r[i].Low, r[i].High - r[i].Rating
}

// ratingsChart draws the ratings, best first, with their 95% intervals.
func ratingsChart(path string, ratings []arena.Rating) error {
	p := plot.New()
	p.Title.Text = "Ratings (Bradley–Terry with draws, Elo scale) with bootstrap 95% intervals"
	p.Y.Label.Text = "rating"
	bars, err := plotter.NewYErrorBars(ratingBars(ratings))
	if err != nil {
		return err
	}
	pts, err := plotter.NewScatter(ratingBars(ratings))
	if err != nil {
		return err
	}
	p.Add(bars, pts, plotter.NewGrid())
	lo, hi := 0.0, 0.0
	for _, r := range ratings {
		lo, hi = min(lo, r.Low, r.Rating), max(hi, r.High, r.Rating)
	}
	p.Y.Min, p.Y.Max = lo-0.08*(hi-lo), hi+0.08*(hi-lo) // room for the whiskers
	names := make([]string, len(ratings))
	for i, r := range ratings {
		names[i] = r.Agent
	}
	p.NominalX(names...)
	w, err := p.WriterTo(9*vg.Inch, 5*vg.Inch, "png")
	if err != nil {
		return err
	}
	return datasets.WriteAtomic(path, func(out io.Writer) error {
		_, err := w.WriteTo(out)
		return err
	})
}
