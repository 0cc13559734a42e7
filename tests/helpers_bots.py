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
