"""kingoal.Game and kingoal.State: the game itself, in OpenSpiel's shape."""
import copy
import pickle
import random

import numpy as np
import pytest

from conftest import need

import kingoal
from kingoal import _native as N
from kingoal.state import CHANCE_PLAYER_ID, SIMULTANEOUS_PLAYER_ID, TERMINAL_PLAYER_ID

_GO_NODE = {0: "chance", 1: "decision", 2: "terminal"}  # env.NodeKind


def kind(s):
    return "chance" if s.is_chance_node() else "terminal" if s.is_terminal() else "decision"


@pytest.mark.parametrize("rules", [{}, {"throws_per_half": 5, "knockout": True, "ties_count": True, "extra_throws": 2},
                                   {"throws_per_half": 8, "home_mode": "dynamic", "dynamic_trigger": "turnover"}])
def test_a_random_walk_is_the_go_engines(rules):
    """10⁵ steps of the Go engine's own random walk, replayed through kingoal.State: the same
    node, score, ball, throws left and result after every step, and every action legal."""
    walk = N.call("state_walk", rules=rules, seed=11, steps=100_000)
    g = kingoal.Game(**rules)
    s = g.new_initial_state()
    ends = 0
    for i, (a, want) in enumerate(zip(walk["actions"], walk["summary"])):
        if s.is_terminal():
            s = g.new_initial_state()
        s.apply_action(a)
        info = s.info()
        got = [kind(s), info["score"][0], info["score"][1], info["ball"], info["throws_left"], int(s.returns()[0])]
        if got != [_GO_NODE[want[0]]] + want[1:]:
            raise AssertionError(f"step {i}: {got}, the Go walk {want}")
        ends += s.is_terminal()
    assert ends > 10


def test_node_kinds_and_ids():
    g = kingoal.Game(throws_per_half=4, knockout=True)
    s = g.new_initial_state()
    assert s.current_player() == SIMULTANEOUS_PLAYER_ID and s.decision() == "kick-off" and s.acting(0) and s.acting(1)
    assert s.legal_actions(0) == list(range(121)) and s.legal_actions_mask(1).all()
    joint = s.legal_actions()
    assert len(joint) == 121 * 121 and joint[:2] == [0, 1] and joint == sorted(joint)
    s.apply_actions([kingoal.lineup_index("2-2-2-2-2"), kingoal.lineup_index("1-2-3-3-1")])
    assert s.current_player() == CHANCE_PLAYER_ID and s.legal_actions() == [0, 1]
    total = sum(p for _, p in s.chance_outcomes())
    assert abs(total - 1) < 1e-15 and s.legal_actions(0) == []
    while not s.is_terminal():
        s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions(0)[0] * 121 + s.legal_actions(1)[0])
    assert s.current_player() == TERMINAL_PLAYER_ID and s.returns() in ([1.0, -1.0], [-1.0, 1.0])  # a knockout has a winner
    assert s.chance_outcomes() == [] and s.legal_actions(0) == []


def test_illegal_actions_leave_the_state_unchanged():
    g = kingoal.Game(throws_per_half=3, moves=1)
    s = g.new_initial_state()
    before = s.serialize()
    for bad in ([121, 0], [0, -1], [1.5, 2], [True, 0]):
        with pytest.raises(ValueError):
            s.apply_actions(bad)
    with pytest.raises(ValueError):
        s.apply_action(121 * 121)
    assert s.serialize() == before
    s.apply_actions([60, 60])
    with pytest.raises(ValueError, match="not possible"):
        s.apply_action(2)  # a tie: ties do not count here
    with pytest.raises(ValueError, match="no decision"):
        s.apply_actions([60, 60])
    assert s.history() == [60 * 121 + 60]


def test_clones_are_independent():
    g = kingoal.Game(throws_per_half=6)
    s = g.new_initial_state()
    s.apply_actions([60, 61])
    c = s.clone()
    c.apply_action(0)
    assert s.info()["ball"] == 3 and c.info()["ball"] == 4 and s.history() != c.history()
    d = copy.deepcopy(c)
    d.apply_action(0)
    assert c.info()["ball"] == 4 and d != c and copy.copy(c) == c


def every_node_kind():
    """States at each kind of node: kick-off, throw, break, shift, shoot-out coin, kick, end."""
    seen = {}
    rng = random.Random(3)
    for rules in ({"throws_per_half": 3, "knockout": True, "extra_throws": 0}, {"throws_per_half": 6, "home_mode": "dynamic"}):
        g = kingoal.Game(**rules)
        for _ in range(200):
            s = g.new_initial_state()
            while True:
                info = s.info()
                key = "end" if s.is_terminal() else s.decision() if s.is_simultaneous_node() else \
                    ("coin" if info["period"] == "penalties" and sum(info["penalties"]) == 0 and "kick" not in seen else
                     "kick" if info["period"] == "penalties" else "throw")
                seen.setdefault(key, s.clone())
                if s.is_terminal():
                    break
                if s.is_chance_node():
                    s.apply_action(rng.choice(s.legal_actions()))
                else:
                    s.apply_actions([rng.choice(s.legal_actions(0)), rng.choice(s.legal_actions(1))])
    assert set(seen) >= {"kick-off", "throw", "break", "shift", "coin", "kick", "end"}, set(seen)
    return seen


def test_serialize_round_trips_at_every_node_kind():
    for name, s in every_node_kind().items():
        text = s.serialize()
        for back in (kingoal.deserialize_state(text), s.game.deserialize_state(text), pickle.loads(pickle.dumps(s))):
            assert back == s and back.history() == s.history() and str(back) == str(s), name
            assert back.legal_actions(0) == s.legal_actions(0) and back.chance_outcomes() == s.chance_outcomes()
            assert back.observation_tensor(1) == s.observation_tensor(1)


def test_deserialize_refuses_what_is_not_a_state():
    good = every_node_kind()["break"].serialize()
    rng = np.random.default_rng(5)
    junk = [b"", b"\xff\xfe", "kingoal-state/1\n{}\n", "kingoal-state/1\n[]\n\n", "kingoal-state/1\n{\"moves\": 99}\n\n",
            "kingoal-state/1\n{\"lineups\": 5}\n\n", "kingoal-state/1\n{\"lineups\": [\"9-9-9-9-9\", 3]}\n\n",
            "kingoal-state/1\n{\"moves\": {}}\n\n", "kingoal-state/1\n{\"lineups\": [null, 3]}\n\n",
            "kingoal-state/1\n{\"lineups\": 5}\n\n", "kingoal-state/1\n{\"lineups\": [\"9-9-9-9-9\", 3]}\n\n", "kingoal-state/1\n{\"moves\": {}}\n\n",
            "kingoal-state/1\n{}\n7320 9999999\n", "kingoal-state/1\n{}\n-1\n", 12, None,
            "kingoal-state/1\n" + "[" * 100000 + "\n\n",  # nested past Python's stack: a ValueError, not RecursionError
            "kingoal-state/1\n{}\n\u0663\n", "kingoal-state/1\n{}\n\uff13\n"]  # "٣" and "３" are digits to str.isdigit, not actions
    junk += [bytes(rng.integers(0, 256, rng.integers(1, 80), dtype=np.uint8)) for _ in range(500)]
    for _ in range(1500):  # the good text with a byte changed, dropped or doubled
        b = bytearray(good.encode())
        i = int(rng.integers(0, len(b)))
        op = int(rng.integers(0, 3))
        if op == 0:
            b[i] = int(rng.integers(0, 256))
        elif op == 1:
            del b[i]
        else:
            b.insert(i, b[i])
        junk.append(bytes(b))
    accepted = 0
    for j in junk:
        try:
            s = kingoal.deserialize_state(j)
        except ValueError:
            continue
        accepted += 1  # a mutation that is still a state (another legal action): it must be whole
        assert s.serialize().encode() == j or kingoal.deserialize_state(s.serialize()) == s
    assert accepted < len(junk) // 2
    for text, what in [("kingoal-state/1\n" + "[" * 100000 + "\n\n", "not JSON"), ("kingoal-state/1\n{}\n\u0663\n", "whole number")]:
        with pytest.raises(ValueError, match=what):
            kingoal.deserialize_state(text)


def test_str_and_observation():
    s = kingoal.Game(throws_per_half=6).new_initial_state()
    s.apply_actions([60, 61])
    assert "first half" in str(s) and repr(s).startswith("<kingoal.State")
    obs = s.observation_tensor(0)
    assert len(obs) == kingoal.OBS_SIZE and all(isinstance(x, float) for x in obs)
    with pytest.raises(ValueError):
        s.observation_tensor(2)
    with pytest.raises(TypeError):
        kingoal.State()
    with pytest.raises(ValueError, match="throws_per_half"):
        kingoal.Game(throws_per_half=0)
    with pytest.raises(ValueError):
        kingoal.Game(nonsense=1)


def test_environments_expose_their_state():
    need("gymnasium")
    need("pettingzoo")
    env = kingoal.KingoalEnv(opponent="heuristic", throws_per_half=6)
    obs, info = env.reset(seed=4)
    s = env.unwrapped.state
    assert s.is_simultaneous_node() and s.decision() == "kick-off" and s.history() is None
    assert np.allclose(s.observation_tensor(0), obs)
    obs, *_ = env.step(60)
    s = env.unwrapped.state
    assert s.is_simultaneous_node() or s.is_terminal()
    assert np.allclose(s.observation_tensor(0), obs) and s.info()["lineups"][0] == 60
    plan = s.clone()  # planning from here leaves the environment alone
    while not plan.is_terminal():
        plan.apply_action(plan.legal_actions()[0] if plan.is_chance_node() else plan.legal_actions(0)[0] * 121 + plan.legal_actions(1)[0])
    assert env.unwrapped.state == s
    with pytest.raises(ValueError, match="environment"):
        s.serialize()
    par = kingoal.parallel_env(throws_per_half=4)
    obs, _ = par.reset(seed=1)
    t = par.unwrapped.game_state
    assert par.state().shape == (2 * kingoal.OBS_SIZE,) and env.unwrapped.game_state == env.unwrapped.state
    assert t.decision() == "kick-off" and np.allclose(t.observation_tensor(1), obs["away"]["observation"])


def test_the_expectimax_example_is_the_solvers_value():
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "examples", "expectimax.py")
    spec = importlib.util.spec_from_file_location("expectimax_example", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for argv in (["--throws-per-half", "6", "--moves", "2"], ["--throws-per-half", "5", "--moves", "1", "--objective", "win-draw", "--opponent", "1-3-3-2-1"]):
        value, solver = example.main(argv)
        assert abs(value - solver) <= 1e-12 and 0 < value < 1
