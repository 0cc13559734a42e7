"""Table 2 (R-VAR-TWO) in the numba kernels.

* The kernel bots agree with the slow path record for record (their adapters in the ``Game``);
  the random bot against ``reference.play_deal``: tests/test_engines_conform.py.
* What a kernel bot is handed at table 2: its hand and its own face-up pile tops, the face-up tops
  of both players in the public view, never a face-down pile card.
* Hypothesis invariants on the kernels' table-2 deals: the 78 cards partitioned among hands, piles
  and chien; 36 tricks of 2 cards playing every card held once; each pile played from the top, a
  card under a played top only in a later trick; 182 half-points at most to the attack; zero-sum
  scores; the reference accepts the record; the same facts for any thread count.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from helpers_deals import MIXES, adapter_for, walk_traced
from helpers_records import check_two_player_record
from tarotsim import record
from tarotsim.runs import simulate
from tarotsim._kernels import layout as L
from tarotsim._kernels import workspace as P
from tarotsim.cards import masks_of
from tarotsim.engine import Game, play_game
from tarotsim.rules import CONTRACTS, Rules

TWO = Rules("2")


def _bots(mix):
    return MIXES[mix](2)


@pytest.mark.parametrize("mix", list(MIXES))
def test_R_VAR_TWO_kernel_bot_records_equal_the_slow_path(mix):
    bots = _bots(mix)
    indices = range(40)
    for forced in (None, (0, "garde")):
        for i, rec in zip(indices, simulate.records(TWO, 77, indices, bots=bots, forced=forced)):
            assert play_game(Game(TWO, 77, i, forced=forced), [adapter_for(b) for b in bots]).record() == rec, i


@pytest.mark.parametrize("mix", ["heuristic", "mixed"])
def test_R_VAR_TWO_kernel_bot_sees_hand_and_face_up_tops_only(mix):
    bots = _bots(mix)
    n_tops = 0
    for index in range(6):
        forced = (index % 2, CONTRACTS[index % 4]) if index % 3 == 2 else None
        for k, (game, d, t) in enumerate(walk_traced(TWO, 31, index, bots, forced)):  # the adapter's inputs
            deal = game._deal
            # the bot's cards: its hand and its own face-up tops, none of the cards under them
            own = deal.hands[d.seat] + deal.face_up_tops(d.seat)
            if d.kind == "ecart":
                own = own + [c for c in deal.chien if c not in deal.hands[d.seat]]
            assert (t[P.TR_HT], t[P.TR_HS]) == masks_of(own), (index, k, d)
            # the public view holds both players' face-up tops
            for s in range(2):
                tops = masks_of(deal.face_up_tops(s))
                assert (t[P.TR_PUB + L.PUB_TOPS_T + s], t[P.TR_PUB + L.PUB_TOPS_S + s]) == tops, (index, k, s)
                n_tops += bool(tops[0] or tops[1])
    assert n_tops > 0


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**64 - 1), index=st.integers(0, 2**40), mix=st.sampled_from(["random"] + sorted(MIXES)),
       forced=st.one_of(st.none(), st.tuples(st.sampled_from([0, 1]), st.sampled_from(CONTRACTS))))
def test_R_VAR_TWO_kernel_deal_invariants(seed, index, mix, forced):
    bots = "random" if mix == "random" else _bots(mix)
    rec = simulate.records(TWO, seed, [index], bots=bots, forced=forced)[0]
    check_two_player_record(rec)
    record.verify(rec)  # the reference engine replays it and scores it alike
    again = simulate.records(TWO, seed, [index], bots=bots, forced=forced)[0]
    assert again == rec  # the same (seed, index), the same deal


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_R_VAR_TWO_kernel_facts_same_for_any_thread_count(bots):
    one = simulate.facts(TWO, 9, 0, 3000, bots=bots, threads=1, chunk_size=500)
    two = simulate.facts(TWO, 9, 0, 3000, bots=bots, threads=2, chunk_size=700)
    assert np.array_equal(one, two)
    assert (one["scores"][:, :2].sum(axis=1) == 0).all() and (one["scores"][:, 2:] == 0).all()
    played = one[one["outcome"] == 0]
    assert len(played) > 300 and (played["attack_tricks"] <= 36).all()
    assert ((played["attack_half_points"] >= 0) & (played["attack_half_points"] <= 182)).all()
