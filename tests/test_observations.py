"""Observation and information-state tensors: the layout written once, pinned by a
golden file, and no leak of the cards a seat cannot see."""

import json
import random
import sys
from pathlib import Path

import numpy as np

from tarotsim.cards import Card
from tarotsim.engine import Game, IllegalPlayError
from tarotsim.observations import (INFO, INFO_FIELDS, INFO_LEN, OBS, OBS_FIELDS, OBS_LEN, information_state,
                                   layout_table, observation)
from tarotsim.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "observations_golden.json"
#: (table, seed, index, forced, actions taken at random from the mask, rng seed)
CASES = [("3", 5, 0, None, 30, 1), ("4", 5, 1, (2, "garde"), 23, 2), ("5", 5, 2, (0, "prise"), 40, 3),
         ("5d", 5, 3, None, 25, 4), ("4", 6, 7, (0, "garde_contre"), 75, 5)]


def _position(table, seed, index, forced, steps, rng_seed) -> Game:
    g = Game(Rules(table), seed=seed, index=index, forced=forced)
    rng = random.Random(rng_seed)
    for _ in range(steps):
        if g.done:
            break
        g.apply_action(rng.choice(g.legal_action_ids()))
    return g


def _golden() -> dict:
    out = {"obs_fields": [[n, s] for n, s, _ in OBS_FIELDS], "info_fields": [[n, s] for n, s, _ in INFO_FIELDS],
           "cases": []}
    for case in CASES:
        g = _position(*case)
        seats = []
        for seat in range(g.rules.n_seats):
            o, i = observation(g, seat), information_state(g, seat)
            seats.append({"obs": [[int(k), round(float(o[k]), 6)] for k in np.flatnonzero(o)],
                          "info_history": [int(k) for k in np.flatnonzero(i[OBS_LEN:])]})
        out["cases"].append({"case": [list(c) if isinstance(c, tuple) else c for c in case], "seats": seats})
    return out


def test_the_layout_and_values_match_the_golden_file():
    """Regenerate after a deliberate change: ``python tests/test_observations.py``."""
    assert _golden() == json.loads(GOLDEN.read_text())


def test_docs_hold_the_layout_table():
    text = (ROOT / "docs" / "observations.md").read_text(encoding="utf-8")
    assert layout_table() in text
    assert f"(length {OBS_LEN})" in text and f"(length {INFO_LEN})" in text


def test_slices_tile_the_tensors():
    starts = [s.start for s in INFO.values()]
    assert starts[0] == 0 and all(a.stop == b.start for a, b in zip(INFO.values(), list(INFO.values())[1:]))
    assert OBS_LEN == list(OBS.values())[-1].stop and INFO_LEN == list(INFO.values())[-1].stop and starts == sorted(starts)
    assert all(OBS[n] == INFO[n] for n in OBS)


def test_observation_fields_read_the_game():
    g = _position("4", 5, 1, (2, "garde"), 23, 2)  # the écart is made, the play has begun
    d = g._deal
    for seat in range(4):
        o = observation(g, seat)
        assert set(np.flatnonzero(o[OBS["hand"]])) == {c.id for c in g.hand(seat)}
        taker_row = (2 - seat) % 4
        assert np.flatnonzero(o[OBS["taker"]]).tolist() == [taker_row]
        assert o[OBS["contract"]].tolist() == [0, 1, 0, 0]
        assert set(np.flatnonzero(o[OBS["chien"]])) == {c.id for c in d.chien}  # shown at a garde (R-CHIEN-1)
        assert set(np.flatnonzero(o[OBS["ecart"]])) == ({c.id for c in d.ecart} if seat == 2 else set())
        played = o[OBS["played"]].reshape(5, 78)
        for s in range(4):
            mine = {c.id for t in d.tricks for ss, c in t.plays if ss == s} | {c.id for ss, c in d.trick if ss == s}
            assert set(np.flatnonzero(played[(s - seat) % 4])) == mine
        assert o[OBS["decision"]][7] == 1 and o[OBS["to_play"]][(g.to_move - seat) % 4] == 1
        assert o[OBS["table"]].tolist() == [0, 1, 0, 0]


def test_R_PLAY_4a_R_PLAY_4b_voids_and_trump_ceilings_from_the_plays():
    """Seat 3 discards on a heart lead: void in hearts and trumps; seat 2 trumps; a trump under
    the highest one shows the ceiling (R-PLAY-4c)."""
    suit = lambda s: [f"{r}{s}" for r in "1 2 3 4 5 6 7 8 9 10 J N Q K".split()]
    hands = [suit("C") + "T11 T13 T14 T15".split(), suit("H") + "T1 T2 T3 T4".split(),
             suit("S") + "T6 T7 T8 T12".split(), suit("D") + "T5 T9 T10 T17".split()]
    g = Game(Rules("4"), hands=hands, chien="T16 T18 T19 T20 T21 EX".split(), dealer=0, forced=(1, "garde_sans"))
    g.announce_chelem(False)
    for seat in (1, 2, 3, 0):
        g.declare_poignee(None) if g.decision.kind == "poignee" else None
        g.play({1: "2H", 2: "T12", 3: "T17", 0: "T11"}[seat])
    o = observation(g, 1)
    voids = o[OBS["voids"]].reshape(5, 5)
    assert voids[1].tolist() == [0, 1, 0, 0, 0] and voids[2].tolist() == [0, 1, 0, 0, 0]
    assert voids[3].tolist() == [0, 1, 0, 0, 0]  # seat 0 (row 3) trumped under T17: no trump above
    ceiling = o[OBS["trump_ceiling"]]
    assert ceiling[3] == 17 and ceiling[0] == 21 and ceiling[1] == 21
    assert o[OBS["tricks_won"]][2] == 1 and o[OBS["points_won"]][2] == 1 + 1 + 1 + 1  # seat 3 won with T17


def _hidden_cards(g: Game, seat: int) -> dict[int, list[Card]]:
    """Per other seat, the cards in its hand that ``seat`` has no way to see."""
    d = g._deal
    shown = set(d.chien) if d.contract in ("prise", "garde") else set()
    shown |= {c for _, cards in d._poignee_shown.values() for c in cards}
    return {s: [c for c in d.hands[s] if c not in shown] for s in range(d.n_seats) if s != seat}


def test_no_leak_swapping_unseen_cards_between_other_seats_changes_nothing():
    rng = random.Random(7)
    checked = 0
    for table in ("3", "4", "5", "5d"):
        rules = Rules(table)
        for index in range(12):
            forced = ((index + 1) % rules.n_seats, ("prise", "garde", "garde_sans", "garde_contre")[index % 4])
            g = Game(rules, seed=33, index=index, forced=forced)
            if g.done:
                continue
            for _ in range(rng.randrange(1, 60)):
                if g.done:
                    break
                g.apply_action(rng.choice(g.legal_action_ids()))
            for seat in range(rules.n_seats):
                hidden = {s: cs for s, cs in _hidden_cards(g, seat).items() if cs}
                if len(hidden) < 2:
                    continue
                a, b = rng.sample(sorted(hidden), 2)
                x, y = rng.choice(hidden[a]), rng.choice(hidden[b])
                hands = [[y if c == x else x if c == y else c for c in h] for h in g._deal.initial_hands]
                try:
                    h = Game(rules, hands=hands, chien=g._deal.chien, dealer=g._deal.dealer, forced=forced)
                    h.replay(g.events)
                    for c in g.ecart_picks:
                        h.pick(c)
                except (IllegalPlayError, ValueError):
                    continue  # the swap made an earlier play illegal: not the same public history
                if h.done != g.done:
                    continue
                assert np.array_equal(observation(h, seat), observation(g, seat)), (table, index, seat, x, y)
                assert np.array_equal(information_state(h, seat), information_state(g, seat))
                assert not np.array_equal(observation(h, a), observation(g, a))  # seat a does see it
                checked += 1
    assert checked > 100


if __name__ == "__main__" and sys.argv[1:] == []:
    GOLDEN.write_text(json.dumps(_golden(), separators=(",", ":")) + "\n")
    print("wrote", GOLDEN)
