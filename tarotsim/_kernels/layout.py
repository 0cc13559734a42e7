"""Array layouts shared by the kernels and ``tarotsim.runs.simulate`` (plain ints, no numba).

* ``L_*``: offsets in a deal *log* (int64[L_LEN]) that the kernel fills for every deal: the
  facts first, then what a full record needs (hands, bids, écart, declarations, tricks).
* ``PUB_*``: offsets in the *public view* (int64[PUB_LEN]) handed to bots: only what every
  seat may see (R-DEAL-5, R-CALL-3). A bot also gets its own hand and the legal choices.
* ``ACC_*``: offsets of the streaming aggregate (int64[ACC_LEN]).
* Codes: outcomes, chelem outcomes, declaration kinds. The bots' kinds are the bots' own
  (``bots.BOT_KINDS``): the kernels read a seat's kind only to hand it to the bots' dispatch.

Each offset is the one before it plus that field's size, written out so that editors and type
checkers follow every name (a field is added by inserting one line and re-chaining the next).
"""

from __future__ import annotations

import numpy as np

from ..rules import BOT_DECISIONS, N_CONTRACTS
from ..scoring import ST_LEN

MAX_SEATS = 5
MAX_TRICKS = 36  # table 2 (R-VAR-TWO): 18 cards in hand and 18 in piles per player
#: Table 2 (R-VAR-TWO): the seats with piles, and the cards each lays in them (6 piles of 3)
PILE_SEATS = 2
PILE_CARDS = 18
MAX_ECART = 6
MAX_DECL = 1 + 3 * MAX_SEATS  # chelem + (poignée, misère d'atout, misère de tête) per seat
DECL_FIELDS = 4  # seat, kind, level, cards (trump word)


# facts (one row of the facts table)
L_INDEX = 0
L_DEALER = L_INDEX + 1
L_OUTCOME = L_DEALER + 1
L_TAKER = L_OUTCOME + 1
L_CONTRACT = L_TAKER + 1
L_PARTNER = L_CONTRACT + 1
L_CALLED = L_PARTNER + 1
L_ATTACK_HP = L_CALLED + 1
L_OUDLERS = L_ATTACK_HP + 1
L_MADE = L_OUDLERS + 1
L_DIFFERENCE = L_MADE + 1
L_PAB = L_DIFFERENCE + 1
L_CHELEM = L_PAB + 1
L_POIGNEE_ATTACK = L_CHELEM + 1
L_POIGNEE_DEFENCE = L_POIGNEE_ATTACK + 1
L_VALUE = L_POIGNEE_DEFENCE + 1
L_PETIT_SEC_SEAT = L_VALUE + 1
L_ATTACK_TRICKS = L_PETIT_SEC_SEAT + 1
L_N_MISERES = L_ATTACK_TRICKS + 1
L_SLAM_ANNOUNCED = L_N_MISERES + 1
L_FORCED = L_SLAM_ANNOUNCED + 1
L_SCORES = L_FORCED + 1
L_MISERES = L_SCORES + MAX_SEATS
# record
L_HAND_T = L_MISERES + MAX_SEATS
L_HAND_S = L_HAND_T + MAX_SEATS
L_CHIEN_T = L_HAND_S + MAX_SEATS
L_CHIEN_S = L_CHIEN_T + 1
# table 2 (R-VAR-TWO): per seat its 18 pile cards, pile by pile, each from bottom to top
L_PILES = L_CHIEN_S + 1
L_N_BIDS = L_PILES + PILE_SEATS * PILE_CARDS
L_BID_SEAT = L_N_BIDS + 1
L_BID = L_BID_SEAT + MAX_SEATS
L_N_ECART = L_BID + MAX_SEATS
L_ECART = L_N_ECART + 1
L_N_DECL = L_ECART + MAX_ECART
L_DECL = L_N_DECL + 1
L_N_TRICKS = L_DECL + MAX_DECL * DECL_FIELDS
L_LEADER = L_N_TRICKS + 1
L_WINNER = L_LEADER + MAX_TRICKS
L_CARDS = L_WINNER + MAX_TRICKS
L_STEPS = L_CARDS + MAX_TRICKS * MAX_SEATS
L_LEN = L_STEPS + ST_LEN

PUB_DEALER = 0
PUB_DUMMY = PUB_DEALER + 1
PUB_TAKER = PUB_DUMMY + 1
PUB_CONTRACT = PUB_TAKER + 1
PUB_CALLED = PUB_CONTRACT + 1
PUB_HIGHEST = PUB_CALLED + 1
PUB_BIDS = PUB_HIGHEST + 1
# the shown chien (prise / garde), else 0
PUB_CHIEN_T = PUB_BIDS + MAX_SEATS
PUB_CHIEN_S = PUB_CHIEN_T + 1
# trumps put in the écart, shown (R-CHIEN-2)
PUB_ECART_T = PUB_CHIEN_S + 1
PUB_SLAM = PUB_ECART_T + 1
PUB_POIGNEE_T = PUB_SLAM + 1  # poignée cards shown, per seat
PUB_MISERES = PUB_POIGNEE_T + MAX_SEATS
PUB_TRICK = PUB_MISERES + MAX_SEATS
PUB_LEADER = PUB_TRICK + 1
PUB_TRICK_CARDS = PUB_LEADER + 1
# every card of the finished tricks
PUB_PLAYED_T = PUB_TRICK_CARDS + MAX_SEATS
PUB_PLAYED_S = PUB_PLAYED_T + 1
# appended for the bots (all public), kept up to date only when some seat is not ``random``
# (the random bot reads nothing):
PUB_TABLE = PUB_PLAYED_S + 1  # rules.TABLE_* code, players, tricks
PUB_N_ACTIVE = PUB_TABLE + 1
PUB_N_TRICKS = PUB_N_ACTIVE + 1
# the rest from the finished tricks (as PUB_PLAYED_*; the trick being played is in PUB_TRICK_CARDS):
# table 5: who played the called card (R-CALL-3), else -1
PUB_PARTNER = PUB_N_TRICKS + 1
# per seat, shown by not following: bit s suit s (S H D C), bit 4 trumps
PUB_VOIDS = PUB_PARTNER + 1
# cards each seat has played (trump word, suit word)
PUB_SEAT_PLAYED_T = PUB_VOIDS + MAX_SEATS
PUB_SEAT_PLAYED_S = PUB_SEAT_PLAYED_T + MAX_SEATS
# tricks won by each seat
PUB_TRICKS_WON = PUB_SEAT_PLAYED_S + MAX_SEATS
# half-points of the cards (the Excuse aside) in the tricks it won
PUB_WON_HP = PUB_TRICKS_WON + MAX_SEATS
# the history, for a bot that searches (``pimc``): the leader of every trick so far and its
# cards from the leader (written as each card is played; the slots of tricks not yet played
# hold stale values: read the first PUB_TRICK tricks only), the misères declared per seat
# (bit 0 d'atout, bit 1 de tête, R-MIS-1)
PUB_H_LEADER = PUB_WON_HP + MAX_SEATS
PUB_H_CARDS = PUB_H_LEADER + MAX_TRICKS
PUB_MISERE_KINDS = PUB_H_CARDS + MAX_TRICKS * MAX_SEATS
# table 2 (R-VAR-TWO): per seat, the face-up tops of its piles (trump word, suit word), kept up to
# date in every build (the deal plays from them); 0 at the other tables
PUB_TOPS_T = PUB_MISERE_KINDS + MAX_SEATS
PUB_TOPS_S = PUB_TOPS_T + MAX_SEATS
PUB_LEN = PUB_TOPS_S + MAX_SEATS

ACC_DEALS = 0
ACC_PLAYED = ACC_DEALS + 1
ACC_ALL_PASSED = ACC_PLAYED + 1
ACC_PETIT_SEC = ACC_ALL_PASSED + 1
ACC_TAKEN = ACC_PETIT_SEC + 1
ACC_MADE = ACC_TAKEN + N_CONTRACTS
ACC_ATTACK_HP = ACC_MADE + N_CONTRACTS
ACC_SCORE_SUM = ACC_ATTACK_HP + N_CONTRACTS
ACC_TAKER_SCORE_SUM = ACC_SCORE_SUM + MAX_SEATS
ACC_PAB_ATTACK = ACC_TAKER_SCORE_SUM + 1
ACC_PAB_DEFENCE = ACC_PAB_ATTACK + 1
ACC_CHELEM = ACC_PAB_DEFENCE + 1
ACC_POIGNEES = ACC_CHELEM + 6
ACC_MISERES = ACC_POIGNEES + 1
ACC_ALONE = ACC_MISERES + 1
# deals where a policy set chose what the rules forbid (then stopped)
ACC_BOT_ERRORS = ACC_ALONE + 1
ACC_LEN = ACC_BOT_ERRORS + 1

# outcome codes (``bot_error``: a policy set chose what the rules forbid; the run stops there)
OUTCOME_PLAYED, OUTCOME_ALL_PASSED, OUTCOME_PETIT_SEC, OUTCOME_BOT_ERROR = 0, 1, 2, 3
OUTCOMES = ("played", "all_passed", "petit_sec", "bot_error")
# chelem codes (facts) -> record names (None for 0)
CHELEM_NONE, CHELEM_ANNOUNCED_MADE, CHELEM_MADE, CHELEM_ANNOUNCED_FAILED, CHELEM_DEFENCE, \
    CHELEM_ANNOUNCED_DEFENCE = range(6)
CHELEM_NAMES = (None, "announced_made", "made", "announced_failed", "defence", "announced_defence")
# declaration kinds
DECL_POIGNEE, DECL_CHELEM, DECL_MISERE_ATOUT, DECL_MISERE_TETE = range(4)
DECL_NAMES = ("poignee", "chelem", "misere_atout", "misere_tete")

#: Width of each seat's float64 parameter row.
N_BOT_PARAMS = 48
N_DECISIONS = len(BOT_DECISIONS)
#: The user scratch (int64[U_LEN]) of the deal kernel: the bots-stream state handed to a policy
#: (``rng``), the écart it writes (``out``), and the first forbidden choice (decision + 1, seat).
U_RNG, U_OUT, U_ERR, U_ERR_SEAT = 0, 1, 1 + MAX_ECART, 2 + MAX_ECART
U_LEN = 3 + MAX_ECART

#: One row per deal of the facts table (``tarotsim.runs.simulate.facts``).
FACTS_DTYPE = np.dtype([
    ("index", np.int64),
    ("dealer", np.int8),
    ("outcome", np.int8),          # 0 played, 1 all_passed, 2 petit_sec
    ("taker", np.int8),            # -1: none
    ("contract", np.int8),         # 0 prise .. 3 garde contre, -1: none
    ("partner", np.int8),          # -1: none (taker alone, or not table 5)
    ("called", np.int8),           # card id, -1: none
    ("attack_half_points", np.int16),
    ("oudlers", np.int8),
    ("made", np.int8),
    ("difference", np.int16),      # signed: + made, - failed (R-COUNT-4)
    ("petit_au_bout", np.int8),    # +1 attack, -1 defence, 0 none
    ("chelem", np.int8),           # CHELEM_* code
    ("slam_announced", np.int8),
    ("poignee_attack", np.int16),  # bonuses declared by each side (20/30/40 each)
    ("poignee_defence", np.int16),
    ("miseres", np.int8),          # misères declared in the deal
    ("attack_tricks", np.int8),
    ("petit_sec_seat", np.int8),   # -1 unless outcome is petit_sec
    ("value", np.int32),           # V of R-SCORE-1
    ("scores", np.int32, (MAX_SEATS,)),  # per seat, padded with 0
], align=True)
