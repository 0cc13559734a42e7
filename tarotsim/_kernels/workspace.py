"""The deal kernel's scratch layout (private).

The deal kernel's scratch layout (private): the sizes per table code, the workspace
(``WS_*``) that a deal carries from one step to the next, the buffer of one thread (``B_*``,
:func:`new_buffer`) and the decision trace (``TR_*``, tests only).

Every offset is an int into ``buf`` (int64[BUF_LEN]); the deal's log and the public view have
their own layouts (``layout.L_*``, ``layout.PUB_*``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import (BOT_DECISIONS, KERNEL_CHIEN_SIZE, KERNEL_HAND_SIZE, KERNEL_N_TRICKS, KERNEL_PILE_CARDS,
                     KERNEL_POIGNEE_SIZES, PILES)
from ..scoring import ST_LEN
from .layout import MAX_SEATS, PILE_CARDS, PILE_SEATS, PUB_LEN, U_LEN


# per table code (3, 4, 5, 5d, 2): hand size, chien size, tricks, cards laid in piles per player,
# poignée sizes (their home: tarotsim.rules)
HAND_SIZE = KERNEL_HAND_SIZE
CHIEN_SIZE = KERNEL_CHIEN_SIZE
N_TRICKS = KERNEL_N_TRICKS
PILE_SIZE = KERNEL_PILE_CARDS
N_PILES = PILES["2"]  # table 2 (R-VAR-TWO): piles per player, of PILE_DEPTH cards
POIGNEE_SIZES = KERNEL_POIGNEE_SIZES

# Workspace layout (``buf[0:WS_LEN]``): everything a deal carries from one step to the next
# besides the trick being played (the ``trick`` tuple of ``_card_step``). Hands, sides, piles
# and declarations live here, so that play can resume from any card of a deal: set these slots,
# the log's tricks so far and the public view, then call ``_play_rest`` (see ``_play_rest``).
WS_DECK = 0                       # the shuffled pack, 78 card ids (R-DEAL-2)
WS_NEXT = WS_DECK + 78            # per seat: the next active seat in playing order (R-GEN-2)
WS_HT = WS_NEXT + MAX_SEATS       # per seat: its hand (table 2: and face-up pile tops), trump word
WS_HS = WS_HT + MAX_SEATS         # per seat: the same, suit word
WS_ATT = WS_HS + MAX_SEATS        # per seat: 1 if it plays for the attack (R-GEN-3)
WS_TAKER = WS_ATT + MAX_SEATS     # the taker, -1 before the auction ends
WS_ECART_T = WS_TAKER + 1         # trumps the taker put in the écart (R-CHIEN-2; R-POIG-3)
WS_CALLED = WS_ECART_T + 1        # the called card id (table 5, R-CALL-1), else -1
WS_CALLED_SUIT = WS_CALLED + 1    # suit-word mask of the called suit, else 0
WS_CALL_BAN = WS_CALLED_SUIT + 1  # cards trick 1 may not be led with (R-CALL-4), else 0
WS_PILE_T = WS_CALL_BAN + 1       # the attack's pile (R-COUNT-1), trump word
WS_PILE_S = WS_PILE_T + 1         # the attack's pile, suit word
WS_EXC_ADJ = WS_PILE_S + 1        # R-EXC-2 low-card payments, in attack half-points
WS_ATT_TRICKS = WS_EXC_ADJ + 1    # tricks won by the attack so far
WS_PREV_T = WS_ATT_TRICKS + 1     # trump word of the last finished trick: its Petit (R-PAB-2)
WS_N_DECL = WS_PREV_T + 1         # declarations written to the log so far (L_DECL)
WS_POIG_ATT = WS_N_DECL + 1       # poignée bonuses declared by the attack (R-POIG-1)
WS_POIG_DEF = WS_POIG_ATT + 1     # poignée bonuses declared by the defence
WS_N_MIS = WS_POIG_DEF + 1        # misères declared (R-MIS-1)
# table 2 (R-VAR-TWO): per seat its pile cards (``seat * PILE_CARDS + PILE_DEPTH * pile + depth``,
# bottom first) and per pile the cards left in it (``seat * N_PILES + pile``); the face-up tops are
# public (``PUB_TOPS_*``)
WS_STACK = WS_N_MIS + 1
WS_HEIGHT = WS_STACK + PILE_SEATS * PILE_CARDS
WS_LEN = WS_HEIGHT + PILE_SEATS * N_PILES
# scratch buffer of play_deal: workspace, public view (layout.PUB_*), scorer steps/scores/misères
B_PUB = WS_LEN
B_STEPS = B_PUB + PUB_LEN
B_SCORES = B_STEPS + ST_LEN
B_MISERES = B_SCORES + MAX_SEATS
B_USER = B_MISERES + MAX_SEATS  # a user policy set's scratch (layout.U_*)
BUF_LEN = B_USER + U_LEN
# Decision trace (tests only): a buffer longer than BUF_LEN gets, after BUF_LEN, the number of
# decisions then one record per decision: what the bot was handed and what it chose.
# Its decision codes are the bot decisions' (``rules.BOT_DECISIONS``).
TR_BID, TR_CALL, TR_ECART, TR_CHELEM, TR_POIGNEE, TR_MISERE, TR_CARD = range(len(BOT_DECISIONS))
TR_WHAT, TR_SEAT, TR_HT, TR_HS, TR_ARGS, TR_CHOICE, TR_PUB = 0, 1, 2, 3, 4, 10, 12  # args: 6, choice: 2
TR_REC = TR_PUB + PUB_LEN


@njit(cache=True, nogil=True)
def new_buffer():
    """The scratch buffer of one thread (``play_deal``'s ``buf``)."""
    return np.zeros(BUF_LEN, dtype=np.int64)
