"""The examples of docs/pictures.md and docs/stats.md run as written (their Python blocks), and the
tables they show have the columns the commands print."""

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

from tarotsim.cli import main

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "docs" / page).read_text(encoding="utf-8"), re.S)


def text_blocks(page: str) -> list[str]:
    return re.findall(r"```text\n(.*?)```", (ROOT / "docs" / page).read_text(encoding="utf-8"), re.S)


def run_block(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<docs>", "exec"), {})
    return out.getvalue()


def test_pictures_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = python_blocks("pictures.md")
    assert len(blocks) == 2
    for code in blocks:
        run_block(code)


@pytest.fixture(scope="module")
def facts_folder(tmp_path_factory):
    """A small facts.parquet (the pages' queries run on it as on a million deals) and records."""
    folder = tmp_path_factory.mktemp("docs")
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--deals", "3000", "--seed", "1", "--bots", "heuristic,random,random,random",
              "--facts", str(folder / "facts.parquet"), "--records", str(folder / "d.jsonl.gz")])
    assert e.value.code == 0
    return folder


def test_stats_examples_run_and_print_what_the_page_shows(facts_folder, monkeypatch):
    monkeypatch.chdir(facts_folder)
    library, polars_query, duckdb_query = python_blocks("stats.md")
    run_block(library)
    shown = text_blocks("stats.md")
    def words(text, rows):  # the words of each line of a drawn table (its box characters left out)
        return [re.findall(r"[\w.]+", ln) for ln in text.splitlines()[rows]]

    out = run_block(polars_query)
    assert words(out, slice(0, 4)) == words(shown[-2], slice(0, 4))  # the frame's shape, columns and types
    assert [w[0] for w in words(out, slice(6, 10))] == ["garde_contre", "garde_sans", "garde", "prise"]
    out = run_block(duckdb_query)
    assert words(out, slice(0, 3)) == words(shown[-1], slice(0, 3))
    rows = [w for w in words(out, slice(4, None)) if w]
    assert {w[0] for w in rows} <= {"0", "1", "2", "3"} and len(rows) >= 2
    assert os.path.exists("facts.parquet")


def test_the_stats_tables_of_the_page_have_the_columns_stats_prints(facts_folder, capsys):
    with pytest.raises(SystemExit) as e:
        main(["stats", str(facts_folder / "d.jsonl.gz"), "--by", "bot"])
    assert e.value.code == 0
    printed = capsys.readouterr().out.splitlines()
    page = text_blocks("stats.md")[1].splitlines()
    heads = lambda lines: [ln.split() for ln in lines if ln.startswith(("bot ", "contract "))]  # noqa: E731
    assert heads(printed) == heads(page)
    assert [ln.split()[0] for ln in page[3:5]] == [ln.split()[0] for ln in printed[3:5]] == ["heuristic", "random"]
