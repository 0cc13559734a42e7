"""Invariants of the reference engine over many random-bot deals (DESIGN §7), with hypothesis.

Tables 3, 4, 5 and 5d, several option sets, some forced contracts. Each deal is played decision
by decision so the legal sets can be checked at every card; then the finished deal and its
record are checked. Also: the random bot draws exactly the number of times the engine contract
says (docs/engine-contract.md), the streams being the only source of randomness.
"""

import io
import json

from hypothesis import given, settings, strategies as st

from tarotsim import record
from tarotsim.cards import DECK
from tarotsim.reference import RandomBot, RuleViolation, deal_for, play_deal, record_from_deal
from tarotsim.rng import CHIEN_SIZE, HAND_SIZE, STREAM_BOTS, Rng
from tarotsim.rules import CONTRACTS, Rules

OPTION_SETS = [
    {},
    {"misere": True},
    {"misere": True, "misere_excuse_is_trump": False, "poignee_ecart_trumps": False},
    {"called_suit_after_excuse": "restricted", "excuse_slam_lead": "attack_only",
     "pab_slam_penultimate": False, "petit_sec": "off"},
]


@st.composite
def deals(draw):
    table = draw(st.sampled_from(["3", "4", "5", "5d"]))
    rules = Rules.from_options(table, draw(st.sampled_from(OPTION_SETS)))
    seed = draw(st.integers(0, 2**64 - 1))
    index = draw(st.integers(0, 2**40))
    forced = None
    if draw(st.booleans()):
        dealer = index % rules.n_seats
        seats = [s for s in range(rules.n_seats) if not (table == "5d" and s == dealer)]
        forced = (draw(st.sampled_from(seats)), draw(st.sampled_from(CONTRACTS)))
    return rules, seed, index, forced


class CountingRng(Rng):
    __slots__ = ("draws",)

    def __init__(self, state):
        super().__init__(state)
        self.draws = 0

    def below(self, n):
        self.draws += 1
        return super().below(n)


def play_checked(rules, seed, index, forced):
    """Play with the random bot, checking the legal set at every card (R-PLAY-4, R-PLAY-6)."""
    d = deal_for(rules, seed, index, forced)
    bot = RandomBot(CountingRng.for_deal(seed, index, STREAM_BOTS))
    while (dec := d.decision()) is not None:
        if dec.kind == "card":
            hand = d.hands[dec.seat]
            legal = d.legal_cards(dec.seat)
            assert legal and set(legal) <= set(hand) and legal == sorted(legal)
            for c in hand:
                if c not in legal:
                    try:
                        d.check_play(dec.seat, c)
                    except RuleViolation as e:
                        assert e.rule_id.startswith(("R-PLAY-4", "R-CALL-4"))
                    else:
                        raise AssertionError(f"{c} refused by legal_cards but accepted by check_play")
            for others in d.order:
                if others != dec.seat:
                    assert d.legal_cards(others) == []
        bot.act(d, dec)
    return d, bot.rng.draws


@settings(deadline=None, max_examples=300)
@given(deals())
def test_invariants_of_a_random_deal(args):
    rules, seed, index, forced = args
    d, _ = play_checked(*args)
    # R-DEAL-1: the 78 cards partitioned, sizes by table
    dealt = [c for h in d.initial_hands for c in h] + d.chien
    assert sorted(dealt) == list(DECK)
    assert all(len(h) == (0 if s == d.dummy else HAND_SIZE[rules.table]) for s, h in enumerate(d.initial_hands))
    assert len(d.chien) == CHIEN_SIZE[rules.table]
    assert sum(d.scores) == 0                                          # R-GEN-5
    if d.dummy is not None:
        assert d.scores[d.dummy] == 0                                  # R-DEAL-6
    if d.outcome != "played":
        assert d.tricks == [] and d.scores == [0] * rules.n_seats
        return
    # R-PLAY-1, R-PLAY-2: one card per active seat, in playing order from the leader
    leader = d.taker if d.chelem_announced else d.order[0]
    for t in d.tricks:
        assert t.leader == leader
        start = d.order.index(t.leader)
        assert [s for s, _ in t.plays] == [d.order[(start + k) % d.n_active] for k in range(d.n_active)]
        leader = t.winner
    assert len(d.tricks) == HAND_SIZE[rules.table]
    played = [c for t in d.tricks for c in t.cards]
    aside = d.ecart if d.contract in ("prise", "garde") else d.chien
    assert sorted(played + aside) == list(DECK)
    # R-COUNT-1, R-EXC-2: piles partition the deck, 182 half-points between them
    assert sorted(d.attack_pile + d.defence_pile) == list(DECK)
    assert d.attack_half_points + d.defence_half_points == 182
    assert abs(d.attack_half_points - sum(c.half_points for c in d.attack_pile)) <= 1
    if rules.table in ("4", "5d"):
        assert d.attack_half_points % 2 == 0                           # R-COUNT-5
    assert d.result["oudlers"] == sum(c.is_oudler for c in d.attack_pile)


@settings(deadline=None, max_examples=100)
@given(deals())
def test_random_bot_draws_as_the_contract_says(args):
    """One draw per bid, call, chelem, poignée, eligible misère and card; E or fewer for the écart."""
    rules, seed, index, forced = args
    d, draws = play_checked(*args)
    expected = 0
    if d.petit_sec_seat is None and forced is None:
        expected += d.n_active                                         # bids
    if d.outcome == "played":
        expected += 1 if rules.table == "5" else 0                     # call
        if d.contract in ("prise", "garde"):
            enlarged = d.initial_hands[d.taker] + d.chien
            normal = [c for c in enlarged if c.suit is not None and c.rank != 14]
            e = len(d.chien)
            expected += e if len(normal) >= e else e - len(normal)
        expected += 1                                                  # chelem
        expected += d.n_active                                         # poignée
        if rules.misere:
            for s in d.order:
                hand = d.initial_hands[s] if s != d.taker else \
                    sorted(set(d.initial_hands[s] + (d.chien if d.contract in ("prise", "garde") else [])) - set(d.ecart))
                atout = not any(c.is_trump or (c.is_excuse and rules.misere_excuse_is_trump) for c in hand)
                tete = not any(c.suit is not None and c.rank >= 11 for c in hand)
                expected += atout + tete
        expected += len(d.tricks) * d.n_active                         # cards
    assert draws == expected


@settings(deadline=None, max_examples=100)
@given(deals())
def test_same_deal_same_record_and_it_verifies_through_json(args):
    rules, seed, index, forced = args
    rec = play_deal(rules, seed, index, forced)
    assert play_deal(rules, seed, index, forced) == rec
    assert sum(rec["scores"]) == 0
    out = record.verify(rec)
    assert out.scores == rec["scores"] and out.result == rec["result"]
    buf = io.StringIO()
    record.dump([rec, rec], buf)
    loaded = list(record.load(io.StringIO(buf.getvalue())))
    assert [n for n, _ in loaded] == [1, 2]
    for n, r in loaded:
        assert r == json.loads(json.dumps(rec))
        assert record.verify(r, n).scores == rec["scores"]
        assert record.replay(r).result == rec["result"]


def test_record_from_deal_refuses_an_unfinished_deal():
    d = deal_for(Rules(), 1, 1)
    try:
        record_from_deal(d)
    except ValueError:
        pass
    else:
        raise AssertionError("an unfinished deal has no record")
