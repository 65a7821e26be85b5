"""KingoalEnv and KingoalVectorEnv: the real Gymnasium checker, seeding, masks, errors, and
exact agreement with the Go environment."""
import numpy as np
import pytest

from conftest import need

gym = need("gymnasium")
import kingoal  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

RULESETS = [
    dict(opponent="heuristic"),
    dict(opponent="fixed:1-3-3-2-1", throws_per_half=8, ties_count=True, reward="goal-diff"),
    dict(opponent="random", knockout=True, throws_per_half=6, extra_throws=2, player="away", reward="points"),
    dict(opponent="mcts:iters=20", home_mode="dynamic", dynamic_trigger="turnover", throws_per_half=6),
    dict(opponent=lambda obs, mask: int(np.flatnonzero(mask)[-1]), throws_per_half=6),  # a Python opponent
]


@pytest.mark.parametrize("kwargs", RULESETS)
def test_gymnasium_check_env(kwargs):
    # Gymnasium's checker steps env.action_space.sample(), ignoring the mask: "keep" is the
    # mode for such callers (with "raise" it fails at the first illegal sample, as it should).
    env = kingoal.KingoalEnv(illegal_action="keep", **kwargs)
    check_env(env, skip_render_check=True)
    env.close()
    strict = kingoal.KingoalEnv(**kwargs)
    with pytest.raises(ValueError, match="illegal action"):
        check_env(strict, skip_render_check=True)


@pytest.mark.parametrize("opponent", ["heuristic", lambda obs, mask: int(np.flatnonzero(mask)[0])])
def test_illegal_action_keep_plays_the_current_lineup(opponent):
    """An illegal action under "keep" is the same match as keeping the line-up explicitly."""
    lax = kingoal.KingoalEnv(opponent=opponent, throws_per_half=10, moves=1, illegal_action="keep")
    strict = kingoal.KingoalEnv(opponent=opponent, throws_per_half=10, moves=1)
    flagged = 0
    for seed in range(10):
        _, il = lax.reset(options={"native_seed": seed})
        _, is_ = strict.reset(options={"native_seed": seed})
        kick = kingoal.lineup_index("2-2-2-2-2")
        a, b = lax.step(kick), strict.step(kick)
        assert a[4]["illegal_action"] is False and "illegal_action" not in b[4]
        while not a[2]:
            mask = a[4]["action_mask"]
            bad = np.flatnonzero(mask == 0)
            if len(bad) and not mask[kick]:
                raise AssertionError("the kept line-up must stay legal")
            # the agent keeps 2-2-2-2-2 all match: an illegal action in lax, the line-up in strict
            a, b = lax.step(int(bad[0])) if len(bad) else lax.step(kick), strict.step(kick)
            assert a[4]["illegal_action"] == bool(len(bad))
            flagged += bool(len(bad))
            np.testing.assert_array_equal(a[0], b[0])
            assert a[1:4] == b[1:4]
    assert flagged > 0
    with pytest.raises(ValueError, match="illegal_action='skip'"):
        kingoal.KingoalEnv(illegal_action="skip")
    with pytest.raises(ValueError):
        lax.reset(seed=1)
        lax.step(121)  # outside the action space: an error in either mode


def first_legal(mask):
    return int(np.flatnonzero(mask)[0])


def test_same_trajectory_as_go(reference):
    for tr in reference:
        kwargs = dict(tr["config"])
        env = kingoal.KingoalEnv(**kwargs)
        obs, info = env.reset(options={"native_seed": tr["native_seed"]})
        for k in range(len(tr["rewards"])):
            np.testing.assert_array_equal(obs, np.array(tr["obs"][k], dtype=np.float32))
            assert list(np.flatnonzero(info["action_mask"])) == tr["masks"][k]
            obs, r, term, trunc, info = env.step(first_legal(info["action_mask"]))
            assert r == tr["rewards"][k] and term == tr["terminated"][k]
        np.testing.assert_array_equal(obs, np.array(tr["obs"][-1], dtype=np.float32))
        assert term and not info["action_mask"].any()


def test_python_opponent_plays_like_the_registry_one():
    keep = kingoal.lineup_index("1-3-3-2-1")

    def fixed(obs, mask):  # kick-off: 1-3-3-2-1; after that keep the current line-up
        return keep if mask[keep] else int(np.flatnonzero(mask)[0])

    a = kingoal.KingoalEnv(opponent="fixed:1-3-3-2-1", throws_per_half=12)
    b = kingoal.KingoalEnv(opponent=fixed, throws_per_half=12)
    for seed in range(5):
        oa, ia = a.reset(options={"native_seed": seed})
        ob, ib = b.reset(options={"native_seed": seed})
        while True:
            np.testing.assert_array_equal(oa, ob)
            np.testing.assert_array_equal(ia["action_mask"], ib["action_mask"])
            act = int(np.flatnonzero(ia["action_mask"])[-1])
            oa, ra, ta, _, ia = a.step(act)
            ob, rb, tb, _, ib = b.step(act)
            assert ra == rb and ta == tb
            if ta:
                break


def test_seeding_is_reproducible():
    env = kingoal.KingoalEnv(opponent="random", throws_per_half=10)

    def episode(seed):
        obs, info = env.reset(seed=seed)
        out = [obs]
        rng = np.random.default_rng(0)
        done = False
        while not done:
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))) if info["action_mask"].any() else 0)
            out.append(obs)
            done = term or trunc
        return np.array(out), r

    a, b, c = episode(7), episode(7), episode(8)
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]
    assert a[0].shape != c[0].shape or not np.array_equal(a[0], c[0])


def test_illegal_action_raises_and_changes_nothing():
    env = kingoal.KingoalEnv(opponent="heuristic", throws_per_half=10)
    twin = kingoal.KingoalEnv(opponent="heuristic", throws_per_half=10)
    obs, info = env.reset(options={"native_seed": 3})
    twin.reset(options={"native_seed": 3})
    a = first_legal(info["action_mask"])
    env.step(a), twin.step(a)  # now at a break: most line-ups cost too many moves
    _, _, _, _, info = env.step(a)
    twin.step(a)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for bad in (illegal, -1, 121, 2.5, "3", True, 2**64 + illegal, 2**64 + 7):
        with pytest.raises(ValueError):
            env.step(bad)
    o1 = env.step(first_legal(info["action_mask"]))
    o2 = twin.step(first_legal(info["action_mask"]))
    np.testing.assert_array_equal(o1[0], o2[0])
    assert o1[1:4] == o2[1:4]


def test_errors_are_one_line_and_python_exceptions():
    with pytest.raises(ValueError, match="throws_per_half=0: want 1..10000"):
        kingoal.KingoalEnv(throws_per_half=0)
    with pytest.raises(ValueError, match="unknown field"):
        kingoal.KingoalEnv(throws_per_hlf=10)
    with pytest.raises(ValueError, match="unknown agent"):
        kingoal.KingoalEnv(opponent="grandmaster")
    with pytest.raises(ValueError, match="qlearning needs a model"):
        kingoal.KingoalEnv(opponent="qlearning")
    with pytest.raises(ValueError, match="render_mode"):
        kingoal.KingoalEnv(render_mode="rgb")
    env = kingoal.KingoalEnv(throws_per_half=2, moves=0)
    with pytest.raises(RuntimeError, match="before Reset"):
        env.step(0)
    _, info = env.reset(seed=1)
    done = False
    while not done:
        _, _, term, trunc, info = env.step(first_legal(info["action_mask"]) if info["action_mask"].any() else 0)
        done = term or trunc
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    env.close()
    env.close()  # twice is fine
    with pytest.raises(RuntimeError, match="closed"):
        env.reset(seed=1)


def test_render_ansi_is_the_transcript():
    env = kingoal.KingoalEnv(opponent="heuristic", throws_per_half=4, render_mode="ansi")
    _, info = env.reset(seed=2)
    env.step(first_legal(info["action_mask"]))
    text = env.render()
    assert text.startswith("kick-off: home 1-1-1-2-5") and "H1 4 ball 3:" in text
    assert env.render() == ""  # only what happened since the last render


def test_registered_and_make_vec():
    env = gym.make("Kingoal-v0", opponent="heuristic", throws_per_half=6)
    obs, info = env.reset(seed=0)
    assert obs.shape == (36,) and info["action_mask"].shape == (121,)
    envs = gym.make_vec("Kingoal-v0", num_envs=4, vectorization_mode="vector_entry_point", opponent="random", throws_per_half=6)
    assert isinstance(envs.unwrapped, kingoal.KingoalVectorEnv)
    obs, infos = envs.reset(seed=1)
    assert obs.shape == (4, 36) and infos["action_mask"].shape == (4, 121)


def play_vector(n, seed, steps, **kwargs):
    v = kingoal.KingoalVectorEnv(num_envs=n, **kwargs)
    obs, infos = v.reset(seed=seed)
    trace = [(obs, None, None, None)]
    for _ in range(steps):
        actions = np.array([first_legal(m) if m.any() else 0 for m in infos["action_mask"]])
        obs, r, term, trunc, infos = v.step(actions)
        trace.append((obs, r, term, trunc))
    return trace


def test_vector_equals_single_envs():
    n, seed, kw = 5, 11, dict(opponent="random", throws_per_half=5, reward="goal-diff")
    trace = play_vector(n, seed, 40, **kw)
    for i in range(n):
        env = kingoal.KingoalEnv(**kw)
        episode, pending = 0, False
        obs, info = env.reset(options={"native_seed": kingoal.episode_seed(seed, i, 0)})
        np.testing.assert_array_equal(trace[0][0][i], obs)
        for t in range(1, len(trace)):
            if pending:  # next-step autoreset
                episode += 1
                obs, info = env.reset(options={"native_seed": kingoal.episode_seed(seed, i, episode)})
                r, term, trunc = 0.0, False, False
            else:
                obs, r, term, trunc, info = env.step(first_legal(info["action_mask"]))
            np.testing.assert_array_equal(trace[t][0][i], obs)
            assert (trace[t][1][i], trace[t][2][i], trace[t][3][i]) == (r, term, trunc)
            pending = term or trunc


def test_vector_is_deterministic_and_checks_actions():
    a = play_vector(64, 3, 30, opponent="heuristic")
    b = play_vector(64, 3, 30, opponent="heuristic")
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x[0], y[0])
    v = kingoal.KingoalVectorEnv(num_envs=2, opponent="heuristic")
    v.reset(seed=0)
    with pytest.raises(ValueError, match="environment"):
        v.step(np.array([0, 500]))
    with pytest.raises(ValueError, match="want 2 line-up indices"):
        v.step(np.array([0.5, 1.5]))
    with pytest.raises(ValueError, match="registry spec"):
        kingoal.KingoalVectorEnv(num_envs=2, opponent=lambda o, m: 0)
    v.close()
    v.close()


def test_observation_space_bounds_hold():
    env = kingoal.KingoalEnv(opponent="random", knockout=True, throws_per_half=6, extra_throws=3)
    space = env.observation_space
    rng = np.random.default_rng(1)
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            assert space.contains(obs), obs
            obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = term or trunc


@pytest.mark.parametrize("opponent", ["mcts:iters=20", lambda obs, mask: int(np.flatnonzero(mask)[0])])
def test_one_env_from_two_threads_raises_not_aborts(opponent):
    """Two threads stepping one env: each call either runs whole or raises RuntimeError
    naming the other thread; the interpreter never aborts (it did: a Go map written twice at
    once, in the mcts opponent's cache) and the env stays usable afterwards."""
    import threading
    env = kingoal.KingoalEnv(opponent=opponent, throws_per_half=6, illegal_action="keep")
    env.reset(seed=0)
    refused, other = [], []

    def hammer(k):
        rng = np.random.default_rng(k)
        for _ in range(300):
            try:
                _, _, term, trunc, _ = env.step(int(rng.integers(121)))
                if term or trunc:
                    env.reset()
            except RuntimeError as e:
                (refused if "in use by another thread" in str(e) else other).append(str(e))
            except ValueError as e:  # a step racing a reset sees the episode's end, as a single thread would
                other.append(str(e))

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not [e for e in other if "episode is over" not in e and "step before reset" not in e], other[:3]
    env.reset(seed=1)
    env.step(0)  # still a working env


def test_native_seed_is_checked():
    env = kingoal.KingoalEnv()
    for seed in (-1, 2**64, 1.5):
        with pytest.raises(ValueError, match="native_seed="):
            env.reset(options={"native_seed": seed})
    a, _ = env.reset(options={"native_seed": 2**64 - 1})
    b, _ = env.reset(options={"native_seed": 2**64 - 1})
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("kwargs", RULESETS[:4])
def test_sb3_check_env_with_keep(kwargs):
    """SB3's checker samples the action space without the mask: with illegal_action="keep" it
    passes, with "raise" it fails at the first illegal sample (the space seeded, so that the
    samples, and the sample that is illegal, are the same every run)."""
    need("torch")
    need("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env
    env = kingoal.KingoalEnv(illegal_action="keep", render_mode="rgb_array", **kwargs)
    sb3_check_env(env, warn=True)
    strict = kingoal.KingoalEnv(**kwargs)
    strict.action_space.seed(1)  # its samples decide whether one is illegal: fixed, not the OS entropy (seed 0 draws only legal ones under the second rules)
    with pytest.raises(ValueError, match="illegal action"):
        sb3_check_env(strict, warn=False)


def test_gymnasium_render_check():
    env = gym.make("Kingoal-v0", illegal_action="keep", render_mode="rgb_array", opponent="heuristic", throws_per_half=6)
    check_env(env.unwrapped)  # the render checks included: rgb_array, and each other mode made from the spec
