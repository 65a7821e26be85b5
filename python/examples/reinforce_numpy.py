"""REINFORCE with action masks in pure NumPy against a fixed line-up — its regret and its exact exploitability.

A CleanRL-style single file: a linear softmax policy over the 121 formation actions, masked to
the legal ones, trained with REINFORCE (a running-mean baseline) on kingoal.VecEnv, whose
batch is stepped in one native call. At the end the greedy policy's score is measured by
Monte Carlo (95% interval) and set beside the exact optimum from the solver (the best
kick-off line-up and the optimal substitution policy against this opponent): the difference
is the regret. Reduced rules by default (10-throw halves, 1 move) so it runs in half a minute.
It learns from the result (+1/0/−1), whose mean is 2 (P(win) + ½ P(draw)) − 1: it is scored on
P(win) + ½ P(draw), the solver's objective "win-draw" (P(win) is printed beside it). Then the
truth about what it learned: its exact exploitability (kingoal.nash_conv of the greedy policy
on both sides — what a best response to it scores beyond ½), which a policy trained against
one opponent is far from 0 on; --exploit-every K also measures it every K episodes (a learning
curve against the truth, ~30 s a point at these rules).

    .venv/bin/python python/examples/reinforce_numpy.py --episodes 200000   # the venv and install of python/README.md
"""
import argparse
import time

import numpy as np

import kingoal


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opponent", default="fixed:2-2-2-2-2", help="the opponent (a fixed line-up, so the optimum is exact)")
    p.add_argument("--throws-per-half", type=int, default=10)
    p.add_argument("--moves", type=int, default=1)
    p.add_argument("--episodes", type=int, default=300_000, help="training episodes")
    p.add_argument("--num-envs", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.2)
    p.add_argument("--eval-episodes", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--exploit-every", type=int, default=0, help="episodes between exact exploitability measurements (0: at the end only)")
    return p.parse_args()


def greedy(W):
    """The greedy policy of W as kingoal.exploitability takes it: actions for a batch."""
    def act(obs, mask):
        return np.argmax(np.where(mask == 1, features(obs) @ W.T, -np.inf), axis=1)
    return act


def exploitability(W, rules):
    """The greedy policy's exact exploitability: the best responses' mean score beyond ½."""
    return kingoal.nash_conv(greedy(W), greedy(W), **rules)["exploitability"]


def masked_softmax(logits, mask):
    z = np.where(mask, logits, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def features(obs):
    return np.concatenate([obs, np.ones((len(obs), 1), np.float32)], axis=1)  # a bias input


def evaluate(envs, W, episodes, seed):
    """The greedy policy's score P(win) + ½ P(draw) over `episodes` episodes with its 95%
    interval, and its P(win)."""
    obs, infos = envs.reset(seed=seed)
    results = []
    pending = np.zeros(envs.num_envs, bool)
    while len(results) < episodes:
        logits = features(obs) @ W.T
        actions = np.where(infos["action_mask"].any(1), np.argmax(np.where(infos["action_mask"] == 1, logits, -np.inf), 1), 0)
        obs, r, term, trunc, infos = envs.step(actions)
        results.extend(r[(term | trunc) & ~pending].tolist())
        pending = term | trunc
    score = (np.asarray(results) + 1) / 2  # 1 a win, ½ a draw, 0 a loss
    return score.mean(), 1.96 * score.std() / np.sqrt(len(score)), float(np.mean(np.asarray(results) > 0))


def main():
    a = parse_args()
    rules = dict(throws_per_half=a.throws_per_half, moves=a.moves)
    rng = np.random.default_rng(a.seed)
    envs = kingoal.VecEnv(num_envs=a.num_envs, opponent=a.opponent, **rules)
    n = envs.num_envs
    W = np.zeros((kingoal.NUM_ACTIONS, kingoal.OBS_SIZE + 1))
    G = np.zeros((n, kingoal.NUM_ACTIONS, kingoal.OBS_SIZE + 1))  # each env's Σ ∇log π of its episode
    baseline, finished, returns, next_exploit = 0.0, 0, [], a.exploit_every
    obs, infos = envs.reset(seed=a.seed)
    pending = np.zeros(n, bool)  # the next step resets these envs (their action is ignored)
    start = time.time()
    while finished < a.episodes:
        x = features(obs)
        mask = infos["action_mask"] == 1
        p = masked_softmax(x @ W.T, mask | ~mask.any(1, keepdims=True))
        actions = (p.cumsum(1) > rng.random((n, 1))).argmax(1)
        grad = -p
        grad[np.arange(n), actions] += 1
        live = ~pending
        G[live] += grad[live, :, None] * x[live, None, :]
        obs, r, term, trunc, infos = envs.step(actions)
        ended = (term | trunc) & live
        if ended.any():
            R = r[ended]  # the result, +1/0/−1, arrives on the last step
            W += a.lr * ((R - baseline)[:, None, None] * G[ended]).sum(0)
            baseline = 0.99 * baseline + 0.01 * R.mean()
            G[ended] = 0
            finished += int(ended.sum())
            returns.extend(R.tolist())
            if len(returns) >= 20_000:
                print(f"episodes {finished:>8,}  mean result {np.mean(returns):+.3f}  ({finished / (time.time() - start):,.0f} episodes/s)")
                returns.clear()
            if 0 < next_exploit <= finished:
                print(f"episodes {finished:>8,}  exploitability {exploitability(W, rules):.4f} (exact)")
                next_exploit += a.exploit_every
        pending = term | trunc
    secs = time.time() - start
    s, ci, p = evaluate(kingoal.VecEnv(num_envs=n, opponent=a.opponent, **rules), W, a.eval_episodes, a.seed + 1)
    best = kingoal.optimal_value(a.opponent.split(":", 1)[1], objective="win-draw", **rules)
    print(f"\ntrained {finished:,} episodes in {secs:.1f} s against {a.opponent} ({', '.join(f'{k}={v}' for k, v in rules.items())})")
    print(f"greedy policy P(win) + ½ P(draw)  {s:.4f} ± {ci:.4f} (95%, {a.eval_episodes:,} episodes; P(win) {p:.4f})")
    print(f"optimum P(win) + ½ P(draw)        {best['value']:.4f} (exact: kick off {best['lineup']}, then the optimal substitutions)")
    print(f"regret                            {best['value'] - s:.4f} ± {ci:.4f}")
    print(f"exploitability                    {exploitability(W, rules):.4f} (exact: what a best response to the greedy policy scores beyond ½)")


if __name__ == "__main__":
    main()
