"""``heuristic``: a club player's rules of thumb (fast path, njit; draws nothing from the bots stream).

Bidding -- a point count of the hand (18-card scale: a hand of h cards counts 18/h of its points):
``oudler`` for the 21 and for the Excuse; ``petit`` for the Petit guarded by ``petit_guard``
trumps, half as much when short (a Petit with few trumps is a liability); ``trump`` per trump and
``major`` more per trump 16-20; ``king`` per king (a queen 0.4, a knight 0.2, a jack 0.1 of it);
``long`` per card beyond four in a suit; ``void`` per void, half per singleton (not a king), with
four trumps or more -- four times that for the contracts without an écart. It bids the highest
contract whose threshold (``prise``, ``garde``, ``garde_sans``, ``garde_contre``, each moved by
``shift3`` at table 3, ``shift5`` at table 5, where a partner helps) the count reaches, when that
beats the bid so far. The weights and thresholds were fitted on forced-contract simulations: the
count is an estimate of the taker's score, zero near ``prise``.
At table 2 (R-VAR-TWO) the count is of what it is handed: its 18 cards in hand and its 6 face-up
pile tops, cards it will play (24 cards, on the 18-card scale; counting the hand alone loses in
duplicate). The two players' auction is a race (a pass leaves the deal to the other), and no
single shift of the table-4 thresholds fits it, so table 2 has four thresholds of its own
(``prise2``, ``garde2``, ``garde_sans2``, ``garde_contre2``), fitted by duplicate tournaments at
table 2: coordinate descent on the sum of its gains against the table-4 thresholds moved by -28,
greedy and random, so that no one opponent decides them (prise and garde pay from the same count
there, so it bids garde). BENCHMARKS.md, "Design measurements", has the figures.

Call (5): the king it lacks in its longest suit (a queen when it holds the four kings ...).
Écart: voids first (the shortest suits without a king), then the face cards no king protects
(their points are banked), then the low cards of the shortest suits; trumps only when forced,
the lowest. Chelem: only with the 21, ``chelem`` trumps or more (18-card scale) and no suit card
but kings. Poignée: the taker and his partner show the largest they hold; a defender the simple.

Cards -- it counts the trumps and the cards of each suit still out (not in its hand, not played,
not shown in the écart), tracks the voids shown and who is on which side (at 5 the partner knows
himself; the others learn when the called card falls, and meanwhile a defender takes a seat that
beat the taker's card for a partner).
Following: a partner's trick nobody behind can take gets its richest card (smear); otherwise it
wins with the lowest card nobody behind can beat, else plays its cheapest card, or the Excuse
instead of a queen or king. Trumping: the Petit when nobody behind can overtrump (it wins and is
saved), else the lowest trump, a master one when points are at stake; under a partner's safe
trump it slips the Petit. The Excuse goes at the latest with four tricks left, unless its side has
won every trick (then it is led to the last one, R-EXC-4); with nobody else holding a trump, the
Petit waits for the last trick (petit au bout).
Leading: at 5 the taker leads low in the called suit to find his partner; the attack draws trumps
when it holds more than all the others, then cashes masters in suits the opponents still follow,
then leads low in its longest suit. Defenders lead trumps to hunt the Petit once ``hunt`` trumps
or fewer are out, lead low into the taker's voids (he must trump), cash a master in a suit he has
shown, else lead low away from their face cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._bits import popcount
from tarotsim._kernels.layout import (PUB_CALLED, PUB_CONTRACT, PUB_DUMMY, PUB_ECART_T, PUB_LEADER, PUB_N_ACTIVE,
                                      PUB_PARTNER,
                                      PUB_N_TRICKS, PUB_PLAYED_S, PUB_PLAYED_T, PUB_SEAT_PLAYED_S, PUB_TABLE, PUB_TAKER, PUB_TRICK, PUB_TRICKS_WON,
                                      PUB_VOIDS)
from tarotsim.rules import KERNEL_ECART_MADE, TABLE_2, TABLES

from ._common import (SW_ALL, CARD_HP, TW_EXCUSE, SW_HONOURS, SW_JACKS, SW_KINGS, SW_KNIGHTS, SW_LOWS, TW_MAJORS, TW_PETIT,
                      SW_QUEENS, SW_SUITS, TW_T21, TABLE_3, TABLE_5, TW_TRUMPS, bid_by_thresholds, hibit, lobit,
                      lowest_ecart, n_seats_of, next_seat, partner_seat, sides, trick_state, trumps_above)

NAME = "heuristic"
#: Its kind in the kernels' ``kinds`` arrays (``bots.BOT_KINDS``).
CODE = 2
#: The bot whose policies make its decisions in the dispatch (``bots/dispatch.py``): its own policies.
DECIDES_AS = "heuristic"
DESCRIPTION = "club player: point-count bidding, voids in the écart, saves and hunts the Petit, smears"

#: (name, default, kind, help), in parameter-vector order
PARAMS = (
    ("prise", 40.0, float, "hand points (18-card scale) to bid a prise"),
    ("garde", 42.0, float, "hand points to bid a garde"),
    ("garde_sans", 59.0, float, "hand points to bid a garde sans le chien (voids count 4x)"),
    ("garde_contre", 65.0, float, "hand points to bid a garde contre le chien (voids count 4x)"),
    ("trump", 3.0, float, "points per trump"),
    ("major", 1.0, float, "extra points per trump 16-20"),
    ("oudler", 10.0, float, "points for the 21 and for the Excuse"),
    ("petit", 7.5, float, "points for a guarded Petit (half as much when short of trumps)"),
    ("petit_guard", 5, int, "trumps (the Petit included, 18-card scale) that guard the Petit"),
    ("king", 4.0, float, "points per king (queen 0.4, knight 0.2, jack 0.1 of it)"),
    ("long", 0.6, float, "points per card beyond four in a suit"),
    ("void", 1.0, float, "points per void (a singleton half) with four trumps or more"),
    ("shift3", -7.0, float, "added to every threshold"),
    ("shift5", -8.0, float, "added to every threshold (the partner helps)"),
    ("prise2", 10.0, float, "hand points to bid a prise, counting its face-up pile tops"),
    ("garde2", 10.0, float, "hand points to bid a garde"),
    ("garde_sans2", 21.0, float, "hand points to bid a garde sans (voids count 4x)"),
    ("garde_contre2", 42.0, float, "hand points to bid a garde contre (voids count 4x)"),
    ("chelem", 15, int, "trumps (18-card scale) with the 21 and only kings besides to announce a chelem"),
    ("hunt", 2, int, "trumps left out (not held, not played) at which a defender leads trumps hunting the Petit"),
)
#: The parameters that act at some tables only (``bots.BotSpec.refuse_idle`` refuses them given
#: for another): the table shifts, and the table-2 thresholds, which replace the others there
#: (R-VAR-TWO)
AT_TABLES = {"shift3": ("3",), "shift5": ("5",),
             **{f"{c}2": ("2",) for c in ("prise", "garde", "garde_sans", "garde_contre")},
             **{c: tuple(t for t in TABLES if t != "2") for c in ("prise", "garde", "garde_sans", "garde_contre")}}
_IX = {p[0]: i for i, p in enumerate(PARAMS)}
H_PRISE = _IX["prise"]
H_GARDE_SANS = _IX["garde_sans"]
H_TRUMP = _IX["trump"]
H_MAJOR = _IX["major"]
H_OUDLER = _IX["oudler"]
H_PETIT = _IX["petit"]
H_PETIT_GUARD = _IX["petit_guard"]
H_KING = _IX["king"]
H_LONG = _IX["long"]
H_VOID = _IX["void"]
H_SHIFT5 = _IX["shift5"]
H_CHELEM = _IX["chelem"]
H_HUNT = _IX["hunt"]
H_SHIFT3 = _IX["shift3"]
H_PRISE2 = _IX["prise2"]
#: fixed rules of play (not parameters)
EXCUSE_SAVES = 5   # the Excuse goes instead of a card worth this many half-points (queen, king)
EXCUSE_BY = 4      # the Excuse is played at the latest with this many tricks left (unless slam)
POIGNEE_DEFENCE = True  # a defender shows a simple poignée too


# ---------------------------------------------------------------------------------------------
# hand evaluation and bidding

@njit(_nrt=False)
def evaluate(params, seat, ht, hs):
    """``(points, points of its voids)`` on the 18-card scale (see the module docstring)."""
    n_cards = popcount(ht) + popcount(hs)
    scale = 18.0 / n_cards
    tr = ht & TW_TRUMPS
    nt = popcount(tr)
    pts = params[seat, H_OUDLER] * (((tr >> 21) & 1) + (ht & TW_EXCUSE))
    if tr & TW_PETIT:
        if nt * scale >= params[seat, H_PETIT_GUARD]:
            pts += params[seat, H_PETIT]
        else:
            pts += 0.5 * params[seat, H_PETIT]
    pts += params[seat, H_TRUMP] * nt + params[seat, H_MAJOR] * popcount(tr & TW_MAJORS)
    pts += params[seat, H_KING] * (popcount(hs & SW_KINGS) + 0.4 * popcount(hs & SW_QUEENS)
                                   + 0.2 * popcount(hs & SW_KNIGHTS) + 0.1 * popcount(hs & SW_JACKS))
    w_long = params[seat, H_LONG]
    w_void = params[seat, H_VOID]
    voids = 0.0
    for su in range(4):
        m = hs & SW_SUITS[su]
        n = popcount(m)
        if n > 4:
            pts += w_long * (n - 4)
        if nt * scale >= 4:
            if n == 0:
                voids += w_void
            elif n == 1 and (m & SW_KINGS) == 0:
                voids += 0.5 * w_void
    return (pts + voids) * scale, voids * scale


@njit(inline="always")
def bid_counts(pts, voids):
    """The counts it bids on: ``(count, count without an écart)`` from :func:`evaluate`.

    The contracts with an écart (``rules.KERNEL_ECART_MADE``) compare the hand's points; garde sans
    and garde contre keep no chien to make voids, so the hand's own voids count four times."""
    return pts, pts + 3.0 * voids


@njit(_nrt=False)
def heuristic_bid(params, seat, ht, hs, pub, highest):
    pts, voids = evaluate(params, seat, ht, hs)
    count, count_no_ecart = bid_counts(pts, voids)
    table = pub[PUB_TABLE]
    # table 2 is a race, not a table-4 auction moved: thresholds of its own. One call of
    # bid_by_thresholds keeps this function small enough for LLVM to inline it into the dispatch
    # (two calls slow the heuristic deal down)
    first = H_PRISE2 if table == TABLE_2 else H_PRISE
    shift = params[seat, H_SHIFT5] if table == TABLE_5 else params[seat, H_SHIFT3] if table == TABLE_3 else 0.0
    return bid_by_thresholds(params, seat, first, count, count_no_ecart, shift, highest)


@njit(_nrt=False)
def heuristic_call(params, seat, ht, hs, pub, legal_s):
    """The legal card it lacks in its longest suit (ties: the suit with more points)."""
    best = -1
    best_score = -1
    rem = legal_s & ~hs
    while rem:
        b = lobit(rem)
        rem &= rem - 1
        m = hs & SW_SUITS[b // 14]
        score = 100 * popcount(m) + popcount(m & SW_HONOURS)
        if score > best_score:
            best_score = score
            best = b
    if best < 0:
        best = lobit(legal_s)
    return best


# ---------------------------------------------------------------------------------------------
# écart

@njit(_nrt=False)
def heuristic_ecart(params, seat, ht, hs, pub, normal, cands, n_ecart, out, out_pos):
    if popcount(normal) <= n_ecart:  # no choice: every such card, then the lowest trumps
        return lowest_ecart(normal, cands, n_ecart, out, out_pos)
    et = np.int64(0)
    es = np.int64(0)
    k = n_ecart
    # 1. voids: the suits without a king, shortest first (more points first on ties)
    done = 0
    while k > 0:
        best = -1
        best_score = 1 << 30
        for su in range(4):
            if (done >> su) & 1:
                continue
            m = normal & SW_SUITS[su] & ~es
            n = popcount(m)
            if n == 0 or n > k or (hs & SW_KINGS & SW_SUITS[su]) != 0:
                continue
            score = 100 * n - popcount(m & SW_HONOURS)
            if score < best_score:
                best_score = score
                best = su
        if best < 0:
            break
        done |= 1 << best
        m = normal & SW_SUITS[best] & ~es
        es |= m
        k -= popcount(m)
    # 2. then card by card: unguarded face cards (banked), then low cards of the shortest suits
    while k > 0:
        best_b = -1
        best_score = -(1 << 30)
        rem = normal & ~es
        while rem:
            b = lobit(rem)
            rem &= rem - 1
            su = b // 14
            r = b - 14 * su
            left = popcount(hs & SW_SUITS[su] & ~es)
            has_k = (hs & SW_KINGS & SW_SUITS[su]) != 0
            if r >= 10 and not (has_k and r == 12):
                score = 1000 + 10 * r          # J/N/Q (a queen beside her king stays)
            else:
                score = -20 * left - r
            if score > best_score:
                best_score = score
                best_b = b
        es |= np.int64(1) << best_b
        k -= 1
    i = 0
    rem = es
    while rem:
        b = lobit(rem)
        rem &= rem - 1
        out[out_pos + i] = 22 + b
        i += 1
    return et, es


# ---------------------------------------------------------------------------------------------
# declarations

@njit(_nrt=False)
def heuristic_chelem(params, seat, ht, hs, pub):
    n_cards = popcount(ht) + popcount(hs)
    nt = popcount(ht & TW_TRUMPS) * 18.0 / n_cards
    return 1 if (ht & TW_T21) and (hs & ~SW_KINGS) == 0 and nt >= params[seat, H_CHELEM] else 0


@njit(_nrt=False)
def heuristic_poignee(params, seat, ht, hs, pub, n_levels):
    if n_levels == 0:
        return 0
    allies, opps = sides(pub, seat, hs, pub[PUB_PARTNER])
    if (allies >> pub[PUB_TAKER]) & 1:
        return n_levels
    return 1 if POIGNEE_DEFENCE else 0


# ---------------------------------------------------------------------------------------------
# card play

@njit(_nrt=False)
def _cheapest(lt, ls, hs):
    """The card the seat can best spare.

    The card it can best spare: a low suit card (not beside its own face cards when it can
    help it, lowest rank), a trump 2-20 (lowest), a face card (lowest), the Petit, the 21."""
    best = -1
    best_score = 1 << 30
    low = ls & SW_LOWS
    if low:
        for su in range(4):
            m = low & SW_SUITS[su]
            if m:
                b = lobit(m)
                score = b - 14 * su
                if hs & SW_HONOURS & SW_SUITS[su]:
                    score += 20
                if score < best_score:
                    best_score = score
                    best = b
        return 22 + best
    tr = lt & TW_TRUMPS & ~TW_PETIT & ~TW_T21
    if tr:
        return lobit(tr)
    if ls:
        for su in range(4):
            m = ls & SW_SUITS[su]
            if m:
                b = lobit(m)
                score = b - 14 * su
                if score < best_score:
                    best_score = score
                    best = b
        return 22 + best
    tr = lt & TW_TRUMPS
    if tr:
        return lobit(tr)
    return 0


@njit(_nrt=False)
def _richest(ls):
    """The suit card worth most (highest rank of all suits)."""
    best = -1
    best_r = -1
    for su in range(4):
        m = ls & SW_SUITS[su]
        if m:
            b = hibit(m)
            if b - 14 * su > best_r:
                best_r = b - 14 * su
                best = b
    return 22 + best


@njit(_nrt=False)
def _void_in(pub, seats, bit):
    """Seat mask of ``seats`` shown void (``bit``: 0..3 a suit, 4 trumps)."""
    out = np.int64(0)
    m = seats
    while m:
        s = lobit(m)
        m &= m - 1
        if (pub[PUB_VOIDS + s] >> bit) & 1:
            out |= np.int64(1) << s
    return out


@njit(_nrt=False)
def _trump_threat(pub, t, out_t, opp_after):
    """Can an opponent playing after it beat trump ``t``?"""
    if opp_after == 0 or (out_t & trumps_above(t)) == 0:
        return False
    return (opp_after & ~_void_in(pub, opp_after, 4)) != 0


@njit(_nrt=False)
def _suit_threat(pub, b, out_t, out_s, opp_after, n_after):
    """Can an opponent playing after it beat suit card (suit bit) ``b`` of the led suit?"""
    if opp_after == 0:
        return False
    su = b // 14
    vs = _void_in(pub, opp_after, su)
    if (out_s & SW_SUITS[su] & -(np.int64(2) << b)) != 0 and (opp_after & ~vs) != 0:
        return True
    if out_t == 0:
        return False
    trumpers = opp_after & ~_void_in(pub, opp_after, 4)
    if trumpers == 0:
        return False
    if vs & trumpers:
        return True
    # few cards of the suit left out: someone behind is likely void
    return popcount(out_s & SW_SUITS[su]) < n_after


@njit(_nrt=False)
def _tricks_all_ours(pub, allies):
    """Whether the seat's side has won every trick so far (at least one)."""
    won = 0
    m = allies
    while m:
        s = lobit(m)
        m &= m - 1
        won += pub[PUB_TRICKS_WON + s]
    return pub[PUB_TRICK] > 0 and won == pub[PUB_TRICK]


@njit(_nrt=False)
def _keep_for_the_end(pub, allies, lt, ls, my_t, out_t, has_exc, left):
    """Keep the Excuse and the Petit for the end of the deal.

    The Excuse, played at the latest with ``EXCUSE_BY`` tricks left unless its side has won
    every trick (then it is led to the last one, R-EXC-4), and the Petit kept for the last trick
    when nobody else holds a trump (petit au bout). Returns ``(card or -1, legal trump word)``."""
    if has_exc and left <= EXCUSE_BY and not _tricks_all_ours(pub, allies):
        return np.int64(0), lt
    if (my_t & TW_PETIT) != 0 and out_t == 0 and left > 1:
        lt_np = lt & ~TW_PETIT
        if lt_np != 0 or ls != 0:
            return np.int64(-1), lt_np
    return np.int64(-1), lt


@njit(_nrt=False)
def _seats_after(me, na, pos, n_seats, dummy):
    """Seat mask of the players after ``me`` in this trick."""
    after = np.int64(0)
    s = me
    for _ in range(na - pos - 1):
        s = next_seat(s, n_seats, dummy)
        after |= np.int64(1) << s
    return after


@njit(_nrt=False)
def _taker_played(pub, pos, taker, n_seats, dummy):
    """Whether the taker has played in this trick.

    Whether the taker has played in this trick (table 5, partner unknown: a seat that beat the
    taker's card is most likely a defender)."""
    s = pub[PUB_LEADER]
    for _ in range(pos):
        if s == taker:
            return True
        s = next_seat(s, n_seats, dummy)
    return False


@njit(_nrt=False)
def _follow_plain(pub, suit, led, best_key, safe_ally, ally_win, has_exc, out_t, out_s, opp_after, n_after):
    """Follow the led plain suit.

    Following the led plain suit with the legal cards ``suit``: a partner's safe trick gets the
    richest card; else the lowest winner nobody behind can beat; else the lowest card, or the
    Excuse instead of a queen or king."""
    if safe_ally:
        return _richest(suit)
    if best_key < 33:
        win = suit & -(np.int64(1) << (14 * led + best_key))
        if win:
            if n_after == 0:
                return 22 + lobit(win)
            w = win
            while w:
                b = lobit(w)
                w &= w - 1
                if not _suit_threat(pub, b, out_t, out_s, opp_after, n_after):
                    return 22 + b
    low = 22 + lobit(suit)
    if has_exc and CARD_HP[low] >= EXCUSE_SAVES and not ally_win:
        return np.int64(0)
    return low


@njit(_nrt=False)
def _overtrump(pub, lt_tr, out_t, opp_after, trick_hp, tt, has_exc):
    """Trump to take the trick.

    Trumping to take the trick: the Petit when nobody behind can trump over it (it wins and is
    saved), else the lowest trump, a master one when points are at stake and someone behind may
    overtrump."""
    if (lt_tr & TW_PETIT) and not _trump_threat(pub, np.int64(1), out_t, opp_after):
        return np.int64(1)
    cand = lt_tr & ~TW_PETIT
    if cand == 0:
        return np.int64(0) if has_exc else np.int64(1)
    lo = lobit(cand)
    if not _trump_threat(pub, lo, out_t, opp_after):
        return lo
    if trick_hp >= 5 or (tt & TW_PETIT):
        hi_out = hibit(out_t) if out_t else 0
        masters = cand & -(np.int64(2) << hi_out)
        if masters:
            mm = masters & ~TW_T21
            if mm:
                return lobit(mm)
            if trick_hp >= 7:
                return np.int64(21)
    return lo


@njit(_nrt=False)
def _undertrump(lt_tr, safe_ally, has_exc):
    """Trump without taking the trick.

    Trumping without taking the trick: the Petit under a partner's safe trick, else the lowest
    trump but the Petit (the Excuse rather than the Petit alone)."""
    if (lt_tr & TW_PETIT) and safe_ally:
        return np.int64(1)
    cand = lt_tr & ~TW_PETIT
    if cand == 0:
        return np.int64(0) if has_exc else np.int64(1)
    return lobit(cand)


@njit(_nrt=False)
def _discard(ls, hs, safe_ally, ally_win, has_exc):
    """Discard, with no card of the led suit and no trump.

    No card of the led suit and no trump: the richest card on a partner's safe trick, else the
    cheapest, or the Excuse instead of a queen or king."""
    if ls == 0:
        return np.int64(0)
    if safe_ally:
        return _richest(ls)
    low = _cheapest(np.int64(0), ls, hs)  # np.int64: a literal 0 compiles it once more
    if has_exc and CARD_HP[low] >= EXCUSE_SAVES and not ally_win:
        return np.int64(0)
    return low


@njit(_nrt=False)
def heuristic_card(params, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos):
    """The card to play (see the module docstring); arguments as ``bots.dispatch.bot_card_bits``."""
    if popcount(lt) + popcount(ls) == 1:
        return lobit(lt) if lt else 22 + lobit(ls)
    n_seats = n_seats_of(pub)
    dummy = pub[PUB_DUMMY]
    na = pub[PUB_N_ACTIVE]
    taker = pub[PUB_TAKER]
    left = pub[PUB_N_TRICKS] - pub[PUB_TRICK]
    allies, opps = sides(pub, seat, hs, partner_seat(pub, pos, n_seats, dummy))
    attack = ((allies >> taker) & 1) != 0
    # seats not known to be allies (table 5: before the called card falls) may be opponents
    active = (np.int64(1) << n_seats) - 1
    if dummy >= 0:
        active &= ~(np.int64(1) << dummy)
    opps_or_unknown = active & ~allies
    partner_unknown = pub[PUB_TABLE] == TABLE_5 and seat == taker and opps == 0
    best_seat, best_key, led, tt, ts, trick_hp, me = trick_state(pub, pos, n_seats, dummy)
    out_t = TW_TRUMPS & ~(pub[PUB_PLAYED_T] | tt | ht | pub[PUB_ECART_T])
    out_s = SW_ALL & ~(pub[PUB_PLAYED_S] | ts | hs)
    has_exc = (lt & TW_EXCUSE) != 0
    kept, lt = _keep_for_the_end(pub, allies, lt, ls, ht & TW_TRUMPS, out_t, has_exc, left)
    if kept >= 0:
        return kept
    if pos == 0 or not fixed:
        return _lead(params, seat, ht, hs, pub, lt, ls, allies, opps_or_unknown, attack, taker, out_t, out_s,
                     left, na, partner_unknown)

    n_after = na - pos - 1
    opp_after = _seats_after(me, na, pos, n_seats, dummy) & opps_or_unknown
    ally_win = ((allies >> best_seat) & 1) != 0
    if not ally_win and not attack and ((opps >> best_seat) & 1) == 0:
        ally_win = _taker_played(pub, pos, taker, n_seats, dummy)
    if best_key >= 33:
        threat = _trump_threat(pub, best_key - 32, out_t, opp_after)
    else:
        threat = _suit_threat(pub, 14 * led + best_key - 1, out_t, out_s, opp_after, n_after)
    safe_ally = ally_win and not threat

    if led < 4 and (ls & fmask) != 0:
        return _follow_plain(pub, ls & fmask, led, best_key, safe_ally, ally_win, has_exc, out_t, out_s, opp_after,
                             n_after)
    lt_tr = lt & TW_TRUMPS
    if lt_tr:  # trumping (void in a plain suit) or a trump lead
        if best_key < 33 or (lt_tr & amask) == lt_tr:
            return _overtrump(pub, lt_tr, out_t, opp_after, trick_hp, tt, has_exc)
        return _undertrump(lt_tr, safe_ally, has_exc)
    return _discard(ls, hs, safe_ally, ally_win, has_exc)


@njit(_nrt=False)
def _call_partner(pub, seat, taker, hs, ls, partner_unknown):
    """Table 5, the taker while his partner is unknown: a low card of the called suit, or -1."""
    if pub[PUB_TABLE] != TABLE_5 or seat != taker or not partner_unknown:
        return np.int64(-1)
    called = pub[PUB_CALLED]
    mine = ls & SW_SUITS[(called - 22) // 14] & SW_LOWS
    if mine and (hs & (np.int64(1) << (called - 22))) == 0:
        return 22 + lobit(mine)
    return np.int64(-1)


@njit(_nrt=False)
def _draw_trumps(my_t, n_my_t, out_t, n_out_t, opp_trumpers, table):
    """Draw trumps for the attack, or -1.

    The attack draws trumps when it holds more than all the others (and they still hold
    some): a master, else a low or high one but the Petit; -1 when it does not."""
    if not (my_t and opp_trumpers and n_my_t >= n_out_t + (table != TABLE_5)):
        return np.int64(-1)
    top = hibit(my_t)
    if (out_t & trumps_above(top)) == 0:
        return top
    cand = my_t & ~TW_PETIT
    if cand and (my_t & TW_PETIT) == 0:
        return lobit(cand) if n_my_t > n_out_t + 2 else hibit(cand)
    return np.int64(-1)


@njit(_nrt=False)
def _attack_master(pub, ls, out_s, opps, opp_trumpers):
    """A master card in the suit the opponents follow most (not one a void lets them trump), -1 none."""
    best = -1
    best_n = 1
    for su in range(4):
        mine = ls & SW_SUITS[su]
        if mine == 0:
            continue
        hb = hibit(mine)
        if out_s & SW_SUITS[su] & -(np.int64(2) << hb):
            continue
        n_out = popcount(out_s & SW_SUITS[su])
        if opp_trumpers and (_void_in(pub, opps, su) & opp_trumpers):
            continue
        if n_out > best_n:
            best_n = n_out
            best = hb
    return 22 + best if best >= 0 else np.int64(-1)


@njit(_nrt=False)
def _low_of_longest(ls):
    """A low card of the longest suit that holds one (no face card to lose), -1 none."""
    best = -1
    best_n = 0
    for su in range(4):
        mine = ls & SW_SUITS[su]
        lows = mine & SW_LOWS
        if lows and popcount(mine) > best_n:
            best_n = popcount(mine)
            best = lobit(lows)
    return 22 + best if best >= 0 else np.int64(-1)


@njit(_nrt=False)
def _lead_attack(pub, seat, ht, hs, lt, ls, opps, taker, out_t, out_s, partner_unknown, opp_trumpers):
    """The attack's lead.

    The attack's lead: call for the partner (table 5), draw trumps, cash a master, a low card
    of the longest suit, else the cheapest card."""
    c = _call_partner(pub, seat, taker, hs, ls, partner_unknown)
    if c < 0:
        c = _draw_trumps(lt & TW_TRUMPS, popcount(ht & TW_TRUMPS), out_t, popcount(out_t), opp_trumpers,
                         pub[PUB_TABLE])
    if c < 0:
        c = _attack_master(pub, ls, out_s, opps, opp_trumpers)
    if c < 0:
        c = _low_of_longest(ls)
    if c < 0:
        c = _cheapest(lt, ls, hs)
    return c


@njit(_nrt=False)
def _hunt_petit(params, seat, pub, my_t, out_t, taker):
    """Hunt the Petit as a defender, or -1.

    A defender hunts the Petit once few trumps are left out (``hunt``), the taker not shown
    void in trumps: a master trump if held, to capture it when it drops, else the lowest but the
    Petit; -1 when it does not (hunting earlier, or with many trumps, gives the taker the
    control and loses)."""
    if not ((out_t & TW_PETIT) and my_t and popcount(out_t) <= params[seat, H_HUNT]
            and (pub[PUB_VOIDS + taker] >> 4) & 1 == 0):
        return np.int64(-1)
    masters = my_t & -(np.int64(2) << hibit(out_t))
    if masters:
        return lobit(masters)
    cand = my_t & ~TW_PETIT
    return lobit(cand) if cand else np.int64(-1)


@njit(_nrt=False)
def _into_taker_void(pub, ls, out_t, taker):
    """Lead into the taker's void, or -1.

    A low card of the first suit the taker has shown void in, while he may still trump: he
    must trump; -1 none."""
    vt = pub[PUB_VOIDS + taker]
    if (vt >> 4) & 1 or out_t == 0:
        return np.int64(-1)
    for su in range(4):
        if (vt >> su) & 1:
            lows = ls & SW_SUITS[su] & SW_LOWS
            if lows:
                return 22 + lobit(lows)
    return np.int64(-1)


@njit(_nrt=False)
def _defence_master(pub, ls, out_s, taker, na):
    """Lead a master face card in a suit the taker follows, or -1.

    A master face card in a suit the taker still follows: he has shown a card of it, or kept
    the whole chien unseen (no écart, ``rules.CONTRACT_TABLE``); -1 none. At table 5 never the
    called suit before the called card falls."""
    table = pub[PUB_TABLE]
    vt = pub[PUB_VOIDS + taker]
    for su in range(4):
        mine = ls & SW_SUITS[su]
        if mine == 0 or (vt >> su) & 1:
            continue
        if table == TABLE_5 and (pub[PUB_CALLED] - 22) // 14 == su and \
                (pub[PUB_PLAYED_S] & (np.int64(1) << (pub[PUB_CALLED] - 22))) == 0:
            continue
        hb = hibit(mine)
        if hb - 14 * su < 10:
            continue
        shown = (pub[PUB_SEAT_PLAYED_S + taker] & SW_SUITS[su]) != 0 or KERNEL_ECART_MADE[pub[PUB_CONTRACT]] == 0
        if shown and (out_s & SW_SUITS[su] & -(np.int64(2) << hb)) == 0 and \
                popcount(out_s & SW_SUITS[su]) >= 2 * (na - 1):
            return 22 + hb
    return np.int64(-1)


@njit(_nrt=False)
def _low_away_from_faces(pub, ls):
    """A low card of the longest suit without face cards (table 5: not the called suit), -1 none."""
    table = pub[PUB_TABLE]
    best = -1
    best_score = -1
    for su in range(4):
        mine = ls & SW_SUITS[su]
        lows = mine & SW_LOWS
        if lows == 0:
            continue
        if table == TABLE_5 and (pub[PUB_CALLED] - 22) // 14 == su:
            continue
        score = popcount(mine) + (0 if mine & SW_HONOURS else 10)
        if score > best_score:
            best_score = score
            best = lobit(lows)
    return 22 + best if best >= 0 else np.int64(-1)


@njit(_nrt=False)
def _lead_defence(params, seat, hs, pub, lt, ls, taker, out_t, out_s, na):
    """A defender's lead.

    A defender's lead: hunt the Petit, lead into the taker's void, cash a master he follows,
    a low card away from its face cards, else the cheapest card."""
    c = _hunt_petit(params, seat, pub, lt & TW_TRUMPS, out_t, taker)
    if c < 0:
        c = _into_taker_void(pub, ls, out_t, taker)
    if c < 0:
        c = _defence_master(pub, ls, out_s, taker, na)
    if c < 0:
        c = _low_away_from_faces(pub, ls)
    if c < 0:
        c = _cheapest(lt, ls, hs)
    return c


@njit(_nrt=False)
def _lead(params, seat, ht, hs, pub, lt, ls, allies, opps, attack, taker, out_t, out_s, left, na,
          partner_unknown):
    """Lead (or play second after an Excuse lead, which leaves the suit open)."""
    # slam: my side won every trick; lead the Excuse to the last one (R-EXC-4)
    if (lt & TW_EXCUSE) and left == 1:
        return np.int64(0)
    if attack:
        opp_trumpers = opps & ~_void_in(pub, opps, 4) if out_t != 0 else np.int64(0)
        return _lead_attack(pub, seat, ht, hs, lt, ls, opps, taker, out_t, out_s, partner_unknown, opp_trumpers)
    return _lead_defence(params, seat, hs, pub, lt, ls, taker, out_t, out_s, na)
