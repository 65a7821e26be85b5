"""The game itself, in OpenSpiel's shape: kingoal.Game(**rules) and its kingoal.State.

    g = kingoal.Game(throws_per_half=6)
    s = g.new_initial_state()              # a simultaneous node: both declare line-ups
    s.apply_actions([60, 60])              # line-up indices (kingoal.lineup_index("2-2-2-3-1"))
    while not s.is_terminal():
        if s.is_chance_node():
            outcome, p = max(s.chance_outcomes(), key=lambda op: op[1])
            s.apply_action(outcome)
        else:
            s.apply_actions([s.legal_actions(0)[0], s.legal_actions(1)[0]])
    s.returns()                             # [1.0, -1.0], [0.0, 0.0] or [-1.0, 1.0]

A state is the Go engine's own value (a few dozen bytes) held by Python: clone() copies it
without calling Go, and it is freed with the object. Every node is a chance node (a throw, the
shoot-out coin, a penalty: exact outcome probabilities), a simultaneous node (kick-off, break,
Dynamic shift: a player who is not acting may only keep, legal_actions(p) is then its
current line-up) or terminal. serialize() is the rules and the history of actions;
deserialize_state replays it through the engine's checks, so bad text is a ValueError.
"""
import ctypes
import json

import numpy as np

from . import _native as N

# OpenSpiel's player IDs for the node kinds.
CHANCE_PLAYER_ID = -1
SIMULTANEOUS_PLAYER_ID = -2
TERMINAL_PLAYER_ID = -4

_DECISIONS = ("none", "kick-off", "break", "shift")
_PERIODS = ("pre-match", "first half", "second half", "extra time 1", "extra time 2", "penalties", "full time")
_OUTCOMES = ("home wins", "away wins", "tie", "home kicks first", "away kicks first", "penalty scored", "penalty saved")
_FORMAT = "kingoal-state/1"
_state_type = None


def _buffer_type():
    global _state_type
    if _state_type is None:
        lib = N.lib()
        _ptr, _int = ctypes.c_void_p, ctypes.c_int
        for name, res, args in (
                ("kg_state_size", _int, []),
                ("kg_state_new", _int, [ctypes.c_char_p, _ptr, _ptr, _int]),
                ("kg_state_match", _int, [ctypes.c_char_p, _int, _int, _ptr, _ptr, _int]),
                ("kg_state_node", _int, [_ptr]),
                ("kg_state_legal", _int, [_ptr, _int, _ptr]),
                ("kg_state_chance", _int, [_ptr, _ptr]),
                ("kg_state_chance_key", _int, [_ptr]),
                ("kg_state_apply_chance", _int, [_ptr, _int]),
                ("kg_state_apply_joint", _int, [_ptr, _int, _int]),
                ("kg_state_apply", _int, [_ptr, _int]),
                ("kg_state_why", None, [_ptr, _int, _int, _ptr, _int]),
                ("kg_state_returns", None, [_ptr, _ptr]),
                ("kg_state_observation", _int, [_ptr, _int, _ptr]),
                ("kg_state_info", None, [_ptr, _ptr]),
                ("kg_state_string", None, [_ptr, _ptr, _int]),
                ("kg_env_state", _int, [ctypes.c_uint64, _ptr, _ptr, _int])):
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        _state_type = ctypes.c_char * lib.kg_state_size()
    return _state_type


class Game:
    """The game under one set of rules (the keyword arguments of the environments and the
    CLI's rule flags: throws_per_half, moves, knockout, …). OpenSpiel's Game methods.

    lineups=("2-2-2-2-2", "1-2-3-3-1") (names or indices) starts every match right after
    that kick-off: the game of the substitutions alone, small enough to enumerate.
    """

    def __init__(self, lineups=None, **rules):
        self._type = _buffer_type()
        self._lib = N.lib()
        self.rules = dict(rules)
        self.lineups = None
        self._json = json.dumps(self.rules).encode()
        self._initial = self._type()
        e = N.ErrBuf()
        if lineups is None:
            e.check(self._lib.kg_state_new(self._json, self._initial, e.ptr, N._ERRSIZE))
            return
        from .solve import lineup, lineup_index
        if not isinstance(lineups, (list, tuple)) or len(lineups) != 2:
            raise ValueError(f"lineups={lineups!r}: want (home, away), like ('2-2-2-2-2', '1-2-3-3-1')")
        idx = [lineup_index(x) if isinstance(x, str) else N.whole("lineups", x, 0, N.NUM_ACTIONS - 1) for x in lineups]
        self.lineups = (lineup(idx[0]), lineup(idx[1]))
        e.check(self._lib.kg_state_match(self._json, idx[0], idx[1], self._initial, e.ptr, N._ERRSIZE))

    def new_initial_state(self):
        """The state before kick-off: both players declare line-ups (a simultaneous node)."""
        return _state(self, self._type.from_buffer_copy(self._initial), [])

    def num_players(self):
        return 2

    def num_distinct_actions(self):
        """Actions are line-up indices 0..120 (kingoal.lineup)."""
        return N.NUM_ACTIONS

    def max_chance_outcomes(self):
        """Chance outcomes are 0..6: home wins, away wins, tie, home kicks first, away kicks
        first, penalty scored, penalty saved."""
        return len(_OUTCOMES)

    def observation_tensor_shape(self):
        return [N.OBS_SIZE]

    def observation_tensor_size(self):
        return N.OBS_SIZE

    def min_utility(self):
        return -1.0

    def max_utility(self):
        return 1.0

    def utility_sum(self):
        return 0.0

    def deserialize_state(self, text):
        """The state serialize() wrote, replayed under this game's rules (ValueError if the
        text is not one, or names other rules)."""
        s = deserialize_state(text)
        if s.game != self:
            raise ValueError(f"deserialize_state: the state is of {s.game!r}, this game is {self!r}")
        return s

    def __eq__(self, other):
        return isinstance(other, Game) and other.rules == self.rules and other.lineups == self.lineups

    def __hash__(self):
        return hash((self._json, self.lineups))

    def __repr__(self):
        args = [f"lineups={self.lineups!r}"] if self.lineups else []
        return f"kingoal.Game({', '.join(args + [f'{k}={v!r}' for k, v in self.rules.items()])})"

    def __reduce__(self):
        return (_game_of, (self.lineups, self.rules))


def _game_of(lineups, rules):
    return Game(lineups, **rules)


class State:
    """A position of the game (see the module's doc). Not shared between threads: clone it."""

    __slots__ = ("game", "_b", "_p", "_hist")

    def __init__(self, *args):
        raise TypeError("kingoal.State: made by Game.new_initial_state(), clone() or deserialize_state()")

    # --- the node
    def _node(self):
        return self.game._lib.kg_state_node(self._p)

    def current_player(self):
        """CHANCE_PLAYER_ID (−1), SIMULTANEOUS_PLAYER_ID (−2) or TERMINAL_PLAYER_ID (−4)."""
        kind = self._node() & 3
        return (SIMULTANEOUS_PLAYER_ID, CHANCE_PLAYER_ID, TERMINAL_PLAYER_ID)[kind]

    def is_chance_node(self):
        return self._node() & 3 == 1

    def is_simultaneous_node(self):
        return self._node() & 3 == 0

    def is_terminal(self):
        return self._node() & 3 == 2

    def decision(self):
        """What a simultaneous node decides: "kick-off", "break" or "shift" ("none" elsewhere)."""
        return _DECISIONS[self._node() >> 4]

    def acting(self, player):
        """Whether player (0 home, 1 away) chooses at this node (a player who is not may only keep)."""
        return bool(self._node() & (4 << _player(player)))

    def chance_outcomes(self):
        """[(outcome, probability), …], exact, at a chance node; [] elsewhere."""
        lib = self.game._lib
        law = _laws.get(lib.kg_state_chance_key(self._p))
        if law is None:  # a law met for the first time (or not a chance node: key −1, no outcomes)
            pairs = _Pairs()
            n = lib.kg_state_chance(self._p, pairs)
            law = tuple((int(pairs[2 * i]), pairs[2 * i + 1]) for i in range(n))
            if n:
                _laws[lib.kg_state_chance_key(self._p)] = law
        return list(law)

    def legal_actions(self, player=None):
        """player's legal actions (line-up indices, ascending) at a simultaneous node; without
        a player, as OpenSpiel: at a chance node the possible outcomes, at a simultaneous node
        the legal joint actions home × 121 + away (ascending); [] at the end."""
        if player is None or player == CHANCE_PLAYER_ID:
            if self.is_chance_node():
                return [o for o, _ in self.chance_outcomes()]
            if player is None and self.is_simultaneous_node():
                away = self.legal_actions(1)
                return [h * N.NUM_ACTIONS + a for h in self.legal_actions(0) for a in away]
            return []
        out = (ctypes.c_int32 * N.NUM_ACTIONS)()
        n = self.game._lib.kg_state_legal(self._p, _player(player), out)
        return out[:n]

    def legal_actions_mask(self, player):
        """legal_actions(player) as 121 booleans (NumPy)."""
        m = np.zeros(N.NUM_ACTIONS, bool)
        m[self.legal_actions(player)] = True
        return m

    # --- moving on
    def apply_action(self, action):
        """At a chance node, play the outcome; at a simultaneous node, the joint action
        home × 121 + away (OpenSpiel's flattening). Illegal: ValueError, the state unchanged."""
        if type(action) is not int:  # the fast path takes plain ints; the rest are checked
            action = N.whole("action", action, 0, _JOINTS - 1)
        if 0 <= action < _JOINTS and self.game._lib.kg_state_apply(self._p, action) == 0:
            self._hist.append(action)
            return
        self._refuse(action)

    def _refuse(self, action):
        if self.is_terminal():
            raise ValueError(f"apply_action({action}): the match is over")
        if self.is_chance_node():
            raise ValueError(f"apply_action({action}): outcome {action} is not possible here; chance_outcomes() are {self.chance_outcomes()}")
        if not 0 <= action < _JOINTS:
            raise ValueError(f"apply_action({action}): a joint action is home × 121 + away, 0..{_JOINTS - 1}")
        self.apply_actions(divmod(action, N.NUM_ACTIONS))  # raises, saying why

    def apply_actions(self, actions):
        """Both players' actions at a simultaneous node, [home, away] (a player who is not
        acting keeps, whatever is given). Illegal: ValueError, the state unchanged."""
        if len(actions) != 2:
            raise ValueError(f"apply_actions({actions!r}): want [home, away]")
        h = N.whole("home action", actions[0], 0, N.NUM_ACTIONS - 1)
        a = N.whole("away action", actions[1], 0, N.NUM_ACTIONS - 1)
        if self.game._lib.kg_state_apply_joint(self._p, h, a) != 0:
            buf = ctypes.create_string_buffer(512)
            self.game._lib.kg_state_why(self._p, h, a, buf, 512)
            raise ValueError(f"apply_actions([{h}, {a}]): {buf.value.decode()}")
        self._hist.append(h * N.NUM_ACTIONS + a)

    def child(self, action):
        """A clone with action applied."""
        c = self.clone()
        c.apply_action(action)
        return c

    def clone(self):
        """An independent copy (no call into Go)."""
        return _state(self.game, self.game._type.from_buffer_copy(self._b), self._hist.copy())

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    # --- what it shows
    def returns(self):
        """[home, away]: +1 a win, −1 a loss, 0 a draw or before the end."""
        r = (ctypes.c_double * 2)()
        self.game._lib.kg_state_returns(self._p, r)
        return [r[0], r[1]]

    def rewards(self):
        """The rewards of the last action: the returns at the end, 0 before."""
        return self.returns()

    def observation_tensor(self, player):
        """player's 36-slot observation (the environments'), as a list of floats."""
        obs = np.zeros(N.OBS_SIZE, np.float32)
        self.game._lib.kg_state_observation(self._p, _player(player), N.addr(obs))
        return obs.tolist()

    def info(self):
        """The numbers of the state: period, throws_left, score, ball (0 when none),
        moves_left, lineups (indices; −1 before kick-off), penalties and winner."""
        v = (ctypes.c_int32 * 12)()
        self.game._lib.kg_state_info(self._p, v)
        return {"period": _PERIODS[v[0]], "throws_left": v[1], "score": (v[2], v[3]), "ball": v[4],
                "moves_left": (v[5], v[6]), "lineups": (v[7], v[8]), "penalties": (v[9], v[10]),
                "winner": None if v[11] < 0 else ("home", "away")[v[11]], "decision": self.decision()}

    def history(self):
        """The actions played since kick-off: outcomes at chance nodes, home × 121 + away at
        simultaneous ones (None for a state taken from an environment: it keeps none)."""
        return None if isinstance(self._hist, _NoHistory) else list(self._hist)

    def move_number(self):
        return len(self._hist)

    def __str__(self):
        buf = ctypes.create_string_buffer(512)
        self.game._lib.kg_state_string(self._p, buf, 512)
        return buf.value.decode()

    def __repr__(self):
        return f"<kingoal.State {self}>"

    def key(self):
        """The engine's value itself, as bytes: equal keys, equal states (whatever the path to
        them): for transposition tables."""
        return bytes(self._b)

    def __eq__(self, other):
        return isinstance(other, State) and other.game == self.game and bytes(other._b) == bytes(self._b)

    def __hash__(self):
        return hash(bytes(self._b))

    # --- lasting
    def serialize(self):
        """Text that deserialize_state reads back: the format, the rules, the history."""
        if isinstance(self._hist, _NoHistory):
            raise ValueError("serialize(): this state was taken from an environment (env.unwrapped.state), which keeps no "
                             "history of actions to replay; clone() it to plan, or play from Game.new_initial_state() to serialize")
        head = dict(self.game.rules, **({"lineups": list(self.game.lineups)} if self.game.lineups else {}))
        return f"{_FORMAT}\n{json.dumps(head, sort_keys=True)}\n{' '.join(map(str, self._hist))}\n"

    def __reduce__(self):
        return (deserialize_state, (self.serialize(),))


_JOINTS = N.NUM_ACTIONS * N.NUM_ACTIONS
_Pairs = ctypes.c_double * 6
_laws = {}  # kg_state_chance_key → ((outcome, probability), …): the laws are few and fixed
_new = object.__new__


def _state(game, buf, history):
    s = _new(State)
    s.game, s._b, s._p, s._hist = game, buf, ctypes.addressof(buf), history
    return s


class _NoHistory(list):
    """The history of a state taken from an environment: unknown, and it stays so."""

    def append(self, _):
        pass

    def copy(self):
        return self


_games = {}  # an environment's rules (JSON) → its Game, for its .state


def state_of_env(rules, handle, err):
    """The current state of the native environment handle (rules: its rule knobs)."""
    key = json.dumps(rules, sort_keys=True)
    game = _games.get(key)
    if game is None:
        game = _games[key] = Game(**rules)
    buf = game._type()
    err.check(game._lib.kg_env_state(handle, buf, err.ptr, N._ERRSIZE))
    return _state(game, buf, _NoHistory())


def deserialize_state(text):
    """The state serialize() wrote: its rules and history replayed through the engine's
    checks. Anything else is a ValueError."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode()
        except UnicodeDecodeError as e:
            raise ValueError(f"deserialize_state: not text: {e}") from None
    if not isinstance(text, str):
        raise ValueError(f"deserialize_state: want the text serialize() wrote, got {type(text).__name__}")
    lines = text.split("\n")
    if len(lines) != 4 or lines[0] != _FORMAT or lines[3] != "":
        raise ValueError(f"deserialize_state: not a {_FORMAT} state (three lines: the format, the rules, the history)")
    try:
        rules = json.loads(lines[1])
    except (ValueError, RecursionError) as e:  # RecursionError: "[[[[…", nested past Python's stack
        raise ValueError(f"deserialize_state: the rules line is not JSON: {type(e).__name__}: {str(e)[:200]}") from None
    if not isinstance(rules, dict):
        raise ValueError("deserialize_state: the rules line is not a JSON object")
    s = Game(**rules).new_initial_state()  # lineups, if any, is Game's argument
    for i, word in enumerate(lines[2].split(" ") if lines[2] else []):
        if not (word.isascii() and word.isdigit()) or len(word) > 6:  # "٣".isdigit() too
            raise ValueError(f"deserialize_state: action {i + 1}, {word!r}, is not a whole number")
        if s.is_terminal():
            raise ValueError(f"deserialize_state: action {i + 1} comes after the end of the match")
        try:
            s.apply_action(int(word))
        except ValueError as e:
            raise ValueError(f"deserialize_state: action {i + 1}: {e}") from None
    return s


def _player(p):
    if p not in (0, 1) or isinstance(p, bool):
        raise ValueError(f"player={p!r}: want 0 (home) or 1 (away)")
    return int(p)
