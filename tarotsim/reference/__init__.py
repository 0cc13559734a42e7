"""The reference engine: French Tarot in slow, plain Python, written from RULES.md alone.

It is the oracle the numba kernels are tested against (DESIGN §7): same rules, same
``(seed, index)``, same random bots -> the very same deal record.

- :class:`ReferenceDeal` — one deal step by step (``decision()``, ``legal_*``, apply methods
  raising :class:`RuleViolation` with a rule id).
- :func:`legal_cards`, :func:`play_duty`, :func:`trick_winner` — the rules of one trick.
- :class:`RandomBot`, :func:`run` — the random bot of docs/engine-contract.md.
- :func:`play_deal`, :func:`record_from_deal` — a whole deal and its DESIGN §6 record.
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
