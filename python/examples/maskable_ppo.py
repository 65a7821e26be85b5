"""MaskablePPO (sb3-contrib) on Kingoal — and its regret to the exact optimum.

A CleanRL-style single file with Stable-Baselines3 as it comes: `make_vec_env("Kingoal-v0")`
(DummyVecEnv, in this process) or `--subproc` (SubprocVecEnv: a worker process per env, the id
"kingoal:Kingoal-v0" so each worker imports kingoal), MaskablePPO's "MlpPolicy" reading the
masks from `action_masks()`, then sb3-contrib's `evaluate_policy` with masking. The reward is
the result (+1/0/−1), whose mean is 2 (P(win) + ½ P(draw)) − 1, so the policy is scored on
P(win) + ½ P(draw) and set beside the solver's exact optimum for that objective ("win-draw":
the best kick-off line-up and the optimal substitutions against this opponent): the regret.
Reduced rules by default (10-throw halves, one move).

    .venv/bin/python python/examples/maskable_ppo.py                 # the venv and install of python/README.md
    .venv/bin/python python/examples/maskable_ppo.py --subproc --timesteps 20000
"""
import argparse
import time

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import SubprocVecEnv

import kingoal


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opponent", default="fixed:2-2-2-2-2", help="a fixed line-up, fixed:L (the optimum is exact against it)")
    p.add_argument("--throws-per-half", type=int, default=10)
    p.add_argument("--moves", type=int, default=1)
    p.add_argument("--timesteps", type=int, default=50_000, help="agent decisions to train on")
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--subproc", action="store_true", help="SubprocVecEnv: one worker process per environment")
    p.add_argument("--eval-episodes", type=int, default=4000)
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


def main():
    a = parse_args()
    if not a.opponent.startswith("fixed:"):
        raise SystemExit("--opponent: want fixed:L (like fixed:2-2-2-2-2), the opponent the solver's optimum is exact against")
    rules = dict(throws_per_half=a.throws_per_half, moves=a.moves)
    kwargs = dict(env_kwargs=dict(opponent=a.opponent, **rules), seed=a.seed)
    if a.subproc:  # "start_method" forkserver: a forked child would share the parent's Go runtime
        envs = make_vec_env("kingoal:Kingoal-v0", n_envs=a.n_envs, vec_env_cls=SubprocVecEnv,
                            vec_env_kwargs=dict(start_method="forkserver"), **kwargs)
    else:
        envs = make_vec_env("Kingoal-v0", n_envs=a.n_envs, **kwargs)
    model = MaskablePPO("MlpPolicy", envs, n_steps=256, batch_size=256, gamma=1.0, ent_coef=0.01, seed=a.seed, device="cpu", verbose=0)
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's default logger makes a directory in /tmp per run
    start = time.time()
    model.learn(a.timesteps)
    secs = time.time() - start
    evaluation = make_vec_env("Kingoal-v0", n_envs=a.n_envs, seed=a.seed + 1, **{k: v for k, v in kwargs.items() if k != "seed"})
    results, _ = evaluate_policy(model, evaluation, n_eval_episodes=a.eval_episodes, deterministic=True, return_episode_rewards=True)
    envs.close()
    evaluation.close()
    score = (np.asarray(results) + 1) / 2  # 1 a win, ½ a draw, 0 a loss
    s, ci = score.mean(), 1.96 * score.std() / np.sqrt(len(score))
    best = kingoal.optimal_value(a.opponent.split(":", 1)[1], objective="win-draw", **rules)
    where = "SubprocVecEnv" if a.subproc else "DummyVecEnv"
    print(f"trained {model.num_timesteps:,} decisions in {secs:.1f} s on {a.n_envs} envs ({where}) against {a.opponent} "
          f"({', '.join(f'{k}={v}' for k, v in rules.items())})")
    print(f"greedy policy P(win) + ½ P(draw)  {s:.4f} ± {ci:.4f} (95%, {len(score):,} episodes; P(win) {np.mean(np.asarray(results) > 0):.4f})")
    print(f"optimum P(win) + ½ P(draw)        {best['value']:.4f} (exact: kick off {best['lineup']}, then the optimal substitutions)")
    print(f"regret                            {best['value'] - s:.4f} ± {ci:.4f}")


if __name__ == "__main__":
    main()
