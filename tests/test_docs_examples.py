"""Every example of the manual runs and shows what it prints: README.md, CHANGELOG.md and the pages
of docs/, each page's code blocks in order (tools.docs says how each kind of block runs); the
pages of the bots' strength in tests/test_docs_examples_strength.py.

A page that fails names the block's line and what went wrong; a stale page names the command that
rewrites it."""

import pytest

from tools import docs as _docs

from helpers_docs import ROOT, STRENGTH_PAGES, check_page


@pytest.mark.parametrize("page", [p for p in _docs.pages() if p not in STRENGTH_PAGES])
def test_every_example_of_the_page_runs_and_shows_what_it_prints(page):
    check_page(page)


def test_the_pages_left_out_exist_and_say_why():
    for page, reason in _docs.NOT_RUN_PAGES.items():
        assert (ROOT / page).is_file() and reason, page
    assert "README.md" in _docs.pages() and "docs/reference/cli.md" in _docs.pages()
