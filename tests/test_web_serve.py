"""`tarotsim serve` as a user runs it: its URL on the first line of stdout, bad options refused in
one line, and an evening that outlives the server. Killed mid-deal (``kill -9``: no clean-up at
all) and started again on the same database, the server offers the evening and resumes it at the
very decision it had reached, the écart half picked; the deal then plays to a record that
replays. SIGTERM stops it as every command stops, saying where the evenings are kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tarotsim.record import verify
from tarotsim.web.store import Store

from helpers_web import Page

#: What a page shows of the table that must come back the same after a restart.
TABLE_KEYS = ("evening", "deal", "seed", "index", "seat", "names", "hand", "choices", "picks", "marked", "chien",
              "bids", "taker", "contract", "log", "picture", "decision", "ecart_size")


def start(db, *args) -> tuple[subprocess.Popen, str]:
    """``tarotsim serve --db DB --port 0 --pace 0`` in its own process; the URL it prints first."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")]))}
    p = subprocess.Popen([sys.executable, "-m", "tarotsim.cli", "serve", "--db", str(db), "--port", "0", "--pace", "0",
                          *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    url = p.stdout.readline()
    assert url.startswith("http://127.0.0.1:") and url.endswith("/\n"), (url, p.stderr.read() if p.stderr else "")
    return p, url.strip()


@pytest.mark.slow
def test_an_evening_survives_kill_9_mid_ecart_and_resumes_exactly(tmp_path, cli):
    db = tmp_path / "evenings.sqlite3"
    server, url = start(db)
    try:
        page = Page(url)
        page.send(type="new", table="4", seat=0, seed=16, bots="heuristic")
        state = page.settled()
        page.send(type="act", action="garde", turn=state["turn"])
        state = page.settled()
        assert state["decision"]["kind"] == "ecart"
        legal = [c["action"] for c in state["choices"] if c["legal"]]
        for card in legal[:2]:
            page.send(type="act", action=card, turn=state["turn"])
            state = page.until("state")
        assert state["picks"] == legal[:2]
        before = state
        server.send_signal(signal.SIGKILL)
        server.wait(30)
        page.close()
    finally:
        server.kill()
    server, url = start(db)
    try:
        page = Page(url)
        (row,) = page.evenings
        assert (row["evening"], row["deals"], row["open"]) == (before["evening"], 0, False)
        page.send(type="resume", evening=row["evening"])
        resumed = page.settled()
        assert {k: resumed[k] for k in TABLE_KEYS} == {k: before[k] for k in TABLE_KEYS}
        end = page.play_deal(resumed)
        (rec,) = Store(db, create=False).records(row["evening"])
        assert end["result"]["scores"] == rec["scores"] == verify(rec).scores
        assert legal[0] in rec["ecart"] and legal[1] in rec["ecart"]  # the picks made before the kill
        page.close()
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=60)
        assert server.returncode == 128 + signal.SIGTERM
        assert err == f"tarotsim: stopped by SIGTERM; the evenings are kept in {db}; no other output file was written\n"
    finally:
        server.kill()
    code, out, _ = cli("replay", "--db", db, "--evening", row["evening"], "--verify")
    assert code == 0 and out.endswith("1 record(s) verified, 0 bad\n")


@pytest.mark.parametrize("args, words", [
    (["--port", "70000"], "Invalid value for '--port': 70000 is not in the range 0<=x<=65535."),
    (["--bots", "nonsense"], "nonsense"),
    (["--pace", "-1"], "Invalid value for '--pace'"),
])
def test_bad_options_are_one_line_and_exit_2(cli, tmp_path, args, words):
    code, out, err = cli("serve", "--db", tmp_path / "e.sqlite3", *args)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1, err
    assert not (tmp_path / "e.sqlite3").exists()  # refused before anything is written


def test_a_file_that_is_no_evenings_database_is_refused(cli, tmp_path):
    (tmp_path / "notes.txt").write_text("my notes\n")
    code, out, err = cli("serve", "--db", tmp_path / "notes.txt")
    assert code == 2 and err == (f"tarotsim: error: --db: {tmp_path / 'notes.txt'} is not a tarotsim evenings "
                                 "database (file is not a database)\n")
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
