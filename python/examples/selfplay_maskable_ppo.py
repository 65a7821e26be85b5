"""Self-play MaskablePPO (sb3-contrib) on Kingoal, and its magnetic-mirror-descent variant —
Kingoal-Bench learners through kingoal.bench.

MaskablePPO's "MlpPolicy" trains on both sides at once (half the environments play home, half
away) against a frozen copy of itself, refreshed at every measurement and, with
--refresh-every N, after every N rollouts — classic self-play through the Gymnasium
environment with a callable opponent.

--magnet-alpha A turns it into magnetic mirror descent (MMD; Sokota et al., ICLR 2023) as a
PPO variant, learner "mmd-ppo": PPO's clipped step stays the proximal (mirror-descent) term
and the loss gains A·KL(π‖ρ), the reverse KL from the policy to a magnet ρ — a frozen copy
of the policy, moved to the current one after every --magnet-every rollouts (a uniform
magnet makes the term PPO's entropy bonus, up to a constant). MaskablePPO's own training
loop runs unchanged: the policy class reports −KL(π‖ρ) where PPO reads the entropy, and
ent_coef = A weighs it.

kingoal.bench.run trains it in --points even steps of --timesteps decisions (or of
--minutes of learning) under a suite's rules and, after each, measures its policy (its
masked softmax, as MaskablePPO samples it) exactly: kingoal.nash_conv solves both best
responses to it over every break state, no sampling. It writes

    DIR/external/LEARNER_seedSEED.parquet   bench-curve/2 rows (after every point):
                        samples (decisions trained on), learning seconds (measurements left
                        out), NashConv in OpenSpiel's units (±1 returns) and on the score
                        scale — `kingoal bench --out DIR` puts them beside the Go learners in
                        its table, charts and Markdown
    DIR/zoo/LEARNER_seedSEED.kgp   the final policy as a policy table, with its card
                        (kingoal.bench.keep): play it as table:file=… in the CLI's arena,
                        eval and watch; kingoal agents --zoo DIR/zoo lists it
    DIR/zoo/LEARNER_seedSEED.zip   instead, where a softmax's table would not fit (the default
                        suite: kingoal.bench.tables_fit), the final network (MaskablePPO.save);
                        load_network(PATH) here is the policy measured, kingoal.nash_conv
                        measures it again to the same figure
    DIR/zoo/LEARNER_seedSEED.kgn   and its actor for Go, with its card (kingoal.bench.keep_network):
                        network:file=… plays it in the CLI's arena, eval and watch

LEARNER is maskable-ppo, or mmd-ppo with --magnet-alpha. The standard suite (10-throw
halves, one move) by default: ~20 s a measurement on 2 cores.

    .venv/bin/python python/examples/selfplay_maskable_ppo.py --timesteps 200000 --bench bench-standard
    .venv/bin/python python/examples/selfplay_maskable_ppo.py --magnet-alpha 0.05 --suite tiny --bench bench-tiny
    .venv/bin/python python/examples/selfplay_maskable_ppo.py --suite default --minutes 20 --points 3 --refresh-every 8 --bench bench-default
"""
import argparse
import os
import time

import torch as th
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import DummyVecEnv

import kingoal
import kingoal.bench

MASKED_LOGIT = -1e8  # an illegal line-up's logit, sb3-contrib's MaskableCategorical's floor


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--suite", choices=["tiny", "standard", "default"], default="standard", help="whose rules (kingoal.bench.suites())")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--timesteps", type=int, default=200_000, help="decisions to train on, both sides together")
    budget.add_argument("--minutes", type=float, help="learn for this long instead (split in --points even stretches)")
    p.add_argument("--points", type=int, default=10, help="exact measurements along the way (each refreshes the opponent)")
    p.add_argument("--refresh-every", type=int, default=0, metavar="N", help="also refresh the opponent after every N rollouts (0: at measurements only)")
    p.add_argument("--magnet-alpha", type=float, default=0.0, metavar="A", help="MMD: the weight of KL(policy‖magnet) (0: plain PPO, its entropy bonus 0.01)")
    p.add_argument("--magnet-every", type=int, default=4, metavar="N", help="MMD: move the magnet to the policy after every N rollouts")
    p.add_argument("--n-envs", type=int, default=8, help="environments, half home and half away")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="native threads (OpenBLAS, torch's OpenMP) while learning: 1, one core's work")
    p.add_argument("--keep", choices=("auto", "table", "weights"), default="auto",
                   help="the final policy as a policy table, or the network's weights (DIR/zoo/LEARNER_seedSEED.zip); auto: a table where it fits (kingoal.bench.tables_fit)")
    p.add_argument("--force", action="store_true", help="replace this seed's curve and zoo entry in DIR")
    p.add_argument("--bench", metavar="DIR", default="kingoal-bench", help="the curve goes to DIR/external/ (kingoal bench --out DIR reads it)")
    a = p.parse_args()
    if a.points < 1 or a.magnet_every < 1 or a.refresh_every < 0 or a.threads < 1:
        p.error(f"--points {a.points}, --magnet-every {a.magnet_every}, --refresh-every {a.refresh_every}, --threads {a.threads}: "
                "want ≥ 1, ≥ 1, ≥ 0 and ≥ 1")
    if not 0 <= a.magnet_alpha < float("inf"):
        p.error(f"--magnet-alpha {a.magnet_alpha}: want a finite number ≥ 0")
    return a


class MagnetPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic whose entropy, as PPO's loss reads it, is −KL(π‖ρ) to the
    magnet ρ: with ent_coef = α the loss gains α·KL(π‖ρ), MMD's magnet term. magnet is a
    function (obs, masks) → ρ's log-probabilities, set by the learner: a plain attribute, so
    the magnet is neither trained nor saved with the policy."""
    magnet = None

    def evaluate_actions(self, obs, actions, action_masks=None):
        dist = self.get_distribution(obs, action_masks=action_masks).distribution
        log_pi = dist.logits  # normalised log-probabilities; illegal line-ups at the mask's floor
        with th.no_grad():
            log_rho = self.magnet(obs, action_masks)
        legal = th.as_tensor(action_masks, dtype=th.bool, device=log_pi.device).reshape(log_pi.shape)
        kl = th.where(legal, dist.probs * (log_pi - log_rho), th.zeros_like(log_pi)).sum(-1)
        return self.predict_values(obs), dist.log_prob(actions), -kl


def silent(model):
    """The model with a logger that writes nothing: SB3's default makes a directory in /tmp
    at every learn() call, and the bench calls it once a point (or more)."""
    model.set_logger(Logger(folder=None, output_formats=[]))
    return model


def frozen_copy(policy):
    """An untrained copy of the policy's network, for an opponent or a magnet."""
    copy = type(policy)(**policy._get_constructor_parameters())
    copy.set_training_mode(False)
    return copy


def masked_softmax(policy):
    """The policy's action probabilities at a batch of decisions (what kingoal.nash_conv asks):
    the actor's forward pass and a masked softmax, as get_distribution computes them, in
    ~40% of its time (its distribution object's work; BENCHMARKS.md) — most of a
    measurement at the real rules."""
    def probabilities(obs, mask):
        with th.no_grad():
            features = policy.extract_features(th.as_tensor(obs, device=policy.device), policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
            illegal = th.as_tensor(mask, device=policy.device) == 0
            return th.softmax(logits.masked_fill(illegal, MASKED_LOGIT), dim=-1).cpu().numpy()
    return probabilities


def network_of(policy, weight=1.0):
    """The actor masked_softmax measures, as the zoo keeps it for Go (kingoal.bench.network):
    MlpPolicy's features are the observation as it is (FlattenExtractor)."""
    if type(policy.pi_features_extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"network_of: features from a {type(policy.pi_features_extractor).__name__}: want MlpPolicy's FlattenExtractor")
    return kingoal.bench.network(policy.mlp_extractor.policy_net, policy.action_net, weight=weight)


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


class Schedule(BaseCallback):
    """Stops learning at a deadline (perf_counter seconds; None: never) and calls each
    action after every `every` rollouts."""

    def __init__(self, actions):
        super().__init__()
        self.deadline, self.actions, self.rollouts = None, [(every, act) for every, act in actions if every > 0], 0

    def _on_step(self):
        return self.deadline is None or time.perf_counter() < self.deadline

    def _on_rollout_end(self):
        self.rollouts += 1
        for every, act in self.actions:
            if self.rollouts % every == 0:
                act()


def build(a, rules):
    """The model, its environments, what refreshes its opponent, and the learning schedule
    (the opponent's refreshes and, with MMD, the magnet's moves)."""
    holder, mmd = {}, a.magnet_alpha > 0
    envs = self_play_envs(a.n_envs, a.seed, rules, holder)
    model = silent(MaskablePPO(MagnetPolicy if mmd else "MlpPolicy", envs, n_steps=256, batch_size=256, gamma=1.0,
                               ent_coef=a.magnet_alpha if mmd else 0.01, seed=a.seed, device="cpu", verbose=0))
    opponent, magnet = frozen_copy(model.policy), frozen_copy(model.policy)

    def refresh():
        opponent.load_state_dict(model.policy.state_dict())
        holder["policy"] = opponent

    def attract():
        magnet.load_state_dict(model.policy.state_dict())
    refresh()  # the untrained policy: near uniform
    if mmd:
        attract()
        model.policy.magnet = lambda obs, masks: magnet.get_distribution(obs, action_masks=masks).distribution.logits
    return model, envs, refresh, Schedule([(a.refresh_every, refresh), (a.magnet_every if mmd else 0, attract)])


def main():
    a = parse_args()
    rules = kingoal.bench.suite_rules(a.suite)
    th.manual_seed(a.seed)
    model, envs, refresh, schedule = build(a, rules)

    def learn(target, deadline=None):  # kingoal.bench.run's: decisions, or time (--minutes)
        schedule.deadline = deadline
        if deadline is None:
            model.learn(target - model.num_timesteps, reset_num_timesteps=False, callback=schedule)
        while deadline is not None and time.perf_counter() < deadline:
            model.learn(1 << 40, reset_num_timesteps=False, callback=schedule)
        refresh()
        return int(model.num_timesteps)

    learner = "mmd-ppo" if a.magnet_alpha > 0 else "maskable-ppo"
    what = f"magnet α {a.magnet_alpha}, moved every {a.magnet_every} rollouts" if a.magnet_alpha > 0 else "entropy bonus 0.01"
    print(f"self-play MaskablePPO ({learner}: {what}; opponent refreshed "
          f"{f'every {a.refresh_every} rollouts and ' if a.refresh_every else ''}at measurements), seed {a.seed}")
    table = kingoal.bench.tables_fit(a.suite) if a.keep == "auto" else a.keep == "table"
    weights = os.path.join(a.bench, "zoo", f"{learner}_seed{a.seed}.zip")  # run refuses a finished curve first
    rows = kingoal.bench.run(learner, learn, lambda: masked_softmax(model.policy), a.bench, suite=a.suite, seed=a.seed,
                             budget=a.timesteps, minutes=a.minutes, points=a.points, learn_threads=a.threads, keep_final=table, force=a.force)
    if not table:  # a softmax's table would not fit: the network is kept, load_network measures it again
        os.makedirs(os.path.dirname(weights), exist_ok=True)
        model.save(weights + ".tmp.zip")
        os.replace(weights + ".tmp.zip", weights)
        print(f"the final network: {weights} (MaskablePPO.load; load_network(PATH) is the measured policy)")
        kept = kingoal.bench.keep_network([network_of(model.policy)], a.bench, learner, rows[-1]["score_exploitability"], suite=a.suite,
                                          seed=a.seed, budget=rows[-1]["samples"], force=a.force)
        print(f"  and for Go: {kept['policy']} with its card (network:file=… plays it)")
    envs.close()


def load_network(path):
    """The measured policy of a network this script saved: masked_softmax of MaskablePPO.load(path).
    SB3's load unpickles parts of the file: load only files you trust."""
    return masked_softmax(MaskablePPO.load(path, device="cpu", custom_objects={"policy_class": MaskableActorCriticPolicy}).policy)


if __name__ == "__main__":
    try:
        main()
    except FileExistsError as e:  # a finished curve or table, kept: one line, exit 1
        raise SystemExit(f"selfplay_maskable_ppo: {e}; here: --force")
