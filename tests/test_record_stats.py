"""`tarotsim stats` (tarotsim.analysis.record_stats): the figures of a records file agree with the same
figures computed by a plain Python loop over the records (R-SCORE-2, R-COUNT-4, R-PAB-1, R-PAB-2,
R-POIG-1, R-SLAM-3, R-EXC-3, R-EXC-4), by seat, by player and by bot; JSON and CSV; bad input is
one line."""

import csv
import json
import math
import statistics
from collections import Counter
from pathlib import Path

import pytest

from tarotsim import echo
from tarotsim.cli import main
from tarotsim.record import load, with_seat_labels
from tarotsim.analysis.record_stats import CSV_COLUMNS, RecordStats, StatsError, stats_of_file
from tarotsim.rules import CONTRACTS
from tarotsim.stats import t_critical

DATA = Path(__file__).parent / "data"
EXAMPLES_FILE = DATA / "examples.jsonl"


@pytest.fixture(scope="module")
def records_file(tmp_path_factory):
    """Simulated deals at tables 4, 5 and 5d (each naming its seats' bots), then the hand-made
    examples (a slam won by the Excuse led to the last trick, a petit au bout one trick earlier)."""
    folder = tmp_path_factory.mktemp("stats")
    parts = []
    for table, bots, deals in (("4", "heuristic,random,random,random", 300), ("5", "greedy,random,random,random,random", 150),
                               ("5d", "random", 60)):
        path = folder / f"t{table}.jsonl"
        with pytest.raises(SystemExit) as e:
            main(["simulate", "--table", table, "--bots", bots, "--deals", str(deals), "--seed", "11",
                  "--records", str(path), "--option", "misere=on" if table == "4" else "petit_sec=redeal"])
        assert e.value.code == 0
        parts.append(path.read_text())
    both = folder / "all.jsonl"
    both.write_text("".join(parts) + EXAMPLES_FILE.read_text())
    simulated = folder / "simulated.jsonl.gz"
    import gzip
    simulated.write_bytes(gzip.compress("".join(parts).encode()))
    return both, simulated


def naive(records, group_of):
    """The figures of ``RecordStats.to_dict()["groups"]`` by a plain loop, from the records alone."""
    g = {}

    def of(label):
        return g.setdefault(label, {"deals": 0, "auctions": 0, "taken": 0, "made": 0, "score": [], "as_taker": [],
                                    "as_partner": [], "as_defender": [], "pab_won": 0, "pab_lost": 0,
                                    "poignees": Counter(), "chelems": Counter(), "ex_lost": 0})

    for rec in records:
        n = len(rec["hands"])
        dummy = rec["dealer"] if rec["table"] == "5d" else None
        attack = {rec.get("taker"), rec.get("partner")} - {None}
        for seat in range(n):
            if seat == dummy:
                continue
            x = of(group_of(rec, seat))
            x["deals"] += 1
            x["auctions"] += rec["outcome"] != "petit_sec"
            x["score"].append(rec["scores"][seat])
            if rec["outcome"] != "played":
                continue
            if seat == rec["taker"]:
                x["taken"] += 1
                x["made"] += rec["result"]["made"]
                x["as_taker"].append(rec["scores"][seat])
                if rec["result"]["chelem"]:
                    x["chelems"][rec["result"]["chelem"]] += 1
            elif seat in attack:
                x["as_partner"].append(rec["scores"][seat])
            else:
                x["as_defender"].append(rec["scores"][seat])
        for d in rec["declarations"]:
            if d["kind"] == "poignee":
                of(group_of(rec, d["seat"]))["poignees"][d["level"]] += 1
        if rec["outcome"] != "played":
            continue
        played_by = {}  # (trick number, card) -> seat
        for k, t in enumerate(rec["tricks"]):
            seat = t["leader"]
            for c in t["cards"]:
                while seat == dummy:
                    seat = (seat + 1) % n
                played_by[k, c] = seat
                seat = (seat + 1) % n
        last = len(rec["tricks"]) - 1
        side = {s: "attack" if s in attack else "defence" for s in range(n)}
        earned = rec["result"]["petit_au_bout"]
        if earned:
            k = last if (last, "T1") in played_by else last - 1  # R-PAB-2: the trick before the last
            owner = played_by[k, "T1"]
            of(group_of(rec, owner))["pab_won" if side[owner] == earned else "pab_lost"] += 1
        if (last, "EX") in played_by:
            owner = played_by[last, "EX"]
            if side[owner] != side[rec["tricks"][last]["winner"]]:
                of(group_of(rec, owner))["ex_lost"] += 1
    return g


def assert_mean(got: dict, values: list[int]):
    assert got["n"] == len(values)
    if not values:
        assert got["mean"] is None
        return
    assert got["mean"] == pytest.approx(statistics.fmean(values), abs=1e-6)
    if len(values) < 2:
        assert got["low"] is None and got["high"] is None
        return
    half = t_critical(len(values)) * statistics.stdev(values) / math.sqrt(len(values))
    assert got["low"] == pytest.approx(statistics.fmean(values) - half, abs=1e-6)
    assert got["high"] == pytest.approx(statistics.fmean(values) + half, abs=1e-6)


def check_groups(st: dict, expected: dict):
    assert set(st["groups"]) == set(expected)
    for label, x in expected.items():
        got = st["groups"][label]
        assert (got["deals"], got["auctions"], got["taken"], got["made"]) == \
            (x["deals"], x["auctions"], x["taken"], x["made"])
        assert got["take_rate"] == (x["taken"] / x["auctions"] if x["auctions"] else None)
        for key in ("score", "as_taker", "as_partner", "as_defender"):
            assert_mean(got[key], x[key])
        assert (got["petit_au_bout_won"], got["petit_au_bout_lost"], got["excuse_lost_last_trick"]) == \
            (x["pab_won"], x["pab_lost"], x["ex_lost"])
        assert {k: v for k, v in got["poignees"].items() if v} == dict(x["poignees"])
        assert {k: v for k, v in got["chelems"].items() if v} == dict(x["chelems"])


def test_stats_by_seat_agree_with_a_plain_loop(records_file):
    path, _ = records_file
    records = [r for _, r in load(path)]
    st = stats_of_file(path).to_dict()
    check_groups(st, naive(records, lambda rec, seat: f"seat {seat}"))
    assert st["deals"] == len(records) == 516
    assert st["played"] + st["thrown_in"] + st["annulled"] == st["deals"]
    played = [r for r in records if r["outcome"] == "played"]
    for c in CONTRACTS:
        at = [r for r in played if r["contract"] == c]
        got = st["contracts"][c]
        assert (got["taken"], got["made"]) == (len(at), sum(r["result"]["made"] for r in at))
        assert_mean(got["taker_score"], [r["scores"][r["taker"]] for r in at])
        assert got["attack_points"]["mean"] == (pytest.approx(statistics.fmean(
            r["result"]["attack_half_points"] / 2 for r in at)) if at else None)
        assert got["petit_au_bout"] == {s: sum(r["result"]["petit_au_bout"] == s for r in at)
                                        for s in ("attack", "defence")}
        assert got["with_poignee"] == sum(any(d["kind"] == "poignee" for d in r["declarations"]) for r in at)
    # the figures the plain loop must have met for the check to mean something
    seats = st["groups"].values()
    assert sum(g["petit_au_bout_won"] + g["petit_au_bout_lost"] for g in seats) > 0
    assert sum(g["excuse_lost_last_trick"] for g in seats) > 0
    assert sum(sum(g["poignees"].values()) for g in seats) > 0
    assert sum(g["as_partner"]["n"] for g in seats) > 0


def test_stats_by_bot_agree_with_a_plain_loop(records_file):
    _, simulated = records_file  # gzip: read as any records file
    records = [r for _, r in load(simulated)]
    st = stats_of_file(simulated, "bot").to_dict()
    check_groups(st, naive(records, lambda rec, seat: rec["bots"][seat]))
    assert set(st["groups"]) == {"heuristic", "greedy", "random"}


def test_stats_by_player_use_the_names_play_writes(tmp_path):
    recs = [with_seat_labels(r, players=[["Ann", "Bob", "Cy", "Di", "Ed"][s] for s in range(len(r["hands"]))])
            for _, r in load(EXAMPLES_FILE)]
    st = RecordStats("player")
    for r in recs:
        st.add(r)
    check_groups(st.to_dict(), naive(recs, lambda rec, seat: rec["players"][seat]))
    with pytest.raises(StatsError, match="--by player"):
        RecordStats("player").add(next(load(EXAMPLES_FILE))[1], 1)


def test_stats_command_json_csv_and_text(records_file, tmp_path, cli):
    path, _ = records_file
    out_csv = tmp_path / "s.csv"
    code, out, err = cli("stats", path, "--json", "--csv", out_csv)
    assert code == 0 and json.loads(out) == stats_of_file(path).to_dict()
    rows = list(csv.DictReader(out_csv.open(newline="")))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [r["name"] for r in rows] == [f"seat {s}" for s in range(5)] + list(CONTRACTS)
    d = json.loads(out)
    assert int(rows[0]["deals"]) == d["groups"]["seat 0"]["deals"]
    assert float(rows[-1]["taker_mean"]) == pytest.approx(d["contracts"]["garde_contre"]["taker_score"]["mean"])
    code, out, err = cli("stats", path)
    assert code == 0 and "by seat" in out and "garde_sans" in out and "[95% CI]" in out
    legend = out.rstrip("\n").split("\n\n")[-1].splitlines()
    assert legend[0].startswith("take = taken / deals with an auction;") and len(legend) > 1
    assert all(len(line) <= echo.TEXT_WIDTH for line in legend)  # the tables above keep their columns


def test_stats_bad_input_is_one_line(tmp_path, cli):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    broken = tmp_path / "broken.jsonl"
    broken.write_text(EXAMPLES_FILE.read_text().splitlines()[0] + "\n{not json\n")
    for argv in (["stats", tmp_path / "missing.jsonl"], ["stats", empty], ["stats", broken],
                 ["stats", EXAMPLES_FILE, "--by", "bot"], ["stats", EXAMPLES_FILE, "--by", "team"],
                 ["stats", EXAMPLES_FILE, "--csv", tmp_path / "no" / "s.csv"]):
        code, out, err = cli(*argv)
        assert code == 2 and out == "" and err.startswith("tarotsim: error:") and err.count("\n") == 1, (argv, err)


def test_a_players_field_of_another_program_is_read_and_not_used(tmp_path):
    """Extra fields are not checked on loading (DESIGN §6): another program's ``players`` loads, and
    only `--by player` refuses it, naming the line."""
    rec = dict(next(load(EXAMPLES_FILE))[1], players={"team": "blue"})
    path = tmp_path / "other.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    (line, back), = load(path)
    assert back == rec
    assert stats_of_file(path).deals == 1
    with pytest.raises(StatsError, match="line 1: --by player"):
        stats_of_file(path, "player")


# ---------------------------------------------------------------------------------------------
# what cannot be right is warned about


def _edited(tmp_path, edit) -> Path:
    """The examples file with ``edit(line, record)`` applied to each record."""
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(edit(line, rec)) + "\n" for line, rec in load(EXAMPLES_FILE)))
    return path


def test_stats_warn_on_scores_that_do_not_add_up_to_zero(tmp_path, cli):
    def edit(line, rec):
        if line in (2, 4):
            rec["scores"] = [s + 1 for s in rec["scores"]]
        return rec

    code, out, err = cli("stats", _edited(tmp_path, edit), "--json")
    path = tmp_path / "edited.jsonl"
    line = (f"tarotsim: warning: {path}: 2 record(s) whose scores do not add up to zero (R-SCORE-3), the first at "
            "line 2; `tarotsim replay --verify` names what is wrong with each")
    assert code == 0 and err.splitlines()[0] == line
    assert json.loads(out)["warnings"][0] == line.split(f"{path}: ")[1]


def test_stats_warn_on_a_score_no_deal_can_reach(tmp_path, cli):
    from tarotsim.rules import Rules
    from tarotsim.scoring import score_limit

    def edit(line, rec):
        if line == 3:  # table 3: a score beyond the limit there, the deal's scores still adding up to zero
            limit = score_limit(Rules.from_options(rec["table"], rec.get("options") or {}))
            rec["scores"] = [2 * (limit + 1), -(limit + 1), -(limit + 1)]
        return rec

    code, out, err = cli("stats", _edited(tmp_path, edit))
    limit = score_limit(Rules("3"))
    assert code == 0 and (f"1 record(s) with a score no deal can reach (beyond ±{limit:,} at table 3), the first at "
                          f"line 3; `tarotsim replay --verify` names what is wrong with each") in err
    assert "do not add up to zero" not in err


def test_the_score_limit_is_reached_and_never_passed():
    """The limit is a score some facts give (a bound, not a guess), and the scorer never passes
    it on any contract, points, oudlers or chelem (R-SCORE-1, R-SCORE-2)."""
    from itertools import product

    import numpy as np

    from tarotsim.rules import TABLES, Rules
    from tarotsim.scoring import CHELEM_OUTCOMES, ST_LEN, score_core, score_limit

    for table, misere in product(TABLES, (False, True)):
        rules = Rules(table, misere=misere)
        limit, n = score_limit(rules), rules.n_seats
        seen = 0
        for contract, hp, oudlers, pab, (announced, side) in product(range(4), range(0, 183, 13), range(4), (-1, 0, 1),
                                                                      CHELEM_OUTCOMES.values()):
            scores = np.zeros(n, dtype=np.int64)
            score_core(rules.to_vector(), contract, hp, oudlers, pab, 40, 0, announced, side, 0, -1,
                       n - 1 if table == "5d" else -1, np.zeros(n, dtype=np.int64), np.zeros(ST_LEN, dtype=np.int64),
                       scores)
            seen = max(seen, int(abs(scores).max()))
        assert 0 < seen <= limit, (table, misere)


def test_stats_warn_on_records_of_several_tables(cli):
    code, out, err = cli("stats", EXAMPLES_FILE)
    assert code == 0
    assert err == (f"tarotsim: warning: {EXAMPLES_FILE}: the records are of several tables (deals by table 3: 1, "
                   f"4: 3, 5: 1, 5d: 1): every figure mixes them\n")


def test_stats_of_sound_records_of_one_table_warn_of_nothing(records_file, cli):
    _, simulated = records_file
    st = stats_of_file(simulated)
    assert st.not_zero_sum == [0, None] and st.out_of_range == [0, None]
    one = [r for _, r in load(EXAMPLES_FILE) if r["table"] == "4"]
    mine = RecordStats()
    for r in one:
        mine.add(r)
    assert mine.warnings() == [] and mine.to_dict()["warnings"] == []


def test_share_is_taken_over_every_deal_as_simulate_says_it(records_file, cli):
    """One meaning of share for `simulate` and `stats`: the deals taken at a contract over all the
    deals (thrown in and annulled ones too), and both say so."""
    path, _ = records_file
    d = stats_of_file(path).to_dict()
    for c in CONTRACTS:
        assert d["contracts"][c]["share"] == d["contracts"][c]["taken"] / d["deals"]
    assert d["thrown_in"] > 0
    code, out, _ = cli("stats", path)
    assert "share = taken / deals;" in out
    code, out, _ = cli("simulate", "--deals", 200, "--seed", 11)
    assert code == 0 and "share = taken / deals (as `tarotsim stats` says it); made = made / taken" in out
    garde = next(line for line in out.splitlines() if line.startswith("garde "))
    taken = int(garde.split()[1].replace(",", ""))
    assert garde.split()[2] == f"{100 * taken / 200:.1f}%"
