"""The pool of a league: the pool file's format (its example, shown by --help), the same pool on the
command line, and every error of a pool file as one line naming the line it is about."""

from __future__ import annotations

import pytest

import bots
from tarotsim.league import pool as pools
from tarotsim.league.pool import Entrant, PoolError

KNOWN = ", ".join(bots.REGISTRY)  # the registry's bots, as an unknown bot's error lists them
GOOD = """\
table = "4"
seed = 1
deals = 200
filler = "heuristic"
[entrants]
heuristic = "heuristic"
greedy = "greedy"
"pimc 4" = "pimc:worlds=4"
"""


def test_the_example_is_a_pool_and_help_shows_it(cli):
    p = pools.loads(pools.EXAMPLE, "pool.toml")
    assert (p.table, p.seed, p.deals, p.filler, p.anchor) == ("4", 1, 500, "heuristic", "heuristic")
    assert p.entrants == (Entrant("heuristic", "heuristic"), Entrant("greedy", "greedy"), Entrant("random", "random"),
                          Entrant("pimc", "pimc:worlds=8"))
    code, out, _ = cli("league", "--help")
    assert code == 0
    shown = [line.strip() for line in out.splitlines()]
    assert all(line.strip() in shown for line in pools.EXAMPLE.splitlines())


def test_a_pool_file_gives_its_values_and_the_defaults_the_rest():
    p = pools.loads(GOOD, "p.toml")
    assert p.bots == ["heuristic", "greedy", "pimc:worlds=4"] and p.anchor == "heuristic"  # the first entrant
    assert p.name_of("pimc:worlds=4") == "pimc 4" and p.anchor_bot == "heuristic"
    q = pools.loads('[entrants]\na = "heuristic"\nb = "greedy"\nc = "random"\nd = "pimc"\n', "p.toml")
    assert (q.table, q.seed, q.deals, q.filler, q.options) == ("4", None, pools.DEFAULT_DEALS, None, {})


def test_an_entrant_is_its_bots_text_as_a_tournament_labels_it():
    p = pools.loads('filler = "random"\n[entrants]\nH = "Heuristic"\ng = "heuristic:garde=56,prise=40"\n', "p.toml")
    assert p.bots == ["heuristic", "heuristic:garde=56,prise=40"]


def test_options_of_the_command_line_override_and_add_to_the_file():
    p = pools.loads(GOOD + '[options]\nmisere = true\n', "p.toml",
                    {"deals": (300, "--deals"), "options": ({"misere_value": "20"}, "--option")})
    assert p.deals == 300 and p.options == {"misere": True, "misere_value": 20}


def test_the_same_pool_on_the_command_line():
    p = pools.from_command_line({"filler": ("heuristic", "--filler"), "deals": (200, "--deals")},
                                "heuristic,greedy,pimc:worlds=4", "h,g,p")
    assert p.entrants == (Entrant("h", "heuristic"), Entrant("g", "greedy"), Entrant("p", "pimc:worlds=4"))
    q = pools.from_command_line({"filler": ("heuristic", "--filler")}, "heuristic:garde=56,prise=40,greedy", None)
    assert q.entrants == (Entrant("heuristic:garde=56,prise=40", "heuristic:garde=56,prise=40"),
                          Entrant("greedy", "greedy"))


@pytest.mark.parametrize("text,expected", [
    ('table = "4"\nseed = 1\ndeals = = 2\n', "p.toml line 3, column 9: Invalid value"),
    ('seeds = 1\n[entrants]\na = "heuristic"\n', "p.toml line 1: unknown key 'seeds': a pool file's keys are "
                                                 "table, seed, deals, filler, anchor, options, entrants"),
    ('table = "6"\n' + GOOD.split("\n", 1)[1], "p.toml line 1: table '6' is not one of 3, 4, 5, 5d, 2"),
    ('seed = -1\n[entrants]\na = "heuristic"\nb = "greedy"\n', "p.toml line 1: seed must be in 0..2**64-1"),
    ('seed = "one"\n[entrants]\na = "heuristic"\nb = "greedy"\n', "p.toml line 1: seed is a whole number, not 'one'"),
    ('\ndeals = 1\nfiller = "heuristic"\n[entrants]\na = "heuristic"\nb = "greedy"\n',
     "p.toml line 2: deals must be at least 2, not 1 (a game's interval needs two deals)"),
    ('filler = "heuristic,greedy"\n[entrants]\na = "heuristic"\nb = "greedy"\n',
     "p.toml line 1: filler: one bot, not 2 ('heuristic,greedy')"),
    (GOOD.replace('greedy = "greedy"', 'greedy = "gredy"'),
     f"p.toml line 7: entrant greedy: unknown bot 'gredy' (known: {KNOWN})"),
    (GOOD.replace('"pimc:worlds=4"', '"pimc:worlds=x"'), "p.toml line 8: entrant pimc 4: bot pimc parameter worlds"),
    (GOOD.replace('"pimc:worlds=4"', '"Heuristic"'),
     "p.toml line 8: entrant pimc 4 is heuristic again (heuristic, at p.toml line 6): each entrant is a different bot"),
    (GOOD.replace('greedy = "greedy"', 'Heuristic = "greedy"'),
     "p.toml line 7: the name Heuristic is given twice (also at p.toml line 6)"),
    (GOOD.replace('greedy = "greedy"', 'greedy = 3'), "p.toml line 7: entrant greedy is one bot's text"),
    (GOOD.replace('greedy = "greedy"', '"gre\\tedy" = "greedy"'), "p.toml line 7: the name 'gre\\tedy' holds a tab"),
    ('filler = "heuristic"\n[entrants]\na = "heuristic"\n', "p.toml line 2: a league needs at least two entrants, not 1"),
    ('[entrants]\na = "heuristic"\nb = "greedy"\n',
     "p.toml line 1: 2 entrants without a filler cannot fill a table of 4 seats: name a filler"),
    (GOOD + 'x = 1\n', "p.toml line 9: entrant x is one bot's text"),
    (GOOD.replace('seed = 1', 'anchor = "pimc"'), "p.toml line 2: the anchor 'pimc' is not the name of an entrant "
                                                  "(heuristic, greedy, pimc 4)"),
    (GOOD + '[options]\nmisere = 3\n', "p.toml line 10: option misere takes one of: true, false (not 3)"),
    (GOOD + '[options]\nmisery = true\n', "p.toml line 10: unknown option 'misery'"),
    ('options = 3\n' + GOOD, "p.toml line 1: options are a table of name = value lines, not 3"),
    ('table = "4"\n', "p.toml: no entrants: add an [entrants] table of name = \"bot\" lines"),
    ('entrants = ["heuristic"]\n', "p.toml line 1: entrants are a table of name = \"bot\" lines, not ['heuristic']"),
], ids=lambda x: x[:24] if isinstance(x, str) else None)
def test_every_error_of_a_pool_file_is_one_line_naming_its_line(text, expected):
    with pytest.raises(PoolError) as e:
        pools.loads(text, "p.toml")
    assert str(e.value).startswith(expected) and "\n" not in str(e.value)


def test_a_key_within_a_multi_line_string_is_no_key():
    text = 'filler = """a\nseed = 3\n"""\n[entrants]\na = "heuristic"\n'
    assert pools.key_lines(text) == {("filler",): 1, ("entrants",): 4, ("entrants", "a"): 5}


def test_an_override_error_names_its_option():
    with pytest.raises(PoolError, match="^--deals: deals must be at least 2"):
        pools.loads(GOOD, "p.toml", {"deals": (1, "--deals")})
    with pytest.raises(PoolError, match="^--option: option misere takes one of"):
        pools.loads(GOOD, "p.toml", {"options": ({"misere": "3"}, "--option")})


@pytest.mark.parametrize("argv,expected", [
    (["--bots", "heuristic,greedy", "--filler", "heuristic", "--names", "a"],
     "tarotsim: error: --names: 1 names for 2 bots of --bots\n"),
    (["--bots", "heuristic,gredy", "--filler", "heuristic"],
     f"tarotsim: error: --bots: entrant gredy: unknown bot 'gredy' (known: {KNOWN})\n"),
    (["--bots", "heuristic,greedy"],
     "tarotsim: error: --bots: 2 entrants without a filler cannot fill a table of 4 seats: name a filler "
     "(filler = \"heuristic\") or 4 entrants\n"),
    (["--bots", "heuristic,greedy", "--filler", "heuristic", "--anchor", "nobody"],
     "tarotsim: error: --anchor: the anchor 'nobody' is not the name of an entrant (heuristic, greedy)\n"),
    ([], "tarotsim: error: no entrants: give a pool file, or --bots with two bots or more\n"),
    (["missing.toml"], "tarotsim: error: cannot read missing.toml: No such file or directory\n"),
    (["--bots", "heuristic,greedy", "--filler", "heuristic", "--option", "misere"],
     "tarotsim: error: --option: option 'misere' must be NAME=VALUE\n"),
])
def test_the_command_line_refuses_a_bad_pool_in_one_line_exit_2(cli, tmp_path, monkeypatch, argv, expected):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("league", "--db", "l.db", *argv)
    assert (code, out, err) == (2, "", expected)
    assert not (tmp_path / "l.db").exists()  # nothing written before the pool is right


def test_a_bad_pool_file_at_the_command_line_names_its_line(cli, tmp_path):
    (tmp_path / "pool.toml").write_text(GOOD.replace('greedy = "greedy"', 'greedy = "gredy"'))
    code, out, err = cli("league", tmp_path / "pool.toml", "--db", tmp_path / "l.db")
    assert (code, out) == (2, "")
    assert err == f"tarotsim: error: {tmp_path / 'pool.toml'} line 7: entrant greedy: unknown bot 'gredy' " \
                  f"(known: {KNOWN})\n"


@pytest.mark.parametrize("argv,expected", [
    (["pool.toml", "--bots", "greedy"], "--bots and --names give the entrants without a pool file: name them in "
                                        "pool.toml's [entrants]"),
    (["--report", "--deals", "3"], "--report reads the database alone: leave out --deals"),
    (["pool.toml", "--report"], "--report reads the database alone: leave out pool.toml"),
    (["--bots", "heuristic,greedy", "--scheduler", "tcp://x:1", "--dask-local", "2"],
     "--scheduler and --dask-local: give one of them"),
])
def test_options_that_do_not_go_together_are_one_line_exit_2(cli, tmp_path, monkeypatch, argv, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.db").write_bytes(b"")
    code, out, err = cli("league", "--db", "l.db", *argv)
    assert (code, out) == (2, "") and err.startswith(f"tarotsim: error: {expected}"), err


def test_the_report_writes_no_output_on_its_database(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "league.html").write_bytes(b"")
    code, out, err = cli("league", "--db", "league.html", "--report", "--html", "./league.html")
    assert (code, out, err) == (2, "", "tarotsim: error: --db and --html name the same file league.html\n")
