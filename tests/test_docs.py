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


def test_the_readme_is_an_overview():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_the_readme_test_command_is_the_one_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^(pip install -e '\.\[test[^']*\]' && python -m pytest -q)$", readme, re.M)
    assert command, "the README's quick start shows the test command"
    assert command.group(1) in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


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
