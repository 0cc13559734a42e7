"""Table-2 deal records (R-VAR-TWO, DESIGN §6 ``piles``): replay, verify, bad input, ``show``.

``tests/data/two_player.jsonl``: line 1 a seeded deal (garde, with an écart) as the reference
engine writes it; line 2 a hand-entered deal (no seed, hands in any order, no result nor scores).
"""

import copy
import json
from pathlib import Path

import pytest

from tarotsim.cli import main
from tarotsim.record import RecordError, check_record, complete, verify
from tarotsim.reference import play_deal
from tarotsim.rules import Rules

DATA = Path(__file__).parent / "data" / "two_player.jsonl"
RECORDS = [json.loads(x) for x in DATA.read_text().splitlines()]
SEEDED, HAND_ENTERED = RECORDS


def refused(rec, rule_id, text):
    with pytest.raises(RecordError) as e:
        verify(rec, 1)
    assert e.value.rule_id == rule_id, str(e.value)
    assert text in str(e.value)
    return e.value


def test_R_VAR_TWO_random_records_verify():
    for index in range(30):
        rec = play_deal(Rules("2"), 77, index)
        out = verify(rec)
        assert out.scores == rec["scores"]


def test_R_VAR_TWO_the_seeded_golden_record_verifies_and_is_what_the_engine_plays():
    assert verify(SEEDED).scores == SEEDED["scores"]
    assert play_deal(Rules("2"), SEEDED["seed"], SEEDED["index"]) == SEEDED


def test_R_VAR_TWO_a_hand_entered_record_is_completed_then_verified():
    full = complete(HAND_ENTERED, 2)
    assert full["scores"] == [308, -308] and full["result"]["attack_half_points"] == 176
    assert verify(full).scores == [308, -308]


def test_R_VAR_TWO_a_record_without_piles_is_refused():
    rec = {k: v for k, v in SEEDED.items() if k != "piles"}
    with pytest.raises(RecordError, match="6 piles of 3") as e:
        check_record(rec, 1)
    assert e.value.rule_id == "R-VAR-TWO"


def test_R_VAR_TWO_a_pile_of_the_wrong_size_is_refused():
    rec = copy.deepcopy(SEEDED)
    rec["piles"][0][1].append(rec["piles"][0][0].pop())  # pile 1: 2 cards, pile 2: 4
    refused(rec, "R-VAR-TWO", "pile 1 of seat 0 has 2 cards, not 3")


def test_R_VAR_TWO_piles_at_another_table_are_refused():
    rec = play_deal(Rules("4"), 1, 0)
    rec["piles"] = [[["KH", "KS", "KD"]]]
    with pytest.raises(RecordError, match="KH is dealt twice") as e:   # every card is in a hand or the chien
        verify(rec)
    assert e.value.rule_id == "R-DEAL-1"


def _swap_in_trick(rec, n, seat, new_card):
    """Trick ``n`` (from 1) with ``seat``'s card replaced by ``new_card``."""
    t = rec["tricks"][n - 1]
    pos = (seat - t["leader"]) % 2
    t["cards"][pos] = new_card


def test_R_VAR_TWO_a_card_played_from_under_a_pile_is_refused():
    rec = copy.deepcopy(SEEDED)
    leader = rec["tricks"][0]["leader"]
    under = rec["piles"][leader][0][0]            # the bottom card of pile 1: face down in trick 1
    rec["tricks"][0]["cards"][0] = under
    err = refused(rec, "R-VAR-TWO", f"{under} lies face down in pile 1 of seat {leader}")
    assert err.action == f"trick 1, seat {leader} plays {under}"


def test_R_VAR_TWO_a_pile_card_in_the_ecart_is_refused():
    rec = copy.deepcopy(SEEDED)
    taker = rec["taker"]
    top = rec["piles"][taker][2][2]
    rec["ecart"] = rec["ecart"][:5] + [top]
    refused(rec, "R-VAR-TWO", f"the écart is made from the hand only: {top} lies in pile 3 of seat {taker}")


def test_R_VAR_TWO_replay_verify_cli_reads_table_2_records(tmp_path, capsys):
    path = tmp_path / "two.jsonl"
    bad = copy.deepcopy(SEEDED)
    bad["piles"][1][0] = bad["piles"][1][0][:2]
    path.write_text("\n".join(json.dumps(r) for r in (SEEDED, complete(HAND_ENTERED), bad)) + "\n")
    with pytest.raises(SystemExit) as e:
        main(["replay", "--verify", str(path)])
    out = capsys.readouterr().out
    assert e.value.code == 1
    assert "line 1: ok" in out and "line 2: ok" in out
    assert "line 3: BAD" in out and "R-VAR-TWO" in out and "pile 1 of seat 1 has 2 cards, not 3" in out


def test_R_VAR_TWO_show_draws_the_piles_with_the_face_up_tops_marked(capsys):
    with pytest.raises(SystemExit) as e:
        main(["show", str(DATA), "--line", "2"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    assert "Piles (bottom to top; [face up] at the start)" in out
    assert "seat 1  1♠ 2♠ [3♠]  |  1♥ 2♥ [3♥]" in out
    assert "seat 1:3♠^" in out                    # a card played from a pile is marked
