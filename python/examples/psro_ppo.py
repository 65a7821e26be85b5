"""Neural PSRO on Kingoal: policy-space response oracles whose best responses are learnt by
MaskablePPO (sb3-contrib) — PSRO that fits in memory at the real rules — a Kingoal-Bench
learner through kingoal.bench, learner "psro-ppo".

One network plays both sides (the observation says which), so the meta-game is symmetric:

  1. the population starts with the untrained network (near uniform), its meta-strategy 1;
  2. a best response learns for --br-timesteps decisions (or until the stretch's time is up)
     against the population, each match's opponent drawn from the meta-strategy at its
     kick-off (MaskablePPO warm-starts from the previous response: one model throughout);
  3. the response joins the population as a frozen copy;
  4. the meta-game is played: a league of every pair, --meta-matches a pair (kingoal.arena,
     the policies live), and the meta-strategy becomes its maximum-entropy Nash equilibrium
     (kingoal.nash_average of the head-to-head table);
  5. back to 2.

kingoal.bench.run runs --iterations PSRO iterations (or --minutes of learning, meta-games
included) in --points even steps and measures the meta-strategy exactly after each. What is
measured is the population mixed at every decision — Σᵢ σᵢ πᵢ(·|observation), a policy of
the observation like every other learner's — which is what the meta-strategy plays when the
opponent is drawn afresh at each decision; PSRO's mixture drawn once a match is a different
strategy (it remembers its draw) that a policy of the observation cannot represent in
general. A measurement asks every member with weight in the meta-strategy, so its cost grows
with the support. The rows' samples are the best responses' decisions (the meta-games'
matches are not counted; their time is, in seconds). It writes DIR/external and DIR/zoo as
selfplay_maskable_ppo.py does; where the mixture's table would not fit (the default suite),
DIR/zoo/psro-ppo_seedSEED.pt holds the members' weights and the meta-strategy, and
load_network(PATH) gives the measured mixture back; DIR/zoo/psro-ppo_seedSEED.kgn holds the
same mixture for Go, with its card (network:file=… plays it in the CLI's arenas).

    .venv/bin/python python/examples/psro_ppo.py --suite tiny --iterations 4 --br-timesteps 2048 --points 2 --bench bench-tiny
    .venv/bin/python python/examples/psro_ppo.py --suite default --minutes 20 --points 3 --br-timesteps 1000000 --bench bench-default

At the default suite a measurement of one member takes ~40 minutes on one core, and each further
member with weight adds its 2 × 253 M forward passes, so the real-rules run gives each best
response a whole stretch (--br-timesteps past what a stretch learns: one member a stretch,
545,000–588,000 decisions each on one core) rather than many short ones.
"""
import argparse
import os
import tempfile
import time

import gymnasium as gym
import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import kingoal
import kingoal.bench
from selfplay_maskable_ppo import Schedule, frozen_copy, masked_softmax, network_of, silent


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--suite", choices=["tiny", "standard", "default"], default="standard", help="whose rules (kingoal.bench.suites())")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=8, help="PSRO iterations (best responses added)")
    budget.add_argument("--minutes", type=float, help="learn for this long instead (split in --points even stretches)")
    p.add_argument("--points", type=int, default=4, help="exact measurements of the meta-strategy along the way")
    p.add_argument("--br-timesteps", type=int, default=50_000, help="decisions a best response learns from, both sides together")
    p.add_argument("--meta-matches", type=int, default=200, help="matches a pair of the meta-game (half home, half away)")
    p.add_argument("--n-envs", type=int, default=8, help="environments, half home and half away")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="native threads (OpenBLAS, torch's OpenMP) while learning: 1, one core's work")
    p.add_argument("--keep", choices=("auto", "table", "weights"), default="auto",
                   help="the final mixture as a policy table, or the members and meta-strategy (DIR/zoo/psro-ppo_seedSEED.pt); auto: a table where it fits (kingoal.bench.tables_fit)")
    p.add_argument("--force", action="store_true", help="replace this seed's curve and zoo entry in DIR")
    p.add_argument("--bench", metavar="DIR", default="kingoal-bench", help="the curve goes to DIR/external/ (kingoal bench --out DIR reads it)")
    a = p.parse_args()
    if a.points < 1 or a.br_timesteps < 1 or a.meta_matches < 2 or a.n_envs < 1 or a.threads < 1 or (a.minutes is None and a.iterations < a.points):
        p.error("want --points ≥ 1, --iterations ≥ --points, --br-timesteps ≥ 1, --meta-matches ≥ 2, --n-envs ≥ 1, --threads ≥ 1")
    return a


class Population:
    """The frozen members, their meta-strategy and the meta-game that sets it."""

    def __init__(self, rules, meta_matches, seed):
        self.rules, self.meta_matches, self.seed = rules, meta_matches, seed
        self.members, self.mix, self.meta_games = [], np.ones(0), 0

    def add(self, policy):
        """A frozen copy of policy joins, with weight 0 until the meta-game is solved."""
        member = frozen_copy(policy)
        member.load_state_dict(policy.state_dict())
        self.members.append(member)
        self.mix = np.append(self.mix, 0.0) if len(self.members) > 1 else np.ones(1)

    def solve(self):
        """The meta-game's league and its maximum-entropy Nash equilibrium."""
        if len(self.members) < 2:
            return
        self.meta_games += 1
        agents = [(f"member{i}", masked_softmax(m)) for i, m in enumerate(self.members)]
        with tempfile.TemporaryDirectory(prefix="kingoal-psro-") as tmp:
            board = kingoal.arena(agents, os.path.join(tmp, "meta"), matches=self.meta_matches, seed=self.seed * 1000 + self.meta_games,
                                  exploitability=False, **self.rules)
        order = [board["agents"].index(f"live:{name}") for name, _ in agents]
        table = np.array([[np.nan if v is None else v for v in row] for row in board["head_to_head"]])[np.ix_(order, order)]
        self.mix, _ = kingoal.nash_average(table)

    def draw(self, rng):
        return self.members[rng.choice(len(self.members), p=self.mix / self.mix.sum())]

    def policy(self):
        """The meta-strategy mixed at every decision: Σᵢ σᵢ πᵢ(·|obs), members of weight 0 not asked."""
        weighted = [(w, masked_softmax(m)) for w, m in zip(self.mix / self.mix.sum(), self.members) if w > 0]

        def mixture(obs, mask):
            return sum(w * p(obs, mask) for w, p in weighted)
        return mixture


class DrawnOpponent(gym.Wrapper):
    """A Kingoal environment whose opponent is a member of the population, drawn from the
    meta-strategy afresh for each match."""

    def __init__(self, population, player, rules, seed):
        self.population, self.rng, self.member = population, np.random.default_rng(seed), None
        super().__init__(kingoal.KingoalEnv(opponent=self.act, player=player, **rules))

    def act(self, obs, mask):
        if self.member is None:  # drawn at the match's first decision: the population is filled after the model is built
            self.member = self.population.draw(self.rng)
        action, _ = self.member.predict(obs, action_masks=mask.astype(bool), deterministic=False)
        return int(action)

    def reset(self, **kwargs):
        self.member = None
        return self.env.reset(**kwargs)

    def action_masks(self):
        return self.env.unwrapped.action_masks()


def build(a, rules):
    """The best-response model (its environments drawing from the population) and the population."""
    population = Population(rules, a.meta_matches, a.seed)

    def make(i):
        def built():
            e = DrawnOpponent(population, ("home", "away")[i % 2], rules, a.seed * 1000 + i)
            e.reset(seed=a.seed * 1000 + i)
            return e
        return built
    th.manual_seed(a.seed)
    envs = DummyVecEnv([make(i) for i in range(a.n_envs)])
    model = silent(MaskablePPO("MlpPolicy", envs, n_steps=256, batch_size=256, gamma=1.0, ent_coef=0.01, seed=a.seed, device="cpu", verbose=0))
    population.add(model.policy)  # the untrained network (near uniform): the first member
    return model, population, envs


def main():
    a = parse_args()
    rules = kingoal.bench.suite_rules(a.suite)
    model, population, envs = build(a, rules)
    schedule = Schedule([])

    def iterate():
        goal = model.num_timesteps + a.br_timesteps
        while model.num_timesteps < goal and (schedule.deadline is None or time.perf_counter() < schedule.deadline):
            model.learn(goal - model.num_timesteps, reset_num_timesteps=False, callback=schedule)
        population.add(model.policy)
        population.solve()

    def learn(target, deadline=None):  # kingoal.bench.run's: iterations, or time (--minutes)
        schedule.deadline = deadline
        while len(population.members) - 1 < target if deadline is None else time.perf_counter() < deadline:
            iterate()
        print(f"    PSRO: {len(population.members)} members, meta-strategy " + " ".join(f"{w:.2f}" for w in population.mix), flush=True)
        return int(model.num_timesteps)

    print(f"neural PSRO, MaskablePPO best responses of {a.br_timesteps:,} decisions, meta-games of {a.meta_matches} matches a pair, seed {a.seed}")
    table = kingoal.bench.tables_fit(a.suite) if a.keep == "auto" else a.keep == "table"
    rows = kingoal.bench.run("psro-ppo", learn, population.policy, a.bench, suite=a.suite, seed=a.seed, budget=a.iterations,
                             minutes=a.minutes, points=a.points, learn_threads=a.threads, keep_final=table, force=a.force)
    if not table:  # a mixture's table would not fit: the members and the meta-strategy are kept
        weights = os.path.join(a.bench, "zoo", f"psro-ppo_seed{a.seed}.pt")
        os.makedirs(os.path.dirname(weights), exist_ok=True)
        th.save({"members": [m.state_dict() for m in population.members], "mix": population.mix.tolist()}, weights + ".tmp")
        os.replace(weights + ".tmp", weights)
        print(f"the final population: {weights} ({len(population.members)} members; load_network(PATH) is the measured mixture)")
        members = [network_of(m, weight=w) for m, w in zip(population.members, population.mix / population.mix.sum()) if w > 0]
        kept = kingoal.bench.keep_network(members, a.bench, "psro-ppo", rows[-1]["score_exploitability"], suite=a.suite, seed=a.seed,
                                          budget=rows[-1]["samples"], force=a.force)
        print(f"  and for Go: {kept['policy']} with its card (network:file=… plays it)")
    envs.close()


def load_network(path):
    """The measured policy of a population this script saved (.pt): its meta-strategy mixed
    at every decision, as Population.policy gives it."""
    saved = th.load(path, map_location="cpu", weights_only=True)  # tensors and numbers only: no code from the file
    base = silent(MaskablePPO("MlpPolicy", kingoal.KingoalEnv(opponent="fixed:2-2-2-2-2"), device="cpu")).policy
    population = Population({}, 0, 0)
    for state in saved["members"]:
        population.add(base)
        population.members[-1].load_state_dict(state)
    population.mix = np.asarray(saved["mix"], dtype=np.float64)
    return population.policy()


if __name__ == "__main__":
    try:
        main()
    except FileExistsError as e:  # a finished curve or table, kept: one line, exit 1
        raise SystemExit(f"psro_ppo: {e}; here: --force")
