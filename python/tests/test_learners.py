"""The Kingoal-Bench learners in python/examples that add an algorithm of their own to a
library's: their added terms checked against what they must equal."""
import importlib.util
import shutil
import json
import os
import sys
from types import SimpleNamespace

import numpy as np

from conftest import need


def _example(name):
    examples = os.path.join(os.path.dirname(__file__), "..", "examples")
    spec = importlib.util.spec_from_file_location(f"{name}_example", os.path.join(examples, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, examples)  # psro_ppo imports its sibling
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    return module


def _batch(model, n=64, seed=3):
    """n decisions with their masks from the model's environments, random line-ups played."""
    envs, rng = model.get_env(), np.random.default_rng(seed)
    obs, rows, masks = envs.reset(), [], []
    while len(rows) < n:
        mask = np.stack(envs.env_method("action_masks"))
        rows.append(obs), masks.append(mask)
        obs, _, _, _ = envs.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
    return np.concatenate(rows)[:n], np.concatenate(masks)[:n]


def test_mmd_ppo_magnet_term_is_the_reverse_kl():
    """MagnetPolicy reports −KL(π‖ρ) where PPO reads the entropy: 0 when the magnet is the
    policy, H(π) − log(legal line-ups) when it is uniform over the legal ones, and the same
    values and log-probabilities as MaskablePPO's own policy."""
    th = need("torch")
    need("sb3_contrib")
    sp = _example("selfplay_maskable_ppo")
    a = SimpleNamespace(n_envs=2, seed=5, magnet_alpha=0.05, magnet_every=1, refresh_every=0)
    import kingoal.bench
    model, envs, _, _ = sp.build(a, kingoal.bench.suite_rules("tiny"))
    obs, masks = _batch(model)
    obs_t = th.as_tensor(obs)
    actions = th.as_tensor([np.flatnonzero(m)[0] for m in masks])
    policy = model.policy
    with th.no_grad():
        values, log_prob, neg_kl = policy.evaluate_actions(obs_t, actions, action_masks=masks)
        plain = sp.MaskableActorCriticPolicy.evaluate_actions(policy, obs_t, actions, action_masks=masks)
        assert th.allclose(values, plain[0]) and th.allclose(log_prob, plain[1])
        assert float(neg_kl.abs().max()) < 1e-5  # build() set the magnet to the policy itself
        legal = th.as_tensor(masks, dtype=th.bool)
        policy.magnet = lambda o, m: th.where(legal, -th.log(legal.sum(1, keepdim=True).double()), th.tensor(-1e8, dtype=th.float64)).float()
        _, _, neg_kl = policy.evaluate_actions(obs_t, actions, action_masks=masks)
        expected = plain[2] - th.log(legal.sum(1).float())
        assert th.allclose(neg_kl, expected, atol=1e-5) and float(neg_kl.max()) < 0
    envs.close()


def test_measured_probabilities_are_the_policys_own():
    """masked_softmax, what the ruler asks, gives the probabilities of MaskablePPO's own
    masked distribution — for plain PPO and for MMD's policy, weights moved off their
    near-uniform start so that a wrong layer or mask would show."""
    th = need("torch")
    need("sb3_contrib")
    sp = _example("selfplay_maskable_ppo")
    import kingoal.bench
    for alpha in (0.0, 0.05):
        a = SimpleNamespace(n_envs=2, seed=7, magnet_alpha=alpha, magnet_every=1, refresh_every=0)
        model, envs, _, _ = sp.build(a, kingoal.bench.suite_rules("tiny"))
        policy = model.policy
        with th.no_grad():
            for w in policy.parameters():
                w.add_(th.randn(w.shape, generator=th.Generator().manual_seed(w.numel())))
            obs, masks = _batch(model)
            want = policy.get_distribution(th.as_tensor(obs), action_masks=masks.astype(bool)).distribution.probs.numpy()
        got = sp.masked_softmax(policy)(obs, masks.astype(np.int8))
        assert got.shape == want.shape and got.dtype == np.float32
        assert np.abs(got - want).max() < 1e-6 and want.max() > 0.5  # not near uniform
        assert (got[masks == 0] == 0).all()
        envs.close()


def test_psro_meta_strategy_is_measured_as_its_mixture_and_drawn_by_match():
    """psro_ppo's population: the measured policy is Σᵢ σᵢ πᵢ (members of weight 0 not
    asked), and an environment's opponent is one member for a whole match, drawn by σ."""
    th = need("torch")
    need("sb3_contrib")
    psro = _example("psro_ppo")
    import kingoal.bench
    a = SimpleNamespace(n_envs=2, seed=4, meta_matches=20)
    model, population, envs = psro.build(a, kingoal.bench.suite_rules("tiny"))
    with th.no_grad():
        for p in model.policy.action_net.parameters():
            p.add_(th.randn(p.shape, generator=th.Generator().manual_seed(9)))  # a second member unlike the first
    population.add(model.policy)
    obs, masks = _batch(model)
    first, second = (psro.masked_softmax(m)(obs, masks) for m in population.members)
    assert not np.allclose(first, second)
    population.mix = np.array([0.25, 0.75])
    assert np.allclose(population.policy()(obs, masks), 0.25 * first + 0.75 * second, atol=1e-12)
    population.mix = np.array([0.0, 1.0])
    asked = []
    population.members[0].get_distribution = lambda *args, **kw: asked.append(1)  # weight 0: never asked
    assert np.allclose(population.policy()(obs, masks), second) and not asked
    del population.members[0].get_distribution
    env = envs.envs[0]
    env.reset(seed=1)
    for _ in range(3):
        _, _, over, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        assert env.member is population.members[1]
        if over:
            break
    population.mix = np.array([1.0, 0.0])
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.member is population.members[0]
    envs.close()


def test_kept_networks_measure_again_to_the_same_figure(tmp_path):
    """Where a softmax's table would not fit (the default suite) the examples keep the final
    networks' weights (--keep weights, here at the tiny suite): load_network gives back the
    policy whose exact NashConv is the curve's last figure, to the last digit, and which
    plays in an arena; the .kgn kept beside it (kingoal.bench.keep_network) has a card with
    that figure, and Go's network agent, measured in Go, scores it too (to 1e-7)."""
    need("torch")
    need("sb3_contrib")
    need("open_spiel")
    import subprocess

    pq = need("pyarrow.parquet")

    import kingoal
    import kingoal.bench
    rules = kingoal.bench.suite_rules("tiny")
    examples = os.path.join(os.path.dirname(__file__), "..", "examples")
    runs = {
        "maskable-ppo": (["selfplay_maskable_ppo.py", "--timesteps", "2048", "--points", "1"], "maskable-ppo_seed1.zip"),
        "psro-ppo": (["psro_ppo.py", "--iterations", "2", "--br-timesteps", "1024", "--meta-matches", "20", "--points", "1"], "psro-ppo_seed1.pt"),
        "openspiel-nfsp": (["openspiel_learners.py", "nfsp", "--episodes", "300", "--points", "1"], "openspiel-nfsp_seed1.pt"),
    }
    for learner, (args, kept) in runs.items():
        subprocess.run([sys.executable, os.path.join(examples, args[0]), *args[1:], "--suite", "tiny", "--keep", "weights",
                        "--bench", str(tmp_path)], check=True, capture_output=True)
        assert not os.path.exists(tmp_path / "zoo" / f"{learner}_seed1.kgp")  # no table: the weights alone
        figure = pq.read_table(tmp_path / "external" / f"{learner}_seed1.parquet").column("openspiel_nash_conv").to_pylist()[-1]
        module = _example(args[0][:-3])
        path = str(tmp_path / "zoo" / kept)
        if learner == "openspiel-nfsp":
            home, away, masked = module.load_network(path, "nfsp")
            again = kingoal.nash_conv(home, away, masked=masked, **rules)
        else:
            policy = module.load_network(path)
            again = kingoal.nash_conv(policy, policy, **rules)
            board = kingoal.arena([("kept", policy), "heuristic"], str(tmp_path / f"arena-{learner}"), matches=4, exploitability=False, **rules)
            assert "live:kept" in board["agents"], board["agents"]  # it plays in arenas
        assert again["openspiel_nash_conv"] == figure, learner
        # ... and for Go: the network file and its card, Go's forward pass measured by Go's own
        # exact best responses (an independent path) to the curve's figure, up to float32 sums
        score = pq.read_table(tmp_path / "external" / f"{learner}_seed1.parquet").column("score_exploitability").to_pylist()[-1]
        with open(tmp_path / "zoo" / f"{learner}_seed1.card.json") as f:
            card = json.load(f)
        assert (card["table"], card["exploitability"]) == (f"{learner}_seed1.kgn", score), card
        # (a copy without its card: beside its card, evaluate reports the card's figure unmeasured)
        bare = tmp_path / "bare" / card["table"]
        bare.parent.mkdir(exist_ok=True)
        shutil.copyfile(tmp_path / "zoo" / card["table"], bare)
        go = kingoal.evaluate(f"network:file={bare}", vs=("heuristic",), matches=20, **rules)
        assert "zoo card" not in go["exploitability"]["method"], go["exploitability"]
        assert go["exploitability"]["exact"] and abs(go["exploitability"]["value"] - score) < 1e-7, (learner, go["exploitability"], score)
