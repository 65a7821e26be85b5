"""Python policies in the Go arena and eval: each tabulated as a policy table (save_policy), then
played by the library's own arena and evaluation (the code behind the kingoal command), in this
process."""
import os
import re
import sys
import tempfile

from . import _native as N
from .exploit import save_policy


def arena(agents, out, matches=20, format="league", seed=1, resume=False, force=False, workers=0,
          exploitability=True, progress=False, **rules):
    """Play a `kingoal arena` of agents into the run directory `out` and return its leaderboard
    (the dict `kingoal leaderboard OUT --json` prints: table, ratings with exploitability,
    head to head). Each agent is a registry spec ("heuristic", "mcts:iters=200") or a pair
    (name, policy) with policy(obs, mask) as exploitability takes it: the policy is tabulated
    on both sides at every break state (save_policy) into OUT.policies/NAME.kgp and enters as
    the agent `table:file=…#NAME` — so its exploitability on the leaderboard is exact, the run
    is the same as the CLI's (`kingoal arena --resume OUT` continues it) and the Parquet files
    are the CLI's. Tabulating asks the policy at every break state: it fits where
    exploitability does (10-throw halves with one move: seconds for a NumPy policy).
    resume=True continues an interrupted run with the tables saved for it; force=True
    replaces a finished one; progress=True shows the matches played on stderr as they go.
    Ctrl-C stops the run, keeping every finished match. The run is the library's own
    (arena.Run), called directly: no command line, no JSON printed and read back."""
    out = os.path.abspath(os.fspath(out))
    if os.path.exists(out) and not (resume or force):
        raise FileExistsError(f"arena: {out} exists (resume=True continues it, force=True replaces it)")
    specs = []
    for a in agents:
        if isinstance(a, str):
            specs.append(a)
            continue
        if not (isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], str) and callable(a[1])):
            raise ValueError(f"arena: agent {a!r}: want a spec string or a pair (name, policy)")
        name, policy = a
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise ValueError(f"arena: agent name {name!r}: letters, digits, '_', '.' and '-' only")
        path = os.path.join(out + ".policies", name + ".kgp")
        if re.search(r"[;,#]", path):
            raise ValueError(f"arena: {path}: a path with ';', ',' or '#' cannot stand in an agent spec")
        if not (resume and os.path.exists(path)):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            save_policy(policy, path, name=name, force=True, **rules)
        specs.append(f"table:file={path}#{name}")
    job = N.call("arena_start", agents=specs, out=out, matches=matches, format=format, seed=seed, resume=resume,
                 force=force, workers=workers, exploitability=exploitability, rules=rules)
    return _wait(job["job"], "matches" if progress else None)


def evaluate(policy, vs=("fixed:2-2-2-2-2",), matches=1000, seed=1, exploitability=True, **rules):
    """`kingoal eval` of a policy (as exploitability takes it, tabulated on both sides into a
    temporary policy table) or of a registry spec: its win/draw/loss and score against each
    of vs (exact against fixed line-ups where the policy is deterministic, else `matches`
    matches with 95% intervals) and its exact exploitability. Returns eval's JSON as a dict."""
    with tempfile.TemporaryDirectory(prefix="kingoal-eval-") as tmp:
        spec = policy
        if not isinstance(policy, str):
            spec = "table:file=" + os.path.join(tmp, "policy.kgp")
            save_policy(policy, spec[len("table:file="):], name=getattr(policy, "__name__", "python"), **rules)
        if isinstance(vs, str):
            vs = [vs]
        job = N.call("evaluate_start", spec=spec, vs=list(vs), matches=matches, seed=seed,
                     exploitability=exploitability, rules=rules)
        return _wait(job["job"], None)


def _wait(job, unit):
    """Waits for a run of the library in short steps (so Ctrl-C stops it, keeping what it
    finished) and returns its result; with unit, its progress on stderr."""
    holder, shown = _Job(job), False
    try:
        while True:
            try:
                r = N.call("compete_wait", job=job, ms=200)
            except KeyboardInterrupt:
                N.call("compete_wait", job=job, ms=0, cancel=True)  # returns once the run saved what it finished
                raise
            if r["done"]:
                return r["result"]
            if unit:
                what = "measuring the exploitability" if r["measuring"] else f"{r['progress']}/{r['total']} {unit}"
                print(f"\rkingoal: {what}", end="", file=sys.stderr, flush=True)
                shown = True
    finally:
        if shown:
            print(file=sys.stderr)  # the progress line ends, whatever ended the run
        holder.close()


class _Job:
    def __init__(self, h):
        self._h = h

    def close(self):
        N.close(self)
