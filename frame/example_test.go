package frame_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
)

// The kick-off of a match at the default rules as a picture: its size, and the RGB bytes
// Gymnasium's rgb_array frames are made of.
func ExampleDraw() {
	s, err := env.NewState(env.Rules{})
	if err != nil {
		fmt.Println(err)
		return
	}
	img := frame.Draw(s, "")
	rgb := frame.AppendRGB(nil, img)
	fmt.Printf("%dx%d pixels, %d bytes of RGB\n", img.Bounds().Dx(), img.Bounds().Dy(), len(rgb))
	// Output:
	// 640x368 pixels, 706560 bytes of RGB
}
