"""Python bots at engine speed, inside the batched engine.

Python bots at engine speed: a user's bot (``module:Class``, ``choose(view, legal, rng)``)
deciding inside the batched engine of :mod:`tarotsim.runs.env` rather than the step-by-step
reference engine.

:func:`play_records` plays a block of deals at once in the env kernel (one slot per deal, run
once, no automatic reset): the kernel bots of the other seats decide inside the kernel, and at
each decision of a Python bot's seat the kernel stops; the bot gets the very
:class:`~tarotsim.engine.SeatView`, legal choices and bots-stream ``rng`` that the
:class:`~tarotsim.engine.Game` would give it, built here from the kernel's state, and its
answer goes back as an action id (:mod:`tarotsim.actions`; the écart as its picks). The records
are those of the slow path (:func:`tarotsim.runs.slowpath.play_record`, the reference engine stays
the oracle: tests compare the two).

An answer this path does not take as it is (not one of the legal choices, a poignée with cards
of the bot's own choosing, an exception in ``choose``) sends that whole deal to the slow path,
which applies it or names the rule it breaks exactly as today. Deals are decided in
interleaved order (every deal of the block at its first decision, then the second...): a bot
that keeps state between calls and needs them in deal order sets ``sequential = True`` (the
:class:`~tarotsim.runs.runner.Runner` then plays it deal by deal).
"""

from __future__ import annotations

import numpy as np

from .._kernels import env as K
from .._kernels import layout as L
from .._kernels.workspace import WS_HS, WS_HT, WS_LEN, WS_N_DECL, WS_NEXT, WS_TAKER
from ..actions import CHELEM_NO, MISERE_NO, POIGNEE_BASE, POIGNEE_NONE, bid_action
from ..cards import DECK, Card, masks_of
from ..engine import EcartChoice, SeatView
from ..observations import OBS_LEN
from ..reference.deal import Decision, as_card
from ..rng import Rng
from ..rules import (CONTRACT_OF, CONTRACTS, DECISION_KINDS, ENV_TABLES, PLAY_DECISIONS, KERNEL_CHIEN_SIZE,
                    POIGNEE_LEVELS, RV_TABLE, Rules, ecart_pick_choices)

__all__ = ["BATCH", "batchable", "play_records"]

#: Deals played at once (slots of the env kernel).
BATCH = 1024
_PLAY_KINDS = frozenset(DECISION_KINDS.index(k) for k in PLAY_DECISIONS)
_FALLBACK = None  # an answer this path does not take as it is: the deal goes to the slow path


def cards_of(t: int, s: int) -> list[Card]:
    """The cards of a pair of masks, in id order.

    The cards of a pair of masks in id order (``cards.cards_of``, by set bits: views are built
    at every decision)."""
    out = []
    while t:
        low = t & -t
        out.append(DECK[low.bit_length() - 1])
        t ^= low
    while s:
        low = s & -s
        out.append(DECK[21 + low.bit_length()])
        s ^= low
    return out


def _kernel_setup(rules: Rules, seats):
    """The env kernel's opponents, or None when it cannot play them.

    ``(kinds, params)`` for the env kernel, or None when a kernel seat is not an opponent the
    env kernel plays (a policy set, pimc). ``seats``: per seat, a Python bot or ``(name, params)``."""
    from .._builds.env import OPPONENT_KINDS
    from .simulate import bot_setup

    engine = [s if isinstance(s, tuple) else ("random", ()) for s in seats]
    kinds, params, pol = bot_setup(rules, engine)
    if pol is not None or any(int(k) not in OPPONENT_KINDS for k in kinds):
        return None
    return kinds, params


def batchable(rules: Rules, seats, forced=None) -> bool:
    """Whether :func:`play_records` plays these seats.

    Whether :func:`play_records` plays these seats (per seat a Python bot object or a kernel
    bot's ``(name, params)``): a table of the batched environment (``rules.ENV_TABLES``), no
    forced contract, kernel seats that the env kernel plays (random, greedy, heuristic), and no
    Python bot marked ``sequential``."""
    if rules.table not in ENV_TABLES or forced is not None:
        return False
    if any(not isinstance(s, tuple) and getattr(s, "sequential", False) for s in seats):
        return False
    return _kernel_setup(rules, seats) is not None


class _Batch:
    """One block of deals in the env kernel (one slot per deal)."""

    def __init__(self, rules: Rules, seed: int, indices, seats):
        from bots import BOT_KINDS

        self.rules, self.seed, self.seats = rules, int(seed), seats
        n = self.n = len(indices)
        self.kinds, self.params = _kernel_setup(rules, seats)
        agent = 0
        for s, bot in enumerate(seats):
            if not isinstance(bot, tuple):
                agent |= 1 << s
        if all(int(k) == BOT_KINDS["random"] for k in self.kinds):
            self.kernel = K.env_step_random
        else:
            from .._builds.env import env_step_bots
            self.kernel = env_step_bots
        self.rv = rules.to_vector()
        self.cfg = np.zeros(K.C_LEN, dtype=np.int64)
        self.cfg[K.C_STRIDE] = 1
        self.cfg[K.C_AGENT] = agent
        self.cfg[K.C_ONCE] = 1
        self.bufs, self.logs, self.est, self.bst = K.new_state(n)
        self.est[:, K.E_INDEX] = np.asarray(list(indices), dtype=np.int64)
        self.obs = np.zeros((n, OBS_LEN), dtype=np.uint8)
        self.masks = np.zeros((n, K.N_ACTIONS), dtype=np.bool_)
        self.to_play = np.full(n, -1, dtype=np.int64)
        self.rewards = np.zeros((n, 5), dtype=np.int64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.final_logs = np.zeros((1, L.L_LEN), dtype=np.int64)  # unused: no automatic reset
        self.options = rules.non_default_options()
        self.n_active = rules.n_active
        self.ecart_size = int(KERNEL_CHIEN_SIZE[int(self.rv[RV_TABLE])])
        self.tricks: list[list] = [[] for _ in range(n)]  # finished tricks as the view gives them

    def run(self, actions: np.ndarray) -> None:
        self.kernel(self.rv, self.cfg, np.uint64(self.seed), 0, self.n, actions, self.kinds, self.params, self.bufs,
                    self.logs, self.est, self.bst, self.obs, self.masks, self.to_play, self.rewards,
                    self.terminated, self.final_logs)

    # -- what the Game would hand the bot -----------------------------------------------------------
    def view(self, i: int, kind: int, seat: int) -> SeatView:
        """The :class:`SeatView` of ``seat`` at slot ``i``'s decision (``Game.view``, field for field)."""
        lg = self.logs[i].tolist()
        e = self.est[i].tolist()
        ws = self.bufs[i, :WS_LEN].tolist()
        n = self.rules.n_seats
        taker = ws[WS_TAKER]
        contract = CONTRACTS[lg[L.L_CONTRACT]] if taker >= 0 else None
        called_id = lg[L.L_CALLED]
        called = DECK[called_id] if called_id >= 0 else None
        partner = lg[L.L_PARTNER]
        if partner >= 0 and seat != partner:  # R-CALL-3: known to all once the called card is out
            bit = 1 << (called_id - 22)
            if not any(e[K.E_PL_S + s] & bit for s in range(n)):
                partner = -1
        bids = tuple((lg[L.L_BID_SEAT + k], "pass" if lg[L.L_BID + k] < 0 else CONTRACTS[lg[L.L_BID + k]])
                     for k in range(e[K.E_NBIDS]))
        shown_chien = contract is not None and CONTRACT_OF[contract].chien_shown and kind not in (K.K_BID, K.K_CALL)
        ecart = None
        ecart_trumps: tuple = ()
        if taker >= 0 and kind != K.K_ECART and (e[K.E_PICK_T] or e[K.E_PICK_S]):
            laid = tuple(cards_of(e[K.E_PICK_T], e[K.E_PICK_S]))
            ecart = laid if seat == taker else None
            ecart_trumps = tuple(c for c in laid if c.is_trump)
        decls = []
        for k in range(ws[WS_N_DECL]):  # the log's count is written at the deal's end
            d = L.L_DECL + L.DECL_FIELDS * k
            s, what, level, shown = lg[d:d + 4]
            if what == L.DECL_POIGNEE:
                decls.append({"seat": s, "kind": "poignee", "level": POIGNEE_LEVELS[level - 1],
                              "cards": [str(c) for c in cards_of(shown, 0)]})
            else:
                decls.append({"seat": s, "kind": L.DECL_NAMES[what]})
        tricks = self.tricks[i]
        trick: tuple = ()
        if kind in _PLAY_KINDS:
            tr = e[K.E_TR]
            while len(tricks) < tr:  # the tricks closed since the bot's last decision
                t = len(tricks)
                tricks.append((lg[L.L_LEADER + t], self._plays(lg, ws, t, self.n_active), lg[L.L_WINNER + t]))
            trick = self._plays(lg, ws, tr, e[K.E_POS])
        return SeatView(
            seat=seat, table=self.rules.table, dealer=lg[L.L_DEALER], decision=Decision(DECISION_KINDS[kind], seat),
            hand=tuple(cards_of(ws[WS_HT + seat], ws[WS_HS + seat])), bids=bids, taker=taker if taker >= 0 else None,
            contract=contract, called=called, partner=partner if partner >= 0 else None,
            chien=tuple(cards_of(e[K.E_CHIEN_T], e[K.E_CHIEN_S])) if shown_chien else None,
            ecart=ecart, declarations=tuple(decls), tricks=tuple(tricks), trick=trick, options=dict(self.options),
            ecart_trumps=ecart_trumps)

    @staticmethod
    def _plays(lg, ws, t: int, count: int) -> tuple:
        s = lg[L.L_LEADER + t]
        base = L.L_CARDS + t * L.MAX_SEATS
        out = []
        for j in range(count):
            out.append((s, DECK[lg[base + j]]))
            s = ws[WS_NEXT + s]
        return tuple(out)

    def legal(self, i: int, kind: int):
        """``Game.legal_actions()`` at slot ``i``'s decision."""
        if kind == K.K_BID:
            high = int(self.est[i, K.E_HIGHEST])
            return ["pass"] + list(CONTRACTS[high + 1:])
        if kind == K.K_ECART:
            e = self.est[i]
            return EcartChoice(self.ecart_size, tuple(cards_of(0, int(e[K.E_NORMAL]))),
                               tuple(cards_of(int(e[K.E_CANDS]), 0)), int(e[K.E_NEEDED]))
        if kind == K.K_POIGNEE:
            return [None] + list(POIGNEE_LEVELS[:int(self.est[i, K.E_NLEV])])
        if kind in (K.K_CHELEM, K.K_MISERE_ATOUT, K.K_MISERE_TETE):
            return [False, True]
        return [DECK[c] for c in np.flatnonzero(self.masks[i]).tolist()]  # call, card

    def action(self, i: int, kind: int, legal, answer):
        """The action ids of ``answer`` (a list: the écart's picks), or :data:`_FALLBACK`."""
        if kind == K.K_BID:
            return [bid_action(answer)] if isinstance(answer, str) and answer in legal else _FALLBACK
        if kind in (K.K_CHELEM, K.K_MISERE_ATOUT, K.K_MISERE_TETE):
            if answer is True or answer is False:
                return [(CHELEM_NO if kind == K.K_CHELEM else MISERE_NO) + int(answer)]
            return _FALLBACK
        if kind == K.K_POIGNEE:
            if answer is None:
                return [POIGNEE_NONE]
            if isinstance(answer, str) and answer in legal[1:]:  # the kernels' cards (R-POIG-3)
                return [POIGNEE_BASE + POIGNEE_LEVELS.index(answer)]
            return _FALLBACK
        if kind == K.K_ECART:
            return self._picks(legal, answer)
        try:
            card = answer if type(answer) is Card else as_card(answer)
        except Exception:
            return _FALLBACK
        return [card.id] if self.masks[i, card.id] else _FALLBACK

    @staticmethod
    def _picks(choice: EcartChoice, answer):
        """The écart as single picks in id order.

        The écart as single picks in id order (the kernel takes them from the last), each allowed
        by R-CHIEN-2 after the picks before it (``rules.ecart_pick_choices``, the env kernel's
        mask), or :data:`_FALLBACK`."""
        try:
            ids = sorted((c if type(c) is Card else as_card(c)).id for c in answer)
        except Exception:
            return _FALLBACK
        if len(ids) != choice.size:
            return _FALLBACK
        normal, trumps = masks_of(choice.normal)[1], masks_of(choice.trumps)[0]
        picked_t = picked_s = trumps_picked = 0
        for c in reversed(ids):
            t, s = ecart_pick_choices(normal, trumps, choice.trumps_needed, picked_t, picked_s, trumps_picked)
            bt, bs = masks_of([DECK[c]])
            if not (t & bt or s & bs):
                return _FALLBACK
            picked_t, picked_s, trumps_picked = picked_t | bt, picked_s | bs, trumps_picked + (bt != 0)
        return ids


def play_records(rules: Rules, seed: int, indices, seats, slow_bots) -> list[dict]:
    """The records of deals ``indices`` (ascending) of ``(seed, index)``, in that order.

    ``seats``: per seat, a Python bot (``choose(view, legal, rng)``) or a kernel bot's
    ``(name, params)`` (random, greedy, heuristic; see :func:`batchable`); ``slow_bots``: the
    same seats as the slow path plays them (:meth:`tarotsim.runs.players.Player.python_bot`), for
    the deals sent there. Errors are the slow path's: :class:`~tarotsim.engine.BotRaisedError`,
    :class:`~tarotsim.engine.IllegalPlayError`, raised for the lowest such deal.
    """
    from .simulate import record_from_log
    from .slowpath import play_record

    indices = [int(x) for x in indices]
    records: list[dict | None] = []
    for lo in range(0, len(indices), BATCH):
        part = indices[lo:lo + BATCH]
        b = _Batch(rules, seed, part, seats)
        slow = _drive(b)
        records += [None if i in slow else record_from_log(rules, seed, b.logs[i]) for i in range(len(part))]
    # in index order: the first deal that raises on the slow path is the one it would raise for
    return [rec if rec is not None else play_record(rules, seed, index, slow_bots)
            for rec, index in zip(records, indices)]


def _drive(b: _Batch) -> set[int]:
    """Play ``b`` to the end of every deal; returns the slots sent to the slow path."""
    n = b.n
    actions = np.full(n, -1, dtype=np.int64)
    b.run(actions)
    slow: set[int] = set()
    queued: dict[int, list[int]] = {}  # the écart picks still to play, per slot
    est, seats = b.est, b.seats
    while True:
        waiting = np.flatnonzero(b.to_play >= 0).tolist()
        actions[:] = -2
        busy = False
        for i in waiting:
            if i in slow:
                continue
            picks = queued.get(i)
            if picks:
                actions[i] = picks.pop()
                busy = True
                continue
            seat = int(b.to_play[i])
            kind = int(est[i, K.E_KIND])
            bot = seats[seat]
            rng = Rng(int(b.bst[i]))
            try:
                legal = b.legal(i, kind)
                answer = bot.choose(b.view(i, kind, seat), legal, rng)
            except Exception:  # the slow path raises it, naming the bot, the seat and the deal
                slow.add(i)
                continue
            ids = b.action(i, kind, legal, answer)
            if ids is _FALLBACK:
                slow.add(i)
                continue
            b.bst[i] = np.uint64(rng.state)
            actions[i] = ids.pop()
            if ids:
                queued[i] = ids
            busy = True
        if not busy:
            return slow
        b.run(actions)
        if (est[:, K.E_ERR] != 0).any():  # a pick the kernel refused: its deal goes to the slow path
            for i in np.flatnonzero(est[:, K.E_ERR]).tolist():
                slow.add(int(i))
                est[i, K.E_ERR] = 0
