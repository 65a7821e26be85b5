"""pickle and copy.deepcopy of every environment: the copy continues the same match, with
the same dice and random streams to come; and the ecosystem's clients that ship envs
between processes (SB3's SubprocVecEnv under MaskablePPO, SuperSuit's concat_vec_envs_v1)."""
import copy
import pickle

import numpy as np
import pytest

from conftest import need

import kingoal


def last_legal(obs, mask):  # a picklable Python opponent
    return int(np.flatnonzero(mask)[-1])


def play_on(a, b, rng, steps=300):
    """Steps a and b with the same actions through the rest of their episode and the next
    ones (each reset without a seed: from its own, copied, np_random), requiring the same
    transitions."""
    mask = a._mask.copy()
    for _ in range(steps):
        if not mask.any():  # the episode is over
            oa, ia = a.reset()
            ob, ib = b.reset()
            assert np.array_equal(oa, ob) and np.array_equal(ia["action_mask"], ib["action_mask"])
            mask = ia["action_mask"]
            continue
        act = int(rng.choice(np.flatnonzero(mask)))
        ra, rb = a.step(act), b.step(act)
        for x, y in zip(ra, rb):
            if isinstance(x, dict):
                assert x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)
            else:
                assert np.array_equal(x, y)
        mask = ra[4]["action_mask"]
        if ra[2] or ra[3]:
            mask = np.zeros_like(mask)
        if a.render_mode == "ansi":
            assert a.render() == b.render()


@pytest.mark.parametrize("kwargs", [
    dict(opponent="mcts:iters=20", dice="rolled", home_mode="dynamic", throws_per_half=6),
    dict(opponent="random", knockout=True, throws_per_half=8, extra_throws=2, player="away", illegal_action="keep"),
    dict(opponent=last_legal, throws_per_half=6, render_mode="ansi"),
])
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_env_copy_continues_the_match(kwargs, how):
    need("gymnasium")
    env = kingoal.KingoalEnv(**kwargs)
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(2):
        _, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term:
            break
    twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    assert twin._h != env._h and np.array_equal(twin.action_masks(), env.action_masks())
    play_on(env, twin, np.random.default_rng(2))


def test_fresh_and_closed_envs():
    need("gymnasium")
    env = kingoal.KingoalEnv(opponent="heuristic")
    twin = copy.deepcopy(env)  # never reset: the copy is not either
    with pytest.raises(RuntimeError):
        twin.step(0)
    env.close()
    with pytest.raises(ValueError, match="closed"):
        pickle.dumps(env)


@pytest.mark.parametrize("make", [
    lambda: kingoal.VecEnv(4, opponent="mcts:iters=10", throws_per_half=3, dice="rolled"),
    lambda: kingoal.KingoalVectorEnv(num_envs=4, opponent="random", throws_per_half=3, illegal_action="keep"),
])
def test_vector_copy_continues_across_autoresets(make):
    if make.__code__.co_names[-1:] == ("KingoalVectorEnv",):
        need("gymnasium")
    v = make()
    _, info = v.reset(seed=11)
    rng = np.random.default_rng(5)

    def actions(mask):
        return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in mask])

    for _ in range(20):  # several episodes each
        _, _, _, _, info = v.step(actions(info["action_mask"]))
    twin = pickle.loads(pickle.dumps(v))
    for _ in range(30):
        a = actions(info["action_mask"])
        ra, rb = v.step(a), twin.step(a)
        for x, y in zip(ra[:4], rb[:4]):
            assert np.array_equal(x, y)
        assert all(np.array_equal(ra[4][k], rb[4][k]) for k in ra[4])
        info = ra[4]
    oa, _ = v.reset()
    ob, _ = twin.reset()
    assert np.array_equal(oa, ob)  # the seeder was copied too


def test_parallel_copy():
    need("pettingzoo")
    par = kingoal.parallel_env(throws_per_half=5, dice="rolled")
    obs, _ = par.reset(seed=2)
    rng = np.random.default_rng(3)

    def joint(obs):
        return {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}

    obs, *_ = par.step(joint(obs))
    twin = copy.deepcopy(par)
    while par.agents:
        j = joint(obs)
        ra, rb = par.step(j), twin.step(j)
        assert ra[1] == rb[1] and ra[2] == rb[2] and ra[3] == rb[3]
        assert all(np.array_equal(ra[0][a]["observation"], rb[0][a]["observation"]) for a in ra[0])
        obs = ra[0]
    assert not twin.agents


def test_maskable_ppo_on_subproc_vec_env():
    need("gymnasium")
    need("torch")
    sb3 = need("stable_baselines3")
    contrib = need("sb3_contrib")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv
    # "kingoal:Kingoal-v0": Gymnasium imports kingoal in each worker process, which registers
    # the id there (a bare "Kingoal-v0" is known only where kingoal was imported).
    envs = make_vec_env("kingoal:Kingoal-v0", n_envs=2, seed=0, vec_env_cls=SubprocVecEnv,
                        env_kwargs=dict(opponent="heuristic", throws_per_half=4))
    try:
        model = contrib.MaskablePPO("MlpPolicy", envs, n_steps=16, batch_size=16, n_epochs=1, seed=0, device="cpu")
        model.learn(64)  # masks fetched from the workers through the pipe: the envs travel pickled
        assert model.num_timesteps >= 64
    finally:
        envs.close()
    assert sb3.__version__


def test_supersuit_concat_vec_envs():
    need("pettingzoo")
    ss = need("supersuit")
    par = kingoal.parallel_env(throws_per_half=4)
    vec = ss.pettingzoo_env_to_vec_env_v1(par)
    envs = ss.concat_vec_envs_v1(vec, 3, num_cpus=0, base_class="gymnasium")
    obs, info = envs.reset(seed=1)
    assert obs["observation"].shape[0] == 6 if isinstance(obs, dict) else obs.shape[0] == 6
    envs.close()


def test_rgb_array_frames_and_record_video(tmp_path):
    gym = need("gymnasium")
    need("moviepy")
    from gymnasium.wrappers import RecordVideo
    env = kingoal.KingoalEnv(opponent="heuristic", throws_per_half=4, dice="rolled", render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    env.reset(seed=0)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3 and first.shape[0] % 16 == 0
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert not np.array_equal(first, env.render())  # a throw later, the picture changed
    rec = RecordVideo(gym.make("Kingoal-v0", opponent="heuristic", throws_per_half=4, render_mode="rgb_array"),
                      str(tmp_path / "videos"), episode_trigger=lambda k: True, disable_logger=True)
    _, info = rec.reset(seed=1)
    done = False
    while not done:
        _, _, term, trunc, info = rec.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
    rec.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_maskable_ppo_one_liner():
    need("gymnasium")
    need("torch")
    contrib = need("sb3_contrib")
    from stable_baselines3.common.env_util import make_vec_env
    model = contrib.MaskablePPO("MlpPolicy", "Kingoal-v0", n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(32)
    envs = make_vec_env("Kingoal-v0", n_envs=2, seed=0)
    assert envs.render_mode == "rgb_array"  # SB3's default for make_vec_env
    envs.close()


def test_terminal_masks_are_safe_and_infos_carry_the_match():
    v = kingoal.VecEnv(8, opponent="random", throws_per_half=3, knockout=True, extra_throws=1)
    _, info = v.reset(seed=2)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(40):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])  # never empty
        _, r, term, trunc, info = v.step(acts)
        done = term | trunc
        for i in np.flatnonzero(done):
            assert info["action_mask"][i].sum() == 1
        if term.any():
            assert np.array_equal(info["_goals"], term) and np.array_equal(info["_result"], term)
            for i in np.flatnonzero(term):
                finished += 1
                assert info["result"][i] == r[i]  # the reward "result" is the match's result
                assert info["periods"][i] in (2, 4, 5, 3) and info["winner"][i] in ("home", "away", None)
                if info["goals"][i][0] == info["goals"][i][1]:
                    assert info["shootout"][i] and info["winner"][i] is not None  # a knockout has a winner
    assert finished >= 20


def test_single_and_parallel_terminal_infos():
    need("gymnasium")
    env = kingoal.KingoalEnv(opponent="heuristic", throws_per_half=3, player="away")
    _, info = env.reset(seed=4)
    done = False
    total = 0.0
    while not done:
        _, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += r
        done = term or trunc
    assert info["result"] == total and len(info["goals"]) == 2 and info["periods"] == 2
    g = info["goals"]
    assert info["winner"] == (None if g[0] == g[1] else ("home" if g[0] > g[1] else "away"))
    need("pettingzoo")
    par = kingoal.parallel_env(throws_per_half=3)
    obs, _ = par.reset(seed=1)
    while par.agents:
        obs, rewards, terms, _, infos = par.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    if any(terms.values()):
        assert infos["home"]["result"] == rewards["home"] == -infos["away"]["result"]
