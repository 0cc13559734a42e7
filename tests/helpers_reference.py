"""The positions of the rule tests on the reference engine.

The positions of the rule tests on the reference engine (RULES §0 to §12): the tables, card
lists, "universe A" (a table-4 deal in which the defence wins every trick), the examples of DESIGN
§6 and a forced prise short of plain cards.

Universe A::

    dealer 3, seat 0 leads trick 1 and is the (forced) taker
    seat 0: EX 1S..10S 1H..7H          (no trump, no face card)
    seat 1: T1..T18                    (wins every trick it trumps)
    seat 2: T19 T20 T21 JS NS QS KS 8H..KH 1D..4D
    seat 3: 5D..KD 1C..8C
    chien : 9C 10C JC NC QC KC         (26 half-points)

Played out, the Excuse stays in seat 0's hand to the last trick, won by seat 1.
"""

from __future__ import annotations

import json
from pathlib import Path

from tarotsim.cards import parse_cards
from tarotsim.reference import deal_for
from tarotsim.reference.bot import RandomBot, run
from tarotsim.reference.positions import make_deal, play_out
from tarotsim.rng import STREAM_BOTS, Rng
from tarotsim.rules import Rules

#: The tables.
R3, R4, R5, R5D = (Rules(table=t) for t in ("3", "4", "5", "5d"))


DATA = Path(__file__).parent / "data"


EXAMPLES = [json.loads(x) for x in (DATA / "examples.jsonl").read_text().splitlines() if x.strip()]


def C(text):
    return parse_cards(text)


def S(cards):
    return " ".join(str(c) for c in cards)


UA_HANDS = {
    0: "EX 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H",
    1: "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18",
    2: "T19 T20 T21 JS NS QS KS 8H 9H 10H JH NH QH KH 1D 2D 3D 4D",
}


UA_CHIEN = "9C 10C JC NC QC KC"


def universe_a(contract="garde_sans", rules=R4, hands=None, chelem=False, script=None, play=True):
    h = {k: C(v) for k, v in (hands or UA_HANDS).items()}
    d = make_deal(rules, 3, h, C(UA_CHIEN), forced=(0, contract))
    if contract in ("prise", "garde"):
        d.discard(0, C("1S 2S 3S 4S 5S 6S"))
    d.announce_chelem(0, chelem)
    if play:
        play_out(d, script)
    return d


def rng_deal(rules, seed, index):
    d = deal_for(rules, seed, index)
    return run(d, RandomBot(Rng.for_deal(seed, index, STREAM_BOTS)))


def first_turn_of(d, seat):
    while d.next_player() != seat:
        d.play(d.next_player(), d.legal_cards(d.next_player())[-1])
    return d


def example(i, **options):
    rec = json.loads(json.dumps(EXAMPLES[i]))
    rec["options"] = dict(rec.get("options") or {}, **options)
    return rec


FORCED_TRUMPS = {0: "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 KS KH KD KC"}


FORCED_CHIEN = "T16 T17 T18 T19 1S 2S"
