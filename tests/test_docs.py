"""The documents that travel with the project: every rule id the code, the tests and the README
cite has its entry in docs/rules.md, and the READMEs links lead somewhere."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"\bR-(?:[A-Z]+-\d+[a-e]?|VAR-TWO)\b")


def _anchors() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r'<a id="([^"]+)"', text))


def _cited() -> dict[str, str]:
    where = {}
    files = [ROOT / "README.md"] + sorted((ROOT / "tarotsim").rglob("*.py")) + sorted((ROOT / "bots").rglob("*.py"))
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


def test_readme_links_lead_to_files():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
        assert (ROOT / target).exists(), target
