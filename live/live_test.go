package live_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/live"
)

// Next takes every decision waiting, of the agent with the most, oldest first, up to its
// bound.
func TestNextTakesWhatIsWaiting(t *testing.T) {
	h, _ := live.NewHub([]string{"a", "b"})
	s, _ := env.NewState(env.Rules{})
	for i := range 10 {
		name := "a"
		if i >= 7 {
			name = "b"
		}
		a, err := h.Agent(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		a.StartMatch(int64(i))
		go a.Act(s.Observe(env.Home), s.Legal(env.Home))
		for h.Waiting() < i+1 { // queued one by one: the order is known
			time.Sleep(time.Millisecond)
		}
	}
	agent, batch, err := h.Next(time.Second, 5, nil)
	if err != nil || agent != 0 || len(batch) != 5 || batch[0].Match != 0 || batch[4].Match != 4 || !batch[0].First {
		t.Fatalf("first batch: agent %d, %d decisions, %v", agent, len(batch), err)
	}
	agent, batch, _ = h.Next(time.Second, 5, batch)
	if agent != 1 || len(batch) != 3 || batch[0].Match != 7 { // b has 3 waiting, a 2
		t.Fatalf("second batch: agent %d, %d decisions", agent, len(batch))
	}
	agent, batch, _ = h.Next(time.Second, 5, batch)
	if agent != 0 || len(batch) != 2 || h.Waiting() != 0 {
		t.Fatalf("third batch: agent %d, %d decisions, %d waiting", agent, len(batch), h.Waiting())
	}
	if agent, batch, err = h.Next(time.Millisecond, 5, batch); agent != -1 || len(batch) != 0 || err != nil {
		t.Fatalf("nothing waiting: agent %d, %d decisions, %v", agent, len(batch), err)
	}
	h.Close(nil)
	if _, _, err = h.Next(time.Second, 5, batch); !errors.Is(err, live.ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}

// Normalise refuses what it should and keeps what it should, whatever entry is wrong.
func TestNormalise(t *testing.T) {
	s, _ := env.NewState(env.Rules{})
	for _, legal := range []env.Mask{s.Legal(env.Home), env.LineupAt(60).Reachable(1)} {
		good := make([]float64, env.NumLineups)
		for a := range good {
			if legal.Has(a) {
				good[a] = 2 / float64(legal.Count()) // sums to 2: refused
			}
		}
		if err := live.Normalise(append([]float64(nil), good...), legal); err == nil || !strings.Contains(err.Error(), "does not sum to 1") {
			t.Errorf("a row summing to 2: %v", err)
		}
		for a := range good {
			good[a] /= 2
		}
		row := append([]float64(nil), good...)
		if err := live.Normalise(row, legal); err != nil {
			t.Fatalf("a mix refused: %v", err)
		}
		for a := range env.NumLineups {
			for _, v := range []float64{-0.5, math.NaN(), math.Inf(1), 1e-3} {
				row := append([]float64(nil), good...)
				row[a] += v
				err := live.Normalise(row, legal)
				if legal.Has(a) && v == 1e-3 { // within the check only if the sum stays near 1: it does not
					if err == nil {
						t.Fatalf("line-up %d: a row summing to %v passed", a, 1+v)
					}
					continue
				}
				if err == nil {
					t.Fatalf("line-up %d (legal %v): %v added, passed", a, legal.Has(a), v)
				}
			}
		}
	}
}
