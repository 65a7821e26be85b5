"""Self-play MaskablePPO (sb3-contrib) on Kingoal — its exact exploitability curve and its policy table.

A learner of Kingoal-Bench in one file: MaskablePPO's "MlpPolicy" trains on both sides at once
(half the environments play home, half away) against a frozen copy of itself, refreshed at
every measurement — classic self-play through the Gymnasium environment with a callable
opponent. At each of --points measurements the current policy (its masked softmax, as
MaskablePPO samples it) is measured exactly: kingoal.nash_conv solves both best responses to
it over every break state, no sampling. It writes

    OUT.curve.parquet   exploitability-curve/1: iteration, samples (decisions trained on),
                        passes (0), learning seconds (measurements left out), exploitability,
                        NashConv — what `kingoal train` writes for the full-width learners
    OUT.kgp             the final policy as a policy table (kingoal.save_policy): play it as
                        table:file=OUT.kgp in the CLI's arena, eval and watch

and, with --bench DIR, its rows as bench-curve/1 in DIR/external/, which `kingoal bench --out
DIR` puts beside the Go learners in its table, charts and Markdown. Reduced rules by default
(10-throw halves, one move): ~20 s a measurement on 2 cores.

    .venv/bin/python python/examples/selfplay_maskable_ppo.py --timesteps 200000 --out ppo
    .venv/bin/python python/examples/selfplay_maskable_ppo.py --bench bench-standard --out bench-standard/ppo
"""
import argparse
import os
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import kingoal

CURVE = pa.schema([("iteration", pa.int64(), False), ("exploitability", pa.float64(), False), ("nash_conv", pa.float64(), False),
                   ("seconds", pa.float64(), False), ("passes", pa.int64(), False), ("samples", pa.int64(), False)])
BENCH = pa.schema([("suite", pa.string(), False), ("learner", pa.string(), False), ("rules", pa.string(), False),
                   ("seed", pa.int64(), False), ("iteration", pa.int64(), False), ("samples", pa.int64(), False),
                   ("passes", pa.int64(), False), ("seconds", pa.float64(), False), ("exploitability", pa.float64(), False),
                   ("nash_conv", pa.float64(), False), ("exact", pa.bool_(), False), ("ci95", pa.float64(), False)])


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--throws-per-half", type=int, default=10)
    p.add_argument("--moves", type=int, default=1)
    p.add_argument("--timesteps", type=int, default=200_000, help="decisions to train on, both sides together")
    p.add_argument("--points", type=int, default=10, help="exact measurements along the way (each refreshes the opponent)")
    p.add_argument("--n-envs", type=int, default=8, help="environments, half home and half away")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="maskable_ppo", help="the files' prefix: OUT.curve.parquet, OUT.kgp")
    p.add_argument("--bench", metavar="DIR", help="also write the curve as bench-curve/1 rows into DIR/external/")
    p.add_argument("--force", action="store_true", help="replace OUT.kgp if it exists")
    return p.parse_args()


def masked_softmax(policy):
    """The policy's action probabilities at a batch of decisions (what kingoal.nash_conv asks)."""
    def probabilities(obs, mask):
        with th.no_grad():
            dist = policy.get_distribution(policy.obs_to_tensor(obs)[0], action_masks=mask.astype(bool))
            return dist.distribution.probs.cpu().numpy().astype(np.float64)
    return probabilities


def self_play_envs(n_envs, seed, rules, holder):
    """n_envs environments, home and away alternating, whose opponent plays holder["policy"]."""
    def opponent(obs, mask):
        action, _ = holder["policy"].predict(obs, action_masks=mask.astype(bool), deterministic=False)
        return int(action)

    def make(i):
        def build():
            e = kingoal.KingoalEnv(opponent=opponent, player=("home", "away")[i % 2], **rules)
            e.reset(seed=seed * 1000 + i)
            return e
        return build
    return DummyVecEnv([make(i) for i in range(n_envs)])


def write_atomically(table, path, tag):
    table = table.replace_schema_metadata({"kingoal.schema": tag})
    tmp = f"{path}.tmp-{os.getpid()}"
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def main():
    a = parse_args()
    if os.path.exists(a.out + ".kgp") and not a.force:
        raise SystemExit(f"{a.out}.kgp exists: replace it with --force")
    rules = dict(throws_per_half=a.throws_per_half, moves=a.moves)
    th.manual_seed(a.seed)
    holder = {}
    envs = self_play_envs(a.n_envs, a.seed, rules, holder)
    model = MaskablePPO("MlpPolicy", envs, n_steps=256, batch_size=256, gamma=1.0, ent_coef=0.01, seed=a.seed, device="cpu", verbose=0)
    frozen = type(model.policy)(**model.policy._get_constructor_parameters())  # the opponent: a copy, refreshed
    frozen.set_training_mode(False)

    def refresh():
        frozen.load_state_dict(model.policy.state_dict())
        holder["policy"] = frozen
    refresh()  # the untrained policy: near uniform
    rows, learning = [], 0.0
    print(f"self-play MaskablePPO, seed {a.seed}, {a.timesteps:,} decisions, {a.points} exact measurements, rules {rules}")
    for k in range(1, a.points + 1):
        start = time.time()
        model.learn(a.timesteps * k // a.points - model.num_timesteps, reset_num_timesteps=False)
        learning += time.time() - start
        refresh()
        m = kingoal.nash_conv(masked_softmax(model.policy), masked_softmax(model.policy), **rules)
        rows.append(dict(iteration=k, exploitability=m["exploitability"], nash_conv=m["nash_conv"], seconds=learning, passes=0,
                         samples=int(model.num_timesteps)))
        print(f"{k:3d}  {model.num_timesteps:>10,} decisions  {learning:8.1f} s  NashConv {m['nash_conv']:.6f} (exact)", flush=True)
        write_atomically(pa.Table.from_pylist(rows, schema=CURVE), a.out + ".curve.parquet", "exploitability-curve/1")
    envs.close()
    saved = kingoal.save_policy(masked_softmax(model.policy), a.out + ".kgp", name=f"self-play MaskablePPO, seed {a.seed}",
                                force=a.force, **rules)
    print(f"wrote {a.out}.curve.parquet and {a.out}.kgp (exploitability {saved['exploitability']:.6f}; play it as table:file={a.out}.kgp)")
    if a.bench:
        os.makedirs(os.path.join(a.bench, "external"), exist_ok=True)
        bench = [dict(suite="external", learner="maskable-ppo", rules=saved["rules"], seed=a.seed, exact=True, ci95=0.0, **r) for r in rows]
        path = os.path.join(a.bench, "external", f"maskable-ppo_seed{a.seed}.parquet")
        write_atomically(pa.Table.from_pylist(bench, schema=BENCH), path, "bench-curve/1")
        print(f"wrote {path}: run kingoal bench --out {a.bench} to see it beside the Go learners")


if __name__ == "__main__":
    main()
