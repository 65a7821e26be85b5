package web

import (
	"slices"

	"github.com/kingoal/kingoal/frame"
)

// pitchScene is a match's pictures for the live pitch (static/pitch.js draws it as SVG):
// the shapes that never change, then at each step the named shapes that changed since the
// step before and the names that went. It is frame's geometry, the PNG's, sent once.
type pitchScene struct {
	Ink   frame.Colour  `json:"ink"` // a disc's outline
	Pitch []frame.Shape `json:"pitch"`
	Steps []sceneStep   `json:"steps"`
}

type sceneStep struct {
	Changed []frame.Shape `json:"changed"`
	Gone    []string      `json:"gone,omitempty"`
}

// sceneOf is the scene of pictures, one a step.
func sceneOf(pictures []frame.Picture) pitchScene {
	sc := pitchScene{Ink: frame.Ink}
	before := map[string]frame.Shape{}
	for i, p := range pictures {
		now := map[string]frame.Shape{}
		var step sceneStep
		for _, sh := range p.Shapes() {
			switch {
			case sh.ID == "" && i == 0:
				sc.Pitch = append(sc.Pitch, sh)
			case sh.ID == "":
			default:
				now[sh.ID] = sh
				if was, ok := before[sh.ID]; !ok || was != sh {
					step.Changed = append(step.Changed, sh)
				}
			}
		}
		for id := range before {
			if _, ok := now[id]; !ok {
				step.Gone = append(step.Gone, id)
			}
		}
		slices.Sort(step.Gone)
		sc.Steps = append(sc.Steps, step)
		before = now
	}
	return sc
}
