"""The solver's techniques for deeper positions, each switched off against all on.

The twin (``tests/test_solver.py``) checks every value one to four tricks before the end; the
techniques here (``tarotsim._kernels.solver``: the winning-card transposition entries ``F_PART``,
the small-card filter ``F_SMALL``, the quick-trick bounds ``F_QUICK``, the bounds inside a trick
``F_TRICK``, the value's growing steps ``F_STEP``) do most of their work further from it, where a plain minimax
is out of reach. So positions five to seven tricks before the end (deals of heuristic and random
bots at tables 3, 4, 5 and 5d, any card of a trick, both modes) are solved with all techniques
on, with each new one off, and with only the techniques the solver had before them
(``REFERENCE``): every value and every card's value must agree. The bounds the search cuts with
hold the exact value (``Q_BOUNDS``).
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_solver_twin import position_at

from tarotsim._kernels import _bits
from tarotsim._kernels import solver as K
from tarotsim.rules import CONTRACTS, Rules
from tarotsim.analysis.solver import Position, Solver, solve

SMALL = 14  # transposition table bits (16,384 entries)
#: the techniques of the solver before the winning-card entries: the slow reference
REFERENCE = K.F_MERGE | K.F_TT | K.F_ORDER | K.F_BOUNDS | K.F_CANON
NEW = {"part": K.F_PART, "small": K.F_SMALL, "quick": K.F_QUICK, "trick": K.F_TRICK, "step": K.F_STEP}

deep_positions = st.builds(
    position_at, table=st.sampled_from(["3", "4", "5", "5d"]), seed=st.integers(0, 2**32),
    index=st.integers(0, 10**6), contract=st.sampled_from(CONTRACTS), bot=st.sampled_from(["random", "heuristic"]),
    tricks_left=st.integers(5, 7), in_trick=st.integers(0, 4))


@settings(max_examples=40)
@given(pos=deep_positions, mode=st.sampled_from(["points", "score"]))
def test_each_new_technique_off_and_the_reference_give_the_same_values(pos, mode):
    """The value and each legal card's value with all techniques, with each new one off, and with
    the reference's techniques alone, are the same (R-PLAY-4a to R-PLAY-4e, R-PLAY-5, R-EXC-2)."""
    assume(pos is not None)  # an annulled deal has no position: not counted as an example
    full = Solver(mode, table_bits=SMALL).solve(pos)
    assert full.complete
    for flags in [K.F_ALL & ~bit for bit in NEW.values()] + [REFERENCE]:
        other = Solver(mode, table_bits=SMALL, flags=flags).solve(pos)
        assert (other.value, other.card_values) == (full.value, full.card_values), flags


@settings(max_examples=15)
@given(pos=deep_positions, mode=st.sampled_from(["points", "score"]))
def test_a_small_table_full_of_wildcard_entries_gives_the_same_values(pos, mode):
    """With a table far too small for the search (256 entries), entries replace one another all
    the time and many positions share a bucket: the values are still those of the reference."""
    assume(pos is not None)  # an annulled deal has no position: not counted as an example
    full = Solver(mode, table_bits=8).solve(pos)
    ref = Solver(mode, table_bits=SMALL, flags=REFERENCE).solve(pos)
    assert (full.value, full.card_values) == (ref.value, ref.card_values)


def test_one_solver_across_a_deal_reuses_wildcard_entries_soundly():
    """One solver kept across the positions of a deal (its entries, wildcards included, reused
    from one question to the next) gives a fresh reference solver's answers, and searches fewer
    nodes than it in all."""
    for index in range(2):
        kept = Solver(table_bits=SMALL)
        fresh_nodes = 0
        for left in (7, 6, 5):
            for k in range(4):
                pos = position_at("4", 21, index, "garde", "heuristic", left, k)
                ref = Solver(table_bits=SMALL, flags=REFERENCE)
                a, b = kept.solve(pos), ref.solve(pos)
                fresh_nodes += b.nodes
                assert (a.value, a.card_values) == (b.value, b.card_values)
        assert kept.nodes < fresh_nodes


def bounds(pos: Position, mode: str = "points", flags: int = K.F_ALL) -> tuple[int, int]:
    """The bounds the search starts from at ``pos`` (``Q_BOUNDS``)."""
    out = Solver(mode, table_bits=8, flags=flags)._ask(pos, K.Q_BOUNDS)
    return int(out[K.OUT_LO]), int(out[K.OUT_HI])


bound_positions = st.builds(
    position_at, table=st.sampled_from(["3", "4", "5", "5d"]), seed=st.integers(0, 2**32),
    index=st.integers(0, 10**6), contract=st.sampled_from(CONTRACTS), bot=st.sampled_from(["random", "heuristic"]),
    tricks_left=st.integers(1, 7), in_trick=st.sampled_from([0, 0, 0, 1, 2, 3]))


@settings(max_examples=80)
@given(pos=bound_positions, mode=st.sampled_from(["points", "score"]))
def test_the_bounds_hold_the_exact_value(pos, mode):
    """The bounds the search cuts with (what the attack holds and each side surely takes: master
    trumps, the Excuse, quick tricks, the Petit falling, the trick in progress; whole points at
    tables 4 and 5d, R-COUNT-5) hold the exact value, and the quick tricks and the trick in
    progress only tighten them."""
    assume(pos is not None)  # an annulled deal has no position: not counted as an example
    lo, hi = bounds(pos, mode)
    value = Solver(mode, table_bits=SMALL).solve(pos, cards=False).value
    assert lo <= value <= hi
    if mode == "points" and pos.rules.n_active % 2 == 0:  # R-COUNT-5: whole points at 4 and 5d
        assert lo % 2 == hi % 2 == value % 2 == 0
    plain_lo, plain_hi = bounds(pos, mode, K.F_ALL & ~K.F_QUICK & ~K.F_TRICK)
    assert plain_lo <= lo and hi <= plain_hi


def _endgame(hands, leader=0, table="3"):
    rules = Rules(table=table)
    return Position(rules=rules, dealer=rules.n_seats - 1, taker=0, partner=None, contract="garde", hands=hands,
                    leader=leader, first_trick={"3": 24, "4": 18}[table] - len(hands[leader]))


def test_quick_tricks_of_a_plain_suit_R_PLAY_4a():
    """R-PLAY-4a: the taker's king and queen of hearts, led, win while both defenders follow
    hearts (seat 1 holds two, seat 2 has no trump to cut with): the king's 9 and the queen's 7
    half-points and the defenders' cheapest hearts (1 + 1, then the jack's 3 and a club's 1) are
    sure: the lower bound is the exact value; without the quick tricks it is not."""
    pos = _endgame((("KH", "QH"), ("2H", "JH"), ("3H", "4C")))
    assert solve(pos).value == 9 + 7 + 1 + 3 + 1 + 1
    assert bounds(pos)[0] == 22
    assert bounds(pos, flags=K.F_ALL & ~K.F_QUICK)[0] < 22


def test_the_leaders_excuse_leaves_a_trick_after_its_quick_tricks_R_EXC_2():
    """R-EXC-2, R-EXC-3: the taker holds the Excuse and the queen of spades, which nobody can
    beat, two tricks from the end. The queen led first wins (7, seat 1's club and seat 2's
    cavalier: 13), but the Excuse, left for the last trick, goes to the defence; the Excuse led
    first stays with the attack (8) but gives seat 1 the lead, and the queen is lost in the last
    trick. The quick trick and the Excuse are never both sure: the lower bound counts one of them."""
    pos = _endgame((("EX", "QS"), ("6C", "7C"), ("NH", "QH")))
    assert solve(pos).value == 7 + 1 + 5
    assert bounds(pos)[0] <= 13


def test_a_partner_that_must_take_the_trick_takes_the_lead_R_PLAY_4a():
    """R-PLAY-4a: seat 1 of the defence leads its hearts, which the taker cannot beat, but seat 2's
    only heart, the 10, is higher: it takes the first trick and must lead its spade, which the
    taker's 10 wins in the last trick (four low cards). The quick tricks are those of cards above
    every other seat's, partners' included: the upper bound leaves the last trick to the attack."""
    pos = _endgame((("2S", "10S"), ("4H", "2H"), ("10H", "7S"), ("5S", "4S")), leader=1, table="4")
    assert solve(pos).value == 4
    assert bounds(pos)[1] >= 4


def test_a_partner_that_must_overtrump_takes_the_lead_R_PLAY_4c():
    """R-PLAY-4c: seat 1's T19 and T18 are above the taker's T10 and Petit, but seat 2 must
    overtrump either with its T21 and then leads a plain card: the taker trumps a club with the
    Petit, or keeps it for the last trick, and wins it (9 and three low cards). The Petit falls
    only under trumps above every other seat's: the upper bound leaves it to the attack."""
    pos = _endgame((("T1", "T10", "6S"), ("T19", "T18", "2C"), ("T21", "5S", "3C"), ("2H", "3H", "4H")),
                   leader=1, table="4")
    assert solve(pos).value == 9 + 1 + 1 + 1
    assert bounds(pos)[1] >= 12


def test_the_petit_falls_under_master_trumps_R_PLAY_4c():
    """R-PLAY-4c: the taker leads T21 then T20; seat 1's only trump is the Petit, which it must
    play to the first (the 21's 9, the Petit's 9 and a heart; then the 20 with two hearts): the
    lower bound counts the Petit."""
    pos = _endgame((("T21", "T20"), ("T1", "5H"), ("2H", "3H")))
    assert solve(pos).value == 9 + 9 + 1 + 1 + 1 + 1
    assert bounds(pos)[0] == 22
    assert bounds(pos, flags=K.F_ALL & ~K.F_QUICK)[0] == 22 - 8


def test_the_trick_in_progress_goes_to_a_card_nobody_can_beat_R_PLAY_5():
    """R-PLAY-5, R-PLAY-4a: the taker's king of hearts leads; both defenders still hold hearts
    and none above it, so the trick is the attack's whatever they play: its 9 half-points and a
    half-point from each card to come are sure after the lead (the last trick, clubs, goes to
    seat 2's 4C). R-EXC-2: an Excuse already played stays with its side."""
    rules = Rules(table="3")
    kh = Position(rules=rules, dealer=2, taker=0, partner=None, contract="garde",
                  hands=(("2C",), ("2H", "3C"), ("3H", "4C")), leader=0, first_trick=22, trick=("KH",))
    assert solve(kh).value == 9 + 1 + 1
    assert bounds(kh)[0] == 11 and bounds(kh, flags=K.F_ALL & ~K.F_TRICK)[0] == 0
    excuse = Position(rules=rules, dealer=2, taker=0, partner=None, contract="garde",
                      hands=(("2C",), ("3C",), ("3H", "4C")), leader=0, first_trick=22, trick=("EX", "2H"))
    lo, hi = bounds(excuse)
    assert lo == 8 == solve(excuse).value <= hi


@settings(max_examples=60)
@given(x=st.integers(0, 2**62 - 1), mask=st.integers(0, 2**62 - 1))
def test_deposit_bits_is_the_inverse_of_extract_bits(x, mask):
    """``deposit_bits`` spreads the low bits of ``x`` over the set bits of ``mask`` in order (the
    portable loop gives the same), and extracting them again gives ``x``'s low bits back."""
    got, loop = _bits.deposit_py(np.int64(x), np.int64(mask))
    ones = [i for i in range(63) if mask >> i & 1]
    want = sum(1 << b for k, b in enumerate(ones) if x >> k & 1)
    assert got == loop == want
    back, _ = _bits.extract_py(np.int64(want), np.int64(mask))
    assert back == x & ((1 << len(ones)) - 1)
