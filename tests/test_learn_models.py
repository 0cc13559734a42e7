"""The models: the kernels' forward passes equal torch's on a stored fixture (this test needs no
torch), impossible locations and illegal actions get 0, probabilities sum to 1, the model files'
one-line errors, and training (with torch): a tiny run lowers the loss, one seed gives one model.

Regenerate the fixture after a deliberate change of the layout: ``python tests/test_learn_models.py``."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from tarotsim.learn.features import INPUT_SCALE, N_LOCATIONS
from tarotsim.learn.forward import location_probabilities, policy_probabilities, work_size
from tarotsim.learn.models import KINDS, Model, ModelError, load_model, save_model
from tarotsim.observations import OBS

FIXTURE = Path(__file__).resolve().parent / "data" / "learn_forward.npz"
TINY = (24, 12)


def _forward(model, obs, legal):
    work = np.zeros(work_size(model), dtype=np.float32)
    if model.kind == "locations":
        out = np.zeros((len(obs), 78, N_LOCATIONS), dtype=np.float32)
        location_probabilities(obs, legal.astype(np.int64), INPUT_SCALE, *model.arrays(), work, out)
    else:
        out = np.zeros((len(obs), legal.shape[1]), dtype=np.float32)
        policy_probabilities(obs, legal, INPUT_SCALE, *model.arrays(), work, out)
    return out


def _fixture():
    z = np.load(FIXTURE)
    return z


def _model_of(z, kind) -> Model:
    arrays = tuple(z[f"{kind}_{n}"] for n in ("w0", "b0", "w1", "b1", "w2", "b2"))
    return Model(kind, arrays[0::2], arrays[1::2], {})


@pytest.mark.parametrize("kind", KINDS)
def test_the_kernels_forward_pass_equals_torch_on_the_fixture(kind):
    z = _fixture()
    legal = z["allowed"] if kind == "locations" else z["mask"]
    got = _forward(_model_of(z, kind), z["obs"], legal)
    assert got.shape == z[f"{kind}_torch"].shape
    assert np.abs(got - z[f"{kind}_torch"]).max() <= 1e-5


def test_impossible_locations_get_0_and_each_hidden_card_sums_to_1():
    z = _fixture()
    p = _forward(_model_of(z, "locations"), z["obs"], z["allowed"])
    a = z["allowed"].astype(np.int64)
    legal = (a[:, :, None] >> np.arange(N_LOCATIONS)) & 1 == 1
    assert np.all(p[~legal] == 0)
    live = a != 0
    assert np.allclose(p.sum(axis=2)[live], 1, atol=1e-6) and np.all(p.sum(axis=2)[~live] == 0)
    known = live & ((a & (a - 1)) == 0)  # one allowed location: the seat knows the card's place
    assert np.all(p[known].max(axis=1) == 1)


def test_illegal_actions_get_0_and_the_legal_ones_sum_to_1():
    z = _fixture()
    p = _forward(_model_of(z, "policy"), z["obs"], z["mask"])
    assert np.all(p[~z["mask"]] == 0)
    assert np.allclose(p.sum(axis=1), 1, atol=1e-6)


def _save_tiny(path, kind="policy", **meta):
    z = _fixture()
    save_model(path, kind, _model_of(z, kind).arrays(), {"command": "test", **meta})


def test_a_model_file_reads_back_with_its_meta(tmp_path):
    _save_tiny(tmp_path / "m.npz", seed=3)
    m = load_model(tmp_path / "m.npz", "policy")
    assert (m.kind, m.hidden, m.meta["seed"], m.meta["command"]) == ("policy", TINY, 3, "test")
    z = _fixture()
    assert all(np.array_equal(a, b) for a, b in zip(m.arrays(), _model_of(z, "policy").arrays()))


def test_a_missing_truncated_or_mismatched_model_file_is_one_line(tmp_path):
    with pytest.raises(ModelError, match=r"model file .*nothing.npz does not exist"):
        load_model(tmp_path / "nothing.npz")
    _save_tiny(tmp_path / "m.npz")
    data = (tmp_path / "m.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[:len(data) // 2])
    with pytest.raises(ModelError, match=r"cut.npz cannot be read \(truncated or not a model file"):
        load_model(tmp_path / "cut.npz")
    with pytest.raises(ModelError, match=r"m.npz is a policy model, not a locations model"):
        load_model(tmp_path / "m.npz", "locations")
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(ModelError, match=r"other.npz is not a model file"):
        load_model(tmp_path / "other.npz")
    z = _fixture()
    arrays = list(_model_of(z, "policy").arrays())
    arrays[4] = arrays[4][:, :50]
    arrays[5] = arrays[5][:50]
    save_model(tmp_path / "narrow.npz", "policy", arrays, {})
    with pytest.raises(ModelError, match=r"narrow.npz: layer 2 is \(12, 50\) \+ \(50,\), not \(12, 91\)"):
        load_model(tmp_path / "narrow.npz")
    for e in ("nothing.npz", "cut.npz", "other.npz", "narrow.npz"):
        with pytest.raises(ModelError) as info:
            load_model(tmp_path / e, "policy")
        assert "\n" not in str(info.value)


# ---------------------------------------------------------------------------------------------
# training (torch: the learn extra)

@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory):
    from tarotsim.learn.data import write_data

    folder = tmp_path_factory.mktemp("data")
    write_data(folder, "4", 11, 200, "heuristic", shard_deals=100)
    return folder


@pytest.mark.parametrize("kind", KINDS)
def test_a_tiny_training_run_lowers_the_loss_and_one_seed_gives_one_model(tiny_data, kind):
    pytest.importorskip("torch")  # the learn extra (CI installs it)
    from tarotsim.learn.train import train

    runs = [train(tiny_data, kind, hidden=(32, 16), epochs=2, batch_size=128, lr=2e-3, seed=s, max_rows=30_000)
            for s in (5, 5, 6)]
    a, b, c = runs
    assert a.train_bits[-1] < a.train_bits[0]
    assert a.validation_bits[-1] < a.uniform_bits
    assert all(np.array_equal(x, y) for x, y in zip(a.arrays, b.arrays))
    assert not all(np.array_equal(x, y) for x, y in zip(a.arrays, c.arrays))


def test_the_train_command_writes_the_model_its_command_and_the_curve(cli, tiny_data, tmp_path):
    pytest.importorskip("torch")
    out, curve = tmp_path / "p.npz", tmp_path / "p.png"
    code, stdout, err = cli("learn", "train", "--data", tiny_data, "--model", "policy", "--out", out, "--curve", curve,
                            "--epochs", 2, "--hidden", "16,8", "--seed", 2)
    assert code == 0, err
    m = load_model(out, "policy")
    assert stdout.splitlines() == [f"policy model written to {out}: validation {m.meta['validation_bits'][-1]:.4f} "
                                   f"bits (uniform {m.meta['uniform_bits']:.4f}), curve {curve}"]
    assert m.hidden == (16, 8) and len(m.meta["validation_bits"]) == 2
    assert m.meta["command"] == (f"tarotsim learn train --data {tiny_data} --model policy --out {out} --epochs 2 "
                                 "--hidden 16,8 --batch-size 512 --lr 0.001 --seed 2")
    assert m.meta["data_command"] == (f"tarotsim learn data --table 4 --bots heuristic --seed 11 --start 0 --deals 200 "
                                      f"--shard-deals 100 --out {tiny_data}")
    assert [ln.split(":")[0] for ln in err.splitlines()] == ["epoch 1/2", "epoch 2/2"]
    assert curve.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_training_on_several_folders_reads_every_row_of_each(cli, tiny_data, tmp_path):
    pytest.importorskip("torch")
    from tarotsim.learn.data import write_data
    from tarotsim.learn.train import train

    three = tmp_path / "three"
    write_data(three, "3", 12, 60, "heuristic", shard_deals=60)
    alone = [train(f, "policy", hidden=(8, 8), epochs=1, seed=3) for f in (tiny_data, three)]
    both = train([tiny_data, three], "policy", hidden=(8, 8), epochs=1, seed=3)
    for key in ("rows", "validation_rows"):
        assert both.meta[key] == sum(r.meta[key] for r in alone)
    assert [d["table"] for d in both.meta["data"]] == ["4", "3"] and alone[1].meta["data"]["table"] == "3"
    out = tmp_path / "p.npz"
    code, _, err = cli("learn", "train", "--data", tiny_data, "--data", three, "--model", "policy", "--out", out,
                       "--epochs", 1, "--hidden", "8,8")
    assert code == 0, err
    m = load_model(out, "policy")
    assert m.meta["command"].startswith(f"tarotsim learn train --data {tiny_data} --data {three} --model policy ")
    assert m.meta["data_command"] == (f"tarotsim learn data --table 4 --bots heuristic --seed 11 --start 0 --deals 200 "
                                      f"--shard-deals 100 --out {tiny_data} && tarotsim learn data --table 3 --bots "
                                      f"heuristic --seed 12 --start 0 --deals 60 --shard-deals 60 --out {three}")


@pytest.mark.parametrize("args, line", [
    (["--hidden", "16"], "hidden takes two layer sizes"),
    (["--data", "nowhere"], "holds no training data"),
    (["--curve", "c.gif"], "--curve: a .png file"),
    (["--curve", "nowhere/c.png"], "--curve: no folder nowhere to write nowhere/c.png in"),
])
def test_the_train_command_refuses_bad_input_in_one_line(cli, tiny_data, tmp_path, args, line):
    pytest.importorskip("torch")
    argv = ["learn", "train", "--data", tiny_data, "--model", "policy", "--out", tmp_path / "m.npz", *args]
    code, stdout, err = cli(*argv)
    assert code == 2 and stdout == ""
    assert len(err.strip().splitlines()) == 1 and line in err, err
    assert not (tmp_path / "m.npz").exists()


def _regenerate():
    """The fixture: tiny models of both kinds (torch's initial weights, seed 1), the rows of a few deals
    of every table, and torch's probabilities on them."""
    import torch

    from tarotsim.learn.data import decisions
    from tarotsim.learn.train import _net, torch_probabilities

    rows = [decisions(t, 8, 0, 1, "heuristic") for t in ("3", "4", "5", "5d")]
    pick = [np.linspace(0, len(r["index"]) - 1, 12).astype(int) for r in rows]
    out = {name: np.concatenate([r[name][p] for r, p in zip(rows, pick)]) for name in ("obs", "allowed", "mask")}
    torch.manual_seed(1)
    for kind in KINDS:
        net = _net(torch, kind, TINY)
        sd = net.state_dict()
        arrays = [sd[k].numpy().T.copy() if sd[k].ndim == 2 else sd[k].numpy().copy()
                  for k in ("0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias")]
        for n, a in zip(("w0", "b0", "w1", "b1", "w2", "b2"), arrays):
            out[f"{kind}_{n}"] = a
        legal = out["allowed"] if kind == "locations" else out["mask"]
        out[f"{kind}_torch"] = torch_probabilities(kind, arrays, out["obs"], legal)
    np.savez_compressed(FIXTURE, **out)
    print(json.dumps({k: list(v.shape) for k, v in out.items()}))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    _regenerate()


def test_calibration_compares_the_model_with_the_uniform_laws_paired_by_card(cli, tmp_path):
    """Every hidden card of every card decision of the tricks counted once in its trick's bucket and
    once in all; the uniform law over the allowed locations is log2 of their number."""
    from tarotsim.learn.data import decisions
    from tarotsim.learn.evaluate import calibration

    model = _model_of(_fixture(), "locations")
    d = calibration(model, "4", seed=3, deals=3, worlds=30, first=2, last=5)
    assert [b["trick"] for b in d["buckets"]] == [2, 3, 4, 5]
    assert sum(b["cards"] for b in d["buckets"]) == d["all"]["cards"] > 0
    assert sum(b["positions"] for b in d["buckets"]) == d["all"]["positions"]
    rows = decisions("4", 3, 0, 3, "heuristic")
    t = rows["obs"][:, OBS["trick_number"]].argmax(axis=1) + 1
    keep = (rows["kind"] == 7) & (t >= 2) & (t <= 5)
    a = rows["allowed"][keep].astype(np.int64)
    n = sum((a >> k) & 1 for k in range(N_LOCATIONS))
    assert d["all"]["positions"] == keep.sum() and d["all"]["cards"] == (n > 1).sum()
    assert d["all"]["allowed"] == pytest.approx(np.log2(n[n > 1]).mean())
    assert d["all"]["gain"] == d["all"]["worlds"] - d["all"]["model"]
    path = tmp_path / "loc.npz"
    save_model(path, "locations", model.arrays(), {})
    code, out, err = cli("learn", "calibration", "--model", path, "--deals", 3, "--seed", 3, "--worlds", 30,
                         "--tricks", "2-5")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].split() == ["trick", "positions", "cards", "allowed", "worlds", "model", "gain"]
    assert lines[-1].split()[:3] == ["all", str(d["all"]["positions"]), str(d["all"]["cards"])]
    assert lines[-1].split()[-1] == f"{d['all']['gain']:+.3f}"
    code, out, err = cli("learn", "calibration", "--model", path, "--tricks", "9-30")
    assert code == 2 and "--tricks: 9-30 is not a range of the 18 tricks of table 4" in err
