"""The numba kernels: bit helpers, splitmix64/shuffle/deal against tarotsim.rng, and the laws
every kernel deal must obey, checked from its record by small independent checks (RULES ids).

The checks (``helpers_records.check_record``) are written from RULES.md on plain lists; they share
no code with the kernels or with the reference engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim import rng

from tarotsim.runs import simulate
from tarotsim._kernels import _bits, _rng
from tarotsim.cards import Card
from tarotsim.rules import CONTRACTS, Rules

from helpers_records import check_record

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


@pytest.mark.slow
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
