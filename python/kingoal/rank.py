"""Rankings of a population from its head-to-head table, beyond a rating: the leaderboard's own
α-Rank and Nash averaging (arena's), for any table — an arena's `head_to_head`, or one of
your own."""
import numpy as np

from . import _native as N


def _table(head_to_head):
    h = np.asarray(head_to_head, dtype=float)
    if h.ndim != 2 or h.shape[0] != h.shape[1]:
        raise ValueError(f"head_to_head: shape {h.shape}: want a square table (agents × agents)")
    return [[None if (i == j or np.isnan(v)) else float(v) for j, v in enumerate(row)] for i, row in enumerate(h)]


def nash_average(head_to_head):
    """Nash averaging (Balduzzi et al. 2018) of a head-to-head table — ``h[i][j]`` is agent i's score
    against j (win 1, draw ½; ``h[i][j] + h[j][i] = 1``; NaN or None where they never met, which
    is refused; the diagonal is not read) — as the leaderboard computes it: the
    maximum-entropy Nash equilibrium of the symmetric zero-sum game A = h − hᵀ, and each
    agent's Nash average (A p)ᵢ (≤ 0; 0 for the agents the equilibrium plays). Adding a copy
    of an agent splits its mass and changes no Nash average. Returns (mix, average), NumPy
    arrays. Equal to OpenSpiel's nash_averaging (the tests compare them)."""
    r = N.call("rank", method="nash_average", table=_table(head_to_head))
    return np.array(r["mix"]), np.array(r["average"])


def alpharank(head_to_head, m=50, alpha=100.0):
    """α-Rank (OpenSpiel's alpharank.compute(m=, alpha=) for one population; its defaults, a
    population of 50 and α = 100, are the leaderboard's) of a head-to-head table (as
    nash_average takes it): each agent's mass in the stationary distribution of the table's
    evolutionary dynamics. m: the population, 2..1,000,000; alpha: the ranking intensity,
    positive (a score gap of 0.1 makes an invasion e^(α/10) times likelier than its reverse).
    Returns a NumPy array."""
    _check_alpharank(m, alpha)
    return np.array(N.call("rank", method="alpharank", table=_table(head_to_head), m=m, alpha=float(alpha))["mass"])


def _check_alpharank(m, alpha):
    """A ValueError for α-Rank knobs of the wrong type (Go checks their range)."""
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)):
        raise ValueError(f"alpharank: m={m!r}: want a whole number, 2..1000000")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)) or not alpha > 0 or not np.isfinite(alpha):
        raise ValueError(f"alpharank: alpha={alpha!r}: want a positive finite number")
