"""Deals the bots' tests build.

Deals the bots' tests build: the deal kernel's decision trace walked beside the facade
(:func:`walk_traced`), and a deal with cards a seat cannot see exchanged (:func:`swap_hidden`,
:func:`replay_public`), met at each decision of a deal played out (:func:`hidden_twins`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from helpers_policy import RANDOM as POLICY_RANDOM
from tarotsim import rng
from tarotsim.runs import simulate
from tarotsim._builds import deal as D
from tarotsim._kernels import layout as L
from tarotsim._kernels import workspace as P
from tarotsim.adapters import FastBotAdapter, PolicyAdapter
from tarotsim.engine import Game

#: The seats of the tests' tables, per mix of bots (the first ``n`` for a table of ``n`` seats).
MIXES = {
    "heuristic": lambda n: ["heuristic"] * n,
    "greedy": lambda n: ["greedy"] * n,
    "mixed": lambda n: ["heuristic", "greedy", "random", "heuristic", "greedy"][:n],
    "policy": lambda n: [POLICY_RANDOM, "heuristic", POLICY_RANDOM, "greedy", POLICY_RANDOM][:n],
}


def adapter_for(b):
    """A seat's bot on the slow path: a policy set through its adapter, a registered bot through its own."""
    return PolicyAdapter(b) if hasattr(b, "functions") else FastBotAdapter(b)


def traced_deal(rules, seed, index, bots, forced=None):
    """Play one deal in the kernel with a decision trace: (log, list of trace records)."""
    kinds, params, pol = simulate.bot_setup(rules, bots)
    fs, fc = simulate._forced(rules, forced)
    buf = np.zeros(P.BUF_LEN + 1 + 400 * P.TR_REC, dtype=np.int64)
    log = np.zeros(L.L_LEN, dtype=np.int64)
    D.play_deal(rules.to_vector(), np.uint64(seed), index, fs, fc, kinds, params, pol, log, buf)
    n = int(buf[P.BUF_LEN])
    recs = buf[P.BUF_LEN + 1:P.BUF_LEN + 1 + n * P.TR_REC].reshape(n, P.TR_REC)
    return log, recs


def walk_traced(rules, seed, index, bots, forced=None):
    """Walk a deal step by step beside the kernel's decision trace.

    Play deal ``(seed, index)`` step by step beside the kernel's decision trace: at every
    decision the kernel handed the bot exactly what the adapter builds from the seat's view
    (kind, seat, hand, legal choices, public view). Yields ``(game, decision, trace row)`` before
    the seat's adapter answers; at the end every traced decision was met and the records agree."""
    adapters = [adapter_for(b) for b in bots]
    log, trace = traced_deal(rules, seed, index, bots, forced)
    game = Game(rules, seed, index, forced=forced)
    stream = rng.Rng.for_deal(seed, index, rng.STREAM_BOTS)
    k = 0
    while (d := game.decision) is not None:
        view, legal = game.view(d.seat), game.legal_actions()
        t = trace[k]
        what, ht, hs, args, pub = adapters[d.seat].kernel_inputs(view, legal)
        assert (t[P.TR_WHAT], t[P.TR_SEAT], t[P.TR_HT], t[P.TR_HS]) == (what, d.seat, ht, hs), (index, k)
        assert tuple(t[P.TR_ARGS:P.TR_ARGS + 6]) == args, (index, k, d)
        assert np.array_equal(t[P.TR_PUB:], pub), (index, k, d, np.nonzero(t[P.TR_PUB:] != pub))
        yield game, d, t
        game.apply(adapters[d.seat].choose(view, legal, stream))
        k += 1
    assert k == len(trace)
    assert game.record() == simulate.record_from_log(rules, seed, log)



def swap_hidden(game, seat, rnd):
    """The deal with two cards the seat cannot see exchanged, or None.

    The deal of ``game`` with two cards the seat cannot see exchanged: between two other
    seats' unplayed cards (same suit, so past plays stay legal as often as possible) or with the
    unseen chien. None when there is no such pair."""
    d = game._deal
    played = {c for t in d.tricks for c in t.cards} | {c for _, c in d.trick}
    hands = [list(h) for h in d.initial_hands]
    chien = list(d.chien)
    chien_seen = d.contract in ("prise", "garde") and d.phase not in ("bid", "call")
    pools = [(s, [c for c in hands[s] if c not in played and c not in d.ecart])
             for s in range(len(hands)) if s != seat and hands[s]]
    if not chien_seen:
        pools.append((-1, chien))
    pairs = [(a, x, b, y) for i, (a, xs) in enumerate(pools) for (b, ys) in pools[i + 1:]
             for x in xs for y in ys if x.suit == y.suit and x.is_trump == y.is_trump]
    if not pairs:
        return None
    a, x, b, y = rnd.choice(pairs)
    for who, old, new in ((a, x, y), (b, y, x)):
        pile = chien if who == -1 else hands[who]
        pile[pile.index(old)] = new
    return hands, chien


def replay_public(rules, dealer, hands, chien, events, forced):
    """A hand-entered deal with the public actions of ``events`` replayed; None if one is illegal."""
    g = Game(rules, hands=hands, chien=chien, dealer=dealer, forced=forced)
    try:
        for ev in events:
            if ev.kind == "trick":
                continue
            if ev.kind == "poignee" and isinstance(ev.value, tuple):
                g.declare_poignee(*ev.value)
            elif ev.kind == "misere":
                g.declare_misere(ev.value[1])
            else:
                g.apply(ev.value)
    except Exception:
        return None
    return g


@dataclass
class Twin:
    """A decision of a deal beside a deal its seat cannot tell apart (:func:`hidden_twins`)."""

    #: the deal at the decision, and the deal with two hidden cards exchanged at the same decision
    game: Game
    twin: Game
    decision: object
    #: what the seat sees (the same in both deals) and its legal actions in ``game``
    view: object
    legal: list
    #: the bots stream's state before the seat chose, and after
    state: int
    after: int
    choice: object


def hidden_twins(rules, index, forced, choose, want, rnd):
    """Play deal ``index`` of seed 9, yielding each chosen decision with a twin deal.

    Deal ``index`` of ``rng.deal(rules, 9, index)``, played by ``choose(seat, view, legal,
    stream)`` with a bots stream seeded with ``index``. At each decision ``want(decision,
    legal)`` accepts, two cards the seat cannot see are exchanged (:func:`swap_hidden`) and the
    public actions replayed (:func:`replay_public`); when that deal reaches the same decision,
    the seat's view in it is the same (asserted here) and a :class:`Twin` is yielded, before
    the choice is applied."""
    dealer, hands, chien = rng.deal(rules, 9, index)
    game = Game(rules, hands=hands, chien=chien, dealer=dealer, forced=forced)
    stream = rng.Rng(index)
    while (d := game.decision) is not None:
        view, legal = game.view(d.seat), game.legal_actions()
        state = stream.state
        choice = choose(d.seat, view, legal, stream)
        if want(d, legal):
            other = swap_hidden(game, d.seat, rnd)
            if other is not None:
                g2 = replay_public(rules, dealer, *other, game.events, forced)
                if g2 is not None and g2.decision == d:
                    assert g2.view(d.seat) == view
                    yield Twin(game, g2, d, view, legal, state, stream.state, choice)
        game.apply(choice)


def card_twins(bot, tables, n_deals, rnd):
    """About half the card decisions with a choice of deals played by ``bot``, each checked on its twin.

    Deals ``0 .. n_deals - 1`` of each table (the second seat to speak forced to take, a contract
    per deal, but at 5d), played by ``bot`` (a :class:`FastBotAdapter`); at each decision
    :func:`hidden_twins` picks, the bot on the twin deal plays the same card and leaves the bots
    stream in the same state. Yields each twin (for more checks on it)."""
    from tarotsim.rules import CONTRACTS, Rules

    for table in tables:
        r = Rules(table=table)
        for index in range(n_deals):
            forced = (1, CONTRACTS[index % 4]) if table != "5d" else None
            for tw in hidden_twins(r, index, forced, lambda seat, view, legal, stream: bot.choose(view, legal, stream),
                                   lambda d, legal: d.kind == "card" and len(legal) > 1 and rnd.random() < 0.5, rnd):
                s2 = rng.Rng(tw.state)
                assert bot.choose(tw.twin.view(tw.decision.seat), tw.twin.legal_actions(), s2) == tw.choice
                assert s2.state == tw.after
                yield tw
