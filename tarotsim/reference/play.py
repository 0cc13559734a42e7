"""A whole deal from ``(seed, index)`` with random bots, and its deal record (docs/records.md)."""

from __future__ import annotations

from ..rng import STREAM_BOTS, Rng, deal_with_piles
from ..rules import Rules
from .bot import RandomBot, run
from .deal import ReferenceDeal, names

RECORD_FORMAT = "tarotsim-deal/1"


def deal_for(rules: Rules, seed: int, index: int, forced=None) -> ReferenceDeal:
    """The deal ``(seed, index)`` as dealt by :func:`tarotsim.rng.deal`, before any decision."""
    dealer, hands, chien, piles = deal_with_piles(rules, seed, index)
    return ReferenceDeal(rules, dealer, hands, chien, forced=forced, piles=piles if rules.table == "2" else None)


def play_deal(rules: Rules, seed: int, index: int, forced=None) -> dict:
    """Deal ``(seed, index)``, play it with random bots on the bots stream, return its record.

    ``forced``: ``(seat, contract)`` skips the auction (docs/engine-contract.md step 2; no
    draws are made for the bids).
    """
    d = deal_for(rules, seed, index, forced)
    run(d, RandomBot(Rng.for_deal(seed, index, STREAM_BOTS)))
    return record_from_deal(d, seed, index)


def record_from_deal(d: ReferenceDeal, seed: int | None = None, index: int | None = None) -> dict:
    """The record (docs/records.md) of a finished deal, field by field.

    Card lists (hands, chien, écart, poignée cards) are names in id order; trick cards are in
    playing order from the leader. At table 2 ``piles`` follows ``chien``: per seat, its 6 piles
    of 3 cards, each from bottom to top (R-VAR-TWO). Declarations are in the order made (the chelem comes first
    by the order of the deal). Thrown-in and annulled deals have no tricks, ``result`` null and
    zero scores. Two extra fields, present only when they apply: ``"forced": true`` when a
    forced contract was asked for (even if a petit sec then annulled the deal), and
    ``"petit_sec_seat"`` for a petit-sec deal (the first such seat in dealing order).
    """
    if not d.done:
        raise ValueError("the deal is not over")
    record = {
        "format": RECORD_FORMAT,
        "table": d.rules.table,
        "options": d.rules.non_default_options(),
        "seed": seed,
        "index": index,
        "dealer": d.dealer,
        "hands": [names(h) for h in d.initial_hands],
        "chien": names(d.chien),
        **({"piles": [[[str(c) for c in p] for p in ps] for ps in d.initial_piles]} if d.two_player else {}),
        "bids": [[seat, bid] for seat, bid in d.bids],
        "outcome": d.outcome,
        "taker": d.taker,
        "contract": d.contract,
        "called": str(d.called) if d.called is not None else None,
        "partner": d.partner,
        "ecart": names(d.ecart),
        "declarations": [dict(x, cards=list(x["cards"])) if "cards" in x else dict(x)
                         for x in d.declarations],
        "tricks": [{"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
                   for t in d.tricks],
        "result": dict(d.result) if d.result is not None else None,
        "scores": list(d.scores),
    }
    if d.forced is not None:
        record["forced"] = True
    if d.petit_sec_seat is not None:
        record["petit_sec_seat"] = d.petit_sec_seat
    return record
