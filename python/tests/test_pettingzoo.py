"""The PettingZoo ParallelEnv, through PettingZoo's own API test."""
import numpy as np
import pytest

from conftest import need

need("pettingzoo")
import kingoal  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402


@pytest.mark.parametrize("kwargs", [dict(), dict(knockout=True, throws_per_half=6, extra_throws=2, reward="goal-diff"),
                                    dict(home_mode="dynamic", away_mode="dynamic", throws_per_half=8)])
def test_parallel_api(kwargs):
    parallel_api_test(kingoal.parallel_env(**kwargs), num_cycles=300)


def test_parallel_episode_and_errors():
    env = kingoal.parallel_env(throws_per_half=4)
    obs, infos = env.reset(seed=4)
    assert set(obs) == {"home", "away"} and obs["home"]["observation"].shape == (36,)
    while env.agents:
        acts = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(acts)
    assert rewards["home"] == -rewards["away"]
    with pytest.raises(RuntimeError):
        env.step({"home": 0, "away": 0})
    env.close()
    env.close()
