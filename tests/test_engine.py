"""The step-by-step facade (tarotsim.engine): verify/can/do, events, views, slow path = fast path."""

import pytest

from tarotsim.cards import Card
from tarotsim.engine import EcartChoice, Game, IllegalPlayError, PyRandomBot, play_game
from tarotsim.reference.positions import complete_hands
from tarotsim.rules import Rules


def overtrump_game():
    """Table 4: seat 1 leads 2H; seats 2 and 3 are void in hearts (seat 3 must overtrump T12)."""
    suit = lambda s: [f"{r}{s}" for r in ("1 2 3 4 5 6 7 8 9 10 J N Q K".split())]
    hands = [suit("C") + "T11 T13 T14 T15".split(),
             suit("H") + "T1 T2 T3 T4".split(),
             suit("S") + "T6 T7 T8 T12".split(),
             suit("D") + "T5 T9 T10 T17".split()]
    g = Game(Rules("4"), hands=hands, chien="T16 T18 T19 T20 T21 EX".split(), dealer=0,
             forced=(1, "garde_sans"))
    g.announce_chelem(False)
    return g


def test_R_PLAY_6_illegal_card_raises_names_rule_and_leaves_state_unchanged():
    g = overtrump_game()
    g.declare_poignee(None)
    g.play("2H")                    # seat 1 leads hearts
    g.declare_poignee(None)         # seat 2: void in hearts, must trump
    with pytest.raises(IllegalPlayError) as e:
        g.play("3S")
    assert e.value.rule_id == "R-PLAY-4b" and "must trump" in str(e.value)
    g.play("T12")
    g.declare_poignee(None)
    before = (g.hand(3), len(g.events), g.decision)
    assert not g.can_play("T5") and g.can_play("T17")
    with pytest.raises(IllegalPlayError) as e:
        g.verify_play("T5")
    assert e.value.rule_id == "R-PLAY-4b" and "overtrump" in str(e.value) and "T17" in str(e.value)
    with pytest.raises(IllegalPlayError):
        g.play("T5")
    assert (g.hand(3), len(g.events), g.decision) == before
    ev = g.play("T17")
    assert ev.kind == "card" and ev.seat == 3 and ev.value == Card.parse("T17")


def test_actions_out_of_phase_are_refused_with_a_rule():
    g = Game(Rules("4"), seed=3, index=1)
    with pytest.raises(IllegalPlayError) as e:
        g.play("KH")
    assert e.value.rule_id == "R-PLAY-6"
    with pytest.raises(IllegalPlayError) as e:
        g.bid("garde_avec")
    assert e.value.rule_id == "R-BID-1"
    g.bid("garde")
    assert not g.can_bid("prise") and g.can_bid("garde_sans")
    with pytest.raises(IllegalPlayError) as e:
        g.bid("prise")
    assert e.value.rule_id == "R-BID-2"
    assert [ev.value for ev in g.events] == ["garde"]


def test_ecart_choice_and_bans():
    rules = Rules("4")
    hands, chien = complete_hands(rules, 3, {0: "KS T21 EX T5".split()}, chien="1S 2S 3S 4S 5S 6S".split())
    g = Game(rules, hands=hands, chien=chien, dealer=3, forced=(0, "garde"))
    choice = g.legal_actions()
    assert isinstance(choice, EcartChoice) and choice.size == 6
    with pytest.raises(IllegalPlayError) as e:
        g.discard(["KS", "1S", "2S", "3S", "4S", "5S"])
    assert e.value.rule_id == "R-CHIEN-2"
    assert not g.can_discard(["T21", "1S", "2S", "3S", "4S", "5S"])
    g.discard(["1S", "2S", "3S", "4S", "5S", "6S"])
    assert g.decision.kind == "chelem"


def _cards_in(x) -> set:
    """Every Card reachable from a value (dataclass fields, tuples, dicts)."""
    import dataclasses
    if isinstance(x, Card):
        return {x}
    if dataclasses.is_dataclass(x):
        return set().union(*(_cards_in(getattr(x, f.name)) for f in dataclasses.fields(x)))
    if isinstance(x, dict):
        return _cards_in(tuple(x.values()))
    if isinstance(x, (tuple, list, set, frozenset)):
        return set().union(*(_cards_in(y) for y in x)) if x else set()
    return set()


def test_view_shows_own_hand_and_public_facts_only():
    g = Game(Rules("5"), seed=11, index=4)
    while g.decision and g.decision.kind not in ("card",):
        play_game_step(g)
    for seat in range(5):
        v = g.view(seat)
        assert v.hand == tuple(g.hand(seat))
        # no other seat's card reaches the view, through any of its fields, but the called one
        # (named aloud by the taker, R-CALL-1) and a shown chien (R-CHIEN-1)
        others = {c for s in range(5) if s != seat for c in g.hand(s)}
        assert not (_cards_in(v) - set(v.chien or ()) - {v.called}) & others
        assert v.called in _cards_in(v) and set(v.hand) <= _cards_in(v)  # the walk sees every field
        if v.partner is not None:
            assert seat == v.partner  # before any card, only the partner knows (R-CALL-3)


def play_game_step(g):
    import tarotsim.rng as rng
    r = rng.Rng(12345 + len(g.events))
    bot = PyRandomBot()
    g.apply(bot.choose(g.view(g.decision.seat), g.legal_actions(), r))


def test_events_replay_to_the_same_record():
    rules = Rules("4")
    g = play_game(Game(rules, seed=5, index=9), PyRandomBot())
    h = Game(rules, seed=5, index=9)
    for ev in g.events:
        if ev.kind == "trick":
            continue
        if ev.kind == "poignee":
            h.declare_poignee(*(ev.value if ev.value else (None,)))
        elif ev.kind == "misere":
            h.declare_misere(ev.value[1])
        else:
            h.apply(list(ev.value) if ev.kind == "ecart" else ev.value)
    assert h.record() == g.record()


def test_bot_returning_an_illegal_action_is_named():
    class Cheater:
        name = "cheater"

        def choose(self, view, legal, rng):
            if view.decision.kind == "card":
                return next(c for c in view.hand if c not in legal) if len(legal) < len(view.hand) else legal[0]
            return legal[0] if not isinstance(legal, EcartChoice) else list(legal.normal[:legal.size])

    with pytest.raises(IllegalPlayError) as e:
        for i in range(50):
            play_game(Game(Rules("4"), seed=1, index=i, forced=(0, "garde_sans")), Cheater())
    assert "cheater" in str(e.value) and "deal (1," in str(e.value) and e.value.rule_id.startswith("R-")


def test_a_game_takes_a_table_s_name_for_its_rules_and_refuses_an_unknown_one():
    from tarotsim.rules import RulesError

    assert Game("4", seed=1, index=0).legal_actions() == Game(Rules("4"), seed=1, index=0).legal_actions()
    assert Game("5", seed=1).rules == Rules("5") and Game(seed=1).rules == Rules()
    with pytest.raises(RulesError, match=r"^unknown table '7': choose one of 3, 4, 5, 5d, 2$"):
        Game("7", seed=1)
