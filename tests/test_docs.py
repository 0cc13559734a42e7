"""The documents that travel with the project: every rule id the code, the tests, the README and
the manual cite has its entry in docs/rules.md; the README's and the changelog's links lead to a
file and an anchor that exist; the README stays an overview, and its test command is CI's."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"\bR-(?:[A-Z]+-\d+[a-e]?|VAR-TWO)\b")


def _anchors() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r'<a id="([^"]+)"', text))


def _cited() -> dict[str, str]:
    where = {}
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md"] + sorted((ROOT / "docs").rglob("*.md"))
    files += sorted((ROOT / "tarotsim").rglob("*.py")) + sorted((ROOT / "bots").rglob("*.py"))
    files += sorted((ROOT / "tests").glob("*.py"))
    for f in files:
        for rid in RULE_ID.findall(f.read_text(encoding="utf-8")):
            where.setdefault(rid, str(f.relative_to(ROOT)))
    return where


def test_every_cited_rule_id_is_in_docs_rules():
    anchors = _anchors()
    missing = {rid: f for rid, f in _cited().items() if rid not in anchors}
    assert missing == {}


def test_docs_rules_has_every_section_and_worked_example():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for n in range(16):
        assert re.search(rf"^## {n}\. ", text, re.M), f"§{n} is missing"
    assert {f"EX-{i}" for i in range(1, 7)} <= _anchors()


def _slug(heading: str) -> str:
    """The anchor GitHub (and the manual's build, mkdocs.yml's toc) gives a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text))


def _anchors_of(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)} | set(re.findall(r'<a id="([^"]+)"', text))


def test_the_slug_is_githubs():
    assert _slug("14. Variants and options (R-VAR-TWO)") == "14-variants-and-options-r-var-two"
    assert _slug("5. Chien and écart (R-CHIEN)") == "5-chien-and-écart-r-chien"
    assert _slug("2. The facts table (--facts)") == "2-the-facts-table---facts"


@pytest.mark.parametrize("name", ["README.md", "CHANGELOG.md"])
def test_links_lead_to_files_and_anchors(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links or name != "README.md"
    for link in links:
        target, _, anchor = link.partition("#")
        assert "://" not in target, f"{name}: {link}: the manual links inside the repository"
        path = ROOT / target if target else ROOT / name
        assert path.exists(), f"{name}: {link}"
        if anchor:
            assert anchor in _anchors_of(path), f"{name}: {link}: no such anchor"


def test_the_files_the_manual_includes_hold_no_relative_link():
    """A page that includes a file by a snippet (`--8<--`) is where mkdocs resolves that file's
    links from, so a link right at the repository's top is broken in the manual (strict build)."""
    included = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        included += re.findall(r'^--8<-- "([^"]+)"', page.read_text(encoding="utf-8"), re.M)
    assert "BENCHMARKS.md" in included
    for name in included:
        links = re.findall(r"\]\(([^)\s]+)\)", (ROOT / name).read_text(encoding="utf-8"))
        assert [link for link in links if "://" not in link] == [], name


def test_the_readme_is_an_overview():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_the_readme_test_command_is_the_one_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^(pip install -e '\.\[test[^']*\]' \\\n +&& python -m pytest -q)$", readme, re.M)
    assert command, "the README's quick start shows the test command (on two lines, to fit the page)"
    assert re.sub(r" \\\n +", " ", command.group(1)) in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_the_inference_page_says_what_its_examples_print():
    """docs/inference.md's sentences on the effective sample size and the distinct worlds give the
    figures its examples print (test_docs_examples checks that the examples print them)."""
    text = (ROOT / "docs" / "inference.md").read_text(encoding="utf-8")
    prose = " ".join(text.split())
    n, ess = map(int, re.search(r"^>>> round\(uniform\.ess\), round\(read\.ess\)\n\((\d+), (\d+)\)$", text, re.M).groups())
    assert f"(the ESS above: {ess} of {n:,})" in prose
    distinct = int(re.search(r"^>>> len\(worlds\), .*\n\((\d+), 1\.0\)$", text, re.M)[1])
    assert f"The 32 draws of `draw` above are {distinct} distinct worlds (`len(worlds)`)" in prose
    untempered, tempered = map(int, re.search(r"^>>> len\(draw\(game, \*\*sharp, min_ess=1\)\), len\(draw\(game, "
                                              r"\*\*sharp\)\)\n\((\d+), (\d+)\)$", text, re.M).groups())
    assert f"leaves {untempered} distinct worlds of the 32 draws when its weights are left as they are" in prose
    from bots import REGISTRY

    min_ess = next(p.default for p in REGISTRY["pimc"].params if p.name == "min_ess")
    assert f"and {tempered} when they are tempered to keep the default ESS of {min_ess:g}" in prose


#: A reference to a file outside the repository (the shared design notes and rules): the manual's
#: own pages are docs/rules.md and docs/records.md. Written in capitals when they name those files.
OUTSIDE = re.compile(r"\bDESIGN\b|\bRULES\b|shared/")


def _helps() -> dict[str, str]:
    """Every command's ``--help`` text, by command."""
    import click

    from tarotsim.cli import cli

    out = {}

    def walk(cmd: click.Command, path: list[str], parent: click.Context | None) -> None:
        ctx = click.Context(cmd, info_name=path[-1], parent=parent)
        out[" ".join(path)] = cmd.get_help(ctx)
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, name), [*path, name], ctx)

    walk(cli, ["tarotsim"], None)
    return out


def test_the_manual_and_every_help_point_at_the_manual_not_at_files_outside_the_repository():
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md"] + sorted((ROOT / "docs").rglob("*.md"))
    found = [f"{p.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}: {m[0]}"
             for p in pages for text in [p.read_text(encoding="utf-8")] for m in OUTSIDE.finditer(text)]
    helps = _helps()
    assert {"tarotsim", "tarotsim show", "tarotsim study bidding"} <= set(helps)
    found += [f"tarotsim {cmd} --help: {m[0]}" for cmd, text in helps.items() for m in OUTSIDE.finditer(text)]
    assert found == []
    assert "docs/records.md" in helps["tarotsim show"] and "docs/rules.md" in helps["tarotsim"]


def test_the_docs_extra_installs_what_the_build_asks_for():
    """mkdocstrings formats the separate signatures (mkdocs.yml) with Black or Ruff: without one,
    they stay one long line."""
    import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]["docs"]
    names = {re.split(r"[<>=\[ ]", req)[0] for req in extra}
    assert "separate_signature: true" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert names & {"ruff", "black"}
    assert {"mkdocs", "mkdocs-material", "mkdocstrings"} <= names


#: The widest a line of the manual's code blocks may be: wider, a page shows it cut or scrolled.
CODE_WIDTH = 100
#: The wide lines that stay as they are: what they are, how to know one, and why they stay.
WIDE_EXEMPT = {
    "a table of columns": (re.compile(r"^\s*\S+(?: \S+)*(?: {2,}\S+(?: \S+)*){3,}\s*$"),
                           "its rows keep their columns side by side: a row wrapped breaks the columns"),
    "a JSON line": (re.compile(r"^\s*[{\[]\".*[}\]]$"),
                    "a record or a result is one line of JSON (JSON Lines, docs/records.md), as a program reads it"),
    "a CSV line": (re.compile(r"^[^\s,]*(?:,[^\s,]*){9,}$"), "a CSV row is one line of the file"),
    "an error line": (re.compile(r"^(?:tarotsim: error: |[\w.]+(?:Error|Exception): )"),
                      "an error is one line, whole, as the command or the exception prints it"),
}


def _wide_code_lines() -> list[str]:
    """Every line of a fenced code block of the README and the manual wider than :data:`CODE_WIDTH`,
    less the :data:`WIDE_EXEMPT` ones, as ``page:line: width``."""
    from tools import docs as _docs

    found = []
    for page in ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")):
        lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
        for block in _docs.parse_blocks(lines):
            for n, line in enumerate(block.body, start=block.first + 2):
                if len(line) > CODE_WIDTH and not any(p.match(line) for p, _ in WIDE_EXEMPT.values()):
                    found.append(f"{page}:{n}: {len(line)}")
    return found


def test_the_code_lines_of_the_manual_fit_the_page():
    """Commands are wrapped with backslash continuations and the prose a command prints is wrapped
    by the command; a wide table, JSON or CSV line, or error, stays whole (WIDE_EXEMPT)."""
    assert all(reason for _, reason in WIDE_EXEMPT.values())
    for name, (pattern, _) in WIDE_EXEMPT.items():
        assert not pattern.match("take = taken / deals with an auction; share = taken / deals; made = made"), name
    assert _wide_code_lines() == []
