"""Kingoal as an OpenSpiel game: importing kingoal.openspiel registers "python_kingoal" with
pyspiel (pip install open_spiel), so OpenSpiel's own tools run on the exact engine.

    import pyspiel, kingoal.openspiel
    game = pyspiel.load_game("python_kingoal", {"throws_per_half": 10, "moves": 1})
    # or kingoal.openspiel.KingoalGame({...}); Shimmy's OpenSpielCompatibilityV0 wraps it

The game is simultaneous (kick-off, breaks and Dynamic shifts: both players at once, the one
not acting may only keep), explicitly stochastic (every throw, coin and kick with its exact
probabilities), zero-sum, rewarded at the end (+1, 0, −1); the observation is the
environments' 36 slots. Its parameters are the rule knobs (the keyword arguments of
kingoal.Game), "home"/"away": line-ups to start from right after the kick-off ("" for the
kick-off itself), and "shootout": under knockout rules, "one" (the default) plays a shoot-out
as one chance node — home wins it or away does, with its exact odds (the solver's: 1/2 to
1e-15) — so the game is finite and OpenSpiel's algorithms that walk every state (value
iteration, get_all_states) run on cup rules; "kicks" plays it kick by kick, as the engine
does, whose sudden death has no bound (max_game_length then counts 40 kicks).
"""
import numpy as np
import pyspiel

from . import _native as N
from .state import _OUTCOMES, CHANCE_PLAYER_ID, TERMINAL_PLAYER_ID, Game


def _typed(text):
    if text in ("true", "false"):
        return text == "true"
    return int(text) if text.isascii() and text.isdigit() else text


_DEFAULTS = None


def defaults():
    """The game's parameters and their defaults: the rule knobs, "home", "away" and "shootout"."""
    global _DEFAULTS
    if _DEFAULTS is None:
        _DEFAULTS = {k["Name"]: _typed(k["Default"]) for k in N.call("knobs")}
        _DEFAULTS.update(home="", away="", shootout="one")
    return dict(_DEFAULTS)


# The shoot-out as one chance node: its outcomes follow the engine's (kingoal.state._OUTCOMES).
SHOOTOUT_OUTCOMES = ("home wins the shoot-out", "away wins the shoot-out")
_HOME_WINS_SHOOTOUT = len(_OUTCOMES)
_COIN = {3, 4}  # the engine's "home kicks first", "away kicks first": the shoot-out begins


def _game_type():
    return pyspiel.GameType(
        short_name="python_kingoal",
        long_name="Kingoal (dice football), exact",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=defaults())


class KingoalGame(pyspiel.Game):
    """The OpenSpiel game over kingoal.Game (params: see defaults())."""

    def __init__(self, params=None):
        given = dict(defaults(), **(params or {}))
        params = dict(given)
        home, away, shootout = params.pop("home"), params.pop("away"), params.pop("shootout")
        if bool(home) != bool(away):
            raise ValueError(f"home={home!r}, away={away!r}: give both line-ups to start after the kick-off, or neither")
        if shootout not in ("one", "kicks"):
            raise ValueError(f"shootout={shootout!r}: want \"one\" (one chance node) or \"kicks\" (kick by kick)")
        self.kingoal = Game((home, away) if home else None, **params)
        self.shootout_odds = N.call("shootout_odds") if shootout == "one" else None  # P(home wins it)
        half, extra = params["throws_per_half"], params["extra_throws"] if params["knockout"] else 0
        # every throw may be followed by a break or shift, then the shoot-out: one node, or
        # kicks (sudden death is unbounded: that bound counts 40 kicks)
        length = 2 * (2 * half + 2 * extra) + 2 + (1 if shootout == "one" else 41)
        super().__init__(_game_type(), pyspiel.GameInfo(
            num_distinct_actions=N.NUM_ACTIONS, max_chance_outcomes=len(_OUTCOMES) + len(SHOOTOUT_OUTCOMES), num_players=2,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=length), given)

    def new_initial_state(self):
        return KingoalState(self, self.kingoal.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        return KingoalObserver(bool(iig_obs_type and iig_obs_type.perfect_recall))


class KingoalState(pyspiel.State):
    """An OpenSpiel state over a kingoal.State (.kingoal): every call is the engine's."""

    def __init__(self, game, state):
        super().__init__(game)
        self.kingoal = state
        self.shootout_odds = game.shootout_odds
        self.shootout_winner = None  # 0 or 1 once a shoot-out played as one node is decided

    def _at_shootout(self):
        """Whether this is the shoot-out's one chance node (shootout="one", the coin's turn)."""
        k = self.kingoal
        return self.shootout_odds is not None and self.shootout_winner is None and k.is_chance_node() \
            and {o for o, _ in k.chance_outcomes()} == _COIN

    def current_player(self):
        if self.shootout_winner is not None:
            return TERMINAL_PLAYER_ID
        return self.kingoal.current_player()  # OpenSpiel's IDs: chance −1, simultaneous −2, terminal −4

    def _legal_actions(self, player):
        if self._at_shootout():
            return [_HOME_WINS_SHOOTOUT, _HOME_WINS_SHOOTOUT + 1]
        return [] if self.shootout_winner is not None else self.kingoal.legal_actions(player)

    def chance_outcomes(self):
        if self._at_shootout():
            p = self.shootout_odds
            return [(_HOME_WINS_SHOOTOUT, p), (_HOME_WINS_SHOOTOUT + 1, 1 - p)]
        return [] if self.shootout_winner is not None else self.kingoal.chance_outcomes()

    def _apply_action(self, action):
        if self._at_shootout():
            if action not in (_HOME_WINS_SHOOTOUT, _HOME_WINS_SHOOTOUT + 1):
                raise ValueError(f"apply_action({action}): the shoot-out's outcomes are {_HOME_WINS_SHOOTOUT} (home wins it) and {_HOME_WINS_SHOOTOUT + 1}")
            self.shootout_winner = action - _HOME_WINS_SHOOTOUT
            return
        self.kingoal.apply_action(action)

    def _apply_actions(self, actions):
        self.kingoal.apply_actions(actions)

    def _action_to_string(self, player, action):
        if player == CHANCE_PLAYER_ID:
            return (_OUTCOMES + SHOOTOUT_OUTCOMES)[action]
        from .solve import lineup
        return lineup(action)

    def is_terminal(self):
        return self.shootout_winner is not None or self.kingoal.is_terminal()

    def returns(self):
        if self.shootout_winner is not None:
            return [1.0, -1.0] if self.shootout_winner == 0 else [-1.0, 1.0]
        return self.kingoal.returns()

    def rewards(self):
        return self.returns()

    def __str__(self):
        # distinct states, distinct strings (value iteration keys its values by them): the
        # description, then the engine's own value in hex (and a shoot-out's one-node result)
        won = "" if self.shootout_winner is None else f" {SHOOTOUT_OUTCOMES[self.shootout_winner]}"
        return f"{self.kingoal}{won} #{self.kingoal.key().hex()}"


class KingoalObserver:
    """OpenSpiel's PyObserver: the 36-slot observation (both players see the whole state).
    With perfect recall its string is the state's own (see KingoalState.__str__): the game is
    Markov, so a strategy is a function of the state."""

    def __init__(self, perfect_recall=False):
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(N.OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state.kingoal.observation_tensor(player)

    def string_from(self, state, player):
        return str(state) if self.perfect_recall else str(state.kingoal)


def state_of_string(game, text):
    """The kingoal.State a KingoalState's string (or an information state string of the
    game's turn-based form, pyspiel.convert_to_turn_based) names: the engine's value follows
    its last "#". game is the KingoalGame. It keeps no history."""
    from .state import _NoHistory, _state
    kg = game.kingoal
    try:
        raw = bytes.fromhex(text.rsplit("#", 1)[1].split()[0])
    except (IndexError, ValueError):
        raise ValueError(f"state_of_string: {text[:80]!r} names no state of this game") from None
    if len(raw) != len(kg._type()):
        raise ValueError(f"state_of_string: {text[:80]!r} names no state of this game")
    return _state(kg, kg._type.from_buffer_copy(raw), _NoHistory())


def tabular_policy(turn_based_game, game, strategy):
    """An OpenSpiel TabularPolicy of the turn-based form of game (pyspiel.convert_to_turn_based)
    from strategy(state, player) -> {action: probability} over kingoal.States: so OpenSpiel's
    exploitability and best responses measure a kingoal strategy."""
    from open_spiel.python import policy
    pol = policy.TabularPolicy(turn_based_game)
    for key, i in pol.state_lookup.items():
        player = int(key.partition("\n")[0].split(":")[1])  # "Current player: 1"
        row = pol.action_probability_array[i]
        row[:] = 0
        for a, p in strategy(state_of_string(game, key), player).items():
            if not pol.legal_actions_mask[i][a]:
                raise ValueError(f"tabular_policy: the strategy plays illegal action {a} at {key!r}")
            row[a] += p
    return pol


pyspiel.register_game(_game_type(), KingoalGame)
