"""One trick, by the letter of docs/rules.md §6–7: what may be played, and who wins.

Plain functions over lists of :class:`tarotsim.cards.Card`; no state, no side. The deal object
(:mod:`tarotsim.reference.deal`) feeds them the hand, the cards already in the trick and the
few facts of the deal they need (the called card, whether this is trick 1, the options).
"""

from __future__ import annotations

from operator import attrgetter

from ..cards import KING, SUIT_NAMES, Card

# The duty a player is under, as the rule id that states it (R-PLAY-4 a..d, R-CALL-4).
FREE = None


def in_order(cards) -> list[Card]:
    """``sorted(cards)`` (cards order by id), with the id as key: no Python comparison per pair."""
    return sorted(cards, key=_CARD_ID)


_CARD_ID = attrgetter("id")


def led_card(trick: list[Card]) -> Card | None:
    """The card that fixes the led suit: the first one that is not the Excuse (R-PLAY-3)."""
    for c in trick:
        if not c.is_excuse:
            return c
    return None


def _trumps(cards) -> list[Card]:
    return [c for c in cards if c.is_trump]


def _called_suit_lead(hand: list[Card], called: Card) -> list[Card]:
    """Cards the leader of trick 1 may lead when ``called`` was called (R-CALL-4).

    No card of the called suit except the called card itself; the ban is lifted when every
    card he holds is of the called suit (he "has no other card").
    """
    called_suit = called.suit
    others = [c for c in hand if c.suit != called_suit]
    if not others:
        return in_order(hand)
    allowed = others + [c for c in hand if c == called]
    return in_order(allowed)


def play_duty(hand, trick, *, called: Card | None = None, first_trick: bool = False,
              called_suit_after_excuse: str = "free") -> tuple[list[Card], str | None, str]:
    """What the player to act must do: ``(allowed cards in id order, rule id, reason)``.

    ``trick`` is the cards already played to this trick, in playing order. ``rule_id`` is the
    rule that narrows the choice (``None`` when every card of the hand is allowed) and
    ``reason`` a short text for an error message (``"must follow hearts: holds 7H"``).
    """
    hand = in_order(hand)
    led = led_card(trick)

    if led is None:
        # Leading (R-PLAY-1), or the second card after an Excuse lead: free (R-PLAY-3),
        # except the called suit at the opening lead of table 5 (R-CALL-4 and its option).
        bound = first_trick and called is not None and (
            not trick or called_suit_after_excuse == "restricted")
        if bound:
            assert called is not None and called.suit is not None  # a king, queen, ... (R-CALL-1)
            allowed = _called_suit_lead(hand, called)
            if len(allowed) < len(hand):
                suit = SUIT_NAMES[called.suit]
                example = next(c for c in allowed if c != called) if any(
                    c != called for c in allowed) else called
                return allowed, "R-CALL-4", (
                    f"may not play {suit}, the called suit, in trick 1 except the called card "
                    f"{called}: holds {example}")
        return hand, FREE, ""

    excuse = hand[:1] if hand and hand[0].is_excuse else []  # R-EXC-1: always allowed instead
    # (the Excuse has the lowest id: it can only be first of a hand in id order)
    my_trumps = _trumps(hand)
    trumps_in_trick = _trumps(trick)
    top = max((t.rank for t in trumps_in_trick), default=0)

    if led.is_trump:
        if not my_trumps:
            return hand, FREE, ""  # R-PLAY-4d
        higher = [t for t in my_trumps if t.rank > top]
        if higher:
            return in_order(higher + excuse), "R-PLAY-4c", f"must overtrump: holds {higher[0]} above T{top}"
        return in_order(my_trumps + excuse), "R-PLAY-4c", f"must play a trump: trumps led, holds {my_trumps[0]}"

    led_suit = led.suit
    assert led_suit is not None  # not a trump, and led_card skips the Excuse
    suit = SUIT_NAMES[led_suit]
    same = [c for c in hand if c.suit == led_suit]
    if same:
        return in_order(same + excuse), "R-PLAY-4a", f"must follow {suit}: holds {same[0]}"
    if my_trumps:
        higher = [t for t in my_trumps if t.rank > top]
        if trumps_in_trick and higher:
            return in_order(higher + excuse), "R-PLAY-4b", f"must overtrump: holds {higher[0]} above T{top}"
        return in_order(my_trumps + excuse), "R-PLAY-4b", f"must trump: void in {suit}, holds {my_trumps[0]}"
    return hand, FREE, ""  # R-PLAY-4d


def legal_cards(hand, trick, **facts) -> list[Card]:
    """The cards the player may play now, in id order (R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-EXC-1, R-CALL-4)."""
    return play_duty(hand, trick, **facts)[0]


def trick_winner(trick: list[Card], excuse_wins: bool = False) -> int:
    """Index in ``trick`` of the winning card (R-PLAY-5).

    ``excuse_wins``: the Excuse was led to the last trick under R-EXC-4, so it wins.
    Otherwise the highest trump wins, or with no trump the highest card of the led suit;
    the Excuse never wins (R-PLAY-5).
    """
    if excuse_wins:
        if not trick[0].is_excuse:
            raise ValueError("R-EXC-4 needs the Excuse as the led card")
        return 0
    trumps = [(c.rank, i) for i, c in enumerate(trick) if c.is_trump]
    if trumps:
        return max(trumps)[1]
    led = led_card(trick)
    assert led is not None  # no trump, so a suit card fixed the led suit
    return max((c.rank, i) for i, c in enumerate(trick) if c.suit == led.suit)[1]


def is_king(card: Card) -> bool:
    return card.suit is not None and card.rank == KING
