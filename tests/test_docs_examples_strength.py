"""Every example of the pages of the bots' strength runs and shows what it prints (the other pages:
tests/test_docs_examples.py)."""

import pytest

from tools import docs as _docs

from helpers_docs import STRENGTH_PAGES, check_page


@pytest.mark.parametrize("page", STRENGTH_PAGES)
def test_every_example_of_the_page_runs_and_shows_what_it_prints(page):
    assert page in _docs.pages()
    check_page(page)
