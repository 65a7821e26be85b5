package arenatest

import (
	"context"
	"testing"

	"github.com/kingoal/kingoal/arena"
)

// Plan is arena.NewPlan's plan of c under a background context; a configuration it refuses
// fails the test.
func Plan(tb testing.TB, c arena.Config) *arena.Plan {
	tb.Helper()
	p, err := arena.NewPlan(context.Background(), c)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
