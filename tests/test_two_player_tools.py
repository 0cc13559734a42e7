"""Every tool at table 2 (R-VAR-TWO): the Game facade and its views, the bots through their
adapters (only what is public), simulate, show, tournament and study bidding, on the kernels (R-VAR-TWO).
"""

import json

import pytest

from tarotsim.runs import study
from tarotsim.adapters import FastBotAdapter
from tarotsim.cards import Card
from tarotsim.engine import Game
from tarotsim.runs.players import kernel_path, parse_players
from tarotsim.runs.runner import Runner
from tarotsim.record import verify
from tarotsim.rng import STREAM_BOTS, Rng, deal_with_piles
from tarotsim.rules import CONTRACTS, Rules
from tarotsim.runs.slowpath import play_record

TWO = Rules("2")


def test_R_VAR_TWO_the_view_shows_both_players_face_up_tops_and_no_face_down_card():
    game = Game(TWO, 6, 0)
    _, hands, _, piles = deal_with_piles(TWO, 6, 0)
    for seat in (0, 1):
        v = game.view(seat)
        assert [c.id for c in v.hand] == hands[seat]                      # the hand only
        assert v.pile_tops == tuple(tuple(Card(p[-1]) for p in piles[s]) for s in (0, 1))
        assert v.pile_sizes == ((3,) * 6, (3,) * 6)


def test_R_VAR_TWO_a_bot_sees_its_hand_and_face_up_tops_not_the_cards_under_them():
    """Swapping face-down pile cards changes nothing a bot is handed at its decisions."""
    _, hands, chien, piles = deal_with_piles(TWO, 8, 0)
    swapped = [[list(p) for p in ps] for ps in piles]
    swapped[0][0][0], swapped[1][2][1] = swapped[1][2][1], swapped[0][0][0]   # two face-down cards
    bot = FastBotAdapter("heuristic")
    inputs = []
    for ps in (piles, swapped):
        g = Game(TWO, hands=hands, chien=chien, dealer=0, piles=ps, forced=(1, "garde_sans"))
        g.announce_chelem(False)
        d = g.decision
        what, ht, hs, args, pub = bot.kernel_inputs(g.view(d.seat), g.legal_actions())
        reach = hands[d.seat] + [p[-1] for p in ps[d.seat]]
        assert {c for c in range(78) if (c < 22 and ht >> c & 1) or (c >= 22 and hs >> (c - 22) & 1)} == set(reach)
        inputs.append((what, ht, hs, args, pub.tolist()))
    assert inputs[0] == inputs[1]


def test_R_VAR_TWO_heuristic_bids_its_hand_and_face_up_tops_against_its_table_two_thresholds():
    """The heuristic's first bid at table 2: the count of its hand and its own face-up pile tops
    (``evaluate``) against its table-2 thresholds (``prise2`` .. ``garde_contre2``); the table-4
    thresholds and the shifts of tables 3 and 5 never move it."""
    from bots import REGISTRY
    from bots.heuristic import H_PRISE2, evaluate
    from tarotsim.cards import masks_of

    names = [f"{c}2" for c in CONTRACTS]
    default = REGISTRY["heuristic"].vector()
    seen = set()
    for thresholds, others in (([float(default[H_PRISE2 + k]) for k in range(4)], {}),
                               ([0.0, 5.0, 20.0, 45.0], {"prise": 90.0, "garde": 0.0, "shift3": -50.0}),
                               ([20.0, 25.0, 30.0, 36.0], {"shift5": 40.0, "garde_contre": 10.0})):
        params = {**dict(zip(names, thresholds)), **others}
        bot = FastBotAdapter("heuristic", params)
        row = REGISTRY["heuristic"].vector(**params)
        for index in range(30):
            game = Game(TWO, 12, index)
            seat = game.decision.seat
            _, hands, _, piles = deal_with_piles(TWO, 12, index)
            ht, hs = masks_of(hands[seat] + [p[-1] for p in piles[seat]])
            count, voids = evaluate(row.reshape(1, -1), 0, ht, hs)
            expected = "pass"
            for k, c in enumerate(CONTRACTS):
                if (count + 3.0 * voids if k >= 2 else count) >= thresholds[k]:
                    expected = c
            rng = Rng.for_deal(12, index, STREAM_BOTS)  # the heuristic draws nothing from it
            assert bot.choose(game.view(seat), game.legal_actions(), rng) == expected, (params, index)
            seen.add(expected)
    assert {"pass", "prise", "garde", "garde_sans", "garde_contre"} <= seen
    # the study shows and calibrates against the same thresholds
    assert study.table_shift("2") == 0.0
    assert study.table_thresholds("2") == {c: float(default[H_PRISE2 + k]) for k, c in enumerate(CONTRACTS)}


def test_R_VAR_TWO_calibration_round_trip_sets_the_table_two_thresholds(tmp_path):
    """A table-2 calibration file sets ``prise2`` .. ``garde_contre2`` (the measured thresholds,
    no shift), leaves the table-4 thresholds alone, and a study of that bot shows them."""
    from bots import REGISTRY, parse_bots

    rep = {"table": "2", "bots": "heuristic", "seed": 1, "start": 0, "deals": 10, "options": {},
           "thresholds": {c: {"threshold": 20.0 + i, "uncertainty": 0.5, "status": "crossing"}
                          for i, c in enumerate(CONTRACTS)}}
    cal = study.calibration(rep, study.table_shift("2"))
    assert cal["thresholds"] == {c: 20.0 + i for i, c in enumerate(CONTRACTS)}
    path = tmp_path / "cal2.json"
    path.write_text(json.dumps(cal))
    default = REGISTRY["heuristic"].values(REGISTRY["heuristic"].vector())
    for bot in ("heuristic", "pimc"):
        (_, vec), = parse_bots(f"{bot}:thresholds={path}", 1)
        values = REGISTRY[bot].values(vec)
        assert [values[f"{c}2"] for c in CONTRACTS] == [20.0, 21.0, 22.0, 23.0]
        assert [values[c] for c in CONTRACTS] == [REGISTRY[bot].values(REGISTRY[bot].vector())[c] for c in CONTRACTS]
    assert [default[c] for c in CONTRACTS] == [40.0, 42.0, 59.0, 65.0]
    p = study.plan(TWO, 1, 10, bots=f"heuristic:thresholds={path}")
    assert [p.current[c] for c in CONTRACTS] == [20.0, 21.0, 22.0, 23.0]


def test_R_VAR_TWO_runs_on_the_kernels_pimc_included():
    players = parse_players("heuristic", TWO)
    assert kernel_path(TWO, players) and kernel_path(Rules("4"), parse_players("heuristic", Rules("4")))
    f, recs = Runner(TWO, 3, players).block(0, 5, with_records=True)
    assert len(f) == 5 and all(verify(r).scores == r["scores"] for r in recs)
    assert all(sum(r["scores"]) == 0 for r in recs)
    # the same deals as the step-by-step engine plays with the same bots
    assert recs == [play_record(TWO, 3, i, [p.python_bot() for p in players]) for i in range(5)]
    # pimc plays table 2 on the kernels too (its worlds and rollouts know the piles)
    pimc = parse_players("pimc:worlds=2,heuristic", TWO)
    assert kernel_path(TWO, pimc) and pimc[0].name == "pimc"


def test_R_VAR_TWO_simulate_writes_records_that_replay(cli, tmp_path):
    path = tmp_path / "two.jsonl"
    code, out, err = cli("simulate", "--table", "2", "--deals", "40", "--seed", "5", "--bots", "greedy,random",
                         "--records", str(path), "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["deals"] == 40
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    assert len(recs) == 40 and all(r["table"] == "2" and len(r["piles"]) == 2 for r in recs)
    assert all(verify(r).scores == r["scores"] for r in recs)


def test_R_VAR_TWO_show_a_seeded_deal(cli):
    code, out, _ = cli("show", "--table", "2", "--seed", "3", "--index", "4", "--bots", "random")
    assert code == 0 and out.startswith("Table 2 — seed 3, index 4") and "Piles (bottom to top" in out


def test_R_VAR_TWO_tournament_duplicate_over_the_two_seats(cli):
    code, out, err = cli("tournament", "--table", "2", "--bots", "heuristic,random", "--deals", "10",
                         "--seed", "1", "--json")
    assert code == 0, err
    rep = json.loads(out)
    assert rep["table"] == "2"
    assert json.dumps(rep).count("heuristic") >= 1


@pytest.mark.parametrize("bots, deals", [("heuristic", 40), ("greedy,random", 40), ("pimc:worlds=2,heuristic", 10)])
def test_R_VAR_TWO_study_on_the_kernels_equals_the_step_by_step_study(bots, deals):
    """``study bidding`` at table 2: each build of the kernels (pimc's included, with its worlds
    and rollouts on the piles) studies the same deals as the reference engine with the bots'
    adapters (``tarotsim.runs.study._study_slow``)."""
    import numpy as np

    from tarotsim.runs.study import _slow_players, _study_slow, plan

    t = study.run(TWO, 4, deals, bots=bots)
    p = plan(TWO, 4, deals, bots=bots)
    mask = np.array([c in p.contracts for c in CONTRACTS], dtype=np.int64)
    acc = (np.zeros_like(t.bins), np.zeros_like(t.oudlers), np.zeros_like(t.misc))
    _study_slow(p, _slow_players(TWO, bots), 0, deals, mask, acc)
    assert all(np.array_equal(a, b) for a, b in zip(acc, (t.bins, t.oudlers, t.misc)))
    assert t.played >= deals // 2  # the comparison covers played deals, not only thrown-in ones


def test_R_VAR_TWO_study_bidding_forces_the_first_speaker():
    t = study.run(TWO, 2, 6, bots="heuristic", contracts="prise,garde_contre")
    assert t.played + t.annulled == 6 and t.annulled == 0   # no petit sec at table 2
    assert int(t.bins[0, :, 0].sum()) == 6 and int(t.bins[3, :, 0].sum()) == 6
    assert int(t.bins[1, :, 0].sum()) == 0                    # garde not studied
