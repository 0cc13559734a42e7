"""The fast bots on the slow path: kernel bots and policy sets deciding for one seat of a game.

The fast bots on the slow path: the kernels' bots (and a user's policy set) deciding for one seat
of a :class:`tarotsim.engine.Game`, from that seat's :class:`~tarotsim.engine.SeatView` alone.

:func:`public_view` builds the kernels' public view (``layout.PUB_*``) from a seat's view, exactly
as the deal kernel fills it at the same decision, and :class:`FastBotAdapter` calls the bots'
compiled decisions (``bots.dispatch.decide_*``) with it; :class:`PolicyAdapter` does the
same for a policy set and names the rule an answer breaks. So a table that mixes a Python bot
with kernel bots plays the very deals the kernels would.
"""

from __future__ import annotations

from .engine import IllegalPlayError, SeatView
from .rng import Rng
from .rules import BOT_DECISIONS, CONTRACT_OF, CONTRACTS, LED_NONE, NO_CEILING, Rules, after_play, play_shows


def public_view(view: SeatView, rules: Rules | None = None):
    """The kernels' public view, built from a seat's view alone.

    The kernels' public view (``int64[layout.PUB_LEN]``, ``layout.PUB_*``) built from a
    :class:`SeatView` alone: what the deal kernel hands a bot at the same decision."""
    import numpy as np

    from ._kernels import layout as L

    if rules is None:
        rules = Rules.from_options(view.table, view.options)
    pub = np.zeros(L.PUB_LEN, dtype=np.int64)
    _view_auction(pub, view)
    _view_shown(pub, view)
    _view_trick(pub, view, rules)
    _view_finished_tricks(pub, view)
    return pub


def _view_auction(pub, view: SeatView) -> None:
    """Seating, bids, taker, contract and called card (``PUB_DEALER`` .. ``PUB_HIGHEST``)."""
    from ._kernels import layout as L

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


def _view_shown(pub, view: SeatView) -> None:
    """Fill the public view's part of what was shown to all.

    What was shown to all: the chien, the écart's trumps, the declarations and, at table 2
    (R-VAR-TWO), both players' face-up pile tops."""
    from ._kernels import layout as L
    from .cards import masks_of, parse_cards

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
    for seat, tops in enumerate(view.pile_tops or ()):
        pub[L.PUB_TOPS_T + seat], pub[L.PUB_TOPS_S + seat] = masks_of([c for c in tops if c is not None])


def _view_trick(pub, view: SeatView, rules: Rules) -> None:
    """Fill the public view's table, current trick and play history.

    The table, the trick being played and the history of the play (``PUB_H_*``: for a
    search), the trick being played included."""
    from ._kernels import layout as L
    from .rules import N_TRICKS, PLAY_DECISIONS, TABLES

    pub[L.PUB_TABLE] = TABLES.index(view.table)
    pub[L.PUB_N_ACTIVE] = rules.n_active
    pub[L.PUB_N_TRICKS] = N_TRICKS[view.table]
    pub[L.PUB_PARTNER] = -1
    dec = view.decision
    playing = dec is not None and dec.kind in PLAY_DECISIONS
    pub[L.PUB_TRICK] = len(view.tricks) if playing else 0
    pub[L.PUB_LEADER] = (view.trick[0][0] if view.trick else dec.seat) if playing and dec is not None else -1
    for j, (_, c) in enumerate(view.trick):
        pub[L.PUB_TRICK_CARDS + j] = c.id
    history = [(leader, plays) for leader, plays, _ in view.tricks] + ([(view.trick[0][0], view.trick)]
                                                                       if view.trick else [])
    for tr, (leader, plays) in enumerate(history):  # at most MAX_TRICKS (36, table 2)
        pub[L.PUB_H_LEADER + tr] = leader
        for j, (_, c) in enumerate(plays):
            pub[L.PUB_H_CARDS + tr * L.MAX_SEATS + j] = c.id


def _view_finished_tricks(pub, view: SeatView) -> None:
    """Fill the bots' bookkeeping of the finished tricks.

    The bots' bookkeeping of the finished tricks, as ``steps._track_trick`` keeps it: the cards
    played, per seat and in all, the tricks and card points each seat won, the voids its plays
    show (``rules.play_shows``) and the partner revealed (R-CALL-3)."""
    from ._kernels import layout as L
    from .cards import masks_of

    # table 2: a card not followed may still lie under a pile (R-VAR-TWO): no void is shown
    voids_shown = view.table != "2"
    for _, plays, winner in view.tricks:
        t, s = masks_of([c for _, c in plays])
        pub[L.PUB_PLAYED_T] |= t
        pub[L.PUB_PLAYED_S] |= s
        pub[L.PUB_TRICKS_WON + winner] += 1
        pub[L.PUB_WON_HP + winner] += sum(c.half_points for _, c in plays if not c.is_excuse)
        led, top = LED_NONE, 0
        for seat, c in plays:
            t, s = masks_of([c])
            pub[L.PUB_SEAT_PLAYED_T + seat] |= t
            pub[L.PUB_SEAT_PLAYED_S + seat] |= s
            if voids_shown:
                pub[L.PUB_VOIDS + seat], _ = play_shows(c.id, led, top, int(pub[L.PUB_VOIDS + seat]), NO_CEILING)
            led, top = after_play(c.id, led, top)
            if view.called is not None and c == view.called:
                pub[L.PUB_PARTNER] = seat


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
    """A registered fast-path bot deciding on the slow path with the kernels' own decisions.

    A registered fast-path bot (``bots.REGISTRY``) on the slow path, with the kernels'
    decisions: ``choose(view, legal, rng)`` turns the :class:`SeatView` into the kernel's
    arguments (own hand masks, :func:`public_view`, legal masks, the bots-stream state) and calls
    the compiled ``decide_*`` entry points over the same njit policies as the deal kernel.

    ``params``: None (defaults), a parameter vector (a shorter one is completed with the
    defaults) or a ``{name: value}`` mapping. ``rng`` is advanced exactly as on the fast path
    (``random`` draws; ``greedy`` and ``heuristic`` draw nothing).

    ``seats``: every seat's bot as the kernels take them, ``(kinds, params)`` (``simulate.bot_setup``):
    a ``pimc`` bot with ``bid_search`` on plays the rest of the auction in its worlds with the
    other seats' own bidders, which a seat's view does not name; None: the others bid as the
    heuristic with its defaults.
    """

    def __init__(self, name: str = "heuristic", params=None, seats=None):

        from bots import BOT_KINDS, get_spec

        spec = get_spec(name)
        if spec.code == BOT_KINDS["learned"]:  # its decisions read the whole observation, which a view does not carry here
            raise ValueError("learned plays in the kernels only (simulate, tournament, show): not step by step")
        vec = spec.row(params)
        self.spec = spec
        self.name = spec.name
        self.code = spec.code
        self.params = vec
        self.seats = seats
        self._rules: dict = {}
        self._scratch = None

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
        """The kernel's inputs for this decision, from the seat's view alone.

        What the deal kernel hands the bot at this decision, from the view alone:
        ``(decision code (workspace.TR_*), ht, hs, args, pub)``; ``args`` are the decision's own
        arguments (bid: highest; call: legal suit word; écart: normal, candidate trumps, size;
        poignée: levels; misère: which; card: legal trump word, legal suit word, fixed, fmask,
        amask, position in the trick), padded to six."""
        from ._kernels import layout as L
        from ._kernels import workspace as P
        from .cards import masks_of

        rules = self._rules_of(view)
        pub = public_view(view, rules)
        # table 2 (R-VAR-TWO): the seat's cards are its hand and its own face-up pile tops; the
        # cards under its piles are unknown to it as to the other player
        reach = tuple(view.hand) + (tuple(c for c in view.pile_tops[view.seat] if c is not None)
                                    if view.pile_tops else ())
        ht, hs = masks_of(reach)
        assert view.decision is not None  # a bot is asked only at a decision
        d = view.decision.kind
        args: tuple[int, ...]
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

        from bots import BOT_KINDS, dispatch as K
        from ._kernels import layout as L
        from ._kernels import workspace as P
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
        out: object  # the answer Game.apply takes: a bid, a card, an écart, a level, yes/no
        if what in (P.TR_BID, P.TR_CALL, P.TR_ECART, P.TR_CHELEM, P.TR_POIGNEE) and self._searches(view):
            out, st = self._search(what, view, legal, ht, hs, pub, a, st)
        elif what == P.TR_BID:
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
        elif self.code == BOT_KINDS["pimc"]:
            # the search of the deal kernel, on the same inputs: the view, the seat's own écart
            # when it is the taker at prise or garde (its own knowledge) and, at table 2, the piles
            # as both players see them (R-VAR-TWO)
            from bots.search import pile_vector

            from ._builds.runs import pimc_card
            from .cards import masks_of
            et = es = 0
            if view.ecart is not None and view.contract is not None and CONTRACT_OF[view.contract].ecart_made:
                et, es = masks_of(view.ecart)
            rv = self._rules_of(view).to_vector()
            c, st = pimc_card(rv, params, np.int64(seat), ht, hs, pub, np.int64(et), np.int64(es), a[0], a[1], a[5],
                              pile_vector(view), st)
            out = DECK[int(c)]
        else:
            c, st = K.decide_card(kind, params, pol, seat, ht, hs, pub, a[0], a[1], bool(a[2]), a[3], a[4], a[5], st)
            out = DECK[int(c)]
        rng.state = int(st)
        return out

    def _searches(self, view: SeatView) -> bool:
        """Whether this bot makes its bid, call, écart and declarations by search.

        A ``pimc`` bot with ``bid_search`` on, at any table but 2 (R-VAR-TWO)."""
        from bots import BOT_KINDS, REGISTRY
        if self.code != BOT_KINDS["pimc"] or view.table == "2":
            return False
        return bool(REGISTRY["pimc"].values(self.params)["bid_search"])

    def _search(self, what, view: SeatView, legal, ht, hs, pub, a, st):
        """The bid search's decision on the kernel's inputs.

        The bid search's decision (``tarotsim._builds.runs.bid_search_decision``) on the kernel's
        inputs: ``(answer, new state)``."""
        import numpy as np

        from ._builds.runs import bid_search_decision, new_bid_search_scratch
        from ._kernels import layout as L
        from ._kernels import workspace as P
        from .cards import DECK
        from .rules import POIGNEE_LEVELS

        rules = self._rules_of(view)
        seat = np.int64(view.seat)
        if self.seats is not None:
            kinds = np.array(self.seats[0], dtype=np.int64)
            params = np.array(self.seats[1], dtype=np.float64)
        else:
            from bots import REGISTRY
            kinds = np.full(rules.n_seats, REGISTRY["heuristic"].code, dtype=np.int64)
            params = np.tile(REGISTRY["heuristic"].vector(), (rules.n_seats, 1))
        kinds[seat] = self.code
        params[seat] = self.params
        if self._scratch is None:
            self._scratch = new_bid_search_scratch()
        rv = rules.to_vector()
        own = view.taker == view.seat and view.contract is not None and CONTRACT_OF[view.contract].ecart_made
        ecart = np.array([c.id for c in (view.ecart or ()) if own], dtype=np.int64)
        # the decision's own arguments (``decide_search``): the poignée's second is the cards already in trick 1
        args = np.array([a[0], len(view.trick) if what == P.TR_POIGNEE else a[1], a[2]], dtype=np.int64)
        out = np.zeros(L.MAX_ECART, dtype=np.int64)
        choice, _, st = bid_search_decision(np.int64(what), rv, kinds, params, seat, np.int64(ht), np.int64(hs), pub,
                                            args, ecart, out, st, self._scratch)
        if what == P.TR_BID:
            return ("pass" if choice < 0 else CONTRACTS[choice]), st
        if what == P.TR_CALL:
            return DECK[22 + int(choice)], st
        if what == P.TR_ECART:
            return [DECK[int(c)] for c in out[:legal.size]], st
        if what == P.TR_CHELEM:
            return bool(choice), st
        return (None if choice == 0 else POIGNEE_LEVELS[choice - 1]), st


#: Per decision: the rule a bot's answer breaks when it is not even a choice of that kind.
DECISION_RULES = dict(zip(BOT_DECISIONS, ("R-BID-1", "R-CALL-1", "R-CHIEN-2", "R-SLAM-1", "R-POIG-5", "R-MIS-1",
                                          "R-PLAY-6")))


class PolicyAdapter(FastBotAdapter):
    """A user's policy set deciding on the slow path.

    A user's policy set (``bots.policy.PolicySet``) on the slow path: the same inputs as in the
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

        from ._kernels import workspace as P
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
        decision = BOT_DECISIONS[what]
        fn = self.policy.functions[what]
        box = np.array([np.uint64(rng.state)], dtype=np.uint64).view(np.int64)
        self._out[:] = -1
        r = int(fn(self.params, np.int64(view.seat), np.int64(ht), np.int64(hs), pub, np.int64(lt), np.int64(ls),
                   np.int64(arg), self._out, box))
        rng.state = int(box.view(np.uint64)[0])

        def bad(what_it_is):
            raise IllegalPlayError(DECISION_RULES[decision], f"{decision}: returned {what_it_is}")

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
