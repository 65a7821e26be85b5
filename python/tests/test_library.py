"""The solver and the Parquet readers through the native library."""
import os

import numpy as np
import pytest

import kingoal
from conftest import need


def test_solve_odds_reference_figures():
    o = kingoal.solve_odds("2-2-2-2-2", "2-2-2-2-2", moves=0)  # docs/rules.md §10
    assert abs(o["home_win"] - 0.4263056) < 5e-8 and abs(o["draw"] - 0.1473888) < 5e-8
    assert abs(o["home_goals_mean"] - 3.7227816) < 5e-8
    t = kingoal.solve_odds("2-2-2-2-2", "2-2-2-2-2", ties_count=True)
    assert abs(t["home_win"] - 0.4162050) < 5e-8
    with pytest.raises(ValueError, match="home="):
        kingoal.solve_odds("6-1-1-1-1", "2-2-2-2-2")


def test_equilibrium_and_optimum():
    eq = kingoal.equilibrium(throws_per_half=6)
    assert abs(sum(eq["home"].values()) - 1) < 1e-9 and eq["exploitability"] < 1e-6
    opt = kingoal.optimal_value("2-2-2-2-2", throws_per_half=6, moves=1)
    keep = kingoal.solve_odds(opt["lineup"], "2-2-2-2-2", throws_per_half=6, moves=1)["home_win"]
    assert keep - 1e-12 <= opt["value"] < 1  # the optimal policy does at least as well as never changing
    assert kingoal.lineup(0) == "1-1-1-2-5" and kingoal.lineup(120) == "5-2-1-1-1"
    assert kingoal.lineup_index("1-2-3-3-1") == [kingoal.lineup(i) for i in range(121)].index("1-2-3-3-1")


FILES = {
    "matrix/matrix.parquet": ("matrix/1", "home_win", 121 * 121),
    "equilibrium.parquet": ("equilibrium/1", "probability", None),
    "policy.parquet": ("policy/1", None, None),
    "run/matches.parquet": ("matches/2", "home_goals", 12),
    "run/throws.parquet": ("throws/2", "outcome", None),
    "run/decisions.parquet": ("decisions/1", "observation", None),
    "run/ratings.parquet": ("ratings/3", "rating", 3),
    "q.curve.parquet": ("learning-curve/3", "score", None),
    "game.parquet": ("game/1", "probability", None),
    "generated/decisions.parquet": ("decisions/1", "observation", None),
    "generated/matches.parquet": ("matches/2", "home_goals", 8),
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_ecosystems_readers_read_every_file(data_dir, name):
    """pyarrow, pandas, Polars and DuckDB read each file we write: the same rows and columns
    as our reader, the same values in a numeric column, lists as lists."""
    pq = need("pyarrow.parquet")
    pd, pl, duckdb = need("pandas"), need("polars"), need("duckdb")
    path = os.path.join(data_dir, name)
    ours = kingoal.read_parquet(path)
    table = pq.read_table(path)
    assert table.num_rows == ours.rows and table.column_names == list(ours)
    assert table.schema.metadata[b"kingoal.schema"].decode() == ours.schema
    frames = {"pandas": pd.read_parquet(path), "polars": pl.read_parquet(path),
              "duckdb": duckdb.sql(f"SELECT * FROM read_parquet('{path}')").df()}
    for who, df in frames.items():
        assert len(df) == ours.rows and list(df.columns) == list(ours), who
    for col, values in ours.items():
        if values.ndim == 1 and values.dtype.kind in "iufb":
            for who, df in frames.items():
                got = df[col].to_numpy()
                assert np.array_equal(np.asarray(got, values.dtype), values), (who, col)
            break
    for col in ("observation", "mask", "home_values"):
        if col in ours:
            first = table.column(col)[0].as_py()
            assert isinstance(first, list) and list(frames["polars"][col][0]) == first, col


@pytest.mark.parametrize("name", sorted(FILES))
def test_read_parquet_every_file(data_dir, name):
    schema, column, rows = FILES[name]
    d = kingoal.read_parquet(os.path.join(data_dir, name))
    assert d.schema.startswith(schema.split("/")[0]) and "__schema__" not in d
    n = {len(v) for v in d.values()}
    assert n == {d.rows}
    assert len(n) == 1, "columns of different lengths"
    if rows is not None:
        assert n == {rows}
    if column:
        assert column in d
    if name == "run/decisions.parquet":
        assert d["observation"].shape[1] == 36 and d["observation"].dtype == np.float32
        assert d["mask"].shape[1] == 121 and d["mask"].dtype == np.bool_
        assert d["mask"].any(axis=1).all()  # never empty at a decision
    if name == "matrix/matrix.parquet":
        np.testing.assert_allclose(d["home_win"] + d["draw"] + d["away_win"], 1, atol=1e-9)


def test_read_parquet_refuses_bad_files(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet at all")
    with pytest.raises(ValueError, match="not a readable Parquet file"):
        kingoal.read_parquet(bad)
    with pytest.raises(ValueError, match="no such file"):
        kingoal.read_parquet(tmp_path / "missing.parquet")


def test_python_integers_never_wrap():
    """ctypes wraps integers silently (2**64 + 7 → 7, -1 → a huge seed): every number that
    crosses into the library is checked first."""
    for bad in (-1, 121, 2**64 + 7, True, 2.0):
        with pytest.raises(ValueError, match="index="):
            kingoal.lineup(bad)
    for n in (0, 2**31, -1):
        with pytest.raises(ValueError, match="num_envs="):
            kingoal.VecEnv(num_envs=n)
    v = kingoal.VecEnv(num_envs=2)
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match="seed="):
            v.reset(seed=seed)
    v.reset(seed=2**64 - 1)
    with pytest.raises(ValueError):
        v.step(np.array([2**64 - 1, 0], dtype=np.uint64))  # would wrap to -1 in int64
    with pytest.raises(ValueError, match="episode="):
        kingoal.episode_seed(1, 0, -1)
    assert kingoal.lineup(np.int64(120)) == "5-2-1-1-1"


def test_none_is_not_the_default():
    """A keyword given as None is refused in its own name: JSON's null would otherwise leave
    the default in place, silently."""
    with pytest.raises(ValueError, match=r"moves=None: want a value"):
        kingoal.KingoalEnv(moves=None)
    with pytest.raises(ValueError, match=r"throws_per_half=None: want a value"):
        kingoal.solve_odds("2-2-2-2-2", "2-2-2-2-2", throws_per_half=None)
    with pytest.raises(ValueError, match=r"max_steps=None: want a value"):
        kingoal.KingoalEnv(max_steps=None)
    with pytest.raises(ValueError, match=r"knockout=None: want a value"):
        kingoal.VecEnv(num_envs=2, knockout=None)


def test_library_calls_from_threads():
    """The library calls are safe from any thread (the README says so): four threads at once
    get the answers one thread gets."""
    import threading
    want = kingoal.solve_odds("1-2-3-3-1", "2-2-2-2-2", throws_per_half=8)
    got, errors = [], []

    def work():
        try:
            for _ in range(5):
                got.append(kingoal.solve_odds("1-2-3-3-1", "2-2-2-2-2", throws_per_half=8))
                kingoal.lineup(7)
        except Exception as e:  # noqa: BLE001 - any failure is the finding
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(got) == 20 and all(g == want for g in got)


def test_every_rule_knob_is_documented_and_accepted():
    """The knobs come from the Go table (env.KnobTable): each is named in KingoalEnv's
    docstring and the docs' Python guide, and each is accepted as a keyword."""
    from kingoal import _native as N
    python_section = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "getting-started", "python.md")).read()
    for k in N.call("knobs"):
        assert f"`{k['Name']}`" in python_section, k["Name"]
        kingoal.VecEnv(1, **{k["Name"]: type_of(k["Default"])})
    need("gymnasium")
    for k in N.call("knobs"):
        assert k["Name"] in kingoal.KingoalEnv.__doc__, k["Name"]


def type_of(text):
    """A knob's default as the Python value a user passes."""
    if text in ("true", "false"):
        return text == "true"
    return int(text) if text.isdigit() else text


def test_solve_game_and_its_table(tmp_path):
    path = tmp_path / "game.kgt"
    g = kingoal.solve_game(throws_per_half=4, moves=2, out=path)
    assert abs(g.value) < 1e-12 and g.payoff == "win-loss" and g.moves == 2  # symmetric rules
    assert g.verification["exploitability"] <= 1e-9
    for side in ("home", "away"):
        assert abs(sum(g.kickoff_mix(side).values()) - 1) < 1e-9
    with pytest.raises(ValueError, match="exists"):
        kingoal.solve_game(throws_per_half=4, moves=2, out=path)  # a finished table is not replaced by surprise
    t = kingoal.load_game(path)
    assert t.value == g.value and t.kickoff_mix("away") == g.kickoff_mix("away") and t.stats == g.stats and t.rules == g.rules
    state = dict(period="second half", throws_left=3, goal_diff=-1, home="2-2-2-2-2", away=kingoal.lineup_index("1-2-3-3-1"),
                 home_moves=2, away_moves=1)
    a, b = g.mix(state), t.mix(**state)
    assert a["home"] == b["home"] and a["away"] == b["away"] and abs(a["value"] - b["value"]) < 1e-7
    assert abs(sum(a["home"].values()) - 1) < 1e-9 and -1 <= a["value"] <= 0  # home is behind
    with pytest.raises(ValueError, match="no match reaches"):
        g.mix(state, goal_diff=-3, period="first half", throws_left=4)
    with pytest.raises(ValueError, match="missing"):
        g.mix(period="first half")
    with pytest.raises(ValueError, match="period"):
        g.mix(state, period="half time")
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(ValueError, match="truncated"):
        kingoal.load_game(path)
    with pytest.raises(TypeError):
        import pickle
        pickle.dumps(g)


def test_solve_game_with_a_dynamic_side_and_its_table(tmp_path):
    path = tmp_path / "dynamic.kgt"
    g = kingoal.solve_game(throws_per_half=4, moves=1, away_mode="dynamic", dynamic_trigger="turnover", out=path)
    assert g.dynamic and g.verification["exploitability"] <= 1e-9 and g.value < 0  # the Dynamic side is ahead
    t = kingoal.load_game(path)
    assert t.dynamic and t.value == g.value and t.stats == g.stats and t.kickoff_mix("home") == g.kickoff_mix("home")
    assert t.verification == g.verification and "basic v dynamic" in t.rules
    with pytest.raises(ValueError, match="keeps each decision"):
        t.mix(period="first half", throws_left=4, goal_diff=0, home="2-2-2-2-2", away="2-2-2-2-2", home_moves=1, away_moves=0)
    b = kingoal.solve_game(throws_per_half=4, moves=1)
    assert not b.dynamic
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(ValueError, match="bad dynamic game table"):
        kingoal.load_game(path)


def test_solve_game_without_moves_is_the_lineup_equilibrium():
    # With no moves the game is the hidden line-up choice alone: two separate solvers.
    g = kingoal.solve_game(throws_per_half=6, moves=0)
    eq = kingoal.equilibrium(throws_per_half=6, moves=0)
    assert abs(g.value - eq["value"]) < 1e-9
    assert max(abs(g.kickoff_mix("home").get(k, 0) - v) for k, v in eq["home"].items()) < 1e-6


def test_solve_game_stops_when_cancelled():
    from kingoal import _native as N
    job = N.call("game_solve", payoff="win-loss", verify=True, max_gib=12, rules={"throws_per_half": 10, "moves": 2})
    assert not N.call("game_wait", job=job["job"], ms=300)["done"]
    N.call("game_cancel", job=job["job"])
    with pytest.raises(RuntimeError, match="interrupted"):
        N.call("game_wait", job=job["job"], ms=1000)
    with pytest.raises(ValueError, match="max_gib"):
        kingoal.solve_game(throws_per_half=45, moves=3, max_gib=1)


_COUNTS = np.array([[int(c) for c in kingoal.lineup(i).split("-")] for i in range(kingoal.NUM_ACTIONS)])
_BY_KEY = np.full(11 ** 5, -1)
_BY_KEY[_COUNTS @ (11 ** np.arange(5))] = np.arange(kingoal.NUM_ACTIONS)
_ATTACK = _COUNTS @ np.arange(1, 6)  # Σ (sector) × counters: how far forward a line-up stands
_ONE_MOVE = np.maximum(_COUNTS[:, None, :] - _COUNTS[None, :, :], 0).sum(axis=2) <= 1  # [from, to]


def _own_lineups(obs):
    """Each row's own line-up index, from the observation's counters (slots 0–4, ÷5); −1
    before the kick-off (no counters yet)."""
    counts = np.rint(obs[:, 0:5] * 5).astype(int)
    return np.where(counts.sum(axis=1) > 0, _BY_KEY[counts @ (11 ** np.arange(5))], -1)


def _heuristic(half, late=0.34, kick="1-2-3-3-1"):
    """agents/heuristic.go in Python (vectorised): keep, except late and not level — one
    counter forward when behind, back when ahead: the first line-up one counter away that
    stands furthest that way, if it beats keeping."""
    def policy(obs, mask):
        own = _own_lineups(obs)
        period = np.argmax(obs[:, 18:24], axis=1)
        left = np.rint(obs[:, 24] * half).astype(int) + np.where(period == 1, half, 0)
        diff = np.rint(obs[:, 15] * 5).astype(int)
        sign = np.where(diff > 0, -1, 1)
        score = np.where(mask.astype(bool) & _ONE_MOVE[np.maximum(own, 0)], sign[:, None] * _ATTACK[None, :], np.iinfo(int).min)
        best = np.argmax(score, axis=1)
        moves = ((period >= 3) | (left <= late * 2 * half)) & (diff != 0) & (score[np.arange(len(obs)), best] > sign * _ATTACK[np.maximum(own, 0)])
        return np.where(obs[:, 30] == 1, kingoal.lineup_index(kick), np.where(moves, best, own))

    return policy


_RULES = dict(throws_per_half=3, moves=1)  # the rules of the figures go test writes: 3 throws a half is the shortest where line-ups matter
_START = kingoal.lineup_index("1-2-3-3-1")
_POLICIES = {
    "fixed": lambda obs, mask: np.where(obs[:, 30] == 1, _START, _own_lineups(obs)),
    "heuristic": _heuristic(3, late=1.0),  # heuristic:late=1: it moves after every goal
    "random": lambda obs, mask: mask / mask.sum(axis=1, keepdims=True),
}


def _go_exploitability(data_dir, name):
    import json
    with open(os.path.join(data_dir, f"eval-{name}.json")) as f:
        want = json.load(f)["exploitability"]
    assert want["exact"] and want["value"] > 0.01, want  # a figure that tells policies apart
    return want["value"]


def test_exploitability_of_callables_is_the_go_agents(data_dir):
    # fixed, heuristic and random written in Python: the exact figure of the Go agent (kingoal
    # eval, averaged over both sides), to 1e-12 — by nash_conv of the policy against itself,
    # whose sides are each side's exploitability (checked against exploitability once).
    for name, policy in _POLICIES.items():
        want = _go_exploitability(data_dir, name)
        conv = kingoal.nash_conv(policy, policy, **_RULES)
        got = (conv["home"]["exploitability"] + conv["away"]["exploitability"]) / 2
        assert abs(got - want) < 1e-12 and abs(conv["exploitability"] - want) < 1e-12, (name, conv, want)
        assert abs(conv["nash_conv"] - 2 * want) < 1e-12, conv
        assert kingoal.lineup_index(conv["home"]["best_response_kickoff"]) >= 0
        if name == "heuristic":
            away = kingoal.exploitability(policy, player="away", **_RULES)
            assert away["best_response"] == conv["away"]["best_response"] and away["player"] == "away", (away, conv)


def test_nash_conv_of_two_policies(data_dir):
    # A best response to one side's policy does not depend on the other side's: fixed at home
    # with random away, then the other way round, give both Go agents' figures.
    one = kingoal.nash_conv(_POLICIES["fixed"], _POLICIES["random"], **_RULES)
    two = kingoal.nash_conv(_POLICIES["random"], _POLICIES["fixed"], **_RULES)
    for name, home, away in (("fixed", one, two), ("random", two, one)):
        got = (home["home"]["exploitability"] + away["away"]["exploitability"]) / 2
        assert abs(got - _go_exploitability(data_dir, name)) < 1e-12, (name, one, two)
    assert abs(one["nash_conv"] - one["home"]["exploitability"] - one["away"]["exploitability"]) < 1e-12, one


def test_save_policy_plays_as_a_table_agent(data_dir):
    # The Python heuristic saved as a policy table: its exploitability is the Go heuristic's;
    # the env plays it as the opponent spec table:file=; go test then puts it in an arena.
    path = os.path.join(data_dir, "py-heuristic.kgp")
    res = kingoal.save_policy(_POLICIES["heuristic"], path, name="py-heuristic", **_RULES)
    assert abs(res["exploitability"] - _go_exploitability(data_dir, "heuristic")) < 1e-12, res
    assert res["states"] > 0 and os.path.getsize(path) > 0
    with pytest.raises(FileExistsError, match="force=True"):
        kingoal.save_policy(_POLICIES["heuristic"], path, **_RULES)
    need("gymnasium")
    env = kingoal.KingoalEnv(opponent=f"table:file={path}", **_RULES)
    env.reset(seed=3)
    done = False
    while not done:
        _, _, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = term or trunc
    with pytest.raises(ValueError, match="tabulated for"):
        kingoal.KingoalEnv(opponent=f"table:file={path}", throws_per_half=4, moves=1)


def test_python_policies_in_the_arena(data_dir, tmp_path):
    # A Python policy played live beside registry agents in a kingoal arena: it plays the
    # matches the Go heuristic plays, with the Go heuristic's exact exploitability; the run
    # resumes; tabulate=True plays its table; eval of a callable is the Go agent's.
    out, agents = tmp_path / "run", [("pyheur", _POLICIES["heuristic"]), "heuristic:late=1", "random"]
    lb = kingoal.arena(agents, out, matches=4, **_RULES)
    ratings = {r["agent"]: r["exploitability"] for r in lb["ratings"]}
    want = _go_exploitability(data_dir, "heuristic")
    py = ratings["live:pyheur"]
    assert py["exact"] and abs(py["value"] - want) < 1e-12 and abs(ratings["heuristic:late=1"]["value"] - want) < 1e-12, ratings
    assert lb["matches"] == 12 and (out / "matches.parquet").exists()
    assert kingoal.arena(agents, out, matches=4, resume=True, **_RULES) == lb
    go = kingoal.arena(["heuristic", "heuristic:late=1", "random"], tmp_path / "go", matches=4, exploitability=False, **_RULES)
    assert lb["head_to_head"] == go["head_to_head"], (lb, go)  # the same matches: the same dice, the same choices
    tab = kingoal.arena(agents, tmp_path / "tab", matches=4, tabulate=True, **_RULES)
    (t,) = [r["exploitability"] for r in tab["ratings"] if r["agent"].endswith("#pyheur")]
    assert abs(t["value"] - want) < 1e-12, tab
    with pytest.raises(FileExistsError, match="resume=True"):
        kingoal.arena([("pyheur", _POLICIES["heuristic"]), "random"], out, **_RULES)
    with pytest.raises(ValueError, match="unknown agent"):
        kingoal.arena(["nobody", "random"], tmp_path / "bad", **_RULES)
    got = kingoal.evaluate(_POLICIES["fixed"], vs=["random"], matches=20, **_RULES)  # by matches: the same ones
    go = kingoal.evaluate("fixed:1-2-3-3-1", vs=["random"], matches=20, **_RULES)
    assert got["exploitability"]["value"] == go["exploitability"]["value"], (got, go)
    assert got["reports"] == go["reports"], (got, go)
    tab = kingoal.evaluate(_POLICIES["fixed"], vs=["fixed:2-2-2-2-2"], tabulate=True, **_RULES)  # a table: exact
    go = kingoal.evaluate("fixed:1-2-3-3-1", vs=["fixed:2-2-2-2-2"], **_RULES)
    assert tab["reports"][0]["exact"] and tab["reports"] == go["reports"], (tab, go)


def test_live_policies_with_state_and_failures(tmp_path, capsys):
    # A policy with state (stationary = False) is told each row's match and first decision,
    # and its exploitability is not computed; a policy's exception ends the run and is raised.
    class Counting:
        stationary = False

        def __init__(self):
            self.firsts, self.rows = {}, 0

        def __call__(self, obs, mask, match, first):
            for m, f in zip(match, first):
                self.firsts[int(m)] = self.firsts.get(int(m), 0) + int(f)
            self.rows += len(obs)
            return mask / mask.sum(axis=1, keepdims=True)
    pol = Counting()
    lb = kingoal.arena([("counting", pol), "heuristic"], tmp_path / "run", matches=10, progress=True, **_RULES)
    assert sorted(pol.firsts) == list(range(10)) and set(pol.firsts.values()) == {1}, pol.firsts
    shown = capsys.readouterr().err
    assert shown.startswith("\rkingoal: ") and shown.endswith("\n"), shown
    (e,) = [r["exploitability"] for r in lb["ratings"] if r["agent"] == "live:counting"]
    assert e["value"] is None and e["method"].startswith("not computed"), e
    ev = kingoal.evaluate(pol, vs=["random"], matches=6, **_RULES)
    assert ev["exploitability"]["value"] is None and ev["reports"][0]["matches"] == 6, ev

    def broken(obs, mask):
        raise TypeError("broken live policy")
    with pytest.raises(TypeError, match="broken live policy"):
        kingoal.arena([("broken", broken), "random"], tmp_path / "broken", matches=4, exploitability=False, **_RULES)
    with pytest.raises(ValueError, match="not legal there"):
        kingoal.arena([("bad", lambda obs, mask: np.full(len(obs), 121)), "random"], tmp_path / "bad", matches=4,
                      exploitability=False, **_RULES)
    assert (tmp_path / "broken").exists()  # the run is kept for a resume


def test_exploitability_reads_float32_actions_and_torch_answers(capsys, monkeypatch):
    # The answers Python's networks give — float32 softmax rows, actions of any integer
    # type, torch tensors with device= — read as the float64 rows they stand for; and only
    # decisions with a choice are asked (a side with no moves left has one legal line-up).
    rules = dict(throws_per_half=3, moves=1)
    asked = []

    def uniform(obs, mask):
        asked.append(mask.sum(axis=1))
        return mask / mask.sum(axis=1, keepdims=True)
    want = kingoal.nash_conv(uniform, uniform, progress=True, **rules)["nash_conv"]
    rows = np.concatenate(asked)
    shown = capsys.readouterr().err
    assert shown.startswith("\rkingoal: exploitability: 0% of the solve") and shown.endswith("decisions asked\n"), shown
    assert rows.min() >= 2 and len(rows) / len(asked) > 5000, (rows.min(), len(rows), len(asked))  # no forced row; big batches
    got = kingoal.nash_conv(lambda o, m: uniform(o, m).astype(np.float32), lambda o, m: uniform(o, m).astype(np.float32), **rules)
    assert abs(got["nash_conv"] - want) < 1e-6, (got, want)
    from kingoal import exploit
    monkeypatch.setattr(exploit, "_ROWS", 1000)  # buffers smaller than the solve's chunks: each asked in pieces
    asked.clear()
    assert kingoal.nash_conv(uniform, uniform, **rules)["nash_conv"] == want
    assert max(len(a) for a in asked) == 1000, max(len(a) for a in asked)
    fixed = _POLICIES["fixed"]
    want = kingoal.exploitability(fixed, **rules)["exploitability"]
    for dtype in (np.uint8, np.int32, np.int64, np.float32):
        got = kingoal.exploitability(lambda o, m: fixed(o, m).astype(dtype), **rules)["exploitability"]
        assert got == want, (dtype, got, want)
    torch = pytest.importorskip("torch")

    def softmax(obs, mask):
        assert isinstance(obs, torch.Tensor) and obs.dtype == torch.float32, type(obs)
        return torch.softmax(torch.zeros(mask.shape).masked_fill(mask == 0, float("-inf")), 1)
    got = kingoal.exploitability(softmax, device="cpu", **rules)["exploitability"]
    assert abs(got - kingoal.exploitability(uniform, **rules)["exploitability"]) < 1e-6, got


def test_exploitability_limits_native_threads_while_it_solves():
    # OpenBLAS's idle threads and torch's second OpenMP thread fight the solve's goroutines:
    # threadpoolctl limits them to native_threads while it runs (the policy sees the limit),
    # and gives them back after, also when the policy fails; None leaves them alone.
    threadpoolctl = need("threadpoolctl")
    rules = dict(throws_per_half=2, moves=1)
    uniform = lambda obs, mask: mask / mask.sum(axis=1, keepdims=True)  # noqa: E731
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="native_threads"):
            kingoal.exploitability(uniform, native_threads=bad, **rules)
    with pytest.raises(TypeError, match="native_threads"):
        kingoal.exploitability(uniform, blas_threads=1, **rules)

    def counts():
        return sorted((i["internal_api"], i["filepath"], i["num_threads"]) for i in threadpoolctl.threadpool_info())
    with threadpoolctl.threadpool_limits(limits=2):  # so that 1 is seen to be set, on a machine of two cores or more
        before = counts()
        if not before:
            pytest.skip("no BLAS or OpenMP library is loaded in this process")
        seen = []

        def watched(obs, mask):
            seen.append(counts())
            return uniform(obs, mask)
        want = kingoal.exploitability(uniform, native_threads=None, **rules)["exploitability"]
        assert kingoal.exploitability(watched, **rules)["exploitability"] == want
        assert seen and all(n == 1 for s in seen for _, _, n in s), seen
        assert counts() == before
        seen.clear()
        with pytest.raises(TypeError, match="broken"):  # given back when the policy fails too
            kingoal.exploitability(lambda o, m: (_ for _ in ()).throw(TypeError("broken")), **rules)
        assert counts() == before
        kingoal.nash_conv(watched, watched, native_threads=None, **rules)
        assert seen and all(s == before for s in seen), (seen, before)


def test_unmasked_mixes_are_masked_in_go():
    # masked=False: a softmax over all 121 line-ups, illegal ones included, measures as the
    # same softmax masked in Python — float32 and float64 alike; a row that does not sum to
    # 1 over all, or weighs no legal line-up, is still refused, naming it.
    rules = dict(throws_per_half=3, moves=1)
    logits = np.random.default_rng(5).normal(size=(kingoal.OBS_SIZE, kingoal.NUM_ACTIONS))

    def softmax(obs, mask, dtype=np.float64, masked=True):
        z = obs.astype(np.float64) @ logits
        if masked:
            z = np.where(mask > 0, z, -np.inf)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).astype(dtype)
    want = kingoal.nash_conv(softmax, softmax, **rules)["nash_conv"]
    for dtype in (np.float64, np.float32):
        free = lambda o, m: softmax(o, m, dtype, masked=False)  # noqa: E731
        got = kingoal.nash_conv(free, free, masked=False, **rules)["nash_conv"]
        assert abs(got - want) < (1e-12 if dtype == np.float64 else 1e-5), (dtype, got, want)
        with pytest.raises(ValueError, match="legal"):  # the same rows, masked=True: weight on illegal line-ups
            kingoal.nash_conv(free, free, **rules)
    with pytest.raises(ValueError, match="over all line-ups"):
        kingoal.exploitability(lambda o, m: 2 * softmax(o, m, masked=False), masked=False, **rules)
    with pytest.raises(ValueError, match="masked="):
        kingoal.exploitability(softmax, masked="no", **rules)


def test_exploitability_refuses_bad_policies():
    rules = dict(throws_per_half=2, moves=1)  # errors only: the shortest match
    with pytest.raises(ValueError, match="row 0: action 121"):
        kingoal.exploitability(lambda obs, mask: np.full(len(obs), 121), **rules)
    with pytest.raises(ValueError, match="shape"):
        kingoal.exploitability(lambda obs, mask: np.zeros((len(obs), 3)), **rules)
    with pytest.raises(ValueError, match="does not sum to 1"):
        kingoal.exploitability(lambda obs, mask: mask * 1.0, **rules)
    with pytest.raises(ValueError, match="NaN"):
        kingoal.exploitability(lambda obs, mask: np.full(mask.shape, np.nan), **rules)

    def illegal_at_breaks(obs, mask):  # legal at kick-off (every line-up), then out of reach
        return np.where(obs[:, 30] == 1, 0, 120)
    with pytest.raises(ValueError, match="not legal"):
        kingoal.exploitability(illegal_at_breaks, **rules)
    with pytest.raises(ValueError, match="player"):
        kingoal.exploitability(lambda obs, mask: mask, player="both", **rules)

    uniform = lambda obs, mask: mask / mask.sum(axis=1, keepdims=True)  # noqa: E731
    with pytest.raises(ValueError, match="complex"):  # not silently its real part
        kingoal.exploitability(lambda obs, mask: uniform(obs, mask).astype(np.complex128), **rules)
    with pytest.raises(ValueError, match="action 0.5 is not a whole number"):
        kingoal.exploitability(lambda obs, mask: np.full(len(obs), 0.5), **rules)
    for gib in (float("nan"), float("inf"), -1, 0, "12", True):
        with pytest.raises(ValueError, match="max_gib"):
            kingoal.exploitability(uniform, max_gib=gib, **rules)
        with pytest.raises(ValueError, match="max_gib"):
            kingoal.solve_game(max_gib=gib, **rules)

    def broken(obs, mask):  # the policy's own error reaches the caller; the solve ends
        raise TypeError("broken policy")
    with pytest.raises(TypeError, match="broken policy"):
        kingoal.exploitability(broken, **rules)


def test_analyse_a_match_against_the_game(tmp_path):
    g = kingoal.solve_game(**_RULES)
    run = tmp_path / "run"
    kingoal.arena(["random", "heuristic"], run, matches=2, exploitability=False, **_RULES)
    cols = kingoal.read_parquet(run / "matches.parquet")
    results = dict(zip(cols["match_id"].tolist(), cols["result"].tolist()))
    for match in (0, 1):
        rep = g.analyse(run, match)
        assert rep["match"] == match and rep["payoff"] == "win-loss" and len(rep["decisions"]) >= 2
        assert rep["curve"][0]["value"] == g.value and rep["curve"][0]["event"] == -1
        for d in rep["decisions"]:
            assert d["loss"] >= 0 and d["points"] == d["loss"] / 2
            assert d["grade"] in ("none", "inaccuracy", "mistake", "blunder")
            mix = {w["lineup"]: w["prob"] for w in d["equilibrium"]}
            if d["kind"] == "kick-off":
                assert d["value"] == g.value and mix == g.kickoff_mix(d["side"])
            if mix.get(d["chose"], 0) > 0:  # any line-up the equilibrium plays gives nothing away
                assert d["loss"] < 1e-9, d
        for side, a in zip(("home", "away"), rep["agents"]):
            mine = [d["points"] for d in rep["decisions"] if d["side"] == side]
            assert a["side"] == side and a["decisions"] == len(mine) and abs(a["points"] - sum(mine)) < 1e-12
        assert rep["curve"][-1]["value"] == {"home": 1, "draw": 0, "away": -1}[results[match]]
    with pytest.raises(ValueError, match="match"):
        g.analyse(run, -1)
    with pytest.raises(ValueError, match="solved under"):
        kingoal.solve_game(throws_per_half=2, moves=1).analyse(run, 0)
