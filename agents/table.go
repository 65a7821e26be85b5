// The table agent: a stationary policy tabulated at every break state (kingoal.save_policy), played by drawing from its mixes.

package agents

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/memo"
	"github.com/kingoal/kingoal/solver/game"
)

// Table plays a policy table: at the kick-off and at every break, a draw from the mix the
// tabulated policy gave there (a Mixer, so its exploitability is exact where the work fits;
// deterministic when every choice is pure).
type Table struct {
	Policy *game.PolicyTable
	rng    env.SeededRand
	err    error
}

func buildTable(p params, s Setup) (Agent, error) {
	path := p["file"]
	if path == "" {
		return nil, fmt.Errorf("table needs a policy table file: table:file=policy.kgp (written by kingoal.save_policy)")
	}
	t, err := policyTableFor(s, path)
	if err != nil {
		return nil, &ModelError{Kind: "policy table", Path: path, Err: err}
	}
	a := &Table{Policy: t}
	a.Reset(0)
	return a, nil
}

// policyTables memoises read policy tables per file, as tables does game tables.
var policyTables = memo.Cache[tableKey, *game.PolicyTable]{Limit: 4}

// policyTableFor reads the policy table name (once per process) and checks it was
// tabulated under the rules of s.
func policyTableFor(s Setup, name string) (*game.PolicyTable, error) {
	t, err := readOnce(&policyTables, s, name, game.ReadPolicyTable)
	if err != nil {
		return nil, err
	}
	if tr, r := t.Info().Rules, s.Rules; !tr.Equal(r) {
		return nil, fmt.Errorf("the policy was tabulated for %q, not %q", tr.String(), r.String())
	}
	return t, nil
}

// Reset reseeds the agent's draws.
func (t *Table) Reset(seed uint64) { t.rng.Reset(seed, streamTable) }

// Err returns the first failure (a decision the table holds no answer for); nil in normal play.
func (t *Table) Err() error { return t.err }

// Deterministic reports whether every choice in the table is pure.
func (t *Table) Deterministic() bool { return t.Policy.Pure() }

// ReachableBreaksOnly says that t answers only the break states a match can reach (what its
// table holds): a best response that asks beyond them (policy.SolveBasic) is not for it.
func (t *Table) ReachableBreaksOnly() {}

// Mix is the table's mix at obs (env.Mixer); on a decision it has no answer for, keeping (and Err).
func (t *Table) Mix(obs env.Observation, legal env.Mask) []env.Weighted {
	var mix []env.Weighted
	var err error
	switch obs.Decision {
	case env.KickOff:
		mix = t.Policy.KickOff(obs.Player)
	case env.Break:
		mix, err = t.Policy.Mix(obs.Player, breakState(obs))
	default:
		err = fmt.Errorf("a policy table plays Basic mode only, not a %s decision", obs.Decision)
	}
	for _, w := range mix {
		if err == nil && !legal.Has(w.Lineup.Index()) {
			err = fmt.Errorf("the table's line-up %v is not legal here", w.Lineup)
		}
	}
	if err != nil {
		if t.err == nil {
			t.err = fmt.Errorf("agents: table at %s, %d left: %w", obs.Period, obs.ThrowsLeft, err)
		}
		return []env.Weighted{{Lineup: obs.Own, Prob: 1}}
	}
	return mix
}

// Act draws the line-up to play from the table's mix; the result is always legal.
func (t *Table) Act(obs env.Observation, legal env.Mask) int {
	if to := drawFrom(t.rng.Rand, t.Mix(obs, legal)); legal.Has(to.Index()) {
		return to.Index()
	}
	return legal.Nth(0) // after a failure (Err has it) where keeping is not legal: the kick-off
}

// breakState is the break an observation is made at, seen from home: what a game's or a
// policy table's strategy is indexed by.
func breakState(obs env.Observation) game.State {
	s := game.State{Period: obs.Period, ThrowsLeft: obs.ThrowsLeft, GoalDiff: obs.OwnGoals - obs.OppGoals,
		Home: obs.Own, Away: obs.Opp, HomeMoves: obs.OwnMovesLeft, AwayMoves: obs.OppMovesLeft}
	if obs.Player == env.Away {
		s.GoalDiff, s.Home, s.Away, s.HomeMoves, s.AwayMoves = -s.GoalDiff, obs.Opp, obs.Own, obs.OppMovesLeft, obs.OwnMovesLeft
	}
	return s
}
