"""Pictures of cards, hands, tricks and the table (tarotsim.svg): well-formed SVG with one element
per card shown, the same picture for the same deal (a golden file), and the positions of every
step of a record agree with the record (R-PLAY-1, R-PLAY-5, R-CHIEN-1, R-VAR-TWO)."""

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim import svg
from tarotsim.cards import DECK, Card
from tarotsim.engine import Game, PyRandomBot, play_game
from tarotsim.record import Record, load, positions, record_svg
from tarotsim.reference import play_deal
from tarotsim.rules import Rules

DATA = Path(__file__).parent / "data"
EXAMPLES = [json.loads(line) for line in (DATA / "examples.jsonl").read_text().splitlines()]
TWO = [json.loads(line) for line in (DATA / "two_player.jsonl").read_text().splitlines() if line.strip()]
NS = "{http://www.w3.org/2000/svg}"
#: The golden picture: the five-player example record at the start of play. When the drawing is
#: changed on purpose, write it again with
#: ``python -c "import json,tarotsim.record as r; print(r.record_svg(json.loads(open('tests/data/examples.jsonl').readlines()[4])), end='')" > tests/data/table5_start.svg``
GOLDEN = DATA / "table5_start.svg"


def cards_drawn(text: str) -> list[str]:
    """The names of the card elements of an SVG document (parsed as XML: it must be well formed)."""
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return [g.get("data-card") for g in root.iter(NS + "g") if "card" in (g.get("class") or "").split()]


def test_card_svg_is_one_card_element_for_each_of_the_78():
    for c in DECK:
        assert cards_drawn(svg.card_svg(c)) == [str(c)]
        assert cards_drawn(svg.card_svg(c, face_up=False)) == [str(c)]


def test_cards_read_at_a_glance_red_hearts_and_diamonds_trumps_numbered_the_excuse():
    assert svg.RED in svg.card_face("KH") and svg.RED in svg.card_face("10D")
    assert svg.RED not in svg.card_face("KS") and svg.RED not in svg.card_face("1C")
    assert ">21<" in svg.card_face("T21") and svg.TRUMP_FILL in svg.card_face("T5")
    assert ">EX<" in svg.card_face("EX") and "Excuse" in svg.card_face("EX")
    for oudler in ("EX", "T1", "T21"):  # R-CARD-3: the three oudlers are edged in gold
        assert svg.OUDLER_EDGE in svg.card_face(oudler)
    assert svg.OUDLER_EDGE not in svg.card_face("T20")
    assert [svg.card_title(c) for c in ("KH", "10S", "T5", "T1", "T21", "EX")] == [
        "K♥ (king of hearts)", "10♠ (10 of spades)", "T5 (trump)", "T1 (the Petit, oudler)", "T21 (oudler)",
        "EX (the Excuse, oudler)"]


def test_hand_svg_fans_the_hand_in_display_order():
    names = ["3S", "EX", "T21", "KH", "T4", "1C"]
    assert cards_drawn(svg.hand_svg(names)) == ["T21", "T4", "EX", "3S", "KH", "1C"]
    assert cards_drawn(svg.hand_svg(names, sort=False)) == names


def test_trick_svg_marks_leader_and_winner():
    text = svg.trick_svg([(2, "KH"), (3, "T5"), (0, "2H")], winner=3)
    assert cards_drawn(text) == ["KH", "T5", "2H"]
    root = ET.fromstring(text)
    assert len([r for r in root.iter(NS + "rect") if r.get("class") == "winner"]) == 1
    assert "leads" in text


def test_every_example_record_pictures_every_step_with_one_element_per_card_shown():
    for rec in EXAMPLES + TWO:
        full, steps = positions(rec)
        assert steps[0].step == "the cards are dealt" and steps[-1].scores == tuple(full["scores"])
        for pos in steps:
            drawn = cards_drawn(svg.render(svg.layout(pos)))
            assert sorted(drawn) == sorted(str(c) for c in pos.shown())
            assert len(set(drawn)) == len(drawn)  # no card twice


def check_positions(rec: dict) -> None:
    """Every position of ``rec`` against the record itself: the cards not yet gone are shown, once
    each; the trick in the middle is the record's, from its leader (R-PLAY-1), with its winner
    once complete (R-PLAY-5); the chien's cards are in the taker's hand until the écart
    (R-CHIEN-1)."""
    full, steps = positions(rec)
    tricks = full["tricks"]
    n_cards = len(tricks[0]["cards"]) if tricks else 0
    played = 0
    for pos in steps:
        if pos.step.startswith("trick ") and " plays " in pos.step:
            played += 1
        done = played // n_cards if n_cards else 0
        gone = {c for t in tricks[:done] for c in t["cards"]}
        if pos.trick and pos.trick_winner is not None:  # the last finished trick is still shown
            gone -= {str(c) for _, c in pos.trick}
        assert sorted(str(c) for c in pos.shown()) == sorted(set(str(c) for c in DECK) - gone)
        if pos.trick:
            t = tricks[pos.trick_number - 1]
            assert pos.trick_leader == t["leader"]
            assert [str(c) for _, c in pos.trick] == t["cards"][:len(pos.trick)]
            assert pos.trick_winner == (t["winner"] if len(pos.trick) == n_cards else None)
        if pos.marked:
            assert pos.marked == {Card.parse(c) for c in full["chien"]} <= set(pos.hands[full["taker"]])


@settings(max_examples=25, deadline=None)
@given(table=st.sampled_from(["3", "4", "5", "5d", "2"]), seed=st.integers(0, 2**32), index=st.integers(0, 10**6))
def test_positions_of_random_deals_agree_with_their_records(table, seed, index):
    rec = play_deal(Rules(table), seed, index)
    check_positions(rec)
    cards_drawn(record_svg(rec))


def test_positions_of_the_example_records_agree_with_them():
    for rec in EXAMPLES + TWO:
        check_positions(rec)


def test_the_same_deal_gives_the_same_svg_the_golden_file():
    text = record_svg(EXAMPLES[4])
    assert text == record_svg(json.loads(json.dumps(EXAMPLES[4])))
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_table_2_draws_the_piles_faces_down_under_their_tops():
    """R-VAR-TWO: each pile from bottom to top, the cards under its top face down."""
    full, steps = positions(TWO[0])
    lay = svg.layout(steps[0])
    pile_cards = {Card.parse(c) for ps in full["piles"] for p in ps for c in p}
    tops = {Card.parse(p[-1]) for ps in full["piles"] for p in ps}
    placed = {p.card: p for p in lay.cards}
    assert pile_cards <= set(placed)
    assert all(placed[c].face_up == (c in tops) for c in pile_cards)


def test_game_and_loaded_records_show_themselves_in_a_notebook():
    game = Game(Rules("4"), seed=3, index=1)
    assert len(cards_drawn(game._repr_svg_())) == 78
    assert game._repr_html_().startswith("<div") and "<svg" in game._repr_html_()
    play_game(game, PyRandomBot())
    cards_drawn(game._repr_svg_())
    (_, rec), *_ = load(DATA / "examples.jsonl")
    assert isinstance(rec, Record) and rec == EXAMPLES[0] and json.loads(json.dumps(rec)) == EXAMPLES[0]
    assert cards_drawn(rec._repr_svg_()) and "<svg" in rec._repr_html_()


def test_names_are_escaped_and_shown():
    rec = dict(EXAMPLES[3], players=["A<b>", "Léa", "C&D", "Z"])
    text = record_svg(rec)
    assert "A&lt;b&gt;" in text and "Léa" in text and "C&amp;D" in text
    cards_drawn(text)


def test_a_card_cost_is_drawn_on_its_card_in_the_trick():
    full, steps = positions(EXAMPLES[3])
    pos = next(p for p in steps if len(p.trick) == 2)
    card = str(pos.trick[1][1])
    text = svg.render(svg.layout(pos, costs={card: 7}))
    assert 'class="cost"' in text and ">-3.5<" in text


@pytest.mark.parametrize("at", [0, 5, -1])
def test_record_svg_at_any_step(at):
    full, steps = positions(EXAMPLES[2])
    assert sorted(cards_drawn(record_svg(EXAMPLES[2], at=at))) == sorted(str(c) for c in steps[at].shown())


def test_record_svg_names_a_step_that_is_not_there():
    n = len(positions(EXAMPLES[2])[1])
    for at in (n, -n - 1, 1.5):
        with pytest.raises(svg.PictureError, match=f"^no step {at}: the deal has {n} steps \\(0..{n - 1}, or -1"):
            record_svg(EXAMPLES[2], at=at)


@pytest.mark.parametrize("names, said", [(["Ann"], "1 name(s) for 4 seats"), ([], "0 name(s) for 4 seats"),
                                         (list("ABCDE"), "5 name(s) for 4 seats")])
def test_a_picture_needs_one_name_per_seat(names, said):
    with pytest.raises(svg.PictureError, match=rf"^{re.escape(said)}: one name per seat, seat 0 first$"):
        record_svg(EXAMPLES[3], names=names)
    with pytest.raises(svg.PictureError, match=re.escape(said)):
        svg.table_svg(Game(Rules("4"), seed=1, index=2), names=names)
    assert "Ann" in record_svg(EXAMPLES[3], names=["Ann", "Bob", "Cy", "Di"])


@pytest.mark.parametrize("what, said", [(42, "not int"), ("KH", "not str"),
                                        (EXAMPLES[3], "not dict; a deal record is drawn by tarotsim.record.record_svg")])
def test_table_svg_of_what_is_not_a_deal_is_a_type_error_of_the_pictures(what, said):
    with pytest.raises(svg.PictureTypeError, match=f"^table_svg draws a Game, a ReferenceDeal or a Position, {said}$"):
        svg.table_svg(what)
    assert issubclass(svg.PictureTypeError, TypeError) and issubclass(svg.PictureTypeError, svg.PictureError)
    assert issubclass(svg.PictureError, ValueError)


@pytest.mark.parametrize("plays, leader, winner, said", [
    ([(1, "2H"), (2, "9H")], None, 3, "winner seat 3: seat 3 plays no card of the trick (it is played by seat 1, seat 2)"),
    ([], None, 0, "winner seat 0: seat 0 plays no card of the trick (it holds no card)"),
    ([(1, "2H"), (2, "2H")], None, None, "2♥ is played twice in the trick: each card once"),
    ([(1, "2H"), (1, "9H")], None, None, "seat 1 plays twice in the trick: one card per seat"),
    ([(1, "2H"), (2, "9H")], 2, None, "leader seat 2: the leader plays the trick's first card, and it is played by "
                                      "seat 1, seat 2"),
    ([(-1, "2H")], None, None, "seat -1: a seat is a whole number from 0 to 4"),
    ([(0.5, "2H")], None, None, "seat 0.5: a seat is a whole number from 0 to 4"),
    ([(9, "KH")], None, None, "seat 9: a seat is a whole number from 0 to 4"),
    ([(1, "2H"), (2, "9H")], None, True, "seat True: a seat is a whole number from 0 to 4"),
    ([(1, "2H"), (2, "9H")], None, "1", "seat '1': a seat is a whole number from 0 to 4"),
    ([(0, "KH"), (1, "T21"), (2, "2H")], None, 0, "winner seat 0: K♥ does not win the trick, T21 of seat 1 does "
                                                  "(R-PLAY-5)"),
    ([(0, "EX"), (1, "KH"), (2, "2H")], None, 2, "winner seat 2: 2♥ does not win the trick, K♥ of seat 1 does "
                                                 "(R-PLAY-5)"),
])
def test_trick_svg_refuses_a_trick_no_deal_has(plays, leader, winner, said):
    with pytest.raises(svg.PictureError, match=f"^{re.escape(said)}$"):
        svg.trick_svg(plays, leader=leader, winner=winner)


def test_trick_svg_edges_the_winner_the_rules_give_and_the_excuse_led_to_a_chelem_s_last_trick():
    """R-PLAY-5: the highest trump, else the highest card of the led suit; R-EXC-4: the Excuse led
    to the last trick may win it."""
    assert 'class="winner"' in svg.trick_svg([(0, "KH"), (1, "T21"), (2, "2H")], winner=1)
    assert 'class="winner"' in svg.trick_svg([(0, "EX"), (1, "KH"), (2, "2H")], winner=0)
    assert 'class="winner"' in svg.trick_svg([(3, "EX")], winner=3)


def test_trick_svg_and_hand_svg_refuse_what_no_deal_has():
    with pytest.raises(svg.PictureTypeError, match=r"^a play of a trick is a \(seat, card\) pair such as \(0, 'KH'\), "
                                                   r"not 1$"):
        svg.trick_svg([1, 2])
    with pytest.raises(svg.PictureError, match="^6 plays: a trick has one card per seat, 5 at most$"):
        svg.trick_svg([(i % 5, c) for i, c in enumerate(["1H", "2H", "3H", "4H", "5H", "6H"])])
    with pytest.raises(svg.PictureError, match="^K♥ is twice in the hand: each card once$"):
        svg.hand_svg(["KH", "KH"])


def test_trick_svg_names_the_seats_0_based_and_needs_a_name_for_each():
    text = svg.trick_svg([(1, "2H"), (0, "9H")], winner=0, names=["Ann", "Bob"])
    assert ">Bob<" in text and ">Ann<" in text and cards_drawn(text) == ["2H", "9H"]
    with pytest.raises(svg.PictureError, match=r"^no name for seat 2: 2 name\(s\), for seats 0..1$"):
        svg.trick_svg([(1, "2H"), (2, "9H")], names=["Ann", "Bob"])


def test_a_step_is_written_with_the_seats_names_and_the_cards_of_the_pictures():
    assert svg.shown_text("trick 7, seat 2 plays KH", ["A", "B", "C", "D"]) == "trick 7, C plays K♥"
    assert svg.shown_text("ecart, seat 1 discards 2S 10d T5", svg.seat_names(None, 4)) == \
        "ecart, seat 1 discards 2♠ 10♦ T5"
