"""``pimc:infer=1,locations=1``: the search's worlds weighed by the card-location model.

* The parameters: ``locations`` needs ``infer``, ``location_model=FILE`` reads a model (a clear
  one-line error for a missing, truncated or mismatched file), not with ``bid_search``, not at
  table 2.
* The probabilities the search weighs by equal ``tarotsim.learn.locations`` on the same position
  (the facade's observation and model against the kernel's observation rebuilt from the view
  and its packed model); a world's log weight adds their logs (a slow twin); the moves under
  the model alone reach the law computed over every possible world, enumerated by brute force.
* The deals obey the rules at every table, the fast path equals the slow path, the results do
  not depend on the threads, and a decision depends only on what the seat saw (hidden-card swap).
"""

import random

import numpy as np
import pytest
from numba import njit

from test_kernels import check_record
from helpers_deals import card_twins
from bots import BotError, parse_bots
from bots.inference import INFER_LEN, IW_COUNT, IW_LOGQ, add_locations, move_by_locations
from tarotsim import record, rng
from tarotsim._builds.pimc import model_words, view_location_probabilities
from tarotsim._kernels.worlds import LOC_PILE, N_LOC
from tarotsim.adapters import FastBotAdapter, public_view
from tarotsim.cards import masks_of
from tarotsim.engine import Game, play_game
from tarotsim.learn import allowed, locations
from tarotsim.rules import CONTRACT_OF, ENV_TABLES, Rules
from tarotsim.runs import simulate

LOC = "pimc:worlds=3,infer=1,candidates=12,min_ess=2,locations=1"
LOC_PARAMS = {"worlds": 3, "infer": True, "candidates": 12, "min_ess": 2, "locations": True}
#: the location model alone, its worlds moved by swaps (``inference.move_by_locations``)
MOVED = "pimc:worlds=4,infer=1,candidates=4,epsilon=1,card_epsilon=1,min_ess=2,locations=1,moves=8,location_power=0.5"
MOVED_PARAMS = {"worlds": 4, "infer": True, "candidates": 4, "epsilon": 1.0, "card_epsilon": 1.0, "min_ess": 2,
                "locations": True, "moves": 8, "location_power": 0.5}


def test_locations_is_a_pimc_parameter_with_its_conditions(tmp_path):
    v = parse_bots(LOC, 4)[0][1]
    assert model_words(np.array([4]), v[None, :]).size > 0
    assert model_words(np.array([4]), parse_bots("pimc:infer=1", 4)[0][1][None, :]).size == 0
    for bad, why in (("pimc:locations=1", "locations does nothing without infer=1"),
                     ("pimc:infer=1,location_model=nope.npz", "model file nope.npz does not exist"),
                     ("pimc:infer=1,locations=1,bid_search=1", "locations and bid_search do not play together"),
                     ("pimc:infer=1,location_model=tarotsim/learn/shipped/policy-4.npz",
                      "is a policy model, not a locations model")):
        with pytest.raises(BotError, match=why):
            parse_bots(bad, 4)
    with pytest.raises(BotError, match="does nothing at table 2"):
        parse_bots("pimc:locations=1", 2, "2")
    truncated = tmp_path / "cut.npz"
    truncated.write_bytes(open("tarotsim/learn/shipped/locations-4.npz", "rb").read()[:5000])
    with pytest.raises(BotError, match="cut.npz"):
        parse_bots(f"pimc:infer=1,location_model={truncated}", 4)
    given = parse_bots("pimc:infer=1,location_model=tarotsim/learn/shipped/locations-4.npz", 4)[0][1]
    assert model_words(np.array([4]), given[None, :]).size > 0


def _card_positions(table, n_deals):
    """Card decisions of heuristic deals with more than one legal card: ``(game, seat)``."""
    r = Rules(table=table)
    bot = FastBotAdapter("heuristic")
    for index in range(n_deals):
        game = Game(r, seed=21, index=index)
        k = 0
        while (d := game.decision) is not None:
            legal = game.legal_actions()
            if d.kind == "card" and len(legal) > 1 and k % 7 == index % 7:
                yield game, d.seat
            k += d.kind == "card"
            game.apply(bot.choose(game.view(d.seat), legal, rng.Rng(0)))


@pytest.mark.parametrize("table", ENV_TABLES)
def test_the_searchs_location_probabilities_equal_the_librarys(table):
    words = model_words(np.array([4]), parse_bots(LOC, 4)[0][1][None, :])
    r = Rules(table=table)
    n = r.n_seats
    rv = r.to_vector()
    checked = 0
    for game, seat in _card_positions(table, 6):
        view = game.view(seat)
        ht, hs = masks_of(view.hand)
        et = es = 0
        if view.ecart is not None and CONTRACT_OF[view.contract].ecart_made:
            et, es = masks_of(view.ecart)
        out = np.zeros((78, N_LOC))
        view_location_probabilities(rv, np.int64(seat), np.int64(ht), np.int64(hs), public_view(view, r),
                                    np.int64(et), np.int64(es), np.int64(len(view.trick)), words, out)
        p = locations(game, seat)
        a = allowed(game, seat)
        for c in range(78):
            if bin(a[c]).count("1") < 2:
                assert np.all(out[c] == 1.0)  # a place the seat knows weighs nothing
                continue
            for loc in range(n):
                if a[c] >> ((loc - seat) % n) & 1:
                    assert out[c, loc] == pytest.approx(p[c, loc], abs=1e-5)
            if a[c] >> 5 & 1:
                assert out[c, LOC_PILE] == pytest.approx(p[c, n], abs=1e-5)
        checked += 1
    assert checked >= 8


def _mix(table, bot=LOC):
    n = Rules(table=table).n_seats
    return [bot, "heuristic", "pimc:worlds=3", "random", "greedy"][:n]


@pytest.mark.parametrize("table", ENV_TABLES)
@pytest.mark.parametrize("bot,params", [(LOC, LOC_PARAMS), (MOVED, MOVED_PARAMS)])
def test_locations_deals_obey_the_rules_and_fast_path_equals_slow_path(table, bot, params):
    r = Rules.from_options(table, {"misere": True})
    bots = _mix(table, bot)
    recs = simulate.records(r, 5, range(6), bots=bots)
    for rec in recs:
        check_record(rec, r)
        record.verify(rec)
    assert sum(rec["outcome"] == "played" for rec in recs) >= 3
    for i, rec in zip(range(2), recs):
        adapters = [FastBotAdapter("pimc", params) if b == bot else
                    FastBotAdapter("pimc", {"worlds": 3}) if b.startswith("pimc") else FastBotAdapter(b) for b in bots]
        assert play_game(Game(r, 5, i), adapters).record() == rec


@pytest.mark.parametrize("bot", [LOC, MOVED])
def test_locations_change_the_cards_and_not_with_the_threads(bot):
    r = Rules(table="4")
    bots = [bot, "heuristic", "heuristic", "heuristic"]
    a = simulate.facts(r, 3, 0, 24, bots=bots, threads=1)
    b = simulate.facts(r, 3, 0, 24, bots=bots, threads=2, chunk_size=5)
    assert np.array_equal(a, b)
    plain = simulate.facts(r, 3, 0, 24, bots=[bot.replace(",locations=1", "").replace(",location_power=0.5", "")]
                           + bots[1:], threads=1)
    assert not np.array_equal(a, plain)  # the model moves the weights, so some card differs


def test_hidden_cards_never_change_a_locations_decision():
    bot = FastBotAdapter("pimc", {**LOC_PARAMS, "candidates": 10})
    n_cards = sum(1 for _ in card_twins(bot, ENV_TABLES, 2, random.Random(5)))
    assert n_cards >= 10


@njit
def _add_locations(worlds, logq, logw):
    add_locations(worlds, worlds.shape[0], logq, logw)


def test_a_worlds_log_weight_adds_the_models_log_probability_of_each_cards_place():
    """The slow twin: ``sum_c logq[c, w_c]`` over the cards not played, a world ruled out left so."""
    gen = np.random.default_rng(3)
    worlds = gen.integers(-1, N_LOC, size=(50, 78)).astype(np.int8)
    logq = np.log(gen.random((78, N_LOC)))
    logw = gen.normal(size=50)
    logw[7] = -np.inf
    want = logw + np.array([sum(logq[c, w[c]] for c in range(78) if w[c] >= 0) for w in worlds])
    _add_locations(worlds, logq.ravel(), logw)
    assert logw[7] == -np.inf
    assert np.allclose(logw[np.isfinite(want)], want[np.isfinite(want)])


@njit
def _move(cons, worlds, logq, n_moves, power, seed):
    iw = np.zeros(INFER_LEN, dtype=np.int64)
    iw[IW_LOGQ:IW_LOGQ + logq.size].view(np.float64)[:] = logq
    n = worlds.shape[0]
    for w in range(n):
        iw[IW_COUNT + w] = 1
    kept, _ = move_by_locations(cons, worlds, n, n, n_moves, power, iw, np.uint64(seed))
    return kept, iw[IW_COUNT:IW_COUNT + kept].copy()


@pytest.mark.slow
def test_the_moves_by_locations_reach_the_brute_force_law_on_late_positions():
    """Uniform worlds moved by swaps under the model alone: each card's place has the frequencies of
    the law ``prod_c q(c, w_c)^power`` computed over every possible world, enumerated by brute force;
    every world moved is still possible (the fast checker of docs/worlds.md)."""
    from helpers_worlds import FastChecker, free_placements
    from test_learn_bot import _late_position

    from tarotsim._kernels import worlds as W
    from tarotsim.worlds import PILE as WORLDS_PILE, knowledge, sample

    r = Rules("4")
    words = model_words(np.array([4]), parse_bots(LOC, 4)[0][1][None, :])
    checked, moved = 0, 0.0
    for index in range(12):
        g = _late_position(index)
        if g is None or g._deal.taker is None:
            continue
        seat = g._deal.taker
        view = g.view(seat)
        know = knowledge(view, r)
        cons = np.zeros(W.C_LEN, dtype=np.int64)
        assert W.derive(r.to_vector(), know, cons) == W.OK
        ht, hs = masks_of(view.hand)
        et, es = masks_of(view.ecart) if view.ecart is not None and CONTRACT_OF[view.contract].ecart_made else (0, 0)
        q = np.zeros((78, N_LOC))
        view_location_probabilities(r.to_vector(), np.int64(seat), np.int64(ht), np.int64(hs), public_view(view, r),
                                    np.int64(et), np.int64(es), np.int64(len(view.trick)), words, q)
        power = 0.5
        n = 3000
        rows = sample(g, seat, n, seed=index).locations.copy()
        kept, counts = _move(cons, rows, np.log(q).ravel(), 64, power, index)
        worlds = np.repeat(rows[:kept], counts, axis=0)
        checker = FastChecker(r, view)
        assert len(worlds) == n and checker.check(worlds).all()
        exact = free_placements(g, seat)
        exact = exact[checker.check(exact)]
        live = exact >= 0
        code = np.where(live, exact, 0).astype(np.int64)
        law = np.where(live, q[np.arange(78)[None, :], code], 1.0).prod(axis=1) ** power
        law /= law.sum()
        for c in range(5):
            loc = c if c < 4 else WORLDS_PILE
            want = law @ (exact == loc)
            got = (worlds == loc).mean(axis=0)
            uniform = (exact == loc).mean(axis=0)
            assert np.abs(got - want).max() < 4 / np.sqrt(n), (index, c, np.abs(got - want).max())
            moved = max(moved, np.abs(want - uniform).max())
        checked += 1
    assert checked >= 3
    assert moved > 0.1  # the model's law is not the uniform one: the check tells them apart
