"""The evenings in SQLite (tarotsim.web.store): the schema versioned and marked, a file of another
program or schema refused in one line, the deal in progress kept at every decision and read back
exactly, the finished deals as records (docs/records.md) that `tarotsim replay`, `stats`, `show`
and `analyse` read with --db FILE --evening ID, and `tarotsim evenings` lists and exports."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tarotsim.engine import Game
from tarotsim.web.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreError, event_json, events_of
from tarotsim.web.table import Table

from helpers_web import choose


def play_evening(store: Store, deals: int, table: str = "4", seat: int = 0, seed: int = 16) -> Table:
    """An evening of ``deals`` finished deals and a few decisions of the next, the person as helpers_web.choose."""
    t = Table.new(store, table, [], seat, "heuristic", seed)
    while len(t.records) < deals or t.finished is not None:
        if t.finished is not None:
            t.next_deal()
        elif t.bots_to_move:
            t.bot_move()
        else:
            t.act(choose(t.choices()))
    for _ in range(6):
        t.bot_move() if t.bots_to_move else t.act(choose(t.choices()))
    return t


@pytest.fixture(scope="module")
def evening_db(tmp_path_factory):
    """A database of one evening of three finished deals (table 4, seed 16), its fourth under way."""
    path = tmp_path_factory.mktemp("evenings") / "evenings.sqlite3"
    store = Store(path)
    table = play_evening(store, 3)
    store.close()
    return path, table


def test_a_new_file_is_marked_and_versioned(tmp_path):
    path = tmp_path / "e.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 1
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == \
        {"evenings", "deals", "progress"}
    db.close()
    assert Store(path).evenings() == []  # opened again as it is


def test_files_that_are_not_tarotsim_evenings_are_refused_in_one_line(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all " * 100)
    other = tmp_path / "other.sqlite3"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    later = tmp_path / "later.sqlite3"
    Store(later).close()
    db = sqlite3.connect(later)
    db.execute("PRAGMA user_version = 7")
    db.close()
    for path, words in ((text, "is not a tarotsim evenings database"), (other, "it is another program's"),
                        (later, "evenings of schema 7, this tarotsim reads schema 1"),
                        (tmp_path / "nowhere" / "e.sqlite3", "no folder")):
        with pytest.raises(StoreError) as e:
            Store(path)
        assert words in str(e.value) and "\n" not in str(e.value)
    assert text.read_text().startswith("not a database")  # never written
    with pytest.raises(StoreError, match="no such database"):
        Store(tmp_path / "missing.sqlite3", create=False)
    assert not (tmp_path / "missing.sqlite3").exists()


def test_every_kind_of_event_is_kept_and_read_back():
    """The example deals (a chelem announced, a poignée, a table-5 call, the 5d dummy) and a misère
    (R-MIS-1): their events through JSON replay to the same deal."""
    from tarotsim.engine import Event
    from tarotsim.rules import Rules

    kinds = set()
    for line in open("tests/data/examples.jsonl").read().splitlines():
        rec = json.loads(line)
        original = _replayed_events(rec)
        game = Game(Rules.from_options(rec["table"], rec["options"]), hands=rec["hands"], chien=rec["chien"],
                    dealer=rec["dealer"])
        game.replay(events_of(json.loads(json.dumps([event_json(e) for e in original]))))
        assert game.events == original and game.record()["scores"] == rec["scores"]
        kinds |= {e.kind for e in original}
    assert kinds == {"bid", "call", "ecart", "chelem", "poignee", "card", "trick"}
    misere = Event("misere", 2, ("tete", True))
    assert events_of(json.loads(json.dumps([event_json(misere)]))) == [misere]
    with pytest.raises(StoreError, match="no known shape"):
        events_of([["card", 0, "ZZ"]])


def _replayed_events(rec: dict):
    """The events of a recorded deal, played again on a Game from its hands."""
    from tarotsim.cards import parse_cards
    from tarotsim.rules import Rules

    game = Game(Rules.from_options(rec["table"], rec["options"]), hands=rec["hands"], chien=rec["chien"],
                dealer=rec["dealer"])
    bids = iter(rec["bids"])
    tricks = iter(c for t in rec["tricks"] for c in t["cards"])
    declared = {(d["seat"], d["kind"]): d for d in rec["declarations"]}
    while (d := game.decision) is not None:
        if d.kind == "bid":
            game.bid(next(bids)[1])
        elif d.kind == "call":
            game.call(rec["called"])
        elif d.kind == "ecart":
            game.discard(parse_cards(rec["ecart"]))
        elif d.kind == "chelem":
            game.announce_chelem((d.seat, "chelem") in declared)
        elif d.kind == "poignee":
            p = declared.get((d.seat, "poignee"))
            game.declare_poignee(None) if p is None else game.declare_poignee(p["level"], parse_cards(p["cards"]))
        elif d.kind.startswith("misere"):
            game.declare_misere((d.seat, d.kind) in declared)
        else:
            game.play(next(tricks))
    return list(game.events)


def test_the_deal_in_progress_is_kept_at_every_decision(evening_db):
    path, table = evening_db
    store = Store(path, create=False)
    progress = store.progress(table.id)
    assert (progress.number, progress.index) == (4, table.index) and progress.events == table.game.events
    assert (progress.bots_state, progress.hints_state) == (table.rng.state, table.hint_rng.state)
    again = Table.resume(store, table.id)
    assert again.state() | {"turn": 0} == table.state() | {"turn": 0}
    e = store.evening(table.id)
    assert (e.deals, e.table, e.seat, e.seed, e.names, e.ended) == (3, "4", 0, 16, ["you", "bot1", "bot2", "bot3"],
                                                                     False)
    assert e.totals == [sum(r["scores"][s] for r in store.records(table.id)) for s in range(4)]
    store.close()


def test_the_records_are_the_deals_played_one_after_the_other_R_DEAL_3(evening_db):
    path, table = evening_db
    store = Store(path, create=False)
    records = store.records(table.id)
    assert [r["index"] for r in records] == [16 % 4, 16 % 4 + 1, 16 % 4 + 2]
    assert [r["dealer"] for r in records] == [0, 1, 2]  # each deal dealt by the next seat (R-DEAL-3)
    assert all(r["players"] == ["you", "bot1", "bot2", "bot3"] and r["seed"] == 16 for r in records)
    assert store.jsonl(table.id).decode().splitlines() == [json.dumps(r) for r in records]
    with pytest.raises(StoreError, match="holds no evening 99"):
        store.jsonl(99)
    store.close()


def test_replay_stats_show_and_analyse_read_an_evening_of_the_database(evening_db, cli, tmp_path):
    path, table = evening_db
    code, out, err = cli("replay", "--db", path, "--evening", table.id, "--verify")
    assert code == 0 and err == "" and out.splitlines()[-1] == "3 record(s) verified, 0 bad"
    code, out, err = cli("stats", "--db", path, "--evening", table.id, "--by", "player")
    assert code == 0 and "you" in out and "bot3" in out
    code, out, err = cli("show", "--db", path, "--evening", table.id, "--line", 2)
    assert code == 0 and out.startswith("Table 4 — seed 16, index 1 — dealer ")
    page = tmp_path / "deals.html"
    code, out, err = cli("show", "--db", path, "--evening", table.id, "--html", page)
    assert code == 0 and "3 deal(s) written" in err and "evening" in page.read_text()
    code, out, err = cli("analyse", "--db", path, "--evening", table.id, "--line", 1, "--from-trick", 16)
    assert code == 0 and "trick 16: value" in out
    bad = [(("replay", "--db", path), "--db FILE: give --evening ID too"),
           (("replay", "--evening", table.id, "--db", tmp_path / "none.sqlite3"), "no such database"),
           (("replay", "--db", path, "--evening", 42), "holds no evening 42"),
           (("replay", tmp_path / "x.jsonl", "--db", path, "--evening", 1), "FILE and --evening: give one of them"),
           (("stats",), "Missing argument 'FILE' (or --evening ID")]
    for args, words in bad:
        code, out, err = cli(*args)
        assert code == 2 and out == "" and words in err and err.count("\n") == 1, (args, err)


def test_evenings_lists_and_exports_the_records_and_the_sheet(evening_db, cli, tmp_path):
    path, table = evening_db
    code, out, err = cli("evenings", "--db", path)
    assert code == 0 and out.startswith(f"evening {table.id}  ") and "table 4  seat 0  bots heuristic  seed 16  " \
        "3 deal(s), in progress" in out
    records, sheet = tmp_path / "evening.jsonl", tmp_path / "evening.csv"
    code, out, err = cli("evenings", "--db", path, "--evening", table.id, "--records", records, "--sheet", sheet)
    assert code == 0 and out == "" and f"deal records of evening {table.id} written to {records}" in err
    assert cli("replay", records, "--verify")[1].splitlines()[-1] == "3 record(s) verified, 0 bad"
    code, out, err = cli("sheet", sheet, "--check")
    assert code == 0 and out == "3 deal(s) checked: every one scored as the rules say\n"
    code, out, err = cli("sheet", sheet)
    totals = Store(path, create=False).evening(table.id).totals
    assert code == 0 and out.splitlines()[-3].split()[1:] == [f"{t:+d}" for t in totals]
    empty = tmp_path / "empty.sqlite3"
    Store(empty).close()
    assert cli("evenings", "--db", empty)[1] == f"{empty} holds no evening\n"
    for args, words in ((("--evening", 1), "give --records FILE.jsonl or --sheet"),
                        (("--records", records), "give --evening ID"), (("--evening", 9, "--sheet", sheet),
                                                                        "holds no evening 9"),
                        (("--db", tmp_path / "absent.sqlite3"), "no such database")):
        code, out, err = cli("evenings", "--db", path, *args)
        assert code == 2 and out == "" and words in err and err.count("\n") == 1, (args, err)
