package web

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/safefile"
)

// The policies page shows a solved policy file — `kingoal solve policy --out F.parquet`
// (schema policy/1) or a game table (`kingoal solve game --out F.kgt`) — as a heatmap: time
// (period, throws left) across, score down, one slice of the other coordinates (line-ups,
// moves left) at a time. solve game's Parquet rows (game/1) are not read: they run to
// millions of rows for what the table answers directly.

// policyFile is a file the policies page can show.
type policyFile struct {
	Root, Name, URL, Kind string
}

// policyKind names what f holds, or "" for neither (the file opened, never its name again).
func policyKind(f *os.File) string {
	switch {
	case strings.HasSuffix(f.Name(), ".kgt"):
		return "game table"
	case !strings.HasSuffix(f.Name(), ".parquet"):
		return ""
	}
	if _, err := datasets.CountRowsFile(f, datasets.PolicySchema); err == nil {
		return "policy"
	}
	return ""
}

// zooShelf is a directory of model-zoo cards the policies page lists: its cards, or why they
// were refused.
type zooShelf struct {
	Dir   string
	Cards []zooCard
	Err   string
}

// zooCard is a card with the spec that plays its policy (a table or a network).
type zooCard struct {
	bench.Card
	Spec string
}

// zooShelves finds the model zoos in the served roots (a root itself, or its zoo directory:
// where kingoal bench --out ROOT writes one), cards checked against their policies' sizes — not
// their SHA-256, which would read every file at every request (kingoal agents --zoo checks it).
func (s *Server) zooShelves() []zooShelf {
	var out []zooShelf
	for _, root := range s.Roots {
		for _, name := range []string{".", "zoo"} {
			dir, err := safefile.NewRoot(root).OpenRootIn(name) // "zoo" a link: no shelf
			if err != nil {
				continue
			}
			if shelf, ok := zooShelfIn(dir); ok {
				out = append(out, shelf)
			}
			dir.Close()
		}
	}
	return out
}

// zooShelfIn is the zoo in dir, if it holds a card.
func zooShelfIn(dir *os.Root) (zooShelf, bool) {
	shelf := zooShelf{Dir: filepath.Clean(dir.Name())}
	cards, err := bench.ReadCardsIn(dir)
	if errors.Is(err, bench.ErrNoCards) {
		return shelf, false
	}
	if err != nil {
		shelf.Err = err.Error()
	}
	for _, c := range cards {
		shelf.Cards = append(shelf.Cards, zooCard{c, c.Spec(shelf.Dir)})
	}
	return shelf, true
}

// policyFiles lists the files the page can show at the top of each root.
func (s *Server) policyFiles() []policyFile {
	var out []policyFile
	for i, root := range s.Roots {
		dir, err := os.OpenRoot(root)
		if err != nil {
			continue // the runs page reports the root
		}
		d, err := dir.Open(".")
		var entries []os.DirEntry
		if err == nil {
			entries, _ = d.ReadDir(-1)
			d.Close()
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".kgt") && !strings.HasSuffix(e.Name(), ".parquet") {
				continue
			}
			f, err := safefile.OpenIn(dir, e.Name(), 0)
			if err != nil {
				continue
			}
			if kind := policyKind(f); kind != "" {
				out = append(out, policyFile{root, e.Name(), fmt.Sprintf("/policy/%d/%s", i, e.Name()), kind})
			}
			f.Close()
		}
		dir.Close()
	}
	return out
}

// point is one cell of a heatmap before layout: a break (or throw) state's value and words.
type point struct {
	period     env.Period
	throwsLeft int
	diff       int
	slice      string
	rank       int // the default slice is the earliest point's of the highest rank (moves left)
	value      float64
	note       string
}

// Heatmap is a policy laid out for the page: Rows[i][j] is score Diffs[i] at time Times[j].
type Heatmap struct {
	Title, Measure string
	Times          []string
	Diffs          []int
	Rows           [][]HeatCell
	Slices         []string
	Slice          string
	Low, High      float64
	// LowColour and HighColour are the colours of Low and High, for the legend.
	LowColour, HighColour string
}

// HeatCell is one cell: its colour, its value written short, and what it says when pointed
// at, touched or focused.
type HeatCell struct {
	Has                 bool
	Colour, Value, Text string
	Mark                bool // the policy changes something here
}

// layout builds the heatmap of slice from points; "" (or a slice the file lacks) is the one
// a match starts in: of the earliest points, the highest-ranked (most moves left), with the
// most cells.
func layout(title, measure string, points []point, slice string) Heatmap {
	count := map[string]int{}
	for _, p := range points {
		count[p.slice]++
	}
	first := -1
	for i, p := range points {
		if f := first; f < 0 || cmp.Or(cmp.Compare(p.period, points[f].period), cmp.Compare(points[f].throwsLeft, p.throwsLeft),
			cmp.Compare(points[f].rank, p.rank), cmp.Compare(count[points[f].slice], count[p.slice]), strings.Compare(p.slice, points[f].slice)) < 0 {
			first = i
		}
	}
	h := Heatmap{Title: title, Measure: measure, Low: math.Inf(1), High: math.Inf(-1)}
	for k := range count {
		h.Slices = append(h.Slices, k)
	}
	slices.Sort(h.Slices)
	if len(h.Slices) == 0 {
		return h
	}
	if h.Slice = slice; count[slice] == 0 {
		h.Slice = points[first].slice
	}
	type when struct {
		period env.Period
		left   int
	}
	var times []when
	var diffs []int
	cells := map[[2]int]point{}
	for _, p := range points {
		if p.slice != h.Slice {
			continue
		}
		w := when{p.period, p.throwsLeft}
		if !slices.Contains(times, w) {
			times = append(times, w)
		}
		if !slices.Contains(diffs, p.diff) {
			diffs = append(diffs, p.diff)
		}
		h.Low, h.High = min(h.Low, p.value), max(h.High, p.value)
	}
	slices.SortFunc(times, func(a, b when) int { return cmp.Or(cmp.Compare(a.period, b.period), cmp.Compare(b.left, a.left)) })
	slices.SortFunc(diffs, func(a, b int) int { return cmp.Compare(b, a) })
	for _, p := range points {
		if p.slice == h.Slice {
			cells[[2]int{slices.Index(diffs, p.diff), slices.Index(times, when{p.period, p.throwsLeft})}] = p
		}
	}
	for _, t := range times {
		h.Times = append(h.Times, fmt.Sprintf("%s %d", t.period.Code(), t.left))
	}
	h.Diffs = diffs
	h.Rows = make([][]HeatCell, len(diffs))
	for i := range diffs {
		h.Rows[i] = make([]HeatCell, len(times))
		for j, t := range times {
			p, ok := cells[[2]int{i, j}]
			if !ok {
				continue
			}
			text := fmt.Sprintf("%s, %s left, score %+d: %s %.4f", t.period, env.Plural(t.left, "throw"), p.diff, measure, p.value)
			if p.note != "" {
				text += "; " + p.note
			}
			h.Rows[i][j] = HeatCell{Has: true, Colour: colourOf(p.value, h.Low, h.High), Value: fmt.Sprintf("%.2f", p.value), Text: text, Mark: p.note != ""}
		}
	}
	h.LowColour, h.HighColour = colourOf(h.Low, h.Low, h.High), colourOf(h.High, h.Low, h.High)
	return h
}

// colourOf maps v in [lo, hi] from blue (low) through white to red (high), softened a
// little under half the way to white so that the map is easy on the eye and dark text reads on
// every cell.
func colourOf(v, lo, hi float64) string { return towardWhite(v, lo, hi, 0.45) }

func colourRGB(v, lo, hi float64) (r, g, b int) {
	t := 0.5
	if hi > lo {
		t = (v - lo) / (hi - lo)
	}
	mix := func(a, b float64, u float64) int { return int(math.Round(a + (b-a)*u)) }
	if t < 0.5 {
		u := t / 0.5
		return mix(33, 255, u), mix(102, 255, u), mix(172, 255, u)
	}
	u := (t - 0.5) / 0.5
	return mix(255, 178, u), mix(255, 24, u), mix(255, 43, u)
}

// paleColourOf is the blue-white-red scale taken 60% of the way to white: a tint for tables.
func paleColourOf(v, lo, hi float64) string { return towardWhite(v, lo, hi, 0.6) }

// towardWhite is colourRGB's colour of v taken the fraction f of the way to white.
func towardWhite(v, lo, hi, f float64) string {
	r, g, b := colourRGB(v, lo, hi)
	pale := func(c int) int { return c + int(math.Round(float64(255-c)*f)) }
	return fmt.Sprintf("rgb(%d,%d,%d)", pale(r), pale(g), pale(b))
}

// periodNamed reads a period as the Parquet files write it (env.Period's String).
func periodNamed(name string) (env.Period, bool) {
	for p := env.PreMatch; p <= env.FullTime; p++ {
		if p.String() == name {
			return p, true
		}
	}
	return 0, false
}
