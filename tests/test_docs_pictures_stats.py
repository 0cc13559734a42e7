"""The examples of docs/pictures.md and docs/stats.md run as written (their Python blocks), and the
tables they show have the columns the commands print; the pictures of the site are the code's
output, drawn at every build (docs/_ext/figures.py), and the pages show them."""

import contextlib
import importlib.util
import io
import os
import re
from pathlib import Path

import pytest

from tarotsim.cli import main
from tarotsim.learn.models import load_model, shipped

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


def figures_hook():
    """The mkdocs hook that draws the site's figures (docs/_ext/figures.py), loaded as mkdocs loads it."""
    spec = importlib.util.spec_from_file_location("figures", ROOT / "docs" / "_ext" / "figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: A figure of the site named by a page: an image or a link (Markdown), or an embedded page.
FIGURE_LINK = re.compile(r"\]\((figures/[^)#\s]+)[^)]*\)|<!-- embed: (figures/[^\s#]+)")


def figures_shown(page: str) -> list[str]:
    return [a or b for a, b in FIGURE_LINK.findall((ROOT / "docs" / page).read_text(encoding="utf-8"))]


def test_the_site_s_pictures_are_drawn_by_the_code_at_every_build(monkeypatch, cli, tmp_path):
    """The build runs the hook (mkdocs.yml), no picture is stored in docs/ to go stale, and each
    figure is what the code gives: the pictures page's example (its hand, trick, start and mid),
    the golden table of tests/test_svg.py, the page ``analyse --html`` writes."""
    assert re.search(r"^hooks:\n(  - .*\n)*  - docs/_ext/figures\.py$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
                     re.M)
    stored = [p for p in (ROOT / "docs").rglob("*") if p.suffix in (".svg", ".png", ".jpg", ".html")]
    assert stored == [] and not (ROOT / "docs" / "figures").exists()
    hook = figures_hook()
    drawn = hook.figures()
    assert set(drawn) == set(hook.FIGURES)
    monkeypatch.chdir(ROOT)
    example: dict = {}
    exec(compile(python_blocks("pictures.md")[0], "<docs>", "exec"), example)
    assert drawn["figures/hand.svg"] == example["hand"] and drawn["figures/trick.svg"] == example["trick"]
    assert drawn["figures/table-start.svg"] == example["start"] and drawn["figures/table-mid.svg"] == example["mid"]
    assert drawn["figures/table-5.svg"] == (ROOT / "tests" / "data" / "table5_start.svg").read_text(encoding="utf-8")
    page = tmp_path / "deal.html"
    assert cli("analyse", ROOT / "tests" / "data" / "examples.jsonl", "--line", 5, "--html", page)[0] == 0
    assert drawn["figures/replay.html"] == page.read_text(encoding="utf-8")
    assert 'class=\\"cost\\"' in drawn["figures/replay.html"] and "best: " in drawn["figures/replay.html"]
    for kind in ("locations", "policy"):  # the learning curves, from the shipped models' own history
        meta = load_model(shipped(kind), kind).meta
        assert f"{kind} model: {meta['rows']:,} rows" in drawn[f"figures/{kind}-4.svg"]
        assert drawn[f"figures/{kind}-4.svg"] == hook.learning_curve(kind)  # the same file at every build


def test_the_home_page_and_the_pictures_page_show_the_figures():
    """Every figure a page names is one the build draws; the home page shows a table, the
    pictures page the SVG pictures and, embedded, the replay page of an analysed deal."""
    hook = figures_hook()
    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    shown = {page: figures_shown(page) for page in pages}
    assert [(page, f) for page, fs in shown.items() for f in fs if f not in hook.FIGURES] == []
    assert any(f.endswith(".svg") for f in shown["index.md"])
    assert {"figures/hand.svg", "figures/trick.svg", "figures/table-start.svg", "figures/table-mid.svg"} <= \
        set(shown["pictures.md"])
    assert re.search(r"^<!-- embed: figures/replay\.html(#step=\d+)? -->$",
                     (ROOT / "docs" / "pictures.md").read_text(encoding="utf-8"), re.M)


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
