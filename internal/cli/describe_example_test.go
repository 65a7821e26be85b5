package cli

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// The words of solve policy's summary for a change of line-up.
func Example_describeChange() {
	fmt.Println(describeChange(env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("2-1-2-2-3")))
	fmt.Println(describeChange(env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("1-2-2-2-3")))
	fmt.Println(describeChange(env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("2-2-2-2-2")))
	// Output:
	// move 1 counter (sector 2 → 5): 2-2-2-2-2 → 2-1-2-2-3
	// move 1 counter (sector 1 → 5): 2-2-2-2-2 → 1-2-2-2-3
	// keep 2-2-2-2-2
}
