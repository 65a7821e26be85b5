package live

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/kingoal/kingoal/env"
)

// ErrClosed is the failure of a Hub closed without one of its own.
var ErrClosed = errors.New("live: the hub is closed")

// Hub queues the decisions of its live agents (one queue an agent name) for the program that
// answers them.
type Hub struct {
	names  []string
	mu     sync.Mutex
	queues [][]*Request  // waiting, oldest first, by agent
	total  int           // decisions waiting, in every queue
	ready  chan struct{} // some decision is waiting
	closed chan struct{}
	once   sync.Once
	err    error // why it closed; written before closed is
}

// NewHub is a hub for the live agents named (distinct, non-empty names).
func NewHub(names []string) (*Hub, error) {
	for i, n := range names {
		if n == "" || slices.Contains(names[:i], n) {
			return nil, fmt.Errorf("live: agent names %q: want distinct, non-empty names", names)
		}
	}
	return &Hub{names: slices.Clone(names), queues: make([][]*Request, len(names)),
		ready: make(chan struct{}, 1), closed: make(chan struct{})}, nil
}

// Request is one decision of a live agent, waiting for its answer: Row filled and Answer, or
// AnswerAction. The agent checks the answer (Normalise) and draws its action from it.
type Request struct {
	Obs      env.Observation
	Legal    env.Mask
	Match    int64 // the match, by the ID its runner gave (env.StartMatch); −1 if none did
	First    bool  // the agent's first decision of the match (its kick-off): memory starts afresh
	row      [env.NumLineups]float64
	action   int64
	byAction bool // answered with action, not row
	done     chan struct{}
}

// Row is the answer's probabilities by line-up index, to be filled before Answer.
func (r *Request) Row() []float64 { return r.row[:] }

// Answer sends the probabilities in Row to the agent waiting.
func (r *Request) Answer() { r.byAction = false; r.done <- struct{}{} }

// AnswerAction sends an action (a line-up index) to the agent waiting.
func (r *Request) AnswerAction(a int64) {
	r.action, r.byAction = a, true
	r.done <- struct{}{}
}

// push queues a decision of agent i.
func (h *Hub) push(i int, r *Request) {
	h.mu.Lock()
	h.queues[i] = append(h.queues[i], r)
	h.total++
	h.mu.Unlock()
	signal(h.ready)
}

// signal leaves a token in c (of capacity 1) unless one is there.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Waiting is the number of decisions queued, not yet taken by Next.
func (h *Hub) Waiting() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// Next waits up to wait for decisions and returns those of the agent with the most waiting,
// at most most of them, oldest first, appended to buf[:0]: a batch to answer, one answer
// each. It returns agent −1 and no batch when the wait ran out, and the hub's failure
// (ErrClosed if none was given) once it is closed. A batch is what queued while the last
// was answered: waiting for more was measured slower (BENCHMARKS.md, "Live policies").
func (h *Hub) Next(wait time.Duration, most int, buf []*Request) (agent int, batch []*Request, err error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case <-h.closed:
			return -1, buf[:0], h.err
		case <-timer.C:
			return -1, buf[:0], nil
		case <-h.ready:
		}
		if agent, batch = h.take(most, buf); agent >= 0 {
			return agent, batch, nil
		}
		// a token left by a batch that took the last decisions: wait again
	}
}

// take takes up to most decisions of the agent with the most waiting (−1: none waits).
func (h *Hub) take(most int, buf []*Request) (agent int, batch []*Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	agent = -1
	for i, q := range h.queues {
		if len(q) > 0 && (agent < 0 || len(q) > len(h.queues[agent])) {
			agent = i
		}
	}
	if agent < 0 {
		return -1, buf[:0]
	}
	q := h.queues[agent]
	n := min(len(q), max(most, 1))
	batch = append(buf[:0], q[:n]...)
	h.queues[agent] = append(q[:0], q[n:]...)
	if h.total -= n; h.total > 0 {
		signal(h.ready)
	}
	return agent, batch
}

// Close ends the hub: agents waiting, or asking later, fail with err (ErrClosed if nil) and
// answer with a legal action, so their matches end and are not counted. The first Close
// counts.
func (h *Hub) Close(err error) {
	h.once.Do(func() {
		if err == nil {
			err = ErrClosed
		}
		h.err = err
		close(h.closed)
	})
}
