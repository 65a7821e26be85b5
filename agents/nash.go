package agents

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/memo"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/policy"
)

// Nash plays the equilibrium of the substitution game (solver.Solve): at kick-off and at
// every break it draws its line-up from its side's equilibrium mix, with its own seed.
// Against any opponent it scores at least the game's value in expectation. Under rules with
// a Dynamic side it plays that game instead: the kick-off mix, then the equilibrium's shift
// after every throw it wins and, for a Basic side, its break choice (solver.Decisions).
type Nash struct {
	Game solver.Game
	rng  env.SeededRand
	err  error
}

func buildNash(p params, s Setup) (Agent, error) {
	if path := p["table"]; path != "" {
		g, err := tableFor(s, path, p["payoff"])
		if err != nil {
			return nil, &ModelError{Kind: "table", Path: path, Err: err}
		}
		return newNash(g), nil
	}
	payoff, err := lineup.ParsePayoff(cmp.Or(p["payoff"], lineup.PayoffWinLoss.String()))
	if err != nil {
		return nil, err
	}
	size, err := solver.Estimate(s.Rules, payoff)
	if err != nil {
		return nil, err
	}
	what := "the substitution game"
	if solver.HasDynamic(s.Rules) {
		what = "the game with a Dynamic side"
	}
	if peak := size.Peak(true, false); peak > s.maxBytes() {
		return nil, fmt.Errorf("%w: nash solves %s (and its best responses) when it is built, and under %s it holds %d %s, ~%s at the peak, more than the %s it may take here; use shorter halves or fewer moves, or a game table (kingoal solve game --out FILE.kgt, then nash:table=FILE.kgt)",
			policy.ErrTooLarge, what, s.Rules, size.States, size.StatesAre, safefile.FormatBytes(peak), safefile.FormatBytes(s.maxBytes()))
	}
	g, err := games.Get(s.context(), eqKey{s.Rules.Canonical(), payoff}, func() (solver.Game, error) {
		if s.Notify != nil { // once a solve: the agents of an arena share it
			s.Notify(fmt.Sprintf("nash: solving %s first (%s, %s payoff): %s %s, ~%s at the peak with its check "+
				"(the default rules: ~9 minutes on two cores); a game table is read in seconds: kingoal solve game --out FILE.kgt, then nash:table=FILE.kgt",
				what, s.Rules, payoff, groupDigits(size.States), size.StatesAre, safefile.FormatBytes(size.Peak(true, false))))
		}
		return solver.Solve(game.Problem{Rules: s.Rules, Payoff: payoff, Context: s.context(), Verify: true})
	})
	if err != nil {
		return nil, err
	}
	return newNash(g), nil
}

func newNash(g solver.Game) *Nash {
	n := &Nash{Game: g}
	n.Reset(0)
	return n
}

// games memoises solved substitution games per rules and payoff (pure functions of them,
// read-only), so the agents of an arena share one solve; four at most: each may hold
// gigabytes (the default rules' ~2.7 GB; it takes ~8 minutes to solve with its check,
// BENCHMARKS.md).
var games = memo.Cache[eqKey, solver.Game]{Limit: 4}

// groupDigits writes n with thousands separated: 337,107,712.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// tableKey names a game table file as it is now.
type tableKey struct {
	path string
	size int64
	mod  time.Time
}

// tables memoises loaded game tables per file, as games does solves.
var tables = memo.Cache[tableKey, solver.Game]{Limit: 2}

// tableFor loads the game table name (once per process) and checks it was solved for the
// rules of s and, if given, the payoff.
func tableFor(s Setup, name string, payoff string) (solver.Game, error) {
	g, err := readOnce(&tables, s, name, func(r io.ReaderAt, size int64) (solver.Game, error) {
		return solver.Load(s.context(), r, size)
	})
	if err != nil {
		return nil, err
	}
	switch table, want := solver.HasDynamic(g.Rules()), solver.HasDynamic(s.Rules); {
	case table && !want:
		return nil, fmt.Errorf("it holds a game with a Dynamic side; these rules (%s) have none", s.Rules)
	case want && !table:
		return nil, fmt.Errorf("it is not the table of a game with a Dynamic side, which these rules (%s) have (kingoal solve game --out FILE.kgt under them writes one)", s.Rules)
	}
	if r := s.Rules; !g.Rules().Equal(r) {
		return nil, fmt.Errorf("the table was solved for %q, not %q", g.Rules().String(), r.String())
	}
	if payoff != "" && payoff != g.Payoff().String() {
		return nil, fmt.Errorf("the table's payoff is %s, not %s", g.Payoff(), payoff)
	}
	return g, nil
}

// Reset reseeds the agent's draws.
func (n *Nash) Reset(seed uint64) { n.rng.Reset(seed, streamNash) }

// Equilibrium is the game n plays — its rules, its payoff — and its best-response check: the
// stored one, or without it solver.Verify's. Package exploit reads nash's exact
// exploitability from it, as an ability of any agent that plays a solved equilibrium.
func (n *Nash) Equilibrium() (env.Rules, lineup.Payoff, func(context.Context) (c game.Check, ok bool, err error)) {
	return n.Game.Rules(), n.Game.Payoff(), func(ctx context.Context) (game.Check, bool, error) {
		if c, ok := n.Game.Check(); ok { // solved with its best responses, or a table that stores them
			return c, true, nil
		}
		c, err := solver.Verify(ctx, n.Game, nil)
		return c, err == nil, err
	}
}

// Err returns the first failure (a break the game does not hold); nil in normal play.
func (n *Nash) Err() error { return n.err }

// Act draws the line-up to play from the equilibrium mix; the result is always legal.
func (n *Nash) Act(obs env.Observation, legal env.Mask) int {
	keep := obs.Own.Index()
	if d, ok := n.Game.(solver.Decisions); ok {
		return n.actDynamic(d, obs, legal)
	}
	var mix []env.Weighted
	switch obs.Decision {
	case env.KickOff:
		k := n.Game.KickOff()
		mix = k.Home
		if obs.Player == env.Away {
			mix = k.Away
		}
	case env.Break:
		b, ok := n.Game.(solver.BreakMixes)
		if !ok {
			n.fail(fmt.Errorf("the game holds no mixes at breaks"), obs)
			return keep
		}
		sol, err := b.At(breakState(obs))
		if err != nil {
			n.fail(err, obs)
			return keep
		}
		mix = sol.Home
		if obs.Player == env.Away {
			mix = sol.Away
		}
	default:
		n.fail(fmt.Errorf("nash plays Basic mode only, not a %s decision", obs.Decision), obs)
		return keep
	}
	if to := drawFrom(n.rng.Rand, mix); legal.Has(to.Index()) {
		return to.Index()
	}
	n.fail(fmt.Errorf("the equilibrium's line-up is not legal here"), obs)
	return keep
}

// actDynamic is Act in the game with a Dynamic side.
func (n *Nash) actDynamic(g solver.Decisions, obs env.Observation, legal env.Mask) int {
	keep := obs.Own.Index()
	var to env.Lineup
	switch obs.Decision {
	case env.KickOff:
		k := g.KickOff()
		mix := k.Home
		if obs.Player == env.Away {
			mix = k.Away
		}
		to = drawFrom(n.rng.Rand, mix)
	case env.Break, env.Shift:
		var err error
		if to, err = g.ChoiceFor(obs); err != nil {
			n.fail(err, obs)
			return keep
		}
	default:
		return keep
	}
	if !legal.Has(to.Index()) {
		n.fail(fmt.Errorf("the equilibrium's line-up %s is not legal here", to), obs)
		return keep
	}
	return to.Index()
}

func (n *Nash) fail(err error, obs env.Observation) {
	if n.err == nil {
		n.err = fmt.Errorf("agents: nash at %s, %d left: %w", obs.Period, obs.ThrowsLeft, err)
	}
}
