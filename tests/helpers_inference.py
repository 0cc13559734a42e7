"""A slow, obviously correct twin of the weighing of worlds (``bots/inference.py``), for the tests.

It builds the deal a world stands for (each seat's hand as dealt and the chien, from the world's
cards and the public history), replays the observed decisions one by one on the :class:`Game`
facade, and at each decision of another seat asks the ``heuristic`` bot on the slow path
(:class:`tarotsim.adapters.FastBotAdapter`) what it would have done on that seat's view, then
multiplies that seat's weight by ``n (1 - eps) + eps`` (it would have done the same) or ``eps``
(not), ``n`` the number of legal choices; the écart by its shape (its cards per suit), with the
hypergeometric probability of that shape under a uniform choice. The world's weight is the
product over the seats of ``trust * (the seat's weight) + 1 - trust``.
"""

from __future__ import annotations

import math

import numpy as np

from tarotsim.adapters import FastBotAdapter
from tarotsim.cards import DECK, parse_cards
from tarotsim.engine import Game
from tarotsim.learn import action_probabilities
from tarotsim.rng import Rng

PILE = 5
_HEURISTIC = FastBotAdapter("heuristic")


def played_by(view) -> dict[int, list]:
    """Every card each seat played so far (finished tricks and the trick being played)."""
    out: dict[int, list] = {}
    for _, plays, _ in view.tricks:
        for s, c in plays:
            out.setdefault(s, []).append(c)
    for s, c in view.trick:
        out.setdefault(s, []).append(c)
    return out


def world_deal(view, row, n_seats):
    """``(hands as dealt, chien, the world's écart or None)`` of world ``row`` (locations)."""
    now = [[DECK[c] for c in range(78) if row[c] == s] for s in range(n_seats)]
    pile = [DECK[c] for c in range(78) if row[c] == PILE]
    for s, cards in played_by(view).items():
        now[s] += cards
    ecart = None
    if view.chien is not None:   # prise or garde, the chien shown
        chien = list(view.chien)
        t = view.taker
        if pile:                # the écart made: the world's
            ecart = pile
            now[t] = now[t] + pile
        now[t] = [c for c in now[t] if c not in chien]
    else:
        chien = pile
    return now, chien, ecart


def _factor(model_did_it: bool, n: int, eps: float) -> float:
    if n <= 1:
        return 0.0
    return math.log(n * (1 - eps) + eps) if model_did_it else math.log(eps)


def _ecart_factor(legal, model, world_ecart, eps) -> float:
    """The écart's shape: per suit, the model's and the world's counts; a forced écart: 0."""
    if legal.trumps_needed or len(legal.normal) <= legal.size:
        return 0.0
    def shape(cards):
        return [sum(1 for c in cards if not c.is_trump and not c.is_excuse and c.suit == su) for su in range(4)]
    ks = shape(world_ecart)
    if shape(model) != ks:
        return math.log(eps)
    ns = shape(legal.normal)
    p = math.prod(math.comb(n, k) for n, k in zip(ns, ks)) / math.comb(len(legal.normal), legal.size)
    return math.log((1 - eps) / p + eps)


def _cards_played(view) -> list:
    """Every card played so far, in playing order."""
    return [c for _, plays, _ in view.tricks for _, c in plays] + [c for _, c in view.trick]


def twin_log_weight(game, seat, row, eps, card_eps=None, trust=1.0, policy=None) -> float:
    """The log weight of world ``row`` (int8[78] locations) for ``seat`` at ``game``'s decision.

    ``-inf`` when an observed decision is not legal in it.

    Only the seat's view is read: the world's deal is played on from the deal, each decision the
    new game asks taken from what the seat saw (the bids, the call, the declarations, the cards in
    order; the écart: the world's), until the new game reaches the seat's decision. The cards
    weigh with ``card_eps`` (default ``eps``); each seat plays as the model with prior ``trust``.
    With a ``policy`` (a policy Model) the cards' model is it: a card weighs ``n (1 - ε) p + ε``,
    ``p`` the policy's probability of it on the world's game (``tarotsim.learn.action_probabilities``)."""
    card_eps = eps if card_eps is None else card_eps
    view = game.view(seat)
    rules = game.rules
    hands, chien, ecart = world_deal(view, row, rules.n_seats)
    if ecart is None and view.ecart is not None:
        ecart = list(view.ecart)
    try:
        g = Game(rules, hands=[list(h) for h in hands], chien=list(chien), dealer=view.dealer)
    except ValueError:   # not even a deal (R-DEAL-1)
        return -math.inf
    rng = Rng(0)
    per_seat = [0.0] * rules.n_seats
    bids = dict(view.bids)
    declared = {(d["seat"], d["kind"]): d for d in view.declarations}
    cards = _cards_played(view)
    n_played = 0
    try:
        while not (g.decision == view.decision and n_played == len(cards)):
            d = g.decision
            s = d.seat
            legal = g.legal_actions()
            if d.kind == "ecart":
                if s != seat:
                    per_seat[s] += _ecart_factor(legal, _HEURISTIC.choose(g.view(s), legal, rng), ecart, eps)
                g.discard(ecart)
                continue
            if d.kind == "bid":
                obs = bids[s]
            elif d.kind == "call":
                obs = view.called
            elif d.kind == "chelem":
                obs = (view.taker, "chelem") in declared
            elif d.kind == "poignee":
                p = declared.get((s, "poignee"))
                obs = None if p is None else (p["level"], tuple(parse_cards(p["cards"])))
            elif d.kind.startswith("misere"):
                obs = (s, d.kind) in declared
            else:
                obs = cards[n_played]
                n_played += 1
                if s != seat and obs not in legal:
                    return -math.inf
            if s != seat and d.kind == "card" and policy is not None:
                if len(legal) > 1:
                    p = float(action_probabilities(g, s, policy)[obs.id])
                    per_seat[s] += math.log(len(legal) * (1 - card_eps) * p + card_eps)
            elif s != seat:
                model = _HEURISTIC.choose(g.view(s), legal, rng)
                e = card_eps if d.kind == "card" else eps
                per_seat[s] += _factor(model == (obs if d.kind != "poignee" or obs is None else obs[0]), len(legal), e)
            if d.kind == "poignee":
                g.declare_poignee(None) if obs is None else g.declare_poignee(*obs)
            elif d.kind.startswith("misere"):
                g.declare_misere(obs)
            else:
                g.apply(obs)
    except Exception:   # an observed decision the world's hands do not allow
        return -math.inf
    # at trust 1 the seat's own product (its logarithm may be far below what exp can give)
    return sum(x if trust == 1 else math.log(trust * math.exp(x) + 1 - trust) for x in per_seat)


def twin_log_weights(game, seat, locations, eps, card_eps=None, trust=1.0, policy=None) -> np.ndarray:
    return np.array([twin_log_weight(game, seat, row, eps, card_eps, trust, policy) for row in locations])
