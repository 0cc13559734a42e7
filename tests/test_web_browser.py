"""`tarotsim serve` in a real browser: headless Chromium clicks the page's own enabled elements
(``data-action``) through a seeded deal to its end; the page's scores (``data-seat-score``) are
the record stored in the database, which replays; an illegal click is refused with its rule id;
the review shows each card's cost; the page fits a 1280×900 window and its screenshot is not blank."""

from __future__ import annotations

import time

import pytest

from tarotsim.web.store import Store

from helpers_browser import assert_not_blank, chromium, viewport
from helpers_web import running_server

pytestmark = pytest.mark.slow

BUDGET = 20_000  # the solver's nodes per question of the review: the last tricks, quickly


def wait(driver, what, timeout: float = 120):
    """The first true value of ``what(driver)`` within ``timeout`` seconds."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = what(driver)
        except (NoSuchElementException, StaleElementReferenceException):  # not drawn yet, or redrawn: ask again
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"the page did not get there in {timeout} s"
        time.sleep(0.05)


def enabled_choices(driver) -> list:
    """The person's enabled choices, once it is the person's turn (none while a bot decides)."""
    from selenium.webdriver.common.by import By

    if "yours" not in driver.find_element(By.ID, "status").get_attribute("class"):
        return []
    return [b for b in driver.find_elements(By.CSS_SELECTOR, "button[data-action]") if b.is_enabled()]


def over(driver) -> bool:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, "result").is_displayed()


def test_a_seeded_deal_played_by_clicks_is_the_stored_record_and_is_reviewed(tmp_path, cli):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    db = tmp_path / "evenings.sqlite3"
    with running_server(db, budget=BUDGET) as url, chromium(tmp_path / "profile") as driver:
        viewport(driver, 1280, 900)
        driver.get(url)
        wait(driver, lambda d: d.find_element(By.ID, "new-table").find_elements(By.TAG_NAME, "option"))
        Select(driver.find_element(By.ID, "new-table")).select_by_value("4")
        Select(driver.find_element(By.ID, "new-seat")).select_by_value("0")
        driver.find_element(By.ID, "new-seed").send_keys("16")
        driver.find_element(By.CSS_SELECTOR, '[data-control="new"]').click()
        refused = None
        while True:
            choices = wait(driver, lambda d: over(d) or enabled_choices(d))
            if choices is True:
                break
            actions = [b.get_attribute("data-action") for b in choices]
            status = driver.find_element(By.ID, "status").text
            if "écart" in status and refused is None:
                # a king is greyed, its rule named; clicked anyway, the server refuses it with that rule
                king = driver.find_element(By.CSS_SELECTOR, 'button[data-action="KS"]')
                assert not king.is_enabled() and king.get_attribute("data-rule") == "R-CHIEN-2"
                king.find_element(By.XPATH, "..").click()
                message = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#message.refused").text)
                assert message == "refused: never a king in the écart: KS (R-CHIEN-2)"
                refused = message
                choices = enabled_choices(driver)
                assert [b.get_attribute("data-action") for b in choices] == actions  # nothing changed
            chosen = choices[actions.index("garde")] if "garde" in actions else choices[0]
            chosen.click()
            wait(driver, lambda d, b=chosen: _stale(b))  # the next state redraws the choices
        assert refused is not None
        scores = {int(e.get_attribute("data-seat-score")): int(e.text)
                  for e in driver.find_elements(By.CSS_SELECTOR, "[data-seat-score]")}
        store = Store(db, create=False)
        (evening,) = store.evenings()
        (rec,) = store.records(evening.id)
        assert [scores[s] for s in range(4)] == rec["scores"] and (rec["seed"], rec["index"]) == (16, 0)
        assert ("garde" in [b for s, b in rec["bids"] if s == 0]) and rec["players"][0] == "you"
        # the review: the solver's verdict on each card, then the page of the deal with each card's cost
        link = wait(driver, lambda d: d.find_element(By.ID, "review-link").is_displayed()
                    and d.find_element(By.ID, "review-link"))
        assert driver.find_element(By.ID, "review-text").text.startswith("Exact analysis")
        assert driver.find_element(By.ID, "review-status").text == "The review: what each card cost against best play."
        png = driver.get_screenshot_as_png()
        (tmp_path / "table.png").write_bytes(png)
        assert_not_blank(png)
        width, height = driver.execute_script("return [document.documentElement.scrollWidth, "
                                              "document.documentElement.scrollHeight]")
        assert width <= 1280 and height <= 900, (width, height)  # the table fits the window
        driver.get(link.get_attribute("href"))
        panels = wait(driver, lambda d: d.execute_script(
            "return typeof DATA === 'object' && DATA.deals[0].steps.map((s) => s.p).join('')"))
        assert 'class="best"' in panels  # each analysed card marked, as analyse --html marks it
        store.close()
    code, out, err = cli("replay", "--db", db, "--evening", evening.id, "--verify")
    assert code == 0 and out.endswith("1 record(s) verified, 0 bad\n"), err


def _stale(element) -> bool:
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        element.is_enabled()
    except StaleElementReferenceException:
        return True
    return False
