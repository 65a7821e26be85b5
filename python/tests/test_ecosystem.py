"""PettingZoo's AEC API test, the version, and Minari datasets from decision logs."""
import os

import numpy as np
import pytest

from conftest import need

import kingoal


def test_version_is_the_go_release():
    release = kingoal.version().split()[0]  # "0.9.0-dev", maybe followed by the revision
    assert kingoal.__version__ == release.replace("-dev", ".dev0")


def test_aec_api():
    need("pettingzoo")
    from pettingzoo.test import api_test
    env = kingoal.env(throws_per_half=6)
    api_test(env, num_cycles=200)
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert not env.agents


def test_to_minari_loads_iterates_and_recovers_the_env(tmp_path, monkeypatch, data_dir):
    need("gymnasium")
    minari = need("minari")
    need("pyarrow")
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    run = os.path.join(data_dir, "generated")  # datasets generate --agents heuristic,random
    with pytest.raises(ValueError, match="opponents|players"):
        kingoal.to_minari(run, "kingoal/mixed-v0")  # both sides of both agents: no one environment
    ds = kingoal.to_minari(run, "kingoal/heuristic-home-v0", agent="heuristic", player="home")
    again = minari.load_dataset("kingoal/heuristic-home-v0")
    assert again.total_episodes == ds.total_episodes > 0
    d = kingoal.read_parquet(os.path.join(run, "decisions.parquet"))
    mine = (d["agent"] == "heuristic") & (d["player"] == "home")
    assert again.total_steps == mine.sum()
    steps = 0
    for ep in again.iterate_episodes():
        n = len(ep.actions)
        steps += n
        assert ep.observations.shape == (n + 1, 36) and ep.observations.dtype == np.float32
        assert ep.infos["action_mask"].shape == (n + 1, 121)
        assert ep.terminations[-1] and not ep.terminations[:-1].any() and ep.rewards[-1] in (-1, 0, 1)
        for t in range(n):
            assert ep.infos["action_mask"][t][ep.actions[t]] == 1  # every logged action was legal
    assert steps == mine.sum()
    env = again.recover_environment()
    assert env.unwrapped.__class__.__name__ == "KingoalEnv"
    assert env.unwrapped._init["opponent"] == "random" and env.unwrapped._init["throws_per_half"] == 6
    assert env.observation_space == again.observation_space
    env.reset(seed=0)


def test_pandas_imports_without_warnings():
    """pandas imports silently where the data extra is installed (issue 64: every import
    warned that Debian's bottleneck 1.3.5 was older than pandas wants; the extra and CI's
    pins bring one that fits). A fresh interpreter, warnings made errors."""
    need("pandas")
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-W", "error", "-c", "import pandas"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
