"""Kingoal as a PettingZoo ParallelEnv: both players decide at once, hidden. Importing
this module needs pettingzoo and gymnasium; `import kingoal` does not."""
import functools

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as e:  # pragma: no cover
    raise ImportError("kingoal.parallel_env needs pettingzoo (and gymnasium): pip install pettingzoo") from e

from . import _native as N
from .gym import observation_space

AGENTS = ("home", "away")


def parallel_env(**kwargs):
    """A PettingZoo ParallelEnv of a Kingoal match (see KingoalParallelEnv)."""
    return KingoalParallelEnv(**kwargs)


def env(**kwargs):
    """The same match as a PettingZoo AEC env (PettingZoo's parallel_to_aec of parallel_env:
    the agents act in turn, the engine sees both actions at once)."""
    from pettingzoo.utils.conversions import parallel_to_aec
    return parallel_to_aec(parallel_env(**kwargs))


class KingoalParallelEnv(N.Copyable, ParallelEnv):
    """Both sides of a Kingoal match as PettingZoo agents "home" and "away". At each step
    every agent in env.agents submits an action; an agent that is not deciding at this step
    (its mask allows only its current line-up) may send any action — it is ignored.
    Observations are {"observation": float32[36], "action_mask": int8[121]}. Rewards follow
    `reward` ("result", "goal-diff", "points"); rule knobs are keyword arguments as for
    KingoalEnv."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4, "name": "kingoal_v0", "is_parallelizable": True}

    def __init__(self, reward="result", dice="fast", max_steps=0, render_mode=None, **rules):
        self._init = dict(reward=reward, dice=dice, max_steps=max_steps, render_mode=render_mode, **rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: want None, 'ansi', 'human' or 'rgb_array'")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = []
        self._rules = dict(rules)
        self._obs_space = spaces.Dict({"observation": observation_space(self._rules),
                                       "action_mask": spaces.Box(0, 1, (N.NUM_ACTIONS,), np.int8)})
        self._err = N.ErrBuf()
        h = N.ctypes.c_uint64()
        cfg = N.config_json(self._rules, reward=reward, dice=dice, max_steps=max_steps, render=render_mode in ("ansi", "human"),
                            frames=render_mode == "rgb_array")
        self._err.check(N.lib().kg_par_new(cfg, N.ctypes.addressof(h), self._err.ptr, N._ERRSIZE))
        self._h = h.value
        self._obs = np.zeros((2, N.OBS_SIZE), np.float32)
        self._masks = np.zeros((2, N.NUM_ACTIONS), np.int8)
        self._acting = np.zeros(2, np.int8)
        self._rewards = np.zeros(2, np.float64)
        self._flags = np.zeros(4, np.int8)  # terminated, truncated, illegal home, illegal away
        self._joint = np.zeros(2, np.int64)
        self._rng = np.random.default_rng()
        self._one_thread = N.Exclusive()
        self._matches = N.Matches()
        self._p = [N.addr(x) for x in (self._joint, self._obs, self._masks, self._rewards, self._flags, self._acting)]

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return self._obs_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return spaces.Discrete(N.NUM_ACTIONS)

    def _observations(self):
        return {a: {"observation": self._obs[i].copy(), "action_mask": self._masks[i].copy()} for i, a in enumerate(AGENTS)}

    def _infos(self):
        return {a: {"acting": bool(self._acting[i])} for i, a in enumerate(AGENTS)}

    def reset(self, seed=None, options=None):
        with self._one_thread:
            return self._reset(seed, options)

    def _reset(self, seed, options):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        native_seed = (options or {}).get("native_seed")
        if native_seed is None:
            native_seed = int(self._rng.integers(0, 2**63))
        native_seed = N.whole("native_seed", native_seed, 0, N.SEED_MAX)
        e = self._err
        e.check(N.lib().kg_par_reset(self._h, native_seed, self._p[1], self._p[2], self._p[5], e.ptr, N._ERRSIZE))
        self.agents = list(AGENTS)
        if self.render_mode == "human":
            self.render()
        return self._observations(), self._infos()

    def step(self, actions):
        with self._one_thread:
            return self._step(actions)

    def _step(self, actions):
        if not self.agents:
            raise RuntimeError("kingoal: the episode is over (or never started); call reset")
        for i, a in enumerate(AGENTS):
            act = actions.get(a)
            if self._acting[i]:
                if act is None:
                    raise ValueError(f"kingoal: {a} must act now but sent no action")
                self._joint[i] = N.whole(f"{a}'s action", act, 0, N.NUM_ACTIONS - 1)
            else:
                self._joint[i] = 0  # not deciding: ignored by the engine
        e = self._err
        e.check(N.lib().kg_par_step(self._h, *self._p, e.ptr, N._ERRSIZE))
        terminated, truncated = bool(self._flags[0]), bool(self._flags[1])
        obs, infos = self._observations(), self._infos()
        rewards = {a: float(self._rewards[i]) for i, a in enumerate(AGENTS)}
        terms = {a: terminated for a in AGENTS}
        truncs = {a: truncated for a in AGENTS}
        if terminated:
            m = N.match_info(self._matches.read(self)[0])
            for i, a in enumerate(AGENTS):
                infos[a].update(m, result=m["result"] if i == 0 else -m["result"])
        if terminated or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos

    @property
    def game_state(self):
        """The match as it stands, as a kingoal.State to plan from (clone it and search): at
        the agents' decision after reset and step. It keeps no history, so it does not
        serialize. (PettingZoo's own state() is the global observation array.)"""
        from .state import state_of_env
        return state_of_env(self._rules, self._h, self._err)

    def render(self):
        """As KingoalEnv.render: a uint8[H, W, 3] picture ("rgb_array") or the transcript."""
        if self.render_mode == "rgb_array":
            with self._one_thread:
                return N.frame(self)
        from .gym import _transcript
        text = _transcript(self._h)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def state(self):
        return self._obs.reshape(-1).copy()

    def close(self):
        N.close(self)

    def __del__(self):
        self.close()
