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
pile tops, cards it will play (24 cards, on the 18-card scale; counting the hand alone loses 15
points a deal or more in duplicate). The two players' auction is a race (a pass leaves the deal
to the other), and no single shift of the table-4 thresholds fits it, so table 2 has four
thresholds of its own (``prise2``, ``garde2``, ``garde_sans2``, ``garde_contre2``): 10, 10, 21, 42,
fitted by duplicate tournaments at table 2 (coordinate descent on the sum of its gains against the
table-4 thresholds moved by -28, greedy and random; prise and garde pay from the same count there,
so it bids garde). Fitted against the old bot alone, garde sans on every hand wins (+46 points
a deal against it) but does 5 points a deal worse than the old bot against greedy.

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
from tarotsim.rules import TABLE_2

from ._common import (SW_ALL, CARD_HP, TW_EXCUSE, SW_HONOURS, SW_JACKS, SW_KINGS, SW_KNIGHTS, SW_LOWS, TW_MAJORS, TW_PETIT,
                      SW_QUEENS, SW_SUITS, TW_T21, TABLE_3, TABLE_5, TW_TRUMPS, bid_by_thresholds, hibit, lobit,
                      lowest_ecart, n_seats_of, next_seat, partner_seat, sides, trick_state, trumps_above)

NAME = "heuristic"
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
    ("shift3", -7.0, float, "added to every threshold at table 3"),
    ("shift5", -8.0, float, "added to every threshold at table 5 (the partner helps)"),
    ("prise2", 10.0, float, "hand points to bid a prise at table 2 (the count includes its face-up pile tops)"),
    ("garde2", 10.0, float, "hand points to bid a garde at table 2"),
    ("garde_sans2", 21.0, float, "hand points to bid a garde sans at table 2 (voids count 4x)"),
    ("garde_contre2", 42.0, float, "hand points to bid a garde contre at table 2 (voids count 4x)"),
    ("chelem", 15, int, "trumps (18-card scale) with the 21 and only kings besides to announce a chelem"),
    ("hunt", 2, int, "trumps left out (not held, not played) at which a defender leads trumps hunting the Petit"),
)
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


@njit(_nrt=False)
def heuristic_bid(params, seat, ht, hs, pub, highest):
    pts, voids = evaluate(params, seat, ht, hs)
    table = pub[PUB_TABLE]
    # table 2 is a race, not a table-4 auction moved: thresholds of its own. One call of
    # bid_by_thresholds keeps this function small enough for LLVM to inline it into the dispatch
    # (two made the heuristic deal 2 to 3% slower)
    first = H_PRISE2 if table == TABLE_2 else H_PRISE
    shift = params[seat, H_SHIFT5] if table == TABLE_5 else params[seat, H_SHIFT3] if table == TABLE_3 else 0.0
    # garde sans / contre: no écart to make voids, so the hand's own voids count 4x
    return bid_by_thresholds(params, seat, first, pts, pts + 3.0 * voids, shift, highest)


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
    """The card it can best spare: a low suit card (not beside its own face cards when it can
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
    my_t = ht & TW_TRUMPS
    has_exc = (lt & TW_EXCUSE) != 0

    # tricks won by my side so far: all of them -> keep the Excuse to lead the last (R-EXC-4)
    won = 0
    m = allies
    while m:
        s = lobit(m)
        m &= m - 1
        won += pub[PUB_TRICKS_WON + s]
    all_ours = pub[PUB_TRICK] > 0 and won == pub[PUB_TRICK]
    if has_exc and left <= EXCUSE_BY and not all_ours:
        return 0
    # the Petit with nobody else holding a trump: keep it for the last trick (petit au bout)
    if (my_t & TW_PETIT) != 0 and out_t == 0 and left > 1:
        lt_np = lt & ~TW_PETIT
        if lt_np != 0 or ls != 0:
            lt = lt_np

    if pos == 0 or not fixed:
        return _lead(params, seat, ht, hs, pub, lt, ls, allies, opps_or_unknown, attack, taker, out_t, out_s,
                     left, na, partner_unknown)

    # seats after me in this trick
    after = np.int64(0)
    s = me
    for _ in range(na - pos - 1):
        s = next_seat(s, n_seats, dummy)
        after |= np.int64(1) << s
    n_after = na - pos - 1
    opp_after = after & opps_or_unknown
    ally_win = ((allies >> best_seat) & 1) != 0
    if not ally_win and not attack and ((opps >> best_seat) & 1) == 0:
        # table 5, partner unknown: a seat that beat the taker's card is most likely a defender
        s = pub[PUB_LEADER]
        for _ in range(pos):
            if s == taker:
                ally_win = True
            s = next_seat(s, n_seats, dummy)
    if best_key >= 33:
        threat = _trump_threat(pub, best_key - 32, out_t, opp_after)
    else:
        threat = _suit_threat(pub, 14 * led + best_key - 1, out_t, out_s, opp_after, n_after)
    safe_ally = ally_win and not threat

    if led < 4 and (ls & fmask) != 0:
        # ---- following a plain suit
        suit = ls & fmask
        if safe_ally:
            return _richest(suit)
        if best_key < 33:
            win = suit & -(np.int64(1) << (14 * led + best_key))
            if win:
                if n_after == 0:
                    return 22 + lobit(win)
                # the lowest winner nobody behind can beat
                w = win
                while w:
                    b = lobit(w)
                    w &= w - 1
                    if not _suit_threat(pub, b, out_t, out_s, opp_after, n_after):
                        return 22 + b
        low = 22 + lobit(suit)
        if has_exc and CARD_HP[low] >= EXCUSE_SAVES and not ally_win:
            return 0
        return low

    lt_tr = lt & TW_TRUMPS
    if lt_tr:
        # ---- trumping (void in a plain suit) or a trump lead
        can_win = best_key < 33 or (lt_tr & amask) == lt_tr
        if can_win:
            # the Petit wins and is saved when nobody behind can trump over it
            if (lt_tr & TW_PETIT) and not _trump_threat(pub, np.int64(1), out_t, opp_after):
                return 1
            cand = lt_tr & ~TW_PETIT
            if cand == 0:
                return 0 if has_exc else 1
            lo = lobit(cand)
            if not _trump_threat(pub, lo, out_t, opp_after):
                return lo
            # someone behind may overtrump: with points at stake, play a master trump
            if trick_hp >= 5 or (tt & TW_PETIT):
                hi_out = hibit(out_t) if out_t else 0
                masters = cand & -(np.int64(2) << hi_out)
                if masters:
                    mm = masters & ~TW_T21
                    if mm:
                        return lobit(mm)
                    if trick_hp >= 7:
                        return 21
            return lo
        # cannot take the trick: undertrump
        if (lt_tr & TW_PETIT) and safe_ally:
            return 1
        cand = lt_tr & ~TW_PETIT
        if cand == 0:
            if has_exc:
                return 0
            return 1
        return lobit(cand)

    # ---- discarding (no card of the led suit, no trump)
    if ls == 0:
        return 0
    if safe_ally:
        return _richest(ls)
    low = _cheapest(np.int64(0), ls, hs)  # np.int64: a literal 0 compiles it once more
    if has_exc and CARD_HP[low] >= EXCUSE_SAVES and not ally_win:
        return 0
    return low


@njit(_nrt=False)
def _lead(params, seat, ht, hs, pub, lt, ls, allies, opps, attack, taker, out_t, out_s, left, na,
          partner_unknown):
    """Lead (or play second after an Excuse lead, which leaves the suit open)."""
    my_t = lt & TW_TRUMPS
    n_my_t = popcount(ht & TW_TRUMPS)
    n_out_t = popcount(out_t)
    opp_trumpers = opps & ~_void_in(pub, opps, 4)
    if out_t == 0:
        opp_trumpers = np.int64(0)
    table = pub[PUB_TABLE]
    # slam: my side won every trick; lead the Excuse to the last one (R-EXC-4)
    if (lt & TW_EXCUSE) and left == 1:
        return 0

    if attack:
        # table 5: call for the partner in the called suit (low card) while he is unknown
        if table == TABLE_5 and seat == taker:
            called = pub[PUB_CALLED]
            cs = SW_SUITS[(called - 22) // 14]
            mine = ls & cs & SW_LOWS
            if partner_unknown and mine and (hs & (np.int64(1) << (called - 22))) == 0:
                return 22 + lobit(mine)
        # draw trumps when long (and the opponents still hold some)
        if my_t and opp_trumpers and n_my_t >= n_out_t + (table != TABLE_5):
            top = hibit(my_t)
            if (out_t & trumps_above(top)) == 0:
                return top
            cand = my_t & ~TW_PETIT
            if cand and (my_t & TW_PETIT) == 0:
                return lobit(cand) if n_my_t > n_out_t + 2 else hibit(cand)
        # cash a master in a suit the opponents still follow
        best = -1
        best_n = 1
        for su in range(4):
            mine = ls & SW_SUITS[su]
            if mine == 0:
                continue
            hb = hibit(mine)
            higher_out = out_s & SW_SUITS[su] & -(np.int64(2) << hb)
            if higher_out:
                continue
            n_out = popcount(out_s & SW_SUITS[su])
            if opp_trumpers and (_void_in(pub, opps, su) & opp_trumpers):
                continue
            if n_out > best_n:
                best_n = n_out
                best = hb
        if best >= 0:
            return 22 + best
        # a low card of my longest suit (no face card to lose)
        best = -1
        best_n = 0
        for su in range(4):
            mine = ls & SW_SUITS[su]
            lows = mine & SW_LOWS
            if lows and popcount(mine) > best_n:
                best_n = popcount(mine)
                best = lobit(lows)
        if best >= 0:
            return 22 + best
        c = _cheapest(lt, ls, hs)
        return c

    # ---- defence
    # hunt the Petit: once few trumps are left out, lead trumps to force it (a master one if
    # held, to capture it when it drops; else the lowest)
    # (measured: hunting earlier, or with many trumps, gives the taker the control and loses)
    if (out_t & TW_PETIT) and my_t and n_out_t <= params[seat, H_HUNT] and \
            (pub[PUB_VOIDS + taker] >> 4) & 1 == 0:
        masters = my_t & -(np.int64(2) << hibit(out_t))
        if masters:
            return lobit(masters)
        cand = my_t & ~TW_PETIT
        if cand:
            return lobit(cand)
    # lead into the taker's void: he must trump
    if ((pub[PUB_VOIDS + taker] >> 4) & 1) == 0 and out_t != 0:
        vt = pub[PUB_VOIDS + taker]
        best = -1
        for su in range(4):
            if (vt >> su) & 1:
                lows = ls & SW_SUITS[su] & SW_LOWS
                if lows:
                    best = lobit(lows)
                    break
        if best >= 0:
            return 22 + best
    vt = pub[PUB_VOIDS + taker]
    # cash a master when the taker still follows the suit
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
        # the taker has shown he still holds the suit, or (no écart) has cards enough in it
        shown = (pub[PUB_SEAT_PLAYED_S + taker] & SW_SUITS[su]) != 0 or pub[PUB_CONTRACT] >= 2
        if shown and (out_s & SW_SUITS[su] & -(np.int64(2) << hb)) == 0 and \
                popcount(out_s & SW_SUITS[su]) >= 2 * (na - 1):
            return 22 + hb
    # a low card, away from my face cards, longest suit first
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
    if best >= 0:
        return 22 + best
    return _cheapest(lt, ls, hs)
