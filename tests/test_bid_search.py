"""The bid search (``pimc:bid_search=1``, ``bots/bid_search.py``): bid, call, écart, poignée and
chelem chosen by playing every choice out over sampled deals.

* Its deals obey the rules at tables 3, 4, 5 and 5d and the reference engine replays them; its
  bids are legal (R-BID-2) and its écarts lay no king and no oudler (R-CHIEN-2).
* Fast path = slow path: ``simulate.records`` equals ``play_game`` with ``FastBotAdapter``.
* It uses only what the seat saw: hidden cards exchanged never change a decision.
* Threads and chunking never change the results.
* A slow Python twin (the reference engine and the heuristic's adapters over the same worlds)
  finds the same total score for every choice of a bid, a call and an écart.
* A sure hand takes at least a garde, a hopeless one passes; the écart it lays is never worse
  than the heuristic's by its own estimate.

Small budgets everywhere: the kernels are the same, and the suite stays fast.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from helpers_deals import hidden_twins
from helpers_records import check_record
from bots import BOT_KINDS, REGISTRY, BotError, parse_bots
from bots.bid_search import needs_bid_search
from tarotsim import record, rng
from tarotsim.runs import simulate
from tarotsim._builds import bid_search as S
from tarotsim._builds import runs
from tarotsim._kernels import layout as L
from tarotsim._kernels import worlds as W
from tarotsim._kernels._rng import next_u64
from tarotsim._kernels.workspace import TR_BID, TR_ECART
from tarotsim.adapters import FastBotAdapter, public_view
from tarotsim.cards import DECK, masks_of, parse_cards
from tarotsim.engine import Game, play_game
from tarotsim.rules import CONTRACTS, Rules
from tarotsim.worlds import knowledge

TABLES = ("3", "4", "5", "5d")
SEARCH = "pimc:worlds=2,bid_search=1,bid_worlds=3,ecart_worlds=3,ecart_candidates=4"


def _mix(table, search=SEARCH):
    """The search at seats 0 and 2, plain pimc, the heuristic, greedy and random elsewhere."""
    n = Rules(table=table).n_seats
    return [search, "heuristic", search, "random", "pimc:worlds=2"][:n]


def _adapters(rules, bots):
    """The seats' bots on the slow path, each told every seat's bot (the search's own bidders)."""
    kinds, params, _ = simulate.bot_setup(rules, bots)
    names = {code: name for name, code in BOT_KINDS.items()}
    return [FastBotAdapter(names[int(kinds[s])], params[s], seats=(kinds, params)) for s in range(rules.n_seats)]


def test_bid_search_is_a_pimc_parameter_off_by_default():
    spec = REGISTRY["pimc"]
    names = [p.name for p in spec.params]
    assert names[-10:-6] == ["bid_search", "bid_worlds", "ecart_worlds", "ecart_candidates"]
    assert spec.values(spec.vector())["bid_search"] is False
    v = parse_bots("pimc:bid_search=1,bid_worlds=64", 4)[0][1]
    assert spec.values(v)["bid_search"] is True and spec.values(v)["bid_worlds"] == 64
    for bad, why in (("bid_worlds=0", "1..4096"), ("ecart_worlds=5000", "1..4096"), ("ecart_candidates=17", "1..16"),
                     ("bid_search=2", "true or false")):
        with pytest.raises(BotError, match=why):
            parse_bots(f"pimc:{bad}", 4)


@pytest.mark.parametrize("table", TABLES)
def test_bid_search_deals_obey_the_rules_and_verify(table):
    """R-BID-2 (every bid above the one before), R-CHIEN-2 (no king, no oudler in an écart), and
    every other law of a record; the reference engine replays every deal to the same scores."""
    r = Rules.from_options(table, {"misere": True})
    recs = simulate.records(r, 3, range(16), bots=_mix(table))
    for c in ("prise", "garde"):
        if table != "5d":  # the dealer may be the dummy: forced deals are checked at 3, 4, 5
            recs += simulate.records(r, 4, range(3), bots=_mix(table), forced=(0, c))
    n = searched = 0
    for rec in recs:
        check_record(rec, r)
        record.verify(rec)
        highest = -1
        for b in [CONTRACTS.index(b) if b != "pass" else -1 for _, b in rec["bids"]]:
            assert b == -1 or b > highest  # R-BID-2
            highest = max(highest, b)
        assert not any(c.startswith("K") or c in ("T1", "T21", "EX") for c in rec["ecart"])  # R-CHIEN-2
        n += rec["outcome"] == "played"
        searched += rec["taker"] in (0, 2)
    assert n >= 8 and searched >= 3


@pytest.mark.parametrize("table", TABLES)
def test_fast_path_equals_slow_path_record_for_record(table):
    r = Rules(table=table)
    bots = _mix(table)
    fast = simulate.records(r, 77, range(100, 106), bots=bots)
    for i, rec in zip(range(100, 106), fast):
        assert play_game(Game(r, 77, i), _adapters(r, bots)).record() == rec, (table, i)


def test_same_results_for_any_thread_count_and_chunk_size():
    """Facts, aggregates and logs of one run agree, whatever the threads and chunks (the build's
    facts and aggregates are read from its logs)."""
    r = Rules(table="5")
    bots = _mix("5")
    n = 24
    a = simulate.facts(r, 3, 0, n, bots=bots, threads=1)
    b = simulate.facts(r, 3, 0, n, bots=bots, threads=2, chunk_size=5)
    assert np.array_equal(a, b)
    assert (a["outcome"] == 0).sum() > n // 2
    total, *_ = simulate.totals(r, 3, 0, n, bots=bots, threads=2, chunk_size=7)
    assert np.array_equal(total, simulate.accumulate(a, r))
    recs = simulate.records(r, 3, range(n), bots=bots)
    assert [rec["scores"] for rec in recs] == a["scores"][:, :r.n_seats].tolist()


#: the decisions the bid search makes
SEARCHED = ("bid", "call", "ecart", "chelem", "poignee")


def test_hidden_cards_never_change_a_search_decision():
    """Two deals the seat cannot tell apart (two cards it cannot see exchanged, the same public
    actions) give it the same view and the same choice from the same bots-stream state, for bids,
    calls, écarts, chelems and poignées alike."""
    rnd = random.Random(11)
    seen: dict = {}
    for table in ("4", "5", "3"):
        r = Rules(table=table)
        bots = _mix(table)
        for index in range(6):
            forced = (2, ("prise", "garde")[index % 2]) if index % 3 == 2 else None
            adapters = _adapters(r, bots)
            for tw in hidden_twins(r, index, forced,
                                   lambda seat, view, legal, stream, a=adapters: a[seat].choose(view, legal, stream),
                                   lambda d, legal: d.seat in (0, 2) and d.kind in SEARCHED, rnd):
                d = tw.decision
                s2 = rng.Rng(tw.state)
                assert adapters[d.seat].choose(tw.twin.view(d.seat), tw.twin.legal_actions(), s2) == tw.choice, (table, index, d)
                assert s2.state == tw.after
                seen[d.kind] = seen.get(d.kind, 0) + 1
    assert seen.get("bid", 0) >= 10 and seen.get("ecart", 0) >= 2 and seen.get("chelem", 0) >= 2, seen


# ---------------------------------------------------------------------------------------------
# single decisions, on the compiled calls


def _search_params(rules, **over):
    """Every seat heuristic but seat 0, a searching pimc bot with ``over``."""
    bots = ["pimc:" + ",".join(f"{k}={v}" for k, v in {"bid_search": 1, **over}.items())] + \
        ["heuristic"] * (rules.n_seats - 1)
    kinds, params, _ = simulate.bot_setup(rules, bots)
    return kinds, params


def _decide(what, rules, kinds, params, seat, ht, hs, pub, args, st, scratch):
    """``decide_search`` (the one compiled call of the searches): ``(choice, écart suit word, out)``."""
    out = np.zeros(L.MAX_ECART, dtype=np.int64)
    args = np.array(list(args) + [0] * (3 - len(args)), dtype=np.int64)
    choice, extra, _ = S.decide_search(np.int64(what), rules.to_vector(), kinds, params, np.int64(seat), np.int64(ht),
                                       np.int64(hs), pub, args, np.zeros(0, dtype=np.int64), out, np.uint64(st),
                                       scratch)
    return choice, extra, out


def _bid(rules, hand, seat=0, dealer=None, bids=(), st=7, **over):
    """The search's bid for ``hand`` at ``seat`` after ``bids`` (``[(seat, contract name)]``)."""
    kinds, params = _search_params(rules, **over)
    dealer = (seat - 1) % rules.n_seats if dealer is None else dealer
    pub = np.zeros(L.PUB_LEN, dtype=np.int64)
    pub[L.PUB_DEALER] = dealer
    pub[L.PUB_DUMMY] = dealer if rules.table == "5d" else -1
    pub[L.PUB_TAKER] = pub[L.PUB_CONTRACT] = pub[L.PUB_CALLED] = -1
    pub[L.PUB_BIDS:L.PUB_BIDS + L.MAX_SEATS] = -2
    highest = -1
    for s, b in bids:
        k = -1 if b == "pass" else CONTRACTS.index(b)
        pub[L.PUB_BIDS + s] = k
        highest = max(highest, k)
    pub[L.PUB_HIGHEST] = highest
    ht, hs = masks_of(parse_cards(hand))
    scratch = S.new_scratch()
    b, _, _ = _decide(TR_BID, rules, kinds, params, seat, ht, hs, pub, [highest], st, scratch)
    return int(b), S.totals(scratch, 4 - highest)


SURE = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T1 EX KS KH KD KC"
HOPELESS = "T2 T3 1S 2S 3S 4S 5S 1H 2H 3H 4H 1D 2D 3D 4D 1C 2C 3C"


@pytest.mark.slow  # a statistical check: the worlds drawn decide it
def test_a_sure_hand_takes_at_least_a_garde_and_a_hopeless_one_passes():
    r = Rules(table="4")
    for st in (1, 2, 3):
        bid, totals = _bid(r, SURE, st=st, bid_worlds=16)
        assert bid >= CONTRACTS.index("garde"), totals
        bid, totals = _bid(r, HOPELESS, st=st, bid_worlds=16)
        assert bid == -1, totals  # passing: 0, or a defender's score when another seat takes


def test_the_bid_is_never_below_the_current_one():
    """R-BID-2: pass, or a contract strictly above the highest bid so far, whatever the hand."""
    r = Rules(table="4")
    rnd = random.Random(3)
    deck = [str(c) for c in DECK]
    for k in range(24):
        hand = " ".join(rnd.sample(deck, 18))
        before = [(0, "pass"), (1, CONTRACTS[k % 4]), (2, "pass")][:k % 3 + 1]
        highest = max([-1] + [CONTRACTS.index(b) for _, b in before if b != "pass"])
        bid, totals = _bid(r, SURE if k % 5 == 0 else hand, seat=len(before), dealer=3, bids=before, st=k,
                           bid_worlds=2)
        assert bid == -1 or bid > highest
        assert len(totals) == 4 - highest


# ---------------------------------------------------------------------------------------------
# the slow twin: the same worlds, played out on the reference engine with the heuristic's adapters


def _twin_worlds(rules, view, n, st):
    """The worlds the search draws at ``view`` (``tarotsim.worlds.knowledge``, the sampler) and
    each world's rollout stream."""
    cons = np.zeros(W.C_LEN, dtype=np.int64)
    wf, wi = W.new_workspace()
    assert W.derive(rules.to_vector(), knowledge(view, rules), cons) == W.OK
    out = np.zeros((n, 78), dtype=np.int8)
    status, st = W.sample_worlds(cons, np.uint64(st), out, wf, wi)
    assert status == W.OK
    streams = []
    for _ in range(n):
        r, st = next_u64(np.uint64(st))
        streams.append(int(r))
    return out, streams


def _world_deal(rules, row, seat=None, chien=None):
    """Hands (per seat) and chien of a world; with ``seat`` (the taker at his écart), his dealt
    hand is his cards in the world but the shown ``chien``."""
    hands = [[DECK[c] for c in range(78) if row[c] == s] for s in range(rules.n_seats)]
    pile = [DECK[c] for c in range(78) if row[c] == W.LOC_PILE]
    if seat is not None:
        hands[seat] = [c for c in hands[seat] if c not in chien]
        pile = list(chien)
    return hands, pile


def _play_twin(rules, game, rollout_stream, bidders, seat):
    """Finish ``game``: the rest of the auction by ``bidders`` (adapters), everything else by the
    heuristic with its defaults (the rollout policy); the seat's score."""
    rollout = FastBotAdapter("heuristic")
    stream = rng.Rng(rollout_stream)
    while (d := game.decision) is not None:
        bot = bidders[d.seat] if d.kind == "bid" else rollout
        game.apply(bot.choose(game.view(d.seat), game.legal_actions(), stream))
    rec = game.record()
    return rec["scores"][seat]


@pytest.mark.parametrize("table", ["4", "5"])
def test_bid_totals_agree_with_a_slow_twin(table):
    r = Rules(table=table)
    bots = ["pimc:bid_search=1,bid_worlds=5"] + ["heuristic", "greedy", "heuristic", "greedy"][:r.n_seats - 1]
    kinds, params, _ = simulate.bot_setup(r, bots)
    bidders = [FastBotAdapter("heuristic"), FastBotAdapter("heuristic"), FastBotAdapter("greedy"),
               FastBotAdapter("heuristic"), FastBotAdapter("greedy")]
    checked = 0
    for index in range(4):
        game = Game(r, 21, index)
        while game.decision.seat != 0:  # the seats before seat 0 bid with their own bots
            d = game.decision
            game.apply(bidders[d.seat].choose(game.view(d.seat), game.legal_actions(), rng.Rng(0)))
        view = game.view(0)
        pub = public_view(view, r)
        ht, hs = masks_of(view.hand)
        highest = int(pub[L.PUB_HIGHEST])
        scratch = S.new_scratch()
        st = 1000 + index
        _decide(TR_BID, r, kinds, params, 0, ht, hs, pub, [highest], st, scratch)
        kernel = S.totals(scratch, 4 - highest)
        worlds, streams = _twin_worlds(r, view, 5, st)
        twin = [0] * (4 - highest)
        for row, stream in zip(worlds, streams):
            hands, chien = _world_deal(r, row)
            for i in range(4 - highest):
                g = Game(r, hands=hands, chien=chien, dealer=view.dealer)
                for _, b in view.bids:
                    g.apply(b)
                g.apply("pass" if i == 0 else CONTRACTS[highest + i])
                twin[i] += _play_twin(r, g, stream, bidders, 0)  # 0 when every seat passed (R-BID-3)
        assert kernel.tolist() == twin, (table, index)
        checked += 1
    assert checked == 4


def _ecart_position(rules, seed, index, contract="garde"):
    """A deal forced on seat 0 at ``contract``, at the écart (the heuristic before it)."""
    game = Game(rules, seed, index, forced=(0, contract))
    h = FastBotAdapter("heuristic")
    while game.decision.kind != "ecart":
        d = game.decision
        game.apply(h.choose(game.view(d.seat), game.legal_actions(), rng.Rng(0)))
    return game


def _ecart(rules, game, st, **over):
    kinds, params = _search_params(rules, **over)
    view, legal = game.view(0), game.legal_actions()
    pub = public_view(view, rules)
    ht, hs = masks_of(view.hand)
    normal, trumps = masks_of(legal.normal)[1], masks_of(legal.trumps)[0]
    scratch = S.new_scratch()
    _, _, out = _decide(TR_ECART, rules, kinds, params, 0, ht, hs, pub, [normal, trumps, legal.size], st, scratch)
    return view, legal, out[:legal.size], scratch


@pytest.mark.parametrize("table", ["4", "5"])
def test_ecart_totals_agree_with_a_slow_twin(table):
    r = Rules(table=table)
    checked = 0
    for index in range(6):
        game = _ecart_position(r, 5, index)
        n_max = 4
        view, legal, out, scratch = _ecart(r, game, 50 + index, ecart_worlds=4, ecart_candidates=n_max)
        if len(legal.normal) <= legal.size:
            continue  # R-CHIEN-2 leaves no choice of suit cards: no search
        choices = S.choices(scratch, n_max)
        n = next((i for i in range(1, n_max) if choices[i] == 0), n_max)
        kernel = S.totals(scratch, n)
        worlds, streams = _twin_worlds(r, view, 4, 50 + index)
        twin = [0] * n
        for row, stream in zip(worlds, streams):
            hands, chien = _world_deal(r, row, seat=0, chien=view.chien)
            for i in range(n):
                g = Game(r, hands=hands, chien=chien, dealer=view.dealer, forced=(0, "garde"))
                h = FastBotAdapter("heuristic")
                while g.decision.kind != "ecart":
                    d = g.decision
                    g.apply(h.choose(g.view(d.seat), g.legal_actions(), rng.Rng(0)))
                g.apply([DECK[22 + b] for b in range(56) if (int(choices[i]) >> b) & 1])
                twin[i] += _play_twin(r, g, stream, None, 0)
        assert kernel.tolist() == twin, (table, index)
        checked += 1
    assert checked >= 3


# ---------------------------------------------------------------------------------------------
# the écart


def test_ecart_search_lays_no_king_no_oudler_and_is_never_worse_than_the_heuristics():
    """R-CHIEN-2; the heuristic's écart is the shortlist's first and the one laid scores at
    least as much over the worlds; every écart of the shortlist is as many distinct cards of the
    hand as the chien held, none a king, a trump or the Excuse."""
    r = Rules(table="4")
    searched = 0
    for index in range(12):
        game = _ecart_position(r, 8, index, ("prise", "garde")[index % 2])
        view, legal, out, scratch = _ecart(r, game, index, ecart_worlds=4, ecart_candidates=8)
        laid = [DECK[int(c)] for c in out]
        assert len(set(laid)) == legal.size and set(laid) <= set(view.hand)
        assert not any(c.rank == 14 or c.is_trump or c.is_excuse for c in laid)  # R-CHIEN-2
        heuristic = FastBotAdapter("heuristic").choose(view, legal, rng.Rng(0))
        if len(legal.normal) <= legal.size:
            assert laid == heuristic
            continue
        choices = S.choices(scratch, 8)
        n = next((i for i in range(1, 8) if choices[i] == 0), 8)
        assert choices[0] == masks_of(heuristic)[1]
        normal = masks_of(legal.normal)[1]
        for es in choices[:n]:
            assert int(es) & ~normal == 0 and bin(int(es)).count("1") == legal.size
        assert len(set(choices[:n].tolist())) == n
        totals = S.totals(scratch, n)
        best = totals[choices[:n].tolist().index(masks_of(laid)[1])]
        assert best == totals.max() >= totals[0]
        searched += n > 1
    assert searched >= 6


def test_table_2_decides_as_the_heuristic():
    """R-VAR-TWO: the search is off at table 2. A run there takes a pimc build (the bid-search
    builds play every other table), and the slow path decides as plain pimc. (``bid_search``
    given at table 2 is refused, as a parameter that does nothing; a parameter vector, which
    the registry takes as it is, still reaches the kernels, and they ignore it there.)"""
    r = Rules(table="2")
    with pytest.raises(BotError, match="bid_search does nothing at table 2"):
        simulate.bot_setup(r, ["pimc:worlds=2,bid_search=1", "heuristic"])
    bots = [("pimc", REGISTRY["pimc"].vector(worlds=2, bid_search=1)), "heuristic"]
    kinds, params, _ = simulate.bot_setup(r, bots)
    assert needs_bid_search(kinds, params) and not needs_bid_search(kinds, params, r.to_vector())
    from tarotsim._builds import pimc as P
    assert runs.build(kinds, params, r.to_vector()) == "pimc"
    assert runs._pimc(kinds, params, r.to_vector()) is P.BUILDS["pimc"]
    four = Rules(table="4")
    kinds4, params4, _ = simulate.bot_setup(four, bots + ["heuristic", "heuristic"])
    assert runs._pimc(kinds4, params4, four.to_vector()) is S.BUILDS["bid_search"]
    assert runs.build(kinds4, params4) == "bid_search"
    full = simulate.bot_setup(four, ["pimc:bid_search=1,infer=1", "pimc:exact_from=2"] + ["heuristic"] * 2)
    assert runs.build(*full[:2]) == "bid_search_full"
    assert runs.first_kernel(kinds4, params4, "facts", four.to_vector())[0] is S.run_logs_bid_search
    game = Game(r, 5, 0)
    adapter = _adapters(r, bots)[0]
    assert not adapter._searches(game.view(0)) and adapter._searches(Game(four, 5, 0).view(0))
