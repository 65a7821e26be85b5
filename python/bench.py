"""Kingoal from Python: the cost of a step, next to the Go engine and Gymnasium's CartPole, and of kingoal.State's calls beside Go's.

Prints one table in one run. Random legal actions are chosen in NumPy (from the mask) for
the Python rows; the Go row is the same VecEnv loop with the actions chosen in Go. Run it
with the installed package (python/README.md):

    .venv/bin/python python/bench.py

or against a development build of the source tree:

    go build -buildmode=c-shared -o python/kingoal/libkingoal.so ./frontend/pylib
    PYTHONPATH=python .venv/bin/python python/bench.py
"""
import argparse
import os
import sys
import time

# Python puts this script's directory first on sys.path, where the source tree's kingoal
# (without a built library) would shadow the installed package: step aside unless it was
# built here or asked for.
_HERE = os.path.dirname(os.path.abspath(__file__))
if (sys.path and os.path.abspath(sys.path[0]) == _HERE and "KINGOAL_LIB" not in os.environ
        and not any(os.path.exists(os.path.join(_HERE, "kingoal", n)) for n in ("libkingoal.so", "libkingoal.dylib"))):
    sys.path.pop(0)

import numpy as np

import kingoal
from kingoal import _native as N


def timed(fn, steps):
    fn(min(steps // 10, 1000))  # warm up
    t = time.perf_counter()
    fn(steps)
    return (time.perf_counter() - t) / steps


def split_timing(steps, choose, step):
    """Per call: (step(action) alone, choose() + step) over steps calls after a warm-up.

    choose picks the next action from what the last step left (and resets a finished
    episode); step makes the timed call and keeps what it returns."""
    in_step = 0.0

    def run(k):
        nonlocal in_step
        in_step = 0.0
        for _ in range(k):
            action = choose()
            t = time.perf_counter()
            step(action)
            in_step += time.perf_counter() - t

    total = timed(run, steps)
    return in_step / steps, total


def bench_vec(n, steps, opponent):
    """Per env-step: (the step call alone, the step with the action choice in NumPy)."""
    envs = kingoal.VecEnv(num_envs=n, opponent=opponent)
    last = {"infos": envs.reset(seed=1)[1]}
    rng = np.random.default_rng(1)

    def choose():
        m = last["infos"]["action_mask"]
        # one uniform per env mapped onto its legal actions, vectorised (no Python loop)
        pick = (rng.random(n) * np.maximum(m.sum(1, dtype=np.int16), 1)).astype(np.int16)
        return (m.cumsum(1, dtype=np.int16) > pick[:, None]).argmax(1)

    def step(actions):
        last["infos"] = envs.step(actions)[4]

    in_step, total = split_timing(steps, choose, step)
    return in_step / n, total / n


def bench_single(steps, opponent):
    """Per step: (the step call alone, with the action choice and resets)."""
    env = kingoal.KingoalEnv(opponent=opponent)
    last = {"info": env.reset(seed=1)[1], "done": False}
    rng = np.random.default_rng(1)

    def choose():
        if last["done"]:
            last["info"], last["done"] = env.reset()[1], False
        legal = np.flatnonzero(last["info"]["action_mask"])
        return int(legal[rng.integers(len(legal))])

    def step(a):
        _, _, term, trunc, last["info"] = env.step(a)
        last["done"] = term or trunc

    return split_timing(steps, choose, step)


def bench_parallel(steps):
    """Per step: (the step call alone, with the action choice and resets)."""
    env = kingoal.parallel_env()
    last = {"obs": env.reset(seed=1)[0]}
    rng = np.random.default_rng(1)

    def choose():
        if not env.agents:
            last["obs"] = env.reset()[0]
        acts = {}
        for a in env.agents:
            legal = np.flatnonzero(last["obs"][a]["action_mask"])
            acts[a] = int(legal[rng.integers(len(legal))])
        return acts

    def step(acts):
        last["obs"] = env.step(acts)[0]

    return split_timing(steps, choose, step)


def bench_cartpole(steps, n):
    import gymnasium as gym
    env = gym.make("CartPole-v1")
    env.reset(seed=1)

    def run(k):
        for _ in range(k):
            _, _, term, trunc, _ = env.step(env.action_space.sample())
            if term or trunc:
                env.reset()

    single = timed(run, steps)
    vec = gym.vector.SyncVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(n)])
    vec.reset(seed=1)

    def runv(k):
        for _ in range(k):
            vec.step(vec.action_space.sample())

    return single, timed(runv, max(steps // n, 100)) / n


def bench_state(n):
    """kingoal.State's calls for planning, per call: clone, apply_action (a throw's outcome,
    each on a fresh clone), chance_outcomes, at a default-rules match's first throw."""
    s = kingoal.Game(lineups=("2-2-2-2-2", "1-2-3-3-1")).new_initial_state()
    def clones(k):
        for _ in range(k):
            s.clone()

    def outcomes(k):
        for _ in range(k):
            s.chance_outcomes()

    clone = timed(clones, n)
    clones = [s.clone() for _ in range(n)]
    start = time.perf_counter()
    for c in clones:
        c.apply_action(0)
    apply = (time.perf_counter() - start) / n
    chance = timed(outcomes, n)
    return clone, apply, chance


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--num-envs", type=int, default=256)
    p.add_argument("--steps", type=int, default=2000, help="batched steps (single envs: 50× as many)")
    p.add_argument("--opponent", default="heuristic")
    a = p.parse_args()
    n = a.num_envs
    go = N.call("bench_vec", num_envs=n, steps=a.steps, opponent=a.opponent, rules={})["ns_per_env_step"] * 1e-9
    vec, vec_all = bench_vec(n, a.steps, a.opponent)
    single, single_all = bench_single(50 * a.steps // 10, a.opponent)
    par, par_all = bench_parallel(50 * a.steps // 10)
    rows = [
        (f"Go env.VecEnv, N={n} (actions chosen in Go)", go, ""),
        (f"kingoal.VecEnv.step, N={n} (the call; actions from NumPy)", vec, f"{vec / go:.2f}× Go (target ≤ 1.5×)"),
        (f"  the same with choosing the random legal actions in NumPy", vec_all, f"{vec_all / go:.2f}× Go"),
        ("kingoal.KingoalEnv.step (the call)", single, "target ≤ 10 µs"),
        ("  with choosing the action in NumPy and resets", single_all, ""),
        ("kingoal.parallel_env().step (the call)", par, "target ≤ 25 µs"),
        ("  with choosing the actions in NumPy and resets", par_all, ""),
    ]
    go_state = N.call("bench_state", n=1_000_000)
    clone, apply, chance = bench_state(20 * a.steps)
    rows += [
        ("kingoal.State.clone()", clone, f"target ≤ 2 µs; Go's copy {go_state['clone_ns']:.1f} ns"),
        ("kingoal.State.apply_action(outcome)", apply, f"target ≤ 2 µs; Go's ApplyChanceChecked {go_state['apply_action_ns']:.1f} ns"),
        ("kingoal.State.chance_outcomes()", chance, f"target ≤ 2 µs; Go's AppendChanceOutcomes {go_state['chance_outcomes_ns']:.1f} ns"),
    ]
    try:
        cp, cpv = bench_cartpole(50 * a.steps // 10, n)
        rows += [("gymnasium CartPole-v1 step", cp, "yardstick"), (f"gymnasium SyncVectorEnv CartPole-v1, N={n}", cpv, "per env-step")]
    except ImportError:
        rows.append(("gymnasium CartPole-v1", float("nan"), "gymnasium not installed"))
    print(f"kingoal {kingoal.version()}, opponent {a.opponent}, default rules; µs per env-step")
    print(f"{'what':<62} {'µs':>8}  note")
    for name, secs, note in rows:
        print(f"{name:<62} {secs * 1e6:>8.3f}  {note}")


if __name__ == "__main__":
    main()
