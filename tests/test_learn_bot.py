"""The ``learned`` bot and ``tarotsim.learn.locations``: the bot is legal at every decision of every
table and plays the policy's best legal action as the facade sees the position; its deals are the
same for any thread count; the seats it cannot play beside are one line; the locations are the
model's, one-hot where the seat knows the card's place, 0 where the rules rule a place out."""

import random

import numpy as np
import pytest

from helpers_deals import hidden_twins
from tarotsim.runs import simulate
from tarotsim.cards import Card
from tarotsim.engine import Game
from tarotsim.learn import LearnError, allowed, best_action, locations
from tarotsim.learn.data import decisions
from tarotsim.learn.models import Model, save_model
from tarotsim.rules import Rules

FIXTURE = "tests/data/learn_forward.npz"
BESIDE = ["heuristic", "greedy", "random", "heuristic"]


def _tiny(kind) -> Model:
    z = np.load(FIXTURE)
    arrays = tuple(z[f"{kind}_{n}"] for n in ("w0", "b0", "w1", "b1", "w2", "b2"))
    return Model(kind, arrays[0::2], arrays[1::2], {})


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("m") / "policy.npz"
    save_model(path, "policy", _tiny("policy").arrays(), {"command": "the tests' fixture"})
    return path


def _bots(table, path, learned_seats=(0,)):
    n = Rules(table).n_seats
    return ",".join(f"learned:model={path}" if s in learned_seats else BESIDE[s % len(BESIDE)] for s in range(n))


@pytest.mark.parametrize("table", ["3", "4", "5", "5d"])
def test_learned_is_legal_and_plays_the_policys_best_action_at_every_decision(table, policy_file):
    """Every decision of the kernels' deals replayed in the facade: legal there (the facade refuses
    anything else: R-BID-2, R-CHIEN-2, R-PLAY-4a and the others), and at a learned seat the action the model
    picks from the facade's observation and legal actions; the record is the simulator's."""
    rules = Rules(table)
    bots = _bots(table, policy_file, learned_seats=(0, 2))
    recs = simulate.records(rules, 4, range(8), bots)
    rows = decisions(rules, 4, 0, 8, bots)
    learned_rows = 0
    k = 0
    for index, rec in enumerate(recs):
        g = Game(rules, seed=4, index=index)
        while not g.done:
            seat = g.to_move
            a = int(rows["action"][k])
            assert a in g.legal_action_ids()
            if seat in (0, 2):
                assert best_action(g, seat, policy_file) == a, (index, k, g.decision)
                learned_rows += 1
            g.apply_action(a)
            k += 1
        assert g.record() == rec
    assert learned_rows > 50 * 2


def test_learned_deals_are_the_same_for_any_thread_count_and_chunk(policy_file):
    bots = _bots("4", policy_file, learned_seats=(1, 3))
    one = simulate.facts("4", 2, 0, 120, bots=bots, threads=1)
    two = simulate.facts("4", 2, 0, 120, bots=bots, threads=2, chunk_size=7)
    assert np.array_equal(one, two)
    assert np.array_equal(simulate.logs("4", 2, range(40, 60), bots), simulate.logs("4", 2, range(40, 60), bots))


def test_the_policy_decides_the_same_in_deals_the_seat_cannot_tell_apart(policy_file):
    """The hidden-card swap: two cards the seat cannot see exchanged, the public actions replayed: the
    learned bot's action is the same."""
    rules = Rules("4")
    rnd = random.Random(5)

    def choose(seat, view, legal, stream):
        return legal[stream.below(len(legal))]

    met = 0
    for index in range(3):
        for twin in hidden_twins(rules, index, None, choose, lambda d, legal: True, rnd):
            assert best_action(twin.game, model=policy_file) == best_action(twin.twin, model=policy_file)
            met += 1
    assert met > 50


def test_learned_is_listed_with_its_file_parameter(cli):
    code, out, err = cli("bots")
    assert code == 0
    line = next(ln for ln in out.splitlines() if ln.startswith("learned "))
    assert "policy network" in line
    assert any(ln.split()[:2] == ["model", "file"] for ln in out.splitlines())


def test_a_tournament_with_a_learned_seat_runs(cli, policy_file):
    code, out, err = cli("tournament", "--table", "4", "--bots", _bots("4", policy_file).replace(
        "greedy", "heuristic").replace("random", "heuristic"), "--deals", 40, "--seed", 3)
    assert code == 0, err
    assert "learned" in out


@pytest.mark.parametrize("bots, line", [
    ("learned:model=nowhere.npz", "bot learned: model file nowhere.npz does not exist"),
    ("learned:model={p},pimc,heuristic,heuristic", "learned plays beside random, greedy, heuristic and learned"),
    ("learned:model={p},learned:model={q},heuristic,heuristic", "every learned seat of a run plays one model"),
])
def test_seats_a_learned_bot_cannot_play_are_one_line(cli, policy_file, tmp_path, bots, line):
    other = tmp_path / "other.npz"
    save_model(other, "policy", _tiny("policy").arrays(), {})
    code, out, err = cli("simulate", "--bots", bots.format(p=policy_file, q=other), "--deals", 5, "--seed", 1)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and line in err, err


def test_a_truncated_or_mismatched_model_is_one_line(cli, policy_file, tmp_path):
    cut = tmp_path / "cut.npz"
    cut.write_bytes(policy_file.read_bytes()[:1000])
    loc = tmp_path / "loc.npz"
    save_model(loc, "locations", _tiny("locations").arrays(), {})
    for path, line in ((cut, "cannot be read (truncated or not a model file"),
                       (loc, "is a locations model, not a policy model")):
        code, out, err = cli("simulate", "--bots", f"learned:model={path}", "--deals", 5, "--seed", 1)
        assert code == 2 and len(err.strip().splitlines()) == 1 and line in err, err


def test_the_study_and_table_2_refuse_learned_in_one_line(cli, policy_file):
    code, _, err = cli("study", "bidding", "--bots", f"learned:model={policy_file}", "--deals", 5, "--seed", 1)
    assert code == 2 and "learned is not studied here" in err and len(err.strip().splitlines()) == 1
    code, _, err = cli("simulate", "--table", "2", "--bots", f"learned:model={policy_file}", "--deals", 5)
    assert code == 2 and "learned plays at tables 3, 4, 5, 5d, not at table 2" in err


# ---------------------------------------------------------------------------------------------
# tarotsim.learn.locations

def test_locations_are_one_hot_where_known_zero_where_impossible_and_sum_to_one():
    model = _tiny("locations")
    rules = Rules("4")
    rnd = random.Random(2)
    for index in range(4):
        g = Game(rules, seed=6, index=index)
        for _ in range(rnd.randrange(5, 60)):
            g.apply_action(rnd.choice(g.legal_action_ids()))
        for seat in range(4):
            p = locations(g, seat, model)
            a = allowed(g, seat).astype(np.int64)
            assert p.shape == (78, 5) and p.dtype == np.float32
            assert np.allclose(p.sum(axis=1), 1, atol=1e-6)
            rel = np.zeros((78, 6), dtype=bool)
            for s in range(4):
                rel[:, s] = (a >> ((s - seat) % 4)) & 1 == 1
            rel[:, 4] = (a >> 5) & 1 == 1
            live = a != 0
            assert np.all(p[:, :5][live][~rel[live][:, :5]] == 0)
            for c in g._deal.hands[seat]:
                assert p[c.id, seat] == 1
            for s, c in [q for t in g._deal.tricks for q in t.plays]:
                assert p[c.id, s] == 1


def test_locations_answers_where_the_king_of_hearts_is_and_refuses_what_it_does_not_cover():
    g = Game(Rules("4"), seed=1, index=0)
    p = locations(g, 0, _tiny("locations"))
    kh = Card.parse("KH").id
    holder = next(s for s, h in enumerate(g._deal.hands) if Card.parse("KH") in h)
    assert (p[kh, 0] == 1) == (holder == 0)
    with pytest.raises(LearnError, match="seat must be a seat of the table, 0..3"):
        locations(g, 4, _tiny("locations"))
    with pytest.raises(LearnError, match="table 2"):
        locations(Game(Rules("2"), seed=1, index=0), 0, _tiny("locations"))


# ---------------------------------------------------------------------------------------------
# worlds weighted by the location model

def _late_position(index):
    """A deal of heuristic play at table 4 with three cards left in each hand (the taker to see it)."""
    from tarotsim import rng
    from tarotsim.adapters import FastBotAdapter

    rules = Rules("4")
    g = Game(rules, seed=9, index=index)
    bot = FastBotAdapter("heuristic")
    stream = rng.Rng.for_deal(9, index, rng.STREAM_BOTS)
    while not g.done and not (g.decision.kind == "card" and len(g._deal.tricks) == 15):
        g.apply(bot.choose(g.view(g.to_move), g.legal_actions(), stream))
    return None if g.done else g


@pytest.mark.slow
def test_weighted_worlds_are_possible_worlds_and_their_law_is_the_brute_force_one():
    """Every world drawn satisfies every hard constraint (the exact sampler's: the fast checker of
    docs/worlds.md); on late positions the weighted frequencies of each card's place agree with the
    law prod_c q(c, w_c) computed over every possible world, enumerated by brute force."""
    from helpers_worlds import FastChecker, free_placements

    from tarotsim.learn import weighted_worlds
    from tarotsim.worlds import PILE as WORLDS_PILE

    checked, moved = 0, 0.0
    for index in range(12):
        g = _late_position(index)
        if g is None or g._deal.taker is None:
            continue
        seat = g._deal.taker  # the taker knows the écart: the hidden cards are the others' hands
        checker = FastChecker(g.rules, g.view(seat))
        ww = weighted_worlds(g, seat, 3000, seed=index)
        assert checker.check(ww.worlds.locations).all()
        exact = free_placements(g, seat)
        exact = exact[checker.check(exact)]
        q = locations(g, seat).astype(np.float64)
        col = np.where(exact == WORLDS_PILE, 4, exact).astype(np.int64)
        live = exact >= 0
        law = np.where(live, q[np.arange(78)[None, :], np.where(live, col, 0)], 1.0).prod(axis=1)
        law /= law.sum()
        want = np.zeros((78, 5))
        for c in range(5):
            want[:, c] = law @ (exact == (c if c < 4 else WORLDS_PILE))
        got = ww.marginals()
        assert np.abs(got - want).max() < 4 / np.sqrt(ww.ess), (index, np.abs(got - want).max(), ww.ess)
        uniform = np.stack([(exact == (c if c < 4 else WORLDS_PILE)).mean(axis=0) for c in range(5)], axis=1)
        moved = max(moved, np.abs(want - uniform).max())
        assert np.allclose(got.sum(axis=1)[live.any(axis=0)], 1)
        checked += 1
    assert checked >= 3
    assert moved > 0.2  # the model's law is not the uniform one: the check tells them apart


def test_the_shipped_models_load_with_the_commands_that_made_them():
    from tarotsim.learn.models import load_model, shipped

    for kind, data in (("locations", "--bots heuristic"), ("policy", "--bots pimc")):
        m = load_model(shipped(kind), kind)
        assert m.meta["command"].startswith("tarotsim learn train --data ") and f"--model {kind}" in m.meta["command"]
        assert m.meta["data_command"].startswith("tarotsim learn data --table 4 ") and data in m.meta["data_command"]
        assert len(m.meta["validation_bits"]) == m.meta["epochs"]
        assert shipped(kind).stat().st_size < 4_000_000


def test_learned_is_refused_step_by_step_in_one_line(cli):
    code, out, err = cli("play", "--table", "4", "--bots", "learned")
    assert code == 2
    assert err.strip() == "tarotsim: error: learned plays in the kernels only (simulate, tournament, show): not step by step"
