"""The batched environment without Gymnasium: N Kingoal matches in one native call."""
import numpy as np

from . import _native as N


class VecEnv(N.Copyable):
    """N single-agent Kingoal environments stepped together in one native call (EnvPool's
    shape: the batch lives in NumPy arrays this object owns; Go writes into them). NumPy is
    all it needs; kingoal.KingoalVectorEnv is the same with Gymnasium's VectorEnv API.

    Next-step autoreset: after an episode ends, the next step ignores that environment's
    action, resets it and returns its first observation with reward 0 and both flags false.
    Episode k of environment i is seeded from (seed, i, k) — kingoal.episode_seed — so a run
    is reproducible from reset(seed=…), whatever else happens, and environment i plays
    exactly as a KingoalEnv reset with options={"native_seed": episode_seed(seed, i, k)}.
    A finished environment's mask holds one action, the line-up it ended with, which the
    next step ignores: np.random.choice(np.flatnonzero(mask)) and a masked softmax stay safe.
    On a step where environments terminate, infos carry their matches as Gymnasium's vector
    infos do: goals and penalties int64[N, 2] (home, away), winner ("home", "away", None),
    result int64[N] (+1/0/−1 for the agent), extra_time, shootout bool[N], periods
    int64[N], each with "_key" (bool[N]) marking the environments that finished.
    The opponent is a registry spec; each environment gets its own. illegal_action is as
    for KingoalEnv; with "keep", infos["illegal_action"] (bool[N]) says who was kept."""

    def __init__(self, num_envs=1, opponent="fixed:2-2-2-2-2", player="home", reward="result", dice="fast",
                 max_steps=0, illegal_action="raise", **rules):
        self._init = dict(num_envs=num_envs, opponent=opponent, player=player, reward=reward, dice=dice,
                          max_steps=max_steps, illegal_action=illegal_action, **rules)
        if not isinstance(opponent, str) or opponent == "self":
            raise ValueError(f"opponent={opponent!r}: the vector env needs a registry spec like 'heuristic'")
        self.num_envs = N.whole("num_envs", num_envs, 1, N.MAX_ENVS)
        self._rules = dict(rules)
        self._err = N.ErrBuf()
        h = N.ctypes.c_uint64()
        self._keep = N.check_illegal_action(illegal_action) == "keep"
        cfg = N.config_json(self._rules, opponent=opponent, player=player, reward=reward, dice=dice, max_steps=max_steps,
                            illegal_action=illegal_action)
        self._err.check(N.lib().kg_vec_new(cfg, self.num_envs, N.ctypes.addressof(h), self._err.ptr, N._ERRSIZE))
        self._h = h.value
        n = self.num_envs
        self._obs = np.zeros((n, N.OBS_SIZE), np.float32)
        self._masks = np.zeros((n, N.NUM_ACTIONS), np.int8)
        self._rewards = np.zeros(n, np.float64)
        self._term = np.zeros(n, np.int8)
        self._trunc = np.zeros(n, np.int8)
        self._illegal = np.zeros(n, np.int8)
        self._actions = np.zeros(n, np.int64)
        self._seeder = np.random.default_rng()
        self._one_thread = N.Exclusive()
        self._matches = N.Matches(n)
        self._p = [N.addr(x) for x in (self._actions, self._obs, self._masks, self._rewards, self._term, self._trunc,
                                         self._illegal)]

    def reset(self, *, seed=None, options=None):
        """Starts every environment; returns observations float32[N, 36] and
        {"action_mask": int8[N, 121]}."""
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ValueError(f"seed={seed!r}: the vector env takes one int seed for the batch")
        native_seed = int(self._seeder.integers(0, 2**63)) if seed is None else N.whole("seed", seed, 0, N.SEED_MAX)
        e = self._err
        with self._one_thread:
            e.check(N.lib().kg_vec_reset(self._h, native_seed, self._p[1], self._p[2], e.ptr, N._ERRSIZE))
        return self._obs.copy(), {"action_mask": self._masks.copy()}

    def step(self, actions):
        """Plays actions[i] in environment i: observations, rewards float64[N], terminated and
        truncated bool[N], {"action_mask"}. An illegal action raises ValueError naming its
        environment, and no environment moves (with illegal_action="raise")."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions: want {self.num_envs} line-up indices (ints), got shape {a.shape} of {a.dtype}")
        e = self._err
        with self._one_thread:
            self._actions[:] = a
            e.check(N.lib().kg_vec_step(self._h, *self._p, e.ptr, N._ERRSIZE))
            infos = {"action_mask": self._masks.copy()}
            if self._keep:
                infos["illegal_action"] = self._illegal.astype(bool)
            if self._term.any():
                infos.update(N.match_infos(self._matches.read(self), self._term.astype(bool)))
            return self._obs.copy(), self._rewards.copy(), self._term.astype(bool), self._trunc.astype(bool), infos

    def action_masks(self):
        """The legal actions of every environment now, bool[N, 121]."""
        return self._masks.astype(bool)

    def close(self, **kwargs):
        N.close(self)

    def __del__(self):
        self.close()
