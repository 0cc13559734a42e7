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
from ..rules import PILE_DEPTH, PILES, Rules
from .deal import ReferenceDeal, as_card, as_cards


def complete_hands(rules: Rules, dealer: int, hands: dict, chien=None, piles: dict | None = None):
    """``(hands by seat, chien)``: the given cards, then the rest of the deck in id order.

    ``hands`` maps a seat to some of its cards; the chien is filled first if given partly,
    then the seats in seat order. The 5d dummy (the dealer) gets nothing. At table 2 use
    :func:`complete_deal`, which also lays out the piles.
    """
    full, ch, _ = complete_deal(rules, dealer, hands, chien, piles)
    return full, ch


def complete_deal(rules: Rules, dealer: int, hands: dict, chien=None, piles: dict | None = None):
    """Complete a position into hands, chien and table-2 piles.

    ``(hands by seat, chien, piles by seat)``: as :func:`complete_hands`, with the piles of
    table 2 (R-VAR-TWO): ``piles`` maps a seat to some of its piles, each a full pile of 3 cards
    from bottom to top (the last one face up); the missing piles are filled after the hands,
    three cards at a time. ``piles by seat`` is ``[]`` per seat at the other tables.
    """
    given = {seat: as_cards(cs) for seat, cs in hands.items()}
    given_piles = {seat: [as_cards(p) for p in ps] for seat, ps in (piles or {}).items()}
    chien = as_cards(chien or [])
    pile_cards = [c for ps in given_piles.values() for p in ps for c in p]
    used = {c for cs in given.values() for c in cs} | set(chien) | set(pile_cards)
    if len(used) != sum(len(cs) for cs in given.values()) + len(chien) + len(pile_cards):
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
    laid = []
    for seat in range(rules.n_seats):
        ps = list(given_piles.get(seat, []))
        while len(ps) < PILES.get(rules.table, 0):
            ps.append([rest.pop(0) for _ in range(PILE_DEPTH)])
        laid.append(ps)
    while len(chien) < CHIEN_SIZE[rules.table]:
        chien.append(rest.pop(0))
    if rest:
        raise ValueError(f"too many cards given: {len(rest)} left over")
    return out, sorted(chien), laid


def make_deal(rules: Rules, dealer: int, hands: dict, chien=None, forced=None, piles: dict | None = None) -> ReferenceDeal:
    """A :class:`ReferenceDeal` from a partial deal (see :func:`complete_deal`)."""
    full, ch, laid = complete_deal(rules, dealer, hands, chien, piles)
    return ReferenceDeal(rules, dealer, full, ch, forced=forced, piles=laid if rules.table == "2" else None)


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
