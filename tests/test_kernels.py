"""The numba kernels: bit helpers, splitmix64/shuffle/deal against tarotsim.rng, and the laws
every kernel deal must obey, checked from its record by small independent checks (RULES ids).

The checks below are written from RULES.md on plain lists; they share no code with the kernels
or with the reference engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim import rng, simulate
from tarotsim._kernels import _bits, _rng
from tarotsim.cards import Card
from tarotsim.rules import CONTRACTS, POIGNEE_LEVELS, Rules
from tarotsim.scoring import DealFacts, score

TABLES = ("3", "4", "5", "5d")
seeds = st.integers(min_value=0, max_value=2**64 - 1)
indices = st.integers(min_value=0, max_value=2**40)


# ---------------------------------------------------------------------------------------------
# bits and randomness

@given(st.integers(min_value=0, max_value=2**62 - 1), st.data())
@settings(max_examples=60)
def test_bit_helpers(mask, data):
    k = data.draw(st.integers(min_value=0, max_value=max(0, bin(mask).count("1") - 1)))
    pc, tz, sel, sel_loop, kth, kth_loop, sel_pdep = _bits.bits_py(mask, k)
    assert pc == bin(mask).count("1")
    if mask == 0:
        assert tz == 64
        return
    ones = [i for i in range(63) if mask >> i & 1]
    assert tz == ones[0]
    assert sel == sel_loop == ones[k]
    assert kth == kth_loop == 1 << ones[k]
    if _bits.HAS_PDEP:
        assert sel_pdep == ones[k]


@given(seeds, indices, st.integers(min_value=0, max_value=3))
def test_stream_state_matches_rng(seed, index, stream):
    got = _rng.stream_state_py(np.uint64(seed), np.uint64(index), np.uint64(stream))
    assert int(got) == rng.stream_state(seed, index, stream)


@given(seeds, indices)
@settings(max_examples=30)
def test_below_draws_match_rng(seed, index):
    ns = np.array([1, 2, 3, 5, 7, 22, 78, 2**31 - 1, 10**9, 6], dtype=np.int64)
    out = np.zeros(len(ns), dtype=np.int64)
    st0 = rng.stream_state(seed, index, rng.STREAM_BOTS)
    end = _rng.draws_py(np.uint64(st0), ns, out)
    r = rng.Rng(st0)
    assert out.tolist() == [r.below(int(n)) for n in ns]
    assert int(end) == r.state


@given(seeds, indices)
@settings(max_examples=30)
def test_shuffle_matches_rng(seed, index):
    a = np.zeros(78, dtype=np.int64)
    _rng.shuffle_into(np.uint64(rng.stream_state(seed, index, rng.STREAM_CARDS)), a)
    assert a.tolist() == rng.shuffled_deck(seed, index)


@pytest.mark.parametrize("table", TABLES)
@given(seed=seeds, index=indices)
@settings(max_examples=15)
def test_kernel_deal_matches_rng(table, seed, index):
    r = Rules(table=table)
    dealer, hands, chien = rng.deal(r, seed, index)
    rec = simulate.records(r, seed, [index])[0]
    assert rec["dealer"] == dealer
    assert rec["hands"] == [[str(Card(c)) for c in h] for h in hands]
    assert rec["chien"] == [str(Card(c)) for c in chien]


# ---------------------------------------------------------------------------------------------
# independent checks of a record (RULES.md, plain lists)

HAND = {"3": 24, "4": 18, "5": 15, "5d": 18}
CHIEN = {"3": 6, "4": 6, "5": 3, "5d": 6}


def _c(name):
    return Card.parse(name)


def _is_trump(c):
    return c.is_trump


def _legal(hand, trick, first_trick, called, restricted):
    """R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-EXC-1, R-CALL-4 from the text."""
    led = next((c for c in trick if not c.is_excuse), None)
    if led is None:
        bound = first_trick and called is not None and (not trick or restricted)
        if bound and any(c.suit != called.suit for c in hand):
            return {c for c in hand if c.suit != called.suit or c == called}
        return set(hand)
    excuse = {c for c in hand if c.is_excuse}
    trumps = [c for c in hand if _is_trump(c)]
    top = max((c.rank for c in trick if _is_trump(c)), default=0)
    if not _is_trump(led):
        same = {c for c in hand if c.suit == led.suit}
        if same:
            return same | excuse
    if trumps:
        higher = {c for c in trumps if c.rank > top}
        return (higher or set(trumps)) | excuse
    return set(hand)


def _winner(cards, seats, excuse_wins):
    if excuse_wins:
        return seats[0]
    trumps = [(c.rank, s) for c, s in zip(cards, seats) if _is_trump(c)]
    if trumps:
        return max(trumps)[1]
    led = next(c for c in cards if not c.is_excuse)
    return max((c.rank, s) for c, s in zip(cards, seats) if c.suit == led.suit)[1]


def check_record(rec, rules):
    """Assert every law a record must obey; returns the attack half-points recomputed."""
    n = rules.n_seats
    dealer = rec["dealer"]
    dummy = dealer if rules.table == "5d" else None
    active = [s for s in [(dealer + 1 + k) % n for k in range(n)] if s != dummy]
    hands = [[_c(x) for x in h] for h in rec["hands"]]
    chien = [_c(x) for x in rec["chien"]]
    # R-DEAL-1: 78 cards partitioned with the right sizes
    allc = [c for h in hands for c in h] + chien
    assert sorted(c.id for c in allc) == list(range(78))
    for s in range(n):
        assert len(hands[s]) == (0 if s == dummy else HAND[rules.table])
    assert len(chien) == CHIEN[rules.table]
    scores = rec["scores"]
    assert len(scores) == n and sum(scores) == 0  # R-GEN-5
    if dummy is not None:
        assert scores[dummy] == 0
    if rec["outcome"] == "petit_sec":  # R-DEAL-4
        s = rec["petit_sec_seat"]
        first = next(x for x in active if [c.id for c in hands[x] if c.id < 22] == [1])
        assert s == first and rec["bids"] == [] and rec["tricks"] == [] and not any(scores)
        return None
    # R-BID-2: each active seat once, in order, strictly increasing
    bids = rec["bids"]
    assert [b[0] for b in bids] == active
    best = -1
    for _, b in bids:
        if b != "pass":
            assert CONTRACTS.index(b) > best or rec.get("forced")
            best = CONTRACTS.index(b)
    if rec["outcome"] == "all_passed":
        assert best == -1 and rec["tricks"] == [] and not any(scores) and rec["result"] is None
        return None
    taker, contract = rec["taker"], rec["contract"]
    assert [taker, contract] in bids and CONTRACTS.index(contract) == best
    hand_now = {s: set(hands[s]) for s in active}
    called = _c(rec["called"]) if rec["called"] else None
    if rules.table == "5":  # R-CALL-1, R-CALL-2
        own = hands[taker]
        ranks = [14]
        for r in (13, 12, 11):
            if all(sum(1 for c in own if c.suit is not None and c.rank == q) == 4 for q in ranks):
                ranks.append(r)
            else:
                break
        assert called.suit is not None and called.rank in ranks
        holder = [s for s in active if s != taker and called in hand_now[s]]
        assert rec["partner"] == (holder[0] if holder else None)
    else:
        assert called is None and rec["partner"] is None
    partner = rec["partner"]
    attack = {taker} | ({partner} if partner is not None else set())
    ecart = [_c(x) for x in rec["ecart"]]
    if contract in ("prise", "garde"):  # R-CHIEN-1, R-CHIEN-2
        hand_now[taker] |= set(chien)
        assert len(ecart) == len(chien) and set(ecart) <= hand_now[taker]
        assert not any(c.is_oudler or (c.suit is not None and c.rank == 14) for c in ecart)
        normal = [c for c in hand_now[taker] if c.suit is not None and c.rank != 14]
        assert sum(1 for c in ecart if c.is_trump) == max(0, len(chien) - len(normal))
        hand_now[taker] -= set(ecart)
    else:
        assert ecart == []
    # declarations (R-SLAM-1, R-POIG, R-MIS)
    decl = rec["declarations"]
    chelem = any(d["kind"] == "chelem" for d in decl)
    if chelem:
        assert decl[0] == {"seat": taker, "kind": "chelem"}
    sizes = rules.poignee_sizes
    poignees = []
    miseres = []
    for d in decl:
        if d["kind"] == "poignee":
            cards = [_c(x) for x in d["cards"]]
            assert len(cards) == sizes[POIGNEE_LEVELS.index(d["level"])]
            avail = {c for c in hand_now[d["seat"]] if c.is_trump}
            if d["seat"] == taker and rules.poignee_ecart_trumps:
                avail |= {c for c in ecart if c.is_trump}
            for c in cards:
                assert c in avail or (c.is_excuse and c in hand_now[d["seat"]])
            if any(c.is_excuse for c in cards):
                assert avail <= set(cards)
            poignees.append((d["level"], "attack" if d["seat"] in attack else "defence"))
        elif d["kind"].startswith("misere"):
            assert rules.misere
            h = hand_now[d["seat"]]
            if d["kind"] == "misere_atout":
                assert not any(c.is_trump or (c.is_excuse and rules.misere_excuse_is_trump) for c in h)
            else:
                assert not any(c.suit is not None and c.rank >= 11 for c in h)
            miseres.append((d["seat"], d["kind"].split("_")[1]))
    # tricks (R-PLAY, R-CALL-4, R-EXC)
    tricks = rec["tricks"]
    assert len(tricks) == HAND[rules.table]
    leader = taker if chelem else active[0]
    piles = {"attack": [], "defence": []}
    debt = 0
    won = []
    pab = None
    for i, t in enumerate(tricks):
        assert t["leader"] == leader
        start = active.index(leader)
        seats = [active[(start + k) % len(active)] for k in range(len(active))]
        cards = [_c(x) for x in t["cards"]]
        assert len(cards) == len(active)  # R-PLAY-2
        for k, (s, c) in enumerate(zip(seats, cards)):
            allowed = _legal(hand_now[s], cards[:k], i == 0, called,
                             rules.called_suit_after_excuse == "restricted")
            assert c in allowed, (i, s, c, sorted(allowed))
            hand_now[s].remove(c)
        last = i == len(tricks) - 1
        side_of = lambda s: "attack" if s in attack else "defence"  # noqa: E731
        excuse_wins = (last and cards[0].is_excuse and all(side_of(w) == side_of(leader) for w in won)
                       and (rules.excuse_slam_lead == "either_side" or side_of(leader) == "attack"))
        w = _winner(cards, seats, excuse_wins)
        assert t["winner"] == w
        for s, c in zip(seats, cards):
            if c.is_excuse and not last:  # R-EXC-2
                piles[side_of(s)].append(c)
                if side_of(s) != side_of(w):
                    debt += 1 if side_of(w) == "attack" else -1
            else:
                piles[side_of(w)].append(c)
        won.append(w)
        if last:
            if any(c.id == 1 for c in cards):
                pab = side_of(w)
            elif excuse_wins and rules.pab_slam_penultimate and any(x == "T1" for x in tricks[-2]["cards"]):
                pab = side_of(w)
        leader = w
    assert all(not h for h in hand_now.values())
    if contract in ("prise", "garde"):
        piles["attack"] += ecart
    elif contract == "garde_sans":
        piles["attack"] += chien
    else:
        piles["defence"] += chien
    att = sum(c.half_points for c in piles["attack"]) + debt
    dfn = sum(c.half_points for c in piles["defence"]) - debt
    assert att + dfn == 182  # R-GEN-4
    oudlers = sum(1 for c in piles["attack"] if c.is_oudler)
    sides = {("attack" if w in attack else "defence") for w in won}
    chelem_out = ("announced_" if chelem else "") + "made" if sides == {"attack"} else (
        ("announced_" if chelem else "") + "defence" if sides == {"defence"} else
        ("announced_failed" if chelem else None))
    res = rec["result"]
    assert res["attack_half_points"] == att and res["oudlers"] == oudlers
    assert res["petit_au_bout"] == pab and res["chelem"] == chelem_out
    facts = DealFacts(rules=rules, contract=contract, attack_half_points=att, oudlers=oudlers, taker=taker,
                      partner=partner, dummy=dummy, petit_au_bout=pab,
                      poignees=tuple(poignees),
                      chelem=chelem_out, miseres=tuple(miseres))
    b = score(facts)
    assert list(b.scores) == scores and b.value == res["value"]
    assert b.made == res["made"] and b.difference == res["difference"]
    return att


@pytest.mark.parametrize("table", TABLES)
@given(seed=seeds, index=indices)
@settings(max_examples=40)
def test_kernel_records_obey_the_rules(table, seed, index):
    r = Rules(table=table)
    check_record(simulate.records(r, seed, [index])[0], r)


OPTION_SETS = [
    {"misere": True},
    {"misere": True, "misere_excuse_is_trump": False, "misere_value": 7},
    {"excuse_slam_lead": "attack_only", "pab_slam_penultimate": False},
    {"called_suit_after_excuse": "restricted"},
    {"poignee_ecart_trumps": False, "poignee_to": "declarer_side"},
    {"petit_sec": "off", "pab_multiplied": False, "defence_slam_bonus": 0},
]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(o))
@pytest.mark.parametrize("table", TABLES)
def test_kernel_records_obey_the_rules_with_options(table, opts):
    r = Rules.from_options(table, opts)
    for rec in simulate.records(r, 2024, range(60)):
        check_record(rec, r)


@pytest.mark.parametrize("table", TABLES)
def test_forced_contracts_obey_the_rules(table):
    r = Rules(table=table)
    for contract in CONTRACTS:
        seat = 1
        idx = [i for i in range(40) if not (table == "5d" and i % 5 == seat)]
        for rec in simulate.records(r, 5, idx, forced=(seat, contract)):
            assert rec["forced"] is True
            if rec["outcome"] == "played":
                assert rec["taker"] == seat and rec["contract"] == contract
            check_record(rec, r)


def test_many_poignees_miseres_and_partners_occur():
    """The random bot reaches the rarer paths the checks above must cover."""
    r = Rules.from_options("5", {"misere": True})
    recs = simulate.records(r, 77, range(400))
    kinds = {d["kind"] for rec in recs for d in rec["declarations"]}
    assert {"poignee", "chelem", "misere_atout", "misere_tete"} <= kinds
    assert any(rec["partner"] is None and rec["outcome"] == "played" for rec in recs)
    assert any(rec["partner"] is not None for rec in recs)
    assert any(rec["outcome"] == "petit_sec" for rec in simulate.records(Rules(table="4"), 1, range(400)))


def test_portable_bit_path_gives_the_same_deals(tmp_path):
    """Without BMI2 (TAROTSIM_NO_PDEP=1, chosen at import) the kernels play the very same deals."""
    import os
    import subprocess
    import sys

    code = ("import numpy as np; from tarotsim import simulate; from tarotsim._kernels import HAS_PDEP;"
            "from tarotsim.rules import Rules; assert not HAS_PDEP;"
            f"f = simulate.facts(Rules(table='5'), 3, 0, 400); np.save({str(tmp_path / 'f.npy')!r}, f)")
    env = dict(os.environ, TAROTSIM_NO_PDEP="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=300)
    other = np.load(tmp_path / "f.npy")
    assert other.tobytes() == simulate.facts(Rules(table="5"), 3, 0, 400).tobytes()
