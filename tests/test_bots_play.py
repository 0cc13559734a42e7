"""The ``greedy`` and ``heuristic`` bots in play.

* What a bot is handed: at every decision of a kernel deal (traced), the kernel passes the bot
  exactly the inputs :class:`tarotsim.adapters.FastBotAdapter` builds from that seat's
  :class:`SeatView` (own hand, legal choices, public view) -- nothing else of the deal.
* Hidden cards: two deals that differ only in cards the seat cannot see give it the same view,
  the same inputs and the same decision, for every kind of decision.
* Fast path = slow path: ``simulate.records`` equals ``play_game`` with the adapters.
* Legality and the laws of a deal (zero sum, 182 half-points) with these bots; a few positions a
  club player would recognise; statistics on fixed seeds.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers_deals import MIXES, adapter_for, hidden_twins, walk_traced
from helpers_records import check_record
from tarotsim import record, rng
from tarotsim.runs import simulate
from tarotsim.adapters import FastBotAdapter
from tarotsim.engine import Game, play_game
from tarotsim.rules import BOT_DECISIONS, CONTRACTS, Rules

TABLES = ("3", "4", "5", "5d")


def _bots(table, mix):
    return MIXES[mix](Rules(table=table).n_seats)


# ---------------------------------------------------------------------------------------------
# what the kernels hand a bot == what the adapter builds from the seat's view (helpers_deals.walk_traced)

@pytest.mark.parametrize("mix", list(MIXES))
@pytest.mark.parametrize("table", TABLES)
def test_kernel_hands_a_bot_exactly_its_view(table, mix):
    r = Rules.from_options(table, {"misere": True} if mix == "mixed" else {})
    bots = _bots(table, mix)
    n_checked = 0
    for index in range(20):
        forced = (1, CONTRACTS[index % 4]) if index % 3 == 2 and not (table == "5d" and index % 5 == 1) else None
        for _ in walk_traced(r, 31, index, bots, forced):
            n_checked += 1
    assert n_checked > 100


# ---------------------------------------------------------------------------------------------
# hidden cards never change a decision (helpers_deals.swap_hidden)

KINDS = BOT_DECISIONS


@pytest.mark.parametrize("name", ["heuristic", "greedy"])
def test_hidden_cards_never_change_a_decision(name):
    rnd = random.Random(5)
    bot = FastBotAdapter(name)
    seen = {k: 0 for k in KINDS}
    for table in TABLES:
        r = Rules.from_options(table, {"misere": True})
        for index in range(14):
            forced = (1, CONTRACTS[index % 4]) if index % 2 and not (table == "5d" and index % 5 == 1) else None
            for tw in hidden_twins(r, index, forced, lambda seat, view, legal, stream: bot.choose(view, legal, stream),
                                   lambda d, legal: d.kind != "card" or rnd.random() < 0.25, rnd):
                d = tw.decision
                assert tw.twin.hand(d.seat) == tw.game.hand(d.seat)
                legal2 = tw.twin.legal_actions()
                assert legal2 == tw.legal
                view2 = tw.twin.view(d.seat)
                assert bot.choose(view2, legal2, rng.Rng(0)) == tw.choice, (table, index, d)
                i1, i2 = bot.kernel_inputs(tw.view, tw.legal), bot.kernel_inputs(view2, legal2)
                assert i1[:4] == i2[:4] and np.array_equal(i1[4], i2[4])
                seen[d.kind.split("_")[0]] += 1
    assert all(seen[k] > 0 for k in KINDS if k != "misere"), seen


# ---------------------------------------------------------------------------------------------
# fast path == slow path (whole records)

@pytest.mark.parametrize("mix", list(MIXES))
@pytest.mark.parametrize("table", TABLES)
def test_slow_path_adapter_plays_the_kernel_deal(table, mix):
    r = Rules(table=table)
    bots = _bots(table, mix)
    indices = range(100, 125)
    fast = simulate.records(r, 77, indices, bots=bots)
    for i, rec in zip(indices, fast):
        g = play_game(Game(r, 77, i), [adapter_for(b) for b in bots])
        assert g.record() == rec


def test_adapter_takes_parameters():
    a = FastBotAdapter("heuristic", {"garde": 30})
    assert a.params[1] == 30 and "garde" in repr(a)
    b = FastBotAdapter("heuristic", a.params[:2])
    assert np.array_equal(a.params, b.params)
    r = Rules(table="4")
    bots = [("heuristic", a.params), "greedy", ("greedy", {"prise": 6}), "heuristic"]
    fast = simulate.records(r, 3, range(10), bots=bots)
    adapters = [FastBotAdapter("heuristic", a.params), FastBotAdapter("greedy"),
                FastBotAdapter("greedy", {"prise": 6}), FastBotAdapter("heuristic")]
    for i, rec in enumerate(fast):
        assert play_game(Game(r, 3, i), adapters).record() == rec


# ---------------------------------------------------------------------------------------------
# legality and the laws of a deal

@pytest.mark.parametrize("table", TABLES)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), index=st.integers(min_value=0, max_value=2**40),
       mix=st.sampled_from(sorted(MIXES)))
@settings(max_examples=25)
def test_bot_deals_obey_the_rules(table, seed, index, mix):
    r = Rules(table=table)
    rec = simulate.records(r, seed, [index], bots=_bots(table, mix))[0]
    check_record(rec, r)   # 78 cards, legal plays, 182 half-points, zero sum (independent checks)
    record.verify(rec)     # and the reference engine agrees


@pytest.mark.parametrize("table", TABLES)
def test_bot_deals_verify_with_options_and_forced_contracts(table):
    r = Rules.from_options(table, {"misere": True, "called_suit_after_excuse": "restricted"})
    for name in ("heuristic", "greedy"):
        for c in CONTRACTS:
            idx = [i for i in range(12) if not (table == "5d" and i % 5 == 2)]
            for rec in simulate.records(r, 8, idx, bots=name, forced=(2, c)):
                check_record(rec, r)
                record.verify(rec)


@pytest.mark.parametrize("table", TABLES)
def test_facts_laws_with_bots(table):
    r = Rules(table=table)
    for name in ("heuristic", "greedy"):
        f = simulate.facts(r, 12, 0, 3000, bots=name)
        assert (f["scores"].sum(axis=1) == 0).all()
        played = f[f["outcome"] == 0]
        assert len(played) > 0
        assert ((played["attack_half_points"] >= 0) & (played["attack_half_points"] <= 182)).all()


# ---------------------------------------------------------------------------------------------
# behaviour

def _records(table, n, bots, seed=4):
    return simulate.records(Rules(table=table), seed, range(n), bots=bots)


def test_greedy_never_announces_a_chelem_or_a_misere_and_shows_simple_poignees():
    r = Rules.from_options("5", {"misere": True})
    recs = simulate.records(r, 6, range(400), bots="greedy")
    kinds = [d for rec in recs for d in rec["declarations"]]
    assert kinds and all(d["kind"] == "poignee" and d["level"] == "simple" for d in kinds)


def test_excuse_never_lost_in_the_last_trick_unless_a_slam_is_on():
    for table in ("3", "4", "5"):
        for rec in _records(table, 300, "heuristic"):
            if not rec["tricks"]:
                continue
            last = rec["tricks"][-1]
            if "EX" in last["cards"]:
                # only led to the last trick by a side that won every trick (R-EXC-4)
                assert last["cards"][0] == "EX", rec["index"]


def test_ecart_keeps_kings_and_makes_voids():
    voids = n = 0
    for rec in _records("4", 400, "heuristic"):
        if rec["contract"] not in ("prise", "garde"):
            continue
        n += 1
        hand = set(rec["hands"][rec["taker"]]) | set(rec["chien"])
        kept = hand - set(rec["ecart"])
        suits = {c[-1] for c in kept if not c.startswith(("T", "EX"))}
        voids += len(suits) < 4
        assert not any(c.startswith("K") for c in rec["ecart"])
    assert n > 50 and voids / n > 0.5


def _trick1(table, hands, forced, plays, dealer):
    """A hand-entered deal at trick 1: ``plays`` (card names) made, poignées declined; returns
    the game with the next seat to decide on its card."""
    from tarotsim.reference.positions import complete_hands
    r = Rules(table=table)
    hs, chien = complete_hands(r, dealer, hands)
    g = Game(r, hands=hs, chien=chien, dealer=dealer, forced=forced)
    while g.decision.kind != "card" or plays:
        if g.decision.kind == "card":
            g.play(plays.pop(0))
        else:
            g.apply(None if g.decision.kind == "poignee" else False)
    return g


def _decide(g, name="heuristic"):
    d = g.decision
    return FastBotAdapter(name).choose(g.view(d.seat), g.legal_actions(), rng.Rng(0))


def test_heuristic_smears_on_a_partners_trick_won_for_sure():
    # seat 0 takes (garde sans) and leads 2H; seat 1 trumps with the 21; seat 2 follows low;
    # seat 3, last, holds KH and 5H: the King goes on his partner's trick
    g = _trick1("4", {0: ["2H", "3H"], 1: ["T21", "T2", "1S"], 2: ["4H"], 3: ["KH", "5H"]},
                (0, "garde_sans"), ["2H", "T21", "4H"], dealer=3)
    assert str(_decide(g)) == "KH"
    # with the taker winning instead, seat 3 plays low
    g = _trick1("4", {0: ["QH", "3H"], 1: ["1H"], 2: ["4H"], 3: ["KH", "5H"]},
                (0, "garde_sans"), ["QH", "1H", "4H"], dealer=3)
    # the taker's Queen is led: the King, last to play, takes it (the trick and the Queen)
    assert str(_decide(g)) == "KH"
    g = _trick1("4", {0: ["2H", "3H"], 1: ["6H"], 2: ["4H"], 3: ["QH", "5H"]},
                (1, "garde_sans"), [], dealer=3)
    assert g.decision.seat == 0


def test_heuristic_saves_the_petit_under_a_partners_21():
    # the taker (seat 0) leads 2H; seat 1 (defence) trumps with the 21; seat 2, void in hearts,
    # must trump and cannot overtrump: he slips the Petit under his partner's 21
    spades = [f"{r}S" for r in list(range(1, 11)) + ["J", "N", "Q", "K"]]
    clubs = [f"{r}C" for r in list(range(1, 11)) + ["J", "N", "Q", "K"]]
    g = _trick1("4", {0: ["2H"], 1: ["T21", "1D", "2D", "3D"] + spades, 2: ["T1", "T5", "T9", "4D"] + clubs},
                (0, "garde_sans"), ["2H", "T21"], dealer=3)
    assert str(_decide(g)) == "T1"
    assert str(_decide(g, "greedy")) == "T5"


def test_bidding_follows_the_hand():
    from tarotsim.reference.positions import complete_hands
    r = Rules(table="4")
    strong = ["T21", "EX", "T1", "T20", "T19", "T18", "T17", "T16", "T12", "T10", "KS", "KH", "QH"]
    weak = ["T2", "T3", "1S", "2S", "3S", "4S", "5H", "6H", "7H", "1D", "2D", "3D", "4D", "1C", "2C", "3C"]
    for hand, ok in ((strong, {"garde", "garde_sans", "garde_contre"}), (weak, {"pass"})):
        hs, chien = complete_hands(r, 3, {0: hand})
        g = Game(r, hands=hs, chien=chien, dealer=3)
        assert _decide(g) in ok
        assert _decide(g, "greedy") in ok


# ---------------------------------------------------------------------------------------------
# statistics on fixed seeds

@pytest.mark.slow
def test_heuristic_takes_sensibly_and_makes_its_contracts():
    r = Rules(table="4")
    n = 20000
    h = simulate.facts(r, 2024, 0, n, bots="heuristic", threads=2)
    rnd = simulate.facts(r, 2024, 0, n, bots="random", threads=2)
    hp, rp = h[h["outcome"] == 0], rnd[rnd["outcome"] == 0]
    assert hp["made"].mean() > 0.6 > 0.2 > rp["made"].mean()
    sm = simulate.aggregate(r, 2024, 0, n, bots="heuristic", threads=2)
    taken = sm.taken
    total = sum(taken.values())
    assert 0.25 < sm.played / n < 0.8
    assert taken["prise"] > 0.1 * total and taken["garde"] > 0.3 * total
    assert taken["garde_contre"] < 0.05 * total and taken["garde_sans"] < 0.1 * total
    assert sm.made_rate["garde"] > 0.6 and sm.made_rate["prise"] > 0.45


@pytest.mark.slow
@pytest.mark.parametrize("table", ["3", "4", "5"])
def test_heuristic_beats_greedy_beats_random(table):
    """Rotated matches on the same deals: one bot at one seat, the other bot at the others."""
    r = Rules(table=table)
    n = r.n_seats

    def mean_score(a, b, deals=3000):
        tot = 0.0
        for seat in range(n):
            bots = [b] * n
            bots[seat] = a
            tot += simulate.facts(r, 99, 0, deals, bots=bots)["scores"][:, seat].mean()
        return tot / n

    assert mean_score("greedy", "random") > 50
    assert mean_score("heuristic", "greedy") > 3
    assert mean_score("greedy", "heuristic") < -3
