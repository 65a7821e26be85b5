package web

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
)

// A scene holds each picture: the pitch and, from the changes step by step, every named shape
// of that picture and no other (what static/pitch.js rebuilds).
func TestSceneRebuildsEveryPicture(t *testing.T) {
	s, err := env.NewState(env.Rules{ThrowsPerHalf: 5, Moves: 2})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	dice := env.NewFastSampler(rand.NewPCG(7, 8))
	pics := []frame.Picture{{State: s, Names: [2]string{"a", "b"}}}
	for s.Node() != env.Terminal {
		if s.Node() == env.Decision {
			var j [2]int
			for p := range j {
				legal := s.Legal(env.Player(p))
				for a := range env.NumActions {
					if legal.Has(a) && (!legal.Has(j[p]) || rng.IntN(5) == 0) {
						j[p] = a
					}
				}
			}
			if err := s.ApplyChecked(j); err != nil {
				t.Fatal(err)
			}
		} else {
			s.ApplyChance(dice.Sample(s))
		}
		pics = append(pics, frame.Picture{State: s, LastThrow: "x", Names: [2]string{"a", "b"}})
	}
	sc := sceneOf(pics)
	if len(sc.Steps) != len(pics) {
		t.Fatalf("%d steps for %d pictures", len(sc.Steps), len(pics))
	}
	now := map[string]frame.Shape{}
	for i, p := range pics {
		for _, id := range sc.Steps[i].Gone {
			delete(now, id)
		}
		for _, sh := range sc.Steps[i].Changed {
			now[sh.ID] = sh
		}
		var static []frame.Shape
		named := 0
		for _, sh := range p.Shapes() {
			if sh.ID == "" {
				static = append(static, sh)
				continue
			}
			named++
			if now[sh.ID] != sh {
				t.Fatalf("picture %d: %q rebuilt as %+v, drawn as %+v", i, sh.ID, now[sh.ID], sh)
			}
		}
		if named != len(now) || !slices.Equal(static, sc.Pitch) {
			t.Fatalf("picture %d: %d named shapes, the scene holds %d; pitch the same: %v", i, named, len(now), slices.Equal(static, sc.Pitch))
		}
	}
}
