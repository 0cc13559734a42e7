"""The search bot's bid, call, écart, poignée and chelem, inside the deal kernel (private).

A ``pimc`` seat with ``bid_search`` on (``bots/pimc.py``) makes these decisions by estimating
each choice over sampled deals, as its card search (``search.py``) does for cards:

1. its knowledge is what the seat may see (its hand, the public view; the chien once shown, its
   own écart), and ``bid_worlds`` (bids, call) or ``ecart_worlds`` (écart, poignée, chelem)
   deals of the cards it cannot see are drawn uniformly among those that agree with it, from the
   deal's bots stream (``worlds.derive``, ``worlds.sample_worlds``): the bids said so far show
   nothing certain about the hands, so they do not weigh on the draw;
2. in every world, every choice is played out from the same rollout stream (common random
   numbers: the choices are compared on the same cards and the same later draws);
3. the choice with the best total score for the seat wins; ties go to the first choice listed,
   which is the heuristic's (passing, or the lower contract, for a bid).

What each choice is played out with:

* a bid (R-BID-2: passing, or each contract above the highest bid so far): the rest of the
  auction by the other seats' own bidders (their kinds and parameters, as the deal has them; a
  policy set's seat and a search seat bid as the heuristic from their thresholds), then the
  deal from the auction's end with every seat playing the rollout ``policy`` (the call, the
  chien and écart, the chelem, the cards: the bots build's own steps, handed to
  :func:`make_bid_search`);
* a call (table 5, R-CALL-1): each card the taker may call, then the deal from the chien on;
* an écart (R-CHIEN-2): a shortlist of ``ecart_candidates`` écarts (:func:`_shortlist`: the
  heuristic's first, then voids of the suits it may empty with its face cards banked or its
  short suits shortened), each laid in every world (``search.set_up_world`` sets up the
  position after it), then the chelem and the cards;
* a chelem announced or not (R-SLAM-1), then the cards (the taker leads trick 1 when it is);
* a poignée level, none included (R-POIG-1, R-POIG-3), shown before its first card (R-POIG-2),
  that card by the rollout policy, then the deal.

No recursion: every rollout runs the steps the search is built on (:func:`make_bid_search`),
the bots build's (``tarotsim._builds.deal.BOTS_PARTS``), which know random, greedy and heuristic
only. Table 2 (R-VAR-TWO) is not searched: there the bot decides as the heuristic does. The
build of the deal kernel that makes these decisions (``play.make_play`` with the card search as
its card dispatch and :attr:`BidSearch.decisions` as its ``DECIDE``) and its batch kernels are in
``tarotsim/_builds/bid_search.py``, compiled only when a seat has ``bid_search`` on: the bots never
import the builds.

Scratch: the card search's (``search.PW_*``: a rollout's buffer and log, the sampler's
workspace, the worlds, the rollout seats), which no two decisions use at once, then this
module's (``BS_*``, :data:`BID_LEN` int64) after it, in that build's buffer
(``buf[BUF_LEN + PIMC_LEN:]``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from tarotsim._kernels._bits import popcount, tzcnt
from tarotsim._kernels._rng import next_u64
from tarotsim._kernels.layout import (DECL_CHELEM, L_CARDS, L_CONTRACT,
                                      L_LEN, L_SCORES, L_SLAM_ANNOUNCED, L_TAKER, MAX_SEATS,
                                      N_BOT_PARAMS, PUB_BIDS, PUB_CALLED, PUB_CHIEN_S, PUB_CHIEN_T, PUB_CONTRACT,
                                      PUB_DEALER, PUB_ECART_T, PUB_H_CARDS, PUB_H_LEADER, PUB_HIGHEST, PUB_LEN,
                                      PUB_SLAM, PUB_TAKER, PUB_TRICK_CARDS, U_LEN)
from tarotsim._kernels.masks import SW_KINGS, SW_SUITS, card_bits
from tarotsim._kernels.play import SearchDecisions, build_name
from tarotsim._kernels.steps import (add_to_trick, declare, new_bots_view, new_deal, open_trick, playable,
                                     poignee_levels, set_called, set_sides, show_poignee)
from tarotsim._kernels.steps import seating
from tarotsim._kernels.workspace import B_MISERES, B_PUB, B_USER, BUF_LEN, WS_HS, WS_HT, WS_LEN, WS_NEXT, WS_TAKER
from tarotsim._kernels.worlds import (C_LEN, K_CALLED, K_CHIEN_S, K_CHIEN_T, K_CONTRACT, K_DEALER, K_HAND_S,
                                      K_HAND_T, K_LEN, K_SEAT, K_STAGE, K_TAKER, LOC_PILE, OK, STAGE_AUCTION,
                                      STAGE_ECART, WF_LEN, WI_LEN, derive, sample_worlds)
from tarotsim.rules import RV_N_ACTIVE, RV_N_SEATS, RV_TABLE, TABLE_2, TABLE_5


from . import greedy, heuristic, pimc, random
from ._common import CARD_HP
from .dispatch import bot_bid, bot_call, bot_card_bits, bot_chelem, bot_ecart, bot_poignee
from .heuristic import heuristic_bid, heuristic_call, heuristic_chelem, heuristic_ecart, heuristic_poignee
from .pimc import MAX_ECARTS, MAX_WORLDS, P_BID_SEARCH, P_BID_WORLDS, P_ECART_CANDIDATES, P_ECART_WORLDS, P_POLICY
from .search import (PILES_LEN, PIMC_LEN, PW_BUF, PW_CONS, PW_KINDS, PW_KNOW, PW_LOG, PW_PARAMS, PW_PILES, PW_WF,
                     PW_WI, PW_WORLDS, PIMC, POLICY_MAX, ROLLOUT_PARAMS, seat_knowledge, set_up_world, own_ecart)

#: the kinds that bid as they do in the auction's rollouts (a policy set's or a learned seat bids as the heuristic)
OWN_BIDDERS = (random.CODE, greedy.CODE, heuristic.CODE, pimc.CODE)
HEURISTIC = heuristic.CODE


#: Most choices one decision compares (the écart shortlist is the longest).
MAX_CHOICES = MAX_ECARTS

# --- this module's scratch, int64 offsets in ``buf[BUF_LEN + PIMC_LEN:]`` ---------------------------
BS_AKINDS = 0                                   # the rest of the auction: each seat's bidder
BS_APARAMS = BS_AKINDS + MAX_SEATS              # ... and its parameters (float64 bits)
BS_SUM = BS_APARAMS + MAX_SEATS * N_BOT_PARAMS  # total score per choice
BS_CHOICE_T = BS_SUM + MAX_CHOICES              # the écarts of the shortlist (trump word, suit word)
BS_CHOICE_S = BS_CHOICE_T + MAX_CHOICES
BS_ROW = BS_CHOICE_S + MAX_CHOICES              # int8[78]: a world with an écart laid (10 int64)
BS_PUB = BS_ROW + 10                            # the public view with that écart's shown trumps
BS_STATS = BS_PUB + PUB_LEN                     # counters (benchmarks): per decision kind, searched, rollouts
#: decision kinds of the counters (``BS_STATS + 2 * kind``: decisions searched, ``+ 1``: rollouts)
STAT_BID, STAT_CALL, STAT_ECART, STAT_CHELEM, STAT_POIGNEE = range(5)
N_STATS = 10
BID_LEN = BS_STATS + N_STATS


@njit(inline="always")
def _scratch(buf):
    """The card search's scratch and this module's, in the pimc build's buffer."""
    return buf[BUF_LEN:BUF_LEN + PIMC_LEN], buf[BUF_LEN + PIMC_LEN:BUF_LEN + PIMC_LEN + BID_LEN]


@njit(inline="always")
def _searching(kind, params, seat, rv):
    """Whether the seat decides by search: a ``pimc`` seat with ``bid_search`` on, not at table 2."""
    return kind == PIMC and params[seat, P_BID_SEARCH] != 0 and rv[RV_TABLE] != TABLE_2


@njit(inline="always")
def _worlds_of(params, seat, which):
    """Worlds per decision from the seat's parameter ``which`` (``bid_worlds``, ``ecart_worlds``)."""
    return min(max(np.int64(params[seat, which]), 1), MAX_WORLDS)


# ---------------------------------------------------------------------------------------------
# the seats of a rollout

@njit(inline="always")
def _rollout_seats(params, seat, wsp):
    """Seat every rollout seat with the rollout policy and its defaults.

    Every seat of a rollout plays the rollout policy (``policy``) with its default
    parameters: ``(kinds, params)`` in the card search's scratch."""
    policy = min(max(np.int64(params[seat, P_POLICY]), 0), POLICY_MAX)
    kinds = wsp[PW_KINDS:PW_KINDS + MAX_SEATS]
    rparams = wsp[PW_PARAMS:PW_PARAMS + MAX_SEATS * N_BOT_PARAMS].view(np.float64).reshape((MAX_SEATS, N_BOT_PARAMS))
    for s in range(MAX_SEATS):
        kinds[s] = policy
        for i in range(N_BOT_PARAMS):
            rparams[s, i] = ROLLOUT_PARAMS[policy, i]
    return kinds, rparams


@njit(inline="always")
def _auction_seats(rv, kinds, params, bsp):
    """The other seats' own bidders for the rest of the auction.

    The other seats' own bidders for the rest of the auction: ``(kinds, params)``. Random,
    greedy and heuristic seats bid as they do; a ``pimc`` seat (searching or not) bids as the
    heuristic from its thresholds (its first parameters); a policy set's seat as the heuristic
    with its defaults (its functions are not called in a rollout)."""
    akinds = bsp[BS_AKINDS:BS_AKINDS + MAX_SEATS]
    aparams = bsp[BS_APARAMS:BS_APARAMS + MAX_SEATS * N_BOT_PARAMS].view(np.float64).reshape(
        (MAX_SEATS, N_BOT_PARAMS))
    for s in range(rv[RV_N_SEATS]):
        k = kinds[s]
        own = k in OWN_BIDDERS
        akinds[s] = k if own else HEURISTIC
        for i in range(N_BOT_PARAMS):
            aparams[s, i] = params[s, i] if own else ROLLOUT_PARAMS[HEURISTIC, i]
    return akinds, aparams


# ---------------------------------------------------------------------------------------------
# knowledge and worlds

@njit(inline="always")
def _know_before_play(seat, stage, ht, hs, pub, know):
    """Write the seat's knowledge before the first card.

    The seat's knowledge (``worlds.K_*``) before the first card: its hand (at the écart, with
    the shown chien, which the sampler places in it: R-CHIEN-1), the dealer, and once the auction
    is over the taker, the contract and, at table 5, the called card."""
    for i in range(K_LEN):
        know[i] = 0
    know[K_SEAT] = seat
    know[K_DEALER] = pub[PUB_DEALER]
    know[K_STAGE] = stage
    know[K_TAKER] = pub[PUB_TAKER]
    know[K_CONTRACT] = pub[PUB_CONTRACT]
    know[K_CALLED] = pub[PUB_CALLED]
    know[K_HAND_T] = ht
    know[K_HAND_S] = hs
    if stage == STAGE_ECART:
        know[K_CHIEN_T] = pub[PUB_CHIEN_T]
        know[K_CHIEN_S] = pub[PUB_CHIEN_S]


@njit(inline="always")
def _draw_worlds(rv, n_worlds, wsp, st):
    """``n_worlds`` worlds of the knowledge in ``wsp[PW_KNOW:]``: ``(status, worlds int8[n, 78], st)``."""
    know = wsp[PW_KNOW:PW_KNOW + K_LEN]
    cons = wsp[PW_CONS:PW_CONS + C_LEN]
    wi = wsp[PW_WI:PW_WI + WI_LEN]
    wf = wsp[PW_WF:PW_WF + WF_LEN].view(np.float64)
    worlds = wsp[PW_WORLDS:PW_WF].view(np.int8)[:n_worlds * 78].reshape((n_worlds, 78))
    status = derive(rv, know, cons)
    if status == OK:
        status, st = sample_worlds(cons, st, worlds, wf, wi)
    return status, worlds, st


# ---------------------------------------------------------------------------------------------
# a world's deal, from the deal to the end of the auction

@njit(inline="always")
def deal_world(rv, pub, row, ws, spub, slog, smis):
    """Set a world's deal up as the deal kernel holds it before the auction's end.

    The deal of world ``row`` before the auction's end, as the deal kernel holds it: seating,
    the facts' defaults, the hands (the world's seats) and the bids said so far (``pub``).
    Returns ``(first seat, chien trump word, chien suit word)``: the chien is the world's hidden
    pile."""
    dealer = pub[PUB_DEALER]
    _, dummy, first = seating(rv, dealer, ws)
    new_deal(rv, dealer, np.int64(-1), dealer, dummy, ws, spub, slog, smis)
    new_bots_view(rv, spub)
    chien_t = np.int64(0)
    chien_s = np.int64(0)
    for c in range(78):
        loc = row[c]
        bt, bs = card_bits(c)
        if loc == LOC_PILE:
            chien_t |= bt
            chien_s |= bs
        elif loc >= 0:
            ws[WS_HT + loc] |= bt
            ws[WS_HS + loc] |= bs
    for s in range(MAX_SEATS):
        spub[PUB_BIDS + s] = pub[PUB_BIDS + s]
    spub[PUB_HIGHEST] = pub[PUB_HIGHEST]
    return first, chien_t, chien_s


@njit(inline="always")
def _set_taker(taker, contract, ws, spub, slog):
    """The auction's result, as the deal kernel's ``_auction`` records it (R-BID-3)."""
    ws[WS_TAKER] = taker
    slog[L_TAKER] = taker
    slog[L_CONTRACT] = contract
    spub[PUB_TAKER] = taker
    spub[PUB_CONTRACT] = contract


@njit(inline="always")
def _finish_auction(rv, seat, bid, akinds, aparams, sub, ws, spub, slog, rst):
    """Finish the auction after the seat's bid with the other seats' own bidders.

    The rest of the auction after ``seat`` says ``bid`` (R-BID-2): every seat that has not
    spoken, in playing order, passes or bids above the highest bid so far with its own bidder;
    the highest bidder takes (R-BID-3). Returns ``(taker, contract, rst)``, taker -1 when all
    passed."""
    highest = spub[PUB_HIGHEST]
    taker = np.int64(-1)
    spoken = 0
    for s in range(rv[RV_N_SEATS]):
        b = spub[PUB_BIDS + s]
        if b != -2:
            spoken += 1
            if b >= 0 and b == highest:
                taker = s
    spub[PUB_BIDS + seat] = bid
    if bid >= 0:
        highest = bid
        taker = seat
        spub[PUB_HIGHEST] = bid
    s = seat
    for _ in range(rv[RV_N_ACTIVE] - spoken - 1):
        s = ws[WS_NEXT + s]
        b, rst = bot_bid(akinds[s], aparams, None, sub, s, ws[WS_HT + s], ws[WS_HS + s], spub, highest, rst)
        spub[PUB_BIDS + s] = b
        if b >= 0:
            highest = b
            taker = s
            spub[PUB_HIGHEST] = b
    if taker >= 0:
        _set_taker(taker, highest, ws, spub, slog)
    return taker, highest, rst


# ---------------------------------------------------------------------------------------------
# a world's deal, from the auction's end on (a build's own steps)

def make_from_auction(parts, tag):
    """Build the deal from the auction's end on one build's steps.

    The deal from the auction's end, played with the steps of one build of the deal kernel
    (``parts``: what ``play.make_play`` puts there) in the order of its ``_play``:
    ``(from_chien, from_auction)``, njit functions of ``(rv, first, taker, contract, chien_t,
    chien_s, kinds, params, pol, buf, log, bst)`` over a deal buffer set up to the auction's end
    (the hands in its workspace, the taker recorded) that play it to the score:

    * ``from_chien``: the chien and écart (R-CHIEN-1, R-CHIEN-2, R-CHIEN-3, R-CHIEN-4), the sides (R-CALL-2), the
      chelem (R-SLAM-1), the tricks and the score (``play_rest``, out of line);
    * ``from_auction``: the call at table 5 (R-CALL-1), then ``from_chien``.

    ``tag`` names the build (``play.build_name``).
    """
    call_step = parts["call"]
    chien_step = parts["chien_and_ecart"]
    chelem_step = parts["announce_chelem"]
    play_rest = parts["play_rest"]

    # out of line: one compiled body for every search that calls it
    @njit(nogil=True, _nrt=False)
    def from_chien(rv, first, taker, contract, chien_t, chien_s, kinds, params, pol, buf, log, bst):
        ws = buf[0:WS_LEN]
        pub = buf[B_PUB:B_PUB + PUB_LEN]
        ub = buf[B_USER:B_USER + U_LEN]
        tracing = np.bool_(False)  # not a literal: the build's own signature
        bst = chien_step(rv, taker, contract, chien_t, chien_s, kinds, params, pol, ub, ws, pub, log, buf, tracing,
                         bst)
        set_sides(rv, taker, ws, log)
        leader, bst = chelem_step(rv, first, kinds, params, pol, ub, ws, pub, log, buf, tracing, bst)
        tr = np.int64(0)
        trick = open_trick(tr, leader, log, pub)
        play_rest(rv, kinds, params, pol, ub, buf, log, tracing, tr, tr, trick, bst)

    @njit(inline="always")
    def from_auction(rv, first, taker, contract, chien_t, chien_s, kinds, params, pol, buf, log, bst):
        if rv[RV_TABLE] == TABLE_5:
            bst = call_step(rv, taker, kinds, params, pol, buf[B_USER:B_USER + U_LEN], buf[0:WS_LEN],
                            buf[B_PUB:B_PUB + PUB_LEN], log, buf, np.bool_(False), bst)
        # plain int64s: a literal taker or contract would compile ``from_chien`` once more
        from_chien(rv, first, np.int64(taker), np.int64(contract), chien_t, chien_s, kinds, params, pol, buf, log,
                   bst)

    return build_name(from_chien, tag), from_auction


# out of line: one compiled body of the deal kernel's steps it replays for the three searches in the play
@njit(nogil=True, _nrt=False)
def _world_at(rv, seat, pub, row, pos, ws, spub, smis, slog):
    """Set a world up before the seat's card, as the deal kernel holds it (out of line).

    ``search.set_up_world``: the deal of world ``row`` as the deal kernel holds it before the
    seat's card at position ``pos`` of the trick being played; the trick state after the cards
    already in it."""
    return set_up_world(rv, seat, pub, row, pos, ws, spub, smis, slog)


@njit(inline="always")
def _best(total, n):
    """The first choice with the highest total."""
    best = 0
    for i in range(1, n):
        if total[i] > total[best]:
            best = i
    return best


@njit(inline="always")
def _rollout_buffers(wsp):
    """A rollout's deal buffer and its parts (workspace, public view, misères, user scratch) and log."""
    sbuf = wsp[PW_BUF:PW_BUF + BUF_LEN]
    return (sbuf, sbuf[0:WS_LEN], sbuf[B_PUB:B_PUB + PUB_LEN], sbuf[B_MISERES:B_MISERES + MAX_SEATS],
            sbuf[B_USER:B_USER + U_LEN], wsp[PW_LOG:PW_LOG + L_LEN])


@njit(inline="always")
def _count(bsp, which, n_worlds, n_choices):
    bsp[BS_STATS + 2 * which] += 1
    bsp[BS_STATS + 2 * which + 1] += n_worlds * n_choices


# ---------------------------------------------------------------------------------------------
# the bid and the call


# ---------------------------------------------------------------------------------------------
# the call's choices, the écart's shortlist, the chelem's and poignée's worlds

@njit(inline="always")
def _call_choices(params, seat, ht, hs, pub, legal_s, bsp):
    """The cards the taker may call, the heuristic's first.

    The cards the taker may call (R-CALL-1) as suit-word bits at ``bsp[BS_CHOICE_S:]``, the
    heuristic's first; returns their number."""
    choice = bsp[BS_CHOICE_S:BS_CHOICE_S + MAX_CHOICES]
    h = heuristic_call(params, seat, ht, hs, pub, legal_s)
    choice[0] = h
    n = 1
    rem = legal_s & ~(np.int64(1) << h)
    while rem:
        choice[n] = tzcnt(rem)
        rem &= rem - 1
        n += 1
    return n


@njit(inline="always")
def _fill(hs, normal, es, k, bank):
    """Fill an écart up one card at a time, banking points or shortening suits.

    ``es`` (suit word) with ``k`` more cards of ``normal``, one at a time: with ``bank`` the
    card worth most (its points are the attack's whatever happens, R-COUNT-1; ties: the higher
    rank), else the lowest card of the shortest suit left in the hand ``hs`` (a void comes
    sooner)."""
    for _ in range(k):
        best_b = np.int64(-1)
        best = -(np.int64(1) << 40)
        rem = normal & ~es
        while rem:
            b = tzcnt(rem)
            rem &= rem - 1
            su = b // 14
            r = b - 14 * su
            if bank:
                score = 100 * CARD_HP[22 + b] + r
            else:
                score = -100 * popcount(hs & SW_SUITS[su] & ~es) - r
            if score > best:
                best = score
                best_b = b
        es |= np.int64(1) << best_b
    return es


@njit(inline="always")
def _add_choice(choice, n, es):
    """Append écart ``es`` to the first ``n`` choices unless it is there; returns their number."""
    for i in range(n):
        if choice[i] == es:
            return n
    choice[n] = es
    return n + 1


@njit(inline="always")
def _shortlist(hs, normal, n_ecart, h_s, n_max, bsp):
    """The écarts the search compares, the heuristic's first.

    At most ``n_max`` écarts of ``n_ecart`` suit cards of ``normal`` (R-CHIEN-2: no king,
    trump or Excuse; the caller makes sure ``normal`` holds more than ``n_ecart``), as suit
    words at ``bsp[BS_CHOICE_S:]``: the heuristic's ``h_s`` first; then, for every set of suits
    without a king it may empty within the écart (the smaller sets first, the empty set
    included), those suits and the rest filled by banking points, then by shortening suits
    (:func:`_fill`). Returns their number."""
    choice = bsp[BS_CHOICE_S:BS_CHOICE_S + MAX_CHOICES]
    choice[0] = h_s
    n = 1
    voidable = 0
    for su in range(4):
        m = normal & SW_SUITS[su]
        if m != 0 and (hs & SW_KINGS & SW_SUITS[su]) == 0 and popcount(m) <= n_ecart:
            voidable |= 1 << su
    for size in range(5):
        for suits in range(16):
            if popcount(np.int64(suits)) != size or (suits & ~voidable) != 0:
                continue
            es = np.int64(0)
            for su in range(4):
                if (suits >> su) & 1:
                    es |= normal & SW_SUITS[su]
            k = n_ecart - popcount(es)
            if k < 0:
                continue
            for bank in (True, False):
                if n < n_max:
                    n = _add_choice(choice, n, _fill(hs, normal, es, k, bank))
    return n


@njit(nogil=True, _nrt=False)
def _play_worlds(rv, seat, ht, hs, pub, log, pos, n_worlds, wsp, st):
    """Draw worlds of the seat's knowledge in the play.

    The seat's knowledge in the play (``search.seat_knowledge``: its écart too when it made one, the
    cards of the trick so far) and ``n_worlds`` worlds of it: ``(status, worlds, st)``."""
    et, es = own_ecart(seat, pub, log)
    seat_knowledge(rv, seat, ht, hs, pub, et, es, pos, wsp[PW_PILES:PW_PILES + PILES_LEN], wsp[PW_KNOW:PW_KNOW + K_LEN])
    return _draw_worlds(rv, n_worlds, wsp, st)


@njit(inline="always")
def _first_card(rv, seat, pos, trick, rkinds, rparams, sub, ws, spub, slog, rst):
    """Play the seat's first card by the rollout policy, after its declarations.

    The seat's first card, by the rollout policy, after its declarations: played as the deal
    kernel's ``_card_step`` plays it (R-PLAY-3, R-PLAY-4, R-CALL-4). Returns the trick state
    after it and ``rst``."""
    _, fixed, fmask, amask, _, _, _, _, _ = trick
    ht = ws[WS_HT + seat]
    hs = ws[WS_HS + seat]
    lt, ls = playable(rv, ws, ht, hs, pos, fixed, fmask, amask, True)
    c, bt, bs, rst = bot_card_bits(rkinds[seat], rparams, None, sub, seat, ht, hs, spub, lt, ls, fixed, fmask, amask,
                                   pos, rst)
    ws[WS_HT + seat] = ht ^ bt
    ws[WS_HS + seat] = hs ^ bs
    slog[L_CARDS + pos] = c
    spub[PUB_TRICK_CARDS + pos] = c
    if pos == 0:
        spub[PUB_H_LEADER] = seat
    spub[PUB_H_CARDS + pos] = c
    return add_to_trick(trick, pos, c, bt, bs, seat, ws[WS_NEXT + seat]), rst


# ---------------------------------------------------------------------------------------------
# the searches, built on the steps of the build their worlds are played with (:func:`make_bid_search`)

def _make_bid_and_call(from_auction, from_chien, tag):
    """The bid and the call searches, their worlds played from the auction's end with ``from_auction``, ``from_chien``."""

    @njit(nogil=True, _nrt=False)
    def search_bid(rv, kinds, params, seat, ht, hs, pub, highest, st, wsp, bsp):
        """The bid of a searching seat.

        The bid of a searching seat: ``(bid, st)``, -1 (pass) or a contract above ``highest``
        (R-BID-2), the one with the best total score over the worlds (ties: the lower one).

        Parameters
        ----------
        rv : int64[RV_LEN]
            The rules vector.
        kinds : int64[n_seats]
            Every seat's bot kind (the other seats bid the rest of the auction with their own).
        params : float64[n_seats, N_BOT_PARAMS]
            Every seat's parameters; row ``seat``: ``bots/pimc.py``'s.
        seat, ht, hs, pub, highest :
            The seat, its hand (trump word, suit word), the public view and the highest bid so far
            (-1: none), as every bot gets them.
        st : uint64
            The bots stream: the worlds, then one rollout stream per world, are drawn from it.
        wsp, bsp : int64[PIMC_LEN], int64[BID_LEN]
            The card search's scratch and this module's.
        """
        n = 4 - highest  # passing, then each contract above the highest bid (R-BID-2)
        if n == 1:
            return np.int64(-1), st
        n_worlds = _worlds_of(params, seat, P_BID_WORLDS)
        _know_before_play(seat, STAGE_AUCTION, ht, hs, pub, wsp[PW_KNOW:PW_KNOW + K_LEN])
        status, worlds, st = _draw_worlds(rv, n_worlds, wsp, st)
        if status != OK:  # never with true information: bid as the heuristic from its thresholds then
            return heuristic_bid(params, seat, ht, hs, pub, highest), st
        akinds, aparams = _auction_seats(rv, kinds, params, bsp)
        rkinds, rparams = _rollout_seats(params, seat, wsp)
        sbuf, ws, spub, smis, sub, slog = _rollout_buffers(wsp)
        total = bsp[BS_SUM:BS_SUM + n]
        for i in range(n):
            total[i] = 0
        for w in range(n_worlds):
            rst, st = next_u64(st)
            for i in range(n):
                bid = highest + i if i > 0 else np.int64(-1)
                first, chien_t, chien_s = deal_world(rv, pub, worlds[w], ws, spub, slog, smis)
                taker, contract, r = _finish_auction(rv, seat, bid, akinds, aparams, sub, ws, spub, slog, rst)
                if taker >= 0:  # else all passed: the deal is thrown in, 0 (R-BID-3)
                    from_auction(rv, first, taker, contract, chien_t, chien_s, rkinds, rparams, None, sbuf, slog, r)
                    total[i] += slog[L_SCORES + seat]
        _count(bsp, STAT_BID, n_worlds, n)
        best = _best(total, n)
        return (highest + best if best > 0 else np.int64(-1)), st


    @njit(nogil=True, _nrt=False)
    def search_call(rv, kinds, params, seat, ht, hs, pub, legal_s, st, wsp, bsp):
        """The call of a searching taker (table 5).

        The call of a searching taker (table 5, R-CALL-1): ``(suit-word bit of the card, st)``,
        among ``legal_s``, the best total score over the worlds (ties: the heuristic's call).
        Arguments as :func:`search_bid`'s (``legal_s``: the cards it may call, suit word)."""
        n = _call_choices(params, seat, ht, hs, pub, legal_s, bsp)
        choice = bsp[BS_CHOICE_S:BS_CHOICE_S + n]
        if n == 1:
            return choice[0], st
        n_worlds = _worlds_of(params, seat, P_BID_WORLDS)
        _know_before_play(seat, STAGE_AUCTION, ht, hs, pub, wsp[PW_KNOW:PW_KNOW + K_LEN])
        status, worlds, st = _draw_worlds(rv, n_worlds, wsp, st)
        if status != OK:
            return choice[0], st
        rkinds, rparams = _rollout_seats(params, seat, wsp)
        sbuf, ws, spub, smis, sub, slog = _rollout_buffers(wsp)
        total = bsp[BS_SUM:BS_SUM + n]
        for i in range(n):
            total[i] = 0
        contract = pub[PUB_CONTRACT]
        for w in range(n_worlds):
            rst, st = next_u64(st)
            for i in range(n):
                first, chien_t, chien_s = deal_world(rv, pub, worlds[w], ws, spub, slog, smis)
                _set_taker(seat, contract, ws, spub, slog)
                set_called(22 + choice[i], ws, slog, spub)
                from_chien(rv, first, seat, contract, chien_t, chien_s, rkinds, rparams, None, sbuf, slog, rst)
                total[i] += slog[L_SCORES + seat]
        _count(bsp, STAT_CALL, n_worlds, n)
        return choice[_best(total, n)], st

    return build_name(search_bid, tag), build_name(search_call, tag)


def _make_ecart(rollout, chelem_step, tag):
    """The écart search, its worlds played with the chelem step ``chelem_step`` and the tricks ``rollout``."""

    @njit(nogil=True, _nrt=False)
    def search_ecart(rv, kinds, params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos, st, wsp, bsp):
        """The écart of a searching taker.

        The écart of a searching taker (prise or garde, R-CHIEN-1, R-CHIEN-2): ``(écart trump
        word, écart suit word, st)``, its card ids written at ``out[out_pos:]``, the shortlist's
        écart with the best total score over the worlds (ties: the heuristic's). When the suit cards
        it may lay (``normal``: no king) are too few to choose among, R-CHIEN-2 decides and the
        heuristic's écart is laid (the lowest trumps). ``ht``, ``hs``: the hand with the chien;
        other arguments as :func:`search_bid`'s and ``bots.dispatch.bot_ecart``'s."""
        h_t, h_s = heuristic_ecart(params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos)
        if popcount(normal) <= n_ecart:
            return h_t, h_s, st
        n_max = min(max(np.int64(params[seat, P_ECART_CANDIDATES]), 1), MAX_CHOICES)
        n = _shortlist(hs, normal, n_ecart, h_s, n_max, bsp)
        if n == 1:
            return h_t, h_s, st
        choice = bsp[BS_CHOICE_S:BS_CHOICE_S + n]
        n_worlds = _worlds_of(params, seat, P_ECART_WORLDS)
        _know_before_play(seat, STAGE_ECART, ht, hs, pub, wsp[PW_KNOW:PW_KNOW + K_LEN])
        status, worlds, st = _draw_worlds(rv, n_worlds, wsp, st)
        if status != OK:
            return h_t, h_s, st
        rkinds, rparams = _rollout_seats(params, seat, wsp)
        sbuf, ws, spub, smis, sub, slog = _rollout_buffers(wsp)
        total = bsp[BS_SUM:BS_SUM + n]
        for i in range(n):
            total[i] = 0
        pub0 = bsp[BS_PUB:BS_PUB + PUB_LEN]   # the view after the écart: no trump shown in it
        for i in range(PUB_LEN):
            pub0[i] = pub[i]
        pub0[PUB_ECART_T] = 0
        row = bsp[BS_ROW:BS_PUB].view(np.int8)[:78].reshape((1, 78))[0]  # a row, as a world's
        tracing = np.bool_(False)
        tr = np.int64(0)
        for w in range(n_worlds):
            rst, st = next_u64(st)
            for i in range(n):
                for c in range(78):
                    row[c] = worlds[w, c]
                rem = choice[i]
                while rem:  # the écart joins the attack's pile (R-CHIEN-1)
                    row[22 + tzcnt(rem)] = LOC_PILE
                    rem &= rem - 1
                _world_at(rv, seat, pub0, row, tr, ws, spub, smis, slog)
                leader, r = chelem_step(rv, ws[WS_NEXT + pub[PUB_DEALER]], rkinds, rparams, None, sub, ws, spub, slog,
                                         sbuf, tracing, rst)
                trick = open_trick(tr, leader, slog, spub)
                rollout(rv, rkinds, rparams, None, sub, sbuf, slog, tracing, tr, tr, trick, r)
                total[i] += slog[L_SCORES + seat]
        _count(bsp, STAT_ECART, n_worlds, n)
        best = _best(total, n)
        if best == 0:
            return h_t, h_s, st
        es = choice[best]
        k = 0
        rem = es
        while rem:
            out[out_pos + k] = 22 + tzcnt(rem)
            rem &= rem - 1
            k += 1
        return np.int64(0), es, st

    return build_name(search_ecart, tag)


def _make_chelem_and_poignee(rollout, tag):
    """The chelem and poignée searches, their worlds played to the end with ``rollout`` (a build's ``play_rest``)."""

    @njit(nogil=True, _nrt=False)
    def search_chelem(rv, kinds, params, seat, ht, hs, pub, log, st, wsp, bsp):
        """Whether a searching taker announces a chelem.

        Announce a chelem? (the taker, after the call and the écart, R-SLAM-1): ``(0 or 1, st)``,
        the better total score over the worlds (ties: the heuristic's answer); announced, the taker
        leads trick 1 (R-PLAY-1). ``log``: the deal's, for its own écart."""
        h = heuristic_chelem(params, seat, ht, hs, pub)
        n_worlds = _worlds_of(params, seat, P_ECART_WORLDS)
        status, worlds, st = _play_worlds(rv, seat, ht, hs, pub, log, np.int64(0), n_worlds, wsp, st)
        if status != OK:
            return h, st
        rkinds, rparams = _rollout_seats(params, seat, wsp)
        sbuf, ws, spub, smis, sub, slog = _rollout_buffers(wsp)
        total = bsp[BS_SUM:BS_SUM + 2]
        total[0] = 0
        total[1] = 0
        tracing = np.bool_(False)
        tr = np.int64(0)
        for w in range(n_worlds):
            rst, st = next_u64(st)
            for i in range(2):
                _world_at(rv, seat, pub, worlds[w], tr, ws, spub, smis, slog)
                leader = ws[WS_NEXT + pub[PUB_DEALER]]
                if (h if i == 0 else 1 - h) != 0:  # as the deal kernel's ``_announce_chelem``
                    slog[L_SLAM_ANNOUNCED] = 1
                    declare(slog, ws, seat, DECL_CHELEM, 0, 0)
                    spub[PUB_SLAM] = 1
                    leader = seat
                trick = open_trick(tr, leader, slog, spub)
                rollout(rv, rkinds, rparams, None, sub, sbuf, slog, tracing, tr, tr, trick, rst)
                total[i] += slog[L_SCORES + seat]
        _count(bsp, STAT_CHELEM, n_worlds, 2)
        return (h if total[1] <= total[0] else 1 - h), st


    @njit(nogil=True, _nrt=False)
    def search_poignee(rv, kinds, params, seat, ht, hs, pub, n_levels, log, pos, st, wsp, bsp):
        """The poignée a searching seat shows at its first turn.

        The poignée of a searching seat at its first turn, before its card (R-POIG-2): ``(level,
        st)``, 0 none or 1..``n_levels`` (R-POIG-1, R-POIG-3), the best total score over the worlds
        (ties: the heuristic's). ``pos``: the cards already in trick 1; ``log``: the deal's, for the
        taker's own écart."""
        h = heuristic_poignee(params, seat, ht, hs, pub, n_levels)
        if n_levels == 0:
            return h, st
        n = n_levels + 1
        choice = bsp[BS_CHOICE_S:BS_CHOICE_S + n]
        choice[0] = h
        k = 1
        for lvl in range(n):
            if lvl != h:
                choice[k] = lvl
                k += 1
        n_worlds = _worlds_of(params, seat, P_ECART_WORLDS)
        status, worlds, st = _play_worlds(rv, seat, ht, hs, pub, log, pos, n_worlds, wsp, st)
        if status != OK:
            return h, st
        rkinds, rparams = _rollout_seats(params, seat, wsp)
        sbuf, ws, spub, smis, sub, slog = _rollout_buffers(wsp)
        total = bsp[BS_SUM:BS_SUM + n]
        for i in range(n):
            total[i] = 0
        tracing = np.bool_(False)
        tr = np.int64(0)
        for w in range(n_worlds):
            rst, st = next_u64(st)
            for i in range(n):
                trick = _world_at(rv, seat, pub, worlds[w], pos, ws, spub, smis, slog)
                if choice[i] > 0:
                    _, avail = poignee_levels(rv, seat, ht, ws)
                    show_poignee(rv, seat, choice[i], avail, ws, spub, slog)
                trick, r = _first_card(rv, seat, pos, trick, rkinds, rparams, sub, ws, spub, slog, rst)
                rollout(rv, rkinds, rparams, None, sub, sbuf, slog, tracing, tr, pos + 1, trick, r)
                total[i] += slog[L_SCORES + seat]
        _count(bsp, STAT_POIGNEE, n_worlds, n)
        return choice[_best(total, n)], st

    return build_name(search_chelem, tag), build_name(search_poignee, tag)


I64 = np.int64  # every scalar a plain int64: a literal argument would build the decision once more


def _make_decisions(search_bid, search_call, search_ecart, search_chelem, search_poignee, tag):
    """The bid search build's decisions (``play.SearchDecisions``): the search for a searching seat, the bots' dispatch for any other."""


    @njit(nogil=True, _nrt=False)
    def _ask_bid(kind, params, pol, ub, seat, ht, hs, pub, highest, rv, kinds, buf, log, bst):
        if _searching(kind, params, seat, rv):
            wsp, bsp = _scratch(buf)
            return search_bid(rv, kinds, params, seat, ht, hs, pub, highest, bst, wsp, bsp)
        return bot_bid(kind, params, pol, ub, seat, ht, hs, pub, highest, bst)


    @njit(nogil=True, _nrt=False)
    def _ask_call(kind, params, pol, ub, seat, ht, hs, pub, legal_s, rv, kinds, buf, log, bst):
        if _searching(kind, params, seat, rv):
            wsp, bsp = _scratch(buf)
            return search_call(rv, kinds, params, seat, ht, hs, pub, legal_s, bst, wsp, bsp)
        return bot_call(kind, params, pol, ub, seat, ht, hs, pub, legal_s, bst)


    @njit(nogil=True, _nrt=False)
    def _ask_ecart(kind, params, pol, ub, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos, rv, kinds, buf, log,
                   bst):
        if _searching(kind, params, seat, rv):
            wsp, bsp = _scratch(buf)
            return search_ecart(rv, kinds, params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos, bst, wsp, bsp)
        return bot_ecart(kind, params, pol, ub, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos, bst)


    @njit(nogil=True, _nrt=False)
    def _ask_chelem(kind, params, pol, ub, seat, ht, hs, pub, rv, kinds, buf, log, bst):
        if _searching(kind, params, seat, rv):
            wsp, bsp = _scratch(buf)
            return search_chelem(rv, kinds, params, seat, ht, hs, pub, log, bst, wsp, bsp)
        return bot_chelem(kind, params, pol, ub, seat, ht, hs, pub, bst)


    @njit(nogil=True, _nrt=False)
    def _ask_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_levels, rv, kinds, buf, log, pos, bst):
        if _searching(kind, params, seat, rv):
            wsp, bsp = _scratch(buf)
            return search_poignee(rv, kinds, params, seat, ht, hs, pub, n_levels, log, pos, bst, wsp, bsp)
        return bot_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_levels, bst)


    @njit(inline="always")
    def ask_bid(kind, params, pol, ub, seat, ht, hs, pub, highest, rv, kinds, buf, log, bst):
        return _ask_bid(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(highest), rv, kinds, buf, log,
                        bst)


    @njit(inline="always")
    def ask_call(kind, params, pol, ub, seat, ht, hs, pub, legal_s, rv, kinds, buf, log, bst):
        return _ask_call(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(legal_s), rv, kinds, buf, log,
                         bst)


    @njit(inline="always")
    def ask_ecart(kind, params, pol, ub, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos, rv, kinds, buf, log,
                  bst):
        return _ask_ecart(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(normal), I64(cands),
                          I64(n_ecart), out, I64(out_pos), rv, kinds, buf, log, bst)


    @njit(inline="always")
    def ask_chelem(kind, params, pol, ub, seat, ht, hs, pub, rv, kinds, buf, log, bst):
        return _ask_chelem(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, rv, kinds, buf, log, bst)


    @njit(inline="always")
    def ask_poignee(kind, params, pol, ub, seat, ht, hs, pub, n_levels, rv, kinds, buf, log, pos, bst):
        return _ask_poignee(I64(kind), params, pol, ub, I64(seat), I64(ht), I64(hs), pub, I64(n_levels), rv, kinds, buf,
                            log, I64(pos), bst)

    for ask in (_ask_bid, _ask_call, _ask_ecart, _ask_chelem, _ask_poignee):
        build_name(ask, tag)
    return SearchDecisions(bid=ask_bid, call=ask_call, ecart=ask_ecart, chelem=ask_chelem, poignee=ask_poignee)




def needs_bid_search(kinds, params, rv=None) -> bool:
    """Whether a ``pimc`` seat has ``bid_search`` on, so that a run needs a bid-search build.

    Parameters
    ----------
    kinds : int64[n_seats]
        Bot kind per seat (``bots.BOT_KINDS``).
    params : float64[n_seats, N_BOT_PARAMS] or None
        Bot parameters per seat (row = seat); None: the defaults (off).
    rv : int64[RV_LEN], optional
        The rules vector: at table 2 (R-VAR-TWO) the search is off, so no build of it is needed.
    """
    if params is None or (rv is not None and int(rv[RV_TABLE]) == TABLE_2):
        return False
    return any(int(k) == PIMC and params[s][P_BID_SEARCH] != 0 for s, k in enumerate(kinds))


class BidSearch(NamedTuple):
    """The bid search built on one build's steps (:func:`make_bid_search`).

    ``bid``, ``call``, ``ecart``, ``chelem``, ``poignee``: the searches (njit, out of line:
    ``search_bid(rv, kinds, params, seat, ht, hs, pub, highest, st, wsp, bsp)`` and the others
    as documented there), for the slow path; ``decisions``: the deal kernel's
    ``play.SearchDecisions`` that call them for a searching seat."""

    bid: object
    call: object
    ecart: object
    chelem: object
    poignee: object
    decisions: SearchDecisions


def make_bid_search(parts, tag="bid_search"):
    """Build the bid, call, écart, chelem and poignée searches on the steps of the bots build.

    ``parts``: the inner steps ``play.make_play`` puts in its ``parts`` dict, of the build whose
    seats play the rollouts (the bots build, ``tarotsim._builds.deal.BOTS_PARTS``: random, greedy
    and heuristic only, so no search recurses): ``play_rest`` (out of line), ``call``,
    ``chien_and_ecart`` and ``announce_chelem`` (inlined). The builds make the search once
    (``tarotsim/_builds/bid_search.py``) and hand it the steps, as ``search.make_search`` gets its
    rollout: the bots never import the builds. ``tag`` names the out-of-line closures
    (``play.build_name``). Returns a :class:`BidSearch`.
    """
    from_chien, from_auction = make_from_auction(parts, tag)
    bid, call = _make_bid_and_call(from_auction, from_chien, tag)
    ecart = _make_ecart(parts["play_rest"], parts["announce_chelem"], tag)
    chelem, poignee = _make_chelem_and_poignee(parts["play_rest"], tag)
    return BidSearch(bid, call, ecart, chelem, poignee, _make_decisions(bid, call, ecart, chelem, poignee, tag))
