"""Kingoal for Python: the Go toolkit's environments, solver and datasets at native speed.

    import gymnasium as gym, kingoal
    env = gym.make("Kingoal-v0", opponent="heuristic")        # or kingoal.KingoalEnv(...)
    envs = gym.make_vec("Kingoal-v0", num_envs=256, vectorization_mode="vector_entry_point")
    par = kingoal.parallel_env()                               # PettingZoo ParallelEnv
    kingoal.solve_odds("1-2-3-3-1", "2-2-2-2-2", knockout=True)
    g = kingoal.solve_game(throws_per_half=10, moves=1)         # the substitution game's equilibrium
    g.mix(period="second half", throws_left=5, goal_diff=-1, home="2-2-2-2-2", away="2-2-2-2-2", home_moves=1, away_moves=1)
    kingoal.read_parquet("kingoal-arena/matches.parquet")      # dict of NumPy arrays
    aec = kingoal.env()                                         # PettingZoo AEC env
    kingoal.to_minari("run", "kingoal/heuristic-v0", agent="heuristic", player="home")  # Minari dataset

NumPy is the only dependency; KingoalEnv and KingoalVectorEnv need gymnasium and
parallel_env needs pettingzoo, imported when first used. Everything runs in one Go library
loaded once per process: do not fork after using it (multiprocessing: use "spawn" or
"forkserver").
"""
from ._native import NUM_ACTIONS, OBS_SIZE, library_path
try:
    from ._version import __version__  # written by the build, from the Go release
except ImportError:  # a source checkout on PYTHONPATH: the same declaration, read where it stands
    from ._release import checkout_version as _checkout_version
    __version__ = _checkout_version()
from .data import read_parquet
from .vector import VecEnv
from .solve import episode_seed, equilibrium, lineup, lineup_index, optimal_value, solve_odds, version
from .game import SolvedGame, load_game, solve_game
from .exploit import exploitability, nash_conv, save_policy
from .compete import arena, evaluate
from .rank import alpharank, nash_average
from . import bench
from .state import Game, State, deserialize_state

__all__ = ["Game", "State", "deserialize_state", "VecEnv", "KingoalEnv", "KingoalVectorEnv", "parallel_env", "KingoalParallelEnv", "solve_odds", "equilibrium",
           "optimal_value", "solve_game", "load_game", "SolvedGame", "exploitability", "nash_conv", "save_policy", "arena", "evaluate", "alpharank", "nash_average", "bench", "read_parquet", "lineup", "lineup_index", "episode_seed", "version", "OBS_SIZE",
           "NUM_ACTIONS", "library_path", "env", "to_minari", "__version__"]

_LAZY = {"KingoalEnv": "gym", "KingoalVectorEnv": "gym", "parallel_env": "pz", "KingoalParallelEnv": "pz", "env": "pz",
         "to_minari": "offline"}


def __getattr__(name):
    # The Gymnasium and PettingZoo classes load their libraries only when asked for.
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'kingoal' has no attribute {name!r}")


try:  # register the ids when Gymnasium is installed; without it there is nothing to register with
    import gymnasium as _gym
except ImportError:  # pragma: no cover
    pass
else:
    if "Kingoal-v0" not in _gym.registry:
        _gym.register("Kingoal-v0", entry_point="kingoal.gym:KingoalEnv", vector_entry_point="kingoal.gym:KingoalVectorEnv")
