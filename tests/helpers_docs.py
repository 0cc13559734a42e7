"""What the tests of the manual's examples share: the pages, split over two test files.

The pages of the bots' strength compile a search build per command and take most of the
examples' time; in a file of their own, a second worker takes them (each file runs on one
worker)."""

from __future__ import annotations

from pathlib import Path

from tools import docs as _docs

ROOT = Path(__file__).resolve().parent.parent
#: The pages run by tests/test_docs_examples_strength.py; every other page by tests/test_docs_examples.py.
STRENGTH_PAGES = ("docs/explanation/strength.md", "docs/bidding-under-strong-play.md", "docs/learn.md")


def check_page(page: str) -> None:
    """Run every example of ``page``; fail naming each stale or failed block."""
    result = _docs.run_page(ROOT / page)
    assert result.ok, "\n" + _docs.report(result, wrote=False)
