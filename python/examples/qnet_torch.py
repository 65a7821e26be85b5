"""A masked Q-network in PyTorch on KingoalVectorEnv — and its regret to the exact optimum.

A CleanRL-style single file: an MLP scores all 121 formation actions, illegal ones are masked
out of both the ε-greedy choice and the max; it is trained on Monte Carlo targets (every
decision of an episode regresses towards the episode's result, +1/0/−1: the game is short and
its only reward comes at the end) from a replay buffer filled by 128 environments stepped in
one native call. At the end the greedy policy's score is measured by Monte Carlo and set
beside the solver's exact optimum: the regret. The targets are the result (+1/0/−1), whose
mean is 2 (P(win) + ½ P(draw)) − 1, so the score is P(win) + ½ P(draw), the solver's
objective "win-draw" (P(win) is printed beside it). Reduced rules by default (10-throw halves, one
move). Needs Debian's python3-torch (1.13) or any PyTorch.

    .venv/bin/python python/examples/qnet_torch.py   # the venv and install of python/README.md
"""
import argparse
import time

import numpy as np
import torch
from torch import nn

import kingoal


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opponent", default="fixed:2-2-2-2-2")
    p.add_argument("--throws-per-half", type=int, default=10)
    p.add_argument("--moves", type=int, default=1)
    p.add_argument("--episodes", type=int, default=100_000)
    p.add_argument("--num-envs", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--epsilon", type=float, default=0.1)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--buffer", type=int, default=100_000)
    p.add_argument("--eval-episodes", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


def qnet():
    return nn.Sequential(nn.Linear(kingoal.OBS_SIZE, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, kingoal.NUM_ACTIONS))


def greedy(q, obs, mask):
    with torch.no_grad():
        s = q(torch.as_tensor(obs)).numpy()
    s[mask == 0] = -np.inf
    return np.where(mask.any(1), s.argmax(1), 0)


def evaluate(envs, q, episodes, seed):
    """The greedy policy's score P(win) + ½ P(draw) with its 95% interval, and its P(win)."""
    obs, infos = envs.reset(seed=seed)
    results = []
    pending = np.zeros(envs.num_envs, bool)
    while len(results) < episodes:
        obs, r, term, trunc, infos = envs.step(greedy(q, obs, infos["action_mask"]))
        results.extend(r[(term | trunc) & ~pending].tolist())
        pending = term | trunc
    score = (np.asarray(results) + 1) / 2  # 1 a win, ½ a draw, 0 a loss
    return score.mean(), 1.96 * score.std() / np.sqrt(len(score)), float(np.mean(np.asarray(results) > 0))


def main():
    a = parse_args()
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    rules = dict(throws_per_half=a.throws_per_half, moves=a.moves)
    envs = kingoal.KingoalVectorEnv(num_envs=a.num_envs, opponent=a.opponent, **rules)
    n = envs.num_envs
    q = qnet()
    opt = torch.optim.Adam(q.parameters(), lr=a.lr)
    buf_obs = np.zeros((a.buffer, kingoal.OBS_SIZE), np.float32)
    buf_act = np.zeros(a.buffer, np.int64)
    buf_ret = np.zeros(a.buffer, np.float32)
    size = pos = 0
    episode = [[] for _ in range(n)]  # (obs, action) of each env's running episode
    obs, infos = envs.reset(seed=a.seed)
    pending = np.zeros(n, bool)
    finished, start = 0, time.time()
    while finished < a.episodes:
        mask = infos["action_mask"]
        actions = greedy(q, obs, mask)
        explore = rng.random(n) < a.epsilon
        for i in np.flatnonzero(explore & mask.any(1)):
            actions[i] = rng.choice(np.flatnonzero(mask[i]))
        for i in np.flatnonzero(~pending):
            episode[i].append((obs[i], actions[i]))
        obs, r, term, trunc, infos = envs.step(actions)
        for i in np.flatnonzero((term | trunc) & ~pending):
            for o, act in episode[i]:  # Monte Carlo target: the episode's result
                buf_obs[pos], buf_act[pos], buf_ret[pos] = o, act, r[i]
                pos, size = (pos + 1) % a.buffer, min(size + 1, a.buffer)
            episode[i].clear()
            finished += 1
        pending = term | trunc
        if size >= a.batch:
            idx = rng.integers(size, size=a.batch)
            pred = q(torch.as_tensor(buf_obs[idx])).gather(1, torch.as_tensor(buf_act[idx])[:, None]).squeeze(1)
            loss = nn.functional.mse_loss(pred, torch.as_tensor(buf_ret[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
    secs = time.time() - start
    s, ci, p = evaluate(kingoal.KingoalVectorEnv(num_envs=n, opponent=a.opponent, **rules), q, a.eval_episodes, a.seed + 1)
    best = kingoal.optimal_value(a.opponent.split(":", 1)[1], objective="win-draw", **rules)
    print(f"trained {finished:,} episodes in {secs:.1f} s against {a.opponent} ({', '.join(f'{k}={v}' for k, v in rules.items())})")
    print(f"greedy policy P(win) + ½ P(draw)  {s:.4f} ± {ci:.4f} (95%, {a.eval_episodes:,} episodes; P(win) {p:.4f})")
    print(f"optimum P(win) + ½ P(draw)        {best['value']:.4f} (exact: kick off {best['lineup']}, then the optimal substitutions)")
    print(f"regret                            {best['value'] - s:.4f} ± {ci:.4f}")


if __name__ == "__main__":
    main()
