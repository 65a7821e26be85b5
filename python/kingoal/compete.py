"""Python policies in the Go arena and eval: each tabulated as a policy table (save_policy), then
played by the kingoal command's own code, in this process."""
import json
import os
import re
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
    replaces a finished one. Ctrl-C stops the run, keeping every finished match."""
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
    args = ["arena", "--agents", ";".join(specs), "--out", out, "--matches", str(matches), "--format", format,
            "--seed", str(seed), "--workers", str(workers)] + _rule_flags(rules)
    if resume:
        args.append("--resume")
    elif force:
        args.append("--force")
    if not exploitability:
        args.append("--no-exploitability")
    _run(args, progress)
    return json.loads(_run(["leaderboard", out, "--json"], False))


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
        args = ["eval", spec, "--vs", ";".join(vs), "-n", str(matches), "--seed", str(seed), "--json"] + _rule_flags(rules)
        if not exploitability:
            args.append("--no-exploitability")
        return json.loads(_run(args, False))


def _rule_flags(rules):
    """Rule keywords (as the environments take them) as the CLI's rule flags."""
    flags = []
    for k, v in rules.items():
        if isinstance(v, bool):
            v = "true" if v else "false"
        elif isinstance(v, (list, tuple)):
            v = ",".join(map(str, v))
        flags.append(f"--{k.replace('_', '-')}={v}")
    return flags


def _run(args, progress):
    """The kingoal command run in the library; its stdout, or its one-line error raised."""
    job = N.call("cli_start", args=args)["job"]
    holder = _Job(job)
    try:
        while True:
            try:
                r = N.call("cli_wait", job=job, ms=200)
            except KeyboardInterrupt:
                N.call("cli_wait", job=job, ms=60_000, cancel=True)  # the run saves what it finished
                raise
            if r["done"]:
                break
        if progress and r["stderr"]:
            print(r["stderr"], end="")
        if r["code"] == 0:
            return r["stdout"]
        msg = r["stderr"].strip().splitlines()[-1] if r["stderr"].strip() else f"exit {r['code']}"
        if r["code"] == 2:
            raise ValueError(msg)
        if r["code"] == 130:
            raise KeyboardInterrupt(msg)
        raise RuntimeError(msg)
    finally:
        holder.close()


class _Job:
    def __init__(self, h):
        self._h = h

    def close(self):
        N.close(self)
