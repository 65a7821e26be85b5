"""The exact solver and small helpers, through the native library."""
from . import _native as N


def solve_odds(home="2-2-2-2-2", away="2-2-2-2-2", **rules):
    """The exact odds of two line-ups that never change (kingoal solve odds): a dict with
    home_win, draw, away_win, home_goals_mean, away_goals_mean, home_advance, extra_time,
    shootout, truncated, and the rules in words."""
    return N.call("solve_odds", home=home, away=away, rules=rules)


def equilibrium(payoff="win-loss", **rules):
    """The verified equilibrium of the hidden line-up choice (kingoal solve equilibrium): a
    dict with value, exploitability, and the home and away mixes {line-up: probability}."""
    return N.call("equilibrium", payoff=payoff, rules=rules)


def optimal_value(opponent="2-2-2-2-2", objective="win", player="home", **rules):
    """The best any policy can score against an opponent who keeps `opponent` all match:
    the best kick-off line-up and the optimal Basic policy after it (the solver). A dict
    with lineup and value (P(win) for objective "win"; "win-draw": P(win) + ½ P(draw))."""
    return N.call("optimal_value", opponent=opponent, objective=objective, player=player, rules=rules)


def episode_seed(seed, env_index, episode):
    """The native seed KingoalVectorEnv gives episode `episode` of environment `env_index`
    after reset(seed=seed)."""
    return N.call("episode_seed", seed=N.whole("seed", seed, 0, N.SEED_MAX), env=N.whole("env_index", env_index, 0, N.MAX_ENVS - 1),
                  epoch=N.whole("episode", episode, 0, N.SEED_MAX))


def lineup(index):
    """The line-up of action `index` (0..120), like "1-2-3-3-1"."""
    return _LINEUPS()[N.whole("index", index, 0, N.NUM_ACTIONS - 1)]


def lineup_index(text):
    """The action index of a line-up like "1-2-3-3-1"."""
    try:
        return _LINEUPS().index(text.strip())
    except ValueError:
        raise ValueError(f"line-up {text!r}: not one of the 121 legal line-ups (like 1-2-3-3-1)") from None


_cache = []


def _LINEUPS():
    # The 121 legal line-ups in index order, from the engine (the rule lives in Go's env).
    if not _cache:
        _cache.append(N.call("lineups"))
    return _cache[0]


def version():
    """The version of the Go code behind this package."""
    return N.version()
