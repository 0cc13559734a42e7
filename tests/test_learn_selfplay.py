"""Self-play past imitation (``tarotsim.learn.selfplay``): each decision's target is its seat's final
score, the policy's own action teaches only the value, the run is reproducible, and the command
writes a policy the kernels play, with its curve.

Every start model here is tiny (random weights, hidden 16 and 12) so that a run takes seconds."""

import numpy as np
import pytest

from tarotsim.actions import N_ACTIONS
from tarotsim.learn.models import load_model, save_model
from tarotsim.observations import OBS_LEN

pytest.importorskip("torch")  # the learn extra (CI installs it)

from tarotsim.learn import selfplay as sp  # noqa: E402
from tarotsim.learn.train import require_torch  # noqa: E402
from tarotsim.runs.env import VecEnv  # noqa: E402

HIDDEN = (16, 12)


@pytest.fixture(scope="module")
def start(tmp_path_factory):
    """A tiny policy file with random weights."""
    rng = np.random.default_rng(4)
    sizes = [OBS_LEN, *HIDDEN, N_ACTIONS]
    arrays = []
    for a, b in zip(sizes, sizes[1:]):
        arrays += [rng.normal(0, 0.3, (a, b)).astype(np.float32), rng.normal(0, 0.1, b).astype(np.float32)]
    path = tmp_path_factory.mktemp("selfplay") / "start.npz"
    save_model(path, "policy", arrays, {"hidden": list(HIDDEN)})
    return path


def _same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("table, opponents", [("4", None), ("3", "heuristic"), ("5", None)])
def test_each_decision_is_kept_with_the_final_score_of_the_seat_that_took_it(table, opponents):
    env = VecEnv(table, num_envs=5, seed=9, opponents=opponents)
    rng = np.random.default_rng(1)

    def choose(obs, masks):
        assert obs.shape == (5, OBS_LEN) and masks.shape == (5, N_ACTIONS)
        return np.array([rng.choice(np.flatnonzero(m)) for m in masks])

    kept = 0
    for slot, obs, masks, acts, seats, scores in sp.finished_deals(env, choose, 12):
        record = env.record(slot)  # the deal that just ended in this slot
        assert scores.tolist() == [record["scores"][s] for s in seats]
        assert masks[np.arange(acts.size), acts].all()  # every action kept was legal where it was taken
        assert obs.shape == (acts.size, OBS_LEN) and acts.size >= 1
        if opponents is not None:
            assert set(seats.tolist()) == {0}
        kept += 1
    env.close()
    assert kept == 12


def _batch(torch, rows: int, seed: int):
    """Random inputs and legal masks (every row with at least one legal action)."""
    rng = np.random.default_rng(seed)
    x = torch.from_numpy(rng.random((rows, OBS_LEN)).astype(np.float32))
    legal = torch.from_numpy(rng.random((rows, N_ACTIONS)) < 0.3)
    legal[:, seed % N_ACTIONS] = True
    return rng, x, legal


def test_the_action_the_policy_plays_has_the_value_as_its_q_and_moves_nothing(start):
    torch = require_torch()
    net = sp._network(torch, load_model(start).arrays(), 1.0)
    _, x, legal = _batch(torch, 64, 2)
    logits, value = net(x)
    best = logits.masked_fill(~legal, -1e30).argmax(dim=-1)
    q = sp.q_values(torch, net, x, legal, best)
    assert torch.equal(q, value)
    other = torch.from_numpy(np.array([np.flatnonzero(r)[0] for r in legal.numpy()]))
    worse = other != best
    assert (sp.q_values(torch, net, x, legal, other)[worse] < value[worse]).all()


def test_without_exploration_the_policy_stays_as_it_was(start):
    run = sp.selfplay(start, deals=24, num_envs=8, epsilon=0.0, lr=1e-2, batch_size=64, seed=3, opponents=None)
    assert len(run.losses) >= 3 and run.meta["against"] == "self"
    assert _same(run.arrays, load_model(start).arrays())


def test_one_seed_gives_one_policy_and_exploring_moves_it(start):
    runs = [sp.selfplay(start, deals=30, num_envs=8, epsilon=0.3, lr=1e-2, batch_size=64, seed=s) for s in (5, 5, 6)]
    a, b, c = runs
    assert a.meta["against"] == "heuristic"  # the library's default is the command's
    assert _same(a.arrays, b.arrays) and a.losses == b.losses
    assert not _same(a.arrays, c.arrays)
    assert not _same(a.arrays, load_model(start).arrays())


def test_an_update_lowers_the_squared_error_on_its_batch(start):
    torch = require_torch()
    net = sp._network(torch, load_model(start).arrays(), 1.0)
    rng, x, legal = _batch(torch, 256, 3)
    acts = torch.from_numpy(np.array([rng.choice(np.flatnonzero(r)) for r in legal.numpy()]))
    target = torch.from_numpy(rng.normal(0, 1, 256).astype(np.float32))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    errors = []
    for _ in range(30):
        loss = torch.mean((sp.q_values(torch, net, x, legal, acts) - target) ** 2)
        errors.append(float(loss.detach()))
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert errors[-1] < 0.8 * errors[0]


def test_several_tables_are_played_in_turn_and_each_plays_its_deals(start):
    run = sp.selfplay(start, table=["4", "3"], deals=12, num_envs=4, epsilon=0.3, lr=1e-2, batch_size=64, seed=2)
    assert run.meta["tables"] == ["4", "3"] and run.deals_done[-1] == 24
    streams = [iter([("a", 1), ("a", 2), ("a", 3)]), iter([("b", 1)]), iter([("c", 1), ("c", 2)])]
    assert list(sp._in_turn(streams)) == [("a", 1), ("b", 1), ("c", 1), ("a", 2), ("c", 2), ("a", 3)]


def test_the_other_seats_are_one_bot_for_all_or_one_each():
    from tarotsim.rules import Rules

    assert sp._other_seats(Rules("4"), "heuristic") == "heuristic"
    assert sp._other_seats(Rules("4"), "greedy,random,heuristic") == "greedy,greedy,random,heuristic"
    assert sp._other_seats(Rules("4"), None) is None
    env = VecEnv("3", num_envs=2, seed=1, opponents=sp._other_seats(Rules("3"), "random,greedy"))
    assert env.agent_seat == 0
    env.close()


def test_take_splits_the_pending_deals_into_batches_in_order():
    deals = [tuple(np.arange(a, b) for _ in range(4)) for a, b in ((0, 3), (3, 8), (8, 9))]
    got, pending, left = sp._take(deals, 4)
    assert np.concatenate([g[0] for g in got]).tolist() == [0, 1, 2, 3] and left == 5
    got, pending, left = sp._take(pending, 5)
    assert np.concatenate([g[2] for g in got]).tolist() == [4, 5, 6, 7, 8] and left == 0 and pending == []


def test_the_command_writes_a_policy_the_kernels_play_with_its_command_and_curve(cli, start, tmp_path):
    out, curve = tmp_path / "sp.npz", tmp_path / "sp.png"
    code, stdout, err = cli("learn", "selfplay", "--model", start, "--deals", 40, "--num-envs", 8, "--epsilon", 0.2,
                            "--lr", 0.01, "--batch-size", 64, "--out", out, "--curve", curve, "--measure-deals", 20)
    assert code == 0, err
    m = load_model(out, "policy")
    assert m.hidden == HIDDEN
    assert m.meta["command"] == (f"tarotsim learn selfplay --table 4 --model {start} --against heuristic --deals 40 "
                                 "--seed 1 --epsilon 0.2 --lr 0.01 --advantage-scale 1.0 "
                                 f"--batch-size 64 --num-envs 8 --out {out} --curve {curve} --measure-deals 20 "
                                 "--measure-seed 3")
    curve_at = [p["at"] for p in m.meta["curve"]]
    assert curve_at == [0, 10, 20, 30, 40]  # the start, every quarter of the deals, the end
    assert [ln.split(" deals:")[0] for ln in err.splitlines()] == [str(a) for a in curve_at]
    last = m.meta["curve"][-1]
    assert stdout.splitlines() == [f"policy written to {out}: {last['mean']:+.2f} points a deal over the heuristic "
                                   f"at table 4, curve {curve}"]
    assert curve.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = sp.strength(out, "4", 20, 3)
    assert again["mean"] == last["mean"] and again["deals"] == 20


@pytest.mark.parametrize("args, line", [
    (["--against", "pimc"], "opponents play random, greedy or heuristic"),
    (["--against", "heuristic,greedy"], "against: table 4 has 3 other seats; give one bot for all of them or 3"),
    (["--model", "nowhere.npz"], "model file nowhere.npz does not exist"),
    (["--table", "2"], "Invalid value for '--table'"),
    (["--curve", "c.svg"], "--curve: a .png file"),
    (["--out", "no/such/folder/p.npz"], "--out: no folder no/such/folder"),
])
def test_the_command_refuses_bad_input_in_one_line(cli, tmp_path, monkeypatch, args, line):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("learn", "selfplay", "--deals", 10, "--out", "p.npz", *args)
    assert code == 2
    assert line in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "p.npz").exists()


def test_the_stored_run_draws_the_curve_the_learning_page_shows_with_its_command():
    """docs/learn.md shows the self-play curve drawn from benchmarks/selfplay-4.json at every build,
    every measure of the run as a point, and the command that made the run."""
    import importlib.util
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("figures_hook", root / "docs" / "_ext" / "figures.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    run = json.loads(hook.SELFPLAY.read_text(encoding="utf-8"))
    svg = hook.FIGURES["figures/selfplay-4.svg"]()
    assert svg == hook.selfplay_curve()
    assert f"seed {run['seed']}" in svg and f"{run['deals']:,} deals against heuristic" in svg
    assert [p["at"] for p in run["curve"]] == [0, 25_000, 50_000, 75_000, 100_000]
    page = (root / "docs" / "learn.md").read_text(encoding="utf-8")
    assert "](figures/selfplay-4.svg)" in page
    shown = page.split("### Self-play past imitation")[1]
    assert run["command"].startswith("tarotsim learn selfplay --table 4 --against heuristic --deals 100000 --seed 2")
    for p in run["curve"][1:]:
        assert f"{p['mean']:+.2f}" in shown
