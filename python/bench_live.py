"""A Python policy played live in a default-rules arena, against the same arena with a Go agent
of the same cost.

Two arenas of three agents at the given rules, --matches matches a pair (6,000 matches by
default), without the exploitability column: "random" (Go's uniform mix over the legal
line-ups) beside heuristic and fixed:2-2-2-2-2, then the same with "random" replaced by a
NumPy policy returning the same uniform mix, played live. They alternate --repeat times in
one process (the machine's speed drifts); the Go arena's time over the live one's is the
throughput ratio. Prints matches per second, the live policy's calls and decisions, and the
mean batch. --mlp plays a 36-64-121 NumPy MLP (masked softmax) live instead, for the cost of a
network. Run it with the installed package:

    .venv/bin/python python/bench_live.py
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
if (sys.path and os.path.abspath(sys.path[0]) == _HERE and "KINGOAL_LIB" not in os.environ
        and not any(os.path.exists(os.path.join(_HERE, "kingoal", n)) for n in ("libkingoal.so", "libkingoal.dylib"))):
    sys.path.pop(0)  # the source tree's kingoal has no built library: use the installed one

import numpy as np

import kingoal


class Counted:
    """A policy that counts its calls and decisions."""

    def __init__(self, f):
        self.f, self.calls, self.rows = f, 0, 0

    def __call__(self, obs, mask):
        self.calls += 1
        self.rows += len(obs)
        return self.f(obs, mask)


def uniform(obs, mask):
    return mask / mask.sum(axis=1, keepdims=True, dtype=np.float64)


def mlp(seed):
    rng = np.random.default_rng(seed)
    w1, w2 = rng.normal(0, 0.3, (36, 64)).astype(np.float32), rng.normal(0, 0.3, (64, 121)).astype(np.float32)

    def policy(obs, mask):
        z = np.maximum(obs @ w1, 0) @ w2
        z = np.where(mask == 1, z, -np.inf)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return policy


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=2000, help="matches a pair of agents (3 pairs)")
    ap.add_argument("--throws-per-half", type=int, default=0, help="0: the default rules' 45")
    ap.add_argument("--moves", type=int, default=0, help="0: the default rules' 3")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=0, help="matches at once in the live arena (0: the library's choice)")
    ap.add_argument("--mlp", action="store_true", help="play a NumPy MLP live instead of the uniform mix")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = {k: v for k, v in (("throws_per_half", args.throws_per_half), ("moves", args.moves)) if v}
    others = ["heuristic", "fixed:2-2-2-2-2"]
    tmp = tempfile.mkdtemp(prefix="kingoal-bench-live-")
    try:
        best = {"go": float("inf"), "live": float("inf")}
        for rep in range(args.repeat):
            for kind in ("go", "live"):
                out = os.path.join(tmp, f"{kind}{rep}")
                policy = Counted(mlp(args.seed) if args.mlp else uniform)
                first = "random" if kind == "go" else ("python", policy)
                t = time.perf_counter()
                lb = kingoal.arena([first] + others, out, matches=args.matches, seed=args.seed, exploitability=False,
                                   workers=args.workers if kind == "live" else 0, **rules)
                wall = time.perf_counter() - t
                best[kind] = min(best[kind], wall)
                extra = ""
                if kind == "live":
                    extra = f"; {policy.calls:,} calls, {policy.rows:,} decisions, {policy.rows / max(policy.calls, 1):.1f} a batch"
                print(f"{kind:4} {lb['matches']:,} matches in {wall:.2f} s ({lb['matches'] / wall:,.0f}/s){extra}", flush=True)
                shutil.rmtree(out)
        print(f"live / Go, the best of {args.repeat} each: {best['live'] / best['go']:.2f}×")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
