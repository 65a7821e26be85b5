// The counters form: five numbers, one a sector, instead of one of up to 121 links.

package web

import (
	"maps"
	"slices"
	"strconv"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
)

// setField is a hidden field of the counters form: the game so far.
type setField struct{ Name, Value string }

// sectorField is one sector's counters in the form.
type sectorField struct {
	Sector, Count int
	Label         string
}

// counterForm is the counters form of a prompt: the game's fields and one number a sector,
// set to the player's line-up (the equilibrium's likeliest at the kick-off, if hinted).
func counterForm(g playedGame, own env.Lineup) (fields []setField, sectors []sectorField) {
	for _, k := range slices.Sorted(maps.Keys(g.query)) {
		fields = append(fields, setField{k, g.query.Get(k)})
	}
	if len(g.choices) > 0 {
		fields = append(fields, setField{"choices", choicesParam(g.choices)})
	}
	names := [env.Sectors]string{"1 (your goal's)", "2", "3 (midfield)", "4", "5 (their goal's)"}
	counts := own.Counts()
	if !own.Valid() {
		counts = [env.Sectors]int{2, 2, 2, 2, 2}
	}
	for k := range env.Sectors {
		sectors = append(sectors, sectorField{k + 1, counts[k], names[k]})
	}
	return fields, sectors
}

// counterBoard is what static/board.js needs to set the counters on the picture of the
// pitch: the picture now, where each of the person's counters goes (frame's geometry), the
// line-ups the rules allow here with what each costs, and the hint's line-up and mix.
type counterBoard struct {
	Scene pitchScene   `json:"scene"`
	Side  string       `json:"side"` // the names of the person's counters in the scene: "home-0", …
	Fill  frame.Colour `json:"fill"`
	R     int          `json:"r"`
	// Order is the person's sectors (1 … 5, their own goal's first) from home's goal, the
	// order the scene numbers counters in; Slots[k-1][j] the centre of the j-th counter in
	// their sector k.
	Order []int      `json:"order"`
	Slots [][][2]int `json:"slots"`
	// Areas[k-1] is the person's half of their sector k (x0, y0, x1, y1): a click there
	// takes or puts a counter.
	Areas [][4]int       `json:"areas"`
	Legal map[string]int `json:"legal"`          // a line-up ("1-2-3-3-1") → the moves it costs
	Hint  []int          `json:"hint,omitempty"` // the hinted line-up, sector by sector
	Mean  []float64      `json:"mean,omitempty"` // the equilibrium's counters a sector, on average
}

// boardOf is the board of a decision of the game g with the legal line-ups: hint is the
// hinted line-up (nil: none) and mix the equilibrium's, if known.
func boardOf(g playedGame, p played, legal env.Mask, hint *env.Lineup, mix []env.Weighted) counterBoard {
	me := g.m.Side
	b := counterBoard{Scene: sceneOf([]frame.Picture{{State: p.state, LastThrow: p.lastOne, Names: g.names()}}),
		Side: me.String(), Fill: frame.HomeColour, R: frame.CounterRadius, Legal: map[string]int{}}
	if me == env.Away {
		b.Fill = frame.AwayColour
	}
	for hk := 1; hk <= env.Sectors; hk++ {
		b.Order = append(b.Order, env.HomeSector(me, hk)) // HomeSector is its own inverse
	}
	for k := 1; k <= env.Sectors; k++ {
		var slots [][2]int
		for j := range env.MaxPerLine {
			x, y := frame.CounterAt(me, env.HomeSector(me, k), j)
			slots = append(slots, [2]int{x, y})
		}
		b.Slots = append(b.Slots, slots)
		x0, y0, x1, y1 := frame.SideArea(me, env.HomeSector(me, k))
		b.Areas = append(b.Areas, [4]int{x0, y0, x1, y1})
	}
	own := p.state.Lineup(me)
	for _, a := range legal.Actions() {
		l := env.LineupAt(a)
		b.Legal[l.String()] = 0 // the kick-off's line-up costs nothing
		if p.state.Decision() != env.KickOff {
			b.Legal[l.String()] = own.Moves(l)
		}
	}
	if hint != nil {
		c := hint.Counts()
		b.Hint = c[:]
	}
	if len(mix) > 0 {
		b.Mean = make([]float64, env.Sectors)
		for _, w := range mix {
			for k, n := range w.Lineup.Counts() {
				b.Mean[k] += w.Prob * float64(n)
			}
		}
	}
	return b
}

// names are the sides' names in the picture: "you" and the opponent.
func (g playedGame) names() [2]string {
	n := [2]string{"you", g.m.Opponent}
	if g.m.Side == env.Away {
		n[0], n[1] = n[1], n[0]
	}
	return n
}

func choicesParam(choices []int) string {
	b := make([]byte, 0, 4*len(choices))
	for i, c := range choices {
		if i > 0 {
			b = append(b, '.')
		}
		b = strconv.AppendInt(b, int64(c), 10)
	}
	return string(b)
}
