"""The substitution game's equilibrium (kingoal solve game) from Python: solve it or load a table."""
import sys

from . import _native as N


class SolvedGame:
    """The equilibrium of the substitution game under one set of rules and a payoff, held by
    the native library (read-only; safe to share between threads).

    value: the game's value to home, on the payoff's scale (win-loss: P(win) − P(loss), where
    the fair game is 0 — not nash_conv's score scale, P(win) + ½ P(draw), where it is ½; the
    verification's figures are on the value's scale). kickoff_mix(side): that side's equilibrium mix of
    starting line-ups. mix(state) or mix(**fields): the equilibrium at a break — home's
    value and both sides' mixes. rules, knobs, payoff, moves, stats and verification (each
    side's best response to the other's strategy; None if it was not run) describe it.
    dynamic is True for a game with a Dynamic side: its value, kick-off mixes, stats and
    verification are there, and its strategy (a byte a decision) is played by the agent
    nash:table=FILE.kgt; mix() is a ValueError for it.
    """

    def __init__(self, handle):
        self._h = handle
        info = N.call("game_info", game=handle)
        self.rules, self.knobs, self.payoff, self.moves = info["rules"], info["knobs"], info["payoff"], info["moves"]
        self.value, self.stats, self.verification = info["value"], info["stats"], info.get("verification")
        self.dynamic = info["dynamic"]
        self._kickoff = {"home": info["kickoff_home"], "away": info["kickoff_away"]}

    def kickoff_mix(self, side="home"):
        """The side's equilibrium mix of starting line-ups (both budgets full): {line-up: probability}."""
        if side not in self._kickoff:
            raise ValueError(f"side={side!r}: want 'home' or 'away'")
        return dict(self._kickoff[side])

    def mix(self, state=None, **fields):
        """The equilibrium at a break, seen from home: a dict with value (home's, before the
        choice), home and away ({line-up: probability}; the current line-up is "keep").

        The state is a dict (or keywords) with the fields of the Go GameState: period
        ("first half", "second half", "extra time 1", "extra time 2"), throws_left,
        goal_diff (home − away), home and away (line-ups like "1-2-3-3-1" or action
        indices), home_moves and away_moves (moves left). A difference no match can reach by
        then is a ValueError, as is a break outside the rules.
        """
        if self.dynamic:
            raise ValueError("mix(state): a game with a Dynamic side keeps each decision (a byte), not values and mixes "
                             "at breaks: play it with the agent nash:table=FILE.kgt")
        s = dict(state or {}, **fields)
        want = {"period", "throws_left", "goal_diff", "home", "away", "home_moves", "away_moves"}
        if set(s) != want:
            missing, extra = sorted(want - set(s)), sorted(set(s) - want)
            raise ValueError(f"mix(state): missing {missing}, unknown {extra}; a state has {sorted(want)}")
        for side in ("home", "away"):
            if not isinstance(s[side], str):
                from .solve import lineup
                s[side] = lineup(s[side])
        for k in ("throws_left", "goal_diff", "home_moves", "away_moves"):
            s[k] = N.whole(k, s[k], -1000, 1000)
        return N.call("game_at", game=self._handle(), state=s)

    def analyse(self, run, match):
        """One match of an arena run read against this game, as kingoal analyse --json prints it.

        The match (its match_id in run/matches.parquet) is replayed from its seeds; the run
        must be played under this game's rules, both sides Basic. Returns a dict: decisions
        (at every kick-off and break, each side's choice, its equilibrium mix, home's value
        and what the choice got against the other side's mix, the loss in payoff units and in
        points of P(win) + ½ P(draw), and its grade: none, inaccuracy ≥ 0.005, mistake ≥ 0.02,
        blunder ≥ 0.05), curve (home's exact value after every event) and agents (each side's
        total and worst). pandas.DataFrame(report["decisions"]) makes a table of it.
        """
        if self.dynamic:
            raise ValueError("analyse: a game with a Dynamic side keeps decisions, not values: a shift is not judged")
        match = N.whole("match", match, 0, 2**62)
        return N.call("game_analyse", game=self._handle(), run=str(run), match=match)

    def _handle(self):
        if not self._h:
            raise RuntimeError("kingoal: this game is closed")
        return self._h

    def close(self):
        """Frees the native game (also done when it is garbage-collected)."""
        N.close(self)

    def __del__(self):
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    def __reduce__(self):
        raise TypeError("a SolvedGame lives in the native library: save it with solve_game(out=FILE.kgt) and load_game(FILE.kgt)")

    def __repr__(self):
        return f"SolvedGame(payoff={self.payoff!r}, value={self.value:+.9f}, rules={self.rules!r})"


def solve_game(payoff="win-loss", out=None, force=False, verify=True, max_gib=12, progress=False, **rules):
    """Solves the substitution game (kingoal solve game) and returns a SolvedGame.

    verify checks the whole strategy by each side's best response (exploitability ≤ 1e-9 or
    an error); out="FILE.kgt" also writes the game table (load_game reads it back,
    nash:table=FILE plays it; an existing file is refused unless force=True; written
    atomically, so an interrupted solve leaves nothing); max_gib refuses, before solving, rules that need more memory.
    Without rule keywords it solves the default rules (about 9 minutes and 9 GB on two cores;
    with out= the solve streams its strategy to the table and the game returned is the table
    read back, so it needs about half the memory). With a Dynamic side (home_mode= or
    away_mode="dynamic") it solves that game (a SolvedGame with dynamic=True).
    progress=True prints the layers done to stderr. Ctrl-C stops the solve within a second.
    """
    args = {"payoff": payoff, "verify": bool(verify), "force": bool(force), "max_gib": N.gib(max_gib), "rules": rules}
    if out is not None:
        args["out"] = str(out)
    job = N.call("game_solve", **args)
    holder = _Job(job["job"])
    try:
        while True:
            r = N.call("game_wait", job=holder._h, ms=200)
            if r["done"]:
                return SolvedGame(r["game"])
            if progress:
                print(f"\rkingoal: solving the substitution game: layer {r['layers_done']} of {r['layers']}", end="", file=sys.stderr)
    except KeyboardInterrupt:
        N.call("game_cancel", job=holder._h)
        raise
    finally:
        if progress:
            print(file=sys.stderr)
        holder.close()


def load_game(path):
    """Reads a game table (kingoal solve game --out FILE.kgt, or solve_game(out=...)) into a
    SolvedGame without solving; a file that is not a table, damaged or truncated is a ValueError."""
    return SolvedGame(N.call("game_load", path=str(path))["game"])


class _Job:
    def __init__(self, handle):
        self._h = handle

    def close(self):
        N.close(self)
