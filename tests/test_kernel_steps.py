"""The deal kernel as named steps: every rule it implements is cited in full in
``tarotsim/_kernels/play.py`` and its rule steps ``steps.py`` (so ``grep R-PAB-2 tarotsim/_kernels/``
finds the code), and no
citation in the kernels is compressed (``R-PLAY-3/4``, ``R-EXC-2..5``) past what grep finds."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import tarotsim._kernels
from tarotsim._kernels.masks import TW_TRUMPS, card_bits
from tarotsim._kernels.steps import add_to_trick, playable
from tarotsim._kernels.workspace import WS_LEN
from tarotsim.cards import Card, masks_of
from tarotsim.reference import legal_cards, trick_winner
from tarotsim.rules import Rules

KERNELS = Path(tarotsim._kernels.__file__).parent

#: The rules the deal kernel (``play.py``, ``steps.py``) implements itself, step by step.
IMPLEMENTED = (
    "R-GEN-2", "R-GEN-3", "R-DEAL-1", "R-DEAL-2", "R-DEAL-4", "R-DEAL-6",
    "R-BID-1", "R-BID-2", "R-BID-3", "R-CALL-1", "R-CALL-2", "R-CALL-4",
    "R-CHIEN-1", "R-CHIEN-2", "R-CHIEN-3", "R-CHIEN-4", "R-SLAM-1", "R-SLAM-2",
    "R-POIG-1", "R-POIG-2", "R-POIG-3", "R-MIS-1",
    "R-PLAY-1", "R-PLAY-2", "R-PLAY-3", "R-PLAY-4a", "R-PLAY-4b", "R-PLAY-4c", "R-PLAY-4d", "R-PLAY-4e",
    "R-PLAY-5", "R-EXC-1", "R-EXC-2", "R-EXC-3", "R-EXC-4", "R-EXC-5",
    "R-PAB-1", "R-PAB-2", "R-COUNT-1", "R-COUNT-2",
)

COMPRESSED = re.compile(r"R-[A-Z]+-[0-9]+[a-z]?(?:\s*(?:/|\.\.|…)|-[0-9])")


def test_deal_kernel_cites_in_full_every_rule_it_implements():
    text = "".join((KERNELS / f).read_text(encoding="utf-8") for f in ("play.py", "steps.py"))
    missing = [rule for rule in IMPLEMENTED if not re.search(re.escape(rule) + r"(?![0-9a-z])", text)]
    assert missing == []


def test_no_compressed_rule_citation_in_the_kernels():
    found = [f"{f.name}: {m.group(0)}" for f in sorted(KERNELS.glob("*.py"))
             for m in COMPRESSED.finditer(f.read_text(encoding="utf-8"))]
    assert found == []


def test_no_compressed_rule_citation_anywhere():
    """Code, tests and docs cite every id in full, so grep finds each (the old forms are named by
    this file only)."""
    root = KERNELS.parent.parent
    files = [f for d in ("tarotsim", "bots", "tests", "benchmarks", "docs") for f in sorted((root / d).rglob("*"))
             if f.suffix in (".py", ".md") and f.resolve() != Path(__file__).resolve()]
    found = [f"{f.relative_to(root)}: {m.group(0)}" for f in files + [root / "README.md"]
             for m in COMPRESSED.finditer(f.read_text(encoding="utf-8"))]
    assert found == []


def test_the_compressed_citation_pattern_catches_the_old_forms():
    for old in ("R-PLAY-3/4", "R-POIG-2/3", "R-EXC-2..5", "R-EXC-2…5", "R-PAB-1/2"):
        assert COMPRESSED.search(old), old
    for full in ("R-PLAY-4b, R-PLAY-4c", "R-EXC-2 and R-EXC-3", "R-PLAY-4a to R-PLAY-4e"):
        assert not COMPRESSED.search(full), full


def test_every_build_names_its_out_of_line_closures_apart():
    """numba names a compiled function by qualified name, argument types and a per-process
    counter: two builds' closures of one name, compiled by two processes and loaded from the
    cache together, ran one build's code for the other (seen: heuristic tables dealt as random
    ones). Every build's out-of-line closures carry the build's name."""
    from tarotsim._builds import deal as _deal, pimc as _pimc
    from tarotsim._kernels import play

    builds = [play.play_random, play.play_random_two, _deal._play_bots, _deal._play_traced, _pimc._play_pimc,
              _pimc._play_pimc_full, _deal.BOTS_PARTS["play_rest"]]
    names = [b.py_func.__qualname__ for b in builds]
    assert len(set(names)) == len(names), names
    assert all("__random" in n or "__bots" in n for n in names)
    searches = [_pimc.pimc_card.py_func.__qualname__, _pimc.pimc_card_full.py_func.__qualname__]
    assert searches[0] != searches[1] and all("__pimc" in n for n in searches)



# --- steps.add_to_trick: a trick built card by card, against the reference engine ----------------

RV4 = Rules(table="4").to_vector()
WS = np.zeros(WS_LEN, dtype=np.int64)

@settings(max_examples=300, deadline=None)
@given(ids=st.lists(st.integers(0, 77), min_size=1, max_size=10, unique=True), n_trick=st.integers(0, 5))
def test_add_to_trick_fixes_the_suit_and_the_winner_as_the_reference_engine(ids, n_trick):
    """A trick built with ``steps.add_to_trick`` (seats 0, 1, ... in turn) has the reference engine's
    winner and Excuse seat (R-PLAY-5, R-CARD-2), and the next player's cards ``steps.playable``
    gives from it are the reference engine's legal cards (the leader free, R-PLAY-3; R-PLAY-4a to
    R-PLAY-4e, R-EXC-1), outside trick 1 (R-CALL-4 is the called-suit tests')."""
    cards = [Card(i) for i in ids]
    trick, hand = cards[:n_trick], cards[n_trick:]
    state = (np.int64(0), np.bool_(False), np.int64(0), TW_TRUMPS, np.int64(-2), np.int64(0), np.int64(-1),
             np.int64(0), np.int64(0))
    for pos, c in enumerate(trick):
        bt, bs = card_bits(np.int64(c.id))
        state = add_to_trick(state, np.int64(pos), np.int64(c.id), bt, bs, np.int64(pos), np.int64(pos + 1))
    nxt, fixed, fmask, amask, _, best_seat, ex_seat, tt, ts = state
    assert nxt == len(trick) and (int(tt), int(ts)) == masks_of(trick)
    assert ex_seat == next((i for i, c in enumerate(trick) if c.is_excuse), -1)
    if not all(c.is_excuse for c in trick):
        assert best_seat == trick_winner(trick)
    if hand:
        ht, hs = (np.int64(m) for m in masks_of(hand))
        lt, ls = playable(RV4, WS, ht, hs, np.int64(len(trick)), fixed, fmask, amask, False)
        assert sorted(c.id for c in legal_cards(hand, trick)) == (
            [i for i in range(22) if int(lt) >> i & 1] + [22 + i for i in range(56) if int(ls) >> i & 1])
