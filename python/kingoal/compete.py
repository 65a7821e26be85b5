"""Python policies in the Go arena and eval, played live: every match in flight that waits on a
Python policy queues its decision, and the policy answers all of them in one call (the
library's own arena and evaluation, the code behind the kingoal command, in this process).
tabulate=True plays a policy table of the policy instead (save_policy)."""
import ctypes
import os
import re
import sys
import tempfile
import time
import warnings

import numpy as np

from . import _native as N
from .exploit import _answer, _mover, _respond, save_policy
from .rank import _check_alpharank

_LIVE_ROWS = 4096  # a live batch's most decisions: one a match in flight


def arena(agents, out, matches=20, format="league", seed=1, resume=False, force=False, workers=0,
          exploitability=True, progress=False, tabulate=False, max_gib=12, device=None, alpharank_m=50,
          alpharank_alpha=100.0, **rules):
    """Play a `kingoal arena` of agents into the run directory `out` and return its leaderboard
    (the dict `kingoal leaderboard OUT --json` prints: table, ratings with exploitability,
    head to head). Each agent is a registry spec ("heuristic", "mcts:iters=200") or a pair
    (name, policy), played live as the agent `live:NAME`: each time decisions wait on it,
    policy(obs, mask) is called once on all of them (obs float32[N, 36], mask int8[N, 121]:
    the environment's observation and action mask, one row a match in flight) and returns
    probabilities float[N, 121] or actions int[N], as exploitability takes them (device=
    too); Go draws each action from its row with the match's own seeded stream, so the run
    is the same for the same seed whatever the batches were. Any policy plays, at any rules.

    A policy that keeps state from decision to decision (recurrent, a search) says so with
    an attribute stationary = False: it is then called policy(obs, mask, match=int64[N],
    first=bool[N]) — the arena's match_id of each row (as in matches.parquet) and whether it
    is that policy's first decision of the match (its kick-off: start its state afresh).

    The exploitability column (exploitability=True): exact for a stationary policy, measured
    before the matches by exploitability's solve on both sides (minutes at the default
    rules: see exploitability; max_gib refuses rules whose solve needs more memory); "not
    computed" for a policy with stationary = False; for a zoo policy's spec (table:file= or
    network:file= beside its KEY.card.json), the card's exact figure while the file's SHA-256
    matches it (a card that cannot be used is a UserWarning, and the policy is measured
    instead). tabulate=True instead tabulates each
    policy into OUT.policies/NAME.kgp first (save_policy) and plays the table (the agent
    `table:file=…#NAME`), which `kingoal arena --resume OUT` can continue from the command line.

    alpharank_m, alpharank_alpha: α-Rank's population and intensity for the ratings' alpharank
    masses (see kingoal.alpharank), recorded in the leaderboard as alpharank_m and
    alpharank_alpha.

    workers: matches played at once (0: 128 when a policy plays live, for batches of up to
    that many decisions; else one a core). resume=True continues an interrupted run (with the
    same policies); force=True replaces a finished one; progress=True shows the matches
    played on stderr (and the exploitability's solve). Ctrl-C stops the run, keeping every finished match; an exception of a
    policy ends the run the same way and is raised. The run is the library's own (arena.Run),
    called directly: no command line, no JSON printed and read back."""
    _check_alpharank(alpharank_m, alpharank_alpha)
    out = os.path.abspath(os.fspath(out))
    if os.path.exists(out) and not (resume or force):
        raise FileExistsError(f"arena: {out} exists (resume=True continues it, force=True replaces it)")
    specs, live, known = [], [], {}
    cached = resume and os.path.exists(os.path.join(out, "exploitability.json"))
    for a in agents:
        if isinstance(a, str):
            specs.append(a)
            continue
        if not (isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], str) and callable(a[1])):
            raise ValueError(f"arena: agent {a!r}: want a spec string or a pair (name, policy)")
        name, policy = a
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise ValueError(f"arena: agent name {name!r}: letters, digits, '_', '.' and '-' only")
        if tabulate:
            specs.append(_tabulated(name, policy, out, resume, max_gib, device, rules))
            continue
        specs.append("live:" + name)
        live.append((name, policy))
        if exploitability and not cached:
            known["live:" + name] = _column(policy, max_gib, device, rules, progress)
    job = N.call("arena_start", agents=specs, out=out, matches=matches, format=format, seed=seed, resume=resume,
                 force=force, workers=workers, exploitability=exploitability, rules=rules,
                 live=[n for n, _ in live], known=known, alpharank_m=alpharank_m, alpharank_alpha=float(alpharank_alpha))
    return _wait(job["job"], "matches" if progress else None, [p for _, p in live], device)


def _tabulated(name, policy, out, resume, max_gib, device, rules):
    """The spec of the policy table of policy (tabulated unless a resume finds it)."""
    path = os.path.join(out + ".policies", name + ".kgp")
    if re.search(r"[;,#]", path):
        raise ValueError(f"arena: {path}: a path with ';', ',' or '#' cannot stand in an agent spec")
    if not (resume and os.path.exists(path)):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        save_policy(policy, path, name=name, force=True, max_gib=max_gib, device=device, **rules)
    return f"table:file={path}#{name}"


def _column(policy, max_gib, device, rules, progress=False):
    """A live policy's exploitability, as the run's column holds it: exact (the mean over
    both sides of a best response's score beyond ½, as for a policy table) for a stationary
    policy; not computed for one with state."""
    if not getattr(policy, "stationary", True):
        return {"value": None, "ci95": None, "exact": False, "matches": 0,
                "method": "not computed: a live policy with state (stationary = False)"}
    res = _respond({"home": policy, "away": policy}, max_gib, rules, device=device, progress=progress)
    return {"value": res["exploitability"], "ci95": 0.0, "exact": True, "matches": 0,
            "method": "exact best response to the live policy's choice at every break state"}


def evaluate(policy, vs=("fixed:2-2-2-2-2",), matches=1000, seed=1, exploitability=True, tabulate=False,
             max_gib=12, device=None, **rules):
    """`kingoal eval` of a policy (as arena takes it, played live: 128 matches at once, their
    decisions answered in batches; stationary = False too) or of a registry spec: its
    win/draw/loss and score against each of vs over `matches` matches with 95% intervals — and its exploitability: exact for a stationary policy (see arena),
    "not computed" (value None) for one with state; a zoo policy's spec gets its card's figure
    (as arena). tabulate=True evaluates a policy table
    of the policy instead (exact against fixed line-ups where the policy is deterministic).
    Returns eval's JSON as a dict."""
    if isinstance(vs, str):
        vs = [vs]
    if isinstance(policy, str):
        job = N.call("evaluate_start", spec=policy, vs=list(vs), matches=matches, seed=seed, exploitability=exploitability, rules=rules)
        return _wait(job["job"], None)
    if tabulate:
        with tempfile.TemporaryDirectory(prefix="kingoal-eval-") as tmp:
            path = os.path.join(tmp, "policy.kgp")
            save_policy(policy, path, name=getattr(policy, "__name__", "python"), max_gib=max_gib, device=device, **rules)
            job = N.call("evaluate_start", spec="table:file=" + path, vs=list(vs), matches=matches, seed=seed,
                         exploitability=exploitability, rules=rules)
            return _wait(job["job"], None)
    name = getattr(policy, "__name__", "")
    name = name if re.fullmatch(r"[A-Za-z0-9_.-]+", name) else "python"
    job = N.call("evaluate_start", spec="live:" + name, vs=list(vs), matches=matches, seed=seed, exploitability=False,
                 rules=rules, live=[name])
    ev = _wait(job["job"], None, [policy], device)
    if exploitability:
        ev["exploitability"] = _column(policy, max_gib, device, rules)
    return ev


def _wait(job, unit, live=(), device=None):
    """Waits for a run of the library in short steps (so Ctrl-C stops it, keeping what it
    finished), answering its live policies' batches meanwhile, and returns its result; with
    unit, its progress on stderr."""
    holder, shown, finished = _Job(job), False, False
    try:
        if live:
            shown = _serve(job, live, unit, device)
        while True:
            r = N.call("compete_wait", job=job, ms=200)
            if r["done"]:
                finished = True
                for w in r.get("warnings") or ():  # a zoo card that cannot be used
                    warnings.warn(w, stacklevel=3)
                return r["result"]
            if unit:
                _show(r, unit)
                shown = True
    finally:
        if not finished:  # interrupted, or a policy failed: the run keeps what it finished
            try:
                N.call("compete_wait", job=job, ms=0, cancel=True)
            except (RuntimeError, ValueError):
                pass
        if shown:
            print(file=sys.stderr)  # the progress line ends, whatever ended the run
        holder.close()


def _show(r, unit):
    if r["done"]:
        return  # the run ended between two looks: its result is read next
    what = "measuring the exploitability" if r["measuring"] else f"{r['progress']}/{r['total']} {unit}"
    print(f"\rkingoal: {what}", end="", file=sys.stderr, flush=True)


def _serve(job, live, unit, device):
    """Answers the live policies' batches until the run ends; returns whether it showed progress."""
    L, err = N.lib(), N.ErrBuf()
    obs = np.zeros((_LIVE_ROWS, N.OBS_SIZE), np.float32)
    mask = np.zeros((_LIVE_ROWS, N.NUM_ACTIONS), np.int8)
    match = np.zeros(_LIVE_ROWS, np.int64)
    first = np.zeros(_LIVE_ROWS, np.int8)
    n, agent = ctypes.c_int64(), ctypes.c_int()
    buffers = [N.addr(b) for b in (obs, mask, match, first)]  # once: a batch may be a few decisions, each call counts
    n_ref, agent_ref, exchange = ctypes.byref(n), ctypes.byref(agent), L.kg_live_exchange
    to_device = _mover(device)
    stateful = [not getattr(p, "stationary", True) for p in live]
    shown_at, shown = 0.0, False
    err.check(L.kg_live_request(job, 200, *buffers, _LIVE_ROWS, n_ref, agent_ref, err.ptr, N._ERRSIZE))
    while True:
        if n.value < 0:
            return shown
        if unit and time.monotonic() - shown_at >= 0.5:
            shown_at, shown = time.monotonic(), True
            _show(N.call("compete_wait", job=job, ms=0), unit)
        if n.value == 0:  # the wait ran out: a chance for Ctrl-C
            err.check(L.kg_live_request(job, 200, *buffers, _LIVE_ROWS, n_ref, agent_ref, err.ptr, N._ERRSIZE))
            continue
        k, i = n.value, agent.value
        try:
            o, m = to_device(obs[:k], mask[:k])
            out = live[i](o, m, match=match[:k], first=first[:k].astype(bool)) if stateful[i] else live[i](o, m)
            kind, answer = _answer(out, k)
        except BaseException as e:  # the policy's own errors too: the run must not wait for an answer
            msg = f"{type(e).__name__}: {e}".encode("utf-8", "replace") or b"failed"
            L.kg_live_answer(job, None, 0, msg, err.ptr, N._ERRSIZE)
            raise
        # the answer, and the next batch, in one call into Go
        err.check(exchange(job, answer.ctypes.data, kind, 200, *buffers, _LIVE_ROWS, n_ref, agent_ref, err.ptr, N._ERRSIZE))


class _Job:
    def __init__(self, h):
        self._h = h

    def close(self):
        N.close(self)
