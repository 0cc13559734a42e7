"""Exact world sampling for one seat (private kernels, arrays only).

Exact world sampling for one seat (private kernels, arrays only): what the seat knows ->
complete deals of the cards it cannot see, drawn uniformly among those that agree with it.

Three steps, each callable from inside another njit function (no Python call, no allocation:
the caller owns every array, so a bot inside the deal kernel can use them):

1. :func:`derive` turns one seat's knowledge ``know`` (``int64[K_LEN]``, the ``K_*`` layout
   below: its hand, the public facts of the deal, the history of plays as the deal kernel logs
   it) into constraints ``cons`` (``int64[C_LEN]``, the ``C_*`` layout): for every card the set of
   locations it may be in (a bitmask: bit s = seat s, bit ``LOC_PILE`` = the hidden pile, bit
   ``LOC_UNDER`` = face down in a pile at table 2, 0 for a played card), the number of cards each location holds, and the per-seat facts behind them.
2. :func:`sample_worlds` draws worlds from ``cons``: ``out[w, card]`` is the location of every
   card in world w: a seat 0..4, ``LOC_PILE`` (5), ``LOC_UNDER`` (6, table 2), or -1 for a card
   already played (finished
   tricks and the trick being played). Cards the seat knows (its hand, poignée cards, shown chien
   cards whose place is certain, the écart it made) keep their known place in every world.
3. :func:`count_worlds` counts the worlds allowed by the location sets (tests, diagnostics).

The hidden pile is the chien while nobody has seen it (the auction and the call; garde sans and
garde contre for the whole deal, R-CHIEN-3, R-CHIEN-4), else the écart (prise, garde).

Why the law is uniform. Group the cards whose place is unknown into classes of cards with the
same set of allowed locations. A world is a choice, for every class, of how many of its cards go
to each location (a composition ``x[k]``), then of which cards. Given the compositions, the
number of worlds is ``prod_k m_k! / prod_l x[k, l]!``, and the compositions must fill every
location exactly. :func:`_prepare` sums these weights over all compositions by dynamic
programming over the classes (state: how many cards the classes so far put in each location;
the last class, the widest one, is closed: its composition is whatever room is left), and
:func:`_draw_one` draws the compositions backwards, each with probability proportional to its
weight times the number of ways to complete it, then deals each class's cards by a uniform
shuffle. Each world thus has probability exactly 1 / (number of worlds) (up to float rounding of
the weights). The only constraint that is not a location set, "no seat was dealt a petit sec"
(R-DEAL-4), is enforced by rejection, which keeps the law uniform over the worlds that pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import (KERNEL_CHIEN_SHOWN, KERNEL_ECART_MADE, LED_NONE, RV_MISERE_EXCUSE_IS_TRUMP, RV_N_ACTIVE,
                     RV_N_SEATS, RV_PETIT_SEC, RV_TABLE, TABLE_2, TABLE_5D)
from ._bits import popcount, tzcnt
from .seats import next_seat
from ._rng import next_u64, below
from .layout import MAX_SEATS, MAX_TRICKS
from .masks import SW_ALL, SW_HONOURS, SW_KINGS, SW_SUIT, TW_ALL, TW_TRUMPS, card_bits
from .steps import after_card_played, shown_by_play
from .workspace import CHIEN_SIZE, HAND_SIZE, PILE_SIZE

# --- locations ---------------------------------------------------------------------------------
#: Location code of the hidden pile (the unseen chien, or the écart); seats are 0..4.
LOC_PILE = 5
#: Table 2 (R-VAR-TWO): the cards lying face down in the players' piles, both players' piles as
#: one place (nobody sees them, their owner included, and nothing a play shows bears on them: the
#: cards of that place are exchangeable, a search deals them to the pile slots by a shuffle).
LOC_UNDER = 6
N_LOC = 7
#: Location of a card already played, in ``sample_worlds``'s output.
LOC_PLAYED = -1

# --- stages of the deal (K_STAGE) --------------------------------------------------------------
#: Auction or call: the chien is unseen (the hidden pile).
STAGE_AUCTION = 0
#: Prise or garde, the taker making his écart: the shown chien is in his hand (R-CHIEN-1).
STAGE_ECART = 1
#: After the écart (prise, garde) or the call (garde sans, contre): declarations and card play.
STAGE_PLAY = 2


def _offsets(spec):
    """Offsets of consecutive fields ``(name, size)``, then the total length."""
    out, pos = [], 0
    for _, size in spec:
        out.append(pos)
        pos += size
    return out + [pos]


# One seat's knowledge (int64[K_LEN]). Cards as masks: trump word (bit 0 Excuse, bit t trump t),
# suit word (bit 14*suit + rank-1). The history mirrors the deal kernel's log: the leader of each
# trick and its cards in playing order from the leader (MAX_SEATS slots per trick).
_K_SPEC = [
    ("K_SEAT", 1),           # the seat whose knowledge this is
    ("K_DEALER", 1),
    ("K_STAGE", 1),          # STAGE_*
    ("K_TAKER", 1),          # -1 during the auction
    ("K_CONTRACT", 1),       # 0 prise .. 3 garde contre; -1 during the auction
    ("K_CALLED", 1),         # table 5: the called card id, else -1
    ("K_HAND_T", 1), ("K_HAND_S", 1),      # the seat's current hand
    ("K_CHIEN_T", 1), ("K_CHIEN_S", 1),    # the chien when it was shown (prise, garde: R-CHIEN-1), else 0
    ("K_ECART_T", 1), ("K_ECART_S", 1),    # the écart as the seat knows it: all of it for the taker,
                                           # the trumps shown in it for the others (R-CHIEN-2)
    ("K_ECART_KNOWN", 1),    # 1 when the seat knows the whole écart (it is the taker)
    ("K_POIGNEE", MAX_SEATS),  # per seat, the poignée cards shown (trump word, Excuse bit 0 included)
    ("K_MISERE", MAX_SEATS),   # per seat: bit 0 misère d'atout, bit 1 misère de tête declared
    ("K_N_PLAYED", 1),       # cards played so far, the trick being played included
    ("K_LEADER", MAX_TRICKS),
    ("K_CARDS", MAX_TRICKS * MAX_SEATS),
    # table 2 (R-VAR-TWO), public: per seat the face-up tops of its piles (trump word, suit word)
    # and how many of its pile cards lie face down (a pile whose top was played in the trick being
    # played counts all its cards: the next one turns up after the trick); 0 at the other tables
    ("K_TOPS_T", MAX_SEATS), ("K_TOPS_S", MAX_SEATS),
    ("K_UNDER", MAX_SEATS),
]
(K_SEAT, K_DEALER, K_STAGE, K_TAKER, K_CONTRACT, K_CALLED, K_HAND_T, K_HAND_S, K_CHIEN_T, K_CHIEN_S,
 K_ECART_T, K_ECART_S, K_ECART_KNOWN, K_POIGNEE, K_MISERE, K_N_PLAYED, K_LEADER, K_CARDS, K_TOPS_T, K_TOPS_S,
 K_UNDER, K_LEN) = _offsets(_K_SPEC)

# Constraints (int64[C_LEN]) written by ``derive``.
_C_SPEC = [
    ("C_STATUS", 1),         # 0, or an ERR_* code
    ("C_ALLOWED", 78),       # per card: bitmask of the locations it may be in (0: played)
    ("C_COUNTS", N_LOC),     # cards each location holds now (known cards included)
    ("C_VOIDS", MAX_SEATS),  # per seat: bit s = shown void in suit s (S H D C) (R-PLAY-4a)
    ("C_CEILING", MAX_SEATS),  # per seat: holds no trump above T<ceiling>; 21 none, 0 no trump at all
    ("C_FLAGS", MAX_SEATS),  # per seat: F_* bits
    ("C_PSEC_ON", MAX_SEATS),  # per seat: 1 when a world could give it a petit sec (R-DEAL-4)
    ("C_PSEC_ADD", MAX_SEATS),  # its dealt trump word = (trump word now | ADD) & ~DEL
    ("C_PSEC_DEL", MAX_SEATS),
    ("C_DEALT_S", 1),        # suit word of the cards the call shows the taker was dealt (R-CALL-1)
]
(C_STATUS, C_ALLOWED, C_COUNTS, C_VOIDS, C_CEILING, C_FLAGS, C_PSEC_ON, C_PSEC_ADD, C_PSEC_DEL, C_DEALT_S,
 C_LEN) = _offsets(_C_SPEC)
#: The suits' bits of a play's voids (``rules.play_shows``): C_VOIDS holds no trump bit, the ceiling
#: 0 says it.
SUIT_VOIDS = 15

#: C_FLAGS bits: no Excuse (misère d'atout, R-MIS-1), no king/queen/knight/jack (misère de tête,
#: R-MIS-1), no suit card but kings (the taker after trumps went to the écart, R-CHIEN-2), no trump
#: but the shown ones (poignée shown with the Excuse, R-POIG-3), no trump (misère d'atout).
F_NO_EXCUSE, F_NO_HONOURS, F_NO_PLAIN, F_POIGNEE_EXCUSE, F_MISERE_ATOUT = 1, 2, 4, 8, 16

OK = 0
#: No world agrees with the constraints (impossible with true information).
ERR_NO_WORLD = -1
#: The workspace is too small for this position's count tables.
ERR_WORKSPACE = -2
#: The petit-sec rejection failed ``MAX_REJECT`` times in a row for one world.
ERR_REJECT = -3
#: Inconsistent knowledge (a location holds fewer cards than are known to be in it).
ERR_INPUT = -4
MAX_REJECT = 100000

PLAIN = np.int64(SW_ALL & ~SW_KINGS)   # suit cards an écart may hold (R-CHIEN-2)
MAX_CLASSES = 64

# --- workspace -----------------------------------------------------------------------------------
# int64 workspace (``wi``)
_W_SPEC = [
    ("W_L", 1), ("W_K", 1), ("W_K0", 1), ("W_DROP", 1), ("W_JOFF", 1),
    ("W_HL", N_LOC),                 # location code of hidden location i
    ("W_CAP", N_LOC),                # cards of unknown place that location i still takes
    ("W_TEMPLATE", 78),              # per card: its location when known (or -1 played), else -2
    ("W_MASK", 78),                  # per card: allowed hidden locations (bit i = W_HL[i]), 0 if known
    ("W_CL_KEY", 1 << N_LOC),        # class of each hidden-location mask, -1 if none
    ("W_CL_MASK", MAX_CLASSES), ("W_CL_M", MAX_CLASSES), ("W_CL_START", MAX_CLASSES),
    ("W_CL_A", MAX_CLASSES), ("W_CL_LOCS", MAX_CLASSES * N_LOC),
    ("W_ORDER", MAX_CLASSES),
    ("W_CARDS", 78),                 # hidden cards, grouped by class in DP order
    ("W_LV_OFF", MAX_CLASSES), ("W_LV_SIZE", MAX_CLASSES), ("W_LV_SUM", MAX_CLASSES),
    ("W_LV_B", MAX_CLASSES * N_LOC), ("W_LV_STRIDE", MAX_CLASSES * N_LOC),
    ("W_X", MAX_CLASSES * N_LOC),    # the compositions drawn for the current world
    ("W_U", N_LOC), ("W_V", N_LOC), ("W_LO", N_LOC), ("W_HI", N_LOC),
    ("W_SUFL", N_LOC + 1), ("W_SUFH", N_LOC + 1), ("W_C", N_LOC),
    ("W_PERM", 78), ("W_TW", MAX_SEATS),
]
(W_L, W_K, W_K0, W_DROP, W_JOFF, W_HL, W_CAP, W_TEMPLATE, W_MASK, W_CL_KEY, W_CL_MASK, W_CL_M, W_CL_START,
 W_CL_A, W_CL_LOCS, W_ORDER, W_CARDS, W_LV_OFF, W_LV_SIZE, W_LV_SUM, W_LV_B, W_LV_STRIDE, W_X, W_U, W_V, W_LO,
 W_HI, W_SUFL, W_SUFH, W_C, W_PERM, W_TW, WI_LEN) = _offsets(_W_SPEC)
# float64 workspace (``wf``): 1/k!, k!, then the count tables of every level
WF_INVFACT = 0
WF_FACT = 80
WF_TABLES = 160
#: Default float workspace: enough for every position (table 5: at most 4 free dimensions of
#: <= 16 values and 4 for the pile, <= 31 levels).
WF_LEN = WF_TABLES + (1 << 19)


@njit(cache=True, nogil=True)
def new_workspace():
    """``(wf, wi)``: float64[WF_LEN] and int64[WI_LEN], one pair per thread."""
    return np.zeros(WF_LEN, dtype=np.float64), np.zeros(WI_LEN, dtype=np.int64)


# ------------------------------------------------------------------------------------------------
# 1. knowledge -> constraints

@njit(inline="always")
def _may_hold(s, c, bs, voids, ceiling, flags):
    """Whether seat ``s`` may hold card ``c`` (suit-word bit ``bs``) given what it showed."""
    if c == 0:
        return (flags[s] & F_NO_EXCUSE) == 0
    if c < 22:
        return c <= ceiling[s] and (flags[s] & F_POIGNEE_EXCUSE) == 0
    if (voids[s] >> ((c - 22) // 14)) & 1:
        return False
    if (flags[s] & F_NO_HONOURS) and (bs & SW_HONOURS):
        return False
    return not ((flags[s] & F_NO_PLAIN) and (bs & PLAIN))


@njit(inline="always")
def _dealt_to_taker(called):
    """The cards a call shows the taker was dealt (R-CALL-1).

    Suit word of the cards a call shows the taker was dealt (R-CALL-1): a queen is called
    only with the four kings, a knight with the kings and queens, a jack with the kings, queens
    and knights; a king (or no call) shows nothing. ``called``: the called card id, or -1."""
    if called < 22:
        return np.int64(0)
    rank = (called - 22) % 14 + 1
    higher = SW_SUIT & ~((np.int64(1) << rank) - 1)   # ranks rank+1 .. king of suit 0
    return higher | (higher << 14) | (higher << 28) | (higher << 42)


# --- facts of the deal that several steps of ``derive`` read from ``know``

@njit(inline="always")
def _dummy(rv, know):
    """The 5d dummy's seat (R-DEAL-6), else -1."""
    return know[K_DEALER] if rv[RV_TABLE] == TABLE_5D else -1


@njit(inline="always")
def _chien_shown(know):
    """Prise or garde, from the écart on: the chien was shown (R-CHIEN-1)."""
    return know[K_STAGE] >= STAGE_ECART and know[K_CONTRACT] >= 0 and KERNEL_CHIEN_SHOWN[know[K_CONTRACT]] != 0


@njit(inline="always")
def _ecart_made(know):
    """Prise or garde, in the play: the hidden pile is the taker's écart (R-CHIEN-1)."""
    return know[K_STAGE] == STAGE_PLAY and know[K_CONTRACT] >= 0 and KERNEL_ECART_MADE[know[K_CONTRACT]] != 0


@njit(inline="always")
def _pile_hidden(know):
    """There is a hidden pile the seat did not see: the unseen chien, or an écart it did not make."""
    return know[K_STAGE] != STAGE_ECART and not (_chien_shown(know) and know[K_ECART_KNOWN] != 0)


@njit(inline="always")
def _read_plays(rv, know, cons):
    """Read the plays into the constraints.

    Every card played: its player holds one card less (``C_COUNTS``), a trump played joins the
    player's dealt trumps (``C_PSEC_ADD``), and what the play shows goes to ``C_VOIDS`` and
    ``C_CEILING`` (``steps.shown_by_play``: R-PLAY-3, R-PLAY-4, R-EXC-1; the voids of the suits
    only, no trump being a ceiling of 0). Returns the cards played, (trump word, suit word)."""
    n = rv[RV_N_SEATS]
    dummy = _dummy(rv, know)
    voids = cons[C_VOIDS:C_VOIDS + MAX_SEATS]
    ceiling = cons[C_CEILING:C_CEILING + MAX_SEATS]
    played_t = np.int64(0)
    played_s = np.int64(0)
    n_played = know[K_N_PLAYED]
    tr = 0
    k = 0
    while k < n_played:
        seat = know[K_LEADER + tr]
        led = np.int64(LED_NONE)
        top = np.int64(0)
        for j in range(rv[RV_N_ACTIVE]):
            if k >= n_played:
                break
            c = know[K_CARDS + tr * MAX_SEATS + j]
            bt, bs = card_bits(c)
            played_t |= bt
            played_s |= bs
            cons[C_COUNTS + seat] -= 1
            cons[C_PSEC_ADD + seat] |= bt
            v, ceil = shown_by_play(c, led, top, voids[seat], ceiling[seat])
            voids[seat] = v & SUIT_VOIDS
            ceiling[seat] = ceil
            led, top = after_card_played(c, led, top)
            k += 1
            seat = next_seat(seat, n, dummy)
        tr += 1
    return played_t, played_s


@njit(inline="always")
def _count_places(rv, know, cons):
    """Count the cards each location holds before the plays.

    How many cards each location holds before the plays (R-DEAL-1, R-CHIEN-1), added to
    ``C_COUNTS``; table 2 (R-VAR-TWO): a seat holds its hand and its face-up tops, the cards face
    down in the piles are in ``LOC_UNDER``."""
    table = rv[RV_TABLE]
    dummy = _dummy(rv, know)
    for s in range(rv[RV_N_SEATS]):
        if s != dummy:
            cons[C_COUNTS + s] += HAND_SIZE[table]
            if table == TABLE_2:
                cons[C_COUNTS + s] += PILE_SIZE[table] - know[K_UNDER + s]
                cons[C_COUNTS + LOC_UNDER] += know[K_UNDER + s]
    if know[K_STAGE] == STAGE_ECART:
        cons[C_COUNTS + know[K_TAKER]] += CHIEN_SIZE[table]
    else:
        cons[C_COUNTS + LOC_PILE] = CHIEN_SIZE[table]


@njit(inline="always")
def _read_declarations(rv, know, cons):
    """Read what the declarations and the écart show of a hand.

    What the declarations and the écart show of a hand, in ``C_CEILING`` and ``C_FLAGS``:
    misères (R-MIS-1), a poignée shown with the Excuse (R-POIG-3), trumps in the écart
    (R-CHIEN-2: the taker had no other card to put there)."""
    for s in range(MAX_SEATS):
        m = know[K_MISERE + s]
        if m & 1:
            cons[C_CEILING + s] = 0
            cons[C_FLAGS + s] |= F_MISERE_ATOUT
            if rv[RV_MISERE_EXCUSE_IS_TRUMP]:
                cons[C_FLAGS + s] |= F_NO_EXCUSE
        if m & 2:
            cons[C_FLAGS + s] |= F_NO_HONOURS
        if know[K_POIGNEE + s] & 1:
            cons[C_FLAGS + s] |= F_POIGNEE_EXCUSE
    if _ecart_made(know) and (know[K_ECART_T] & TW_TRUMPS) != 0:
        cons[C_FLAGS + know[K_TAKER]] |= F_NO_PLAIN


@njit(inline="always")
def _place_bits(cons, t, s, loc):
    """Put every card of the words ``(t, s)`` in location ``loc`` (``C_ALLOWED``)."""
    while t:
        cons[C_ALLOWED + tzcnt(t)] = np.int64(1) << loc
        t &= t - 1
    while s:
        cons[C_ALLOWED + 22 + tzcnt(s)] = np.int64(1) << loc
        s &= s - 1


@njit(inline="always")
def _place_known(rv, know, cons, played_t, played_s):
    """Place the unplayed cards whose place the seat knows.

    ``C_ALLOWED`` of the unplayed cards whose place the seat knows, one location each; later
    sources override earlier ones: a poignée card stays with its holder until played
    (R-POIG-2); the écart as the seat knows it (its own, or the trumps shown, R-CHIEN-2; a
    shown trump may also be in the taker's poignée, R-POIG-3); a face-up pile top (R-VAR-TWO:
    public, its owner's to play); the seat's own hand."""
    live_t = ~played_t
    live_s = ~played_s
    for s in range(MAX_SEATS):
        _place_bits(cons, know[K_POIGNEE + s] & live_t, 0, s)
    if _ecart_made(know):
        _place_bits(cons, know[K_ECART_T] & live_t, know[K_ECART_S] & live_s, LOC_PILE)
    if rv[RV_TABLE] == TABLE_2:
        for s in range(rv[RV_N_SEATS]):
            _place_bits(cons, know[K_TOPS_T + s] & live_t, know[K_TOPS_S + s] & live_s, s)
    _place_bits(cons, know[K_HAND_T] & live_t, know[K_HAND_S] & live_s, know[K_SEAT])


@njit(inline="always")
def _seats_that_may_hold(seats, c, bs, voids, ceiling, flags):
    """The seats of the mask ``seats`` that may hold card ``c`` given what they showed, as a mask."""
    m = np.int64(0)
    while seats:
        s = tzcnt(seats)
        seats &= seats - 1
        if _may_hold(s, c, bs, voids, ceiling, flags):
            m |= np.int64(1) << s
    return m


@njit(inline="always")
def _place_hidden(rv, know, cons, played_t, played_s):
    """``C_ALLOWED`` of the other unplayed cards: the locations each may be in.

    A card the taker held before the écart (of the shown chien, R-CHIEN-1, or one his call
    shows, R-CALL-1): his hand if he may hold it, the écart too for a plain suit card if the
    seat did not see it. Any other card: every hidden hand that may hold it given what its
    holder showed, the unseen chien (anything) or an unseen écart (plain suit cards only: no king,
    no oudler, its only trumps the shown ones, R-CHIEN-2), and at table 2 the cards face down in
    the piles (R-VAR-TWO: a void or a trump ceiling bound the player's hand and face-up tops of
    that moment, and the hand only shrinks since, so ``_may_hold`` constrains the hand alone).
    """
    voids = cons[C_VOIDS:C_VOIDS + MAX_SEATS]
    ceiling = cons[C_CEILING:C_CEILING + MAX_SEATS]
    flags = cons[C_FLAGS:C_FLAGS + MAX_SEATS]
    dummy = _dummy(rv, know)
    seats = np.int64(0)   # the hands the seat does not see
    for s in range(rv[RV_N_SEATS]):
        if s != know[K_SEAT] and s != dummy:
            seats |= np.int64(1) << s
    taker = know[K_TAKER]
    pile_hidden = _pile_hidden(know)
    ecart_bit = (np.int64(1) << LOC_PILE) if pile_hidden and _chien_shown(know) else np.int64(0)
    chien_bit = (np.int64(1) << LOC_PILE) if pile_hidden and not _chien_shown(know) else np.int64(0)
    under_bit = (np.int64(1) << LOC_UNDER) if cons[C_COUNTS + LOC_UNDER] > 0 else np.int64(0)
    takers_t = np.int64(0)
    takers_s = cons[C_DEALT_S]
    if _chien_shown(know):
        takers_t = know[K_CHIEN_T]
        takers_s |= know[K_CHIEN_S]
    for c in range(78):
        bt, bs = card_bits(c)
        if (played_t & bt) | (played_s & bs) or cons[C_ALLOWED + c] != 0:
            continue
        plain_bit = ecart_bit if bs & PLAIN else np.int64(0)
        if (takers_t & bt) | (takers_s & bs):
            m = plain_bit
            if _may_hold(taker, c, bs, voids, ceiling, flags):
                m |= np.int64(1) << taker
        else:
            m = _seats_that_may_hold(seats, c, bs, voids, ceiling, flags) | chien_bit | plain_bit | under_bit
        cons[C_ALLOWED + c] = m


@njit(inline="always")
def _petit_sec_checks(rv, know, cons):
    """Set up the petit-sec checks of the worlds (R-DEAL-4).

    ``C_PSEC_*``: for each seat whose dealt trumps a world could leave as T1 alone without the
    Excuse (R-DEAL-4; never at table 2, R-VAR-TWO), what its dealt trump word adds to or takes
    from its trumps in the world: the trumps it played, and for the taker the trumps shown in his
    écart in, those of the shown chien out."""
    taker = know[K_TAKER]
    dummy = _dummy(rv, know)
    for s in range(MAX_SEATS):
        add = cons[C_PSEC_ADD + s] & TW_ALL
        dele = np.int64(0)
        if s == taker and _chien_shown(know):
            dele = know[K_CHIEN_T]
            if know[K_STAGE] == STAGE_PLAY:
                add |= know[K_ECART_T] & TW_TRUMPS
        cons[C_PSEC_ADD + s] = add
        cons[C_PSEC_DEL + s] = dele
        on = (rv[RV_PETIT_SEC] != 0 and rv[RV_TABLE] != TABLE_2 and s < rv[RV_N_SEATS] and s != know[K_SEAT]
              and s != dummy and ((add & ~dele) & ~np.int64(2)) == 0)
        cons[C_PSEC_ON + s] = 1 if on else 0


@njit(cache=True, nogil=True, _nrt=False)
def derive(rv, know, cons):
    """Constraints of one seat's knowledge.

    Parameters
    ----------
    rv : int64[RV_LEN]
        ``Rules.to_vector()``.
    know : int64[K_LEN]
        What the seat knows (``K_*``).
    cons : int64[C_LEN]
        Output (``C_*``); ``cons[C_STATUS]`` is 0 or an ``ERR_*`` code, also returned.
    """
    for i in range(C_LEN):
        cons[i] = 0
    for s in range(MAX_SEATS):
        cons[C_CEILING + s] = 21
    cons[C_DEALT_S] = _dealt_to_taker(know[K_CALLED])
    played_t, played_s = _read_plays(rv, know, cons)
    _count_places(rv, know, cons)
    _read_declarations(rv, know, cons)
    _place_known(rv, know, cons, played_t, played_s)
    _place_hidden(rv, know, cons, played_t, played_s)
    _petit_sec_checks(rv, know, cons)
    status = OK
    for l in range(N_LOC):
        if cons[C_COUNTS + l] < 0:
            status = ERR_INPUT
    cons[C_STATUS] = status
    return status


# ------------------------------------------------------------------------------------------------
# 2. classes and count tables

@njit(inline="always")
def _comp_fill(x, lo, hi, sufl, sufh, a, m, i, s):
    """Fill the rest of a composition with its smallest values.

    Fill positions ``i..a-1`` of composition ``x`` with their smallest values, given the sum
    ``s`` of positions ``< i``; False when no composition has that prefix."""
    for p in range(i, a):
        if p == a - 1:
            v = m - s
            if v < lo[p] or v > hi[p]:
                return False
        else:
            v = max(lo[p], m - s - sufh[p + 1])
            if v > min(hi[p], m - s - sufl[p + 1]):
                return False
        x[p] = v
        s += v
    return True


@njit(inline="always")
def _comp_start(x, lo, hi, sufl, sufh, a, m):
    """First composition of ``m`` into ``a`` parts with ``lo <= x <= hi`` (False if none)."""
    sufl[a] = 0
    sufh[a] = 0
    for p in range(a - 1, -1, -1):
        sufl[p] = sufl[p + 1] + lo[p]
        sufh[p] = sufh[p + 1] + hi[p]
    if sufl[0] > m or sufh[0] < m:
        return False
    return _comp_fill(x, lo, hi, sufl, sufh, a, m, 0, 0)


@njit(inline="always")
def _comp_next(x, lo, hi, sufl, sufh, a, m):
    """Advance ``x`` to the next composition (odometer on the first ``a - 1`` parts)."""
    s_before = np.int64(0)
    for p in range(a - 1):
        s_before += x[p]
    for p in range(a - 2, -1, -1):
        s_before -= x[p]
        if x[p] < min(hi[p], m - s_before - sufl[p + 1]):
            x[p] += 1
            if _comp_fill(x, lo, hi, sufl, sufh, a, m, p + 1, s_before + x[p]):
                return True
            x[p] -= 1
    return False


@njit(inline="always")
def _factorials(wf):
    """``wf[WF_INVFACT + k] = 1 / k!`` and ``wf[WF_FACT + k] = k!`` for k = 0..78."""
    for i in range(79):
        wf[WF_INVFACT + i] = 1.0 if i == 0 else wf[WF_INVFACT + i - 1] / i
        wf[WF_FACT + i] = 1.0 if i == 0 else wf[WF_FACT + i - 1] * i


@njit(nogil=True, _nrt=False)
def _fix_known(cons, wi):
    """Fix the cards with one place and the room left per location.

    ``W_TEMPLATE``: each card's location when it has one place (-1 played, -2 not known yet);
    ``W_MASK``: its allowed locations; ``W_C``: the room left per location once the known cards
    are in. A location with no room left is struck from every set, and a card left with one
    place is known, until nothing changes. ``ERR_NO_WORLD`` when a card has no place left."""
    tmpl = wi[W_TEMPLATE:W_TEMPLATE + 78]
    cmask = wi[W_MASK:W_MASK + 78]
    capc = wi[W_C:W_C + N_LOC]
    for l in range(N_LOC):
        capc[l] = cons[C_COUNTS + l]
    for c in range(78):
        a = cons[C_ALLOWED + c]
        cmask[c] = a
        if a == 0:
            tmpl[c] = LOC_PLAYED
        elif popcount(a) == 1:
            tmpl[c] = tzcnt(a)
            capc[tzcnt(a)] -= 1
        else:
            tmpl[c] = -2
    changed = True
    while changed:
        changed = False
        full = np.int64(0)
        for l in range(N_LOC):
            if capc[l] < 0:
                return ERR_NO_WORLD
            if capc[l] == 0:
                full |= np.int64(1) << l
        for c in range(78):
            if tmpl[c] == -2 and cmask[c] & full:
                m = cmask[c] & ~full
                cmask[c] = m
                if m == 0:
                    return ERR_NO_WORLD
                if popcount(m) == 1:
                    tmpl[c] = tzcnt(m)
                    capc[tzcnt(m)] -= 1
                    changed = True
    return OK


@njit(nogil=True, _nrt=False)
def _find_classes(wi):
    """Group the cards of unknown place into classes.

    The hidden locations (``W_L`` of them: ``W_HL`` their codes, ``W_CAP`` their room) and the
    classes of the cards of unknown place by their set of hidden locations (``W_K`` classes:
    ``W_CL_MASK`` the set, bit i = hidden location i, ``W_CL_M`` the number of cards; ``W_MASK``
    each card's set, 0 for a known card). ``ERR_NO_WORLD`` when the room left is not the number
    of such cards."""
    tmpl = wi[W_TEMPLATE:W_TEMPLATE + 78]
    cmask = wi[W_MASK:W_MASK + 78]
    capc = wi[W_C:W_C + N_LOC]
    L = 0
    code_to_i = wi[W_V:W_V + N_LOC]
    for l in range(N_LOC):
        code_to_i[l] = -1
        if capc[l] > 0:
            wi[W_HL + L] = l
            wi[W_CAP + L] = capc[l]
            code_to_i[l] = L
            L += 1
    wi[W_L] = L
    key = wi[W_CL_KEY:W_CL_KEY + (1 << N_LOC)]
    for i in range(1 << N_LOC):
        key[i] = -1
    K = 0
    n_hidden = 0
    for c in range(78):
        if tmpl[c] != -2:
            cmask[c] = 0
            continue
        m = np.int64(0)
        for l in range(N_LOC):
            if (cmask[c] >> l) & 1:
                m |= np.int64(1) << code_to_i[l]
        cmask[c] = m
        if key[m] < 0:
            key[m] = K
            wi[W_CL_MASK + K] = m
            wi[W_CL_M + K] = 0
            K += 1
        wi[W_CL_M + key[m]] += 1
        n_hidden += 1
    wi[W_K] = K
    total_cap = 0
    for i in range(L):
        total_cap += wi[W_CAP + i]
    return OK if total_cap == n_hidden else ERR_NO_WORLD


@njit(nogil=True, _nrt=False)
def _order_classes(wi):
    """Order the classes for the dynamic programming.

    ``W_ORDER``: the classes in DP order, ``W_K0`` of them in the prefix. The tail is a chain of
    nested classes ``A_1 c A_2 c ... c A_t`` counted in closed form, at the end of the order,
    outermost last (the class allowed everywhere, else the one with the most compositions); the
    prefix goes through the count tables, fewest places and fewest cards first."""
    K = wi[W_K]
    order = wi[W_ORDER:W_ORDER + MAX_CLASSES]
    used = wi[W_PERM:W_PERM + MAX_CLASSES]
    full_mask = (np.int64(1) << wi[W_L]) - 1
    outer = 0
    best = -1.0
    for k in range(K):
        used[k] = 0
        a = popcount(wi[W_CL_MASK + k])
        m = wi[W_CL_M + k]
        spread = 1.0   # compositions of m into a parts
        for j in range(1, a):
            spread = spread * (m + j) / j
        if wi[W_CL_MASK + k] == full_mask:
            spread += 1e300
        if spread > best:
            best = spread
            outer = k
    nt = 1
    order[K - 1] = outer
    used[outer] = 1
    inner_mask = wi[W_CL_MASK + outer]
    while True:
        pick = -1
        for k in range(K):
            mk = wi[W_CL_MASK + k]
            if used[k] == 0 and (mk & ~inner_mask) == 0:
                if pick < 0 or wi[W_CL_M + k] > wi[W_CL_M + pick]:
                    pick = k
        if pick < 0:
            break
        used[pick] = 1
        order[K - 1 - nt] = pick
        inner_mask = wi[W_CL_MASK + pick]
        nt += 1
    K0 = K - nt
    p = 0
    for k in range(K):
        if used[k] == 0:
            order[p] = k
            p += 1
    for i in range(1, K0):   # insertion sort of the prefix
        j = i
        while j > 0:
            q0 = order[j - 1]
            q1 = order[j]
            a0 = popcount(wi[W_CL_MASK + q0])
            a1 = popcount(wi[W_CL_MASK + q1])
            if a0 > a1 or (a0 == a1 and wi[W_CL_M + q0] > wi[W_CL_M + q1]):
                order[j - 1] = q1
                order[j] = q0
                j -= 1
            else:
                break
    wi[W_K0] = K0


@njit(nogil=True, _nrt=False)
def _sort_classes(wi):
    """Put the class arrays in the dynamic programming's order.

    The class arrays put in DP order (``W_CL_*`` indexed by position in ``W_ORDER``), each
    class's hidden locations listed (``W_CL_LOCS``, ``W_CL_A`` of them), and ``W_CARDS``: the
    cards of unknown place grouped by class in that order (class k from ``W_CL_START + k``)."""
    K = wi[W_K]
    L = wi[W_L]
    order = wi[W_ORDER:W_ORDER + MAX_CLASSES]
    cmask = wi[W_MASK:W_MASK + 78]
    key = wi[W_CL_KEY:W_CL_KEY + (1 << N_LOC)]
    start = 0
    for pos in range(K):
        wi[W_CL_START + pos] = start
        start += wi[W_CL_M + order[pos]]
    fillpos = wi[W_PERM:W_PERM + MAX_CLASSES]
    for pos in range(K):
        fillpos[pos] = wi[W_CL_START + pos]
    posof = wi[W_X + 2 * MAX_CLASSES:W_X + 3 * MAX_CLASSES]
    for pos in range(K):
        posof[order[pos]] = pos
    for c in range(78):
        m = cmask[c]
        if m == 0:
            continue
        pos = posof[key[m]]
        wi[W_CARDS + fillpos[pos]] = c
        fillpos[pos] += 1
    for pos in range(K):
        wi[W_X + pos] = wi[W_CL_MASK + order[pos]]
        wi[W_X + MAX_CLASSES + pos] = wi[W_CL_M + order[pos]]
    for pos in range(K):
        wi[W_CL_MASK + pos] = wi[W_X + pos]
        wi[W_CL_M + pos] = wi[W_X + MAX_CLASSES + pos]
        a = 0
        for i in range(L):
            if (wi[W_CL_MASK + pos] >> i) & 1:
                wi[W_CL_LOCS + pos * N_LOC + a] = i
                a += 1
        wi[W_CL_A + pos] = a


@njit(nogil=True, _nrt=False)
def _lay_out_tables(wf, wi):
    """Lay out the count tables in the float workspace.

    Where each count table lives in ``wf``. Level k (before prefix class k; level ``W_K0``: after
    the prefix) has per hidden location a bound ``W_LV_B`` (cards the classes before it may put
    there) and a stride ``W_LV_STRIDE``, but for the dropped location ``W_DROP`` (the roomiest,
    implied by the sum ``W_LV_SUM``); ``W_LV_OFF``, ``W_LV_SIZE``: its place in ``wf``; ``W_JOFF``:
    the cumulative weights after the prefix. ``ERR_WORKSPACE`` when ``wf`` is too small."""
    L = wi[W_L]
    K0 = wi[W_K0]
    drop = 0
    for i in range(L):
        if wi[W_CAP + i] > wi[W_CAP + drop]:
            drop = i
    wi[W_DROP] = drop
    off = WF_TABLES
    msum = 0
    for k in range(K0 + 1):
        size = 1
        for i in range(L):
            b = 0
            if k > 0:
                b = wi[W_LV_B + (k - 1) * N_LOC + i]
                if (wi[W_CL_MASK + k - 1] >> i) & 1:
                    b += wi[W_CL_M + k - 1]
                if b > wi[W_CAP + i]:
                    b = wi[W_CAP + i]
            wi[W_LV_B + k * N_LOC + i] = b
            if i != drop:
                wi[W_LV_STRIDE + k * N_LOC + i] = size
                size *= b + 1
            else:
                wi[W_LV_STRIDE + k * N_LOC + i] = 0
        wi[W_LV_OFF + k] = off
        wi[W_LV_SIZE + k] = size
        wi[W_LV_SUM + k] = msum
        if k < K0:
            msum += wi[W_CL_M + k]
        off += size
        if off > wf.shape[0]:
            return ERR_WORKSPACE
    wi[W_JOFF] = off
    off += wi[W_LV_SIZE + K0]
    if off > wf.shape[0]:
        return ERR_WORKSPACE
    return OK


@njit(nogil=True, _nrt=False)
def _fill_tables(wf, wi):
    """Fill the count tables, forwards.

    The count tables, forwards: ``g_0 = 1`` at the empty state, then for each prefix class k
    and each composition x of its cards into its places, ``g_{k+1}(u + x) += g_k(u) / prod x!``."""
    L = wi[W_L]
    K0 = wi[W_K0]
    drop = wi[W_DROP]
    for k in range(1, K0 + 1):
        o = wi[W_LV_OFF + k]
        for i in range(wi[W_LV_SIZE + k]):
            wf[o + i] = 0.0
    wf[wi[W_LV_OFF + 0]] = 1.0
    u = wi[W_U:W_U + N_LOC]
    x = wi[W_C:W_C + N_LOC]
    lo = wi[W_LO:W_LO + N_LOC]
    hi = wi[W_HI:W_HI + N_LOC]
    sufl = wi[W_SUFL:W_SUFL + N_LOC + 1]
    sufh = wi[W_SUFH:W_SUFH + N_LOC + 1]
    for k in range(K0):
        o = wi[W_LV_OFF + k]
        o1 = wi[W_LV_OFF + k + 1]
        a = wi[W_CL_A + k]
        m = wi[W_CL_M + k]
        base = 0
        for idx in range(wi[W_LV_SIZE + k]):
            g = wf[o + idx]
            if g == 0.0:
                continue
            _decode(wi, k, idx, L, drop, u)
            base = 0
            for li in range(L):
                if li != drop:
                    base += u[li] * wi[W_LV_STRIDE + (k + 1) * N_LOC + li]
            # the last two places of the class are split in a tight inner loop: the odometer
            # runs over the first a - 2 places and the sum of the last two (one merged place)
            for p in range(a):
                li = wi[W_CL_LOCS + k * N_LOC + p]
                lo[p] = 0
                hi[p] = wi[W_CAP + li] - u[li]
            if a == 1:
                if m <= hi[0]:
                    li = wi[W_CL_LOCS + k * N_LOC]
                    wf[o1 + base + m * wi[W_LV_STRIDE + (k + 1) * N_LOC + li]] += g * wf[WF_INVFACT + m]
                continue
            la = wi[W_CL_LOCS + k * N_LOC + a - 2]
            lb = wi[W_CL_LOCS + k * N_LOC + a - 1]
            sa = wi[W_LV_STRIDE + (k + 1) * N_LOC + la]
            sb = wi[W_LV_STRIDE + (k + 1) * N_LOC + lb]
            ha = hi[a - 2]
            hb = hi[a - 1]
            hi[a - 2] = ha + hb
            ok = _comp_start(x, lo, hi, sufl, sufh, a - 1, m)
            while ok:
                w = g
                j = base
                for p in range(a - 2):
                    w *= wf[WF_INVFACT + x[p]]
                    j += x[p] * wi[W_LV_STRIDE + (k + 1) * N_LOC + wi[W_CL_LOCS + k * N_LOC + p]]
                r = x[a - 2]
                xa0 = max(0, r - hb)
                xa1 = min(ha, r)
                j += xa0 * sa + (r - xa0) * sb
                for xa in range(xa0, xa1 + 1):
                    wf[o1 + j] += w * wf[WF_INVFACT + xa] * wf[WF_INVFACT + r - xa]
                    j += sa - sb
                ok = _comp_next(x, lo, hi, sufl, sufh, a - 1, m)


@njit(nogil=True, _nrt=False)
def _tail_totals(wf, wi):
    """The cumulative weights of the states after the prefix.

    The cumulative weights of the states after the prefix (from ``W_JOFF``), each state's
    count times the ways the tail fills the room it leaves; returns the total weight."""
    L = wi[W_L]
    K = wi[W_K]
    K0 = wi[W_K0]
    drop = wi[W_DROP]
    u = wi[W_U:W_U + N_LOC]
    x = wi[W_C:W_C + N_LOC]
    o = wi[W_LV_OFF + K0]
    jo = wi[W_JOFF]
    total = 0.0
    for idx in range(wi[W_LV_SIZE + K0]):
        g = wf[o + idx]
        if g != 0.0:
            _decode(wi, K0, idx, L, drop, u)
            for i in range(L):
                x[i] = wi[W_CAP + i] - u[i]
            g *= _tail_weight(wf, wi, x, L, K0, K)
        total += g
        wf[jo + idx] = total
    return total


@njit(cache=True, nogil=True, _nrt=False)
def _prepare(cons, wf, wi):
    """Reduce the constraints to classes and fill the count tables.

    Reduce the constraints to classes and fill the count tables; returns (status, total
    weight). The number of worlds before the petit-sec rejection is ``total * prod m_k!``."""
    _factorials(wf)
    status = _fix_known(cons, wi)
    if status == OK:
        status = _find_classes(wi)
    if status != OK:
        return status, 0.0
    if wi[W_K] == 0:
        return OK, 1.0
    _order_classes(wi)
    _sort_classes(wi)
    status = _lay_out_tables(wf, wi)
    if status != OK:
        return status, 0.0
    _fill_tables(wf, wi)
    total = _tail_totals(wf, wi)
    if not total > 0.0:
        return ERR_NO_WORLD, 0.0
    return OK, total


@njit(inline="always")
def _tail_weight(wf, wi, r, L, K0, K):
    """The number of ways to deal the nested tail classes.

    Ways (over prod m_j!) to deal the nested tail classes into the room ``r`` left in each
    hidden location: ``prod_j C(F_j, m_j) / prod_l r_l!``, with ``F_j`` the free places of
    ``A_j`` once the classes inside it are dealt."""
    outer = wi[W_CL_MASK + K - 1]
    w = 1.0
    for i in range(L):
        if r[i] < 0:
            return 0.0
        if r[i] > 0 and not (outer >> i) & 1:
            return 0.0
        w *= wf[WF_INVFACT + r[i]]
    done = 0
    for k in range(K0, K):   # innermost first
        mask = wi[W_CL_MASK + k]
        f = -done
        for i in range(L):
            if (mask >> i) & 1:
                f += r[i]
        m = wi[W_CL_M + k]
        if f < m:
            return 0.0
        w *= wf[WF_FACT + f] * wf[WF_INVFACT + m] * wf[WF_INVFACT + f - m]
        done += m
    return w


@njit(inline="always")
def _decode(wi, k, idx, L, drop, u):
    """The state ``u`` (cards put in each hidden location by classes < k) of index ``idx``."""
    s = 0
    for i in range(L):
        if i != drop:
            st = wi[W_LV_STRIDE + k * N_LOC + i]
            u[i] = (idx // st) % (wi[W_LV_B + k * N_LOC + i] + 1)
            s += u[i]
    u[drop] = wi[W_LV_SUM + k] - s


@njit(inline="always")
def _pick_composition(wf, wi, k, u, L, drop, x, lo, hi, sufl, sufh, target):
    """Pick one composition of a prefix class.

    The composition ``x`` of prefix class ``k`` at which the running sum of
    ``g_k(u - x) / prod x!`` over the compositions ending in state ``u`` passes ``target``."""
    a = wi[W_CL_A + k]
    m = wi[W_CL_M + k]
    for p in range(a):
        li = wi[W_CL_LOCS + k * N_LOC + p]
        lo[p] = max(0, u[li] - wi[W_LV_B + k * N_LOC + li])
        hi[p] = u[li]
    o = wi[W_LV_OFF + k]
    base = 0
    for i in range(L):
        if i != drop:
            base += u[i] * wi[W_LV_STRIDE + k * N_LOC + i]
    acc = 0.0
    ok = _comp_start(x, lo, hi, sufl, sufh, a, m)
    last_ok = False
    while ok:
        w = 1.0
        j = base
        for p in range(a):
            li = wi[W_CL_LOCS + k * N_LOC + p]
            w *= wf[WF_INVFACT + x[p]]
            j -= x[p] * wi[W_LV_STRIDE + k * N_LOC + li]
        g = wf[o + j]
        if g > 0.0:
            acc += w * g
            if acc > target:
                return
            for p in range(a):
                wi[W_X + MAX_CLASSES * N_LOC - N_LOC + p] = x[p]   # last composition with weight
            last_ok = True
        ok = _comp_next(x, lo, hi, sufl, sufh, a, m)
    # rounding: the target fell past the last weight; keep the last composition that had one
    if last_ok:
        for p in range(a):
            x[p] = wi[W_X + MAX_CLASSES * N_LOC - N_LOC + p]


# ------------------------------------------------------------------------------------------------
# 3. drawing worlds

@njit(inline="always")
def _uniform(st):
    """A float64 uniform in [0, 1) and the new state."""
    r, st = next_u64(st)
    return np.float64(r >> np.uint64(11)) * (1.0 / 9007199254740992.0), st


@njit(inline="always")
def _draw_one(wf, wi, total, st, row):
    """Draw one world.

    One world into ``row`` (int8[78]): the state after the prefix classes drawn from the
    cumulative weights, the prefix compositions drawn backwards from the count tables and each
    prefix class dealt by a uniform shuffle, then the tail classes dealt card by card into the
    free places of their locations. Returns the new state."""
    L = wi[W_L]
    K = wi[W_K]
    K0 = wi[W_K0]
    drop = wi[W_DROP]
    for c in range(78):
        row[c] = wi[W_TEMPLATE + c]
    if K == 0:
        return st
    u = wi[W_U:W_U + N_LOC]
    x = wi[W_C:W_C + N_LOC]
    lo = wi[W_LO:W_LO + N_LOC]
    hi = wi[W_HI:W_HI + N_LOC]
    sufl = wi[W_SUFL:W_SUFL + N_LOC + 1]
    sufh = wi[W_SUFH:W_SUFH + N_LOC + 1]
    # the state after the prefix: binary search in the cumulative weights
    r, st = _uniform(st)
    target = r * total
    jo = wi[W_JOFF]
    lo_i = 0
    hi_i = wi[W_LV_SIZE + K0] - 1
    while lo_i < hi_i:
        mid = (lo_i + hi_i) // 2
        if wf[jo + mid] > target:
            hi_i = mid
        else:
            lo_i = mid + 1
    while lo_i > 0 and wf[jo + lo_i] == wf[jo + lo_i - 1]:   # (rounding) a state of weight 0
        lo_i -= 1
    _decode(wi, K0, lo_i, L, drop, u)
    free = wi[W_V:W_V + N_LOC]
    for i in range(L):
        free[i] = wi[W_CAP + i] - u[i]
    weight = wf[wi[W_LV_OFF + K0] + lo_i]
    for k in range(K0 - 1, -1, -1):
        r, st = _uniform(st)
        _pick_composition(wf, wi, k, u, L, drop, x, lo, hi, sufl, sufh, r * weight)
        a = wi[W_CL_A + k]
        for p in range(a):
            li = wi[W_CL_LOCS + k * N_LOC + p]
            wi[W_X + k * N_LOC + p] = x[p]
            u[li] -= x[p]
        j = 0
        for i in range(L):
            if i != drop:
                j += u[i] * wi[W_LV_STRIDE + k * N_LOC + i]
        weight = wf[wi[W_LV_OFF + k] + j]
    # deal each prefix class: a uniform shuffle cut into its composition
    for k in range(K0):
        a = wi[W_CL_A + k]
        m = wi[W_CL_M + k]
        base = wi[W_CL_START + k]
        for i in range(m):
            wi[W_PERM + i] = wi[W_CARDS + base + i]
        i = 0
        for p in range(a):
            loc = wi[W_HL + wi[W_CL_LOCS + k * N_LOC + p]]
            for _ in range(wi[W_X + k * N_LOC + p]):
                j, st = below(st, m - i)
                j += i
                c = wi[W_PERM + j]
                wi[W_PERM + j] = wi[W_PERM + i]
                wi[W_PERM + i] = c
                row[c] = loc
                i += 1
    # the tail, innermost class first: each card takes a uniform free place of its locations
    for k in range(K0, K):
        a = wi[W_CL_A + k]
        base = wi[W_CL_START + k]
        for i in range(wi[W_CL_M + k]):
            f = np.int64(0)  # a literal 0 would compile ``below`` once more
            for p in range(a):
                f += free[wi[W_CL_LOCS + k * N_LOC + p]]
            j, st = below(st, f)
            for p in range(a):
                li = wi[W_CL_LOCS + k * N_LOC + p]
                if j < free[li]:
                    free[li] -= 1
                    row[wi[W_CARDS + base + i]] = wi[W_HL + li]
                    break
                j -= free[li]
    return st


@njit(inline="always")
def _petit_sec_free(cons, wi, row):
    """No seat of this world was dealt T1 as its only trump without the Excuse (R-DEAL-4)."""
    for s in range(MAX_SEATS):
        wi[W_TW + s] = 0
    for c in range(22):
        loc = row[c]
        if 0 <= loc < MAX_SEATS:
            wi[W_TW + loc] |= np.int64(1) << c
    for s in range(MAX_SEATS):
        if cons[C_PSEC_ON + s]:
            dealt = (wi[W_TW + s] | cons[C_PSEC_ADD + s]) & ~cons[C_PSEC_DEL + s]
            if dealt == 2:
                return False
    return True


@njit(cache=True, nogil=True, _nrt=False)
def sample_worlds(cons, st, out, wf, wi):
    """Draw ``out.shape[0]`` worlds, uniformly among those that agree with ``cons``.

    Parameters
    ----------
    cons : int64[C_LEN]
        From :func:`derive`.
    st : uint64
        splitmix64 state (``tarotsim._kernels._rng``), e.g. the deal's bots stream.
    out : int8[n_worlds, 78]
        Output: the location of every card (seat 0..4, ``LOC_PILE``, or -1 played).
    wf, wi : float64[WF_LEN], int64[WI_LEN]
        Workspace (:func:`new_workspace`).

    Returns
    -------
    (status, st) : (int64, uint64)
        ``OK`` or an ``ERR_*`` code; the new state.
    """
    if cons[C_STATUS] != OK:
        return cons[C_STATUS], st
    status, total = _prepare(cons, wf, wi)
    if status != OK:
        return status, st
    check = False
    for s in range(MAX_SEATS):
        if cons[C_PSEC_ON + s]:
            check = True
    for w in range(out.shape[0]):
        row = out[w]
        tries = 0
        while True:
            st = _draw_one(wf, wi, total, st, row)
            if not check or _petit_sec_free(cons, wi, row):
                break
            tries += 1
            if tries >= MAX_REJECT:
                return ERR_REJECT, st
    return OK, st


@njit(cache=True, nogil=True, _nrt=False)
def count_worlds(cons, wf, wi):
    """Count the worlds that the constraints allow.

    ``(status, count)``: the number of worlds the location sets of ``cons`` allow (float64;
    the petit-sec rule, enforced by rejection when sampling, is not applied here)."""
    if cons[C_STATUS] != OK:
        return cons[C_STATUS], 0.0
    status, total = _prepare(cons, wf, wi)
    if status != OK:
        return status, 0.0
    for k in range(wi[W_K]):
        for i in range(2, wi[W_CL_M + k] + 1):
            total *= i
    return OK, total


@njit(cache=True, nogil=True, _nrt=False)
def world_masks(row, ht, hs):
    """The hands of one world as masks.

    Hands of one world as masks: ``ht[l]``, ``hs[l]`` (int64[N_LOC]) the trump and suit words
    of location ``l`` (seats, then the pile) from a row of :func:`sample_worlds`."""
    for l in range(N_LOC):
        ht[l] = 0
        hs[l] = 0
    for c in range(78):
        loc = row[c]
        if loc >= 0:
            if c < 22:
                ht[loc] |= np.int64(1) << c
            else:
                hs[loc] |= np.int64(1) << (c - 22)
