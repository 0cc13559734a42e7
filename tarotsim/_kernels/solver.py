"""The exact open-card solver (a "double-dummy" solver for French Tarot): the kernels (private).

A position has every remaining card known. It is held exactly as the deal kernel holds a deal
(``steps.py``, ``workspace.py``): the workspace ``WS_*`` of a deal buffer (hands, the next seat, the sides, the
attack's pile, the R-EXC-2 payments, the tricks won by the attack, the last trick's trumps), its
public view (the dummy), the misères and a log (taker, partner, contract, chelem announced, the
leader of each trick), plus the trick in progress as ``steps.open_trick``'s tuple. So the search
plays cards with the deal kernel's own steps: the legal cards ``steps.playable`` (R-PLAY-3,
R-PLAY-4a to R-PLAY-4e, R-EXC-1, R-CALL-4), the trick state
``steps.after_lead`` / ``steps.after_card`` (R-PLAY-5; ``steps.add_to_trick`` where it replays a
trick), the close ``steps.close_trick`` (R-EXC-2, R-EXC-3, R-EXC-4, R-PAB-1, R-PAB-2, R-COUNT-1), and at the end ``steps.count_points`` and ``steps.score_deal``
(R-EXC-5, R-SLAM-2, R-COUNT-3, R-COUNT-4, R-SLAM-3, R-SCORE-1, R-SCORE-2). Two objectives:

* ``MODE_POINTS``: the attack's card points at the end of the deal, in half-points (0..182),
  the écart or chien and the tricks already won included;
* ``MODE_SCORE + seat``: that seat's score for the deal (the contract made or failed and its
  difference, the oudlers the attack ends with, the petit au bout, the slam, the poignées and
  misères declared), counted for the attack: the score of an attack seat, minus the score of a
  defence seat. Every seat's score is its factor times one value, misères apart, which play cannot
  change (R-SCORE-1, R-SCORE-2): the attack maximises each of these objectives, the defence
  minimises it, with the same best play. The API's score mode is the taker's.

The core question is a null window, ``reach``: can the attack make the objective at least
``target`` with best play by both sides (``_search``: a depth-first search over single cards on
an explicit stack, the attack's seats OR-nodes, the defence's AND-nodes, cut at the first
answer). ``value`` narrows the exact value between bounds by such questions (a first guess, then
each test just past the last answer, with ``F_STEP`` in growing steps and halving once the value
is bracketed: ``_value``); the value of each legal card of the player to move follows from the position's value
with one question for a card that keeps it. Techniques (each can be switched off in ``cfg`` to
measure it; ``F_*``):

* equivalent cards merged (``_moves``): two legal cards of one suit (or two trumps) worth the same
  points with no card of another hand or of the trick ranked between them give the same deal;
  only the lowest is searched;
* a transposition table at trick starts, kept across the questions of one deal (``_tt_*``): its
  key is the position up to cards that no longer play a part (``_key``: the low cards of each suit
  and the trumps T2..T20 counted from the bottom of those still out, each seat's cards named by
  their place among them), the leader, whether one side has won every trick so far (R-EXC-4,
  R-SLAM-2) and, in score mode, the points and oudlers the attack holds so far; each entry keeps
  bounds on the rest of the objective and the leader's card that decided;
* winning-card entries (partition search, ``F_PART``): each value comes back with the low cards
  whose rank decided it (a card that won a trick by rank, the best trump a seat had to beat, what
  a bound read: ``_search``); an entry's bounds then hold for every position that differs from it
  only by the low cards below those, as many per seat (``_wildcards``), and a lookup takes every
  entry of its bucket that matches outside its wildcards (``_tt_probe``);
* the small-card filter (``F_SMALL``): once a low card is searched, the seat's other low cards of
  its group below the lowest card that decided its value are not (``_cover``): each gives a
  position its value's entry covers;
* move ordering (``_order_score``): that card first, then cards that surely win a trick for their
  side (with as many points as possible), cards that lose as few points as possible;
* bounds (``_enter``): the points still in play (points mode), the objective with every card
  still out going one way or the other (score mode), less what each side surely takes
  (``_bounds``): master trumps, the Excuse, and with ``F_QUICK`` the quick tricks of the side on
  lead (``_cash``), with ``F_TRICK`` inside a trick too (``_in_trick``);
* the last trick, where every card is forced, is counted without a search (``_last_trick``).

Budgets are node counts (cards played in the search), never seconds. Kernel entry points:
``solve_position`` (from a description vector, ``D_*``: the Python API, ``tarotsim.analysis.solver``) and
``solve_in`` (from a deal buffer and log already set up, as the ``pimc`` search holds a sampled
world). Both answer the question of ``cfg`` (``CFG_*``) into ``out`` (``OUT_*``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import KERNEL_N_TRICKS, RV_N_ACTIVE, RV_N_SEATS, RV_TABLE, TABLE_5D
from ._bits import deposit_bits, extract_bits, hibit, popcount, scalar, select_bit, tzcnt
from ._cache import engine_sources, guard_cache
from .layout import L_CARDS, L_CONTRACT, L_LEADER, L_PARTNER, L_SCORES, L_SLAM_ANNOUNCED, L_TAKER, MAX_SEATS, \
    MAX_TRICKS, PUB_DUMMY, PUB_LEN
from .masks import CARD_HP, SW_HONOURS, SW_LOWS, SW_SUITS, TW_OUDLERS, TW_T2_T20, TW_TRUMPS, card_bits, half_points
from .steps import (CARD_KEY_LED, CARD_KEY_OFF, FOLLOW_MASK, SUIT_BIT_OF, add_to_trick, after_card, after_lead,
                    close_trick, count_points, playable, replay_tricks, score_deal, set_called)
from .workspace import (B_MISERES, B_PUB, B_SCORES, B_STEPS, WS_ATT, WS_ATT_TRICKS, WS_CALL_BAN, WS_CALLED,
                        WS_CALLED_SUIT, WS_ECART_T, WS_EXC_ADJ, WS_HS, WS_HT, WS_LEN, WS_N_DECL, WS_N_MIS, WS_NEXT,
                        WS_PILE_S, WS_PILE_T, WS_POIG_ATT, WS_POIG_DEF, WS_PREV_T, WS_TAKER)
from ..scoring import ST_LEN
from .seats import next_seat

# --- the question (``cfg``, int64[CFG_LEN]) -------------------------------------------------------
CFG_QUESTION = 0    # Q_REACH, Q_VALUE, Q_CARDS, Q_MOVES or Q_BOUNDS
CFG_MODE = 1        # MODE_POINTS, or MODE_SCORE + the seat whose score it is
CFG_TARGET = 2      # Q_REACH: the target
CFG_GUESS = 3       # Q_VALUE, Q_CARDS: the first target tried (NO_GUESS: none)
CFG_BUDGET = 4      # most nodes for the question (0: no limit)
CFG_FLAGS = 5       # the techniques used (F_*)
CFG_GEN = 6         # the transposition table's generation: entries of another one are empty
CFG_EXACT = 7       # trick starts with at most this many tricks left get their exact value
CFG_LEN = 8

#: reach a target; the value; the value and each legal card's; the cards the search tries first
#: at the position (with the flags' merging, in its order: ``out[OUT_CARDS + k]`` for k < OUT_LO);
#: the bounds the search starts from (``_bounds`` with the flags' techniques: OUT_LO, OUT_HI)
Q_REACH, Q_VALUE, Q_CARDS, Q_MOVES, Q_BOUNDS = 0, 1, 2, 3, 4
MODE_POINTS, MODE_SCORE = 0, 1
NO_GUESS = -(1 << 40)
#: the default of CFG_EXACT: none (with the winning-card entries the null windows alone search less)
EXACT_TRICKS = 0
F_MERGE, F_TT, F_ORDER, F_BOUNDS, F_CANON, F_PART, F_SMALL, F_QUICK, F_TRICK, F_STEP = \
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512
F_ALL = F_MERGE | F_TT | F_ORDER | F_BOUNDS | F_CANON | F_PART | F_SMALL | F_QUICK | F_TRICK | F_STEP
#: the techniques that read which low cards decided a value
F_DECIDED = F_PART | F_SMALL

# --- the answer (``out``, int64[OUT_LEN]) ---------------------------------------------------------
OUT_STATUS = 0      # DONE, or INCOMPLETE when the budget ran out
OUT_REACH = 1       # Q_REACH: 1 reached, 0 not
OUT_LO = 2          # the value lies in [OUT_LO, OUT_HI] (equal when DONE)
OUT_HI = 3
OUT_NODES = 4       # nodes searched for the question
OUT_MOVER = 5       # the seat to play at the position
OUT_TESTS = 6       # null-window tests (searches) made for the question
OUT_CARDS = 8       # Q_CARDS: per card id, its value (NOT_LEGAL for a card the seat may not play)
OUT_LEN = OUT_CARDS + 78
DONE, INCOMPLETE = 0, 1
NOT_LEGAL = -(1 << 50)

# --- the description of a position (``desc``, int64[D_LEN]; ``tarotsim.analysis.solver`` fills it) ---------
D_DEALER = 0
D_TAKER = 1
D_PARTNER = 2        # -1: none (alone, or a table without partner)
D_CONTRACT = 3       # 0 prise .. 3 garde contre
D_SLAM = 4           # 1: the taker announced a chelem (R-SLAM-1)
D_CALLED = 5         # the called card id (table 5), else -1
D_POIG_ATT = 6       # poignée bonuses declared by each side (R-POIG-1)
D_POIG_DEF = 7
D_MISERES = 8        # per seat, misères declared (R-MIS-1)
D_HT = D_MISERES + MAX_SEATS      # per seat, its hand now (trump word)
D_HS = D_HT + MAX_SEATS           # ... suit word
D_PILE_T = D_HS + MAX_SEATS       # the attack's pile before the tricks replayed (écart, chien, or more)
D_PILE_S = D_PILE_T + 1
D_EXC_ADJ = D_PILE_S + 1          # R-EXC-2 payments so far, attack half-points
D_ATT_TRICKS = D_EXC_ADJ + 1      # tricks won by the attack before the tricks replayed
D_PREV_T = D_ATT_TRICKS + 1       # trump word of the trick before the first replayed one (R-PAB-2)
D_FIRST = D_PREV_T + 1            # index of the first trick replayed (its earlier ones are in D_PILE_*)
D_TRICK = D_FIRST + 1             # index of the trick in progress
D_POS = D_TRICK + 1               # cards already in it
D_LEADERS = D_POS + 1             # per trick from D_FIRST to D_TRICK, its leader
D_CARDS = D_LEADERS + MAX_TRICKS  # per trick, its cards from the leader (MAX_SEATS per trick)
D_LEN = D_CARDS + MAX_TRICKS * MAX_SEATS

# --- the search stack (``stk``, int64[MAX_PLY, PL_LEN]): one row per card of the line searched -----
MAX_PLY = 80                      # 75 cards at table 5, and the end of the deal
MAX_MOVES = 24                    # the most cards of a hand (table 3)
# the trick before this ply's card (``steps.open_trick``'s tuple), its index and position
PL_SEAT, PL_FIXED, PL_FMASK, PL_AMASK, PL_BKEY, PL_BSEAT, PL_EXSEAT, PL_TT, PL_TS, PL_POS, PL_TR = range(11)
# what the close of the trick by this ply's card changes in the workspace, saved to undo it
PL_PILE_T, PL_PILE_S, PL_ADJ, PL_ATT_TR, PL_PREV_T = range(11, 16)
PL_CARD = 16        # the card played at this ply
PL_CLOSED = 17      # 1: it closed the trick
PL_PAB = 18         # R-PAB-1, R-PAB-2: the petit au bout of the deal's last trick, closed just before
PL_N = 19           # candidate cards
PL_I = 20           # the next one to try
PL_MAX = 21         # 1: the seat attacks (an OR-node)
PL_OFFSET = 22      # the objective the transposition entry's bounds are counted from
PL_TSTART = 23      # 1: a trick start with a transposition entry to update
PL_BEST = 24        # the best value of its cards so far, for its side
PL_RT = 25          # the cards still out at a trick start (trump word, suit word)
PL_RS = 26
PL_HASH = 27        # the hash of its key
PL_ALPHA = 28       # its window now, and as it was entered
PL_BETA = 29
PL_ALPHA0 = 30
PL_BETA0 = 31
PL_REL = 32         # the low cards whose rank decided its value so far (``_low_bits`` layout)
PL_OWN = 33         # the best trump of the trick when the seat's legal cards hold trumps (``_low_bits``)
PL_WIN = 34         # the trick's winning card when it won by rank (a ply that closed a trick)
PL_SRCH = 35        # its low cards searched, and those left out by merging
PL_MRG = 36
PL_COVER = 37       # its low cards whose value one already searched gives (``_cover``)
PL_MINE = 38        # the seat's trumps T2..T20 (``_low_bits``)
PL_KEY = 39         # the transposition key (TT_KEY_LEN words)
TT_KEY_LEN = 1 + 2 * MAX_SEATS
TT_COARSE = 1 + MAX_SEATS   # its words matched exactly; the others, each seat's low cards, outside wildcards
PL_MOVES = PL_KEY + TT_KEY_LEN
PL_SCORES = PL_MOVES + MAX_MOVES
PL_LEN = PL_SCORES + MAX_MOVES

# --- the transposition table (``tt``, int64[2**k, TT_LEN]); TT_WAYS entries per bucket ------------
TT_KEY = 0
TT_LO = TT_KEY_LEN          # bounds on the objective minus the entry's offset
TT_HI = TT_LO + 1
TT_WLO = TT_HI + 1          # the wildcards of each bound: low cards whose place among the seats is free
TT_WHI = TT_WLO + 1
TT_META = TT_WHI + 1        # the leader's card that decided (1 + its place among the cards out, 0: none),
TT_LEN = 16                 # tricks left (deeper entries are kept first), 1 + the generation that wrote it
TT_WAYS = 16
META_DEPTH = 8
META_GEN = 16
BIG = np.int64(1 << 40)

N_TRICKS = KERNEL_N_TRICKS
# the states of a ply in ``_search``: new, to try its next card, its value known
NEW, NEXT, DONE_PLY = 0, 1, 2

# Compile time: numba inlines an ``inline="always"`` step by copying its IR at each call site and
# running its passes again, nested steps again at every level; steps that nest others, or are
# called from several places, are compiled units of their own (``_unit``), which LLVM inlines
# (``forceinline``: the search ran a third slower with calls), the others are inlined by numba
# (``_step``).
_step = njit(inline="always")
#: the compiled units
_unit = njit(nogil=True, _nrt=False, forceinline=True)
_HASH_MULT = np.array([(0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019 * i) % (1 << 63) | 1 for i in range(TT_KEY_LEN)],
                      dtype=np.int64)


# --- small steps --------------------------------------------------------------------------------

@scalar
def _equivalent(prev, b, others, plain):
    """Whether two legal cards of one word give the same deal, so that one of them is searched.

    Two legal cards of one word (bit indices ``prev < b``) give the same deal when both are
    worth one half-point (``plain``: T2..T20, or ranks 1..10 of a suit, R-CARD-4) and no card of
    another hand or of the trick (``others``) is ranked between them: they win and lose against
    the same cards and count the same (the caller checks that suit cards share a suit)."""
    if (plain >> prev) & 1 == 0 or (plain >> b) & 1 == 0:
        return False
    between = ((np.int64(1) << b) - 1) & ~((np.int64(2) << prev) - 1)
    return between & others == 0


@scalar
def _winning_card(tt, ts, bkey, fmask):
    """The trick's winning card, as its bits, from its key.

    The card of key ``bkey`` (``steps.CARD_KEY_*``: a trump, or a card of the led suit ``fmask``)
    among the trick's cards ``tt``, ``ts``, as its bits (trump word, suit word)."""
    if bkey >= 32:
        return np.int64(1) << (bkey - 32), np.int64(0)
    return np.int64(0), ts & fmask & (np.int64(1) << (tzcnt(fmask) + bkey - 1))


#: the groups of ``_low_bits``: ranks 1..10 of each suit, and T2..T20
LOW_GROUPS = np.array([0x3FF << (10 * g) for g in range(4)] + [0x7FFFF << 40], dtype=np.int64)


@scalar
def _low_bits(t, s):
    """The low cards of a trump word and a suit word in one word (``LOW_GROUPS``).

    The cards worth one half-point whose rank alone sets them apart (R-CARD-4, R-CARD-5): ranks
    1..10 of suit ``k`` at bits ``10k`` to ``10k + 9``, T2..T20 at bits 40 to 58, of the cards
    ``t`` (trump word) and ``s`` (suit word)."""
    return extract_bits(s, SW_LOWS) | (((t >> 2) & 0x7FFFF) << 40)


#: per card id, its bit in ``_low_bits`` (0 for a card above a half-point), and the mask of its group
LOW_BIT = np.array([0, 0] + [1 << (40 + t - 2) for t in range(2, 21)] + [0]
                   + [1 << (10 * su + r) if r < 10 else 0 for su in range(4) for r in range(14)], dtype=np.int64)
LOW_GROUP = np.array([0, 0] + [int(LOW_GROUPS[4])] * 19 + [0]
                     + [int(LOW_GROUPS[su]) if r < 10 else 0 for su in range(4) for r in range(14)], dtype=np.int64)


@scalar
def _rank_winner(tt, ts, bkey, fmask):
    """The trick's winning card as low bits (``_low_bits``) when its rank won it, else 0.

    The winning card of a trick (cards ``tt``, ``ts``, winning key ``bkey``, led suit ``fmask``)
    won by its rank when another card of its word is in the trick: a trump over a trump, a card of
    the led suit over one of that suit (R-PLAY-5)."""
    wt, wsu = _winning_card(tt, ts, bkey, fmask)
    if wt != 0:
        return _low_bits(wt, np.int64(0)) if (tt & TW_TRUMPS & ~wt) != 0 else np.int64(0)
    return _low_bits(np.int64(0), wsu) if (ts & fmask & ~wsu) != 0 else np.int64(0)


@_step
def _threat(ws, seat, pos, na, side, key, fm):
    """Whether the other side can still beat the trick's winning card after ``seat``.

    Whether a seat of the other side than ``side``, still to play in this trick after ``seat``
    (at position ``pos``), can beat the winning card of key ``key`` (``steps.CARD_KEY_*``) when the
    led suit's mask is ``fm`` (0: trumps led): a higher card of the led suit when it follows
    (R-PLAY-4a), a trump when it is void in it (R-PLAY-4b), a higher trump over a trump
    (R-PLAY-4b, R-PLAY-4c)."""
    s = seat
    base = tzcnt(fm) if fm != 0 else np.int64(0)
    for _ in range(pos + 1, na):
        s = ws[WS_NEXT + s]
        if ws[WS_ATT + s] == side:
            continue
        follow = ws[WS_HS + s] & fm
        if follow != 0:
            if key < 32 and (follow >> (base + key)) != 0:
                return True
        else:
            trumps = ws[WS_HT + s] & TW_TRUMPS
            if key >= 32:
                if (trumps >> (key - 31)) != 0:
                    return True
            elif trumps != 0:
                return True
    return False


@_step
def _order_score(ws, seat, pos, na, c, fixed, fmask, bkey, bseat):
    """A move-ordering score of one card, from the trick alone (higher first).

    How promising card ``c`` of ``seat`` looks (higher first), from the trick alone: a card that
    surely wins the trick for its side scores 100 and its points (a trick the side surely takes
    gets as many points as it can), a card that surely loses it scores -100 less its points,
    other cards less their points. The Excuse counts as a low card (R-EXC-2: its side keeps it)."""
    my = ws[WS_ATT + seat]
    hp = np.int64(1) if c == 0 else CARD_HP[c]
    if c == 0 and pos == 0:
        return np.int64(-2)
    fm = fmask if fixed else FOLLOW_MASK[c]
    if not fixed or (fm & SUIT_BIT_OF[c]) != 0:
        key = CARD_KEY_LED[c]
    else:
        key = CARD_KEY_OFF[c]
    beats = c != 0 and key > bkey
    wkey = key if beats else bkey
    wside = my if beats else ws[WS_ATT + bseat]
    if not _threat(ws, seat, pos, na, wside, wkey, fm):
        return (100 + hp) if wside == my else (-100 - hp)
    return (10 - hp) if beats and pos > 0 else -hp


@_unit
def _moves(rv, ws, stk, p, flags, hint):
    """Write the candidate cards of ply ``p``, best first, and return their number.

    The candidate cards of the seat to play at ply ``p`` into ``stk[p, PL_MOVES:]``, best first;
    returns their number. Legal cards: ``steps.playable`` (R-PLAY-3, R-PLAY-4a to R-PLAY-4e,
    R-EXC-1 and, in trick 1, R-CALL-4); with ``F_MERGE`` one card per
    class of equivalent ones (:func:`_equivalent`), the lowest; with ``F_ORDER`` sorted by
    :func:`_order_score`, ``hint`` (a card id, or -1) first. With ``F_PART`` it also keeps what
    the winning-card entries need (:func:`_decided`): the low cards its legal cards depend on, and
    its low cards searched and left out by merging."""
    seat = stk[p, PL_SEAT]
    pos = stk[p, PL_POS]
    fixed = stk[p, PL_FIXED] != 0
    fmask = stk[p, PL_FMASK]
    ht = ws[WS_HT + seat]
    hs = ws[WS_HS + seat]
    lt, ls = playable(rv, ws, ht, hs, pos, fixed, fmask, stk[p, PL_AMASK], stk[p, PL_TR] == 0)
    merge = (flags & F_MERGE) != 0
    order = (flags & F_ORDER) != 0
    # the cards that could tell two of the seat's cards apart: the other hands', and the trick's
    # winning card (the others in the trick go to its winner whichever card wins: R-PLAY-5)
    bkey = stk[p, PL_BKEY]
    bseat = stk[p, PL_BSEAT]
    others_t = np.int64(0)
    others_s = np.int64(0)
    if pos > 0 and bkey >= 0:
        wt, ws_ = _winning_card(stk[p, PL_TT], stk[p, PL_TS], bkey, fmask)
        others_t |= wt
        others_s |= ws_
    for s in range(rv[RV_N_SEATS]):
        if s != seat:
            others_t |= ws[WS_HT + s]
            others_s |= ws[WS_HS + s]
    na = rv[RV_N_ACTIVE]
    n = 0
    merged_t = np.int64(0)
    merged_s = np.int64(0)
    for word in range(2):
        rem = lt if word == 0 else ls
        prev = np.int64(-1)
        while rem:
            b = tzcnt(rem)
            rem &= rem - 1
            if merge and prev >= 0:
                if word == 0:
                    same = _equivalent(prev, b, others_t, TW_T2_T20)
                else:
                    same = prev // 14 == b // 14 and _equivalent(prev, b, others_s, SW_LOWS)
                if same:
                    prev = b
                    if word == 0:
                        merged_t |= np.int64(1) << b
                    else:
                        merged_s |= np.int64(1) << b
                    continue
            prev = b
            stk[p, PL_MOVES + n] = b if word == 0 else 22 + b
            n += 1
    if flags & F_DECIDED:
        # R-PLAY-4b, R-PLAY-4c: which trumps the seat may play depends on the best trump so far
        amask = stk[p, PL_AMASK]
        own = np.int64(0)
        if pos > 0 and amask != TW_TRUMPS and (lt & TW_TRUMPS) != 0:
            top = tzcnt(amask) - 1 if amask != 0 else np.int64(21)
            own = _low_bits((np.int64(1) << top) & TW_T2_T20, np.int64(0))
        stk[p, PL_OWN] = own
        stk[p, PL_MINE] = _low_bits(ht & TW_T2_T20, np.int64(0))
        stk[p, PL_SRCH] = _low_bits(lt & ~merged_t, ls & ~merged_s)
        stk[p, PL_MRG] = _low_bits(merged_t, merged_s)
    if order and n > 1:
        # insertion, best first (a stable order: equal scores keep id order)
        for k in range(n):
            c = stk[p, PL_MOVES + k]
            sc = np.int64(1 << 20) if c == hint else _order_score(ws, seat, pos, na, c, fixed, fmask, bkey, bseat)
            i = k
            while i > 0 and stk[p, PL_SCORES + i - 1] < sc:
                stk[p, PL_MOVES + i] = stk[p, PL_MOVES + i - 1]
                stk[p, PL_SCORES + i] = stk[p, PL_SCORES + i - 1]
                i -= 1
            stk[p, PL_MOVES + i] = c
            stk[p, PL_SCORES + i] = sc
    return n


@_step
def _load_trick(stk, p, trick, tr, pos):
    """Set ply ``p`` to a given trick state.

    Ply ``p`` before the card at position ``pos`` of trick ``tr``, the trick state ``trick``
    (``steps.open_trick``'s tuple)."""
    seat, fixed, fmask, amask, bkey, bseat, exseat, tt, ts = trick
    stk[p, PL_SEAT] = seat
    stk[p, PL_FIXED] = 1 if fixed else 0
    stk[p, PL_FMASK] = fmask
    stk[p, PL_AMASK] = amask
    stk[p, PL_BKEY] = bkey
    stk[p, PL_BSEAT] = bseat
    stk[p, PL_EXSEAT] = exseat
    stk[p, PL_TT] = tt
    stk[p, PL_TS] = ts
    stk[p, PL_POS] = pos
    stk[p, PL_TR] = tr


@_step
def _open(stk, p, leader, tr):
    """Ply ``p``: trick ``tr`` led by ``leader``, empty (``steps.open_trick``'s state)."""
    stk[p, PL_SEAT] = leader
    stk[p, PL_FIXED] = 0
    stk[p, PL_FMASK] = 0
    stk[p, PL_AMASK] = TW_TRUMPS
    stk[p, PL_BKEY] = -2
    stk[p, PL_BSEAT] = leader
    stk[p, PL_EXSEAT] = -1
    stk[p, PL_TT] = 0
    stk[p, PL_TS] = 0
    stk[p, PL_POS] = 0
    stk[p, PL_TR] = tr


@_unit
def _apply(rv, buf, log, stk, p, c):
    """Play card ``c`` at ply ``p`` and set up ply ``p + 1``.

    Play card ``c`` at ply ``p`` (R-PLAY-2) and set ply ``p + 1``: the trick state after it
    (``steps.after_lead``, ``steps.after_card``: R-PLAY-3, R-PLAY-5); a trick complete is closed
    by ``steps.close_trick`` (R-EXC-2, R-EXC-3, R-EXC-4, R-PAB-1, R-PAB-2, R-COUNT-1), its winner
    leading the next (R-PLAY-1), and the card that won it by rank kept (:func:`_rank_winner`).
    Returns True when that was the deal's last trick."""
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    seat = stk[p, PL_SEAT]
    pos = stk[p, PL_POS]
    tr = stk[p, PL_TR]
    bt, bs = card_bits(c)
    ws[WS_HT + seat] ^= bt
    ws[WS_HS + seat] ^= bs
    stk[p, PL_CARD] = c
    # steps.add_to_trick's own two steps, without its tuple: a lead then reads none of the ply's
    # trick fields, and this is the search's innermost step
    if pos == 0:
        fixed, fmask, amask, bkey, bseat, exseat = after_lead(c, bt, seat)
    else:
        fixed, fmask, amask, bkey, bseat, exseat = after_card(
            c, bt, seat, stk[p, PL_FIXED] != 0, stk[p, PL_FMASK], stk[p, PL_AMASK], stk[p, PL_BKEY],
            stk[p, PL_BSEAT], stk[p, PL_EXSEAT])
    tt = stk[p, PL_TT] | bt
    ts = stk[p, PL_TS] | bs
    q = p + 1
    if pos + 1 < rv[RV_N_ACTIVE]:
        stk[p, PL_CLOSED] = 0
        _load_trick(stk, q, (ws[WS_NEXT + seat], fixed, fmask, amask, bkey, bseat, exseat, tt, ts), tr, pos + 1)
        return False
    stk[p, PL_CLOSED] = 1
    stk[p, PL_WIN] = _rank_winner(tt, ts, bkey, fmask)
    stk[p, PL_PILE_T] = ws[WS_PILE_T]
    stk[p, PL_PILE_S] = ws[WS_PILE_S]
    stk[p, PL_ADJ] = ws[WS_EXC_ADJ]
    stk[p, PL_ATT_TR] = ws[WS_ATT_TRICKS]
    stk[p, PL_PREV_T] = ws[WS_PREV_T]
    winner, pab = close_trick(rv, ws, pub, log, tr, (seat, fixed, fmask, amask, bkey, bseat, exseat, tt, ts))
    stk[q, PL_PAB] = pab
    if tr == N_TRICKS[rv[RV_TABLE]] - 1:
        return True
    _open(stk, q, winner, tr + 1)
    log[L_LEADER + tr + 1] = winner
    return False


@_step
def _undo(buf, stk, p):
    """Take back the card of ply ``p`` (and the close of its trick)."""
    ws = buf[0:WS_LEN]
    seat = stk[p, PL_SEAT]
    bt, bs = card_bits(stk[p, PL_CARD])
    ws[WS_HT + seat] ^= bt
    ws[WS_HS + seat] ^= bs
    if stk[p, PL_CLOSED]:
        ws[WS_PILE_T] = stk[p, PL_PILE_T]
        ws[WS_PILE_S] = stk[p, PL_PILE_S]
        ws[WS_EXC_ADJ] = stk[p, PL_ADJ]
        ws[WS_ATT_TRICKS] = stk[p, PL_ATT_TR]
        ws[WS_PREV_T] = stk[p, PL_PREV_T]


@njit(nogil=True, _nrt=False)
def _score_for(rv, buf, log, mode, attack_hp, oudlers, pab, slam_side):
    """The seat's score objective with the given facts of the deal.

    The score objective of ``mode`` (``MODE_SCORE + seat``) with these facts: the seat's score by
    ``steps.score_deal`` (``tarotsim.scoring.score_core``: R-COUNT-3, R-COUNT-4, R-PAB-3, R-POIG-4,
    R-SLAM-3, R-SCORE-1, R-SCORE-2, R-MIS-2), minus it for a seat of the defence."""
    ws = buf[0:WS_LEN]
    score_deal(rv, attack_hp, oudlers, pab, slam_side, ws, buf[B_PUB:B_PUB + PUB_LEN], log,
           buf[B_STEPS:B_STEPS + ST_LEN], buf[B_SCORES:B_SCORES + MAX_SEATS], buf[B_MISERES:B_MISERES + MAX_SEATS])
    seat = mode - MODE_SCORE
    v = log[L_SCORES + seat]
    return v if ws[WS_ATT + seat] == 1 else -v


@_step
def _attack_points(ws):
    """The attack's half-points so far: its pile and the R-EXC-2 payments (R-COUNT-1)."""
    return half_points(ws[WS_PILE_T], ws[WS_PILE_S]) + ws[WS_EXC_ADJ]


@_unit
def _final(rv, buf, log, stk, q, mode):
    """The objective once the deal is over.

    The objective once the deal is over (ply ``q`` after the last card): the attack's
    half-points, or a seat's score (``steps.count_points``: R-COUNT-1, R-COUNT-2, R-EXC-5, R-SLAM-2)."""
    ws = buf[0:WS_LEN]
    if mode == MODE_POINTS:
        return _attack_points(ws)
    attack_hp, oudlers, slam_side = count_points(rv, ws, log)
    return _score_for(rv, buf, log, mode, attack_hp, oudlers, stk[q, PL_PAB], slam_side)


@njit(nogil=True, _nrt=False)
def _last_trick(rv, buf, log, stk, p, mode):
    """The objective of the deal's last trick, played out without choice.

    The objective when ply ``p`` starts the deal's last trick: every seat has one card left,
    played in turn (R-PLAY-2) with no choice, the trick closed by ``steps.close_trick`` (R-EXC-3,
    R-EXC-4, R-PAB-1, R-PAB-2). Returns the objective and the card that won the trick by rank
    (:func:`_rank_winner`). The workspace is as it was on return."""
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    seat = stk[p, PL_SEAT]
    tr = stk[p, PL_TR]
    trick = (seat, np.bool_(False), np.int64(0), TW_TRUMPS, np.int64(-2), seat, np.int64(-1), np.int64(0),
             np.int64(0))
    for j in range(rv[RV_N_ACTIVE]):
        ht = ws[WS_HT + seat]
        c = tzcnt(ht) if ht != 0 else 22 + tzcnt(ws[WS_HS + seat])
        bt, bs = card_bits(c)
        trick = add_to_trick(trick, j, c, bt, bs, seat, ws[WS_NEXT + seat])
        seat = ws[WS_NEXT + seat]
    saved = (ws[WS_PILE_T], ws[WS_PILE_S], ws[WS_EXC_ADJ], ws[WS_ATT_TRICKS], ws[WS_PREV_T])
    _, pab = close_trick(rv, ws, pub, log, tr, trick)
    stk[p + 1, PL_PAB] = pab
    v = _final(rv, buf, log, stk, p + 1, mode)
    # the cards were read, not taken from the hands: only the close is undone
    ws[WS_PILE_T], ws[WS_PILE_S], ws[WS_EXC_ADJ], ws[WS_ATT_TRICKS], ws[WS_PREV_T] = saved
    return v, _rank_winner(trick[7], trick[8], trick[4], trick[2])


@_step
def _sure(ws, n_seats, na, side, trumps_side, trumps_other, excuse_side, excuse_other, other_won_all, left, spent):
    """What one side surely takes in the tricks it starts, whatever the other does.

    What ``side`` (1 attack, 0 defence) takes whatever the other does, in the tricks from a trick
    start with ``left`` tricks to play: ``(half-points, oudlers)``. ``spent``: how many of its
    seats still play to a trick in progress before that start, each of which may spend one of its
    trumps there (the most valuable, for the bound). ``masters``: whether its master trumps
    counted (their count reads the other side's highest trump).

    * Its trumps above every trump of the other side (``trumps_*``) win the trick they are played to
      (R-PLAY-5: the highest trump wins; the side's own higher trumps keep the trick on its side):
      their points, and in each such trick a card of each seat of the other side, worth at least
      a half-point (R-CARD-4; an Excuse of the other side pays a low card, R-EXC-2). Each of its
      seats plays one card a trick (R-PLAY-2): those cards fill at least ``ceil(n / seats)``
      tricks. Unless the other side holds the Excuse and has won every trick so far: then the
      Excuse led to the last trick would win it (R-EXC-4).
    * Its Excuse, with two tricks or more to play: played before the last trick it stays with the
      side (R-EXC-2), at least 9 - 1 half-points and an oudler (R-EXC-5).
    """
    hp = np.int64(0)
    oud = np.int64(0)
    masters = False
    seats = np.int64(0)
    for s in range(n_seats):
        if ws[WS_ATT + s] == side and (ws[WS_HT + s] | ws[WS_HS + s]) != 0:
            seats += 1
    if not (excuse_other and other_won_all):
        above = trumps_side if trumps_other == 0 else trumps_side & ~((np.int64(2) << hibit(trumps_other)) - 1)
        k = popcount(above)
        pts = half_points(above, np.int64(0))
        n_oud = popcount(above & TW_OUDLERS)
        if spent > 0:
            r = min(spent, k)
            big = min(r, n_oud)
            pts -= 9 * big + (r - big)
            n_oud -= big
            k -= r
        if k > 0 and seats > 0:
            hp += pts + ((k + seats - 1) // seats) * (na - seats)
            oud += n_oud
            masters = True
    if excuse_side and left >= 2:
        hp += 8
        oud += 1
    return hp, oud, masters


@scalar
def _top_trump(t):
    """The highest trump of the trump word ``t`` when it is a low card (``_low_bits``), else 0."""
    if t & TW_TRUMPS == 0:
        return np.int64(0)
    return _low_bits((np.int64(1) << hibit(t & TW_TRUMPS)) & TW_T2_T20, np.int64(0))


@_step
def _in_trick(ws, stk, p, na):
    """What each side surely takes from the trick in progress at ply ``p`` (not the deal's last).

    ``(attack hp, attack oudlers, defence hp, defence oudlers, attack seats to play, defence
    seats to play, the attack's decided, the defence's)``:

    * an Excuse already played to it stays with its side (R-EXC-2): 9 - 1 half-points and an
      oudler (R-EXC-5);
    * when no seat of the other side still to play can beat its winning card (a higher card of the
      led suit when it follows, R-PLAY-4a; a trump when it is void, R-PLAY-4b; a higher trump over a
      trump, R-PLAY-4b, R-PLAY-4c; as ``_threat``), the winning card's side takes its other cards
      (the Excuse's low card in exchange) and at least a half-point from each card still to come
      (R-CARD-4, R-EXC-2); decided, for that side: the winning card when it is a low card
      (``_low_bits``)."""
    pos = stk[p, PL_POS]
    tt = stk[p, PL_TT]
    ts = stk[p, PL_TS]
    bkey = stk[p, PL_BKEY]
    fm = stk[p, PL_FMASK]
    exseat = stk[p, PL_EXSEAT]
    w_side = ws[WS_ATT + stk[p, PL_BSEAT]]
    att_left = np.int64(0)
    def_left = np.int64(0)
    # R-PLAY-3: after an Excuse lead the next card sets the suit, and may win
    beaten = stk[p, PL_FIXED] == 0
    base = tzcnt(fm) if fm != 0 else np.int64(0)
    s = stk[p, PL_SEAT]
    for _ in range(pos, na):
        if ws[WS_ATT + s]:
            att_left += 1
        else:
            def_left += 1
        if not beaten and ws[WS_ATT + s] != w_side:
            follow = ws[WS_HS + s] & fm
            if follow != 0:
                beaten = bkey < 32 and (follow >> (base + bkey)) != 0
            else:
                trumps = ws[WS_HT + s] & TW_TRUMPS
                beaten = (trumps >> (bkey - 31)) != 0 if bkey >= 32 else trumps != 0
        s = ws[WS_NEXT + s]
    a_hp = np.int64(0)
    a_oud = np.int64(0)
    d_hp = np.int64(0)
    d_oud = np.int64(0)
    if exseat >= 0:
        if ws[WS_ATT + exseat]:
            a_hp += 8
            a_oud += 1
        else:
            d_hp += 8
            d_oud += 1
    a_dec = np.int64(0)
    d_dec = np.int64(0)
    if not beaten:
        others = tt & ~np.int64(1)
        gain = half_points(others, ts) + (1 if exseat >= 0 else 0) + (na - pos)
        wt, wsu = _winning_card(tt, ts, bkey, fm)
        if w_side:
            a_hp += gain
            a_oud += popcount(others & TW_OUDLERS)
            a_dec = _low_bits(wt, wsu)
        else:
            d_hp += gain
            d_oud += popcount(others & TW_OUDLERS)
            d_dec = _low_bits(wt, wsu)
    return a_hp, a_oud, d_hp, d_oud, att_left, def_left, a_dec, d_dec


@_step
def _cash(ws, n_seats, leader, most):
    """What the leader's side surely takes from a trick start by leading its masters at once.

    ``(half-points, oudlers, decided)`` that the side of ``leader`` takes whatever the other side
    does, from at most ``most`` tricks that the leader wins by leading, one after another from now,
    its cards of a plain suit above every card of that suit the other seats hold, then its trumps
    above every trump of the other seats (the leader's partners hold none above them, so none of
    them may have to take the trick and the lead from it: R-PLAY-4a, R-PLAY-4c):

    * a card of a plain suit led wins while every seat that holds a trump still has a card of that
      suit to follow with (R-PLAY-4a, R-PLAY-4b): in each such trick the leader's card, each seat
      of the other side's cheapest card of the suit (a half-point when it has none left or plays
      its Excuse instead, R-EXC-1, R-EXC-2, once per suit), a half-point of each other seat of the
      side (R-CARD-4);
    * its trumps above every trump of the other seats make each seat of the other side play a
      trump while it holds one (R-PLAY-4c): the Petit falls (8 half-points more than the half-point
      ``_sure`` counts for it, and an oudler) when its holder has no more trumps than the leader has
      such trumps (one fewer with its Excuse to play instead);

    no seat trumps in those suit tricks, so they are not the trump tricks ``_sure`` counts.
    ``decided``: the other seats' highest card of each suit cashed, and their highest trump when
    the Petit falls, when they are low cards (``_low_bits``)."""
    side = ws[WS_ATT + leader]
    hand = ws[WS_HS + leader]
    hp = np.int64(0)
    oud = np.int64(0)
    decided = np.int64(0)
    for su in range(4):
        sm = SW_SUITS[su]
        mine = hand & sm
        if mine == 0:
            continue
        theirs = np.int64(0)
        rounds = popcount(mine)
        for s in range(n_seats):
            if s != leader:
                h = ws[WS_HS + s] & sm
                theirs |= h
                if ws[WS_HT + s] & TW_TRUMPS:
                    rounds = min(rounds, popcount(h))
        above = mine
        top = np.int64(0)
        if theirs != 0:
            top = np.int64(1) << hibit(theirs)
            above &= ~((top << 1) - 1)
        k = min(popcount(above), rounds, most)
        if k == 0:
            continue
        most -= k
        decided |= _low_bits(np.int64(0), top)
        for _ in range(k):
            b = hibit(above)
            hp += CARD_HP[22 + b]
            above ^= np.int64(1) << b
        for s in range(n_seats):
            if s == leader or (ws[WS_HT + s] | ws[WS_HS + s]) == 0:
                continue
            if ws[WS_ATT + s] == side:
                hp += k
                continue
            h = ws[WS_HS + s] & sm
            follow = min(k - (ws[WS_HT + s] & 1), popcount(h))
            for _ in range(follow):
                hp += CARD_HP[22 + tzcnt(h)]
                h &= h - 1
            hp += k - follow
    trumps_others = np.int64(0)
    for s in range(n_seats):
        if s != leader:
            trumps_others |= ws[WS_HT + s] & TW_TRUMPS
    masters = ws[WS_HT + leader] & TW_TRUMPS
    if trumps_others != 0:
        masters &= ~((np.int64(2) << hibit(trumps_others)) - 1)
    if masters != 0:
        for s in range(n_seats):
            ht = ws[WS_HT + s]
            if ht & 2 and ws[WS_ATT + s] != side:
                # a lead of a master trump for each of the holder's trumps, and its Excuse
                leads = popcount(ht & TW_TRUMPS) + (ht & 1)
                if leads <= popcount(masters) and leads <= most:
                    hp += 8
                    oud += 1
                    decided |= _top_trump(trumps_others)
    return hp, oud, decided


@_unit
def _bounds(rv, buf, log, stk, p, mode, flags):
    """Lower and upper bounds on the objective at ply ``p``.

    Bounds ``(lo, hi, decided lo, decided hi)`` on the objective at ply ``p``: the attack keeps what it holds,
    plus at a trick start what it surely takes (:func:`_sure`; with ``F_QUICK`` also its quick
    tricks when it leads, :func:`_cash`, and both bounds of the parity the points keep at a table
    of an even number of players), and wins at most every card still out but what the
    defence surely takes (the same way); in score mode the taker's score with the facts at both
    extremes (those points and oudlers, the petit au bout and the slam either way), the score
    rising with each of them (R-COUNT-4, R-PAB-3, R-SLAM-3). With ``F_TRICK``, inside a trick too:
    what each side surely takes from it (:func:`_in_trick`) and in the tricks after it.
    Decided: the low cards whose rank each bound read (``_low_bits``): the other side's highest
    trump where a side's master trumps counted, the cards ``_cash`` and ``_in_trick`` read."""
    ws = buf[0:WS_LEN]
    rt = stk[p, PL_TT]
    rs = stk[p, PL_TS]
    att_t = np.int64(0)
    def_t = np.int64(0)
    n = rv[RV_N_SEATS]
    for s in range(n):
        ht = ws[WS_HT + s]
        rt |= ht
        rs |= ws[WS_HS + s]
        if ws[WS_ATT + s]:
            att_t |= ht
        else:
            def_t |= ht
    acc = _attack_points(ws)
    oud = popcount(ws[WS_PILE_T] & TW_OUDLERS)
    tr = stk[p, PL_TR]
    att_tricks = ws[WS_ATT_TRICKS]
    lo_hp = acc
    hi_hp = acc + half_points(rt, rs)
    lo_oud = oud
    hi_oud = oud + popcount(rt & TW_OUDLERS)
    # the low cards whose rank each bound read
    d_lo = np.int64(0)
    d_hi = np.int64(0)
    na = rv[RV_N_ACTIVE]
    pos = stk[p, PL_POS]
    left = N_TRICKS[rv[RV_TABLE]] - tr
    if pos == 0 or (flags & F_TRICK and left > 1):
        att_left = np.int64(0)
        def_left = np.int64(0)
        later = left
        if pos > 0:
            a_hp, a_oud, d_hp, d_oud, att_left, def_left, d_lo, d_hi = _in_trick(ws, stk, p, na)
            lo_hp += a_hp
            lo_oud += a_oud
            hi_hp -= d_hp
            hi_oud -= d_oud
            # the tricks after this one; an Excuse in a hand whose seat has played here may be
            # left for the last trick
            later = left - 1
        a_hp, a_oud, a_masters = _sure(ws, n, na, np.int64(1), att_t & TW_TRUMPS, def_t & TW_TRUMPS,
                                       (att_t & 1) != 0, (def_t & 1) != 0, att_tricks == 0, later, att_left)
        d_hp, d_oud, d_masters = _sure(ws, n, na, np.int64(0), def_t & TW_TRUMPS, att_t & TW_TRUMPS,
                                       (def_t & 1) != 0, (att_t & 1) != 0, att_tricks == tr, later, def_left)
        lo_hp += a_hp
        lo_oud += a_oud
        hi_hp -= d_hp
        hi_oud -= d_oud
        if a_masters:
            d_lo |= _top_trump(def_t)
        if d_masters:
            d_hi |= _top_trump(att_t)
        if pos == 0 and flags & F_QUICK:
            leader = stk[p, PL_SEAT]
            attack = ws[WS_ATT + leader] == 1
            # the leader's own Excuse, which ``_sure`` counts, is led after its quick tricks and
            # before the last trick (R-EXC-2, R-EXC-3): led earlier, it could give the lead away
            most = left - 2 if ws[WS_HT + leader] & 1 and left >= 2 else left
            c_hp, c_oud, c_dec = _cash(ws, n, leader, most)
            if attack:
                lo_hp += c_hp
                lo_oud += c_oud
                d_lo |= c_dec
            else:
                hi_hp -= c_hp
                hi_oud -= c_oud
                d_hi |= c_dec
    if flags & F_QUICK and na % 2 == 0:
        # every trick of an even table moves an even number of half-points (each card is worth an
        # odd number, R-CARD-4, and R-EXC-2's exchange makes up the Excuse's): the attack ends with
        # the parity it has now (R-COUNT-5)
        lo_hp += (lo_hp - acc) & 1
        hi_hp -= (hi_hp - acc) & 1
    if mode == MODE_POINTS:
        return lo_hp, hi_hp, d_lo, d_hi
    lo_slam = np.int64(-1) if att_tricks == 0 else np.int64(0)
    hi_slam = np.int64(1) if att_tricks == tr else np.int64(0)
    lo = _score_for(rv, buf, log, mode, lo_hp, lo_oud, np.int64(-1), lo_slam)
    hi = _score_for(rv, buf, log, mode, hi_hp, hi_oud, np.int64(1), hi_slam)
    return lo, hi, d_lo, d_hi


# --- the transposition table ----------------------------------------------------------------------

@scalar
def _coarse(t, s, lows):
    """A seat's word of the transposition key that entries match exactly.

    The seat's cards ``t``, ``s`` that are worth more than a half-point (the jacks to the kings,
    the Excuse, the Petit and the 21: R-CARD-4), and how many low cards of each group of
    ``LOW_GROUPS`` it holds (``lows``: its ``_low_bits``)."""
    c = extract_bits(s, SW_HONOURS) | (extract_bits(t, TW_OUDLERS) << 16)
    for g in range(5):
        c |= popcount(lows & LOW_GROUPS[g]) << (20 + 5 * g)
    return c


@_step
def _key(rv, ws, stk, p, mode, flags):
    """The transposition key of the trick start at ply ``p`` into ``stk[p, PL_KEY:]``, and its hash.

    Word 0: the leader, whether one side has won every trick so far (R-EXC-4, R-SLAM-2), the mode
    and, in score mode, the attack's half-points and oudlers so far. Then per seat a word matched
    exactly (:func:`_coarse`: its cards above a half-point, its count of low cards per group), and
    its low cards (``TT_COARSE`` on): with ``F_CANON`` as their places among the low cards still
    out (``extract_bits``: positions that differ only by low cards already played have one key),
    else the cards themselves. With ``F_PART`` the hash leaves the low cards out: an entry holds
    for every position that matches it outside its wildcards (:func:`_tt_probe`)."""
    rt = stk[p, PL_RT]
    rs = stk[p, PL_RS]
    canon = (flags & F_CANON) != 0
    out = _low_bits(rt, rs)
    tr = stk[p, PL_TR]
    att_tricks = ws[WS_ATT_TRICKS]
    extra = stk[p, PL_SEAT] | (np.int64(att_tricks == tr) << 3) | (np.int64(att_tricks == 0) << 4) | (mode << 5)
    if mode != MODE_POINTS:
        extra |= (_attack_points(ws) << 8) | (popcount(ws[WS_PILE_T] & TW_OUDLERS) << 16)
    stk[p, PL_KEY] = extra
    part = (flags & F_PART) != 0
    h = extra * _HASH_MULT[0]
    for s in range(MAX_SEATS):
        coarse = np.int64(0)
        lows = np.int64(0)
        if s < rv[RV_N_SEATS]:
            ht = ws[WS_HT + s]
            hs = ws[WS_HS + s]
            lows = _low_bits(ht, hs)
            coarse = _coarse(ht, hs, lows)
            if canon:
                lows = extract_bits(lows, out)
        stk[p, PL_KEY + 1 + s] = coarse
        stk[p, PL_KEY + TT_COARSE + s] = lows
        h ^= coarse * _HASH_MULT[1 + s]
        if not part:
            h ^= lows * _HASH_MULT[TT_COARSE + s]
        h = (h ^ (h >> 29)) * _HASH_MULT[0]
    return h ^ (h >> 32)


@scalar
def _wildcards(decided, out, canon):
    """The wildcards of an entry whose bounds the low cards ``decided`` decided.

    In each group of ``LOW_GROUPS``, the low cards below the lowest one that decided (all of them
    when none did): those never won a trick by rank nor set what a seat could play, so any
    position that puts other low cards there, as many per seat, has the same bounds (partition
    search, as bridge's double-dummy solvers do). As places among the low cards still out
    (``out``) with ``F_CANON`` (``canon``), else as cards."""
    w = np.int64(0)
    for g in range(5):
        m = LOW_GROUPS[g]
        r = decided & out & m
        w |= (((r & -r) - 1) & m) if r != 0 else m
    return extract_bits(w & out, out) if canon else w


@scalar
def _exact_lows(w, out, canon):
    """The low cards still out (``out``) that wildcards ``w`` leave in place (:func:`_wildcards`)."""
    return out & ~deposit_bits(w, out) if canon else out & ~w


@_step
def _tt_probe(tt, stk, p, h, gen):
    """The bounds the transposition table holds for the key at ``stk[p, PL_KEY:]``.

    Every entry of its bucket with the same words ``< TT_COARSE`` whose low cards agree with the
    key outside a bound's wildcards gives that bound: returns ``(lo, hi, wlo, whi, hint)``, the
    tightest bounds (``-BIG``, ``BIG``: none), their wildcards and a hint code (0: none)."""
    j = (h & (tt.shape[0] - 1)) & ~np.int64(TT_WAYS - 1)
    tag = gen + 1
    lo = -BIG
    hi = BIG
    wlo = np.int64(0)
    whi = np.int64(0)
    hint = np.int64(0)
    for e in range(j, j + TT_WAYS):
        if (tt[e, TT_META] >> META_GEN) != tag:
            continue
        same = True
        for k in range(TT_COARSE):
            if tt[e, TT_KEY + k] != stk[p, PL_KEY + k]:
                same = False
                break
        if not same:
            continue
        d = np.int64(0)
        for k in range(TT_COARSE, TT_KEY_LEN):
            d |= tt[e, TT_KEY + k] ^ stk[p, PL_KEY + k]
        ok_lo = (d & ~tt[e, TT_WLO]) == 0
        ok_hi = (d & ~tt[e, TT_WHI]) == 0
        if ok_lo and tt[e, TT_LO] > lo:
            lo = tt[e, TT_LO]
            wlo = tt[e, TT_WLO]
        if ok_hi and tt[e, TT_HI] < hi:
            hi = tt[e, TT_HI]
            whi = tt[e, TT_WHI]
        if hint == 0 and (ok_lo or ok_hi):
            hint = tt[e, TT_META] & 0xFF
    return lo, hi, wlo, whi, hint


@_step
def _tt_store(tt, stk, p, h, gen, depth, lo, hi, hint, w):
    """Store a node's bounds, their wildcards and its hint in the transposition table.

    Tighten the bounds of an entry of the key at ``stk[p, PL_KEY:]`` that agrees with it outside
    the wildcards ``w`` (a bound of the same value with more wildcards widens them), else of a
    new entry (replacing an entry of another generation, else the shallowest of the bucket), and
    keep ``hint`` (0: none)."""
    j = (h & (tt.shape[0] - 1)) & ~np.int64(TT_WAYS - 1)
    tag = gen + 1
    e = np.int64(-1)
    for k in range(j, j + TT_WAYS):
        if (tt[k, TT_META] >> META_GEN) != tag:
            continue
        same = True
        for i in range(TT_COARSE):
            if tt[k, TT_KEY + i] != stk[p, PL_KEY + i]:
                same = False
                break
        if not same:
            continue
        d = np.int64(0)
        for i in range(TT_COARSE, TT_KEY_LEN):
            d |= tt[k, TT_KEY + i] ^ stk[p, PL_KEY + i]
        if d & ~w == 0:
            e = k
            break
    if e < 0:
        e = j
        shallowest = np.int64(1 << 20)
        for k in range(j, j + TT_WAYS):
            if (tt[k, TT_META] >> META_GEN) != tag:
                e = k
                break
            dk = (tt[k, TT_META] >> META_DEPTH) & 0xFF
            if dk < shallowest:
                shallowest = dk
                e = k
        for i in range(TT_KEY_LEN):
            tt[e, TT_KEY + i] = stk[p, PL_KEY + i]
        tt[e, TT_LO] = -BIG
        tt[e, TT_HI] = BIG
        tt[e, TT_WLO] = -1
        tt[e, TT_WHI] = -1
        tt[e, TT_META] = (tag << META_GEN) | (depth << META_DEPTH)
    if lo > tt[e, TT_LO] or (lo == tt[e, TT_LO] and (w & tt[e, TT_WLO]) == tt[e, TT_WLO]):
        tt[e, TT_LO] = lo
        tt[e, TT_WLO] = w
    if hi < tt[e, TT_HI] or (hi == tt[e, TT_HI] and (w & tt[e, TT_WHI]) == tt[e, TT_WHI]):
        tt[e, TT_HI] = hi
        tt[e, TT_WHI] = w
    if hint != 0:
        tt[e, TT_META] = (tt[e, TT_META] & ~np.int64(0xFF)) | hint


@scalar
def _hint_code(c, rt, rs):
    """A card of the leader as a hint code that is the same in every position of one key.

    A card of the leader as its place among the cards still out: 1 + index (+ 128 in the suit
    word), the same card in every position of one key."""
    if c < 22:
        return 1 + popcount(rt & ((np.int64(1) << c) - 1))
    return 129 + popcount(rs & ((np.int64(1) << (c - 22)) - 1))


@scalar
def _hint_card(code, rt, rs):
    """The card of :func:`_hint_code` in this position, or -1."""
    if code <= 0:
        return np.int64(-1)
    if code < 129:
        k = code - 1
        return select_bit(rt, k) if k < popcount(rt) else np.int64(-1)
    k = code - 129
    return 22 + select_bit(rs, k) if k < popcount(rs) else np.int64(-1)


# --- the search ---------------------------------------------------------------------------------

@_unit
def _enter(rv, buf, log, stk, tt, p, alpha, beta, mode, flags, gen, exact):
    """Open a new node at ply ``p``: its value when known at once, else its candidates and window.

    A new node at ply ``p`` searched in the window ``(alpha, beta)``. Returns ``(known, v,
    decided)``: when ``known``, ``v`` is its value as a fail-soft answer (the last trick: exact; a
    bound or the transposition table: at least ``v`` when ``v >= beta``, at most ``v`` when ``v <=
    alpha``) and ``decided`` the low cards whose rank it rests on (``_low_bits``); otherwise its
    candidate cards are ready and its window is set (the whole range at a trick start with at most
    ``exact`` tricks left: such a node gets its exact value, kept for every window)."""
    ws = buf[0:WS_LEN]
    stk[p, PL_TSTART] = 0
    hint = np.int64(-1)
    if stk[p, PL_POS] == 0:
        tr = stk[p, PL_TR]
        left = N_TRICKS[rv[RV_TABLE]] - tr
        if left == 1:
            v, decided = _last_trick(rv, buf, log, stk, p, mode)
            return True, v, decided
        if left <= exact:
            alpha = -BIG
            beta = BIG
        offset = np.int64(0)
        if mode == MODE_POINTS:
            offset = _attack_points(ws)
        lo = -BIG
        hi = BIG
        # the low cards each bound rests on
        d_lo = np.int64(0)
        d_hi = np.int64(0)
        if flags & F_TT:
            rt = np.int64(0)
            rs = np.int64(0)
            for s in range(rv[RV_N_SEATS]):
                rt |= ws[WS_HT + s]
                rs |= ws[WS_HS + s]
            stk[p, PL_RT] = rt
            stk[p, PL_RS] = rs
            h = _key(rv, ws, stk, p, mode, flags)
            stk[p, PL_HASH] = h
            t_lo, t_hi, w_lo, w_hi, code = _tt_probe(tt, stk, p, h, gen)
            if t_lo > -BIG or t_hi < BIG:
                out = _low_bits(rt, rs)
                canon = (flags & F_CANON) != 0
                lo = offset + t_lo
                hi = offset + t_hi
                d_lo = _exact_lows(w_lo, out, canon)
                d_hi = _exact_lows(w_hi, out, canon)
                if lo >= beta:
                    return True, lo, d_lo
                if hi <= alpha:
                    return True, hi, d_hi
                if lo == hi:
                    return True, lo, d_lo | d_hi
            hint = _hint_card(code, rt, rs)
            stk[p, PL_TSTART] = 1
            stk[p, PL_OFFSET] = offset
        if flags & F_BOUNDS:
            b_lo, b_hi, db_lo, db_hi = _bounds(rv, buf, log, stk, p, mode, flags)
            if b_lo > lo:
                lo = b_lo
                d_lo = db_lo
            if b_hi < hi:
                hi = b_hi
                d_hi = db_hi
            if lo >= beta:
                return True, lo, d_lo
            if hi <= alpha:
                return True, hi, d_hi
            if lo == hi:
                return True, lo, d_lo | d_hi
    elif flags & F_BOUNDS and flags & F_TRICK:
        b_lo, b_hi, db_lo, db_hi = _bounds(rv, buf, log, stk, p, mode, flags)
        if b_lo >= beta:
            return True, b_lo, db_lo
        if b_hi <= alpha:
            return True, b_hi, db_hi
        if b_lo == b_hi:
            return True, b_lo, db_lo | db_hi
    stk[p, PL_N] = _moves(rv, ws, stk, p, flags, hint)
    stk[p, PL_I] = 0
    stk[p, PL_REL] = 0
    stk[p, PL_COVER] = 0
    attack = ws[WS_ATT + stk[p, PL_SEAT]]
    stk[p, PL_MAX] = attack
    stk[p, PL_BEST] = -BIG if attack == 1 else BIG
    stk[p, PL_ALPHA] = alpha
    stk[p, PL_BETA] = beta
    stk[p, PL_ALPHA0] = alpha
    stk[p, PL_BETA0] = beta
    return False, np.int64(0), np.int64(0)


@_step
def _legal_decided(stk, p, decided):
    """The low cards ``decided`` with the best trump that set which trumps the seat of ply ``p`` may play.

    R-PLAY-4b, R-PLAY-4c: the seat must beat the best trump of the trick when it can; when that
    trump is among the wildcards of ``decided`` (:func:`_wildcards`) and so is one of the seat's
    trumps, another position of the class may put them the other way round: that trump decides
    too. (The seat's trumps above the wildcards are above it in every such position.)"""
    top = stk[p, PL_OWN]
    if top == 0:
        return decided
    group = LOW_GROUPS[4]
    r = decided & group
    below = group if r == 0 else ((r & -r) - 1) & group
    if top & below and stk[p, PL_MINE] & below:
        return decided | top
    return decided


@_step
def _decided(stk, p):
    """The low cards that decided the value of a node all of whose cards were searched.

    Those of its cards' values (``PL_REL``) and its legal cards' (:func:`_legal_decided`), and
    where a class of equivalent cards merged into its
    lowest (``_moves``) reaches from below the lowest of them to above it, that lowest card too:
    the class's cards are equivalent only while the cards between them stay where they are."""
    rel = _legal_decided(stk, p, stk[p, PL_REL])
    merged = stk[p, PL_MRG]
    if merged == 0:
        return rel
    searched = stk[p, PL_SRCH]
    for g in range(5):
        m = LOW_GROUPS[g]
        r = rel & m
        if r == 0:
            continue
        low = r & -r
        above = merged & m & ~(low - 1)
        if above == 0:
            continue
        below = searched & m & ((above & -above) - 1)
        if below != 0 and (np.int64(1) << hibit(below)) < low:
            rel |= np.int64(1) << hibit(below)
    return rel


@_step
def _cover(stk, p, decided):
    """The small-card filter: skip the next cards of ply ``p`` that the card just searched stands for.

    The card just searched at ply ``p``, a low card below the lowest card of its group that decided
    its value (``decided``), gives the value of every low card of the seat below that one: playing
    any of them instead gives a position that differs only by low cards in places the value does
    not read (:func:`_wildcards`). Those cards are kept in ``PL_COVER`` and the next candidates
    among them are skipped."""
    c = stk[p, PL_CARD]
    group = LOW_GROUP[c]
    if group != 0:
        r = decided & group
        below = group if r == 0 else ((r & -r) - 1) & group
        if LOW_BIT[c] & below:
            stk[p, PL_COVER] |= below
    cover = stk[p, PL_COVER]
    i = stk[p, PL_I]
    n = stk[p, PL_N]
    while i < n and (LOW_BIT[stk[p, PL_MOVES + i]] & cover) != 0:
        i += 1
    stk[p, PL_I] = i


@_unit
def _settle(rv, stk, tt, p, v, gen, cut, decided, flags):
    """Close ply ``p`` with value ``v``, keeping it in the transposition table at a trick start.

    Ply ``p`` is worth ``v`` in the window it was searched with (at most ``v`` when ``v`` is at
    or below its lower end, at least ``v`` at or above its upper end, exactly ``v`` between): a
    trick start keeps that in the transposition table, with the card that decided (``cut``) as the
    hint and, with ``F_PART``, the wildcards the low cards that ``decided`` leave
    (:func:`_wildcards`)."""
    if stk[p, PL_TSTART] == 0:
        return
    h = stk[p, PL_HASH]
    rel = v - stk[p, PL_OFFSET]
    hint = _hint_code(stk[p, PL_CARD], stk[p, PL_RT], stk[p, PL_RS]) if cut else np.int64(0)
    depth = N_TRICKS[rv[RV_TABLE]] - stk[p, PL_TR]
    lo = rel if v > stk[p, PL_ALPHA0] else -BIG
    hi = rel if v < stk[p, PL_BETA0] else BIG
    w = np.int64(0)
    if flags & F_PART:
        w = _wildcards(decided, _low_bits(stk[p, PL_RT], stk[p, PL_RS]), (flags & F_CANON) != 0)
    _tt_store(tt, stk, p, h, gen, depth, lo, hi, hint, w)


@njit(nogil=True, _nrt=False)
def _search(rv, buf, log, stk, tt, root, alpha, beta, mode, flags, gen, exact, nodes, budget):
    """Alpha-beta search of the objective at ply ``root``, within a node budget.

    The objective at ply ``root`` with best play, searched in the window ``(alpha, beta)``
    (alpha-beta, fail-soft): returns ``(done, v, nodes)``, ``v`` the value when it lies inside the
    window, else a bound on the side it falls (at most ``v <= alpha``, at least ``v >= beta``);
    ``nodes`` counts on from the one given; ``done`` is False when more than ``budget`` nodes (0:
    no limit) would be needed. The workspace is as it was on return. A null window (``beta =
    alpha + 1``) answers "does the objective reach ``beta``?".

    Depth first on an explicit stack, one ply per card: a seat of the attack takes the largest
    value of its cards, a seat of the defence the smallest, each stopping as soon as the window
    closes; ``exact``: see ``_enter``. Each value comes with the low cards whose rank decided it
    (``decided``): the card that cut, or every card searched, with the cards that won a trick by
    rank on the way (:func:`_rank_winner`) and those the seat's legal cards depended on."""
    p = root
    state = NEW
    v = np.int64(0)
    decided = np.int64(0)
    while True:
        if state == NEW:
            known, v, decided = _enter(rv, buf, log, stk, tt, p, alpha, beta, mode, flags, gen, exact)
            state = DONE_PLY if known else NEXT
            continue
        if state == NEXT:
            i = stk[p, PL_I]
            stk[p, PL_I] = i + 1
            nodes += 1
            if budget > 0 and nodes > budget:
                while p > root:
                    p -= 1
                    _undo(buf, stk, p)
                return False, v, nodes
            over = _apply(rv, buf, log, stk, p, stk[p, PL_MOVES + i])
            alpha = stk[p, PL_ALPHA]
            beta = stk[p, PL_BETA]
            p += 1
            if over:
                v = _final(rv, buf, log, stk, p, mode)
                decided = np.int64(0)
                state = DONE_PLY
            else:
                state = NEW
            continue
        # ply p is worth v: hand it to its parent
        if p == root:
            return True, v, nodes
        p -= 1
        _undo(buf, stk, p)
        if stk[p, PL_CLOSED]:
            decided |= stk[p, PL_WIN]
        if stk[p, PL_MAX] == 1:
            best = max(stk[p, PL_BEST], v)
            stk[p, PL_ALPHA] = max(stk[p, PL_ALPHA], v)
        else:
            best = min(stk[p, PL_BEST], v)
            stk[p, PL_BETA] = min(stk[p, PL_BETA], v)
        stk[p, PL_BEST] = best
        cut = stk[p, PL_ALPHA] >= stk[p, PL_BETA]
        if cut:
            # the card that cut decides alone
            decided = _legal_decided(stk, p, decided)
        else:
            stk[p, PL_REL] |= decided
            if flags & F_SMALL:
                _cover(stk, p, decided)
            if stk[p, PL_I] < stk[p, PL_N]:
                state = NEXT
                continue
            decided = _decided(stk, p) if flags & F_DECIDED else np.int64(0)
        v = best
        _settle(rv, stk, tt, p, v, gen, cut, decided, flags)


@njit(nogil=True, _nrt=False)
def _greedy(rv, buf, log, stk, root, mode, flags):
    """A quick guess of the value: one line of play, each seat playing its first-ordered card.

    The value of one line of play from ply ``root``: every seat plays the card the move ordering
    puts first (``_moves``), a quick guess of the value. The workspace is as it was on return."""
    p = root
    while True:
        if stk[p, PL_POS] == 0 and stk[p, PL_TR] == N_TRICKS[rv[RV_TABLE]] - 1:
            v, _ = _last_trick(rv, buf, log, stk, p, mode)
            break
        _moves(rv, buf[0:WS_LEN], stk, p, flags, np.int64(-1))
        over = _apply(rv, buf, log, stk, p, stk[p, PL_MOVES])
        p += 1
        if over:
            v = _final(rv, buf, log, stk, p, mode)
            break
    while p > root:
        p -= 1
        _undo(buf, stk, p)
    return v


@_step
def _value(rv, buf, log, stk, tt, root, lo, hi, guess, mode, flags, gen, exact, nodes, budget, tests):
    """The exact value at ply ``root`` by null-window tests (MTD(f)), within known bounds.

    Narrow ``lo <= value <= hi`` at ply ``root`` to the exact value by null-window tests (an
    MTD(f) search): the first at ``guess`` (without one, the value of the line :func:`_greedy`
    plays) when it lies in ``(lo, hi]``, else at the middle; each answer moves a bound to the value
    it found, and the next test is just past it (``F_STEP``: further while the answers go one way,
    then halfway; with ``F_QUICK``, in points at a table of an even
    number of players, past the next value of the attack's parity: R-COUNT-5). Returns ``(status,
    lo, hi, nodes)``; ``lo == hi`` when DONE."""
    if guess == NO_GUESS and lo < hi:
        guess = _greedy(rv, buf, log, stk, root, mode, flags)
    # at a table of an even number of players the attack's points keep their parity (``_bounds``)
    step = np.int64(2) if mode == MODE_POINTS and rv[RV_N_ACTIVE] % 2 == 0 and flags & F_QUICK else np.int64(1)
    par = _attack_points(buf[0:WS_LEN]) & 1
    if step == 2:
        lo += (lo - par) & 1
        hi -= (hi - par) & 1
        guess -= (guess - par) & 1
    t = guess if lo < guess <= hi else lo + (hi - lo + 1) // 2
    # with F_STEP: after two answers one way the step from the last answer doubles at each answer
    # that goes on that way (a guess far from the value costs as many tests as the log of the
    # distance), and once both ways were answered the next test halves what is left
    stride = step
    way = 0
    run = 0
    bracketed = False
    while lo < hi:
        tests[0] += 1
        done, g, nodes = _search(rv, buf, log, stk, tt, root, t - 1, t, mode, flags, gen, exact, nodes, budget)
        if not done:
            return INCOMPLETE, lo, hi, nodes
        up = g >= t
        if up:
            lo = max(lo, g + ((g - par) & 1 if step == 2 else 0))
        else:
            hi = min(hi, g - ((g - par) & 1 if step == 2 else 0))
        if lo >= hi:
            break
        if not flags & F_STEP:
            t = lo + step if up else hi
            continue
        bracketed = bracketed or (way != 0 and up != (way > 0))
        run = run + 1 if way != 0 and (way > 0) == up else 1
        stride = stride * 2 if run > 2 else step
        way = 1 if up else -1
        if bracketed:
            t = lo + step * ((hi - lo + step) // (2 * step))
        elif up:
            t = lo + stride
        else:
            t = hi - stride + step
        t = min(max(t, lo + step), hi)
    return DONE, lo, hi, nodes


@_step
def _spread(rv, ws, stk, out):
    """Give the legal cards left out by merging the value of the card that stood for them.

    Give each legal card of the seat to play at ply 0 that was not searched the value of the
    highest searched card below it in its word: the lowest of its class of equivalent cards
    (``_moves`` keeps the first card of each run of equivalent ones, :func:`_equivalent`)."""
    seat = stk[0, PL_SEAT]
    ht = ws[WS_HT + seat]
    hs = ws[WS_HS + seat]
    fixed = stk[0, PL_FIXED] != 0
    lt, ls = playable(rv, ws, ht, hs, stk[0, PL_POS], fixed, stk[0, PL_FMASK], stk[0, PL_AMASK], stk[0, PL_TR] == 0)
    for word in range(2):
        rem = lt if word == 0 else ls
        rep = np.int64(-1)
        while rem:
            b = tzcnt(rem)
            rem &= rem - 1
            c = b if word == 0 else 22 + b
            if out[OUT_CARDS + c] != NOT_LEGAL:
                rep = c
            else:
                out[OUT_CARDS + c] = out[OUT_CARDS + rep]


@njit(nogil=True, _nrt=False)
def solve_in(rv, buf, log, trick, tr, pos, cfg, tt, stk, out):
    """Answer one solver question about the position in the deal buffer.

    Answer the question of ``cfg`` (``CFG_*``) about the position held in the deal buffer
    ``buf`` (``workspace.new_buffer``'s layout) and ``log``, the trick in progress being ``trick``
    (``steps.open_trick``'s tuple after the cards already in it), trick ``tr``, position ``pos``,
    into ``out`` (``OUT_*``). ``tt``: the transposition table (int64[2**k, TT_LEN]), ``stk`` the
    search stack (int64[MAX_PLY, PL_LEN]). The buffer is as it was on return.

    ``Q_CARDS``: the position's value ``v`` first, then each candidate card at ply 0 (one per
    class of equivalent cards) played and its value found the same way: a card of the attack is
    worth at most ``v`` (at least ``v`` for the defence), so the first question, at ``v`` (``v +
    1``), says whether it keeps it."""
    mode = cfg[CFG_MODE]
    flags = cfg[CFG_FLAGS]
    gen = cfg[CFG_GEN]
    budget = cfg[CFG_BUDGET]
    exact = cfg[CFG_EXACT]
    q = cfg[CFG_QUESTION]
    ws = buf[0:WS_LEN]
    _load_trick(stk, 0, trick, tr, pos)
    out[OUT_MOVER] = trick[0]
    nodes = np.int64(0)
    out[OUT_TESTS] = 0
    if q == Q_MOVES:
        n = _moves(rv, ws, stk, np.int64(0), flags, np.int64(-1))
        for k in range(n):
            out[OUT_CARDS + k] = stk[0, PL_MOVES + k]
        out[OUT_LO] = n
        out[OUT_STATUS] = DONE
        return
    if q == Q_BOUNDS:
        out[OUT_LO], out[OUT_HI], _, _ = _bounds(rv, buf, log, stk, np.int64(0), mode, flags)
        out[OUT_STATUS] = DONE
        return
    if q == Q_REACH:
        target = cfg[CFG_TARGET]
        done, g, nodes = _search(rv, buf, log, stk, tt, np.int64(0), target - 1, target, mode, flags, gen, exact, nodes,
                                 budget)
        out[OUT_STATUS] = DONE if done else INCOMPLETE
        out[OUT_REACH] = 1 if g >= target else 0
        out[OUT_NODES] = nodes
        return
    for c in range(78):
        out[OUT_CARDS + c] = NOT_LEGAL
    n = 0
    attack = ws[WS_ATT + trick[0]] == 1
    v = np.int64(0)
    st = DONE
    # item 0: the position; items 1..n: its candidate cards
    item = 0
    while st == DONE and item <= n:
        root = np.int64(0) if item == 0 else np.int64(1)
        c = np.int64(-1)
        if item > 0:
            c = stk[0, PL_MOVES + item - 1]
            if _apply(rv, buf, log, stk, root - 1, c):
                out[OUT_CARDS + c] = _final(rv, buf, log, stk, root, mode)
                _undo(buf, stk, root - 1)
                item += 1
                continue
        lo, hi, _, _ = _bounds(rv, buf, log, stk, root, mode, flags)
        guess = cfg[CFG_GUESS]
        if item > 0:
            if attack:
                hi = min(hi, v)
                guess = hi
            else:
                lo = max(lo, v)
                guess = lo + 1
        st, lo, hi, nodes = _value(rv, buf, log, stk, tt, root, lo, hi, guess, mode, flags, gen, exact, nodes, budget,
                                   out[OUT_TESTS:OUT_TESTS + 1])
        if item == 0:
            out[OUT_LO] = lo
            out[OUT_HI] = hi
            v = lo
            if q == Q_CARDS and st == DONE:
                n = _moves(rv, ws, stk, np.int64(0), np.int64(F_MERGE), np.int64(-1))
        else:
            _undo(buf, stk, root - 1)
            out[OUT_CARDS + c] = lo
        item += 1
    if q == Q_CARDS and st == DONE:
        _spread(rv, ws, stk, out)
    out[OUT_STATUS] = st
    out[OUT_NODES] = nodes


# --- a position from its description (the Python API) ----------------------------------------------

@_step
def _set_up(rv, desc, buf, log):
    """Set up the deal buffer and log of a described position.

    The deal buffer and log of the position ``desc`` (``D_*``), as the deal kernel would hold it
    before the card at position ``D_POS`` of trick ``D_TRICK``: seating (R-GEN-2, R-DEAL-6), hands,
    sides (R-GEN-3), the called card and its R-CALL-4 ban, declarations, the attack's pile, then the
    tricks from ``D_FIRST`` replayed and closed by the deal kernel's steps (R-PLAY-5, R-EXC-2,
    R-COUNT-1, ...). Returns the trick state (``steps.open_trick``'s tuple) after the cards already
    in the trick in progress."""
    ws = buf[0:WS_LEN]
    pub = buf[B_PUB:B_PUB + PUB_LEN]
    n = rv[RV_N_SEATS]
    dealer = desc[D_DEALER]
    dummy = dealer if rv[RV_TABLE] == TABLE_5D else np.int64(-1)
    for s in range(MAX_SEATS):
        ws[WS_NEXT + s] = next_seat(s, n, dummy) if s < n else 0
        ws[WS_HT + s] = desc[D_HT + s]
        ws[WS_HS + s] = desc[D_HS + s]
        ws[WS_ATT + s] = 0
        buf[B_MISERES + s] = desc[D_MISERES + s]
    taker = desc[D_TAKER]
    partner = desc[D_PARTNER]
    ws[WS_ATT + taker] = 1
    if partner >= 0:
        ws[WS_ATT + partner] = 1
    ws[WS_TAKER] = taker
    ws[WS_ECART_T] = 0
    ws[WS_CALLED] = -1
    ws[WS_CALLED_SUIT] = 0
    ws[WS_CALL_BAN] = 0
    if desc[D_CALLED] >= 0:
        set_called(desc[D_CALLED], ws, log, pub)
    ws[WS_PILE_T] = desc[D_PILE_T]
    ws[WS_PILE_S] = desc[D_PILE_S]
    ws[WS_EXC_ADJ] = desc[D_EXC_ADJ]
    ws[WS_ATT_TRICKS] = desc[D_ATT_TRICKS]
    ws[WS_PREV_T] = desc[D_PREV_T]
    ws[WS_POIG_ATT] = desc[D_POIG_ATT]
    ws[WS_POIG_DEF] = desc[D_POIG_DEF]
    ws[WS_N_DECL] = 0
    n_mis = np.int64(0)
    for s in range(MAX_SEATS):
        n_mis += desc[D_MISERES + s]
    ws[WS_N_MIS] = n_mis
    pub[PUB_DUMMY] = dummy
    log[L_TAKER] = taker
    log[L_PARTNER] = partner
    log[L_CONTRACT] = desc[D_CONTRACT]
    log[L_SLAM_ANNOUNCED] = desc[D_SLAM]
    first = desc[D_FIRST]
    tr = desc[D_TRICK]
    for t in range(first, tr + 1):
        log[L_LEADER + t] = desc[D_LEADERS + t - first]
        for j in range(rv[RV_N_ACTIVE] if t < tr else desc[D_POS]):
            log[L_CARDS + t * MAX_SEATS + j] = desc[D_CARDS + (t - first) * MAX_SEATS + j]
    return replay_tricks(rv, ws, pub, log, first, tr, desc[D_POS])


@njit(cache=True, nogil=True)
def solve_position(rv, desc, cfg, tt, stk, buf, log, out):
    """Set up a described position and answer one solver question about it.

    :func:`solve_in` on the position described by ``desc`` (``D_*``), set up in ``buf`` (a deal
    buffer, ``workspace.new_buffer``) and ``log`` (int64[L_LEN]) first."""
    trick = _set_up(rv, desc, buf, log)
    solve_in(rv, buf, log, trick, desc[D_TRICK], desc[D_POS], cfg, tt, stk, out)


@njit(cache=True, nogil=True)
def attack_so_far(rv, desc, buf, log, out):
    """Test hook: what the attack holds so far in a described position, and the seat to play.

    Test hook: the position ``desc`` set up (:func:`_set_up`), then ``out[0:4]``: the attack's
    half-points so far, its oudlers, its tricks, the seat to play."""
    trick = _set_up(rv, desc, buf, log)
    ws = buf[0:WS_LEN]
    out[0] = _attack_points(ws)
    out[1] = popcount(ws[WS_PILE_T] & TW_OUDLERS)
    out[2] = ws[WS_ATT_TRICKS]
    out[3] = trick[0]


def new_stack() -> np.ndarray:
    """The search stack (int64[MAX_PLY, PL_LEN])."""
    return np.zeros((MAX_PLY, PL_LEN), dtype=np.int64)


def new_table(bits: int) -> np.ndarray:
    """A new transposition table of ``2**bits`` entries, its memory touched now.

    A transposition table of ``2**bits`` entries (int64[2**bits, TT_LEN]; ``TT_LEN * 8`` bytes
    each), every page written now (not at its first use by a search: a question's cost is its own)."""
    tt = np.empty((1 << bits, TT_LEN), dtype=np.int64)
    tt.fill(0)
    return tt


# the cache guard (``_cache``): these kernels inline the deal kernel's steps and the scorer
guard_cache("tarotsim-solver", (solve_position, attack_so_far), engine_sources())

__all__ = ["CFG_LEN", "D_LEN", "OUT_LEN", "attack_so_far", "new_stack", "new_table", "solve_in",
           "solve_position"]
