"""The reference engine: French Tarot in slow, plain Python, written from the rules alone.

It is the oracle the numba kernels are tested against (docs/engine-contract.md): the rules of
docs/rules.md, the same
``(seed, index)``, same random bots -> the very same deal record.

- :class:`ReferenceDeal` — one deal step by step (``decision()``, ``legal_*``, apply methods
  raising :class:`RuleViolation` with a rule id).
- :func:`legal_cards`, :func:`play_duty`, :func:`trick_winner` — the rules of one trick.
- :class:`RandomBot`, :func:`run` — the random bot of docs/engine-contract.md.
- :func:`play_deal`, :func:`record_from_deal` — a whole deal and its record (docs/records.md).
"""

from .bot import RandomBot, run
from .deal import BIDS, Decision, ReferenceDeal, Trick, as_card, as_cards, names
from .errors import RuleViolation
from .play import RECORD_FORMAT, deal_for, play_deal, record_from_deal
from .tricks import led_card, legal_cards, play_duty, trick_winner

__all__ = [
    "BIDS", "Decision", "RECORD_FORMAT", "RandomBot", "ReferenceDeal", "RuleViolation", "Trick",
    "as_card", "as_cards", "deal_for", "led_card", "legal_cards", "names", "play_deal", "play_duty",
    "record_from_deal", "run", "trick_winner",
]
