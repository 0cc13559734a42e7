"""tarotsim.runs.simulate: facts table, streaming summary, records; determinism whatever the threads
and chunks (DESIGN §3). The kernels against the reference engine, record for record: tests/test_engines_conform.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim.runs import simulate
from tarotsim.rules import CONTRACTS, Rules

TABLES = ("3", "4", "5", "5d")


def _facts_equal(a, b):
    assert a.dtype == b.dtype and len(a) == len(b)
    assert a.tobytes() == b.tobytes()


# ---------------------------------------------------------------------------------------------
# facts and determinism

@pytest.mark.parametrize("table", TABLES)
def test_facts_same_for_any_threads_and_chunks(table):
    r = Rules(table=table)
    base = simulate.facts(r, 11, 100, 3100, threads=1, chunk_size=10**6)
    _facts_equal(base, simulate.facts(r, 11, 100, 3100, threads=2, chunk_size=97))
    _facts_equal(base, simulate.facts(r, 11, 100, 3100, threads=3, chunk_size=1000))
    # a deal alone is the same deal (identity = (seed, index))
    _facts_equal(base[1234:1235], simulate.facts(r, 11, 1334, 1335))
    assert base["index"].tolist() == list(range(100, 3100))
    assert (base["dealer"] == base["index"] % r.n_seats).all()


@given(seed=st.integers(min_value=0, max_value=2**64 - 1), start=st.integers(min_value=0, max_value=2**40))
@settings(max_examples=10)
def test_same_seed_same_facts(seed, start):
    r = Rules(table="4")
    a = simulate.facts(r, seed, start, count=200)
    _facts_equal(a, simulate.facts(r, seed, start, count=200, threads=2, chunk_size=33))
    other = simulate.facts(r, seed ^ 1, start, count=200)
    assert a.tobytes() != other.tobytes()


@pytest.mark.parametrize("table", TABLES)
def test_facts_laws(table):
    r = Rules(table=table)
    f = simulate.facts(r, 3, 0, 20000)
    played = f[f["outcome"] == 0]
    assert (f["scores"].sum(axis=1) == 0).all()                       # R-GEN-5
    assert (f["scores"][:, r.n_seats:] == 0).all()
    assert not f["scores"][f["outcome"] != 0].any()
    assert ((played["attack_half_points"] >= 0) & (played["attack_half_points"] <= 182)).all()
    if table in ("4", "5d"):
        assert (played["attack_half_points"] % 2 == 0).all()            # R-COUNT-5
    if table == "5d":
        assert (f["scores"][np.arange(len(f)), f["dealer"]] == 0).all()  # the dummy
        assert (played["taker"] != played["dealer"]).all()
    if table == "5":
        assert (played["called"] >= 22).all()
    else:
        assert (f["called"] == -1).all() and (f["partner"] == -1).all()
    assert set(np.unique(played["contract"])) == {0, 1, 2, 3}
    assert (played["made"] == (played["difference"] >= 0)).all()
    assert ((f["petit_sec_seat"] >= 0) == (f["outcome"] == 2)).all()


@pytest.mark.parametrize("table", TABLES)
def test_facts_agree_with_records(table):
    r = Rules.from_options(table, {"misere": True})
    idx = list(range(500, 560))
    f = simulate.facts(r, 9, 500, 560)
    for row, rec in zip(f, simulate.records(r, 9, idx)):
        assert row["index"] == rec["index"] and row["dealer"] == rec["dealer"]
        assert simulate.OUTCOMES[row["outcome"]] == rec["outcome"]
        assert row["scores"][:r.n_seats].tolist() == rec["scores"]
        if rec["outcome"] != "played":
            continue
        res = rec["result"]
        assert row["taker"] == rec["taker"] and CONTRACTS[row["contract"]] == rec["contract"]
        assert row["attack_half_points"] == res["attack_half_points"] and row["oudlers"] == res["oudlers"]
        assert bool(row["made"]) == res["made"] and row["difference"] == res["difference"]
        assert row["value"] == res["value"]
        assert simulate.CHELEM_NAMES[row["chelem"]] == res["chelem"]
        assert {1: "attack", -1: "defence", 0: None}[int(row["petit_au_bout"])] == res["petit_au_bout"]
        assert row["miseres"] == sum(d["kind"].startswith("misere") for d in rec["declarations"])
        assert row["attack_tricks"] == sum(
            t["winner"] in (rec["taker"], rec["partner"]) for t in rec["tricks"])


# ---------------------------------------------------------------------------------------------
# streaming summary

@pytest.mark.parametrize("table", TABLES)
def test_aggregate_equals_summary_of_facts(table):
    r = Rules(table=table)
    f = simulate.facts(r, 21, 0, 5000)
    a = simulate.aggregate(r, 21, 0, 5000, threads=2, chunk_size=333).to_dict()
    b = simulate.summarize(f, r, seed=21).to_dict()
    for k in ("threads", "chunk_size", "elapsed_s", "deals_per_s"):
        a.pop(k), b.pop(k)
    assert a == b
    assert a["deals"] == 5000 == a["played"] + a["thrown_in"] + a["annulled"]
    assert sum(a["taken"].values()) == a["played"]


def test_aggregate_same_whatever_threads_and_chunks():
    r = Rules(table="5")
    keys = ("threads", "chunk_size", "elapsed_s", "deals_per_s")
    runs = [simulate.aggregate(r, 4, 10, 20010, threads=t, chunk_size=c).to_dict()
            for t, c in ((1, 10**6), (2, 1000), (2, 777), (3, 4096))]
    for x in runs:
        for k in keys:
            x.pop(k)
    assert all(x == runs[0] for x in runs)
    assert runs[0]["deals"] == 20000


def test_aggregate_memory_is_chunked(monkeypatch):
    """The aggregate never allocates per deal: each kernel call sees at most chunk_size deals."""
    seen = []
    real = simulate.run_aggregate

    def spy(rv, seed, start, count, *rest):
        seen.append(count)
        return real(rv, seed, start, count, *rest)

    monkeypatch.setattr(simulate, "run_aggregate", spy)
    sm = simulate.aggregate(Rules(), 1, 0, 10000, chunk_size=1500)
    assert max(seen) <= 1500 and sum(seen) == 10000 == sm.deals


# ---------------------------------------------------------------------------------------------
# arguments

def test_bots_and_forced_arguments():
    r = Rules(table="5")
    kinds, params = simulate.bot_arrays(r, "random")
    assert kinds.tolist() == [simulate.BOT_KINDS["random"]] * 5 and params.shape == (5, simulate.N_BOT_PARAMS)
    kinds, params = simulate.bot_arrays(r, ["random", ("random", [1.5, 2.0])] + ["random"] * 3)
    assert params[1, :2].tolist() == [1.5, 2.0]
    with pytest.raises(ValueError, match="unknown bot"):
        simulate.bot_arrays(r, "genius")
    with pytest.raises(ValueError, match="seats"):
        simulate.bot_arrays(r, ["random"] * 4)
    with pytest.raises(ValueError, match="contract"):
        simulate.facts(r, 1, 0, 10, forced=(0, "petite"))
    with pytest.raises(ValueError, match="dummy"):
        simulate.records(Rules(table="5d"), 1, [3], forced=(3, "garde"))


def test_forced_contract_facts():
    r = Rules(table="5d")
    f = simulate.facts(r, 8, 0, 1000, forced=(2, "garde_sans"))
    dummy_deals = f["dealer"] == 2
    assert (f["outcome"][dummy_deals] == 1).all()          # the forced seat sits out: thrown in
    played = f[f["outcome"] == 0]
    assert (played["taker"] == 2).all() and (played["contract"] == 2).all()
