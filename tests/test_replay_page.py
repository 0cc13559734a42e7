"""The replay page (`tarotsim show FILE --html`, tarotsim.analysis.replay_page), tested in a real browser.

Headless Chromium (Debian's ``chromium`` and ``chromium-driver``; ``.ci/run`` installs them),
driven by Selenium (extra ``browser``), loads the file written by the command, steps through
every card of each deal with the page's own buttons and arrow keys, and reads the DOM: each
trick's cards and winner are the record's (R-PLAY-5), the final scores are the record's
(R-SCORE-2), a card's cost is shown beside the card that was best, the page writes every card
one way (``K♥``) and fits a 1280 x 900 window, and a screenshot of the table is not blank.
"""

import json
import os
import re
from pathlib import Path

import pytest

from tarotsim.cards import Card, format_points
from tarotsim.analysis.replay_page import MAX_PAGE_DEALS, PageError, best_cards, card_costs, deal_data, page

from helpers_browser import assert_not_blank, chromium

DATA = Path(__file__).parent / "data"
EXAMPLES_FILE = DATA / "examples.jsonl"
EXAMPLES = [json.loads(line) for line in EXAMPLES_FILE.read_text().splitlines()]
TWO = [json.loads(line) for line in (DATA / "two_player.jsonl").read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium under Selenium. Missing, it fails (never skips): the page is tested."""
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


#: What the page shows now, read in one round trip: the step counter, the step's label, the trick
#: in the panel (cards, seats, winner), the trick cards drawn on the table, the scores at the end.
STATE_JS = """
const rows = [...document.querySelectorAll('#panel table.trick tr')];
const shown = [...document.querySelectorAll('#cards > g.card')].filter(g => g.style.display !== 'none');
return {
  counter: document.getElementById('counter').textContent,
  label: document.querySelector('#panel .step-label').textContent,
  trick: rows.map(r => r.dataset.card), seats: rows.map(r => Number(r.dataset.seat)),
  winner: rows.filter(r => r.classList.contains('winner')).map(r => Number(r.dataset.seat)),
  costs: rows.map(r => r.querySelector('td.cost, td.best')).filter(td => td).map(td => td.textContent),
  instead: rows.map(r => r.querySelector('td.instead')).filter(td => td).map(td => td.textContent),
  shown: shown.map(g => g.dataset.card),
  scores: [...document.querySelectorAll('#panel td.score')].map(td => td.textContent),
  breakdown: (document.querySelector('#panel pre.breakdown') || {}).textContent || null,
  next_disabled: document.getElementById('next').disabled,
};"""


def walk(driver, rec: dict) -> list[dict]:
    """Click the page's next button from the first step to the last one; the state at each step."""
    driver.find_element("id", "first").click()
    states = [driver.execute_script(STATE_JS)]
    while not states[-1]["next_disabled"]:
        driver.find_element("id", "next").click()
        states.append(driver.execute_script(STATE_JS))
        assert len(states) < 200, "the page never reaches its last step"
    return states


def check_walk(states: list[dict], rec: dict) -> None:
    """Every trick of ``rec`` is shown whole, from its leader, won by its winner, its cards on the
    table; the last step shows the record's scores and the breakdown."""
    tricks = rec["tricks"]
    n = len(tricks[0]["cards"]) if tricks else 0
    complete = [s for s in states if " plays " in s["label"] and len(s["trick"]) == n]
    assert len(complete) == len(tricks)
    for t, s in zip(tricks, complete):
        assert s["trick"] == t["cards"] and s["seats"][0] == t["leader"]        # R-PLAY-1
        assert s["winner"] == [t["winner"]]                                     # R-PLAY-5
        assert set(t["cards"]) <= set(s["shown"])
    played = [s["label"] for s in states if " plays " in s["label"]]
    assert len(played) == sum(len(t["cards"]) for t in tricks)  # one step per card
    end = states[-1]
    assert end["scores"] == [f"{x:+d}" for x in rec["scores"]]                  # R-SCORE-2
    if rec["outcome"] == "played":
        assert "value V" in end["breakdown"] and f"{rec['result']['value']:+d}" in end["breakdown"]
    assert end["counter"] == f"step {len(states)} / {len(states)}"


def test_the_page_steps_through_every_card_in_a_real_browser(browser, tmp_path, cli):
    """Two deals on one page (the 5-player and the 5d examples), then a table-2 deal with piles."""
    page_path = tmp_path / "deals.html"
    code, out, err = cli("show", EXAMPLES_FILE, "--line", 5, "--line", 6, "--html", page_path)
    assert (code, out) == (0, "") and "2 deal(s) written" in err
    browser.get(page_path.as_uri())
    check_walk(walk(browser, EXAMPLES[4]), EXAMPLES[4])
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "deal")).select_by_index(1)   # the deal picker
    check_walk(walk(browser, EXAMPLES[5]), EXAMPLES[5])
    png = browser.find_element("id", "table").screenshot_as_png
    assert_not_blank(png)

    two = tmp_path / "two.jsonl"
    two.write_text(json.dumps(TWO[0]) + "\n")
    assert cli("show", two, "--html", page_path)[0] == 0
    browser.get(page_path.as_uri())
    check_walk(walk(browser, TWO[0]), TWO[0])


def test_arrow_keys_home_and_end_step_the_page_and_a_link_opens_a_step(browser, tmp_path, cli):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    page_path = tmp_path / "one.html"
    assert cli("show", EXAMPLES_FILE, "--line", 4, "--html", page_path)[0] == 0
    browser.get(page_path.as_uri())
    keys = ActionChains(browser)
    total = len(deal_data(EXAMPLES[3])["steps"])
    counter = lambda: browser.find_element("id", "counter").text  # noqa: E731
    assert counter() == f"step 1 / {total}"
    keys.send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    assert counter() == f"step 3 / {total}"
    keys.send_keys(Keys.ARROW_LEFT).perform()
    assert counter() == f"step 2 / {total}"
    keys.send_keys(Keys.END).perform()
    assert counter() == f"step {total} / {total}"
    assert browser.execute_script(STATE_JS)["scores"] == [f"{x:+d}" for x in EXAMPLES[3]["scores"]]
    keys.send_keys(Keys.HOME).perform()
    assert counter() == f"step 1 / {total}"
    browser.get(page_path.as_uri() + "#step=12")    # a link to one step, on the page open
    assert counter() == f"step 12 / {total}" and "plays" in browser.find_element("css selector", ".step-label").text
    browser.refresh()                                # and in a page opened from it
    assert counter() == f"step 12 / {total}"
    browser.get(page_path.as_uri() + f"#step={total + 5}")
    assert counter() == f"step {total} / {total}"


def test_card_costs_are_shown_when_the_record_has_them(browser, tmp_path, cli):
    rec = dict(EXAMPLES[3])
    rec["card_costs"] = [[0] * len(t["cards"]) for t in rec["tricks"]]
    rec["best_cards"] = [[[] for _ in t["cards"]] for t in rec["tricks"]]
    rec["card_costs"][2][1] = 7                      # trick 3, its second card: 3.5 points lost
    rec["best_cards"][2][1] = ["KH", "T21"]          # ... against the king of hearts or the 21
    rec["card_costs"][4][0] = 2                      # a cost whose best card is not known
    rec["card_costs"][5][0] = None                   # unknown
    path = tmp_path / "costs.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    page_path = tmp_path / "costs.html"
    assert cli("show", path, "--html", page_path)[0] == 0
    browser.get(page_path.as_uri())
    states = walk(browser, rec)
    n = len(rec["tricks"][0]["cards"])
    complete = [s for s in states if " plays " in s["label"] and len(s["trick"]) == n]
    assert complete[2]["costs"] == ["best", "-3.5"] + ["best"] * (n - 2)
    assert complete[2]["instead"] == ["best: K♥ T21"]
    assert complete[4]["costs"] == ["-1"] + ["best"] * (n - 1) and complete[4]["instead"] == []
    assert complete[5]["costs"] == ["best"] * (n - 1)  # the unknown cost shows nothing
    # "best" is not written in the colour of the costs
    browser.find_element("id", "first").click()
    for _ in range(states.index(complete[2])):
        browser.find_element("id", "next").click()
    colour = lambda kind: browser.execute_script(  # noqa: E731
        f"return getComputedStyle(document.querySelector('#panel td.{kind}')).color")
    assert colour("best") != colour("cost") and colour("instead") != colour("cost")


def test_best_cards_are_checked_against_the_tricks():
    rec = EXAMPLES[3]
    assert best_cards(rec) is None
    good = [[[] for _ in t["cards"]] for t in rec["tricks"]]
    good[0][1] = ["KH", "t21"]
    checked = best_cards(rec, good)
    assert [str(c) for c in checked[0][1]] == ["KH", "T21"] and checked[0][0] == []
    for bad, said in ((good[:-1], "best_cards: one list per trick"), ([[[]]] * len(good), "best_cards, trick 1: one "
                      "entry per card"), ([[None] + row[1:] for row in good], "best_cards, trick 1: each entry is a "
                      "list of card names, not None"), ([[["ZZ"]] + row[1:] for row in good], "best_cards, trick 1: "
                      "unknown card 'ZZ'")):
        with pytest.raises(PageError, match=f"^{re.escape(said)}"):
            best_cards(rec, bad)


#: The text a person reads on the page now: the header, the panel, the labels on the table and the
#: cards' tooltips.
TEXT_JS = """
const shown = [...document.querySelectorAll('#cards > g.card')].filter(g => g.style.display !== 'none');
return [document.querySelector('header').innerText, document.getElementById('panel').innerText,
        ...[...document.querySelectorAll('#overlay text')].map(t => t.textContent),
        ...shown.map(g => g.querySelector('title').textContent)].join('\\n');"""
#: A suit card in the records' notation (KH, 10S), which the page never writes.
RECORD_NOTATION = re.compile(r"\b(?:10|[1-9JNQK])[SHDC]\b", re.IGNORECASE)


def test_the_page_writes_every_card_one_way(browser, tmp_path, cli):
    """Each step's text (the panel, the labels on the table, the tooltips) writes a suit card as
    ``K♥``, never as the records' ``KH``, from the deal to the score (the 5-player example: the
    call, the écart, a poignée)."""
    page_path = tmp_path / "deal.html"
    assert cli("show", EXAMPLES_FILE, "--line", 5, "--names", "Ann,Bob,Cy,Di,Ed", "--html", page_path)[0] == 0
    browser.get(page_path.as_uri())
    total = len(deal_data(EXAMPLES[4])["steps"])
    texts = []
    for k in range(total):
        browser.execute_script(f"go({k})")
        texts.append(browser.execute_script(TEXT_JS))
    assert not [m for t in texts for m in RECORD_NOTATION.findall(t)]
    assert any("♥" in t for t in texts) and all("seat " not in t for t in texts[1:])  # the seats by their names


def test_the_page_fits_a_1280_by_900_window(browser, tmp_path, cli):
    """In a window of 1280 x 900 the table and the panel are whole on the screen at every step,
    the last (the count and the breakdown) too: nothing to scroll. Table 5 is the widest panel."""
    page_path = tmp_path / "deal.html"
    assert cli("show", EXAMPLES_FILE, "--line", 5, "--html", page_path)[0] == 0
    size = browser.get_window_size()
    browser.set_window_size(1280, 900)
    try:
        browser.get(page_path.as_uri())
        fits = """
        const box = id => document.getElementById(id).getBoundingClientRect();
        const d = document.documentElement;
        return {scroll: [d.scrollWidth - innerWidth, d.scrollHeight - innerHeight],
                table: [box('table').right <= innerWidth, box('table').bottom <= innerHeight, box('table').width],
                panel: [box('panel').right <= innerWidth, box('panel').bottom <= innerHeight,
                        box('panel').left >= box('table').right]};"""
        for k in range(len(deal_data(EXAMPLES[4])["steps"])):
            browser.execute_script(f"go({k})")
            state = browser.execute_script(fits)
            whole = state["scroll"] == [0, 0] and state["table"][:2] == [True, True] and all(state["panel"])
            assert whole and state["table"][2] > 700, (k, state)  # as large as the window leaves it
    finally:
        browser.set_window_size(size["width"], size["height"])


def test_analyse_html_shows_the_solver_s_cost_of_each_card(browser, tmp_path, cli):
    """``analyse --html``: the page of the analysed deal shows each analysed card's cost as the
    analysis gives it (``best`` for a best card, else what it lost beside the cards best instead),
    and nothing on the tricks not analysed. The table-3 example loses points in its last tricks."""
    rec = dict(EXAMPLES[2])
    path = tmp_path / "deal.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    n_tricks = len(rec["tricks"])
    start = n_tricks - 3
    code, out, _ = cli("analyse", path, "--from-trick", start, "--json")
    assert code == 0
    verdicts = json.loads(out)["cards"]
    page_path = tmp_path / "analysed.html"
    code, _, err = cli("analyse", path, "--from-trick", start, "--html", page_path)
    assert code == 0 and str(page_path) in err
    browser.get(page_path.as_uri())
    n = len(rec["tricks"][0]["cards"])
    complete = [s for s in walk(browser, rec) if " plays " in s["label"] and len(s["trick"]) == n]
    for k, state in enumerate(complete):
        shown = {v["position"]: v["cost"] for v in verdicts if v["trick"] == k}
        assert state["costs"] == ["best" if shown[i] == 0 else f"-{format_points(shown[i])}" for i in range(n)
                                  if shown.get(i) is not None]
        best = [v["best"] for v in verdicts if v["trick"] == k and v["cost"]]
        assert state["instead"] == ["best: " + " ".join(Card.parse(c).pretty() for c in b) for b in best]
    assert all(not s["costs"] for s in complete[:start - 1]) and all(s["costs"] for s in complete[start - 1:])
    assert any(s["instead"] for s in complete)


def test_the_page_is_self_contained_and_written_whole(tmp_path, cli):
    page_path = tmp_path / "deal.html"
    assert cli("show", "--seed", 7, "--index", 3, "--table", "3", "--html", page_path)[0] == 0
    text = page_path.read_text(encoding="utf-8")
    for outside in ("http://", "https://", "src=", "@import", "url("):
        assert outside not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert text.count('<g class="card"') == 78
    # a page that cannot be made leaves the old file as it was
    page_path.write_text("old")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(dict(EXAMPLES[3], card_costs=[[1]])) + "\n")
    code, out, err = cli("show", bad, "--html", page_path)
    assert code == 2 and err.count("\n") == 1 and "card_costs" in err
    assert page_path.read_text() == "old"
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".tarotsim-")]


def test_show_html_bad_input_is_one_line(tmp_path, cli):
    page_path = tmp_path / "p.html"
    for argv in (["show", EXAMPLES_FILE, "--line", 9, "--html", page_path],
                 ["show", EXAMPLES_FILE, "--line", 1, "--json", "--html", page_path],
                 ["show", EXAMPLES_FILE, "--line", 1, "--line", 2],
                 ["show", EXAMPLES_FILE, "--html", tmp_path / "no" / "p.html"],
                 ["show", "--seed", 1, "--line", 2, "--html", page_path]):
        code, out, err = cli(*argv)
        assert code == 2 and err.startswith("tarotsim: error:") and err.count("\n") == 1, (argv, err)
    assert not page_path.exists()


def test_card_costs_are_checked_against_the_tricks():
    rec = EXAMPLES[3]
    assert card_costs(rec) is None
    good = [[0] * len(t["cards"]) for t in rec["tricks"]]
    assert card_costs(rec, good) == good
    for bad in ([[0]], good[:-1], [row[:-1] for row in good], [[-1] + row[1:] for row in good],
                [[True] + row[1:] for row in good]):
        with pytest.raises(PageError):
            card_costs(rec, bad)


def test_a_page_holds_a_bounded_number_of_deals():
    one = deal_data(EXAMPLES[0])
    with pytest.raises(PageError):
        page([])
    with pytest.raises(PageError):
        page([one] * (MAX_PAGE_DEALS + 1))
    assert page([one]).count("<select") == 0 and page([one, one]).count("<select") == 1
