"""Kingoal-Bench from Python: a learner written in Python run under a suite's rules, its
policy measured exactly (kingoal.nash_conv) at chosen points, its curve written as
bench-curve/2 rows that ``kingoal bench --out DIR`` reads from ``DIR/external`` and puts beside
the Go learners in its table, charts and Markdown.

    import kingoal.bench as kb
    rows = kb.run("my-ppo", learn, policy, "bench-tiny", suite="tiny", seed=1, budget=20_000, points=3)

Units: every row holds NashConv in OpenSpiel's units (the ±1 game: a win +1, a draw 0, a loss
−1; openspiel_nash_conv, openspiel_exploitability — the headline) and on the score scale (a
win 1, a draw ½: score_nash_conv = openspiel_nash_conv / 2, score_exploitability =
openspiel_nash_conv / 4).
"""
import os
import re
import time

from . import _native as N
from .exploit import _limit_native_threads, nash_conv, save_policy


def suites():
    """The declared suites: {name: {"rules": rule knobs (as nash_conv takes them),
    "rules_text": the rules in words, "learners": the Go learners it runs, "break_states":
    the break states a side under its rules}}."""
    return N.call("bench_suites")


def _suite(suite):
    """A declared suite's entry in suites(), a ValueError naming the choices otherwise."""
    known = suites()
    if suite not in known:
        raise ValueError(f"bench: suite {suite!r}: want one of {', '.join(sorted(known))}")
    return known[suite]


def suite_rules(suite):
    """The rule knobs of a declared suite (tiny, standard, default), a ValueError otherwise."""
    return dict(_suite(suite)["rules"])


# A soft policy's table holds a mix at each break state a side; while it is recorded, a map
# entry and its cells take at least this many bytes a mix (two line-ups; more at most states).
_MIX_BYTES_AT_LEAST = 64


def tables_fit(suite, max_gib=12):
    """Whether a soft policy (one with several line-ups at most break states: a softmax) can
    be kept as a policy table under the suite's rules within max_gib: both sides' mixes at
    every break state, at least 64 bytes each while recorded. The default suite's 2 × 337 M
    break states need 43 GB or more (a pure policy's table is small there: 49 MB for an
    argmax); there a learner keeps its network's weights instead (the examples write them to
    DIR/zoo)."""
    return 2 * _suite(suite)["break_states"] * _MIX_BYTES_AT_LEAST <= N.gib(max_gib) * (1 << 30)


def measure(policy, learner, iteration, suite="tiny", seed=0, samples=0, passes=0, seconds=0.0, max_gib=12, progress=False, **nash_conv_options):
    """One exact measurement of policy under the suite's rules: a bench-curve row (a dict)
    with NashConv in both units (see the module's doc). policy(obs, mask) is as
    kingoal.exploitability takes it, played by both sides (a self-play learner's one
    network), or a pair (home, away) of them (a learner with a network a side).
    nash_conv_options (device=, native_threads=, masked=) go to kingoal.nash_conv."""
    rules = suite_rules(suite)
    home, away = policy if isinstance(policy, tuple) else (policy, policy)
    res = nash_conv(home, away, max_gib=max_gib, progress=progress, **nash_conv_options, **rules)
    return _row(res, learner, iteration, suite, seed, samples, passes, seconds)


def _row(res, learner, iteration, suite, seed, samples, passes, seconds):
    """A bench-curve row from nash_conv's (or save_policy's) result."""
    return {"suite": suite, "learner": learner, "rules": res["rules"], "seed": int(seed), "iteration": int(iteration),
            "samples": int(samples), "passes": int(passes), "seconds": float(seconds),
            "openspiel_nash_conv": res["openspiel_nash_conv"], "openspiel_exploitability": res["openspiel_exploitability"],
            "score_nash_conv": res["score_nash_conv"], "score_exploitability": res["score_exploitability"], "exact": True,
            "openspiel_nash_conv_ci95": 0.0}


def write(rows, out):
    """Writes rows (measure's dicts, one learner and seed) to out/external/LEARNER_seedSEED.parquet
    atomically, as bench-curve/2; returns the path. The figures are recomputed from
    score_nash_conv by the library's one conversion."""
    rows = list(rows)
    if not rows:
        raise ValueError("bench: no rows to write")
    learner, seed = rows[0]["learner"], rows[0]["seed"]
    if not re.fullmatch(r"[A-Za-z0-9_.+-]{1,64}", str(learner)):
        raise ValueError(f"bench: learner {learner!r}: want 1..64 letters, digits, '_', '.', '+' or '-'")
    path = _curve_path(out, learner, seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    keys = ("suite", "learner", "rules", "seed", "iteration", "samples", "passes", "seconds", "score_nash_conv")
    N.call("bench_write", path=os.path.abspath(path), rows=[{k: r[k] for k in keys} for r in rows])
    return path


def run(learner, learn, policy, out, suite="tiny", seed=1, budget=10_000, points=3, minutes=None, learn_threads=None, max_gib=12,
        progress=False, verbose=True, keep_final=False, force=False, **nash_conv_options):
    """Runs a Python learner under a suite and measures it exactly at `points` even steps of
    its budget, writing its curve to out/external after every point (an interruption keeps
    the points measured).

    learn(target) trains until the learner's experience reaches `target` (its unit is yours:
    decisions, episodes, iterations) and returns its experience so far — the rows' samples.
    With minutes= the budget is time instead (budget is not read): the learning is split in
    `points` even stretches and learn(None, deadline=T) trains until time.perf_counter()
    reaches T. learn_threads limits the native thread pools (OpenBLAS, OpenMP: torch's
    intra-op threads) while learn runs, with threadpoolctl — 1 makes a small network's
    learner one core's work, as comparable from run to run as two runs at a time on two
    cores; None leaves them as they are.
    policy() returns the current policy(obs, mask) (see kingoal.exploitability), measured on
    both sides, or a pair (home, away) of them. The rows' seconds count learning only, measurements left out. With
    keep_final=True the last point is measured by keep — the final policy tabulated into
    out/zoo with its card, the same exact figure from the same solve — instead of by a
    solve of its own (where its table fits: tables_fit(suite) for a softmax; a table
    past max_gib fails the last point). A curve (or, with keep_final, a zoo table) of the same learner and
    seed found in out is refused before any learning, unless force=True replaces it.
    Returns the rows (see measure)."""
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise ValueError(f"bench: points={points!r}: want a whole number ≥ 1")
    if learn_threads is not None and (isinstance(learn_threads, bool) or not isinstance(learn_threads, int) or learn_threads < 1):
        raise ValueError(f"bench: learn_threads={learn_threads!r}: want a whole number ≥ 1, or None")
    if minutes is not None:
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 0 < minutes < float("inf"):
            raise ValueError(f"bench: minutes={minutes!r}: want a positive number")
    elif isinstance(budget, bool) or not isinstance(budget, int) or budget < points:
        raise ValueError(f"bench: budget={budget!r}: want a whole number ≥ points")
    suite_rules(suite)  # an unknown suite is refused before any learning
    if not force:  # a finished curve is not overwritten by a rerun's first point
        for path in [_curve_path(out, learner, seed)] + ([_table_path(out, learner, seed)] if keep_final else []):
            if os.path.exists(path):
                raise FileExistsError(f"bench: {path} exists (force=True replaces it)")
    rows, learning = [], 0.0
    if verbose:
        what = f"{minutes:g} minutes of learning" if minutes is not None else f"budget {budget:,}"
        what += f" on {learn_threads} native thread{'s' if learn_threads != 1 else ''}" if learn_threads is not None else ""
        print(f"kingoal.bench: {learner} under suite {suite}, seed {seed}, {what}, {points} exact measurements, into {out}", flush=True)
    for k in range(1, points + 1):
        restore = _limit_native_threads(learn_threads, "the learner learns", "learn_threads")
        began = time.perf_counter()
        try:
            samples = learn(budget * k // points) if minutes is None else learn(None, deadline=began + 60 * minutes / points)
        finally:
            learning += time.perf_counter() - began
            restore()
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 0:
            raise ValueError(f"bench: learn returned {samples!r}: want the learner's experience so far, a whole number ≥ 0")
        if keep_final and k == points:
            kept = keep(policy(), out, learner, suite=suite, seed=seed, budget=samples, progress=progress, max_gib=max_gib,
                        force=force, **nash_conv_options)
            rows.append(_row(kept, learner, k, suite, seed, samples, 0, learning))
        else:
            rows.append(measure(policy(), learner, k, suite=suite, seed=seed, samples=samples, seconds=learning, max_gib=max_gib,
                                progress=progress, **nash_conv_options))
        write(rows, out)
        if verbose:
            r = rows[-1]
            print(f"  {k}/{points}: {samples:,} samples, {learning:.1f} s learning: NashConv {r['openspiel_nash_conv']:.6f} (OpenSpiel's, ±1 returns)"
                  f" = {r['score_nash_conv']:.6f} on the score scale (exact)", flush=True)
    if verbose:
        kept = f"; the final policy is {_table_path(out, learner, seed)} with its card" if keep_final else ""
        print(f"kingoal.bench: wrote {_curve_path(out, learner, seed)}{kept}; `kingoal bench --suite {suite} --out {out} --report-only` "
              "shows it beside the other learners", flush=True)
    return rows


def _curve_path(out, learner, seed):
    return os.path.join(os.fspath(out), "external", f"{learner}_seed{int(seed)}.parquet")


def _table_path(out, learner, seed):
    return os.path.join(os.path.abspath(os.fspath(out)), "zoo", f"{learner}_seed{int(seed)}.kgp")


def keep(policy, out, learner, suite="tiny", seed=0, budget=0, name=None, progress=False, force=False, **options):
    """A learner's final policy into the model zoo beside the Go learners': tabulated at
    every break state (kingoal.save_policy) into out/zoo/LEARNER_seedSEED.kgp, measured
    exactly on the way, with its card (learner, rules, budget, seed, exploitability on the
    score scale, its scores against the reference agents) written last —
    ``kingoal agents --zoo out/zoo`` lists it and ``table:file=…`` plays it in arenas.
    policy as measure takes it (one callable, or a pair (home, away)); options (masked=,
    native_threads=, device=) go to save_policy. An existing table is refused unless
    force=True. Returns save_policy's dict with card (the card's path)."""
    rules = suite_rules(suite)
    if not re.fullmatch(r"[A-Za-z0-9_.+-]{1,48}", str(learner)):
        raise ValueError(f"bench: learner {learner!r}: want 1..48 letters, digits, '_', '.', '+' or '-'")
    table = _table_path(out, learner, seed)
    zoo, key = os.path.dirname(table), os.path.basename(table)[:-len(".kgp")]
    os.makedirs(zoo, exist_ok=True)
    if isinstance(policy, tuple):
        home, away = policy

        def policy(obs, mask):  # the table holds both sides: slot 34 says the observer is Away
            return (away if obs[0, 34] > 0.5 else home)(obs, mask)  # a batch is one side's
    name = name or f"{learner}, budget {budget}, seed {seed}"
    saved = save_policy(policy, table, name=name, force=force, progress=progress, **options, **rules)
    card = N.call("bench_card", dir=zoo, key=key, card_name=name, learner=learner, rules=rules, budget=int(budget), seed=int(seed),
                  exploitability=saved["score_exploitability"])["card"]
    return dict(saved, card=card)


def network(*modules, weight=1.0):
    """One network as the zoo keeps it for Go (keep_network): the dense layers of torch
    modules applied one after another — torch.nn.Linear, each followed by nothing, ReLU or
    Tanh, inside Sequential or ModuleList (walked in order), Flatten and Identity passed
    over — from the 36-slot observation to the 121 logits, kept to float32 (a float64
    network's play may differ past that); weight is its weight in a mix
    (neural PSRO's meta-strategy). Anything else is a ValueError naming it: a forward pass
    that is not this chain cannot be played outside Python."""
    import torch.nn as nn  # given torch modules, torch is there

    layers = []

    def walk(m):
        if isinstance(m, (nn.Sequential, nn.ModuleList)):
            for child in m:
                walk(child)
        elif isinstance(m, nn.Linear):
            bias = m.bias.detach().cpu().float().tolist() if m.bias is not None else [0.0] * m.out_features
            layers.append({"in": m.in_features, "out": m.out_features, "weight": m.weight.detach().cpu().float().reshape(-1).tolist(), "bias": bias,
                           "activation": ""})
        elif isinstance(m, (nn.ReLU, nn.Tanh)):
            if not layers or layers[-1]["activation"]:
                raise ValueError(f"bench: network: {type(m).__name__} follows no Linear layer")
            layers[-1]["activation"] = "relu" if isinstance(m, nn.ReLU) else "tanh"
        elif not isinstance(m, (nn.Flatten, nn.Identity)):
            raise ValueError(f"bench: network: a {type(m).__name__} module: want Linear, ReLU, Tanh, Sequential, ModuleList, "
                             "Flatten or Identity (a chain of dense layers)")
    for m in modules:
        walk(m)
    return {"weight": float(weight), "layers": layers}


def _network_path(out, learner, seed):
    return os.path.join(os.path.abspath(os.fspath(out)), "zoo", f"{learner}_seed{int(seed)}.kgn")


def keep_network(members, out, learner, exploitability, suite="tiny", seed=0, budget=0, name=None, force=False):
    """A learner's final network into the model zoo, where its policy table would not fit
    (tables_fit): out/zoo/LEARNER_seedSEED.kgn, which ``network:file=…`` plays in arenas (Go's
    forward pass and masked softmax, on the observation the ruler asked), and its card
    (``kingoal agents --zoo out/zoo``) with exploitability — the score scale's, as this
    policy was measured: a row's score_exploitability — and its scores against the
    reference agents. members: network(...) of each network the policy mixes (one, or neural
    PSRO's population), both sides, or a pair (home's, away's). An existing file is refused
    unless force=True. Returns {"card": path, "policy": path}."""
    rules = suite_rules(suite)
    path = _network_path(out, learner, seed)
    if os.path.exists(path) and not force:
        raise FileExistsError(f"bench: {path} exists (force=True replaces it)")
    home, away = members if isinstance(members, tuple) else (members, members)
    return N.call("bench_network", dir=os.path.dirname(path), key=os.path.basename(path)[:-len(".kgn")],
                  card_name=name or f"{learner}, budget {budget}, seed {seed}", learner=learner, rules=rules, budget=int(budget),
                  seed=int(seed), exploitability=float(exploitability), home=list(home), away=list(away))
