"""OpenSpiel's own learners on Kingoal, each measured exactly as it learns (kingoal.bench).

The algorithms run unchanged from OpenSpiel's PyTorch package on the registered game
(kingoal.openspiel, "python_kingoal") through its rl_environment: two agents, home and away,
learning in self-play, each acting on the 36-slot observation tensor.

    nfsp   Neural Fictitious Self-Play (open_spiel.python.pytorch.nfsp; measured: its average
           policy, the one NFSP's theory says converges)
    a2c    advantage actor-critic  (open_spiel.python.pytorch.policy_gradient, loss "a2c")
    qpg    Q-based policy gradient (loss "qpg")
    rpg    regret policy gradient  (loss "rpg")

kingoal.bench.run trains them for --episodes in --points even steps under a suite's rules
and measures both agents' policies exactly after each — kingoal.nash_conv, the home agent's
network on home's side and the away agent's on away's, no sampling — writing bench-curve/2
rows to DIR/external, which `kingoal bench --suite SUITE --out DIR` joins. The measured
policy is the one the agent acts with: NFSP's average network's softmax over the legal
line-ups (illegal logits set to OpenSpiel's penalty), a policy-gradient agent's softmax over
all line-ups renormalised over the legal ones (masked=False: the ruler drops the illegal
weight exactly as the agent does). At the end both policies go into the model zoo
(kingoal.bench.keep): DIR/zoo/openspiel-ALGO_seedSEED.kgp, a policy table of both sides that
table:file= plays in arenas, its card (kingoal agents --zoo DIR/zoo), and .pt beside them
with both networks' weights. Where a softmax's table would not fit (the default suite:
kingoal.bench.tables_fit) only the .pt is kept, and the last point is measured as the others;
load_network(PATH, ALGO) gives the policies back, measured again to the same figure — and
DIR/zoo/openspiel-ALGO_seedSEED.kgn the same two networks for Go, with its card
(network:file=… plays them in the CLI's arenas).

OpenSpiel's learners draw from NumPy's global generator (np.random.choice, its replay
buffers) and torch's: both are seeded from --seed, and the environment's chance events from
its own generator, so a run is repeatable on one machine and torch build.

    .venv/bin/python python/examples/openspiel_learners.py nfsp --suite tiny --episodes 2000 --bench bench-tiny
    .venv/bin/python python/examples/openspiel_learners.py a2c --suite default --minutes 20 --points 3 --bench bench-default
"""
import argparse
import os
import time

import numpy as np
import torch

import kingoal
import kingoal.bench
import kingoal.openspiel  # noqa: F401  (registers python_kingoal)
import pyspiel


def _bare_inference_mode():
    """OpenSpiel 2.0.2's dqn.py (NFSP's inner learner) decorates with the bare
    @torch.inference_mode, a form torch gained in 2.0; under Debian's torch 1.13 the
    decorator is given the same meaning (inference mode on) before OpenSpiel is imported.
    OpenSpiel's code itself runs unchanged."""
    if int(torch.__version__.split(".")[0]) >= 2:
        return
    context = torch.inference_mode

    def inference_mode(mode=True):
        return context(True)(mode) if callable(mode) else context(mode)
    torch.inference_mode = inference_mode


_bare_inference_mode()
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.pytorch import dqn, nfsp, policy_gradient  # noqa: E402

ALGOS = ("nfsp", "a2c", "qpg", "rpg")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("algo", choices=ALGOS)
    p.add_argument("--suite", choices=["tiny", "standard", "default"], default="tiny", help="whose rules (kingoal.bench.suites())")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--episodes", type=int, default=2000, help="matches to learn from, both agents together")
    budget.add_argument("--minutes", type=float, help="learn for this long instead (split in --points even stretches)")
    p.add_argument("--points", type=int, default=3, help="exact measurements along the way")
    p.add_argument("--hidden", type=int, default=64, help="the networks' hidden layer")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="native threads (OpenBLAS, torch's OpenMP) while learning: 1, one core's work")
    p.add_argument("--bench", metavar="DIR", default="kingoal-bench", help="the curve goes to DIR/external/")
    p.add_argument("--progress", action="store_true", help="show each measurement's progress")
    p.add_argument("--keep", choices=("auto", "table", "weights"), default="auto",
                   help="the final policies as a policy table as well as their weights (.pt), or the weights alone; auto: a table where it fits (kingoal.bench.tables_fit)")
    p.add_argument("--force", action="store_true", help="replace this learner and seed's curve and zoo entry in DIR")
    a = p.parse_args()
    if a.points < 1 or a.threads < 1 or a.hidden < 1:
        p.error(f"--points {a.points}, --threads {a.threads}, --hidden {a.hidden}: want whole numbers ≥ 1")
    return a


def make_agents(algo, hidden, seed, num_actions, obs_size):
    if algo == "nfsp":
        return [nfsp.NFSP(p, obs_size, num_actions, [hidden], reservoir_buffer_capacity=200_000, anticipatory_param=0.1,
                          batch_size=128, rl_learning_rate=0.01, sl_learning_rate=0.01, min_buffer_size_to_learn=1000,
                          learn_every=64, optimizer_str="sgd", seed=seed * 10 + p, replay_buffer_capacity=200_000,
                          epsilon_start=0.06, epsilon_end=0.001) for p in (0, 1)]
    return [policy_gradient.PolicyGradient(p, obs_size, num_actions, loss_str=algo, hidden_layers_sizes=(hidden,), batch_size=16,
                                           critic_learning_rate=0.01, pi_learning_rate=0.001, entropy_cost=0.01,
                                           num_critic_before_pi=4) for p in (0, 1)]


def acting_policy(algo, agent):
    """The agent's policy as kingoal.nash_conv asks it, batched, and the masked= it needs."""
    if algo == "nfsp":
        net = agent._avg_network

        @torch.no_grad()
        def average(obs, mask):
            z = net(torch.from_numpy(obs)).masked_fill_(torch.from_numpy(mask) == 0, dqn.ILLEGAL_ACTION_LOGITS_PENALTY)
            return torch.softmax(z, 1).numpy()
        return average, True

    @torch.no_grad()
    def softmax(obs, mask):
        return torch.softmax(agent._policy_logits_layer(agent._net_torso(torch.from_numpy(obs))), 1).numpy()
    return softmax, False


def go_network(algo, agent):
    """The network acting_policy asks, as the zoo keeps it for Go (kingoal.bench.network)."""
    if algo == "nfsp":
        return kingoal.bench.network(agent._avg_network.model)
    return kingoal.bench.network(agent._net_torso.model, agent._policy_logits_layer)


def main():
    a = parse_args()
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    rules = kingoal.bench.suite_rules(a.suite)
    game = pyspiel.load_game("python_kingoal", rules)
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=a.seed))
    obs_size, num_actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    agents = make_agents(a.algo, a.hidden, a.seed, num_actions, obs_size)
    state = {"episodes": 0}

    def play_one():
        ts = env.reset()
        while not ts.last():
            ts = env.step([agent.step(ts).action for agent in agents])
        for agent in agents:
            agent.step(ts)
        state["episodes"] += 1

    def learn(target, deadline=None):  # kingoal.bench.run's: episodes, or time (--minutes)
        while state["episodes"] < target if deadline is None else time.perf_counter() < deadline:
            play_one()
        return state["episodes"]

    (home, masked), (away, _) = (acting_policy(a.algo, agent) for agent in agents)
    learner = f"openspiel-{a.algo}"
    table = kingoal.bench.tables_fit(a.suite) if a.keep == "auto" else a.keep == "table"
    rows = kingoal.bench.run(learner, learn, lambda: (home, away), a.bench, suite=a.suite, seed=a.seed, budget=a.episodes,
                             minutes=a.minutes, points=a.points, learn_threads=a.threads, masked=masked, progress=a.progress,
                             keep_final=table, force=a.force)
    weights = os.path.join(a.bench, "zoo", f"{learner}_seed{a.seed}.pt")
    nets = [agent._avg_network if a.algo == "nfsp" else torch.nn.ModuleList([agent._net_torso, agent._policy_logits_layer]) for agent in agents]
    os.makedirs(os.path.dirname(weights), exist_ok=True)
    torch.save({f"player{p}": net.state_dict() for p, net in enumerate(nets)}, weights + ".tmp")
    os.replace(weights + ".tmp", weights)
    print(f"kept both networks' weights in {weights} (the final policy: OpenSpiel NashConv {rows[-1]['openspiel_nash_conv']:.6f}; "
          f"load_network(PATH, {a.algo!r}, {a.hidden}) measures it again)")
    if not table:  # the networks for Go where no table was kept
        home_net, away_net = ([go_network(a.algo, agent)] for agent in agents)
        kept = kingoal.bench.keep_network((home_net, away_net), a.bench, learner, rows[-1]["score_exploitability"], suite=a.suite,
                                          seed=a.seed, budget=rows[-1]["samples"], force=a.force)
        print(f"  and for Go: {kept['policy']} with its card (network:file=… plays them)")


def load_network(path, algo, hidden=64):
    """The measured policies of the networks this script saved in path (.pt): (home, away,
    masked), as kingoal.nash_conv(home, away, masked=masked) takes them."""
    weights = torch.load(path, map_location="cpu", weights_only=True)  # tensors only: no code from the file
    agents = make_agents(algo, hidden, 0, kingoal.NUM_ACTIONS, kingoal.OBS_SIZE)
    for p, agent in enumerate(agents):
        net = agent._avg_network if algo == "nfsp" else torch.nn.ModuleList([agent._net_torso, agent._policy_logits_layer])
        net.load_state_dict(weights[f"player{p}"])
    (home, masked), (away, _) = (acting_policy(algo, agent) for agent in agents)
    return home, away, masked

if __name__ == "__main__":
    try:
        main()
    except FileExistsError as e:  # a finished curve or table, kept: one line, exit 1
        raise SystemExit(f"openspiel_learners: {e}; here: --force")
