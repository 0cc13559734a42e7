"""The facade as a complete state API: action ids, exact masks, verify/can/do for
every decision, clone, events applied back."""

import os
import random

import numpy as np
import pytest

from tarotsim.actions import (ACTION_NAMES, CHELEM_NO, CHELEM_YES, KIND_RANGES, MISERE_NO, MISERE_YES, N_ACTIONS,
                              PASS, POIGNEE_BASE, POIGNEE_NONE, action_id, action_name)
from tarotsim.cards import Card
from tarotsim.engine import Game, IllegalPlayError, PyRandomBot, play_game
from tarotsim.reference import play_deal
from tarotsim.reference.positions import complete_hands
from tarotsim.rules import Rules

TABLES = ("3", "4", "5", "5d")


def test_the_action_map_is_dense_and_named():
    assert N_ACTIONS == 91 and len(set(ACTION_NAMES)) == N_ACTIONS
    assert [action_name(i) for i in (0, 1, 21, 22, 77)] == ["EX", "T1", "T21", "1S", "KC"]
    assert [action_name(i) for i in range(PASS, CHELEM_NO)] == ["pass", "prise", "garde", "garde_sans", "garde_contre"]
    assert (action_name(CHELEM_YES), action_name(POIGNEE_BASE + 2), action_name(MISERE_YES)) == (
        "chelem_yes", "poignee_triple", "misere_yes")
    assert action_id("kh") == Card.parse("KH").id and action_id("garde") == 80 and action_id("POIGNEE_NONE") == 85
    with pytest.raises(ValueError):
        action_name(N_ACTIONS)


#: deals per table and option set (10 in the suite; ``TAROTSIM_MASK_DEALS=10000`` for the long check)
MASK_DEALS = int(os.environ.get("TAROTSIM_MASK_DEALS", "10"))


def _check_every_action(g: Game, rng: random.Random) -> int:
    """At the current decision: the mask is not empty, every masked id is accepted (on a clone),
    every other id refused by the reference engine with the state unchanged. Returns a masked id."""
    d = g.decision
    mask = g.legal_action_ids()
    assert mask, d
    assert mask == sorted(set(mask)) and set(mask) <= set(KIND_RANGES[d.kind])
    before = (len(g.events), g.decision, g.ecart_picks, [g.hand(s) for s in range(g.rules.n_seats)])
    for a in range(N_ACTIONS):
        if a in mask:
            g.clone().apply_action(a)
            assert g.can_action(a)
        else:
            with pytest.raises(IllegalPlayError) as e:
                g.apply_action(a)
            assert e.value.rule_id.startswith("R-")
            assert not g.can_action(a)
    assert (len(g.events), g.decision, g.ecart_picks, [g.hand(s) for s in range(g.rules.n_seats)]) == before
    return rng.choice(mask)


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("options", [{}, {"misere": True, "called_suit_after_excuse": "restricted"}])
def test_masks_are_exact_against_the_reference_engine(table, options):
    """Every masked action is accepted, every other refused, the mask never empty for the seat
    to play (R-BID-2, R-CALL-1, R-CHIEN-2, R-SLAM-1, R-POIG-2, R-MIS-1, R-PLAY-2, R-CALL-4) on
    random deals; a forced garde in one deal of three reaches the écart more often."""
    rules = Rules(table, **options)
    rng = random.Random(f"{table}{options}")
    for index in range(MASK_DEALS):
        forced = (rng.randrange(rules.n_active) if table != "5d" else (index + 1) % 5, "garde") if index % 3 == 0 else None
        if forced and table == "5d" and forced[0] == index % 5:
            forced = None
        g = Game(rules, seed=91, index=index, forced=forced)
        while not g.done:
            g.apply_action(_check_every_action(g, rng))
        assert g.legal_action_ids() == [] and sum(g.scores) == 0


def test_ecart_picks_apply_R_CHIEN_2_after_each_pick():
    """Short of non-trumps (four eligible suit cards for an écart of six): the four of them and
    exactly two trumps T2..T20, never T21, the Excuse or a king; after the second trump no
    trump is offered, and the last pick lays the écart."""
    rules = Rules("4")
    trumps = [f"T{t}" for t in range(2, 18)]
    hands, chien = complete_hands(rules, 3, {0: trumps + ["1H", "2H"]}, chien="T18 T19 KS 3H 4H T21".split())
    g = Game(rules, hands=hands, chien=chien, dealer=3, forced=(0, "garde"))
    assert g.decision.kind == "ecart"
    eligible = {"1H", "2H", "3H", "4H", "T18", "T19"} | set(trumps)
    assert {action_name(a) for a in g.legal_action_ids()} == eligible
    assert not g.can_action(Card.parse("T21").id) and not g.can_action(Card.parse("KS").id)
    for name in ("T5", "1H", "T9"):
        assert g.apply_action(Card.parse(name).id) is None
    assert g.ecart_picks == tuple(Card.parse(n) for n in ("T5", "1H", "T9"))
    assert {action_name(a) for a in g.legal_action_ids()} == {"2H", "3H", "4H"}  # two trumps: no more
    with pytest.raises(IllegalPlayError) as e:
        g.apply_action(Card.parse("T10").id)
    assert e.value.rule_id == "R-CHIEN-2" and len(g.ecart_picks) == 3
    with pytest.raises(IllegalPlayError) as e:
        g.apply_action(Card.parse("T5").id)
    assert e.value.rule_id == "R-CHIEN-1"  # a card twice
    assert g.apply_action(Card.parse("2H").id) is None and g.apply_action(Card.parse("3H").id) is None
    ev = g.apply_action(Card.parse("4H").id)
    assert ev.kind == "ecart" and ev.value == tuple(Card.parse(n) for n in "T5 T9 1H 2H 3H 4H".split())
    assert g.decision.kind == "chelem" and g.ecart_picks == ()


def test_each_decision_has_verify_can_do():
    g = Game(Rules("5"), seed=2, index=0, forced=(1, "garde_sans"))
    assert g.decision.kind == "call"
    king, queen = Card.parse("KH"), Card.parse("QH")
    assert g.can_call(king) and g.verify_call("KH") == king
    with pytest.raises(IllegalPlayError) as e:
        g.verify_call(queen)
    assert e.value.rule_id == "R-CALL-1" and not g.can_call(queen)
    assert not g.can_bid("prise")
    g.call(king)
    assert g.can_announce_chelem(False) and g.verify_chelem(True) is True
    assert g.decision.kind == "chelem"  # verify changed nothing
    g.announce_chelem(False)
    seat = g.decision.seat
    assert g.can_declare_poignee(None) and g.verify_poignee(None) is None
    assert not g.can_declare_poignee("triple") or len([c for c in g.hand(seat) if c.is_trump]) >= 12
    with pytest.raises(IllegalPlayError) as e:
        g.verify_misere(True)
    assert e.value.rule_id == "R-PLAY-6"
    assert g.can(None) and g.verify(None) is None


def test_R_MIS_1_verify_misere():
    rules = Rules("4", misere=True)
    hands, chien = complete_hands(rules, 3, {0: [f"{r}{s}" for s in "SHD" for r in range(1, 7)]})
    g = Game(rules, hands=hands, chien=chien, dealer=3, forced=(1, "garde_sans"))
    g.announce_chelem(False)
    g.declare_poignee(None)
    assert g.decision.kind == "misere_atout" and g.decision.seat == 0
    assert g.legal_action_ids() == [MISERE_NO, MISERE_YES]
    assert g.verify_misere(True) == ("atout", True) and g.can_declare_misere(False)
    g.apply_action(MISERE_YES)
    assert g.decision.kind == "misere_tete" and g.events[-1].value == ("atout", True)


def test_clone_is_independent():
    g = Game(Rules("4"), seed=4, index=2, forced=(1, "garde"))
    rng = random.Random(1)
    for _ in range(4):  # a forced contract: straight into the écart, picks pending
        g.apply_action(rng.choice(g.legal_action_ids()))
    assert len(g.ecart_picks) == 4
    state = (list(g.events), g.decision, g.ecart_picks, [g.hand(s) for s in range(4)])
    c = g.clone()
    while not c.done:
        c.apply_action(rng.choice(c.legal_action_ids()))
    assert (list(g.events), g.decision, g.ecart_picks, [g.hand(s) for s in range(4)]) == state
    h = Game(Rules("4"), seed=4, index=2, forced=(1, "garde")).replay(c.events)
    assert h.record() == c.record()


@pytest.mark.parametrize("table", TABLES)
def test_replay_of_events_gives_the_same_record(table):
    rules = Rules(table, misere=True)
    for index in range(8):
        g = play_game(Game(rules, seed=17, index=index), PyRandomBot())
        h = Game(rules, seed=17, index=index).replay(g.events)
        assert h.done and h.record() == g.record() == play_deal(rules, 17, index)
        assert h.events == g.events


def test_replay_refuses_an_event_that_does_not_fit():
    rules = Rules("4")
    g = play_game(Game(rules, seed=17, index=3), PyRandomBot())
    events = [e for e in g.events if e.kind != "trick"]
    h = Game(rules, seed=17, index=4)
    with pytest.raises((IllegalPlayError, ValueError)):
        h.replay(events)


def test_action_ids_at_every_kind_of_decision_map_to_the_named_verbs():
    rules = Rules("4")
    g = Game(rules, seed=3, index=1)
    assert g.legal_action_ids() == [PASS, PASS + 1, PASS + 2, PASS + 3, PASS + 4]
    g.apply_action(PASS + 2)  # garde
    assert g.events[-1].value == "garde" and g.legal_action_ids() == [PASS, PASS + 3, PASS + 4]
    mask = g.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (N_ACTIONS,) and list(np.flatnonzero(mask)) == g.legal_action_ids()
    with pytest.raises(IllegalPlayError) as e:
        g.apply_action(N_ACTIONS)
    assert e.value.rule_id == "R-PLAY-6"
    with pytest.raises(IllegalPlayError):
        g.apply_action(CHELEM_NO)
    assert POIGNEE_NONE in KIND_RANGES["poignee"]
