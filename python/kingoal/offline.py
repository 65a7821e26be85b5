"""Kingoal's decision logs as Minari datasets (offline RL). Needs minari, gymnasium and
pyarrow (Minari's "arrow" format); `import kingoal` does not."""
import json
import os

import numpy as np

try:
    import minari
    from gymnasium.envs.registration import EnvSpec
    from minari.data_collector import EpisodeBuffer
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("kingoal.to_minari needs minari, gymnasium and pyarrow: pip install './python[minari]'") from e

from .data import read_parquet
from .gym import observation_space
from ._native import NUM_ACTIONS


def to_minari(run_dir, dataset_id, *, agent=None, player=None, opponent=None, author=None, description=None):
    """Writes the decisions one agent made in a run — `kingoal arena --log-decisions` or
    `kingoal datasets generate`, the directory with run.json, matches.parquet and
    decisions.parquet — as the Minari dataset dataset_id, and returns it
    (minari.load_dataset(dataset_id) opens it again).

    An episode is one match seen by one player: observations float32[T+1, 36], actions
    (line-up indices) int64[T], rewards, terminations, truncations, and
    infos["action_mask"] int8[T+1, 121]. The log holds observations at decisions only, so
    an episode's last observation repeats its last decision's (with an empty mask: the match
    is over); rewards and terminations are the environment's. agent, player ("home" or
    "away") and opponent (an agent spec) choose the episodes; together they must leave one
    player side and one opponent, because the dataset's environment — what
    recover_environment() makes — is Kingoal-v0 with that opponent, side and the run's rules."""
    with open(os.path.join(run_dir, "run.json")) as f:
        run = json.load(f)
    d = read_parquet(os.path.join(run_dir, "decisions.parquet"))
    m = read_parquet(os.path.join(run_dir, "matches.parquet"))
    home_of = dict(zip(m["match_id"].tolist(), m["home_agent"].tolist()))
    away_of = dict(zip(m["match_id"].tolist(), m["away_agent"].tolist()))
    sides = d["player"].astype(str)
    opponents = np.array([away_of[i] if s == "home" else home_of[i] for i, s in zip(d["match_id"].tolist(), sides)])
    keep = np.ones(d.rows, bool)
    for want, have in ((agent, d["agent"].astype(str)), (player, sides), (opponent, opponents)):
        if want is not None:
            keep &= have == want
    if not keep.any():
        raise ValueError(f"kingoal: no decisions of agent={agent!r}, player={player!r}, opponent={opponent!r} in {run_dir}")
    for name, values in (("player", sides[keep]), ("opponent", opponents[keep])):
        if len(set(values)) > 1:
            raise ValueError(f"kingoal: the decisions chosen face {len(set(values))} {name}s ({', '.join(sorted(set(values)))}): "
                             f"choose one with {name}=, so the dataset has one environment")
    side, opp = sides[keep][0], opponents[keep][0]
    rules = run["rules_config"]
    spec = EnvSpec("Kingoal-v0", entry_point="kingoal.gym:KingoalEnv", kwargs=dict(opponent=opp, player=side, **rules))
    buffers = _episodes(d, np.flatnonzero(keep))
    return minari.create_dataset_from_buffers(
        dataset_id, buffers, env=spec, algorithm_name=agent or ", ".join(sorted(set(d["agent"].astype(str)[keep]))),
        author=author, description=description or f"kingoal decisions from {os.path.abspath(run_dir)} ({run['rules']})",
        observation_space=observation_space(rules), data_format="arrow", requirements=["kingoal"])


def _episodes(d, rows):
    """EpisodeBuffers of the chosen decision rows, an episode a (match, player), in file order."""
    key = list(zip(d["match_id"][rows].tolist(), d["player"][rows].astype(str).tolist()))
    starts = [0] + [k for k in range(1, len(rows)) if key[k] != key[k - 1]] + [len(rows)]
    out = []
    for n, (a, b) in enumerate(zip(starts, starts[1:])):
        r = rows[a:b]
        if not np.array_equal(d["step"][r], np.arange(len(r))):
            raise ValueError(f"kingoal: the decisions of match {key[a][0]} ({key[a][1]}) are not steps 0..{len(r) - 1} in order")
        obs = np.concatenate([d["observation"][r], d["observation"][r[-1:]]]).astype(np.float32)
        masks = np.concatenate([d["mask"][r].astype(np.int8), np.zeros((1, NUM_ACTIONS), np.int8)])
        out.append(EpisodeBuffer(id=n, observations=obs, actions=d["action"][r].astype(np.int64),
                                 rewards=d["reward"][r].astype(np.float64), terminations=d["terminated"][r].astype(bool),
                                 truncations=d["truncated"][r].astype(bool), infos={"action_mask": masks}))
    return out
