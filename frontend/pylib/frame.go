package main

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
)

// view is what an environment keeps for Python's render(): the transcript of the events
// since the last call (render_mode "ansi" and "human"), the caption of the last throw
// (render_mode "rgb_array": kg_frame's picture).
type view struct {
	log       *transcript
	frames    bool
	lastThrow string
}

func newView(v views) view {
	out := view{frames: v.frames}
	if v.transcript {
		out.log = &transcript{}
	}
	return out
}

// observer is the env.Config.Observe of the view: nil when it keeps nothing, so the engine
// describes no event for nobody.
func (v *view) observer() func(env.Event) {
	if v.log == nil && !v.frames {
		return nil
	}
	return func(e env.Event) {
		if v.log != nil {
			v.log.observe(e)
		}
		if v.frames && e.Chance {
			v.lastThrow = e.Describe()
		}
	}
}

// forget empties the view at a reset: the new match has no events yet.
func (v *view) forget() {
	if v.log != nil {
		v.log.take()
	}
	v.lastThrow = ""
}

// framer is what kg_frame needs of an environment.
type framer interface {
	picture() (state env.State, lastThrow string, ok bool)
}

func (s *single) picture() (env.State, string, bool)   { return s.e.State(), s.lastThrow, s.frames }
func (p *parallel) picture() (env.State, string, bool) { return p.e.State(), p.lastThrow, p.frames }

//export kg_frame
func kg_frame(h C.uint64_t, buf *C.uint8_t, size C.int64_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	f, release, err := acquire[framer](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	s, last, framed := f.picture()
	switch {
	case !framed:
		return report(inputf("kingoal: this environment was not made with render_mode='rgb_array'"), errBuf, errSize)
	case int64(size) != frame.Width*frame.Height*3:
		return report(fmt.Errorf("kingoal: a frame is %d×%d×3 bytes, not %d", frame.Height, frame.Width, int64(size)), errBuf, errSize)
	}
	frame.AppendRGB(bytesAt(buf, int(size))[:0], frame.Draw(s, last))
	return ok
}
