"""Self-play MaskablePPO (sb3-contrib) on Kingoal — a Kingoal-Bench learner through kingoal.bench.

MaskablePPO's "MlpPolicy" trains on both sides at once (half the environments play home, half
away) against a frozen copy of itself, refreshed at every measurement — classic self-play
through the Gymnasium environment with a callable opponent. kingoal.bench.run trains it in
--points even steps of --timesteps decisions under a suite's rules and, after each, measures
its policy (its masked softmax, as MaskablePPO samples it) exactly: kingoal.nash_conv solves
both best responses to it over every break state, no sampling. It writes

    DIR/external/maskable-ppo_seedSEED.parquet   bench-curve/2 rows (after every point):
                        samples (decisions trained on), learning seconds (measurements left
                        out), NashConv in OpenSpiel's units (±1 returns) and on the score
                        scale — `kingoal bench --out DIR` puts them beside the Go learners in
                        its table, charts and Markdown
    DIR/zoo/maskable-ppo_seedSEED.kgp   the final policy as a policy table, with its card
                        (kingoal.bench.keep): play it as table:file=… in the CLI's arena,
                        eval and watch; kingoal agents --zoo DIR/zoo lists it

The standard suite (10-throw halves, one move) by default: ~20 s a measurement on 2 cores.

    .venv/bin/python python/examples/selfplay_maskable_ppo.py --timesteps 200000 --bench bench-standard
    .venv/bin/python python/examples/selfplay_maskable_ppo.py --suite tiny --bench bench-tiny
"""
import argparse

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import kingoal
import kingoal.bench


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--suite", choices=["tiny", "standard", "default"], default="standard", help="whose rules: tiny 3-throw halves, "
                   "standard 10, default the real rules; one move but at default")
    p.add_argument("--timesteps", type=int, default=200_000, help="decisions to train on, both sides together")
    p.add_argument("--points", type=int, default=10, help="exact measurements along the way (each refreshes the opponent)")
    p.add_argument("--n-envs", type=int, default=8, help="environments, half home and half away")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--force", action="store_true", help="replace this seed's curve and zoo table in DIR")
    p.add_argument("--bench", metavar="DIR", default="kingoal-bench", help="the curve goes to DIR/external/ (kingoal bench --out DIR reads it)")
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


def main():
    a = parse_args()
    rules = kingoal.bench.suite_rules(a.suite)
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

    def learn(target):
        model.learn(target - model.num_timesteps, reset_num_timesteps=False)
        refresh()
        return int(model.num_timesteps)

    print(f"self-play MaskablePPO, seed {a.seed}")
    rows = kingoal.bench.run("maskable-ppo", learn, lambda: masked_softmax(model.policy), a.bench, suite=a.suite, seed=a.seed,
                             budget=a.timesteps, points=a.points, keep_final=True, force=a.force)
    envs.close()
    print(f"wrote {a.bench}/zoo/maskable-ppo_seed{a.seed}.kgp with its card (the final policy: OpenSpiel NashConv "
          f"{rows[-1]['openspiel_nash_conv']:.6f}); kingoal bench --suite {a.suite} --out {a.bench} shows the curve beside the Go learners")


if __name__ == "__main__":
    try:
        main()
    except FileExistsError as e:  # a finished curve or table, kept: one line, exit 1
        raise SystemExit(f"selfplay_maskable_ppo: {e}; here: --force")
