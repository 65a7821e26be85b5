package frame

import (
	"fmt"
	"image/color"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// The picture shows what the state holds: at every sector each side's counters (a disc of
// its colour where the n-th counter goes, grass where it does not), and the ball where it is.
func TestDrawShowsLineupsAndBall(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	e, err := env.NewParallel(env.ParallelConfig{Rules: env.Rules{ThrowsPerHalf: 10}, Dice: env.RolledDice})
	if err != nil {
		t.Fatal(err)
	}
	_, infos := e.Reset(4)
	for step := 0; !e.Done(); step++ {
		s := e.State()
		img := Draw(s, "")
		if b := img.Bounds(); b.Dx() != Width || b.Dy() != Height {
			t.Fatalf("a %v picture", b)
		}
		mid := pitchTop + pitchHeight/2
		for k := 1; k <= env.Sectors; k++ {
			x0 := pitchLeft + (k-1)*sectorWidth
			for p := env.Home; p <= env.Away; p++ {
				n := s.Lineup(p).Sector(env.HomeSector(p, k))
				top := pitchTop + 14
				if p == env.Away {
					top = mid + 14
				}
				for i := range 9 {
					cx, cy := x0+sectorWidth/2+(i%3-1)*(2*counterR+8), top+counterR+(i/3)*(2*counterR+8)
					want := color.Color(grass[k%2])
					if i < n {
						want = side[p]
					}
					if got := img.At(cx, cy); got != want {
						t.Fatalf("step %d, sector %d, %s counter %d of %d: pixel %v, want %v", step, k, p, i+1, n, got, want)
					}
				}
			}
			ball := img.At(x0+sectorWidth/2, mid-ballR/2) == chalk // off the halfway line
			if want := s.Node() != env.Terminal && s.Ball() == k; ball != want {
				t.Fatalf("step %d: ball drawn in sector %d: %v, want %v (ball in %d)", step, k, ball, want, s.Ball())
			}
		}
		j := [2]int{}
		for p := range j {
			legal := infos[p].Mask
			for a := range env.NumActions {
				if legal.Has(a) && rng.IntN(3) == 0 || j[p] == 0 && legal.Has(a) {
					j[p] = a
				}
			}
		}
		tr, err := e.Step(j)
		if err != nil {
			t.Fatal(err)
		}
		infos = tr.Info
	}
	if rgb := AppendRGB(nil, Draw(e.State(), "x")); len(rgb) != Width*Height*3 {
		t.Fatalf("%d bytes of RGB", len(rgb))
	}
}

// Shapes is the geometry both the PNG and the web's live pitch draw: every counter is named
// once, numbered from home's goal, and stands in its side's sector; the names go in the
// header, cut to fit.
func TestShapesNameEveryCounter(t *testing.T) {
	e, err := env.NewParallel(env.ParallelConfig{Rules: env.Rules{ThrowsPerHalf: 6}})
	if err != nil {
		t.Fatal(err)
	}
	_, infos := e.Reset(9)
	rng := rand.New(rand.NewPCG(3, 4))
	for step := 0; ; step++ {
		s := e.State()
		pic := Picture{State: s, Names: [2]string{"heuristic", "a-very-long-agent-name"}}
		ids := map[string]Shape{}
		for _, sh := range pic.Shapes() {
			if _, dup := ids[sh.ID]; dup && sh.ID != "" {
				t.Fatalf("step %d: %q twice", step, sh.ID)
			}
			ids[sh.ID] = sh
		}
		if ids["home"].Text != "heuristic" || ids["away"].Text != "a-very-long-age~" || ids["score"].X != ids["home"].X+ids["home"].W {
			t.Fatalf("step %d: header %+v %+v %+v", step, ids["home"], ids["score"], ids["away"])
		}
		for p := env.Home; p <= env.Away; p++ {
			i := 0
			for k := 1; k <= env.Sectors; k++ {
				for range s.Lineup(p).Sector(env.HomeSector(p, k)) {
					c, ok := ids[fmt.Sprintf("%s-%d", p, i)]
					if x0 := pitchLeft + (k-1)*sectorWidth; !ok || c.Kind != Disc || c.X < x0 || c.X >= x0+sectorWidth || c.Fill != Colour(side[p]) {
						t.Fatalf("step %d: %s counter %d (sector %d): %+v", step, p, i, k, c)
					}
					i++
				}
			}
			if _, extra := ids[fmt.Sprintf("%s-%d", p, i)]; extra {
				t.Fatalf("step %d: more %s counters than the line-up's %d", step, p, i)
			}
		}
		if ball, ok := ids["ball"]; ok != (s.Node() != env.Terminal) || ok && ball.X != pitchLeft+(s.Ball()-1)*sectorWidth+sectorWidth/2 {
			t.Fatalf("step %d: ball %+v (%v), in sector %d", step, ball, ok, s.Ball())
		}
		if e.Done() {
			break
		}
		var j [2]int
		for p := range j {
			legal := infos[p].Mask
			for a := range env.NumActions {
				if legal.Has(a) && (j[p] == 0 || rng.IntN(4) == 0) {
					j[p] = a
				}
			}
		}
		tr, err := e.Step(j)
		if err != nil {
			t.Fatal(err)
		}
		infos = tr.Info
	}
}

// TestLinesFitThePicture: every text of a picture ends inside it — a long last throw (a
// dice-mode throw names every die) was cut off at the right edge (issue 56).
func TestLinesFitThePicture(t *testing.T) {
	s, err := env.NewState(env.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	long := "home rolls 6, 6, 5, 5, 4, 4, 3, 3, 2, 1 against away's 6, 5, 5, 4, 4, 3, 2, 2, 1, 1: the ball to away's sector 3"
	for _, caption := range []string{"", "short", long} {
		for _, sh := range (Picture{State: s, LastThrow: caption, Names: [2]string{"a-very-long-agent-name", "another-long-agent-name"}}).Shapes() {
			if sh.Kind == Text && sh.X+sh.W > Width {
				t.Errorf("%q: %q ends at x %d, past the picture's %d", caption, sh.Text, sh.X+sh.W, Width)
			}
		}
	}
}

// TestBreakLineIsNeverCut: when both sides change at a break, the "last:" line (~100
// characters) takes two lines and every line-up stands whole in the picture, its pixels, and
// the SVG pitch alike (issue 64: it ended "…away 4-2-1-1-2 -> 4-2-1-2-~").
func TestBreakLineIsNeverCut(t *testing.T) {
	s, err := env.NewState(env.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	caption := "half time: home 1-3-3-2-1 → 2-2-2-2-2 (1 moved, 2 left); away 4-2-1-1-2 → 4-2-1-2-1 (1 moved, 1 left)"
	var lines []string
	for _, sh := range (Picture{State: s, LastThrow: caption}).Shapes() {
		if sh.Kind != Text {
			continue
		}
		if strings.HasSuffix(sh.Text, "~") || sh.X+sh.W > Width || sh.Y > Height-3 {
			t.Errorf("%q at (%d, %d), %d wide: cut, or outside the %d × %d picture", sh.Text, sh.X, sh.Y, sh.W, Width, Height)
		}
		if sh.ID == "last" || sh.ID == "last-more" {
			lines = append(lines, sh.Text)
		}
	}
	joined := strings.Join(lines, " ")
	for _, l := range []string{"1-3-3-2-1", "2-2-2-2-2", "4-2-1-1-2", "4-2-1-2-1"} {
		if !strings.Contains(joined, l) {
			t.Errorf("the last-throw lines %q lack %s", lines, l)
		}
	}
	if len(lines) != 2 {
		t.Errorf("the last-throw lines %q, want two", lines)
	}
}
