"""Exact expectimax in Python over kingoal.State — planning on the engine itself, checked against the solver.

A CleanRL-style single file. Home plays against an opponent who keeps its line-up all match
(at every decision its action is its current line-up), so every decision is home's alone and the
game is a one-player stochastic tree: its value is the expectimax — the best action at each
of home's decisions, the probability-weighted mean at each chance node (the engine's exact
chance_outcomes) — with a transposition table keyed by State.key() (equal engine values,
equal subtrees). It starts right after a kick-off (kingoal.Game(lineups=...)) with the
solver's best line-up against the opponent and compares the result with the solver's own
answer, kingoal.optimal_value (backward induction in Go): the same number, to 1e-12.

    .venv/bin/python python/examples/expectimax.py --throws-per-half 6 --moves 2
"""
import argparse
import sys
import time

import kingoal


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opponent", default="2-2-2-2-2", help="the line-up the opponent keeps")
    p.add_argument("--throws-per-half", type=int, default=6)
    p.add_argument("--moves", type=int, default=2)
    p.add_argument("--objective", default="win", choices=["win", "win-draw"], help="P(win), or P(win) + ½ P(draw)")
    return p.parse_args(argv)


def terminal_value(state, objective):
    r = state.returns()[0]
    if objective == "win":
        return 1.0 if r > 0 else 0.0
    return (r + 1) / 2  # win 1, draw ½, loss 0


def expectimax(state, objective, table):
    """The best expected objective for home from state, the opponent keeping its line-up."""
    key = state.key()
    if key in table:
        return table[key]
    if state.is_terminal():
        v = terminal_value(state, objective)
    elif state.is_chance_node():
        v = sum(p * expectimax(state.child(o), objective, table) for o, p in state.chance_outcomes())
    else:
        keep = state.info()["lineups"][1]  # the opponent's line-up, kept
        v = max(expectimax(state.child(a * kingoal.NUM_ACTIONS + keep), objective, table) for a in state.legal_actions(0))
    table[key] = v
    return v


def main(argv=None):
    args = parse_args(argv)
    rules = dict(throws_per_half=args.throws_per_half, moves=args.moves)
    best = kingoal.optimal_value(opponent=args.opponent, objective=args.objective, **rules)
    # the opponent keeps: at every decision home's choices pair with away's current line-up
    game = kingoal.Game(lineups=(best["lineup"], args.opponent), **rules)
    start = time.time()
    table = {}
    value = expectimax(game.new_initial_state(), args.objective, table)
    took = time.time() - start
    print(f"home {best['lineup']} v {args.opponent} keeping it, {args.throws_per_half}-throw halves, {args.moves} moves, objective {args.objective}")
    print(f"expectimax over kingoal.State: {value:.12f} ({len(table)} states, {took:.1f} s)")
    print(f"the solver (optimal_value):    {best['value']:.12f}")
    gap = abs(value - best["value"])
    print(f"difference {gap:.2e}")
    return value, best["value"]


if __name__ == "__main__":
    v, want = main()
    sys.exit(0 if abs(v - want) <= 1e-12 else 1)
