"""Python bots used by the CLI tests (loaded as ``helpers_bots:Name``, the way a user names theirs)."""

from tarotsim.engine import EcartChoice


class Cheater:
    """Plays a card it may not play whenever it can (to test the error message)."""

    name = "cheater"

    def choose(self, view, legal, rng):
        if isinstance(legal, EcartChoice):
            return list(legal.normal[:legal.size]) + list(legal.trumps[:max(0, legal.size - len(legal.normal))])
        if view.decision.kind == "card":
            illegal = [c for c in view.hand if c not in legal]
            return illegal[0] if illegal else legal[0]
        if view.decision.kind == "bid":
            return legal[-1]
        return legal[0]


class NoChoose:
    pass


class Declarer:
    """A Python bot that makes every kind of decision, drawing from the bots stream.

    Draws every answer from ``rng`` (the deal's bots stream, shared with the kernel bots),
    shows poignées, declares misères and chelems: every decision kind at the batched path."""

    name = "declarer"

    def choose(self, view, legal, rng):
        if isinstance(legal, EcartChoice):
            pool = sorted(legal.normal)
            if len(pool) >= legal.size:
                return [pool.pop(rng.below(len(pool))) for _ in range(legal.size)]
            trumps = sorted(legal.trumps)
            return pool + [trumps.pop(rng.below(len(trumps))) for _ in range(legal.trumps_needed)]
        kind = view.decision.kind
        if kind == "poignee" or kind.startswith("misere"):
            return legal[-1]  # the highest poignée, a misère whenever eligible
        if kind == "chelem":
            return rng.below(8) == 0
        if kind == "bid":
            return legal[min(len(legal) - 1, rng.below(3))]
        return legal[rng.below(len(legal))]


class ReadsTheView:
    """A Python bot that plays from what its view shows.

    Plays from what the view shows (history, partner, chien, écart, declarations): a wrong
    field in a view built elsewhere changes its answers; cards answered by name."""

    name = "reads-the-view"

    def choose(self, view, legal, rng):
        if isinstance(legal, EcartChoice):
            cheap = sorted(legal.normal, key=lambda c: (c.half_points, c.id))
            return cheap[:legal.size] if len(cheap) >= legal.size else cheap + list(legal.trumps[:legal.trumps_needed])
        seen = (len(view.tricks) + len(view.trick) + len(view.declarations) + len(view.bids)
                + (view.partner or 0) + len(view.chien or ()) + len(view.ecart or ()) + len(view.ecart_trumps)
                + sum(c.id for _, plays, _ in view.tricks for _, c in plays) + (view.taker or 0)
                + (view.called.id if view.called else 0) + len(view.hand) + view.dealer
                + len(view.options) + (3 if view.contract else 0))
        if view.decision.kind in ("card", "call"):
            return str(legal[seen % len(legal)])  # a card's name: the engine reads it (as_card)
        return legal[seen % len(legal)]


class ShowsItsOwnPoignee:
    """A Python bot that shows a poignée of its own choosing.

    Shows a simple poignée with its highest trumps (cards of its own choosing: not the
    kernels' lowest ones, so those deals go to the step-by-step engine)."""

    name = "own-poignee"

    def choose(self, view, legal, rng):
        kind = view.decision.kind
        if kind == "poignee" and len(legal) > 1:
            from tarotsim.rules import Rules
            size = {"3": 13, "4": 10, "5": 8, "5d": 10}[view.table]
            assert Rules(view.table).table == view.table
            trumps = sorted((c for c in view.hand if c.is_trump and not c.is_excuse), reverse=True)
            if len(trumps) >= size:
                return ("simple", trumps[:size])
        if isinstance(legal, EcartChoice):
            return list(legal.normal[:legal.size]) + list(legal.trumps[:max(0, legal.size - len(legal.normal))])
        if kind == "bid":
            return "prise" if "prise" in legal else "pass"
        return legal[0]


class RaisesAtItsTenthCard:
    """Raises in ``choose`` at its tenth card decision of a deal."""

    name = "raises"

    def choose(self, view, legal, rng):
        if view.decision.kind == "card" and len(view.tricks) == 9:
            raise RuntimeError("tenth card")
        return legal[0] if not isinstance(legal, EcartChoice) else \
            list(legal.normal[:legal.size]) + list(legal.trumps[:max(0, legal.size - len(legal.normal))])


class Sequential(Declarer):
    """A bot that keeps state between decisions in deal order (played deal by deal)."""

    sequential = True
