"""The random bot of docs/engine-contract.md: uniform over the legal choices, one stream.

Every decision draws ``k = rng.below(count)`` from the deal's bots stream (``STREAM_BOTS``)
over the choices listed in a fixed order, even when there is a single choice, so the numba
engine and this one stay draw for draw in step.
"""

from __future__ import annotations

from ..rng import Rng
from .deal import Decision, ReferenceDeal


class RandomBot:
    """Plays every seat of a deal from one :class:`~tarotsim.rng.Rng` (the bots stream)."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def pick(self, choices: list):
        """One draw, ``below(len(choices))``, whatever the number of choices."""
        return choices[self.rng.below(len(choices))]

    def act(self, deal: ReferenceDeal, d: Decision):
        """Make decision ``d`` on ``deal`` (the table of the contract, row by row)."""
        if d.kind == "bid":          # pass, then the legal contracts ascending
            deal.bid(d.seat, self.pick(deal.legal_bids()))
        elif d.kind == "call":       # legal called cards, id order
            deal.call(d.seat, self.pick(deal.legal_calls()))
        elif d.kind == "ecart":
            deal.discard(d.seat, self.choose_ecart(deal))
        elif d.kind == "chelem":     # no, yes
            deal.announce_chelem(d.seat, self.pick([False, True]))
        elif d.kind == "poignee":    # none, then each level it can show, ascending
            level = self.pick([None] + deal.poignee_levels(d.seat))
            cards = deal.default_poignee_cards(d.seat, level) if level else None
            deal.declare_poignee(d.seat, level, cards)
        elif d.kind in ("misere_atout", "misere_tete"):  # no, yes (asked only when eligible)
            deal.declare_misere(d.seat, d.kind.split("_")[1], self.pick([False, True]))
        elif d.kind == "card":       # legal cards, id order
            deal.play(d.seat, self.pick(deal.legal_cards(d.seat)))
        else:  # pragma: no cover - Decision kinds are closed
            raise ValueError(f"unknown decision {d.kind!r}")

    def choose_ecart(self, deal: ReferenceDeal) -> list:
        """E picks among the eligible non-trumps, or all of them and picks among T2..T20.

        Each pick draws ``below(len(remaining))`` in the remaining list (id order) and removes
        the card picked (R-CHIEN-2).
        """
        normal = deal.ecart_normal()
        needed = deal.ecart_trumps_needed()  # trumps only when short (R-CHIEN-2)
        if needed == 0:
            return self._picks(normal, deal.ecart_size)
        return normal + self._picks(deal.ecart_trump_choices(), needed)

    def _picks(self, pool: list, k: int) -> list:
        remaining = sorted(pool)
        chosen = []
        for _ in range(k):
            chosen.append(remaining.pop(self.rng.below(len(remaining))))
        return chosen


def run(deal: ReferenceDeal, bot: RandomBot) -> ReferenceDeal:
    """Let ``bot`` make every decision until the deal is over."""
    while (d := deal.decision()) is not None:
        bot.act(deal, d)
    return deal
