package web

import (
	"net/url"
	"reflect"
	"slices"
	"testing"
)

// FuzzParseGame: any query either is refused with an error or reads as a game whose own URL
// reads back as the same game (the choice links the page makes are games too).
func FuzzParseGame(f *testing.F) {
	for _, q := range []string{"vs=random", "vs=heuristic&side=away&seed=3&throws-per-half=6&choices=60.60", "vs=x&knockout=true&moves=0",
		"vs=random&choices=1..2", "vs=random&seed=18446744073709551615", "vs=random&points=3,1,0&home-mode=dynamic", "choices=120&vs=a%20b"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		g, err := parseGame(q)
		if err != nil {
			return
		}
		back, err := url.ParseQuery(g.with(7)[1:])
		if err != nil {
			t.Fatalf("%q: its choice link %q does not parse: %v", raw, g.with(7), err)
		}
		h, err := parseGame(back)
		if err != nil {
			t.Fatalf("%q: its choice link %q is refused: %v", raw, g.with(7), err)
		}
		if !reflect.DeepEqual(h.m, g.m) || !slices.Equal(h.choices, append(slices.Clone(g.choices), 7)) {
			t.Fatalf("%q: the link reads as %+v %v, the game was %+v %v", raw, h.m, h.choices, g.m, g.choices)
		}
	})
}
