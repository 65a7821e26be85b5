package agents

import (
	"context"

	"github.com/kingoal/kingoal/env"
)

// A Schedule is a training run of a Q-learning agent to a total of episodes, stopping at
// every multiple of Every for Checkpoint (an evaluation, a save): what `kingoal train` runs.
type Schedule struct {
	Opponent Agent // nil: self-play
	Episodes int   // the agent's total at the end (a resumed model counts its earlier ones)
	Every    int   // episodes between checkpoints; 0: Episodes/20
	Seed     uint64
	// Progress, if set, is called as in TrainConfig with the agent's running total.
	Progress func(total int, meanResult float64)
	// Checkpoint is called at every multiple of Every and at the end, with the mean result
	// of the latest episodes; an error stops the run and is returned.
	Checkpoint func(meanResult float64) error
}

// TrainScheduled trains q to s.Episodes, checkpointing at the multiples of s.Every (also after
// a resume: a model trained in several runs has the checkpoints of one). An interruption —
// ctx cancelled — returns an error wrapping context.Canceled; so does an opponent that
// stopped thinking (ErrOf), the episode learned from its fallback moves.
func (q *QLearning) TrainScheduled(ctx context.Context, s Schedule) error {
	every := s.Every
	if every <= 0 {
		every = max(1, s.Episodes/20)
	}
	var opp env.Policy // a nil Agent must stay a nil Policy: Train plays against itself then
	if s.Opponent != nil {
		opp = s.Opponent
	}
	last := 0.0
	for q.Episodes < s.Episodes {
		chunk := min(every-q.Episodes%every, s.Episodes-q.Episodes)
		start := q.Episodes
		err := q.Train(ctx, TrainConfig{Opponent: opp, Episodes: chunk, Seed: s.Seed, Progress: func(n int, mean float64) {
			last = mean
			if s.Progress != nil {
				s.Progress(start+n, mean)
			}
		}})
		if err == nil && s.Opponent != nil {
			err = env.ErrOf(s.Opponent)
		}
		if err != nil {
			return err
		}
		if s.Checkpoint != nil {
			if err := s.Checkpoint(last); err != nil {
				return err
			}
		}
	}
	return nil
}
