package charts

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/kingoal/kingoal/internal/safefile"
)

// Grid adapts a function of (column, row) to gonum's plotter.GridXYZ.
type Grid struct {
	Cols, Rows int
	ColX, RowY func(int) float64
	At         func(c, r int) float64
}

func (g Grid) Dims() (int, int)   { return g.Cols, g.Rows }
func (g Grid) Z(c, r int) float64 { return g.At(c, r) }
func (g Grid) X(c int) float64    { return g.ColX(c) }
func (g Grid) Y(r int) float64    { return g.RowY(r) }

// Identity and OffsetBy place a grid's columns or rows: at 0, 1, … or at d, d+1, ….
func Identity(i int) float64           { return float64(i) }
func OffsetBy(d int) func(int) float64 { return func(i int) float64 { return float64(i + d) } }

// Heatmap describes one PNG heat map with a colour bar; the scale is symmetric around 0
// (blue below, red above) from −Limit to +Limit, and NaN cells (no data) are white, so they
// never look like a 0 (grey).
type Heatmap struct {
	Title, XLabel, YLabel, BarLabel string
	Grid                            Grid
	Limit                           float64  // 0: the largest |z| of the data (at least 1)
	XNames, YNames                  []string // if set, name the columns and rows (the grid's x and y are then 0, 1, …)
	CellText                        func(c, r int) string
}

// scale is the limit of the colour scale: h.Limit, or the data's largest |z|.
func (h Heatmap) scale() float64 {
	if h.Limit > 0 {
		return h.Limit
	}
	limit := 1.0
	for c := range h.Grid.Cols {
		for r := range h.Grid.Rows {
			if z := h.Grid.At(c, r); !math.IsNaN(z) {
				limit = max(limit, math.Abs(z))
			}
		}
	}
	return limit
}

// WritePNG renders h to path atomically.
func (h Heatmap) WritePNG(path string) error {
	limit := h.scale()
	cm := moreland.SmoothBlueRed()
	cm.SetMin(-limit)
	cm.SetMax(limit)
	p := plot.New()
	p.Title.Text = h.Title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = h.XLabel
	p.Y.Label.Text = h.YLabel
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{integers: true}, roundTicks{integers: true} // throws and goals are counts
	hm := plotter.NewHeatMap(h.Grid, cm.Palette(255))
	hm.Min, hm.Max, hm.NaN = -limit, limit, color.White
	p.Add(hm)
	if h.XNames != nil {
		p.NominalX(h.XNames...)
	}
	if h.YNames != nil {
		p.NominalY(h.YNames...)
	}
	if h.CellText != nil {
		var cells plotter.XYLabels
		for c := range h.Grid.Cols {
			for r := range h.Grid.Rows {
				cells.XYs = append(cells.XYs, plotter.XY{X: h.Grid.ColX(c), Y: h.Grid.RowY(r)})
				cells.Labels = append(cells.Labels, h.CellText(c, r))
			}
		}
		labels, err := plotter.NewLabels(cells)
		if err != nil {
			return err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
		}
		p.Add(labels)
	}
	bar := plot.New()
	bar.HideX()
	bar.Y.Label.Text = h.BarLabel
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	const width, height, barWidth = 9 * vg.Inch, 7 * vg.Inch, 1.3 * vg.Inch
	img := vgimg.New(width, height)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -barWidth, 0, 0))
	// The bar's frame clear of the image's right and bottom edges (its end labels were cut),
	// level with the plot's data: below the title, above the x axis.
	bar.Draw(draw.Crop(dc, width-barWidth, -0.2*vg.Inch, 0.45*vg.Inch, -0.6*vg.Inch))
	return saveCanvas(img, path)
}

// Series is one line of a line chart.
type Series struct {
	Name   string
	Points plotter.XYs
}

// LineChart writes a PNG line chart of the series to path atomically. The legend stands in
// a column of its own to the right of the plot, where it can neither cover a line nor take
// the plot's height (drawn inside, gonum's legend pushed the data into the bottom half).
func LineChart(path, title, xLabel, yLabel string, lines ...Series) error {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(3)
	hi := math.Inf(-1)
	for i, s := range lines {
		if len(s.Points) == 0 {
			continue
		}
		l, err := plotter.NewLine(s.Points)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		legend.Add(s.Name, l)
		for _, xy := range s.Points {
			hi = max(hi, xy.Y)
		}
	}
	p.Add(plotter.NewGrid())
	p.Y.Max = max(p.Y.Max, hi+0.05*(hi-p.Y.Min)) // a line at the maximum stays off the frame
	const width, height = 10 * vg.Inch, 5 * vg.Inch
	img := vgimg.New(width, height)
	dc := draw.New(img)
	column := legend.Rectangle(dc).Size().X + 0.3*vg.Inch
	p.Draw(draw.Crop(dc, 0, -column, 0, 0))
	legend.Draw(draw.Crop(dc, width-column+0.15*vg.Inch, 0, 0, -0.5*vg.Inch)) // level with the plot's top
	return saveCanvas(img, path)
}

// PanelChart writes a PNG with one panel a series, stacked over a shared x axis, to path
// atomically: for probabilities that sit at 0 or 1 most of the time, where lines in one plot
// hide each other. Each panel is a step plot from 0 to 1 named by its series.
func PanelChart(path, title, xLabel, yLabel string, panels ...Series) error {
	if len(panels) == 0 {
		return fmt.Errorf("cli: a chart of no series")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range panels {
		for _, xy := range s.Points {
			lo, hi = min(lo, xy.X), max(hi, xy.X)
		}
	}
	rows := make([][]*plot.Plot, len(panels))
	for i, s := range panels {
		p := plot.New()
		p.Y.Label.Text = s.Name
		p.Y.Min, p.Y.Max = -0.05, 1.05
		p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.5, Label: ""}, {Value: 1, Label: "1"}})
		p.X.Min, p.X.Max = lo-0.5, hi+0.5
		p.X.Tick.Marker = roundTicks{integers: true}
		p.Add(plotter.NewGrid())
		if len(s.Points) > 0 {
			l, err := plotter.NewLine(s.Points)
			if err != nil {
				return err
			}
			l.StepStyle = plotter.MidStep // a value a break: flat across its throw
			l.Color = plotutil.Color(i)
			l.FillColor = color.NRGBA{R: l.Color.(color.RGBA).R, G: l.Color.(color.RGBA).G, B: l.Color.(color.RGBA).B, A: 70}
			l.Width = vg.Points(1.5)
			p.Add(l)
		}
		rows[i] = []*plot.Plot{p}
	}
	rows[len(rows)-1][0].X.Label.Text = xLabel
	const titleHeight = 0.6 * vg.Inch
	width, height := 9*vg.Inch, vg.Length(len(panels))*1.2*vg.Inch+titleHeight
	img := vgimg.New(width, height)
	dc := draw.New(img)
	head := plot.New() // the title alone, above equal panels (a title inside the first would shrink it)
	head.HideAxes()
	head.Title.Text = title + "\n" + yLabel
	head.Draw(draw.Crop(dc, 0, 0, height-titleHeight, 0))
	tiles := draw.Tiles{Rows: len(rows), Cols: 1, PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(12), PadY: vg.Points(8)}
	canvases := plot.Align(rows, tiles, draw.Crop(dc, 0, 0, 0, -titleHeight))
	for i := range rows {
		rows[i][0].Draw(canvases[i][0])
	}
	return saveCanvas(img, path)
}

// Estimate is a value with its interval, named: an agent's rating, say.
type Estimate struct {
	Label            string
	Value, Low, High float64
}

// estimates adapts Estimates to gonum's XYer and YErrorer: x is the position.
type estimates []Estimate

func (e estimates) Len() int                    { return len(e) }
func (e estimates) XY(i int) (float64, float64) { return float64(i), e[i].Value }
func (e estimates) YError(i int) (float64, float64) {
	return e[i].Value - e[i].Low, e[i].High - e[i].Value
}

// IntervalChart draws the estimates in their order with their intervals, and a dashed line
// at 0 (for ratings, the field's mean: above it an agent is better than the average).
func IntervalChart(path, title, yLabel string, points []Estimate) error {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	bars, err := plotter.NewYErrorBars(estimates(points))
	if err != nil {
		return err
	}
	pts, err := plotter.NewScatter(estimates(points))
	if err != nil {
		return err
	}
	lo, hi := 0.0, 0.0
	for _, e := range points {
		lo, hi = min(lo, e.Low, e.Value), max(hi, e.High, e.Value)
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(points)) - 0.5, Y: 0}})
	if err != nil {
		return err
	}
	zero.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(plotter.NewGrid(), zero, bars, pts)
	p.Y.Min, p.Y.Max = lo-0.08*(hi-lo), hi+0.08*(hi-lo) // room for the whiskers
	p.Y.Tick.Marker = roundTicks{}
	names := make([]string, len(points))
	for i, e := range points {
		names[i] = e.Label
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(points))-0.4 // the end labels whole, not cut at the edge
	p.Title.Padding = vg.Points(6)
	return savePlot(p, path)
}

// roundTicks labels an axis on round numbers — multiples of 1, 2, 2.5 or 5 times a power of
// ten, four to eight of them, 0 among them when the range spans it (gonum's default picked
// 100, −100, −300).
type roundTicks struct {
	integers bool // an axis of counts: steps of 1 at least
}

func (rt roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: fmt.Sprint(lo)}}
	}
	mag := math.Pow(10, math.Floor(math.Log10((hi-lo)/4)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if step = m * mag; (hi-lo)/step <= 8 && (!rt.integers || step == math.Trunc(step)) {
			break
		}
	}
	if rt.integers {
		step = max(step, 1)
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ticks
}

// savePlot writes p as a 9×5-inch PNG at path, atomically.
func savePlot(p *plot.Plot, path string) error {
	img := vgimg.New(9*vg.Inch, 5*vg.Inch)
	p.Draw(draw.New(img))
	return saveCanvas(img, path)
}

// saveCanvas writes img as a PNG at path, atomically.
func saveCanvas(img *vgimg.Canvas, path string) error {
	return safefile.WriteAtomic(path, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
}
