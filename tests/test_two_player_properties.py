"""Invariants of table 2 (R-VAR-TWO) over random-bot deals, with hypothesis (DESIGN §7).

The 78 cards partitioned among hands, piles and chien; at every card the legal set is non-empty
and inside the playable cards (hand and face-up tops), and a face-down pile card is refused naming
R-VAR-TWO; the piles only shrink from the top and turn up between tricks; 182 half-points; zero-sum
scores; same (seed, index) same record; record -> verify; the same summary for any thread count.
"""

import json

from hypothesis import given, settings, strategies as st

from tarotsim.cards import DECK
from tarotsim.record import verify
from tarotsim.reference import RandomBot, RuleViolation, deal_for, play_deal, record_from_deal
from tarotsim.rng import STREAM_BOTS, Rng
from tarotsim.rules import CONTRACTS, Rules

TWO = Rules("2")


@st.composite
def deals(draw):
    seed = draw(st.integers(0, 2**64 - 1))
    index = draw(st.integers(0, 2**40))
    forced = (draw(st.sampled_from([0, 1])), draw(st.sampled_from(CONTRACTS))) if draw(st.booleans()) else None
    return seed, index, forced


def play_checked(seed, index, forced):
    d = deal_for(TWO, seed, index, forced)
    bot = RandomBot(Rng.for_deal(seed, index, STREAM_BOTS))
    while (dec := d.decision()) is not None:
        assert dec.kind in ("bid", "ecart", "chelem", "card")   # no poignée, no misère (R-VAR-TWO)
        if dec.kind == "card":
            seat = dec.seat
            playable = set(d.hands[seat]) | set(d.face_up_tops(seat))
            legal = d.legal_cards(seat)
            assert legal and set(legal) <= playable
            face_down = [c for p in d.piles[seat] for c in (p[:-1] if p else [])]
            for c in face_down[:2]:
                try:
                    d.check_play(seat, c)
                except RuleViolation as e:
                    assert e.rule_id == "R-VAR-TWO"
                else:
                    raise AssertionError(f"{c} lies face down and was accepted")
            if not d.trick:  # between tricks every non-empty pile shows its top
                assert all(up for ps, ups in zip(d.piles, d.face_up) for p, up in zip(ps, ups) if p)
        bot.act(d, dec)
    return d


@settings(deadline=None, max_examples=60)
@given(deals())
def test_R_VAR_TWO_invariants_of_a_random_deal(args):
    d = play_checked(*args)
    # the 78 cards partitioned among hands, piles and chien (R-DEAL-1, R-VAR-TWO)
    piles = [c for ps in d.initial_piles for p in ps for c in p]
    assert sorted([c for h in d.initial_hands for c in h] + piles + d.chien) == list(DECK)
    assert [len(h) for h in d.initial_hands] == [18, 18] and len(d.chien) == 6
    assert all(len(ps) == 6 and all(len(p) == 3 for p in ps) for ps in d.initial_piles)
    assert sum(d.scores) == 0                                          # R-GEN-5
    if d.outcome != "played":
        assert d.outcome == "all_passed" and d.scores == [0, 0]        # never petit sec at 2
        return
    assert len(d.tricks) == 36 and all(len(t.plays) == 2 for t in d.tricks)
    played = [c for t in d.tricks for c in t.cards]
    aside = d.ecart if d.contract in ("prise", "garde") else d.chien
    assert sorted(played + aside) == list(DECK)
    assert not set(d.ecart) & set(piles)                               # écart from the hand only
    # each pile is played from the top down (R-VAR-TWO)
    for seat, ps in enumerate(d.initial_piles):
        mine = [c for t in d.tricks for s, c in t.plays if s == seat]
        for p in ps:
            assert sorted(p, key=mine.index) == list(reversed(p))
    assert d.attack_half_points + d.defence_half_points == 182        # R-COUNT-1, R-EXC-2
    value = d.result["value"]
    assert d.scores[d.taker] == value and d.scores[1 - d.taker] == -value   # R-SCORE-2 row 2


@settings(deadline=None, max_examples=25)
@given(deals())
def test_R_VAR_TWO_same_deal_same_record_and_the_record_verifies(args):
    seed, index, forced = args
    rec = play_deal(TWO, seed, index, forced)
    assert rec == play_deal(TWO, seed, index, forced)
    assert json.loads(json.dumps(rec)) == rec
    d = play_checked(seed, index, forced)
    assert record_from_deal(d, seed, index) == rec
    out = verify(rec)
    assert out.scores == rec["scores"] and out.result == rec["result"]


def test_R_VAR_TWO_the_summary_does_not_depend_on_threads(capsys):
    import pytest

    from tarotsim.cli import main

    outs = []
    for threads in ("1", "2"):
        with pytest.raises(SystemExit) as e:
            main(["simulate", "--table", "2", "--deals", "30", "--seed", "9", "--bots", "heuristic,random",
                  "--threads", threads, "--json"])
        assert e.value.code == 0
        d = json.loads(capsys.readouterr().out)
        outs.append({k: v for k, v in d.items() if k not in ("elapsed_s", "deals_per_s", "threads", "compile_s")})
    assert outs[0] == outs[1]
