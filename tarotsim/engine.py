"""The step-by-step facade: a deal that a person or a Python bot plays one decision at a time.

:class:`Game` follows the python-chess / OpenSpiel pattern::

    game = Game(Rules("4"), seed=7, index=0)        # chance (the deal) from (seed, index)
    while not game.done:
        d = game.decision                            # Decision(kind, seat)
        choice = some_bot.choose(game.view(d.seat), game.legal_actions(), rng)
        game.apply(choice)                           # verified, then applied; an Event is logged
    game.scores, game.record()

For each kind of action there is ``can_*`` (bool), ``verify_*`` (raises
:class:`IllegalPlayError` naming the rule id, e.g. ``"must overtrump: holds T17 above T12
(R-PLAY-4b)"``) and the action itself, which verifies and then applies; a refused action
leaves the state unchanged. The rules themselves are those of the plain-Python engine of
:mod:`tarotsim.reference` (written from RULES.md), which the numba kernels are tested
against: the slow path and the fast path play the same deal for the same seed and bots.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .reference.deal import Decision, ReferenceDeal, as_card, as_cards
from .reference.errors import RuleViolation
from .reference.play import record_from_deal
from .rng import STREAM_BOTS, Rng, check_index, check_seed, deal
from .rules import CONTRACTS, Rules

__all__ = ["Decision", "EcartChoice", "Event", "FastBotAdapter", "Game", "IllegalPlayError", "PyRandomBot",
           "SeatView", "play_game", "public_view"]


class IllegalPlayError(RuleViolation):
    """An action the rules forbid; ``rule_id`` names the rule (R-PLAY-6)."""


class BotRaisedError(Exception):
    """A Python bot's ``choose`` raised: the run stops with one line naming the bot, the
    exception, the seat, the deal ``(seed, index)`` and the decision (the exception itself is
    the ``__cause__``). ``KeyboardInterrupt`` and ``SystemExit`` are never turned into this."""

    def __init__(self, bot: str, error: BaseException, seat: int, seed, index, decision: str):
        self.bot, self.error, self.seat, self.seed, self.index, self.decision = bot, error, seat, seed, index, decision
        text = " ".join(str(error).split())  # one line, whatever the exception says
        what = f"{type(error).__name__}: {text}" if text else type(error).__name__
        super().__init__(f"bot {bot} raised {what} at seat {seat}, deal ({seed}, {index}) "
                         f"({decision.replace('_', ' ')} decision)")


@dataclass(frozen=True)
class Event:
    """One thing that happened in a deal: ``kind`` (bid, call, ecart, chelem, poignee,
    misere, card, trick), the seat, and the value (a bid, a card, cards, a level …)."""

    kind: str
    seat: int | None
    value: object = None


@dataclass(frozen=True)
class EcartChoice:
    """What the écart may be (R-CHIEN-2): ``size`` cards among ``normal``; when ``normal`` is
    short, all of it plus ``trumps_needed`` trumps among ``trumps``."""

    size: int
    normal: tuple[Card, ...]
    trumps: tuple[Card, ...]
    trumps_needed: int


@dataclass(frozen=True)
class SeatView:
    """What one seat may see (DESIGN §4): its own hand and the public history only."""

    seat: int
    table: str
    dealer: int
    decision: Decision | None
    hand: tuple[Card, ...]
    bids: tuple[tuple[int, str], ...]
    taker: int | None
    contract: str | None
    called: Card | None
    partner: int | None             # known to the partner himself, to all once the called card is out
    chien: tuple[Card, ...] | None  # shown for prise/garde (R-CHIEN-1), else unseen
    ecart: tuple[Card, ...] | None  # the taker's own écart (others see only trumps shown)
    declarations: tuple[dict, ...]
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...], int], ...]  # (leader, plays, winner)
    trick: tuple[tuple[int, Card], ...]  # the trick being played
    options: dict = field(default_factory=dict)
    ecart_trumps: tuple[Card, ...] = ()  # trumps put in the écart, shown to all (R-CHIEN-2)


class Game:
    """One deal of French Tarot, played decision by decision.

    Parameters
    ----------
    rules : Rules
        Table 3, 4, 5 or 5d and variant options.
    seed, index : int
        Deal identity: the cards come from ``tarotsim.rng.deal(rules, seed, index)``. A seed is a
        whole number in 0..2**64-1, an index one in 0..2**63-1 (else ``rng.DealIdError``, a
        ``ValueError``).
    hands, chien, dealer :
        Alternatively, a hand-entered deal (card names, ids or Cards, one hand per seat).
    forced : (seat, contract) or None
        Skip the auction: that seat takes that contract.
    """

    def __init__(self, rules: Rules | None = None, seed: int | None = None, index: int = 0, *,
                 hands=None, chien=None, dealer: int | None = None, forced=None):
        self.rules = rules or Rules()
        if seed is not None:  # the deal identity: whole numbers in range, never wrapped
            seed, index = check_seed(seed), check_index(index)
        if hands is None:
            if seed is None:
                raise ValueError("give (seed, index) or hands, chien and dealer")
            dealer, hands, chien = deal(self.rules, seed, index)
        elif chien is None or dealer is None:
            raise ValueError("a hand-entered deal needs hands, chien and dealer")
        self.seed, self.index = (seed, index) if seed is not None else (None, None)
        if forced is not None and forced[1] not in CONTRACTS:
            raise IllegalPlayError("R-BID-1", f"unknown contract {forced[1]!r}")
        try:
            self._deal = ReferenceDeal(self.rules, dealer, hands, chien, forced=forced)
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        self.events: list[Event] = []

    # -- state ---------------------------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """Who acts next and on what (``bid``, ``call``, ``ecart``, ``chelem``, ``poignee``,
        ``misere_atout``, ``misere_tete``, ``card``), or None when the deal is over."""
        return self._deal.decision()

    @property
    def to_move(self) -> int | None:
        d = self.decision
        return d.seat if d else None

    @property
    def done(self) -> bool:
        return self._deal.done

    @property
    def outcome(self) -> str | None:
        return self._deal.outcome

    @property
    def scores(self) -> list[int]:
        return list(self._deal.scores)

    @property
    def result(self) -> dict | None:
        return self._deal.result

    @property
    def breakdown(self):
        return self._deal.breakdown

    def hand(self, seat: int) -> list[Card]:
        return list(self._deal.hands[seat])

    # -- legal choices -------------------------------------------------------------------------
    def legal_bids(self) -> list[str]:
        return self._deal.legal_bids()

    def legal_calls(self) -> list[Card]:
        return self._deal.legal_calls()

    def legal_cards(self) -> list[Card]:
        d = self.decision
        return self._deal.legal_cards(d.seat) if d and d.kind == "card" else []

    def ecart_choice(self) -> EcartChoice | None:
        d = self._deal
        if d.phase != "ecart":
            return None
        return EcartChoice(d.ecart_size, tuple(d.ecart_normal()), tuple(d.ecart_trump_choices()),
                           d.ecart_trumps_needed())

    def legal_actions(self):
        """The choices of the current decision: bids, callable cards, an :class:`EcartChoice`,
        ``[False, True]`` (chelem, misère), poignée levels with ``None`` first, or cards."""
        d = self.decision
        if d is None:
            return []
        if d.kind == "bid":
            return self.legal_bids()
        if d.kind == "call":
            return self.legal_calls()
        if d.kind == "ecart":
            return self.ecart_choice()
        if d.kind == "poignee":
            return [None] + self._deal.poignee_levels(d.seat)
        if d.kind == "card":
            return self.legal_cards()
        return [False, True]

    # -- verify / can / do -------------------------------------------------------------------------
    def _seat(self, kind: str, seat: int | None) -> int:
        d = self.decision
        if d is None:
            raise IllegalPlayError("R-PLAY-6", "the deal is over")
        if seat is None:
            seat = d.seat
        kinds = (kind,) if kind != "misere" else ("misere_atout", "misere_tete")
        if d.kind not in kinds and not (kind == "card" and d.kind in ("poignee", "misere_atout", "misere_tete")):
            raise IllegalPlayError("R-PLAY-6", f"seat {d.seat} is to decide on {d.kind.replace('_', ' ')}, "
                                               f"not to {kind}")
        return seat

    def verify_play(self, card, seat: int | None = None) -> Card:
        """Raise :class:`IllegalPlayError` unless the card may be played now; return it."""
        seat = self._seat("card", seat)
        try:
            return self._deal.check_play(seat, as_card(card))
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        except ValueError as e:
            raise IllegalPlayError("R-CARD-1", str(e)) from None

    def can_play(self, card, seat: int | None = None) -> bool:
        try:
            self.verify_play(card, seat)
        except IllegalPlayError:
            return False
        return True

    def play(self, card, seat: int | None = None) -> Event:
        """Play a card (declarations not yet made by this seat are declined)."""
        card = self.verify_play(card, seat)
        seat = self._deal.next_player()
        n_before = len(self._deal.tricks)
        self._deal.play(seat, card)
        ev = self._log("card", seat, card)
        if len(self._deal.tricks) > n_before:
            t = self._deal.tricks[-1]
            self._log("trick", t.winner, tuple(t.cards))
        return ev

    def _do(self, kind: str, fn, seat, value, *args):
        seat = self._seat(kind, seat)
        try:
            fn(seat, *args)
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None
        except ValueError as e:
            raise IllegalPlayError("R-CARD-1", str(e)) from None
        return self._log(kind, seat, value)

    def bid(self, bid: str, seat: int | None = None) -> Event:
        return self._do("bid", self._deal.bid, seat, bid, bid)

    def can_bid(self, bid: str) -> bool:
        return self.decision is not None and self.decision.kind == "bid" and bid in self.legal_bids()

    def call(self, card, seat: int | None = None) -> Event:
        card = as_card(card)
        return self._do("call", self._deal.call, seat, card, card)

    def verify_ecart(self, cards, seat: int | None = None) -> list[Card]:
        seat = self._seat("ecart", seat)
        try:
            return self._deal.check_ecart(seat, as_cards(cards))
        except RuleViolation as e:
            raise IllegalPlayError(e.rule_id, e.message) from None

    def can_discard(self, cards) -> bool:
        try:
            self.verify_ecart(cards)
        except (IllegalPlayError, ValueError):
            return False
        return True

    def discard(self, cards, seat: int | None = None) -> Event:
        cards = self.verify_ecart(cards, seat)
        return self._do("ecart", self._deal.discard, seat, tuple(cards), cards)

    def announce_chelem(self, yes: bool = True, seat: int | None = None) -> Event:
        return self._do("chelem", self._deal.announce_chelem, seat, bool(yes), bool(yes))

    def declare_poignee(self, level: str | None, cards=None, seat: int | None = None) -> Event:
        """Show a poignée of ``level`` (``cards`` default: the lowest trumps), or decline (None)."""
        ev = self._do("poignee", self._deal.declare_poignee, seat, level, level, cards)
        shown = self._deal._poignee_shown.get(ev.seat)
        if shown:
            self.events[-1] = Event("poignee", ev.seat, (level, tuple(shown[1])))
        return self.events[-1]

    def declare_misere(self, yes: bool, seat: int | None = None) -> Event:
        d = self.decision
        kind = d.kind.split("_", 1)[1] if d and d.kind.startswith("misere") else "atout"
        return self._do("misere", self._deal.declare_misere, seat, (kind, bool(yes)), kind, bool(yes))

    def apply(self, action) -> Event:
        """Apply the answer to the current decision, whatever its kind."""
        d = self.decision
        if d is None:
            raise IllegalPlayError("R-PLAY-6", "the deal is over")
        if d.kind == "bid":
            return self.bid(action)
        if d.kind == "call":
            return self.call(action)
        if d.kind == "ecart":
            return self.discard(action)
        if d.kind == "chelem":
            return self.announce_chelem(action)
        if d.kind == "poignee":
            if isinstance(action, tuple):
                return self.declare_poignee(*action)
            return self.declare_poignee(action)
        if d.kind.startswith("misere"):
            return self.declare_misere(action)
        return self.play(action)

    def _log(self, kind, seat, value) -> Event:
        ev = Event(kind, seat, value)
        self.events.append(ev)
        return ev

    # -- views and records -----------------------------------------------------------------------
    def view(self, seat: int) -> SeatView:
        """Everything ``seat`` may see, and nothing more (DESIGN §4)."""
        d = self._deal
        shown_chien = d.contract in ("prise", "garde") and d.phase not in ("bid", "call")
        # R-CALL-3: the partner is known to himself, and to all once the called card is played
        called_played = d.called is not None and any(
            c == d.called for c in [c for t in d.tricks for c in t.cards] + [c for _, c in d.trick])
        partner = d.partner if (seat == d.partner or called_played) else None
        return SeatView(
            seat=seat, table=d.table, dealer=d.dealer, decision=d.decision(),
            hand=tuple(d.hands[seat]), bids=tuple(d.bids), taker=d.taker, contract=d.contract,
            called=d.called, partner=partner,
            chien=tuple(d.chien) if shown_chien else None,
            ecart=tuple(d.ecart) if seat == d.taker and d.ecart else None,
            declarations=tuple(dict(x) for x in d.declarations),
            tricks=tuple((t.leader, t.plays, t.winner) for t in d.tricks),
            trick=tuple(d.trick), options=self.rules.non_default_options(),
            ecart_trumps=tuple(c for c in d.ecart if c.is_trump))

    def record(self) -> dict:
        """The deal record (DESIGN §6) of a finished deal."""
        return record_from_deal(self._deal, self.seed, self.index)


def play_game(game: Game, bots, rng: Rng | None = None) -> Game:
    """Play ``game`` to the end with Python bots (one per seat, or one for all seats).

    A bot is any object with ``choose(view, legal, rng)`` returning an answer that
    :meth:`Game.apply` takes. All seats draw from one generator, by default the deal's bots
    stream, so random bots here give the same deal as the fast path.
    """
    if rng is None:
        if game.seed is None:
            raise ValueError("a hand-entered deal needs an explicit rng")
        rng = Rng.for_deal(game.seed, game.index, STREAM_BOTS)
    if not isinstance(bots, (list, tuple)):
        bots = [bots] * game.rules.n_seats
    while (d := game.decision) is not None:
        try:
            game.apply(bots[d.seat].choose(game.view(d.seat), game.legal_actions(), rng))
        except IllegalPlayError as e:
            who = getattr(bots[d.seat], "name", type(bots[d.seat]).__name__)
            raise IllegalPlayError(e.rule_id, f"bot {who} at seat {d.seat}, deal ({game.seed}, {game.index}): "
                                              f"{e.message}") from None
    return game


class PyRandomBot:
    """The ``random`` bot on the slow path: the same draws as the fast path (docs/engine-contract.md)."""

    name = "random"

    def choose(self, view: SeatView, legal, rng: Rng):
        if isinstance(legal, EcartChoice):
            if len(legal.normal) >= legal.size:
                return _picks(legal.normal, legal.size, rng)
            return list(legal.normal) + _picks(legal.trumps, legal.trumps_needed, rng)
        return legal[rng.below(len(legal))]


def _picks(pool, k: int, rng: Rng) -> list:
    """``k`` successive uniform picks without replacement from ``pool`` kept in id order."""
    remaining = sorted(pool)
    return [remaining.pop(rng.below(len(remaining))) for _ in range(k)]


# ---------------------------------------------------------------------------------------------
# fast bots on the slow path

def public_view(view: SeatView, rules: Rules | None = None):
    """The kernels' public view (``int64[layout.PUB_LEN]``, ``layout.PUB_*``) built from a
    :class:`SeatView` alone: what the deal kernel hands a bot at the same decision."""
    import numpy as np

    from ._kernels import layout as L
    from .cards import masks_of, parse_cards
    from .rng import HAND_SIZE
    from .rules import TABLES

    if rules is None:
        rules = Rules.from_options(view.table, view.options)
    pub = np.zeros(L.PUB_LEN, dtype=np.int64)
    pub[L.PUB_DEALER] = view.dealer
    pub[L.PUB_DUMMY] = view.dealer if view.table == "5d" else -1
    pub[L.PUB_TAKER] = -1 if view.taker is None else view.taker
    pub[L.PUB_CONTRACT] = -1 if view.contract is None else CONTRACTS.index(view.contract)
    pub[L.PUB_CALLED] = -1 if view.called is None else view.called.id
    pub[L.PUB_BIDS:L.PUB_BIDS + L.MAX_SEATS] = -2
    highest = -1
    for seat, b in view.bids:
        k = -1 if b == "pass" else CONTRACTS.index(b)
        pub[L.PUB_BIDS + seat] = k
        highest = max(highest, k)
    pub[L.PUB_HIGHEST] = highest
    if view.chien is not None:
        pub[L.PUB_CHIEN_T], pub[L.PUB_CHIEN_S] = masks_of(view.chien)
    pub[L.PUB_ECART_T] = masks_of(view.ecart_trumps)[0]
    for d in view.declarations:
        if d["kind"] == "chelem":
            pub[L.PUB_SLAM] = 1
        elif d["kind"] == "poignee":
            pub[L.PUB_POIGNEE_T + d["seat"]] = masks_of(parse_cards(d["cards"]))[0]
        else:
            pub[L.PUB_MISERES + d["seat"]] += 1
            pub[L.PUB_MISERE_KINDS + d["seat"]] |= 1 if d["kind"] == "misere_atout" else 2
    pub[L.PUB_TABLE] = TABLES.index(view.table)
    pub[L.PUB_N_ACTIVE] = rules.n_active
    pub[L.PUB_N_TRICKS] = HAND_SIZE[view.table]
    pub[L.PUB_PARTNER] = -1
    d = view.decision
    playing = d is not None and d.kind not in ("bid", "call", "ecart", "chelem")
    pub[L.PUB_TRICK] = len(view.tricks) if playing else 0
    pub[L.PUB_LEADER] = (view.trick[0][0] if view.trick else d.seat) if playing else -1
    for j, (_, c) in enumerate(view.trick):
        pub[L.PUB_TRICK_CARDS + j] = c.id
    # the history (PUB_H_*: for a search), the trick being played included
    history = [(leader, plays) for leader, plays, _ in view.tricks] + ([(view.trick[0][0], view.trick)]
                                                                       if view.trick else [])
    for tr, (leader, plays) in enumerate(history):
        pub[L.PUB_H_LEADER + tr] = leader
        for j, (_, c) in enumerate(plays):
            pub[L.PUB_H_CARDS + tr * L.MAX_SEATS + j] = c.id
    for _, plays, winner in view.tricks:
        t, s = masks_of([c for _, c in plays])
        pub[L.PUB_PLAYED_T] |= t
        pub[L.PUB_PLAYED_S] |= s
        pub[L.PUB_TRICKS_WON + winner] += 1
        pub[L.PUB_WON_HP + winner] += sum(c.half_points for _, c in plays if not c.is_excuse)
    # finished tricks: who played what, the voids shown (R-PLAY-4), the partner revealed (R-CALL-3)
    for plays in [p for _, p, _ in view.tricks]:
        led = None
        for seat, c in plays:
            t, s = masks_of([c])
            pub[L.PUB_SEAT_PLAYED_T + seat] |= t
            pub[L.PUB_SEAT_PLAYED_S + seat] |= s
            if led is not None and not c.is_excuse:
                if led.is_trump:
                    if not c.is_trump:
                        pub[L.PUB_VOIDS + seat] |= 16
                elif c.suit != led.suit:
                    pub[L.PUB_VOIDS + seat] |= 1 << led.suit
                    if not c.is_trump:
                        pub[L.PUB_VOIDS + seat] |= 16
            if led is None and not c.is_excuse:
                led = c
            if view.called is not None and c == view.called:
                pub[L.PUB_PARTNER] = seat
    return pub


def _trick_state(trick) -> tuple[bool, int, int]:
    """``(fixed, fmask, amask)`` of the kernels for the cards already in the trick."""
    from .cards import ALL_TRUMPS_MASK, suit_mask

    fixed, fmask, amask = False, 0, ALL_TRUMPS_MASK
    for _, c in trick:
        if not fixed and not c.is_excuse:
            fixed = True
            fmask = 0 if c.is_trump else suit_mask(c.suit)
        if c.is_trump:
            amask &= ~((2 << c.id) - 1)
    return fixed, fmask, amask


class FastBotAdapter:
    """A registered fast-path bot (``bots.REGISTRY``) on the slow path, with the kernels'
    decisions: ``choose(view, legal, rng)`` turns the :class:`SeatView` into the kernel's
    arguments (own hand masks, :func:`public_view`, legal masks, the bots-stream state) and calls
    the compiled ``decide_*`` entry points over the same njit policies as the deal kernel.

    ``params``: None (defaults), a parameter vector (a shorter one is completed with the
    defaults) or a ``{name: value}`` mapping. ``rng`` is advanced exactly as on the fast path
    (``random`` draws; ``greedy`` and ``heuristic`` draw nothing).
    """

    def __init__(self, name: str = "heuristic", params=None):
        import numpy as np

        from bots import get_spec
        spec = get_spec(name)
        if isinstance(params, dict):
            vec = spec.vector(**params)
        else:
            vec = spec.vector()
            if params is not None:
                p = np.asarray(params, dtype=np.float64).ravel()
                vec[:p.size] = p[:vec.size]
        self.spec = spec
        self.name = spec.name
        self.code = spec.code
        self.params = vec
        self._rules: dict = {}

    def __repr__(self) -> str:
        over = self.spec.overrides(self.params)
        return f"FastBotAdapter({self.name!r}" + (f", {over!r})" if over else ")")

    def _rules_of(self, view: SeatView) -> Rules:
        key = (view.table, tuple(sorted(view.options.items())))
        r = self._rules.get(key)
        if r is None:
            r = self._rules[key] = Rules.from_options(view.table, view.options)
        return r

    def kernel_inputs(self, view: SeatView, legal):
        """What the deal kernel hands the bot at this decision, from the view alone:
        ``(decision code (play.TR_*), ht, hs, args, pub)``; ``args`` are the decision's own
        arguments (bid: highest; call: legal suit word; écart: normal, candidate trumps, size;
        poignée: levels; misère: which; card: legal trump word, legal suit word, fixed, fmask,
        amask, position in the trick), padded to six."""
        from ._kernels import layout as L
        from ._kernels import play as P
        from .cards import masks_of

        rules = self._rules_of(view)
        pub = public_view(view, rules)
        ht, hs = masks_of(view.hand)
        d = view.decision.kind
        if d == "bid":
            what, args = P.TR_BID, (int(pub[L.PUB_HIGHEST]),)
        elif d == "call":
            what, args = P.TR_CALL, (masks_of(legal)[1],)
        elif d == "ecart":
            what, args = P.TR_ECART, (masks_of(legal.normal)[1], masks_of(legal.trumps)[0], legal.size)
        elif d == "chelem":
            what, args = P.TR_CHELEM, ()
        elif d == "poignee":
            what, args = P.TR_POIGNEE, (len(legal) - 1,)
        elif d.startswith("misere"):
            what, args = P.TR_MISERE, (int(d == "misere_tete"),)
        else:
            fixed, fmask, amask = _trick_state(view.trick)
            what, args = P.TR_CARD, masks_of(legal) + (int(fixed), fmask, amask, len(view.trick))
        args = tuple(int(a) for a in args) + (0,) * (6 - len(args))
        return what, ht, hs, args, pub

    def choose(self, view: SeatView, legal, rng: Rng):
        import numpy as np

        from ._kernels import bots as K
        from ._kernels import layout as L
        from ._kernels import play as P
        from .cards import DECK
        from .rules import POIGNEE_LEVELS

        what, ht, hs, a, pub = self.kernel_inputs(view, legal)
        seat = view.seat
        params = np.zeros((self._rules_of(view).n_seats, self.params.size), dtype=np.float64)
        params[seat] = self.params
        ht, hs = np.int64(ht), np.int64(hs)
        a = [np.int64(x) for x in a]
        kind = np.int64(self.code)
        pol = None  # registered bots only: the dispatch is built without the user branch
        st = np.uint64(rng.state)
        if what == P.TR_BID:
            b, st = K.decide_bid(kind, params, pol, seat, ht, hs, pub, a[0], st)
            out = "pass" if b < 0 else CONTRACTS[b]
        elif what == P.TR_CALL:
            b, st = K.decide_call(kind, params, pol, seat, ht, hs, pub, a[0], st)
            out = DECK[22 + int(b)]
        elif what == P.TR_ECART:
            buf = np.zeros(L.MAX_ECART, dtype=np.int64)
            _, _, st = K.decide_ecart(kind, params, pol, seat, ht, hs, pub, a[0], a[1], a[2], buf, st)
            out = [DECK[int(c)] for c in buf[:legal.size]]
        elif what == P.TR_CHELEM:
            y, st = K.decide_chelem(kind, params, pol, seat, ht, hs, pub, st)
            out = bool(y)
        elif what == P.TR_POIGNEE:
            lvl, st = K.decide_poignee(kind, params, pol, seat, ht, hs, pub, a[0], st)
            out = None if lvl == 0 else POIGNEE_LEVELS[lvl - 1]
        elif what == P.TR_MISERE:
            y, st = K.decide_misere(kind, params, pol, seat, ht, hs, pub, a[0], st)
            out = bool(y)
        elif self.code == L.BOT_PIMC:
            # the search of the deal kernel, on the same inputs: the view, and the seat's own
            # écart when it is the taker at prise or garde (its own knowledge)
            from ._kernels.pimc import decide_pimc_card
            from .cards import masks_of
            et = es = 0
            if view.ecart is not None and view.taker == seat and view.contract in ("prise", "garde"):
                et, es = masks_of(view.ecart)
            rv = self._rules_of(view).to_vector()
            c, st = decide_pimc_card(rv, params, np.int64(seat), ht, hs, pub, np.int64(et), np.int64(es), a[0], a[1],
                                     a[5], st)
            out = DECK[int(c)]
        else:
            c, st = K.decide_card(kind, params, pol, seat, ht, hs, pub, a[0], a[1], bool(a[2]), a[3], a[4], a[5], st)
            out = DECK[int(c)]
        rng.state = int(st)
        return out


#: Per decision: the rule a policy's answer breaks when it is not even a choice of that kind.
_POLICY_RULES = {"bid": "R-BID-1", "call": "R-CALL-1", "ecart": "R-CHIEN-2", "chelem": "R-SLAM-1",
                 "poignee": "R-POIG-5", "misere": "R-MIS-1", "card": "R-PLAY-6"}


class PolicyAdapter(FastBotAdapter):
    """A user's policy set (``bots.policy.PolicySet``) on the slow path: the same inputs as in the
    deal kernel, its njit functions called from Python, and its answer handed to the
    :class:`Game` as it is, so a forbidden one is refused there, naming the rule (the kernels
    only mark it). ``rng`` advances as on the fast path."""

    def __init__(self, policy):
        import numpy as np

        self.policy = policy
        self.name = policy.name
        self.code = -1
        self.params = policy.vector()
        self._rules = {}
        self._out = np.zeros(6, dtype=np.int64)

    def __repr__(self) -> str:
        return f"PolicyAdapter({self.name!r})"

    def choose(self, view: SeatView, legal, rng: Rng):
        import numpy as np

        from ._kernels import play as P
        from .cards import DECK
        from .rules import POIGNEE_LEVELS

        what, ht, hs, a, pub = self.kernel_inputs(view, legal)
        lt = ls = arg = 0
        if what == P.TR_BID:
            arg = a[0]
        elif what == P.TR_CALL:
            ls = a[0]
        elif what == P.TR_ECART:
            ls, lt, arg = a[0], a[1], a[2]
        elif what in (P.TR_POIGNEE, P.TR_MISERE):
            arg = a[0]
        elif what == P.TR_CARD:
            lt, ls, arg = a[0], a[1], a[5]
        decision = ("bid", "call", "ecart", "chelem", "poignee", "misere", "card")[what]
        fn = self.policy.functions[what]
        box = np.array([np.uint64(rng.state)], dtype=np.uint64).view(np.int64)
        self._out[:] = -1
        r = int(fn(self.params, np.int64(view.seat), np.int64(ht), np.int64(hs), pub, np.int64(lt), np.int64(ls),
                   np.int64(arg), self._out, box))
        rng.state = int(box.view(np.uint64)[0])

        def bad(what_it_is):
            raise IllegalPlayError(_POLICY_RULES[decision], f"{decision}: returned {what_it_is}")

        if what == P.TR_BID:
            if r == -1:
                return "pass"
            if 0 <= r < len(CONTRACTS):
                return CONTRACTS[r]
            bad(f"{r}, not -1 (pass) or a contract 0..3")
        if what in (P.TR_CALL, P.TR_CARD):
            if 0 <= r < 78:
                return DECK[r]
            bad(f"{r}, not a card id 0..77")
        if what == P.TR_ECART:
            ids = [int(c) for c in self._out[:legal.size]]
            if any(not 0 <= c < 78 for c in ids):
                bad(f"card ids {ids}, not {legal.size} cards")
            return [DECK[c] for c in ids]
        if what == P.TR_POIGNEE:
            if 0 <= r <= len(POIGNEE_LEVELS):
                return None if r == 0 else POIGNEE_LEVELS[r - 1]
            bad(f"{r}, not a level 0..3")
        if r in (0, 1):
            return bool(r)
        bad(f"{r}, not 0 or 1")
