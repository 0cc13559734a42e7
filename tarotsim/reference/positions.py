"""Small helpers to build hand-made positions (tests, studies, examples).

A deal always holds the 78 cards (R-DEAL-1); to set up "seat 2 holds T3 and 5H" without
writing 78 names, give the cards that matter and let :func:`complete_hands` deal the rest in
id order. :func:`play_out` then plays the deal to its end with a dull, predictable policy
(the lowest legal card, the Excuse only when nothing else is allowed) except where a script
says otherwise.
"""

from __future__ import annotations

from ..cards import DECK
from ..rng import CHIEN_SIZE, HAND_SIZE
from ..rules import Rules
from .deal import ReferenceDeal, as_card, as_cards


def complete_hands(rules: Rules, dealer: int, hands: dict, chien=None):
    """``(hands by seat, chien)``: the given cards, then the rest of the deck in id order.

    ``hands`` maps a seat to some of its cards; the chien is filled first if given partly,
    then the seats in seat order. The 5d dummy (the dealer) gets nothing.
    """
    given = {seat: as_cards(cs) for seat, cs in hands.items()}
    chien = as_cards(chien or [])
    used = {c for cs in given.values() for c in cs} | set(chien)
    if len(used) != sum(len(cs) for cs in given.values()) + len(chien):
        raise ValueError("a card is given twice")
    rest = [c for c in DECK if c not in used]
    size = HAND_SIZE[rules.table]
    out = []
    for seat in range(rules.n_seats):
        hand = list(given.get(seat, []))
        if not (rules.table == "5d" and seat == dealer):
            while len(hand) < size:
                hand.append(rest.pop(0))
        out.append(sorted(hand))
    while len(chien) < CHIEN_SIZE[rules.table]:
        chien.append(rest.pop(0))
    if rest:
        raise ValueError(f"too many cards given: {len(rest)} left over")
    return out, sorted(chien)


def make_deal(rules: Rules, dealer: int, hands: dict, chien=None, forced=None) -> ReferenceDeal:
    """A :class:`ReferenceDeal` from a partial deal (see :func:`complete_hands`)."""
    full, ch = complete_hands(rules, dealer, hands, chien)
    return ReferenceDeal(rules, dealer, full, ch, forced=forced)


def lowest_legal(deal: ReferenceDeal, seat: int):
    """The lowest legal card by id, keeping the Excuse for when nothing else is allowed."""
    legal = deal.legal_cards(seat)
    plain = [c for c in legal if not c.is_excuse]
    return plain[0] if plain else legal[0]


def play_out(deal: ReferenceDeal, script: dict | None = None, policy=lowest_legal,
             until_trick: int | None = None) -> ReferenceDeal:
    """Play cards until the deal ends (or until ``until_trick`` tricks are complete).

    ``script`` maps ``(trick number from 1, seat)`` to the card that seat plays there.
    Poignées and misères are declined (a card is played at the first turn).
    """
    script = {k: as_card(v) for k, v in (script or {}).items()}
    while deal.phase == "play":
        if until_trick is not None and len(deal.tricks) >= until_trick and not deal.trick:
            break
        seat = deal.next_player()
        assert seat is not None  # the play phase
        key = (len(deal.tricks) + 1, seat)
        deal.play(seat, script[key] if key in script else policy(deal, seat))
    return deal
