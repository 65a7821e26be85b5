package arena

import (
	"context"
	"os"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// Limits bound what building a run's agents may do: where the files their specs name are
// opened and how much they may solve (agents.Setup's Open and MaxBytes; zero: its defaults),
// and which live agents there are (agents.Setup's Live: nil, none).
type Limits struct {
	Open     func(name string) (*os.File, error)
	MaxBytes int64
	Live     func(name string) (agents.Agent, error)
	Notify   func(line string) // agents.Setup's: told before a long solve starts
}

func (l Limits) setup(ctx context.Context, r env.Rules) agents.Setup {
	return agents.Setup{Rules: r, Context: ctx, Open: l.Open, MaxBytes: l.MaxBytes, Live: l.Live, Notify: l.Notify}
}
