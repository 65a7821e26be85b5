"""kingoal.openspiel: the game registered with OpenSpiel, checked by OpenSpiel's own tools."""
import warnings

import numpy as np
import pytest

from conftest import need

import kingoal


def test_random_sim_test_and_the_api():
    pyspiel = need("pyspiel")
    import kingoal.openspiel  # noqa: F401  (registers the game)
    for params in ({"throws_per_half": 4, "moves": 1}, {"throws_per_half": 3, "knockout": True, "extra_throws": 1, "ties_count": True},
                   {"throws_per_half": 3, "knockout": True, "extra_throws": 1, "shootout": "kicks"},
                   {"throws_per_half": 5, "home_mode": "dynamic"}):
        game = pyspiel.load_game("python_kingoal", params)
        pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS and t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == kingoal.NUM_ACTIONS and game.num_players() == 2
    s = game.new_initial_state()
    c = s.clone()
    c.apply_actions([60, 60])
    assert s.is_simultaneous_node() and c.is_chance_node() and c.history() == [60, 60]
    assert sum(p for _, p in c.chance_outcomes()) == 1


def test_value_iteration_gives_the_solvers_values():
    """OpenSpiel's value iteration (its stage games solved by its LP solver) over every state
    after a fixed kick-off, under cup rules: home's value at every break is kingoal solve
    game --knockout --payoff advance's, to 1e-9."""
    pyspiel = need("pyspiel")
    need("cvxpy")
    import kingoal.openspiel  # noqa: F401
    from open_spiel.python.algorithms import get_all_states, lp_solver, value_iteration
    # OpenSpiel's LP solver (ECOS through cvxpy) stops at 1e-7 by default, which leaves its
    # values up to 1.7e-9 off; at 1e-10 (and ECOS's own iteration cap) its stage games are
    # solved to the precision compared here (worst difference measured: 4.7e-11).
    tolerance = dict({k: 1e-10 for k in ("abstol", "reltol", "feastol")}, max_iters=200)
    saved = dict(lp_solver.DEFAULT_SOLVER_KWARGS)
    lp_solver.DEFAULT_SOLVER_KWARGS.update(tolerance)
    try:
        # Cup rules, whose game holds a league's (regulation, breaks after goals) and more:
        # extra time, and the shoot-out as one chance node (kick by kick, sudden death made
        # the game infinite and value iteration recursed until Python's limit); the values are
        # solve game --knockout --payoff advance's. (League rules at 4-throw halves, checked
        # here before, took 44 s more; the league's equilibrium is checked by OpenSpiel's
        # NashConv below.)
        check_breaks(pyspiel, get_all_states, value_iteration, {"throws_per_half": 3, "moves": 1, "knockout": True, "extra_throws": 1}, "advance")
    finally:
        lp_solver.DEFAULT_SOLVER_KWARGS.clear()
        lp_solver.DEFAULT_SOLVER_KWARGS.update(saved)


def check_breaks(pyspiel, get_all_states, value_iteration, rules, payoff):
    solved = kingoal.solve_game(payoff=payoff, **rules)
    breaks = 0
    for home, away in (("2-2-2-2-2", "1-2-3-3-1"),):
        game = pyspiel.load_game("python_kingoal", dict(rules, home=home, away=away))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cvxpy's notice about its ECOS default
            values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-12)
        states = get_all_states.get_all_states(game, -1, True, False, to_string=str)
        assert set(states) == set(values)
        for key, st in states.items():
            k = st.kingoal
            if st.is_terminal():
                assert values[key] == st.returns()[0]
                continue
            if k.decision() != "break":
                continue
            i = k.info()
            mix = solved.mix(period=i["period"], throws_left=i["throws_left"], goal_diff=i["score"][0] - i["score"][1],
                             home=kingoal.lineup(i["lineups"][0]), away=kingoal.lineup(i["lineups"][1]),
                             home_moves=i["moves_left"][0], away_moves=i["moves_left"][1])
            assert abs(mix["value"] - values[key]) <= 1e-9, (str(k), mix["value"], values[key])
            breaks += 1
    assert breaks >= 10, breaks
    if rules.get("knockout"):
        assert any(st.shootout_winner is not None for st in states.values()), "no shoot-out reached"


def test_shimmy_wraps_it():
    pyspiel = need("pyspiel")
    shimmy = need("shimmy")
    import kingoal.openspiel  # noqa: F401
    env = shimmy.OpenSpielCompatibilityV0(env=pyspiel.load_game("python_kingoal", {"throws_per_half": 3}))
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[-1]))
        steps += 1
        assert steps < 1000
    assert env.game_state.is_terminal() and env.game_state.returns() in ([1.0, -1.0], [0.0, 0.0], [-1.0, 1.0])


def test_openspiel_measures_the_equilibrium_unexploitable():
    """OpenSpiel's NashConv, on the turn-based form of the game after a fixed kick-off, of
    the equilibrium kingoal solve game found (the nash agent's strategy): 0 to 1e-9; of
    "everyone keeps", clearly more."""
    pyspiel = need("pyspiel")
    import kingoal.openspiel as ko
    from open_spiel.python.algorithms import exploitability
    rules = {"throws_per_half": 3, "moves": 1}
    solved = kingoal.solve_game(**rules)
    game = pyspiel.load_game("python_kingoal", dict(rules, home="2-2-2-2-2", away="1-2-3-3-1"))
    turn_based = pyspiel.convert_to_turn_based(game)

    def nash(state, player):
        i = state.info()
        mix = solved.mix(period=i["period"], throws_left=i["throws_left"], goal_diff=i["score"][0] - i["score"][1],
                         home=kingoal.lineup(i["lineups"][0]), away=kingoal.lineup(i["lineups"][1]),
                         home_moves=i["moves_left"][0], away_moves=i["moves_left"][1])[("home", "away")[player]]
        return {i["lineups"][player] if l == "keep" else kingoal.lineup_index(l): p for l, p in mix.items()}

    def keep(state, player):
        return {state.info()["lineups"][player]: 1.0}

    assert exploitability.nash_conv(turn_based, ko.tabular_policy(turn_based, game, nash)) <= 1e-9
    assert exploitability.nash_conv(turn_based, ko.tabular_policy(turn_based, game, keep)) > 0.05


def test_nash_conv_units_are_openspiels():
    """kingoal.nash_conv's figures against OpenSpiel's own exploitability.nash_conv on the
    turn-based form of the registered game (returns ±1), for one policy on both sides, at the
    smallest rules where a goal can be scored (3-throw halves; no moves, so OpenSpiel's tree
    walk takes seconds: with one move it takes ~70 s, BENCHMARKS.md). The policy mixes two
    line-ups, 0.7 and 0.3, chosen from the observation — the same function of the same
    observation tensor on both sides. Ours is on the score scale (win 1, draw ½): OpenSpiel's
    NashConv is twice it, and our openspiel_nash_conv and openspiel_exploitability are
    OpenSpiel's NashConv and exploitability."""
    pyspiel = need("pyspiel")
    import kingoal.openspiel as ko
    from open_spiel.python import policy as ospolicy
    from open_spiel.python.algorithms import exploitability
    weights = np.random.default_rng(7).normal(size=(kingoal.OBS_SIZE, kingoal.NUM_ACTIONS))

    def two(obs, mask):
        obs, mask = np.asarray(obs, np.float64).reshape(-1, kingoal.OBS_SIZE), np.asarray(mask).reshape(-1, kingoal.NUM_ACTIONS)
        order = np.argsort(-np.where(mask > 0, obs @ weights, -np.inf), axis=1, kind="stable")
        out = np.zeros(mask.shape)
        for i, (a, b) in enumerate(order[:, :2]):
            out[i, a], out[i, b] = (0.7, 0.3) if mask[i].sum() > 1 else (1.0, 0.0)
        return out

    class Two(ospolicy.Policy):
        def action_probabilities(self, state, player_id=None):
            p = state.current_player()
            s = ko.state_of_string(game, state.information_state_string(p))
            row = two(s.observation_tensor(p), s.legal_actions_mask(p))[0]
            return {int(a): float(row[a]) for a in np.flatnonzero(row)}

    rules = {"throws_per_half": 3, "moves": 0}
    ours = kingoal.nash_conv(two, two, **rules)
    game = pyspiel.load_game("python_kingoal", rules)
    turn_based = pyspiel.convert_to_turn_based(game)
    theirs = exploitability.nash_conv(turn_based, Two(turn_based, [0, 1]))
    assert theirs > 0.1, theirs  # a figure worth comparing
    assert abs(ours["openspiel_nash_conv"] - theirs) <= 1e-12, (ours, theirs)
    assert abs(ours["openspiel_exploitability"] - theirs / 2) <= 1e-12
    assert abs(ours["nash_conv"] - theirs / 2) <= 1e-12 and ours["nash_conv"] == ours["score_nash_conv"]
    assert abs(ours["exploitability"] - theirs / 4) <= 1e-12


def test_alpharank_is_openspiels(tmp_path):
    """The leaderboard's α-Rank masses equal OpenSpiel's alpharank.compute (its defaults: one
    population of 50, α = 100, the local selection model) on the run's own head-to-head
    table, to 1e-6."""
    need("pyspiel")
    need("networkx")
    from open_spiel.python.egt import alpharank
    lb = kingoal.arena(["random", "heuristic", "fixed:1-3-3-2-1", "fixed:2-2-2-2-2", "optimal"], tmp_path / "run",
                       matches=12, seed=3, exploitability=False, throws_per_half=5)
    h = np.array([[np.nan if v is None else v for v in row] for row in lb["head_to_head"]], dtype=float)
    np.fill_diagonal(h, 0.5)  # not read by either: an agent does not invade itself
    with np.errstate(over="ignore"):  # its fixation probabilities overflow to 0, as they should
        _, _, pi, _, _ = alpharank.compute([h], m=50, alpha=100)
    ours = {r["agent"]: r["alpharank"] for r in lb["ratings"]}
    for i, agent in enumerate(lb["agents"]):
        assert abs(ours[agent] - pi[i]) <= 1e-6, (agent, ours[agent], pi[i])
    assert abs(sum(ours.values()) - 1) <= 1e-12
    assert (lb["alpharank_m"], lb["alpharank_alpha"]) == (50, 100)
    # other knobs, set from Python (and recorded beside the masses), still OpenSpiel's
    for m, alpha in ((5, 2.0), (200, 30.0)):
        with np.errstate(over="ignore"):
            _, _, pi, _, _ = alpharank.compute([h], m=m, alpha=alpha)
        assert np.abs(kingoal.alpharank(h, m=m, alpha=alpha) - pi).max() <= 1e-6, (m, alpha)
    again = kingoal.arena(["random", "heuristic", "fixed:1-3-3-2-1", "fixed:2-2-2-2-2", "optimal"], tmp_path / "run", matches=12, seed=3,
                          exploitability=False, resume=True, alpharank_m=5, alpharank_alpha=2.0, throws_per_half=5)
    assert (again["alpharank_m"], again["alpharank_alpha"]) == (5, 2.0)
    with np.errstate(over="ignore"):
        _, _, pi, _, _ = alpharank.compute([h], m=5, alpha=2.0)
    ours = {r["agent"]: r["alpharank"] for r in again["ratings"]}
    assert max(abs(ours[a] - pi[i]) for i, a in enumerate(again["agents"])) <= 1e-6
    with pytest.raises(ValueError, match="m = 1"):
        kingoal.alpharank(h, m=1)


def test_nash_averaging_is_openspiels(tmp_path):
    """The leaderboard's Nash averaging — the maximum-entropy equilibrium of the head-to-head
    table as a symmetric zero-sum game, and each agent's Nash average — equals OpenSpiel's
    nash_averaging on the run's own table, and on a rock-paper-scissors table with a copy of
    rock (the copy splits rock's mass), to 2e-5: OpenSpiel solves the entropy program with
    cvxpy's default tolerances, its masses off by ~2.5e-6 here (ours are exact to rounding: the
    Go tests check the equilibrium and its entropy against the equilibria's vertices)."""
    need("pyspiel")
    need("cvxpy")
    import pyspiel
    from open_spiel.python.algorithms import nash_averaging
    lb = kingoal.arena(["random", "heuristic", "fixed:1-3-3-2-1", "fixed:2-2-2-2-2", "fixed:1-2-3-3-1"], tmp_path / "run",
                       matches=12, seed=3, exploitability=False, throws_per_half=5)
    tables = [np.array(lb["head_to_head"], dtype=float)]
    rps = np.array([[0.5, 0, 1, 0.5], [1, 0.5, 0, 1], [0, 1, 0.5, 0], [0.5, 0, 1, 0.5]])  # R, P, S, R again
    tables.append(rps)
    for k, h in enumerate(tables):
        np.fill_diagonal(h, 0.5)
        a = h - h.T
        game = pyspiel.create_matrix_game(a.tolist(), (-a).tolist())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cvxpy's notices
            mix, avg = nash_averaging.nash_averaging(game)
        if k == 0:
            ours = {r["agent"]: (r["nash_mass"], r["nash_average"]) for r in lb["ratings"]}
            got = [ours[agent] for agent in lb["agents"]]
        else:
            got = list(zip(*kingoal.nash_average(h)))
        for i, (m, v) in enumerate(got):
            assert abs(m - mix[i, 0]) <= 2e-5 and abs(v - avg[i, 0]) <= 2e-5, (k, i, got, mix.ravel(), avg.ravel())
    mix, avg = kingoal.nash_average(rps)
    assert np.abs(mix - [1 / 6, 1 / 3, 1 / 3, 1 / 6]).max() < 1e-9 and np.abs(avg).max() < 1e-9, (mix, avg)
    with pytest.raises(ValueError, match="have met"):
        kingoal.nash_average([[0.5, None], [None, 0.5]])
    with pytest.raises(ValueError, match="sum to 1"):
        kingoal.nash_average([[0.5, 0.7], [0.7, 0.5]])
    assert abs(kingoal.alpharank(rps).sum() - 1) < 1e-12
