"""`tarotsim study bidding`: the study kernel against a slow recomputation, its
statistics, its outputs, the calibration round trip, and bad input."""

import csv
import io
import json
import math
import sys
import types

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots import BotError, REGISTRY, heuristic, parse_bots
from bots.heuristic import evaluate
from tarotsim.runs import simulate as sim
from tarotsim.runs import study
from tarotsim._kernels import layout as L
from tarotsim._kernels import study as K
from tarotsim.rules import CONTRACTS, Rules


@pytest.fixture(scope="module")
def big():
    """One well-populated study (table 4, heuristic bots, fixed seed) shared by several tests."""
    totals = study.run("4", 1, 100_000, bots="heuristic", threads=2)
    return totals, study.report(totals, bucket=5, min_deals=1000)


# ---------------------------------------------------------------------------------------------
# acceptance: made rate rises with the points


def test_made_rate_rises_with_the_point_count_for_every_contract(big):
    _, rep = big
    for name in CONTRACTS:
        rows = [r for r in rep["by_points"][name] if r["deals"] >= 1000]
        assert len(rows) >= 7, name
        rates = [r["made_rate"] for r in rows]
        for a, b in zip(rows, rows[1:]):  # never down by more than one standard error
            se = math.hypot(*((r["made_ci"][1] - r["made_ci"][0]) / (2 * study.Z95) for r in (a, b)))
            assert b["made_rate"] >= a["made_rate"] - se, (name, a, b)
        assert rates[-1] - rates[0] > 0.2, name
        ranks = np.argsort(np.argsort(rates))  # rank correlation with the points (rows are in points order)
        assert np.corrcoef(ranks, np.arange(len(rates)))[0, 1] > 0.9, (name, rates)


def test_thresholds_are_where_the_mean_score_changes_sign(big):
    totals, rep = big
    for name, t in rep["thresholds"].items():
        vp = t["vs_pass"]
        if vp["status"] != "crossing":
            continue
        rows = rep["by_points"][name]
        below = [r for r in rows if r["points_to"] is not None and r["points_to"] <= vp["x"] - 5 and r["deals"] >= 1000]
        above = [r for r in rows if r["points_from"] is not None and r["points_from"] >= vp["x"] + 5
                 and r["deals"] >= 1000]
        assert below and all(r["mean_score"] < 0 for r in below), name
        assert all(r["mean_score"] > 0 for r in above), name
        assert 0 < vp["se"] < 2
    prise = rep["thresholds"]["prise"]
    assert prise["status"] == "crossing" and prise["binding"] == "pass" and 30 < prise["threshold"] < 50
    garde = rep["thresholds"]["garde"]
    assert garde["threshold"] == max(garde["vs_pass"]["x"], garde["vs_lower"]["x"])
    assert {t["current"] for t in rep["thresholds"].values()} == {40.0, 42.0, 59.0, 65.0}
    assert totals.played + totals.annulled == totals.deals and totals.annulled > 0


# ---------------------------------------------------------------------------------------------
# the kernel against a slow recomputation


def _features(ht, hs):
    suits = [bin((hs >> (14 * s)) & 0x3FFF).count("1") for s in range(4)]
    return [bin(ht & (0b11 | (1 << 21))).count("1"),  # oudlers: Excuse, Petit, 21
            bin(ht & 0x3FFFFE).count("1"),  # trumps 1..21
            bin(ht & (0x3F << 16)).count("1"),  # trumps 16..21
            sum((hs >> (14 * s + 13)) & 1 for s in range(4)),  # kings
            max(suits), sum(1 for x in suits if x == 0)]


def _slow(table, seed, start, count, bots):
    """The study's totals recomputed deal by deal through simulate.facts/logs and evaluate."""
    r = Rules(table)
    n = r.n_seats
    kinds, params = sim.bot_arrays(r, bots)
    default = REGISTRY["heuristic"].vector()
    ev = np.array([params[s] if kinds[s] == heuristic.CODE else default for s in range(n)])
    bins = np.zeros((4, K.N_BINS, K.N_FIELDS), np.int64)
    oud = np.zeros((4, 4, K.N_FIELDS), np.int64)
    misc = np.zeros(K.M_LEN, np.int64)
    for index in range(start, start + count):
        seat = (index % n + 1) % n
        misc[K.M_DEALS] += 1
        rows = [sim.facts(r, seed, index, index + 1, bots=bots, forced=(seat, c))[0] for c in range(4)]
        if rows[0]["outcome"] == L.OUTCOME_PETIT_SEC:
            misc[K.M_ANNULLED] += 1
            continue
        assert all(row["outcome"] == L.OUTCOME_PLAYED and row["taker"] == seat for row in rows)
        misc[K.M_PLAYED] += 1
        log = sim.logs(r, seed, [index], bots=bots, forced=(seat, 0))[0]
        ht, hs = int(log[L.L_HAND_T + seat]), int(log[L.L_HAND_S + seat])
        pts, voids = evaluate(ev, seat, np.int64(ht), np.int64(hs))
        feats = _features(ht, hs)
        prev = 0
        for c, row in enumerate(rows):
            x = pts + 3.0 * voids if c >= 2 else pts
            k = min(max(int(math.floor(x)), 0), K.N_BINS - 1)
            score = int(row["scores"][seat])
            vals = [1, int(row["made"]), score, score * score, score - prev, (score - prev) ** 2,
                    int(np.round(x * 100.0))] + feats
            bins[c, k] += vals
            oud[c, feats[0]] += vals
            prev = score
    return bins, oud, misc


@pytest.mark.parametrize("table,bots", [
    ("4", "heuristic"),
    ("4", "heuristic:prise=35,greedy,heuristic,random"),  # each seat's own count; defaults for others
    ("5d", "heuristic"),   # the studied seat is never the dummy
    ("3", "greedy"),
])
def test_kernel_totals_match_a_deal_by_deal_recomputation(table, bots):
    start, count = 40, 48
    t = study.run(table, 11, count, start=start, bots=bots, chunk_size=7)
    bins, oud, misc = _slow(table, 11, start, count, bots)
    assert np.array_equal(t.misc, misc)
    assert np.array_equal(t.bins, bins)
    assert np.array_equal(t.oudlers, oud)


def test_petit_sec_deals_are_counted_apart_and_excluded():
    # find deals annulled for a petit sec, then check that they add nothing but the count
    f = sim.facts(Rules("4"), 2, 0, 3000, bots="heuristic", forced=None)
    bad = [int(i) for i in f["index"][f["outcome"] == L.OUTCOME_PETIT_SEC][:3]]
    assert bad
    for i in bad:
        t = study.run("4", 2, 1, start=i)
        assert t.annulled == 1 and t.played == 0 and not t.bins.any() and not t.oudlers.any()


@pytest.mark.parametrize("table", ["4", "5", "3"])
def test_same_totals_for_any_threads_and_chunk_size(table):
    a = study.run(table, 9, 1500, threads=1, chunk_size=1500)
    b = study.run(table, 9, 1500, threads=2, chunk_size=97)
    for x, y in ((a.bins, b.bins), (a.oudlers, b.oudlers), (a.misc, b.misc)):
        assert np.array_equal(x, y)


def test_contracts_subset_compares_with_the_next_studied_contract():
    full = study.run("4", 4, 800)
    part = study.run("4", 4, 800, contracts="garde_contre,prise")
    assert part.contracts == ("prise", "garde_contre")
    assert np.array_equal(part.bins[0], full.bins[0]) and not part.bins[1:3].any()
    gc, p = part.bins[3], full.bins
    assert np.array_equal(gc[:, K.F_S], p[3][:, K.F_S])
    # the paired difference of garde contre is now against prise, on the same deals
    n = gc[:, K.F_N].sum()
    assert n == full.played
    assert gc[:, K.F_D].sum() == p[3][:, K.F_S].sum() - p[0][:, K.F_S].sum()
    rep = study.report(part)
    assert rep["thresholds"]["garde_contre"]["lower"] == "prise"


# ---------------------------------------------------------------------------------------------
# statistics


@given(st.lists(st.integers(0, 500), min_size=1, max_size=60), st.integers(1, 12), st.integers(1, 800))
def test_merge_buckets_keeps_every_deal_in_contiguous_buckets(counts, width, min_n):
    counts = np.array(counts)
    buckets = study.merge_buckets(counts, width, min_n)
    total = int(counts.sum())
    if total == 0:
        assert buckets == []
        return
    assert sum(int(counts[a:b].sum()) for a, b in buckets) == total
    assert all(a < b for a, b in buckets)
    assert all(b == c for (_, b), (c, _) in zip(buckets, buckets[1:]))  # contiguous
    nz = np.nonzero(counts)[0]
    assert buckets[0][0] <= nz[0] and buckets[-1][1] > nz[-1]
    first, last = buckets[0][0], buckets[-1][1]
    assert counts[first:first + width].sum() > 0  # no empty group kept at either end
    assert counts[(last - 1) // width * width:last].sum() > 0
    if len(buckets) > 1:
        assert all(counts[a:b].sum() >= min_n for a, b in buckets)
    assert all(a % width == 0 for a, _ in buckets)  # buckets are whole groups of width


@given(st.integers(0, 2000), st.integers(1, 2000))
def test_wilson_interval_holds_the_rate(k, n):
    k = min(k, n)
    lo, hi = study.wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


def _synthetic(f, sd=40.0, per_bin=4000, lo=10, hi=80):
    """One-point bins whose mean is f(x) exactly, with variance sd**2."""
    x = np.zeros(K.N_BINS)
    n = np.zeros(K.N_BINS, np.int64)
    s = np.zeros(K.N_BINS)
    s2 = np.zeros(K.N_BINS)
    for k in range(lo, hi):
        x[k], n[k] = k + 0.5, per_bin
        s[k] = per_bin * f(k + 0.5)
        s2[k] = per_bin * (f(k + 0.5) ** 2 + sd * sd) + sd * sd  # sample variance sd**2 exactly-ish
    coarse = [(float(np.mean(x[a:a + 5])), float(np.mean(s[a:a + 5] / n[a:a + 5])), sd / math.sqrt(5 * per_bin))
              for a in range(lo, hi, 5)]
    return x, n, s, s2, coarse


def test_crossing_finds_a_known_zero_and_says_when_there_is_none():
    x, n, s, s2, coarse = _synthetic(lambda v: 6.0 * (v - 43.7))
    cr = study.crossing(x, n, s, s2, coarse, 5)
    assert cr["status"] == "crossing" and abs(cr["x"] - 43.7) < 1e-6 and 0 < cr["se"] < 0.2
    # a curved mean: the local line still lands close to the zero
    x, n, s, s2, coarse = _synthetic(lambda v: 0.3 * (v - 20) ** 2 - 0.3 * 25 ** 2)
    assert abs(study.crossing(x, n, s, s2, coarse, 5)["x"] - 45) < 0.3
    x, n, s, s2, coarse = _synthetic(lambda v: v + 100)
    assert study.crossing(x, n, s, s2, coarse, 5) == {"status": "below", "x": 10.0, "se": None}
    x, n, s, s2, coarse = _synthetic(lambda v: -v)
    assert study.crossing(x, n, s, s2, coarse, 5) == {"status": "above", "x": 80.0, "se": None}


# ---------------------------------------------------------------------------------------------
# outputs


def test_cli_prints_tables_and_writes_csv_json_and_calibration(cli, tmp_path):
    csv_path, cal = tmp_path / "s.csv", tmp_path / "cal.json"
    code, out, err = cli("study", "bidding", "--deals", "3000", "--seed", "8", "--threads", "2",
                         "--csv", str(csv_path), "--calibrate", str(cal))
    # 3,000 deals are too few for a calibration: one warning line, and the file is written anyway
    assert code == 0 and err.startswith("tarotsim: warning: ") and err.count("\n") == 1
    assert "seed 8" in out and "thresholds" in out and "by oudlers" in out and "bot now" in out
    for c in CONTRACTS:
        assert f"\n{c}  (vs " in out
    code, out, _ = cli("study", "bidding", "--deals", "3000", "--seed", "8", "--json")
    d = json.loads(out)
    assert code == 0 and d["seed"] == 8 and d["deals"] == 3000 and d["played"] + d["annulled"] == 3000
    assert set(d["by_points"]) == set(CONTRACTS) and set(d["thresholds"]) == set(CONTRACTS)
    assert [r["oudlers"] for r in d["by_oudlers"]["garde"]] == [0, 1, 2, 3]
    rows = list(csv.reader(io.StringIO(csv_path.read_text())))
    assert tuple(rows[0]) == study.CSV_COLUMNS
    assert len(rows) - 1 == sum(len(v) for v in d["by_points"].values())
    for c in CONTRACTS:  # every played deal in one bucket of every contract, same as the JSON
        assert sum(int(r[3]) for r in rows[1:] if r[0] == c) == d["played"]
        assert [int(r[3]) for r in rows[1:] if r[0] == c] == [r["deals"] for r in d["by_points"][c]]
    got = json.loads(cal.read_text())
    assert got["format"] == study.CALIBRATION_FORMAT and got["seed"] == 8 and got["deals"] == 3000
    for c in CONTRACTS:
        assert got["thresholds"][c] == round(d["thresholds"][c]["threshold"], 2)


def test_calibration_round_trip_sets_the_four_thresholds(tmp_path):
    rep = {"table": "3", "bots": "heuristic", "seed": 1, "start": 0, "deals": 10, "options": {},
           "thresholds": {c: {"threshold": 30.0 + i, "uncertainty": 0.5, "status": "crossing"}
                          for i, c in enumerate(CONTRACTS)}}
    shift = study.table_shift("3")
    assert shift == -7.0
    cal = study.calibration(rep, shift)
    assert cal["thresholds"] == {c: 37.0 + i for i, c in enumerate(CONTRACTS)}  # the bot adds the shift back
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(cal))
    (name, vec), = parse_bots(f"heuristic:thresholds={path}", 1)
    values = REGISTRY["heuristic"].values(vec)
    assert [values[c] for c in CONTRACTS] == [37.0, 38.0, 39.0, 40.0]
    assert values["trump"] == 3.0  # the rest stays at its default
    (_, vec), = parse_bots(f"heuristic:garde=50,thresholds={path}", 1)  # a named parameter wins
    assert REGISTRY["heuristic"].values(vec)["garde"] == 50.0
    # and a study of that bot reports those thresholds (+ the table shift) as the current ones
    p = study.plan("3", 1, 10, bots=f"heuristic:thresholds={path}")
    assert [p.current[c] for c in CONTRACTS] == [30.0, 31.0, 32.0, 33.0]


@pytest.mark.parametrize("text,why", [
    ("{", "malformed JSON"),
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply to be a thresholds file"),
    ('{"thresholds": {"prise": ' + "9" * 5000 + "}}", "a JSON number too long"),
    ('{"thresholds": {"prise": 1}}', "garde must be a finite number"),
    ('{"format": "other", "thresholds": {}}', "not a thresholds file"),
    ('[1, 2]', "not a thresholds file"),
])
def test_bad_thresholds_file_is_one_line(tmp_path, text, why):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(BotError, match=why) as e:
        parse_bots(f"heuristic:thresholds={path}", 4)
    assert "\n" not in str(e.value)
    with pytest.raises(BotError, match="no parameter 'thresholds'"):
        parse_bots(f"greedy:thresholds={path}", 4)


def test_tournament_takes_the_calibrated_bot_and_bots_lists_it(cli, tmp_path):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"thresholds": {"prise": 38, "garde": 40, "garde_sans": 60, "garde_contre": 99}}))
    code, out, _ = cli("tournament", "--bots", f"heuristic:thresholds={path},heuristic,heuristic,heuristic",
                       "--deals", "200", "--seed", "5", "--json")
    assert code == 0
    assert {b["name"] for b in json.loads(out)["bots"]} == {f"heuristic:thresholds={path}", "heuristic"}
    code, out, _ = cli("bots")
    assert code == 0 and "thresholds" in out and "--calibrate" in out


class _FakeAxes:
    def __init__(self, log):
        self.log = log

    def plot(self, x, y, **kw):
        self.log.append(("line", kw.get("label"), list(x), list(y)))
        return [types.SimpleNamespace(get_color=lambda: "C0")]

    def fill_between(self, x, lo, hi, **kw):
        assert all(a <= b for a, b in zip(lo, hi))
        self.log.append(("band",))

    def __getattr__(self, name):  # labels, grid, legend, lines
        return lambda *a, **k: None


def test_plot_draws_one_line_and_band_per_contract(monkeypatch, big):
    _, rep = big
    log, saved = [], []

    class Figure:
        def __init__(self, **kw):
            pass

        def subplots(self, *a, **k):
            return _FakeAxes(log), _FakeAxes(log)

        def suptitle(self, *a, **k):
            pass

        def savefig(self, fh, format):
            saved.append(format)
            fh.write(b"image")

    fake = types.ModuleType("matplotlib.figure")
    fake.Figure = Figure
    package = types.ModuleType("matplotlib")
    package.figure = fake
    monkeypatch.setitem(sys.modules, "matplotlib", package)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", fake)
    buf = io.BytesIO()
    study.plot(rep, buf, "png")
    lines = [e for e in log if e[0] == "line"]
    assert len(lines) == 2 * len(CONTRACTS) and {e[1] for e in lines} == set(CONTRACTS)
    assert sum(1 for e in log if e[0] == "band") == 2 * len(CONTRACTS)
    made = [e for e in lines if e[1] == "prise"][0]
    assert made[2] == sorted(made[2]) and made[3] == [100 * r["made_rate"] for r in rep["by_points"]["prise"]]
    assert saved == ["png"] and buf.getvalue() == b"image"


# ---------------------------------------------------------------------------------------------
# bad input: one line, exit code 2, nothing run, nothing written


@pytest.fixture
def no_run(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("the study ran")
    monkeypatch.setattr(study, "run", boom)


@pytest.mark.parametrize("argv", [
    ["--table", "7"],
    ["--bots", "alphago"],
    ["--bots", "heuristic,random"],
    ["--bots", "heuristic:thresholds=/nonexistent/cal.json"],
    ["--deals", "0"],
    ["--deals", "-3"],
    ["--contracts", "prise,belote"],
    ["--contracts", "prise,prise"],
    ["--bucket", "0"],
    ["--threads", "0"],
    ["--option", "pab_multiplied=perhaps"],
    ["--csv", "/nonexistent/dir/s.csv"],
    ["--calibrate", "{tmp}"],
    ["--calibrate", "{tmp}/cal.json", "--contracts", "prise,garde"],
    ["--csv", "{tmp}/a.csv", "--calibrate", "{tmp}/a.csv"],
    ["--csv", "{tmp}/ok.csv", "--calibrate", "/nonexistent/dir/cal.json"],
])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(cli, tmp_path, no_run, argv):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = cli("study", "bidding", "--deals", "100", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_plot_without_matplotlib_says_how_to_install(cli, tmp_path, no_run, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    code, out, err = cli("study", "bidding", "--deals", "100", "--plot", str(tmp_path / "p.png"),
                         "--csv", str(tmp_path / "s.csv"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "pip install 'tarotsim[plot]'" in err
    assert list(tmp_path.iterdir()) == []


def test_study_takes_a_policy_set_and_refuses_a_python_bot(cli, monkeypatch):
    """Policy sets play on the fast path, so the study takes them; a Python bot is refused."""
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    code, out, err = cli("study", "bidding", "--deals", "500", "--seed", "2", "--threads", "1",
                         "--bots", "examples.my_policy:POLICY,heuristic,heuristic,heuristic", "--json")
    assert code in (0, None), err
    assert json.loads(out)["bots"] == "eight_trumps,heuristic,heuristic,heuristic"
    code, out, err = cli("study", "bidding", "--deals", "20", "--bots", "examples.my_bot:CautiousBot")
    assert code == 2 and "fast path" in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------------------------
# a policy set that breaks a rule stops the study (no silent loss, R-DEAL-4)


def test_a_policy_set_breaking_a_rule_stops_the_study_never_counted_as_petit_sec_R_DEAL_4():
    """A forbidden card (R-PLAY-4) in one play of the study is the error simulate gives for the same
    deal played with that contract forced: never a petit sec (R-DEAL-4) that would drop the deal."""
    from helpers_policy import RARE_CHEAT

    from tarotsim.engine import IllegalPlayError

    bots = ["heuristic", "heuristic", RARE_CHEAT, "heuristic"]
    with pytest.raises(IllegalPlayError) as e:
        study.run("4", 3, 3000, bots=bots, threads=2, chunk_size=100)
    msg = str(e.value)
    assert "bot rare_cheat at seat 2, deal (3, " in msg and "(R-PLAY-4" in msg, msg
    index = int(msg.split("deal (3, ")[1].split(")")[0])
    assert index > 0  # the deals before it are studied, not dropped
    with pytest.raises(IllegalPlayError) as one:  # the first bad deal, whatever the threads and chunks
        study.run("4", 3, index + 1, bots=bots, threads=1)
    assert str(one.value) == msg
    before = study.run("4", 3, index, bots=bots, threads=1)  # the deals before it: none annulled wrongly
    f = sim.facts(Rules("4"), 3, 0, index, bots=bots)
    assert before.annulled == int(np.sum(f["outcome"] == L.OUTCOME_PETIT_SEC))


def test_study_with_a_rule_breaking_policy_exits_2_and_writes_no_calibration(cli, tmp_path, monkeypatch):
    """``study bidding --calibrate``: one line naming bot, seat, deal and rule; exit 2; no file."""
    (tmp_path / "cheat_mod.py").write_text("from helpers_policy import RARE_CHEAT as CHEAT\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    cal = tmp_path / "cal.json"
    code, out, err = cli("study", "bidding", "--deals", "3000", "--seed", "3", "--threads", "1",
                         "--bots", "heuristic,heuristic,cheat_mod:CHEAT,heuristic", "--calibrate", str(cal))
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("tarotsim: error: bot rare_cheat at seat 2, deal (3, ") and "(R-PLAY-4" in err
    assert not cal.exists()
