"""kingoal.bench: a Python learner's curve, measured exactly, written as bench-curve/2 rows."""
import numpy as np
import pytest

import kingoal
import kingoal.bench as kb
from conftest import need


def _uniform(obs, mask):
    return mask / mask.sum(axis=1, keepdims=True)


class _Greedy:
    """A toy learner: uniform until it has learnt, then the first legal line-up everywhere."""

    def __init__(self):
        self.samples = 0

    def learn(self, target):
        self.samples = target
        return self.samples

    def policy(self):
        if self.samples < 100:
            return _uniform
        return lambda obs, mask: np.argmax(mask, axis=1)


def test_run_writes_rows_kingoal_bench_reads(tmp_path):
    """Two measurements under the tiny suite: each row the exact figure of the policy then,
    in both units (OpenSpiel's twice the score scale's), written after every point to
    DIR/external as bench-curve/2, in the columns `kingoal bench` reads."""
    toy = _Greedy()
    rows = kb.run("toy", toy.learn, toy.policy, tmp_path, suite="tiny", seed=3, budget=100, points=2, verbose=False)
    rules = kb.suite_rules("tiny")
    assert rules["throws_per_half"] == 3 and rules["moves"] == 1
    assert [r["samples"] for r in rows] == [50, 100] and [r["iteration"] for r in rows] == [1, 2]
    want = [kingoal.nash_conv(p, p, **rules)["score_nash_conv"] for p in (_uniform, lambda o, m: np.argmax(m, axis=1))]
    for r, w in zip(rows, want):
        assert r["score_nash_conv"] == w and r["openspiel_nash_conv"] == 2 * w and r["openspiel_exploitability"] == w
        assert r["score_exploitability"] == w / 2 and r["suite"] == "tiny" and r["seed"] == 3 and r["exact"]
    assert rows[0]["seconds"] <= rows[1]["seconds"]
    path = tmp_path / "external" / "toy_seed3.parquet"
    table = kingoal.read_parquet(str(path))
    got = {k: list(v) for k, v in (table.items() if isinstance(table, dict) else table.to_pydict().items())}
    assert got["openspiel_nash_conv"] == [r["openspiel_nash_conv"] for r in rows], got
    # a rerun does not overwrite the finished curve: refused before any learning, unless force=True
    before = path.read_bytes()
    with pytest.raises(FileExistsError, match="force=True"):
        kb.run("toy", _Greedy().learn, _Greedy().policy, tmp_path, suite="tiny", seed=3, budget=100, points=2, verbose=False)
    assert path.read_bytes() == before
    assert len(kb.run("toy", _Greedy().learn, _Greedy().policy, tmp_path, suite="tiny", seed=3, budget=100, points=1, verbose=False,
                      force=True)) == 1
    # keep_final: the last point measured by keep, the same figure, the policy in the zoo with its card
    again = kb.run("toy", _Greedy().learn, _Greedy().policy, tmp_path / "kept", suite="tiny", seed=3, budget=100, points=2,
                   verbose=False, keep_final=True)
    assert [r["openspiel_nash_conv"] for r in again] == [r["openspiel_nash_conv"] for r in rows[:1]] + [kingoal.nash_conv(
        _uniform, _uniform, **rules)["openspiel_nash_conv"]]  # a fresh learner's policy() is uniform at its last point too
    assert (tmp_path / "kept" / "zoo" / "toy_seed3.card.json").exists()
    assert set(got) == {"suite", "learner", "rules", "seed", "iteration", "samples", "passes", "seconds", "openspiel_nash_conv",
                        "openspiel_exploitability", "score_nash_conv", "score_exploitability", "exact", "openspiel_nash_conv_ci95"}


def test_run_by_time_gives_learn_each_stretchs_deadline(tmp_path):
    """minutes=: learn(None, deadline=T) once a point, T the end of an even stretch of the
    time, and the rows' seconds the learning's own."""
    import time
    calls = []

    def learn(target, deadline=None):
        calls.append((target, deadline - time.perf_counter()))
        time.sleep(0.05)
        return 10 * len(calls)
    rows = kb.run("timed", learn, lambda: _uniform, tmp_path, minutes=0.01, points=2, verbose=False)
    assert [t for t, _ in calls] == [None, None] and all(0 < left <= 0.3 for _, left in calls)
    assert [r["samples"] for r in rows] == [10, 20] and rows[-1]["seconds"] >= 0.1


def test_learn_threads_limits_the_native_pools_while_learning(tmp_path):
    threadpoolctl = need("threadpoolctl")

    def pools():
        return {p["internal_api"]: p["num_threads"] for p in threadpoolctl.threadpool_info()}
    before, seen = pools(), []

    def learn(target):
        seen.append(pools())
        return target
    kb.run("threads", learn, lambda: _uniform, tmp_path, budget=2, points=2, learn_threads=1, verbose=False)
    assert before and seen == [{api: 1 for api in before}] * 2 and pools() == before


def test_bad_input_is_refused(tmp_path):
    toy = _Greedy()
    with pytest.raises(ValueError, match="suite 'huge'"):
        kb.run("toy", toy.learn, toy.policy, tmp_path, suite="huge", verbose=False)
    with pytest.raises(ValueError, match="points"):
        kb.run("toy", toy.learn, toy.policy, tmp_path, points=0, verbose=False)
    with pytest.raises(ValueError, match="learn returned"):
        kb.run("toy", lambda target: "lots", toy.policy, tmp_path, budget=10, points=1, verbose=False)
    for threads in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="learn_threads"):
            kb.run("toy", toy.learn, toy.policy, tmp_path, learn_threads=threads, verbose=False)
    for minutes in (0, -1.0, float("inf"), float("nan"), True, "5"):
        with pytest.raises(ValueError, match="minutes"):
            kb.run("toy", toy.learn, toy.policy, tmp_path, minutes=minutes, verbose=False)
    row = kb.measure(_uniform, "toy", 1)
    for bad, match in ((dict(learner="../escape"), "learner"), (dict(score_nash_conv=5.0), "score_nash_conv"), (dict(seconds=float("nan")), "NaN"),
                       (dict(iteration=0), "iteration"), (dict(suite="nope"), "suite")):
        with pytest.raises(ValueError, match=match):
            kb.write([dict(row, **bad)], tmp_path)
    assert not (tmp_path / "external" / "toy_seed0.parquet").exists()


def test_keep_puts_the_policy_in_the_zoo(tmp_path):
    """keep tabulates the final policy (a pair: home's and away's) into DIR/zoo with its card:
    the card's table is the file beside it (size and SHA-256), its exploitability the one
    save_policy measured (the score scale's), its scores against the reference agents."""
    import hashlib
    import json
    first = lambda obs, mask: np.argmax(mask, axis=1)  # noqa: E731
    kept = kb.keep((_uniform, first), tmp_path, "toy", suite="tiny", seed=2, budget=100)
    card = json.load(open(kept["card"]))
    table = tmp_path / "zoo" / "toy_seed2.kgp"
    data = table.read_bytes()
    assert card["format"] == "kingoal zoo card/1" and card["table"] == "toy_seed2.kgp" and card["bytes"] == len(data)
    assert card["sha256"] == hashlib.sha256(data).hexdigest() and card["learner"] == "toy" and card["seed"] == 2
    assert card["exploitability"] == kept["score_exploitability"] and [s["opponent"] for s in card["scores"]] == ["heuristic", "random"]
    want = kingoal.nash_conv(_uniform, first, **kb.suite_rules("tiny"))
    assert kept["openspiel_nash_conv"] == want["openspiel_nash_conv"]  # the table holds each side's own policy
    with pytest.raises(FileExistsError, match="force=True"):  # a finished table is not replaced unasked
        kb.keep(_uniform, tmp_path, "toy", suite="tiny", seed=2)
    assert table.read_bytes() == data


def test_evaluate_and_arena_read_a_zoo_card(tmp_path):
    """A zoo policy's exploitability in kingoal.evaluate and kingoal.arena is its card's exact
    figure (said so in the method) while the card describes the file; an edited card is a
    warning, and the policy is measured instead — to the same figure, the card being honest."""
    import json
    rules = kb.suite_rules("tiny")
    kept = kb.keep(_uniform, tmp_path, "toy", suite="tiny", seed=4)
    spec = "table:file=" + str(tmp_path / "zoo" / "toy_seed4.kgp")
    ev = kingoal.evaluate(spec, vs=("random",), matches=10, **rules)["exploitability"]
    assert "zoo card" in ev["method"] and ev["exact"] and ev["value"] == kept["score_exploitability"], ev
    board = kingoal.arena([spec, "random"], str(tmp_path / "arena"), matches=2, **rules)
    rated = next(r["exploitability"] for r in board["ratings"] if r["agent"] == spec)
    assert "zoo card" in rated["method"] and rated["value"] == kept["score_exploitability"], rated
    with open(kept["card"]) as f:
        card = json.load(f)
    card["sha256"] = "0" * 64
    with open(kept["card"], "w") as f:  # closed (flushed) before Go reads it
        json.dump(card, f)
    with pytest.warns(UserWarning, match="is not a zoo card.*measured instead"):
        ev = kingoal.evaluate(spec, vs=("random",), matches=10, **rules)["exploitability"]
    assert "zoo card" not in ev["method"] and ev["exact"] and abs(ev["value"] - kept["score_exploitability"]) < 1e-12, ev


def test_tables_fit_where_a_softmax_table_does():
    """A soft policy's table is kept at the tiny and standard suites, not at the default one
    (2 × 337 M break states a side's mix); the suites' break states are the solver's."""
    sizes = {name: s["break_states"] for name, s in kb.suites().items()}
    assert sizes["default"] == 337_328_640 and sizes["tiny"] < sizes["standard"] < sizes["default"]
    assert kb.tables_fit("tiny") and kb.tables_fit("standard") and not kb.tables_fit("default")
    assert kb.tables_fit("default", max_gib=1000)
    with pytest.raises(ValueError, match="suite 'huge'"):
        kb.tables_fit("huge")
    for bad in (0, -1, float("nan"), "12"):
        with pytest.raises(ValueError, match="max_gib"):
            kb.tables_fit("tiny", max_gib=bad)


def test_keep_network_refuses_what_go_cannot_play(tmp_path):
    """kb.network reads a chain of dense layers and refuses any other module by name; a network
    whose shapes are wrong is refused by Go before anything is written; an existing network is
    not replaced unless force=True. The network's play is checked against the measured policy
    in test_learners.test_kept_networks_measure_again_to_the_same_figure."""
    torch = need("torch")
    nn = torch.nn
    with pytest.raises(ValueError, match="Conv1d"):
        kb.network(nn.Sequential(nn.Conv1d(1, 1, 3)))
    with pytest.raises(ValueError, match="follows no Linear"):
        kb.network(nn.ReLU())
    good = kb.network(nn.Sequential(nn.Linear(kingoal.OBS_SIZE, 8), nn.Tanh()), nn.Linear(8, kingoal.NUM_ACTIONS))
    assert [(l["in"], l["out"], l["activation"]) for l in good["layers"]] == [(36, 8, "tanh"), (8, 121, "")]
    wrong = kb.network(nn.Linear(kingoal.OBS_SIZE - 1, kingoal.NUM_ACTIONS))
    with pytest.raises(ValueError, match="want 36 inputs"):
        kb.keep_network([wrong], tmp_path, "wrong", 0.1, suite="tiny")
    assert not (tmp_path / "zoo" / "wrong_seed0.kgn").exists()
    with pytest.raises(ValueError, match="weights sum to 0"):
        kb.keep_network([dict(good, weight=0.0)], tmp_path, "zero", 0.1, suite="tiny")
    kept = kb.keep_network([good], tmp_path, "good", 0.1, suite="tiny")
    assert kept["policy"].endswith("good_seed0.kgn") and kept["card"].endswith("good_seed0.card.json")
    with pytest.raises(FileExistsError):
        kb.keep_network([good], tmp_path, "good", 0.1, suite="tiny")
    kb.keep_network(([good], [good]), tmp_path, "good", 0.1, suite="tiny", force=True)
