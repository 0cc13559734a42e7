"""A bot of your own, on the slow path: tarotsim simulate --bots examples.my_bot:CautiousBot"""
from tarotsim.engine import EcartChoice


class CautiousBot:
    name = "cautious"

    def choose(self, view, legal, rng):
        kind = view.decision.kind
        if isinstance(legal, EcartChoice):  # lay aside the cheapest allowed cards
            cheap = sorted(legal.normal, key=lambda c: (c.half_points, c.id))
            if len(cheap) >= legal.size:
                return cheap[:legal.size]
            return cheap + list(legal.trumps[:legal.trumps_needed])
        if kind == "bid":  # take a prise with eight trumps or more
            trumps = sum(c.is_trump for c in view.hand)
            return "prise" if "prise" in legal and trumps >= 8 else "pass"
        if kind == "card":  # play the cheapest legal card
            return min(legal, key=lambda c: (c.half_points, c.id))
        return legal[0]  # call the first king; no chelem, no poignée, no misère
