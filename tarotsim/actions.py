"""The one dense action-id map of tarotsim: every decision of a deal as an int in ``0..N_ACTIONS-1``.

The same ids serve the step-by-step facade (``Game.legal_action_ids``, ``Game.apply_action``),
the observations and the batched environment (``tarotsim.runs.env``). Which ids a decision takes
(``Decision.kind``):

| ids | names | decision |
|---|---|---|
| 0..77 | card names | ``card``: play that card (R-PLAY-2); ``call`` (table 5): call that card (R-CALL-1); ``ecart``: lay that card aside (see below) |
| 78 | ``pass`` | ``bid`` (R-BID-2) |
| 79..82 | contracts | ``bid``: prise, garde, garde_sans, garde_contre (R-BID-1) |
| 83, 84 | chelem no/yes | ``chelem``: announce a slam (R-SLAM-1) |
| 85 | poignée none | ``poignee``: show none |
| 86..88 | poignée level | ``poignee``: simple, double, triple (R-POIG-1) |
| 89, 90 | misère no/yes | ``misere_atout`` and ``misere_tete``: decline or declare (R-MIS-1) |

The écart is one card per decision: the taker picks it card by card, and after each pick the mask
keeps only the cards that a legal écart can still hold (R-CHIEN-2). The cards of a poignée shown
are the lowest trumps available, or all of them and the Excuse when it holds exactly one fewer
(R-POIG-3, as the kernels' bots show them).

Card ids are those of :mod:`tarotsim.cards` (0 the Excuse, 1..21 trumps, 22 + 14*suit + rank-1).
Plain Python ints only (no numba): the kernels import these constants.
"""

from __future__ import annotations

from . import echo
from .cards import DECK, N_CARDS
from .rules import CONTRACTS, DECISION_KINDS, POIGNEE_LEVELS

PASS = N_CARDS                      # 78
CONTRACT_BASE = PASS + 1            # 79 prise .. 82 garde_contre
CHELEM_NO = CONTRACT_BASE + len(CONTRACTS)   # 83
CHELEM_YES = CHELEM_NO + 1          # 84
POIGNEE_NONE = CHELEM_YES + 1       # 85
POIGNEE_BASE = POIGNEE_NONE + 1     # 86 simple, 87 double, 88 triple: POIGNEE_BASE + level - 1
MISERE_NO = POIGNEE_BASE + len(POIGNEE_LEVELS)   # 89
MISERE_YES = MISERE_NO + 1          # 90
N_ACTIONS = MISERE_YES + 1          # 91

#: Every action's name, by id.
ACTION_NAMES: tuple[str, ...] = (
    tuple(str(c) for c in DECK) + ("pass",) + CONTRACTS + ("chelem_no", "chelem_yes", "poignee_none")
    + tuple("poignee_" + lv for lv in POIGNEE_LEVELS) + ("misere_no", "misere_yes"))
assert len(ACTION_NAMES) == N_ACTIONS

#: The ids each decision kind takes (the mask of a decision is a subset of its range).
KIND_RANGES: dict[str, range] = dict(zip(DECISION_KINDS, (
    range(PASS, CHELEM_NO),              # bid
    range(0, N_CARDS),                   # call
    range(0, N_CARDS),                   # ecart
    range(CHELEM_NO, POIGNEE_NONE),      # chelem
    range(POIGNEE_NONE, MISERE_NO),      # poignee
    range(MISERE_NO, N_ACTIONS),         # misere_atout
    range(MISERE_NO, N_ACTIONS),         # misere_tete
    range(0, N_CARDS),                   # card
), strict=True))


def action_name(action: int) -> str:
    """The name of an action id (a card name, ``pass``, ``garde``, ``poignee_simple`` …)."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < N_ACTIONS:
        raise ValueError(f"no action with id {echo.shown(action)} (ids are 0..{N_ACTIONS - 1})")
    return ACTION_NAMES[action]


def action_id(name: str) -> int:
    """The id of an action name (card names case-insensitive, as :meth:`Card.parse`)."""
    text = str(name).strip()
    if text.lower() in ACTION_NAMES:
        return ACTION_NAMES.index(text.lower())
    from .cards import Card
    return Card.parse(text).id


def bid_action(bid: str) -> int:
    """``pass`` -> 78, a contract -> 79..82."""
    return PASS if bid == "pass" else CONTRACT_BASE + CONTRACTS.index(bid)
