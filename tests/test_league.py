"""A league of real bots: its ratings against each pair's own duplicate tournament, its database
resumed and extended (a new entrant plays only its games, a changed text is a new entrant), the
same report for any threads and from the database alone, its outputs, and every bad database as
one line, exit 2."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tarotsim import echo
from tarotsim.league import report, schedule
from tarotsim.league import pool as pools
from tarotsim.league.store import Store
from tarotsim.rules import Rules
from tarotsim.runs import tournament as tour

POOL = ["--bots", "heuristic,greedy,pimc:worlds=4", "--names", "h,g,p", "--filler", "heuristic", "--seed", "1"]
DEALS = 300


def deals_of(db) -> list:
    """Every stored deal as (seats, index, dealer, scores): what a database holds, whatever its ids."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT games.seats, deal, dealer, scores FROM deals JOIN games ON games.id = deals.game "
                            "ORDER BY games.seats, deal").fetchall()


def untimed(d: dict) -> dict:
    """A report's JSON without the times measured on this machine."""
    for row in d["entrants"]:
        row.pop("ms_per_decision")
        row.pop("timed")
    return d


@pytest.fixture(scope="module")
def league_db(tmp_path_factory):
    """The pool of POOL at 300 deals, played once by the library (the tests copy it)."""
    path = tmp_path_factory.mktemp("league") / "base.db"
    pool = pools.from_command_line({"filler": ("heuristic", "--filler"), "seed": (1, "--seed"),
                                    "deals": (DEALS, "--deals")}, "heuristic,greedy,pimc:worlds=4", "h,g,p")
    with Store.open(str(path), create=True) as store:
        schedule.run(store, schedule.plan(store, pool), threads=2)
    return path


@pytest.fixture
def db(league_db, tmp_path):
    shutil.copy(league_db, tmp_path / "l.db")
    return tmp_path / "l.db"


def test_the_ratings_agree_with_each_pairs_duplicate_tournament(cli, db):
    code, out, err = cli("league", "--db", db, "--report", "--json")
    assert code == 0, err
    rep = json.loads(out)
    assert [r["name"] for r in rep["entrants"] if r["rank"]] and rep["games_complete"] == 3
    rows = {r["name"]: r for r in rep["entrants"]}
    assert rows["h"]["rating"] == 0.0 and rows["g"]["rating"] < -10  # the anchor; greedy well below
    bots = {"h": "heuristic", "g": "greedy", "p": "pimc:worlds=4"}
    rules = Rules("4")
    for pair in rep["pairs"]:
        a, b = bots[pair["a"]], bots[pair["b"]]
        seats = sorted((a, b)) + ["heuristic"] * 2
        res = tour.run(rules, 1, DEALS, [schedule.player(rules, s) for s in seats], threads=2)
        (t,) = [p for p in res.pairs if {p["a"], p["b"]} == {a, b}]
        sign = 1 if t["a"] == a else -1
        alone = pair["alone"]
        # the pair alone is exactly its tournament: `tarotsim tournament --bots a,b,heuristic,heuristic`
        assert alone["mean"] == pytest.approx(sign * t["mean"], abs=1e-9)
        assert sorted((alone["ci_low"], alone["ci_high"])) == pytest.approx(sorted((sign * t["ci_low"],
                                                                                    sign * t["ci_high"])))
        assert alone["units"] == DEALS and alone["verdict"] == t["verdict"]
        fit = pair["fit"]   # the whole pool's fit agrees with it within the intervals
        assert fit["ci_low"] <= alone["ci_high"] and alone["ci_low"] <= fit["ci_high"], pair
        assert pair["agree"] is True


def test_the_report_is_read_from_the_database_alone_and_is_the_runs(cli, db, tmp_path):
    code, out, err = cli("league", "--db", db, "--report")
    assert (code, err) == (0, "")
    head, table = (part.splitlines() for part in out.split("\n\n")[:2])
    assert " ".join(head) == ("league · table 4 · seed 1 · 3 entrants, filler h · 3 of 3 games complete (900 of 900 "
                              "deals, each in 4 seat rotations) ratings: points a deal above h at the same table; "
                              "95% intervals: 1,000 bootstrap fits over the 300 deals, seeded by the league's seed")
    assert head[2].startswith("ratings: ") and max(map(len, head)) <= echo.TEXT_WIDTH  # two sentences, wrapped
    assert table[0].split() == ["rank", "entrant", "rating", "95%", "CI", "games", "seat-plays", "time/decision", "bot"]
    _, js, _ = cli("league", "--db", db, "--report", "--json")
    ranked = [r["name"] for r in json.loads(js)["entrants"]]
    assert [line.split()[:2] for line in table[1:4]] == [[str(k), name] for k, name in enumerate(ranked, 1)]
    assert ranked[-1] == "g"
    code, again, _ = cli("league", *POOL, "--deals", DEALS, "--db", db)  # nothing to play: the same report
    assert (code, again) == (0, out)


def test_the_ratings_are_the_same_for_any_threads(cli, db, tmp_path):
    code, out, err = cli("league", *POOL, "--deals", DEALS, "--db", tmp_path / "one.db", "--threads", "1", "--json")
    assert code == 0, err
    assert err == f"tarotsim: league: 3 game(s) of {DEALS} deals, each in 4 seat rotations: 0 stored, 3 to play " \
                  f"({3 * DEALS:,} deals)\n"
    assert deals_of(tmp_path / "one.db") == deals_of(db)
    _, base, _ = cli("league", "--db", db, "--report", "--json")
    assert untimed(json.loads(out)) == untimed(json.loads(base))


def test_a_new_entrant_plays_only_its_own_games(cli, db):
    before = deals_of(db)
    code, out, err = cli("league", *POOL[:1], "heuristic,greedy,pimc:worlds=4,random", "--names", "h,g,p,r",
                         *POOL[4:], "--deals", DEALS, "--db", db, "--json")
    assert code == 0, err
    assert err == f"tarotsim: league: 6 game(s) of {DEALS} deals, each in 4 seat rotations: 3 stored, 3 to play " \
                  f"({3 * DEALS:,} deals)\n"
    after = deals_of(db)
    new = [row for row in after if row not in before]
    assert len(after) == 6 * DEALS and len(new) == 3 * DEALS and set(before) <= set(after)
    assert {json.loads(row[0])[:2].count("random") for row in new} == {1}  # every deal played is random's
    rows = {r["name"]: r for r in json.loads(out)["entrants"]}
    assert rows["r"]["games"] == 3 and rows["h"]["games"] == 6 and rows["r"]["rating"] < rows["g"]["rating"]


def test_an_entrant_whose_text_changed_is_a_new_entrant_and_a_renamed_one_is_not(cli, db):
    code, out, err = cli("league", "--bots", "heuristic,greedy,pimc:worlds=3", "--names", "h,g,p", *POOL[4:],
                         "--deals", DEALS, "--db", db, "--json")
    assert code == 0, err
    assert "1 stored, 2 to play (600 deals)" in err
    rows = {r["name"]: r["bot"] for r in json.loads(out)["entrants"]}
    assert rows == {"h": "heuristic", "g": "greedy", "p": "pimc:worlds=3"}   # the old pimc is out of the pool
    code, out, err = cli("league", "--bots", "heuristic,greedy,pimc:worlds=3", "--names", "H,greedy,P", *POOL[4:],
                         "--anchor", "greedy", "--deals", DEALS, "--db", db, "--json")
    assert code == 0 and "3 stored, 0 to play (0 deals)" in err
    rep = json.loads(out)
    assert rep["anchor"] == "greedy" and {r["name"] for r in rep["entrants"]} == {"H", "greedy", "P"}
    assert next(r for r in rep["entrants"] if r["name"] == "greedy")["rating"] == 0.0


def test_more_deals_play_only_the_deals_not_stored(cli, db):
    before = deals_of(db)
    code, out, err = cli("league", *POOL, "--deals", DEALS + 20, "--db", db)
    assert code == 0 and "3 stored" not in err and "0 stored, 3 to play (60 deals)" in err
    after = deals_of(db)
    assert set(before) <= set(after) and len(after) == len(before) + 60


def test_an_interrupted_league_resumed_holds_exactly_the_deals_of_an_uninterrupted_one(cli, league_db, tmp_path,
                                                                                       monkeypatch):
    """Ctrl-C in the fifth chunk (of 100 deals, within the second game): four chunks kept, the note says so, and
    the same command (its chunks of the usual size) plays the rest into the uninterrupted run's database."""
    monkeypatch.setitem(schedule.CHUNK, True, 100)
    computed = []
    compute = schedule.LeagueJob.compute

    def stopping(self, a, b, threads=1, progress=None):
        if len(computed) == 4:
            raise KeyboardInterrupt
        computed.append((a, b))
        return compute(self, a, b, threads, progress)

    monkeypatch.setattr(schedule.LeagueJob, "compute", stopping)
    pool = pools.from_command_line({"filler": ("heuristic", "--filler"), "seed": (1, "--seed"),
                                    "deals": (DEALS, "--deals")}, "heuristic,greedy,pimc:worlds=4", "h,g,p")
    path = tmp_path / "l.db"
    with Store.open(str(path), create=True) as store, pytest.raises(KeyboardInterrupt) as stop:
        schedule.run(store, schedule.plan(store, pool), threads=2)
    assert stop.value.__notes__ == [f"--db {path} holds 400 of the league's 900 deals: the same command resumes "
                                    f"from there"]
    assert len(deals_of(path)) == 400
    monkeypatch.undo()
    code, out, err = cli("league", *POOL, "--deals", DEALS, "--db", path, "--json")
    assert code == 0 and err.endswith(": 1 stored, 2 to play (500 deals)\n"), err
    assert deals_of(path) == deals_of(league_db)
    _, base, _ = cli("league", "--db", league_db, "--report", "--json")
    assert untimed(json.loads(out)) == untimed(json.loads(base))


def _stopped_midway(argv: list, path, sig: int, after: int) -> tuple[int, str, int]:
    """Run ``tarotsim league ARGV`` in a process, send it ``sig`` once the database holds ``after`` deals
    (a game stored, the next one, pimc's, playing): its exit code, its standard error and the deals the
    database then holds."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    proc = subprocess.Popen([sys.executable, "-m", "tarotsim.cli", "league", *map(str, argv)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 300
        while not (path.exists() and _held(path) >= after):
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()
            time.sleep(0.005)
        proc.send_signal(sig)
        err = proc.communicate(timeout=120)[1].decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err, _held(path)


def _held(path) -> int:
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=30)) as conn:
            return conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
    except sqlite3.OperationalError:  # the schema not written yet
        return 0


@pytest.mark.slow
def test_a_league_stopped_by_sigterm_then_killed_resumes_into_the_uninterrupted_database(cli, league_db, tmp_path):
    path = tmp_path / "l.db"
    argv = [*POOL, "--deals", DEALS, "--db", path, "--threads", 1]
    code, err, held = _stopped_midway(argv, path, signal.SIGTERM, DEALS)
    assert DEALS <= held < 3 * DEALS
    assert (code, err.splitlines()[-1]) == (128 + signal.SIGTERM, f"tarotsim: stopped by SIGTERM; --db {path} holds "
                                            f"{held} of the league's 900 deals: the same command resumes from there; "
                                            f"no other output file was written")
    code, err, killed = _stopped_midway(argv, path, signal.SIGKILL, held + DEALS)  # within the last game
    assert code == -signal.SIGKILL and held < killed < 3 * DEALS
    code, out, err = cli("league", *argv, "--json")
    assert code == 0 and f"{3 * DEALS - killed} deals)" in err, err
    assert deals_of(path) == deals_of(league_db)
    _, base, _ = cli("league", "--db", league_db, "--report", "--json")
    assert untimed(json.loads(out)) == untimed(json.loads(base))


def test_a_pool_file_gives_the_same_league_as_the_options(cli, db, tmp_path):
    (tmp_path / "pool.toml").write_text(f'seed = 1\ndeals = {DEALS}\nfiller = "heuristic"\n[entrants]\n'
                                        f'h = "heuristic"\ng = "greedy"\np = "pimc:worlds=4"\n')
    code, out, err = cli("league", tmp_path / "pool.toml", "--db", db, "--json")
    assert code == 0 and "3 stored, 0 to play" in err
    _, base, _ = cli("league", "--db", db, "--report", "--json")
    assert out == base


def test_another_league_in_the_database_is_one_line(cli, db):
    for argv, what in ((["--seed", "2"], "seed 1, not 2"), (["--table", "5"], "table 4, not 5"),
                       (["--option", "misere=true"], 'options {}, not {"misere": true}')):
        code, out, err = cli("league", *POOL[:6], *argv, "--db", db)
        assert (code, out) == (2, "")
        assert err == f"tarotsim: error: {db}: holds the league of {what}: name another --db for another league\n"


def test_the_outputs_csv_html_and_json(cli, db, tmp_path):
    code, out, err = cli("league", "--db", db, "--report", "--csv", tmp_path / "l.csv", "--html", tmp_path / "l.html")
    assert code == 0
    assert err == f"leaderboard written to {tmp_path / 'l.csv'}\nreport page written to {tmp_path / 'l.html'}\n"
    rows = list(csv.DictReader(io.StringIO((tmp_path / "l.csv").read_text())))
    assert tuple(rows[0]) == report.CSV_COLUMNS and [r["name"] for r in rows if r["name"] == "h"] == ["h"]
    assert {r["name"]: float(r["rating"]) for r in rows}["h"] == 0.0
    page = (tmp_path / "l.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "points a deal" in page
    for outside in ("http:", "https:", "<script", " src=", "href=", "<link"):   # self-contained, nothing fetched
        assert outside not in page
    code, out, _ = cli("league", "--db", db, "--report", "--csv", "-")
    assert code == 0 and out.splitlines()[0] == ",".join(report.CSV_COLUMNS)
    code, out, _ = cli("league", "--db", db, "--report", "--json")
    d = json.loads(out)
    assert (d["table"], d["seed"], d["deals_per_game"], d["filler"], d["tables"], d["anchor"], d["games"]) == \
           ("4", 1, DEALS, "heuristic", "filler", "h", 3)
    assert all(r["ms_per_decision"] > 0 and r["timed"]["deals"] == schedule.TIMING_DEALS for r in d["entrants"])


def test_the_entrants_fill_every_table_without_a_filler(cli, tmp_path):
    """At table 3 three entrants are one game: the fit is then the tournament's own differences."""
    code, out, err = cli("league", "--bots", "heuristic,greedy,random", "--table", "3", "--deals", 60, "--seed", 4,
                         "--db", tmp_path / "l.db", "--json", "--bootstrap", 200)
    assert code == 0 and "1 game(s) of 60 deals, each in 3 seat rotations" in err
    rep = json.loads(out)
    assert rep["tables"] == "combinations" and rep["filler"] is None
    for pair in rep["pairs"]:
        # the report's fit is rounded (report.DECIMALS); the fit itself equals it exactly (test_league_ratings)
        assert pair["fit"]["mean"] == pytest.approx(pair["alone"]["mean"], abs=0.5 * 10 ** -report.DECIMALS)


def test_at_5d_the_dummy_seat_is_no_seat_play(cli, tmp_path):
    code, out, err = cli("league", "--bots", "heuristic,greedy", "--filler", "random", "--table", "5d", "--deals", 40,
                         "--seed", 2, "--db", tmp_path / "l.db", "--json", "--bootstrap", 100)
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)["entrants"]}
    assert rows["heuristic"]["seat_plays"] == rows["greedy"]["seat_plays"] == 40 * 4
    assert rows["random"]["filler"] and rows["random"]["seat_plays"] == 40 * 3 * 4


def test_a_report_of_a_league_with_no_deal_yet_rates_only_the_anchor(tmp_path):
    pool = pools.from_command_line({"filler": ("heuristic", "--filler"), "seed": (1, "--seed")}, "heuristic,greedy",
                                   None)
    with Store.open(str(tmp_path / "l.db"), create=True) as store:
        schedule.plan(store, pool)
        rep = report.build(store, 100)
    assert (rep.complete, rep.stored, rep.games) == (0, 0, 1)
    assert [(r["name"], r["rank"], r["rating"]) for r in rep.rows] == [("heuristic", 1, 0.0), ("greedy", None, None)]
    assert "   -  " in rep.text() and "<svg" in rep.html()


# -- a database that is not one, or damaged ---------------------------------------------------------

def _damage(path, how):
    if how == "text":
        path.write_text("rank,name\n1,heuristic\n" * 100)
    elif how == "other":
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE results (x)")
    elif how == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 3])
    elif how == "overwritten":
        data = bytearray(path.read_bytes())
        data[4096:4096 * 3] = b"\xff" * (4096 * 2)   # pages of the tables, after the header page
        path.write_bytes(bytes(data))
    elif how == "newer":
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE schema SET version = 2")
    elif how == "scores":
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE deals SET scores = x'00' WHERE deal = 7")
    elif how == "settings":
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE league SET value = '{' WHERE key = 'seed'")


@pytest.mark.parametrize("how,expected", [
    ("text", "not a league database (SQLite says: file is not a database)"),
    ("other", "not a league database (a SQLite database of other tables): name another file"),
    ("truncated", "a damaged league database"),
    ("overwritten", "a damaged league database"),
    ("newer", "a league database of schema version 2; this tarotsim reads version 1"),
    ("scores", "a damaged league database (a deal's scores are not 4 rotations of 4 seats)"),
    ("settings", "a damaged league database (a setting is not JSON)"),
])
@pytest.mark.parametrize("mode", ["report", "run"])
def test_a_foreign_or_damaged_database_is_one_line_exit_2(cli, db, how, expected, mode):
    if how in ("text", "other"):
        db.unlink()
    _damage(db, how)
    before = db.read_bytes()
    argv = ["--report"] if mode == "report" else [*POOL, "--deals", DEALS]
    code, out, err = cli("league", "--db", db, *argv)
    assert (code, out) == (2, "")
    *before_it, line = err.splitlines()
    assert line.startswith(f"tarotsim: error: {db}: ") and expected in line, err
    # the deals' scores are read by the report, after the run's line of what it has to play
    assert len(before_it) == (mode == "run" and how == "scores")
    if how in ("text", "other"):
        assert db.read_bytes() == before   # another program's file is left as it was


@pytest.mark.parametrize("argv,expected", [
    (["--db", "missing.db", "--report"], "missing.db: no such league database"),
    (["--db", ".", "--report"], ".: a folder, not a league database"),
    (["--db", "-", "--report"], "--db: a file is needed, not standard output"),
    (["--db", "empty.db", "--report"], "empty.db: an empty database, holding no league"),
    (["--db", "nofolder/l.db", "--bots", "heuristic,greedy", "--filler", "heuristic"],
     "--db: cannot write nofolder/l.db: folder nofolder does not exist"),
])
def test_a_database_that_cannot_be_read_is_one_line_exit_2(cli, tmp_path, monkeypatch, argv, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.db").write_bytes(b"")
    code, out, err = cli("league", *argv)
    assert (code, out, err) == (2, "", f"tarotsim: error: {expected}\n")


@pytest.mark.slow
def test_a_league_on_dask_stores_the_deals_of_a_local_run(cli, db, tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code, out, err = cli("league", *POOL, "--deals", DEALS, "--db", tmp_path / "dask.db", "--dask-local", 2, "--json")
    assert code == 0, err
    assert deals_of(tmp_path / "dask.db") == deals_of(db)
    _, base, _ = cli("league", "--db", db, "--report", "--json")
    assert untimed(json.loads(out)) == untimed(json.loads(base))
