"""Worlds weighted by what the other seats' decisions reveal (private kernels, arrays only).

The exact sampler (``tarotsim._kernels.worlds``) draws the cards a seat cannot see uniformly among
the deals that agree with the hard rules: voids, trump ceilings, the shown chien, poignées. A
player reads more than that: a defender who passed probably holds no garde-worthy hand, a seat
that followed with a low card probably holds no lower one of the suit. :func:`weigh_worlds`
gives each sampled world a weight: the product, over the other seats' decisions so far, of how
well an *opponent model* explains the decision in that world.

The opponent model is the ``heuristic`` bot (its decision functions, with its default parameters,
as the deal kernel calls them: ``bots.dispatch.policies_*``) made stochastic by an ε: it makes
the heuristic's choice with probability 1 - ε, and with probability ε any legal choice, uniformly.
A decision with ``n`` legal choices in a world weighs ``P_model(observed) / (1/n)``, the model's
probability of what was done over that of a uniform choice among the legal ones:
``n (1 - ε) + ε`` when the heuristic would have made the observed choice in that world, ``ε``
when not. The cards played have their own ε (``card_eps``), the other decisions share one (``eps``).
So ε = 1 gives every world the weight 1 (the exact sampler's law), a small ε keeps
mostly the worlds in which the heuristic explains what was seen, and no legal choice is ever
ruled out (ε > 0): a world is never dropped for a model's whim. A world in which an observed card
was not legal gets the weight 0 (the exact sampler never draws one).

The decisions weighed, each on the deciding seat's own view in the world (its hand there, the
public view as it was then):

* the bids (R-BID-1), on each seat's hand as dealt: the taker's at prise and garde is his hand
  at the start of play with the world's écart, the shown chien taken out (R-CHIEN-1);
* the call (table 5, R-CALL-1), on the taker's hand as dealt;
* the écart (prise, garde, R-CHIEN-2) by its *shape*, the number of cards of each suit laid
  aside: the observed shape is the world's écart's, the model's the heuristic's écart from the
  taker's hand with the chien; a uniform choice among the legal écarts gives that shape with the
  hypergeometric probability ``prod_s C(n_s, k_s) / C(N, k)`` (``N`` cards it could lay aside,
  ``n_s`` of suit s, ``k_s`` of them laid); an écart that had to take trumps is not weighed (its
  cards are forced but for which trumps, and those are shown);
* the chelem announced or not (R-SLAM-1), the poignée shown or not and its level (R-POIG-1),
  the misères (R-MIS-1, the heuristic never declares one), at each seat's first turn;
* every card played (R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-CALL-4 in trick 1).

The seat's own decisions are not weighed: they depend on its own cards alone, the same in every
world. The past is replayed with the deal kernel's own steps (``steps.add_to_trick``,
``playable``, ``track_trick``, ``poignee_levels``,
``misere_eligible``): the public view is rebuilt trick by trick exactly as the deal kernel
filled it, once for every world (it is public), and each world only contributes the deciding
seat's hand. Table 2 (R-VAR-TWO) is not weighed: which face-down pile card turned up when is not
in the public view a bot gets, so the piles' past cannot be replayed; its worlds keep weight 1.

Then :func:`resample` draws ``n_worlds`` of the candidates by systematic resampling (one uniform
draw from the bots stream; the count of each world, its multiplicity, is what the search weighs
its scores by, so a world drawn twice is played out once) and reports the effective sample size
``(sum w)^2 / sum w^2`` of the candidates' weights. Everything is deterministic given the stream:
results do not depend on threads or chunking.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from tarotsim._kernels._bits import popcount
from tarotsim._kernels._cache import engine_sources, guard_cache
from tarotsim._kernels._rng import below, next_u64
from tarotsim._kernels.layout import (L_CARDS, L_LEADER, L_LEN, MAX_ECART, MAX_SEATS, N_BOT_PARAMS,
                                      PUB_BIDS, PUB_CALLED, PUB_CHIEN_S, PUB_CHIEN_T, PUB_CONTRACT, PUB_DEALER,
                                      PUB_ECART_T, PUB_H_CARDS, PUB_H_LEADER, PUB_LEADER, PUB_LEN, PUB_MISERE_KINDS,
                                      PUB_MISERES, PUB_PLAYED_S, PUB_PLAYED_T, PUB_POIGNEE_T, PUB_SLAM, PUB_TAKER,
                                      PUB_TRICK, PUB_TRICK_CARDS)
from tarotsim._kernels.masks import SW_KINGS, SW_SUITS, TW_T2_T20, TW_TRUMPS, card_bits
from tarotsim._kernels.steps import (add_to_trick, callable_cards, misere_eligible, new_bots_view, playable,
                                     poignee_levels, seating, set_called, track_trick)
from tarotsim._kernels.workspace import CHIEN_SIZE, POIGNEE_SIZES, WS_ECART_T, WS_LEN, WS_NEXT, WS_TAKER
from tarotsim._kernels.worlds import (C_ALLOWED, C_PSEC_ADD, C_PSEC_DEL, C_PSEC_ON, LOC_PILE, N_LOC,
                                      STAGE_AUCTION, STAGE_ECART)
from tarotsim._kernels.env import view_observation
from tarotsim.learn.forward import add_cards, card_probability, first_layer, has_model, unpack
from tarotsim.observations import OBS_AT, OBS_LEN
from tarotsim.rules import KERNEL_ECART_MADE, N_CONTRACTS, RV_MISERE, RV_N_ACTIVE, RV_TABLE, TABLE_2, TABLE_5

from .dispatch import policies_bid, policies_call, policies_card, policies_chelem, policies_ecart, policies_poignee
from . import heuristic
from .pimc import MAX_OPPONENT_HIDDEN, MAX_WORLDS

#: The model's kind: the heuristic bot's.
HEURISTIC = heuristic.CODE
#: The model's parameters: the heuristic's defaults (one row, copied to every seat's row).
MODEL_PARAMS = np.array([p[1] for p in heuristic.PARAMS] + [0.0] * (N_BOT_PARAMS - len(heuristic.PARAMS)),
                        dtype=np.float64)

# --- binomial coefficients, for the écart's shape ------------------------------------------------
BINOM = np.zeros((79, MAX_ECART + 1), dtype=np.float64)
for _n in range(79):
    for _k in range(min(_n, MAX_ECART) + 1):
        _c = 1.0
        for _i in range(_k):
            _c = _c * (_n - _i) / (_i + 1)
        BINOM[_n, _k] = _c

# --- the kernels' scratch, int64 offsets (float64 slots hold their bits) -------------------------
IW_PUB = 0                                   # the public view, replayed
IW_WS = IW_PUB + PUB_LEN                     # a workspace for the rule steps (seating, call, écart trumps)
IW_LOG = IW_WS + WS_LEN                      # a log for ``track_trick`` (leaders and cards of the tricks)
IW_PARAMS = IW_LOG + L_LEN                   # the model's parameter table, float64[MAX_SEATS, N_BOT_PARAMS]
IW_OUT = IW_PARAMS + MAX_SEATS * N_BOT_PARAMS  # the model's écart (card ids)
IW_PLAYED = IW_OUT + MAX_ECART               # per seat: the cards it played (trump words, then suit words)
IW_LOGF = IW_PLAYED + 2 * MAX_SEATS          # float64[80]: log weight of a decision the model explains, per n
IW_LOGFC = IW_LOGF + 80                      # ... the same for the cards (their own ε)
IW_HT = IW_LOGFC + 80                         # per world and seat (``w * MAX_SEATS + s``): its hand, trump word
IW_HS = IW_HT + MAX_WORLDS * MAX_SEATS       # ... and suit word
IW_LOGW = IW_HS + MAX_WORLDS * MAX_SEATS     # float64 per world: its log weight
IW_COUNT = IW_LOGW + MAX_WORLDS              # per world: its multiplicity after resampling
IW_HIDDEN = IW_COUNT + MAX_WORLDS            # the cards whose place is uncertain (the moves swap them)
IW_WHO = IW_HIDDEN + 78                      # per proposal: the world it would replace
IW_PART_LL = IW_WHO + MAX_WORLDS             # float64 per world being moved: its log weight
ROWS_LEN = (MAX_WORLDS * 78 + 7) // 8        # int8[MAX_WORLDS, 78] rows, 8 per int64
IW_PART = IW_PART_LL + MAX_WORLDS            # the worlds being moved (the draws, one row each)
IW_PROP = IW_PART + ROWS_LEN                 # the proposals
IW_LOGWS = IW_PROP + ROWS_LEN                # float64 per world and seat (``w * MAX_SEATS + s``): its log weight
IW_STATS = IW_LOGWS + MAX_WORLDS * MAX_SEATS  # counters (``ST_*``), for the benchmarks
#: ``IW_LOGF + LOGF_MISS``: log ε, the log weight of a decision the model does not explain
LOGF_MISS = 79
#: The counters: decisions weighed, candidates drawn, distinct worlds kept, sum of the ESS (in
#: thousandths), then a histogram of the ESS, bin k for an ESS in [2^k, 2^(k+1)).
ST_DECISIONS, ST_CANDIDATES, ST_KEPT, ST_ESS_MILLI, ST_ESS_HIST = 0, 1, 2, 3, 4
N_ESS_BINS = 13
#: ... then the moves proposed and accepted (:func:`move_worlds`)
ST_PROPOSED = ST_ESS_HIST + N_ESS_BINS
ST_ACCEPTED = ST_PROPOSED + 1
N_STATS = ST_ACCEPTED + 1
#: With the card-location model (``pimc:locations``): float64 per card and location code
#: (``c * N_LOC + loc``), the log of the model's probability of that place; then the switch.
IW_LOGQ = IW_STATS + N_STATS
IW_LOC_ON = IW_LOGQ + 78 * N_LOC
#: With the learned opponent model (``pimc:learned_opponent``): the deciding seat's observation
#: without its hand (uint8[OBS_LEN]), the policy's first layer on it (float32, at most
#: ``pimc.MAX_OPPONENT_HIDDEN``), and each world's hidden pile (trump word, suit word).
IW_OBS = IW_LOC_ON + 1
IW_BASE = IW_OBS + (OBS_LEN + 7) // 8
IW_PILE_T = IW_BASE + MAX_OPPONENT_HIDDEN // 2
IW_PILE_S = IW_PILE_T + MAX_WORLDS
INFER_LEN = IW_PILE_S + MAX_WORLDS

#: log weight of a world ruled out (an observed card not legal in it)
IMPOSSIBLE = -np.inf


@njit(inline="always")
def _log_factors(eps, logf):
    """``logf[n] = log(n (1 - ε) + ε)`` for n = 1..78, ``logf[LOGF_MISS] = log ε``."""
    logf[0] = 0.0
    for n in range(1, 79):
        logf[n] = np.log(n * (1.0 - eps) + eps)
    logf[LOGF_MISS] = np.log(eps)


@njit(inline="always")
def _observe(logws, k, explained, n, logf):
    """Add one decision with ``n`` legal choices to ``logws[k]``: a world's log weight for the deciding seat."""
    if n > 1:
        logws[k] += logf[n] if explained else logf[LOGF_MISS]


@njit(inline="always")
def _played_by_seat(rv, pub, pos, ws, played):
    """The cards each seat played so far, from the history and the trick being played.

    ``played[s]`` / ``played[MAX_SEATS + s]``: the cards seat ``s`` played so far (trump word, suit
    word), from the history ``PUB_H_*`` and the trick being played. Returns the number of cards."""
    na = rv[RV_N_ACTIVE]
    for s in range(2 * MAX_SEATS):
        played[s] = 0
    tr = pub[PUB_TRICK]
    for t in range(tr + 1):
        s = pub[PUB_H_LEADER + t] if t < tr else pub[PUB_LEADER]
        for j in range(na if t < tr else pos):
            bt, bs = card_bits(pub[PUB_H_CARDS + t * MAX_SEATS + j] if t < tr else pub[PUB_TRICK_CARDS + j])
            played[s] |= bt
            played[MAX_SEATS + s] |= bs
            s = ws[WS_NEXT + s]
    return tr * na + pos


@njit(inline="always")
def _world_hands(row, w, played, iht, ihs):
    """World ``w``'s hands at the start of the card play, and its hidden pile.

    World ``w``'s hands at the start of the card play (its cards now and those each seat
    played) into ``iht``, ``ihs``; returns the hidden pile (trump word, suit word)."""
    for s in range(MAX_SEATS):
        iht[w * MAX_SEATS + s] = played[s]
        ihs[w * MAX_SEATS + s] = played[MAX_SEATS + s]
    pt = np.int64(0)
    ps = np.int64(0)
    for c in range(78):
        loc = row[c]
        if loc < 0:
            continue
        bt, bs = card_bits(c)
        if loc < MAX_SEATS:
            iht[w * MAX_SEATS + loc] |= bt
            ihs[w * MAX_SEATS + loc] |= bs
        elif loc == LOC_PILE:
            pt |= bt
            ps |= bs
    return pt, ps


@njit(inline="always")
def _ecart_shape_log_factor(normal, es_model, es_world, n_ecart, eps):
    """The log weight of the écart's shape under the opponent model.

    The log weight of the écart's shape (its cards per suit): ``log((1 - ε) / p + ε)`` when the
    model's écart ``es_model`` has the shape of the world's ``es_world``, ``log ε`` when not; ``p``
    is the probability that a uniform choice of ``n_ecart`` cards among ``normal`` has that shape."""
    same = True
    p = 1.0 / BINOM[popcount(normal), n_ecart]
    for su in range(4):
        k = popcount(es_world & SW_SUITS[su])
        if popcount(es_model & SW_SUITS[su]) != k:
            same = False
        p *= BINOM[popcount(normal & SW_SUITS[su]), k]
    if not same or p <= 0.0:   # (p > 0 whenever the world's écart is of ``normal``)
        return np.log(eps)
    return np.log((1.0 - eps) / p + eps)


@njit(nogil=True, _nrt=False)
def _weigh_auction(rv, seat, stage, pub, worlds, n_cand, eps, iw, logw):
    """Weigh the other seats' bids, call, écart and chelem, world by world.

    The bids, the call, the écart and the chelem of the other seats, world by world (the
    module docstring). ``iw[IW_HT:]``, ``iw[IW_HS:]`` hold each world's hands at the start of the
    card play (stage play), or now (auction, écart)."""
    logws = iw[IW_LOGWS:IW_LOGWS + MAX_WORLDS * MAX_SEATS].view(np.float64)
    ipub = iw[IW_PUB:IW_PUB + PUB_LEN]
    ws = iw[IW_WS:IW_WS + WS_LEN]
    mp = iw[IW_PARAMS:IW_PARAMS + MAX_SEATS * N_BOT_PARAMS].view(np.float64).reshape((MAX_SEATS, N_BOT_PARAMS))
    out = iw[IW_OUT:IW_OUT + MAX_ECART]
    logf = iw[IW_LOGF:IW_LOGF + 80].view(np.float64)
    iht = iw[IW_HT:IW_HT + MAX_WORLDS * MAX_SEATS]
    ihs = iw[IW_HS:IW_HS + MAX_WORLDS * MAX_SEATS]
    na = rv[RV_N_ACTIVE]
    taker = pub[PUB_TAKER]
    contract = pub[PUB_CONTRACT]
    chien_t = pub[PUB_CHIEN_T]
    chien_s = pub[PUB_CHIEN_S]
    first = ws[WS_NEXT + pub[PUB_DEALER]]
    kind = np.int64(HEURISTIC)
    for w in range(n_cand):
        if logw[w] == IMPOSSIBLE:
            continue
        row = worlds[w]
        # the taker's hand as dealt: at prise and garde, his hand with the chien and without the écart
        et = np.int64(0)
        es = np.int64(0)
        if taker >= 0 and KERNEL_ECART_MADE[contract] and stage != STAGE_AUCTION:
            if stage == STAGE_ECART:   # the chien is in his hand, the écart not made yet
                dt = iht[w * MAX_SEATS + taker] & ~chien_t
                ds = ihs[w * MAX_SEATS + taker] & ~chien_s
            else:
                for c in range(78):
                    if row[c] == LOC_PILE:
                        bt, bs = card_bits(c)
                        et |= bt
                        es |= bs
                dt = (iht[w * MAX_SEATS + taker] | et) & ~chien_t
                ds = (ihs[w * MAX_SEATS + taker] | es) & ~chien_s
        else:
            dt = iht[w * MAX_SEATS + max(taker, 0)]
            ds = ihs[w * MAX_SEATS + max(taker, 0)]
        # R-BID-1, R-BID-2: in speaking order, each bid above the highest so far, or a pass
        highest = np.int64(-1)
        s = first
        for _ in range(na):
            bid = pub[PUB_BIDS + s]
            if bid == -2:   # not spoken yet
                break
            if s != seat:
                ht = dt if s == taker else iht[w * MAX_SEATS + s]
                hs = ds if s == taker else ihs[w * MAX_SEATS + s]
                model = policies_bid(kind, mp, s, ht, hs, ipub, highest)
                _observe(logws, w * MAX_SEATS + s, model == bid, N_CONTRACTS - highest, logf)
            if bid > highest:
                highest = bid
            s = ws[WS_NEXT + s]
        if taker < 0 or taker == seat or stage == STAGE_AUCTION:
            continue
        # R-CALL-1: the call, on the hand as dealt
        called = pub[PUB_CALLED]
        if rv[RV_TABLE] == TABLE_5 and called >= 0:
            legal = callable_cards(ds)
            model = policies_call(kind, mp, taker, dt, ds, ipub, legal)
            _observe(logws, w * MAX_SEATS + taker, 22 + model == called, popcount(legal), logf)
        if stage == STAGE_ECART:
            continue
        # R-CHIEN-2: the écart's shape, when it was a choice among suit cards only
        if KERNEL_ECART_MADE[contract]:
            n_ecart = CHIEN_SIZE[rv[RV_TABLE]]
            tht = dt | chien_t
            ths = ds | chien_s
            normal = ths & ~SW_KINGS
            if popcount(normal) > n_ecart:
                _, ms = policies_ecart(kind, mp, taker, tht, ths, ipub, normal, tht & TW_T2_T20, n_ecart, out,
                                        np.int64(0))
                logws[w * MAX_SEATS + taker] += _ecart_shape_log_factor(normal, ms, es, n_ecart, eps)
        # R-SLAM-1: the chelem, once the play began (the taker announced it or not before trick 1)
        if pub[PUB_LEADER] >= 0:
            model = policies_chelem(kind, mp, taker, iht[w * MAX_SEATS + taker], ihs[w * MAX_SEATS + taker], ipub)
            _observe(logws, w * MAX_SEATS + taker, model == pub[PUB_SLAM], 2, logf)


@njit(inline="always")
def _poignee_level(rv, shown):
    """The level (1..3) of a poignée of the trumps ``shown``, 0 for none."""
    if shown == 0:
        return np.int64(0)
    size = popcount(shown)
    lvl = np.int64(1)
    for k in range(3):
        if POIGNEE_SIZES[rv[RV_TABLE], k] == size:
            lvl = k + 1
    return lvl


@njit(nogil=True, _nrt=False)
def _weigh_first_turn(rv, seat, s, pub, n_cand, iw, logw):
    """Weigh seat ``s``'s declarations at its first turn, world by world.

    Seat ``s``'s declarations at its first turn (trick 1, before its card), world by world: the
    poignée (R-POIG-1, R-POIG-3: the level it may show from its trumps in that world) and the
    misères (R-MIS-1); then they join the replayed public view, as ``play._first_turn`` does."""
    logws = iw[IW_LOGWS:IW_LOGWS + MAX_WORLDS * MAX_SEATS].view(np.float64)
    ipub = iw[IW_PUB:IW_PUB + PUB_LEN]
    ws = iw[IW_WS:IW_WS + WS_LEN]
    mp = iw[IW_PARAMS:IW_PARAMS + MAX_SEATS * N_BOT_PARAMS].view(np.float64).reshape((MAX_SEATS, N_BOT_PARAMS))
    logf = iw[IW_LOGF:IW_LOGF + 80].view(np.float64)
    iht = iw[IW_HT:IW_HT + MAX_WORLDS * MAX_SEATS]
    ihs = iw[IW_HS:IW_HS + MAX_WORLDS * MAX_SEATS]
    if s != seat:
        shown = _poignee_level(rv, pub[PUB_POIGNEE_T + s])
        kinds = pub[PUB_MISERE_KINDS + s]
        for w in range(n_cand):
            if logw[w] == IMPOSSIBLE:
                continue
            ht = iht[w * MAX_SEATS + s]
            hs = ihs[w * MAX_SEATS + s]
            n_lev, _ = poignee_levels(rv, s, ht, ws)
            if shown > n_lev:
                logw[w] = IMPOSSIBLE
                continue
            if n_lev > 0:
                model = policies_poignee(np.int64(HEURISTIC), mp, s, ht, hs, ipub, n_lev)
                _observe(logws, w * MAX_SEATS + s, model == shown, n_lev + 1, logf)
            if rv[RV_MISERE]:
                for which in range(2):
                    # the heuristic never declares a misère (``bots.dispatch._bot_misere``)
                    if misere_eligible(rv, which, ht, hs):
                        _observe(logws, w * MAX_SEATS + s, (kinds >> which) & 1 == 0, 2, logf)
    ipub[PUB_POIGNEE_T + s] = pub[PUB_POIGNEE_T + s]
    ipub[PUB_MISERES + s] = pub[PUB_MISERES + s]
    ipub[PUB_MISERE_KINDS + s] = pub[PUB_MISERE_KINDS + s]


#: The entries of a seat's observation that its cards decide: its hand, its écart, itself as the partner
_O_HAND, _O_ECART, _O_PARTNER = OBS_AT["hand"], OBS_AT["ecart"], OBS_AT["partner"]


@njit(inline="always")
def _opponent_base(rv, s, ipub, pos, model, iw):
    """The learned policy's first layer on seat ``s``'s observation at its card, its hand left out, into ``IW_BASE``.

    What every world shares of seat ``s``'s observation at its card (``env.view_observation`` on
    the public view replayed so far, with an empty hand), once per decision: each world then adds
    what its cards decide (:func:`_opponent_probability`)."""
    obs = iw[IW_OBS:IW_BASE].view(np.uint8)[:OBS_LEN]
    zero = np.int64(0)
    view_observation(rv, s, zero, zero, zero, zero, ipub, pos, obs)
    scale, w0, b0, _, _, _, _, _, _ = unpack(model)
    first_layer(obs, scale, w0, b0, iw[IW_BASE:IW_PILE_T].view(np.float32)[:b0.size])


@njit(inline="always")
def _opponent_probability(s, w, ht, hs, c, lt, ls, ipub, model, iw):
    """The learned policy's probability that seat ``s`` plays ``c`` of its legal cards ``(lt, ls)`` in world ``w``.

    Seat ``s``'s observation in world ``w``: the shared one (:func:`_opponent_base`) and what the
    world decides: its hand ``(ht, hs)``; its écart when it is the taker at prise or garde (the
    world's hidden pile, R-CHIEN-2); that it is the partner when it holds the called card (R-CALL-3)."""
    scale, w0, b0, w1, b1, w2, b2, work, _ = unpack(model)
    n0 = b0.size
    h0 = work[:n0]
    base = iw[IW_BASE:IW_PILE_T].view(np.float32)
    for j in range(n0):
        h0[j] = base[j]
    add_cards(ht, hs, _O_HAND, scale, w0, h0)
    taker = ipub[PUB_TAKER]
    if s == taker and KERNEL_ECART_MADE[ipub[PUB_CONTRACT]]:
        add_cards(iw[IW_PILE_T + w], iw[IW_PILE_S + w], _O_ECART, scale, w0, h0)
    called = ipub[PUB_CALLED]
    if called >= 22 and s != taker and (hs >> (called - 22)) & 1:
        for j in range(n0):
            h0[j] += scale[_O_PARTNER] * w0[_O_PARTNER, j]
    return card_probability(h0, c, lt, ls, w1, b1, w2, b2, work[n0:])


@njit(nogil=True, _nrt=False)
def _weigh_card(rv, seat, s, c, first, pos, fixed, fmask, amask, n_cand, model, iw, logw):
    """Weigh seat ``s``'s card ``c``, world by world.

    Seat ``s``'s card ``c`` at position ``pos`` of a trick, world by world: illegal in a world
    (R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-EXC-1; R-CALL-4 in trick 1, ``first``) rules it out, else
    the model explains it or not; then ``c`` leaves ``s``'s hand in every world. With a policy
    ``model`` (packed; empty: the heuristic) the card weighs ``n (1 - ε) p + ε``, ``p`` the
    policy's probability of ``c`` among the ``n`` legal cards of ``s`` in the world."""
    logws = iw[IW_LOGWS:IW_LOGWS + MAX_WORLDS * MAX_SEATS].view(np.float64)
    ipub = iw[IW_PUB:IW_PUB + PUB_LEN]
    ws = iw[IW_WS:IW_WS + WS_LEN]
    mp = iw[IW_PARAMS:IW_PARAMS + MAX_SEATS * N_BOT_PARAMS].view(np.float64).reshape((MAX_SEATS, N_BOT_PARAMS))
    logf = iw[IW_LOGFC:IW_LOGFC + 80].view(np.float64)
    iht = iw[IW_HT:IW_HT + MAX_WORLDS * MAX_SEATS]
    ihs = iw[IW_HS:IW_HS + MAX_WORLDS * MAX_SEATS]
    bt, bs = card_bits(c)
    soft = logf[LOGF_MISS] != 0.0   # at ε = 1 a card weighs by its legality alone: no model to ask
    learned = soft and s != seat and has_model(model)
    eps = np.exp(logf[LOGF_MISS])
    if learned:
        _opponent_base(rv, s, ipub, pos, model, iw)
    for w in range(n_cand):
        k = w * MAX_SEATS + s
        ht = iht[k]
        hs = ihs[k]
        iht[k] = ht & ~bt
        ihs[k] = hs & ~bs
        if s == seat or logw[w] == IMPOSSIBLE:
            continue
        lt, ls = playable(rv, ws, ht, hs, pos, fixed, fmask, amask, first)
        if (lt & bt) == 0 and (ls & bs) == 0:
            logw[w] = IMPOSSIBLE
            continue
        n = popcount(lt) + popcount(ls)
        if n > 1 and learned:
            p = _opponent_probability(s, w, ht, hs, c, lt, ls, ipub, model, iw)
            logws[k] += np.log(n * (1.0 - eps) * np.float64(p) + eps)
        elif n > 1 and soft:
            chosen = policies_card(np.int64(HEURISTIC), mp, s, ht, hs, ipub, lt, ls, np.int64(fixed), fmask, amask,
                                   pos)
            _observe(logws, k, chosen == c, n, logf)


@njit(inline="always")
def _replay_view(rv, pub, ipub, ws, log):
    """Rebuild the public view as it was at the start of the card play.

    The public view at the start of the card play: ``pub``'s facts of the auction and the chien
    (bids, taker, contract, called card, chien, écart trumps, chelem), the play's bookkeeping
    emptied (``steps.new_bots_view``), no poignée nor misère declared yet; the seating and the
    called card in ``ws`` (``steps.set_called``)."""
    for i in range(PUB_LEN):
        ipub[i] = pub[i]
    new_bots_view(rv, ipub)
    # what the card play adds beyond the bots' bookkeeping: the cards played, the declarations
    ipub[PUB_PLAYED_T] = 0
    ipub[PUB_PLAYED_S] = 0
    for s in range(MAX_SEATS):
        ipub[PUB_POIGNEE_T + s] = 0
        ipub[PUB_MISERES + s] = 0
    seating(rv, pub[PUB_DEALER], ws)  # the dealer is the deal index modulo the seats
    ws[WS_TAKER] = pub[PUB_TAKER]
    ws[WS_ECART_T] = pub[PUB_ECART_T]
    if pub[PUB_CALLED] >= 0:
        set_called(pub[PUB_CALLED], ws, log, ipub)


@njit(nogil=True, _nrt=False)
def _weigh_play(rv, seat, pub, pos, n_cand, model, iw, logw):
    """Weigh the tricks so far, card by card, world by world.

    The tricks so far, card by card (and the declarations at each seat's first turn), with the
    public view rebuilt as the deal kernel fills it (``steps.track_trick`` after each trick)."""
    ipub = iw[IW_PUB:IW_PUB + PUB_LEN]
    ws = iw[IW_WS:IW_WS + WS_LEN]
    log = iw[IW_LOG:IW_LOG + L_LEN]
    na = rv[RV_N_ACTIVE]
    tr_now = pub[PUB_TRICK]
    two = rv[RV_TABLE] == TABLE_2
    for tr in range(tr_now + 1):
        leader = pub[PUB_H_LEADER + tr] if tr < tr_now else pub[PUB_LEADER]
        n_cards = na if tr < tr_now else pos
        ipub[PUB_TRICK] = tr
        ipub[PUB_LEADER] = leader
        log[L_LEADER + tr] = leader
        # the state of ``steps.open_trick`` (np.bool_: a literal False would compile ``legal_masks`` twice)
        trick = (leader, np.bool_(False), np.int64(0), TW_TRUMPS, np.int64(-2), leader, np.int64(-1), np.int64(0),
                 np.int64(0))
        for j in range(n_cards):
            c = pub[PUB_H_CARDS + tr * MAX_SEATS + j] if tr < tr_now else pub[PUB_TRICK_CARDS + j]
            s, fixed, fmask, amask = trick[0], trick[1], trick[2], trick[3]
            if tr == 0 and not two:
                _weigh_first_turn(rv, seat, s, pub, n_cand, iw, logw)
            _weigh_card(rv, seat, s, c, tr == 0, np.int64(j), fixed, fmask, amask, n_cand, model, iw, logw)
            ipub[PUB_TRICK_CARDS + j] = c
            log[L_CARDS + tr * MAX_SEATS + j] = c
            bt, bs = card_bits(c)
            trick = add_to_trick(trick, j, c, bt, bs, s, ws[WS_NEXT + s])
        tt, ts = trick[7], trick[8]
        if tr < tr_now:
            # the trick is over: its cards are out (as ``close_trick`` records them) and its winner
            # leads the next one (R-PLAY-1)
            ipub[PUB_PLAYED_T] |= tt
            ipub[PUB_PLAYED_S] |= ts
            winner = pub[PUB_H_LEADER + tr + 1] if tr + 1 < tr_now else pub[PUB_LEADER]
            track_trick(ipub, log, ws, tr, na, pub[PUB_CALLED], winner, tt, ts)


@njit(nogil=True, _nrt=False)
def weigh_worlds(rv, seat, stage, pub, pos, worlds, n_cand, eps, card_eps, trust, model, iw):
    """The log weight of each candidate world into ``iw[IW_LOGW:]`` (float64[n_cand]; -inf: ruled out).

    Parameters
    ----------
    rv : int64[RV_LEN]
        The rules vector.
    seat : int
        The seat whose worlds these are (its own decisions are not weighed).
    stage : int
        ``worlds.STAGE_*`` of the decision: the auction (the bids so far), the écart being made,
        or the play (everything up to the card at position ``pos`` of trick ``pub[PUB_TRICK]``).
    pub : int64[PUB_LEN]
        The public view at the decision (``layout.PUB_*``, its history ``PUB_H_*`` included).
    pos : int
        Cards already in the trick being played.
    worlds : int8[>= n_cand, 78]
        The candidates, as ``worlds.sample_worlds`` writes them.
    eps : float
        The model's ε for the bids, the call, the écart and the declarations, in (0, 1].
    card_eps : float
        Its ε for the cards played, in (0, 1] (1: a card weighs nothing beyond its legality).
    trust : float
        The prior probability, in [0, 1], that a seat plays as the model (:func:`_mix_seats`; 1:
        every seat does, 0: no decision weighs anything beyond its legality).
    model : int64[k]
        The opponent model of the cards played: a policy packed by ``tarotsim.learn.forward.pack``
        (the ``learned`` bot's network, ``pimc:learned_opponent``), or empty: the heuristic.
    iw : int64[INFER_LEN]
        Scratch (``IW_*``).
    """
    logw = iw[IW_LOGW:IW_LOGW + MAX_WORLDS].view(np.float64)
    logws = iw[IW_LOGWS:IW_LOGWS + MAX_WORLDS * MAX_SEATS].view(np.float64)
    for w in range(n_cand):
        logw[w] = 0.0
        for s in range(MAX_SEATS):
            logws[w * MAX_SEATS + s] = 0.0
    if rv[RV_TABLE] == TABLE_2:
        return
    ws = iw[IW_WS:IW_WS + WS_LEN]
    log = iw[IW_LOG:IW_LOG + L_LEN]
    ipub = iw[IW_PUB:IW_PUB + PUB_LEN]
    mp = iw[IW_PARAMS:IW_PARAMS + MAX_SEATS * N_BOT_PARAMS].view(np.float64).reshape((MAX_SEATS, N_BOT_PARAMS))
    for s in range(MAX_SEATS):
        for i in range(N_BOT_PARAMS):
            mp[s, i] = MODEL_PARAMS[i]
    _log_factors(eps, iw[IW_LOGF:IW_LOGF + 80].view(np.float64))
    _log_factors(card_eps, iw[IW_LOGFC:IW_LOGFC + 80].view(np.float64))
    _replay_view(rv, pub, ipub, ws, log)
    played = iw[IW_PLAYED:IW_PLAYED + 2 * MAX_SEATS]
    playing = stage != STAGE_AUCTION and stage != STAGE_ECART
    if playing:
        _played_by_seat(rv, pub, pos, ws, played)
    else:
        for s in range(2 * MAX_SEATS):
            played[s] = 0
    iht = iw[IW_HT:IW_HT + MAX_WORLDS * MAX_SEATS]
    ihs = iw[IW_HS:IW_HS + MAX_WORLDS * MAX_SEATS]
    for w in range(n_cand):
        iw[IW_PILE_T + w], iw[IW_PILE_S + w] = _world_hands(worlds[w], w, played, iht, ihs)
    _weigh_auction(rv, seat, stage, pub, worlds, n_cand, eps, iw, logw)
    if playing:
        _weigh_play(rv, seat, pub, pos, n_cand, model, iw, logw)
    _mix_seats(logw, logws, n_cand, trust)
    if iw[IW_LOC_ON]:
        add_locations(worlds, n_cand, iw[IW_LOGQ:IW_LOGQ + 78 * N_LOC].view(np.float64), logw)


@njit(inline="always")
def add_locations(worlds, n_cand, logq, logw):
    """Add the card-location model's log probability of each world's places to its log weight.

    ``logq[c * N_LOC + loc]``: the log of the model's probability that card ``c`` is at location
    code ``loc`` (0 where the seat knows the place); a world's term is the sum over its cards
    (the law ``prod_c q(c, w_c)`` over the possible worlds, ``tarotsim.learn.weighted_worlds``).
    It is the seat's own belief, not a model of another seat's play: ``trust`` does not mix it.
    A world ruled out stays so."""
    for w in range(n_cand):
        if logw[w] == IMPOSSIBLE:
            continue
        row = worlds[w]
        total = 0.0
        for c in range(78):
            loc = row[c]
            if loc >= 0:
                total += logq[c * N_LOC + loc]
        logw[w] += total


@njit(inline="always")
def _mix_seats(logw, logws, n_cand, trust):
    """Each world's log weight from its seats' log weights, each seat a model player or not.

    A seat plays as the model with prior probability ``trust``, and otherwise uniformly among its
    legal choices (the weight 1 of a world, relative to the uniform choice): world ``w``'s weight
    is the product over the seats of ``trust * exp(logws[w, s]) + (1 - trust)``. Then a seat whose
    decisions the model explains badly in every world stops moving the weights, whatever the
    others do; ``trust = 1`` is the product of every decision's factor. A world ruled out stays so."""
    for w in range(n_cand):
        if logw[w] == IMPOSSIBLE:
            continue
        total = 0.0
        for s in range(MAX_SEATS):
            x = logws[w * MAX_SEATS + s]
            if trust >= 1.0:
                total += x
            elif trust <= 0.0:
                continue
            elif x < 700.0:
                total += np.log(trust * np.exp(x) + (1.0 - trust))
            else:  # exp(x) would overflow, and 1 - trust is nothing beside it
                total += x + np.log(trust)
        logw[w] = total


@njit(inline="always")
def _weight(lw, top, power):
    """The weight ``exp(power * (lw - top))`` of a log weight ``lw`` (0 for a world ruled out)."""
    if lw == IMPOSSIBLE or top == IMPOSSIBLE:
        return 0.0
    return np.exp(power * (lw - top))


@njit(inline="always")
def _ess_at(logw, n_cand, top, power):
    """The ESS ``(sum w)^2 / sum w^2`` of the weights ``exp(power * (logw - top))``."""
    total = 0.0
    total2 = 0.0
    for w in range(n_cand):
        if logw[w] > IMPOSSIBLE:
            x = np.exp(power * (logw[w] - top))
            total += x
            total2 += x * x
    return total * total / total2


@njit(inline="always")
def _tempering(logw, n_cand, top, min_ess):
    """The power that tempers the log weights to keep an ESS of ``min_ess``.

    The power (in [0, 1]) the log weights are multiplied by: 1 when the weights keep an ESS of
    ``min_ess`` or more, else the largest power found (by bisection, to 2^-12) that keeps it (at
    power 0 every possible world weighs 1). Tempered weights trust a model that may be wrong
    less: the worlds keep their order of likelihood, but more of them stay in play."""
    if min_ess <= 1 or _ess_at(logw, n_cand, top, 1.0) >= min_ess:
        return 1.0
    lo = 0.0
    hi = 1.0
    for _ in range(12):
        mid = 0.5 * (lo + hi)
        if _ess_at(logw, n_cand, top, mid) >= min_ess:
            lo = mid
        else:
            hi = mid
    return lo


@njit(nogil=True, _nrt=False)
def resample(worlds, n_cand, n_worlds, min_ess, iw, st):
    """Resample ``n_worlds`` of the weighted candidates, the distinct ones with their counts.

    Draw ``n_worlds`` of the ``n_cand`` weighted candidates (systematic resampling: one uniform
    draw from ``st``, then evenly spaced points of the weights' running sum), keep the distinct
    ones in front of ``worlds`` (in their order) with their multiplicities in ``iw[IW_COUNT:]``, and
    count the decision (``IW_STATS``); their log weights follow them in ``iw[IW_LOGW:]``. The
    weights are first tempered (:func:`_tempering`) to keep an ESS of ``min_ess`` at least (0:
    never). Every weight 0 (never with true information): the first ``n_worlds`` candidates, once
    each. Returns ``(distinct worlds, ESS, tempering power, state)``."""
    logw = iw[IW_LOGW:IW_LOGW + MAX_WORLDS].view(np.float64)
    count = iw[IW_COUNT:IW_COUNT + MAX_WORLDS]
    top = IMPOSSIBLE
    for w in range(n_cand):
        if logw[w] > top:
            top = logw[w]
    power = _tempering(logw, n_cand, top, min_ess) if top > IMPOSSIBLE else 1.0
    total = 0.0
    total2 = 0.0
    for w in range(n_cand):
        x = _weight(logw[w], top, power)
        total += x
        total2 += x * x
    u, st = next_u64(st)
    if total <= 0.0:
        for w in range(n_cand):
            count[w] = 1 if w < n_worlds else 0
        ess = 0.0
    else:
        ess = total * total / total2
        step = total / n_worlds
        point = (np.float64(u >> np.uint64(11)) * (1.0 / 9007199254740992.0)) * step
        run = 0.0
        short = n_worlds
        last = 0
        for w in range(n_cand):
            x = _weight(logw[w], top, power)
            run += x
            k = 0
            while point < run and k < n_worlds:
                k += 1
                point += step
            count[w] = k
            short -= k
            if x > 0.0:
                last = w
        count[last] += short   # the points rounding put past the end of the sum
    kept = 0
    for w in range(n_cand):
        if count[w] > 0:
            if kept != w:
                for c in range(78):
                    worlds[kept, c] = worlds[w, c]
                count[kept] = count[w]
                logw[kept] = logw[w]
            kept += 1
    stats = iw[IW_STATS:IW_STATS + N_STATS]
    stats[ST_DECISIONS] += 1
    stats[ST_CANDIDATES] += n_cand
    stats[ST_KEPT] += kept
    stats[ST_ESS_MILLI] += np.int64(1000.0 * ess)
    b = np.int64(0)
    while b < N_ESS_BINS - 1 and ess >= 2.0 ** (b + 1):
        b += 1
    stats[ST_ESS_HIST + b] += 1
    return kept, ess, power, st


@njit(inline="always")
def _deals_petit_sec(cons, row, s):
    """Whether seat ``s`` of world ``row`` would have been dealt a petit sec (R-DEAL-4).

    Would seat ``s`` of world ``row`` have been dealt a petit sec (R-DEAL-4)? (The sampler's
    rule: its dealt trump word is ``(trump word now | C_PSEC_ADD) & ~C_PSEC_DEL``.)"""
    if s >= MAX_SEATS or not cons[C_PSEC_ON + s]:
        return False
    t = np.int64(0)
    for c in range(22):
        if row[c] == s:
            t |= np.int64(1) << c
    return ((t | cons[C_PSEC_ADD + s]) & ~cons[C_PSEC_DEL + s]) == 2


@njit(inline="always")
def _pick_swap(cons, hidden, n_hidden, row, st):
    """Two of the ``hidden`` cards drawn uniformly: ``(valid, a, b, place of a, place of b, state)``.

    Valid when they lie in different places of world ``row`` and each is allowed in the other's
    (``C_ALLOWED``); the petit-sec rule is the caller's to check after the swap."""
    ja, st = below(st, n_hidden)
    jb, st = below(st, n_hidden - 1)
    if jb >= ja:
        jb += 1
    a = hidden[ja]
    b = hidden[jb]
    la = row[a]
    lb = row[b]
    ok = la != lb and (cons[C_ALLOWED + a] >> lb) & 1 == 1 and (cons[C_ALLOWED + b] >> la) & 1 == 1
    return ok, a, b, la, lb, st


@njit(inline="always")
def _rows_of_draws(worlds, kept, count, parts):
    """One row of ``parts`` per draw: each of the ``kept`` distinct worlds as many times as its count."""
    r = 0
    for w in range(kept):
        for _ in range(count[w]):
            for c in range(78):
                parts[r, c] = worlds[w, c]
            r += 1


@njit(inline="always")
def _uncertain_cards(cons, hidden):
    """The cards of more than one allowed place into ``hidden``; returns how many."""
    n_hidden = np.int64(0)
    for c in range(78):
        a = cons[C_ALLOWED + c]
        if a & (a - 1):
            hidden[n_hidden] = c
            n_hidden += 1
    return n_hidden


@njit(inline="always")
def _propose(cons, hidden, n_hidden, row, out, st):
    """Propose a swap of two uncertain cards of world ``row`` into ``out``.

    A swap of two uncertain cards of world ``row`` into ``out``: two of the ``hidden`` cards drawn
    uniformly, in different places, each allowed in the other's (``C_ALLOWED``), and no petit sec
    dealt after it. Returns ``(valid, state)``; an invalid proposal leaves the world as it is (the
    proposal is symmetric, so the move keeps the law it targets)."""
    ok, a, b, la, lb, st = _pick_swap(cons, hidden, n_hidden, row, st)
    if not ok:
        return False, st
    for c in range(78):
        out[c] = row[c]
    out[a] = lb
    out[b] = la
    if (a < 22 or b < 22) and (_deals_petit_sec(cons, out, la) or _deals_petit_sec(cons, out, lb)):
        return False, st
    return True, st


@njit(nogil=True, _nrt=False)
def move_worlds(rv, seat, stage, pub, pos, cons, worlds, kept, n_worlds, n_moves, power, eps, card_eps, trust, model,
                iw, st):
    """Move the resampled worlds by Metropolis-Hastings swaps towards the weighted law.

    Resample-move: the ``n_worlds`` draws of :func:`resample` (the ``kept`` distinct worlds of
    ``worlds`` with their counts), one row each, each moved ``n_moves`` times by Metropolis-Hastings
    with :func:`_propose`'s swaps, towards the law ``exp(power * log weight)`` over the worlds the
    seat cannot rule out: a swap is accepted with probability ``min(1, exp(power * (new - old)))``
    (one uniform draw from ``st``). The worlds a draw shared move apart, so fewer coincide; the
    law of each world stays the one the weights give. Then the rows go back into ``worlds``,
    identical neighbours merged with their counts in ``iw[IW_COUNT:]``. Returns ``(distinct
    worlds, state)``."""
    logw = iw[IW_LOGW:IW_LOGW + MAX_WORLDS].view(np.float64)
    count = iw[IW_COUNT:IW_COUNT + MAX_WORLDS]
    hidden = iw[IW_HIDDEN:IW_HIDDEN + 78]
    who = iw[IW_WHO:IW_WHO + MAX_WORLDS]
    ll = iw[IW_PART_LL:IW_PART_LL + MAX_WORLDS].view(np.float64)
    parts = iw[IW_PART:IW_PART + ROWS_LEN].view(np.int8)[:n_worlds * 78].reshape((n_worlds, 78))
    prop = iw[IW_PROP:IW_PROP + ROWS_LEN].view(np.int8)[:n_worlds * 78].reshape((n_worlds, 78))
    stats = iw[IW_STATS:IW_STATS + N_STATS]
    _rows_of_draws(worlds, kept, count, parts)
    r = 0
    for w in range(kept):
        for _ in range(count[w]):
            ll[r] = logw[w]
            r += 1
    n_hidden = _uncertain_cards(cons, hidden)
    for _ in range(n_moves if n_hidden >= 2 else 0):
        # np.int64: with a literal 0 numba's type inference would also compile the weighing for it
        k = np.int64(0)
        for i in range(n_worlds):
            ok, st = _propose(cons, hidden, n_hidden, parts[i], prop[k], st)
            if ok:
                who[k] = i
                k += 1
        stats[ST_PROPOSED] += k
        if k == 0:
            continue
        weigh_worlds(rv, seat, stage, pub, pos, prop, k, eps, card_eps, trust, model, iw)
        for j in range(k):
            if logw[j] == IMPOSSIBLE:
                continue
            i = who[j]
            u, st = next_u64(st)
            if np.log((np.float64(u >> np.uint64(11)) + 1.0) * (1.0 / 9007199254740992.0)) < power * (logw[j] - ll[i]):
                for c in range(78):
                    parts[i, c] = prop[j, c]
                ll[i] = logw[j]
                stats[ST_ACCEPTED] += 1
    return _merge_rows(worlds, parts, n_worlds, count), st


@njit(nogil=True, _nrt=False)
def move_by_locations(cons, worlds, kept, n_worlds, n_moves, power, iw, st):
    """:func:`move_worlds` when the card-location model alone weighs the worlds (no opponent model).

    The same resample-move, towards the law ``exp(power * sum_c logq[c, w_c])`` (``IW_LOGQ``, the
    model's log probabilities of the decision): a swap of two uncertain cards (:func:`_propose`'s,
    done in place and undone if refused) changes a world's log weight by the four terms of the two
    cards, so a move costs no replay of the deal. Returns ``(distinct worlds, state)``."""
    count = iw[IW_COUNT:IW_COUNT + MAX_WORLDS]
    hidden = iw[IW_HIDDEN:IW_HIDDEN + 78]
    logq = iw[IW_LOGQ:IW_LOGQ + 78 * N_LOC].view(np.float64)
    parts = iw[IW_PART:IW_PART + ROWS_LEN].view(np.int8)[:n_worlds * 78].reshape((n_worlds, 78))
    stats = iw[IW_STATS:IW_STATS + N_STATS]
    _rows_of_draws(worlds, kept, count, parts)
    n_hidden = _uncertain_cards(cons, hidden)
    for i in range(n_worlds if n_hidden >= 2 else 0):
        row = parts[i]
        for _ in range(n_moves):
            ok, a, b, la, lb, st = _pick_swap(cons, hidden, n_hidden, row, st)
            if not ok:
                continue
            stats[ST_PROPOSED] += 1
            delta = logq[a * N_LOC + lb] + logq[b * N_LOC + la] - logq[a * N_LOC + la] - logq[b * N_LOC + lb]
            u, st = next_u64(st)
            if np.log((np.float64(u >> np.uint64(11)) + 1.0) * (1.0 / 9007199254740992.0)) >= power * delta:
                continue
            row[a] = lb
            row[b] = la
            if (a < 22 or b < 22) and (_deals_petit_sec(cons, row, la) or _deals_petit_sec(cons, row, lb)):
                row[a] = la   # R-DEAL-4: no world deals a petit sec
                row[b] = lb
                continue
            stats[ST_ACCEPTED] += 1
    return _merge_rows(worlds, parts, n_worlds, count), st


@njit(inline="always")
def _merge_rows(worlds, parts, n_worlds, count):
    """The rows ``parts`` back into ``worlds``, identical neighbours merged with their counts; returns how many."""
    kept = 0
    for i in range(n_worlds):
        same = kept > 0
        if same:
            for c in range(78):
                if worlds[kept - 1, c] != parts[i, c]:
                    same = False
                    break
        if same:
            count[kept - 1] += 1
        else:
            for c in range(78):
                worlds[kept, c] = parts[i, c]
            count[kept] = 1
            kept += 1
    return kept


# --- a compiled entry point for Python (``tarotsim.inference``) ----------------------------------

@njit(cache=True, nogil=True)
def log_weights(rv, seat, stage, pub, pos, worlds, eps, card_eps, trust, model, out):
    """The log weights of every row of ``worlds``, for the library.

    :func:`weigh_worlds` over every row of ``worlds`` (at most ``MAX_WORLDS``) with the opponent
    model ``model`` (a packed policy, or empty: the heuristic), the log weights into ``out``
    (float64[len(worlds)])."""
    iw = np.zeros(INFER_LEN, dtype=np.int64)
    n = worlds.shape[0]
    weigh_worlds(rv, seat, stage, pub, pos, worlds, n, eps, card_eps, trust, model, iw)
    logw = iw[IW_LOGW:IW_LOGW + MAX_WORLDS].view(np.float64)
    for w in range(n):
        out[w] = logw[w]


@njit(cache=True, nogil=True)
def draw_worlds(rv, seat, stage, pub, pos, cons, cand, n_worlds, eps, card_eps, trust, min_ess, n_moves, st, out,
                counts):
    """Draw, weigh, resample and move the worlds of a ``pimc:infer=1`` decision, for the library.

    What a ``pimc:infer=1`` decision plays out: the candidates ``cand`` (int8[n, 78], drawn from
    the bots stream, which ``st`` continues) weighed, ``n_worlds`` of them resampled and moved
    ``n_moves`` times; the distinct worlds into ``out`` (int8[>= n_worlds, 78]) with their counts
    into ``counts``. Returns ``(distinct worlds, ESS of the candidates' weights, state)``."""
    iw = np.zeros(INFER_LEN, dtype=np.int64)
    n_cand = cand.shape[0]
    weigh_worlds(rv, seat, stage, pub, pos, cand, n_cand, eps, card_eps, trust, iw[:0], iw)
    kept, ess, power, st = resample(cand, n_cand, n_worlds, min_ess, iw, st)
    if n_moves > 0:
        kept, st = move_worlds(rv, seat, stage, pub, pos, cons, cand, kept, n_worlds, n_moves, power, eps, card_eps,
                               trust, iw[:0], iw, st)
    count = iw[IW_COUNT:IW_COUNT + MAX_WORLDS]
    for w in range(kept):
        for c in range(78):
            out[w, c] = cand[w, c]
        counts[w] = count[w]
    return kept, ess, st


@njit(cache=True, nogil=True)
def tempering_power(logw, min_ess):
    """:func:`_tempering` of the log weights ``logw`` (float64[n], some -inf allowed, not all)."""
    top = IMPOSSIBLE
    for w in range(logw.shape[0]):
        if logw[w] > top:
            top = logw[w]
    return _tempering(logw, logw.shape[0], top, min_ess)


# the cache guard (``tarotsim._kernels._cache``): this kernel inlines the engine's steps and the bots
guard_cache("bots-inference", (log_weights, draw_worlds, tempering_power),
            engine_sources() + sorted(Path(__file__).resolve().parent.glob("*.py")))
