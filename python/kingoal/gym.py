"""Kingoal as Gymnasium environments: KingoalEnv (one agent against an opponent) and
KingoalVectorEnv (N of them stepped in one native call). Importing this module needs
gymnasium; `import kingoal` does not.
"""
import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("kingoal's Gymnasium environments need gymnasium: pip install gymnasium "
                      "(kingoal itself needs only NumPy)") from e

from . import _native as N
from .vector import VecEnv


def observation_space(rules):
    """The Box of the 36-slot observation under the rules, with every slot's true bounds."""
    b = N.call("bounds", rules=rules)
    return spaces.Box(np.array(b["low"], dtype=np.float32), np.array(b["high"], dtype=np.float32), dtype=np.float32)


def _check_render_mode(cls, render_mode):
    if render_mode is not None and render_mode not in cls.metadata["render_modes"]:
        raise ValueError(f"render_mode={render_mode!r}: want None or one of {cls.metadata['render_modes']}")


def _action(action):
    """An action as a Python int in the action space (0..120), refusing anything else."""
    return N.whole("action", action, 0, N.NUM_ACTIONS - 1)


class KingoalEnv(N.Copyable, gymnasium.Env):
    """One player of a Kingoal match against an opponent, as a Gymnasium environment.

    Actions: Discrete(121), "choose the formation" — action i makes the agent's line-up
    kingoal.lineup(i) (the kick-off line-up, a Basic change at a break, a Dynamic shift).
    info["action_mask"] (int8[121]) and action_masks() (sb3-contrib's MaskablePPO
    convention) say which actions are legal (after the end: none; reset). The terminal
    info carries the match: goals and penalties (home, away), winner, result (+1/0/−1 for
    the agent), extra_time, shootout, periods. illegal_action says what an illegal one does:
    "raise" (the default: ValueError, nothing moves — a masked learner that picks one has a
    bug) or "keep" (the agent keeps its current line-up, which is always legal, and
    info["illegal_action"] is True — for learners and checkers that sample the action space
    without the mask: plain PPO or DQN, SB3's and Gymnasium's check_env). Observations: the 36 float32 slots of
    docs/observation.md, from the agent's side. Rewards: "result" (+1/0/−1 at the end),
    "goal-diff" (each goal as it falls) or "points" (league points at the end).

    opponent is an agent spec of kingoal's registry ("heuristic", "optimal",
    "fixed:1-3-3-2-1", "mcts:iters=200", …) or a callable f(observation, mask) -> action
    (for self-play, pass your own policy). Rule knobs are keyword arguments named like the
    CLI's rule flags: knockout, ties_count, throws_per_half, extra_throws, moves, home_mode,
    away_mode, dynamic_trigger, points. reset(seed=s) seeds self.np_random and draws the
    match's seed from it; options={"native_seed": n} plays the Go engine's seed n directly.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(self, opponent="fixed:2-2-2-2-2", player="home", reward="result", dice="fast", max_steps=0,
                 render_mode=None, illegal_action="raise", **rules):
        self._init = dict(opponent=opponent, player=player, reward=reward, dice=dice, max_steps=max_steps,
                          render_mode=render_mode, illegal_action=illegal_action, **rules)
        _check_render_mode(type(self), render_mode)
        self._keep = N.check_illegal_action(illegal_action) == "keep"
        self.render_mode = render_mode
        self._callable = callable(opponent)
        if opponent == "self":
            raise ValueError('opponent="self": for self-play pass your policy as a callable f(observation, mask) -> action')
        spec = "" if self._callable else opponent
        if not self._callable and not isinstance(opponent, str):
            raise ValueError(f"opponent={opponent!r}: want an agent spec like 'heuristic' or a callable")
        self._rules = dict(rules)
        self.observation_space = observation_space(self._rules)
        self.action_space = spaces.Discrete(N.NUM_ACTIONS)
        self._opponent, self._me = opponent, 0 if player == "home" else 1
        self._err = N.ErrBuf()
        h = N.ctypes.c_uint64()
        cfg = N.config_json(self._rules, opponent=spec, player=player, reward=reward, dice=dice,
                            max_steps=0 if self._callable else max_steps,  # the Python loop caps its own steps
                            render=render_mode in ("ansi", "human"), frames=render_mode == "rgb_array",
                            illegal_action=illegal_action)
        L = N.lib()
        if self._callable:
            self._err.check(L.kg_par_new(cfg, N.ctypes.addressof(h), self._err.ptr, N._ERRSIZE))
            self._obs2 = np.zeros((2, N.OBS_SIZE), np.float32)
            self._mask2 = np.zeros((2, N.NUM_ACTIONS), np.int8)
            self._acting = np.zeros(2, np.int8)
            self._rewards = np.zeros(2, np.float64)
        else:
            self._err.check(L.kg_env_new(cfg, N.ctypes.addressof(h), self._err.ptr, N._ERRSIZE))
        self._h = h.value
        self._obs = np.zeros(N.OBS_SIZE, np.float32)
        self._mask = np.zeros(N.NUM_ACTIONS, np.int8)
        self._reward = np.zeros(1, np.float64)
        self._flags = np.zeros(4, np.int8)  # terminated, truncated, then who played an illegal action
        # The buffers never move: their addresses are taken once (a.ctypes.data costs ~0.7 µs).
        self._p = [N.addr(x) for x in (self._obs, self._mask, self._reward, self._flags)]
        if self._callable:
            self._p2 = [N.addr(x) for x in (self._obs2, self._mask2, self._rewards, self._flags, self._acting)]
        self._steps, self._max_steps, self._phase = 0, max_steps, "new"
        self._one_thread = N.Exclusive()
        self._matches = N.Matches()

    def reset(self, *, seed=None, options=None):
        with self._one_thread:
            return self._reset(seed, options)

    def _reset(self, seed, options):
        super().reset(seed=seed)
        native_seed = (options or {}).get("native_seed")
        if native_seed is None:
            native_seed = int(self.np_random.integers(0, 2**63))
        native_seed = N.whole("native_seed", native_seed, 0, N.SEED_MAX)
        L, e = N.lib(), self._err
        if self._callable:
            o, m, _, _, acting = self._p2
            e.check(L.kg_par_reset(self._h, native_seed, o, m, acting, e.ptr, N._ERRSIZE))
            self._obs[:], self._mask[:] = self._obs2[self._me], self._mask2[self._me]
            self._steps, self._phase = 0, "running"
        else:
            e.check(L.kg_env_reset(self._h, native_seed, self._p[0], self._p[1], e.ptr, N._ERRSIZE))
        self._human()
        return self._obs.copy(), {"action_mask": self._mask.copy()}

    def step(self, action):
        with self._one_thread:
            return self._step(action)

    def _step(self, action):
        a = _action(action)
        if self._callable:
            reward, terminated, truncated, illegal = self._step_parallel(a)
        else:
            e = self._err
            e.check(N.lib().kg_env_step(self._h, a, *self._p, e.ptr, N._ERRSIZE))
            reward, terminated, truncated = float(self._reward[0]), bool(self._flags[0]), bool(self._flags[1])
            illegal = bool(self._flags[2])
        self._human()
        info = {"action_mask": self._mask.copy()}
        if self._keep:
            info["illegal_action"] = illegal
        if terminated:
            info.update(self._match())
        return self._obs.copy(), reward, terminated, truncated, info

    def _match(self):
        """The finished match for the terminal info: goals and penalties (home, away), the
        winner ("home", "away", None for a draw), result (+1/0/−1 for the agent), whether
        extra time and a shoot-out were played, how many periods."""
        m = N.match_info(self._matches.read(self)[0])
        if self._callable and self._me == 1:  # the two-player engine scores from home's side
            m["result"] = -m["result"]
        return m

    def _step_parallel(self, action):
        """The agent's action, then the Python opponent's decisions alone, until the agent acts again."""
        L, e, me = N.lib(), self._err, self._me
        them = 1 - me
        if self._phase != "running":
            raise RuntimeError("kingoal: step before reset" if self._phase == "new" else "kingoal: the episode is over; call reset")
        if self._mask[action] == 0 and not self._keep:
            raise ValueError(f"kingoal: illegal action {action} (not in the action mask)")
        joint = np.zeros(2, np.int64)
        reward, mine, illegal = 0.0, action, False
        while True:
            joint[me] = mine
            joint[them] = self._opponent_action(them) if self._acting[them] else 0
            e.check(L.kg_par_step(self._h, N.addr(joint), *self._p2, e.ptr, N._ERRSIZE))
            illegal = illegal or bool(self._flags[2 + me])
            reward += float(self._rewards[me])
            terminated, truncated = bool(self._flags[0]), bool(self._flags[1])
            if terminated or truncated or self._acting[me]:
                break
            mine = 0  # the agent is not acting: its entry is ignored
        self._steps += 1
        self._obs[:], self._mask[:] = self._obs2[me], self._mask2[me]
        if not terminated and self._max_steps and self._steps >= self._max_steps:
            truncated = True
        if terminated or truncated:
            self._phase = "over"
            self._mask[:] = 0
        return reward, terminated, truncated, illegal

    def _opponent_action(self, them):
        """The Python opponent's action; an illegal one is its bug, whatever illegal_action says."""
        mask = self._mask2[them].copy()
        a = N.whole("the opponent's action", self._opponent(self._obs2[them].copy(), mask), 0, N.NUM_ACTIONS - 1)
        if not 0 <= a < N.NUM_ACTIONS or mask[a] == 0:
            raise ValueError(f"kingoal: the opponent played illegal action {a} (not in its mask)")
        return a

    def action_masks(self):
        """The legal actions now, as bool[121] (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

    @property
    def state(self):
        """The match as it stands, as a kingoal.State to plan from (clone it and search): at
        the agent's decision after reset and step. It keeps no history, so it does not
        serialize."""
        from .state import state_of_env
        return state_of_env(self._rules, self._h, self._err)

    game_state = state  # the PettingZoo environment's name for it (its state() is PettingZoo's)

    def render(self):
        """render_mode "rgb_array": the picture of the match now, uint8[368, 640, 3] (both
        line-ups by sector, the ball, score, period, throws and moves left, the last throw
        with its dice when dice="rolled"); "ansi": the transcript of the events since the last
        call (as `kingoal watch` prints them); "human": prints that transcript at every step."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='rgb_array', 'ansi' or 'human'")
            return None
        with self._one_thread:
            if self.render_mode == "rgb_array":
                return N.frame(self)
            text = _transcript(self._h)
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None

    def _human(self):
        if self.render_mode == "human":
            print(_transcript(self._h), end="")

    def close(self):
        N.close(self)

    def __del__(self):
        self.close()


def _transcript(h):
    size = 1 << 14
    while True:
        buf = N.ctypes.create_string_buffer(size)
        n = N.lib().kg_render(h, N.ctypes.cast(buf, N._ptr), size)
        if n < 0:
            return ""
        if n < size:
            return buf.value.decode()
        size = n + 1


class KingoalVectorEnv(VecEnv, VectorEnv):  # VecEnv is Copyable
    """kingoal.VecEnv with Gymnasium's VectorEnv API: batched spaces, next-step autoreset
    (metadata["autoreset_mode"]), infos["action_mask"] int8[N, 121]. Made by
    gymnasium.make_vec("Kingoal-v0", num_envs=N, vectorization_mode="vector_entry_point")."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs=1, opponent="fixed:2-2-2-2-2", render_mode=None, **kwargs):
        if render_mode is not None:
            raise ValueError("KingoalVectorEnv does not render; use KingoalEnv(render_mode='ansi')")
        VecEnv.__init__(self, num_envs, opponent, **kwargs)
        self._init = dict(num_envs=num_envs, opponent=opponent, render_mode=render_mode, **kwargs)
        self.single_observation_space = observation_space(self._rules)
        self.single_action_space = spaces.Discrete(N.NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None

    def reset(self, *, seed=None, options=None):
        VectorEnv.reset(self, seed=seed if isinstance(seed, (int, np.integer)) else None)  # Gymnasium's np_random
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63))
        return VecEnv.reset(self, seed=seed, options=options)

    def close_extras(self, **kwargs):
        VecEnv.close(self)

    def close(self, **kwargs):
        VectorEnv.close(self, **kwargs)
