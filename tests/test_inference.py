"""Worlds weighted by the other seats' decisions (``bots/inference.py``, ``pimc:infer=1``).

* The kernel's log weights equal a slow twin's (``helpers_inference``: the world's deal replayed
  on the ``Game`` facade, the heuristic asked on the slow path) on many positions of every table.
* A world in which an observed card was not legal weighs nothing (R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-EXC-1), and none is
  ever drawn; the true world of a table of heuristic bots is explained at every decision.
* At a low ε a world the model explains weighs more than one it does not; at ε = 1 every world
  weighs the same: the weighted law is the exact sampler's.
* Resampling: the counts add up, each is the floor or the ceiling of its share.
* The weights, and ``pimc:infer=1``'s cards, depend only on what the seat saw (hidden-card swap);
  its deals are the same for any thread count and chunking, fast path = slow path, and they obey
  the rules.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from helpers_deals import card_twins
from helpers_inference import twin_log_weight, twin_log_weights
from test_kernels import check_record
from bots import REGISTRY, BotError, parse_bots
from bots import inference as K
from tarotsim import record, rng
from tarotsim.runs import simulate
from tarotsim import worlds as W
from tarotsim.adapters import FastBotAdapter, public_view
from tarotsim.engine import Game, play_game
from tarotsim.inference import draw, weighted_sample
from tarotsim.rules import Rules
from tarotsim.worlds import WorldsError, sample

TABLES = ("3", "4", "5", "5d")
MIXES = {"heuristic": ["heuristic"] * 5, "mixed": ["heuristic", "greedy", "pimc", "random", "heuristic"]}


def _adapters(names):
    return [FastBotAdapter("pimc", {"worlds": 2}) if b == "pimc" else FastBotAdapter(b) for b in names]


def positions(table, mix, indices, p, seed=3, options=None):
    """``(game, seat)`` at random decisions of deals played by the ``mix``'s bots: a seat that holds
    cards (the 5d dummy never), chosen at random; each decision kept with probability ``p``."""
    rules = Rules.from_options(table, options or {})
    rnd = random.Random(f"{table}{mix}{seed}")
    for index in indices:
        game = Game(rules, seed=seed, index=index)
        bots = _adapters(MIXES[mix][:rules.n_seats])
        stream = rng.Rng(index)
        while (d := game.decision) is not None:
            if rnd.random() < p:
                seats = [s for s in range(rules.n_seats) if game.hand(s)]
                yield game, rnd.choice(seats)
            game.apply(bots[d.seat].choose(game.view(d.seat), game.legal_actions(), stream))


def kernel_log_weights(game, seat, locations, eps, card_eps=None, trust=1.0, model=None):
    """``bots.inference.log_weights`` on the seat's view, as ``tarotsim.inference`` calls it (the
    cards' ε ``card_eps``, default ``eps``; the prior ``trust`` that a seat plays as the model;
    ``model``: a packed policy as the opponent model of the cards, default the heuristic)."""
    view = game.view(seat)
    know = W.knowledge(view, game.rules)
    stage = int(know[W._kernels().K_STAGE])
    out = np.empty(len(locations), dtype=np.float64)
    K.log_weights(game.rules.to_vector(), np.int64(seat), np.int64(stage), public_view(view, game.rules),
                  np.int64(len(view.trick) if stage == W._kernels().STAGE_PLAY else 0),
                  np.ascontiguousarray(locations, dtype=np.int8), float(eps),
                  float(eps if card_eps is None else card_eps), float(trust),
                  np.zeros(0, dtype=np.int64) if model is None else model, out)
    return out


def true_world(game):
    """The locations of the true deal now (played cards -1, the hidden pile 5)."""
    row = np.full(78, -1, dtype=np.int8)
    for s in range(game.rules.n_seats):
        for c in game.hand(s):
            row[c.id] = s
    d = game._deal
    pile = d.ecart if d.contract in ("prise", "garde") and d.ecart else ([] if d.phase == "ecart" else d.chien)
    for c in pile:
        row[c.id] = W.PILE
    return row


@pytest.mark.parametrize("table", TABLES)
def test_kernel_weights_equal_the_python_twin(table):
    """Bids (R-BID-1), the call (R-CALL-1), the écart's shape (R-CHIEN-2), the chelem (R-SLAM-1),
    poignées (R-POIG-1), misères (R-MIS-1) and cards (R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-CALL-4): the kernel
    and the twin give the same log weight to every world, for every ε (the cards' own ε too)."""
    rnd = random.Random(table)
    n = weighed = 0
    for mix in MIXES:
        for game, seat in positions(table, mix, range(5), 0.05, options={"misere": True}):
            ws = sample(game, seat, 4, rnd.getrandbits(64))
            eps = rnd.choice([0.05, 0.3, 1.0])
            card_eps = rnd.choice([eps, 0.2, 1.0])
            trust = rnd.choice([1.0, 1.0, 0.5, 0.05, 0.0])
            got = kernel_log_weights(game, seat, ws.locations, eps, card_eps, trust)
            want = twin_log_weights(game, seat, ws.locations, eps, card_eps, trust)
            assert np.allclose(got, want, rtol=1e-12, atol=1e-9), (table, mix, game.decision, seat, eps, card_eps,
                                                                  trust, got, want)
            n += 1
            weighed += bool(np.any(got != 0))
    assert n >= 25 and weighed >= 10


def test_at_trust_0_every_possible_world_weighs_the_same():
    """``trust`` (the prior that a seat plays as the model, else uniformly): at 0 every world the
    seat cannot rule out weighs the same (the exact sampler's law), at any ε; a world ruled out by
    an illegal card (R-PLAY-4a to R-PLAY-4e) stays ruled out at every trust. (Between 0 and 1 the
    kernel equals the twin's formula: the twin test above.)"""
    rnd = random.Random(4)
    seen = 0
    for game, seat in positions("4", "mixed", range(4), 0.1, seed=3):
        ws = sample(game, seat, 8, rnd.getrandbits(64))
        full = kernel_log_weights(game, seat, ws.locations, 0.2, 0.2, 1.0)
        none = kernel_log_weights(game, seat, ws.locations, 0.2, 0.2, 0.0)
        ok = np.isfinite(full)
        assert np.array_equal(ok, np.isfinite(none)) and np.all(none[ok] == 0.0)
        seen += np.ptp(full[ok]) > 0 if ok.any() else 0
    assert seen >= 3


@pytest.mark.parametrize("table", TABLES)
def test_the_true_world_of_a_heuristic_table_is_explained_at_every_decision(table):
    """Every other seat plays the model: in the true world each of its decisions is the model's, so
    the kernel gives the true world the highest weight there is, ``sum log(n (1 - eps) + eps)`` over
    them, with the twin (the kernel replays the past exactly as the deal kernel played it)."""
    eps = 0.2
    checked = 0
    for game, seat in positions(table, "heuristic", range(4), 0.1, seed=8):
        row = true_world(game)[None, :]
        got = kernel_log_weights(game, seat, row, eps)[0]
        assert got == pytest.approx(twin_log_weight(game, seat, row[0], eps), abs=1e-9)
        assert got >= 0.0
        assert got == pytest.approx(_explained_everywhere(game, seat, eps), abs=1e-9), (table, game.decision, seat)
        checked += got > 0
    assert checked >= 5


def _explained_everywhere(game, seat, eps):
    """``sum log(n (1 - eps) + eps)`` over the other seats' decisions so far with n > 1 choices
    (the écart by its shape), from the twin run with every observation counted as explained."""
    import helpers_inference as H

    saved = H._factor, H._ecart_factor
    try:
        H._factor = lambda did, n, e: 0.0 if n <= 1 else math.log(n * (1 - e) + e)
        H._ecart_factor = lambda legal, model, cards, e: saved[1](legal, cards, cards, e)
        return H.twin_log_weight(game, seat, true_world(game), eps)
    finally:
        H._factor, H._ecart_factor = saved


def _illegal_world(game, seat, rnd):
    """The true world with a card of a suit some other seat showed void in moved into its hand
    (exchanged with one of its cards of another suit held by a third seat): the world breaks
    R-PLAY-4a. None when no such exchange exists."""
    view = game.view(seat)
    row = true_world(game)
    for _, plays, _ in view.tricks:
        led = next((c for _, c in plays if not c.is_excuse), None)
        if led is None or led.is_trump:
            continue
        for s, c in plays:
            if s == seat or c.is_excuse or c.suit == led.suit or not game.hand(s):
                continue
            mine = [x for x in game.hand(s) if x.suit != led.suit and x not in (view.chien or ())]
            known = {c.id for c in view.chien or ()}   # the shown chien stays with the taker
            theirs = [cid for cid in range(22, 78) if row[cid] not in (-1, s, seat, W.PILE)
                      and (cid - 22) // 14 == led.suit and cid not in known]
            if mine and theirs:
                a, b = rnd.choice(mine).id, rnd.choice(theirs)
                row[a], row[b] = row[b], row[a]
                return row
    return None


def test_R_PLAY_4a_a_world_where_an_observed_card_was_illegal_weighs_nothing_and_is_never_drawn():
    rnd = random.Random(4)
    found = 0
    for table in ("4", "5"):
        for game, seat in positions(table, "mixed", range(6), 0.15, seed=5):
            if game.decision.kind != "card":
                continue
            bad = _illegal_world(game, seat, rnd)
            if bad is not None:
                assert kernel_log_weights(game, seat, bad[None, :], 0.5)[0] == -math.inf
                assert twin_log_weight(game, seat, bad, 0.5) == -math.inf
                found += 1
            ww = weighted_sample(game, seat, 8, rnd.getrandbits(64), epsilon=0.5)
            assert np.all(np.isfinite(twin_log_weights(game, seat, ww.locations, 0.5)))
    assert found >= 5


def test_at_low_epsilon_a_world_the_model_explains_weighs_more():
    """After the first bid (R-BID-1): in the worlds where the heuristic would have made it from the
    first speaker's hand, the weight is ``n (1 - eps) + eps``; where not, ``eps``."""
    r = Rules(table="4")
    eps = 0.01
    explained = unexplained = 0
    for index in range(12):
        game = Game(r, seed=21, index=index)
        first = game.decision.seat
        game.apply(FastBotAdapter("heuristic").choose(game.view(first), game.legal_actions(), rng.Rng(0)))
        seat = game.decision.seat
        ws = sample(game, seat, 64, index)
        logw = kernel_log_weights(game, seat, ws.locations, eps)
        heuristic = FastBotAdapter("heuristic")
        for row, lw in zip(ws.locations, logw):
            g = Game(r, hands=[[c for c in range(78) if row[c] == s] for s in range(4)],
                     chien=[c for c in range(78) if row[c] == W.PILE], dealer=game.view(seat).dealer)
            did = heuristic.choose(g.view(first), g.legal_bids(), rng.Rng(0)) == game.view(seat).bids[0][1]
            if did:
                assert lw == pytest.approx(math.log(5 * (1 - eps) + eps))
                explained += 1
            else:
                assert lw == pytest.approx(math.log(eps))
                unexplained += 1
    assert explained > 20 and unexplained > 20


def test_R_PLAY_3_at_card_epsilon_one_a_card_weighs_only_by_its_legality():
    """``card_epsilon=1``: the cards played change no world's weight but rule out the worlds where
    one was not legal (R-PLAY-3, R-PLAY-4a to R-PLAY-4e); the weight is the auction's and the
    declarations', the same at every card decision of the deal from trick 2 on (once every seat
    declared), in the true world of a table of heuristic bots followed card by card."""
    checked = 0
    for index in range(8):
        game = Game(Rules(table="4"), seed=13, index=index)
        bots = _adapters(["heuristic"] * 4)
        seat = index % 4
        first = None
        while (d := game.decision) is not None:
            if d.kind == "card" and game.view(seat).tricks:
                row = true_world(game)[None, :]
                lw = kernel_log_weights(game, seat, row, 0.2, 1.0)[0]
                if first is None:
                    first = lw
                assert np.isfinite(lw) and lw == pytest.approx(first, abs=1e-12)
                assert kernel_log_weights(game, seat, row, 0.2, 0.2)[0] >= lw
                checked += 1
            game.apply(bots[d.seat].choose(game.view(d.seat), game.legal_actions(), rng.Rng(index)))
    assert checked >= 20


def test_at_epsilon_one_the_weighted_law_is_the_exact_samplers():
    for game, seat in positions("5", "mixed", range(3), 0.05, seed=9):
        ww = weighted_sample(game, seat, 50, 1234, epsilon=1.0)
        assert np.array_equal(ww.locations, sample(game, seat, 50, 1234).locations)
        assert np.all(ww.weights == 1 / 50) and ww.ess == pytest.approx(50)


def test_resampling_counts_add_up_to_floor_or_ceiling_shares():
    rnd = np.random.default_rng(3)
    for trial in range(40):
        n_cand = int(rnd.integers(1, 300))
        n_worlds = int(rnd.integers(1, 100))
        iw = np.zeros(K.INFER_LEN, dtype=np.int64)
        logw = iw[K.IW_LOGW:K.IW_LOGW + K.MAX_WORLDS].view(np.float64)
        logw[:n_cand] = rnd.normal(0, 3, n_cand)
        if trial % 5 == 0:
            logw[:n_cand] = 0.0
        if trial % 7 == 0:
            logw[rnd.integers(0, n_cand, n_cand // 2)] = -np.inf
        w = np.exp(logw[:n_cand] - logw[:n_cand].max())
        share = n_worlds * w / w.sum()
        worlds = rnd.integers(0, 5, (n_cand, 78)).astype(np.int8)
        before = worlds.copy()
        kept, ess, _, _ = K.resample(worlds, n_cand, n_worlds, np.int64(0), iw, np.uint64(trial))
        counts = iw[K.IW_COUNT:K.IW_COUNT + kept]
        assert counts.sum() == n_worlds and np.all(counts > 0)
        assert ess == pytest.approx(w.sum() ** 2 / (w * w).sum())
        # the kept worlds are the candidates drawn at least once, in their order
        full = np.zeros(n_cand, dtype=np.int64)
        k = 0
        for i in range(n_cand):
            if k < kept and np.array_equal(before[i], worlds[k]):
                full[i] = counts[k]
                k += 1
        assert k == kept
        assert np.all(full >= np.floor(share - 1e-9)) and np.all(full <= np.ceil(share + 1e-9))


def test_weighted_sample_checks_its_arguments():
    game = Game(Rules(table="4"), seed=1, index=1)
    for kw, why in (({"n": 0}, "1..4096"), ({"n": 5000}, "1..4096"), ({"epsilon": 0.0}, "epsilon"),
                    ({"epsilon": 1.5}, "epsilon"), ({"card_epsilon": 0.0}, "card_epsilon"),
                    ({"card_epsilon": True}, "card_epsilon")):
        args = {"n": 5, "epsilon": 0.1} | kw
        with pytest.raises(WorldsError, match=why):
            weighted_sample(game, 1, args.pop("n"), 3, **args)
    ww = weighted_sample(game, 1, 20, 3)
    assert sum(ww.where("KH").values()) == pytest.approx(1.0) and len(ww) == 20
    with pytest.raises(WorldsError, match="card"):
        ww.where("ZZ")
    for kw, why in (({"candidates": 0}, "candidates"), ({"moves": 65}, "moves"), ({"min_ess": -1}, "min_ess"),
                    ({"card_epsilon": 2.0}, "card_epsilon")):
        with pytest.raises(WorldsError, match=why):
            draw(game, 1, 8, 3, **kw)
    d = draw(game, 1, 8, 3, candidates=16, moves=2)
    assert d.weights.sum() == pytest.approx(1.0) and 1 <= len(d) <= 8


def test_draw_takes_the_bots_defaults():
    """A parameter ``draw`` is not given is ``pimc``'s default: the draw is the bot's own."""
    r = Rules(table="4")
    dealer, hands, chien = rng.deal(r, 5, 2)
    game = Game(r, hands=hands, chien=chien, dealer=dealer, forced=(1, "garde"))
    bots = FastBotAdapter("heuristic")
    stream = rng.Rng(2)
    while len(game.events) < 20:  # into the card play, with bids, an écart and cards to weigh
        game.apply(bots.choose(game.view(game.decision.seat), game.legal_actions(), stream))
    assert game.decision.kind == "card"
    spec = REGISTRY["pimc"]
    bot = spec.values(spec.vector())
    given = {k: bot[k] for k in ("candidates", "epsilon", "min_ess", "moves", "card_epsilon", "trust")}
    a, b = draw(game, 1, 8, 3), draw(game, 1, 8, 3, **given)
    assert np.array_equal(a.locations, b.locations) and np.array_equal(a.weights, b.weights)


# ---------------------------------------------------------------------------------------------
# pimc:infer=1

INFER = "pimc:worlds=3,infer=1,candidates=12,epsilon=0.2,card_epsilon=0.3"


def _mix(table, bot=INFER):
    n = Rules(table=table).n_seats
    return [bot, "heuristic", "pimc:worlds=3", "random", "greedy"][:n]


def test_infer_is_registered_as_pimc_parameters():
    spec = REGISTRY["pimc"]
    v = parse_bots("pimc:infer=1,candidates=64,epsilon=0.3,card_epsilon=0.7", 4)[0][1]
    assert spec.values(v)["infer"] is True and spec.values(v)["candidates"] == 64
    assert spec.values(v)["epsilon"] == pytest.approx(0.3) and spec.values(v)["card_epsilon"] == pytest.approx(0.7)
    assert spec.values(spec.vector())["infer"] is False
    for bad, why in (("epsilon=0", "0.001..1"), ("card_epsilon=1.5", "0.001..1"), ("candidates=0", "1..4096"),
                     ("infer=2", "true or false")):
        with pytest.raises(BotError, match=why):
            parse_bots(f"pimc:{bad}", 4)


@pytest.mark.parametrize("table", TABLES)
def test_infer_deals_obey_the_rules_and_fast_path_equals_slow_path(table):
    r = Rules.from_options(table, {"misere": True})
    bots = _mix(table)
    recs = simulate.records(r, 5, range(8), bots=bots)
    for rec in recs:
        check_record(rec, r)
        record.verify(rec)
    assert sum(rec["outcome"] == "played" for rec in recs) >= 3
    for i, rec in zip(range(3), recs):
        adapters = [FastBotAdapter("pimc", {"worlds": 3, "infer": True, "candidates": 12, "epsilon": 0.2,
                                    "card_epsilon": 0.3})
                    if b == INFER else FastBotAdapter("pimc", {"worlds": 3}) if b.startswith("pimc")
                    else FastBotAdapter(b) for b in bots]
        assert play_game(Game(r, 5, i), adapters).record() == rec


def test_infer_same_results_for_any_thread_count_and_chunk_size():
    r = Rules(table="5")
    bots = [INFER, "heuristic", "heuristic", "pimc:worlds=2,infer=1,candidates=5,policy=0", "greedy"]
    a = simulate.facts(r, 3, 0, 30, bots=bots, threads=1)
    b = simulate.facts(r, 3, 0, 30, bots=bots, threads=2, chunk_size=7)
    c = simulate.facts(r, 3, 0, 30, bots=bots, threads=2, chunk_size=3)
    assert np.array_equal(a, b) and np.array_equal(a, c)
    assert (a["outcome"] == 0).sum() > 10


def test_hidden_cards_never_change_an_infer_decision():
    """Two deals the seat cannot tell apart give it the same weighted worlds and the same card."""
    n_cards = 0
    bot = FastBotAdapter("pimc", {"worlds": 3, "infer": True, "candidates": 10})
    for tw in card_twins(bot, TABLES, 3, random.Random(11)):
        seat = tw.decision.seat
        a = weighted_sample(tw.game, seat, 16, tw.state, epsilon=0.2)
        b = weighted_sample(tw.twin, seat, 16, tw.state, epsilon=0.2)
        assert np.array_equal(a.locations, b.locations) and np.array_equal(a.weights, b.weights)
        n_cards += 1
    assert n_cards >= 15


def test_infer_with_epsilon_one_and_as_many_candidates_as_worlds_plays_pimcs_worlds():
    """ε = 1 and ``candidates = worlds``: every world weighs the same and is kept once, so the
    search plays out pimc's worlds; the heuristic's rollouts draw nothing, so the card is pimc's
    (the bots stream differs only by the resampling's draw)."""
    r = Rules(table="4")
    compared = 0
    for index in range(12):
        game = Game(r, seed=13, index=index)
        heuristic = FastBotAdapter("heuristic")
        while (d := game.decision) is not None:
            legal = game.legal_actions()
            if d.kind == "card" and len(legal) > 1 and len(game._deal.tricks) >= index % 5:
                view = game.view(d.seat)
                a = FastBotAdapter("pimc", {"worlds": 6}).choose(view, legal, rng.Rng(index))
                b = FastBotAdapter("pimc", {"worlds": 6, "infer": True, "candidates": 6, "epsilon": 1.0,
                                               "card_epsilon": 1.0}).choose(
                    view, legal, rng.Rng(index))
                assert a == b
                compared += 1
                break
            game.apply(heuristic.choose(game.view(d.seat), legal, rng.Rng(0)))
    assert compared >= 4


def test_tempered_weights_keep_the_ess_asked_and_the_order_of_the_worlds():
    """``min_ess``: weights that would leave a smaller ESS are raised to a power in [0, 1) that
    leaves about that many (the largest such power, to 2^-12); already as large: untouched."""
    rnd = np.random.default_rng(8)
    for trial in range(30):
        n = int(rnd.integers(2, 400))
        logw = rnd.normal(0, 4 + trial, n)
        target = int(rnd.integers(2, n + 1))
        power = K.tempering_power(logw, np.int64(target))
        w = np.exp(power * (logw - logw.max()))
        ess = w.sum() ** 2 / (w * w).sum()
        w1 = np.exp(logw - logw.max())
        if w1.sum() ** 2 / (w1 * w1).sum() >= target:
            assert power == 1.0
        else:
            assert 0.0 <= power < 1.0 and ess >= target - 1e-9
            w2 = np.exp(min(power + 2 ** -11, 1.0) * (logw - logw.max()))
            assert w2.sum() ** 2 / (w2 * w2).sum() < target
        assert np.all(np.argsort(w, kind="stable") == np.argsort(logw, kind="stable")) or power == 0.0
    game = Game(Rules(table="4"), seed=1, index=1)
    ww = weighted_sample(game, 1, 40, 3, epsilon=0.01, min_ess=30)
    assert ww.ess >= 30 - 1e-9


# ---------------------------------------------------------------------------------------------
# the weighted law, exactly, on late positions

def _late_taker_positions(n_positions, left=3):
    """Positions of table 4 (heuristic bots) with ``left`` tricks to play, seen by the taker at
    prise or garde (he knows the écart, so the worlds are the placements of the defenders' cards:
    few enough to list), at his card decision."""
    from helpers_worlds import FastChecker, free_placements

    r = Rules(table="4")
    found = []
    for index in range(200):
        game = Game(r, seed=41, index=index)
        bots = _adapters(["heuristic"] * 4)
        while (d := game.decision) is not None:
            view = game.view(d.seat)
            if d.kind == "card" and d.seat == view.taker and view.contract in ("prise", "garde") and \
                    len(view.tricks) >= 18 - left and len(game.legal_actions()) > 1:
                rows = free_placements(game, d.seat)
                exact = rows[FastChecker(r, view).check(rows)]
                found.append((game, d.seat, exact))
                break
            game.apply(bots[d.seat].choose(view, game.legal_actions(), rng.Rng(0)))
        if len(found) == n_positions:
            break
    return found


def _marginals(rows, weights):
    """``P(card c at location l)``, float64[78, 6], of worlds ``rows`` weighted ``weights``."""
    out = np.zeros((78, 6))
    for loc in range(6):
        out[:, loc] = (weights[:, None] * (rows == loc)).sum(axis=0)
    return out


def test_the_weighted_draw_tends_to_the_exact_weighted_law():
    """Every consistent world listed, its exact weight ``exp(log weight)``: the self-normalized
    weights of 4096 candidates put each card where the exact law does (within 0.05)."""
    for game, seat, exact in _late_taker_positions(3):
        eps = 0.3
        law = np.exp(kernel_log_weights(game, seat, exact, eps))
        law /= law.sum()
        ww = weighted_sample(game, seat, 4096, 5, epsilon=eps)
        assert np.abs(_marginals(ww.locations, ww.weights) - _marginals(exact, law)).max() < 0.05


def test_moves_keep_the_weighted_law():
    """Resample-move: worlds drawn from the exact weighted law stay drawn from it after the
    Metropolis-Hastings swaps (each card's location frequency within 0.05 of its exact
    probability over 3000 worlds), and every moved world is consistent; at ε = 1 the law is the
    uniform one over the consistent worlds (the exact sampler's)."""
    from helpers_worlds import FastChecker

    rnd = np.random.default_rng(6)
    moved_some = False
    for game, seat, exact in _late_taker_positions(2):
        view = game.view(seat)
        rules = game.rules
        _, cons = W._derive(view, rules)
        for eps in (0.3, 1.0):
            lw = kernel_log_weights(game, seat, exact, eps)
            law = np.exp(lw - lw.max())
            law /= law.sum()
            n = 3000
            pick = rnd.choice(len(exact), n, p=law)
            worlds = np.ascontiguousarray(exact[pick])
            before = worlds.copy()
            iw = np.zeros(K.INFER_LEN, dtype=np.int64)
            iw[K.IW_COUNT:K.IW_COUNT + n] = 1
            iw[K.IW_LOGW:K.IW_LOGW + n].view(np.float64)[:] = lw[pick]
            kept, _ = K.move_worlds(rules.to_vector(), np.int64(seat), np.int64(W._kernels().STAGE_PLAY),
                                    public_view(view, rules), np.int64(len(view.trick)), cons, worlds, np.int64(n),
                                    np.int64(n), np.int64(4), 1.0, eps, eps, 1.0, iw[:0], iw,
                                    np.uint64(9))
            counts = iw[K.IW_COUNT:K.IW_COUNT + kept]
            rows = worlds[:kept]
            assert counts.sum() == n and FastChecker(rules, view).check(rows).all()
            assert np.abs(_marginals(rows, counts / n) - _marginals(exact, law)).max() < 0.05
            moved_some |= bool((np.repeat(rows, counts, axis=0) != before).any())
    assert moved_some
