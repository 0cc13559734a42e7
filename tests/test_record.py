"""Deal records (DESIGN §6): dump/load, and replay/verify through the reference engine.

The six records of shared/records/examples.jsonl (copied to tests/data) must verify; corrupted
copies must be refused at their first bad thing, naming the line, the action and the rule.
"""

import copy
import io
import json
import os
from pathlib import Path

import pytest

from tarotsim import record
from tarotsim.record import RecordError, dump, load, replay, verify, verify_file

DATA = Path(__file__).parent / "data"
EXAMPLES_FILE = DATA / "examples.jsonl"
EXAMPLES = [r for _, r in load(EXAMPLES_FILE)]
EX4_SLAM, SLAM_EXCUSE, T3, CONTRE, T5, T5D = range(6)


def ex(i):
    return copy.deepcopy(EXAMPLES[i])


def refused(rec, line=None, fn=verify) -> RecordError:
    with pytest.raises(RecordError) as e:
        fn(rec, line)
    return e.value


# ------------------------------------------------------------------ the six examples


def test_the_six_examples_verify():
    assert verify_file(EXAMPLES_FILE) == 6
    for i, rec in enumerate(EXAMPLES):
        out = verify(rec, i + 1)
        assert out.scores == rec["scores"] and out.result == rec["result"]


def test_replay_recomputes_without_result_or_scores():
    rec = ex(T3)
    del rec["result"], rec["scores"]
    out = replay(rec)
    assert out.scores == [-52, 104, -52] and out.result["difference"] == 1
    assert out.winners[:3] == [2, 1, 2]
    e = refused(rec)
    assert e.action == "field result" and "missing" in e.message


def test_hand_written_records_are_welcome():
    rec = ex(T5)
    rec.pop("options")
    rec["seed"] = rec["index"] = None
    rec["comment"] = "typed by hand"
    rec["hands"][0].reverse()                # any order in a hand
    verify(rec)
    rec = ex(EX4_SLAM)                   # no "called"/"partner" at table 4: fine
    assert "called" not in rec
    verify(rec)


def test_passes_after_a_garde_contre_may_be_left_out():
    rec = ex(CONTRE)
    assert rec["bids"][-2:] == [[0, "garde_contre"], [1, "pass"]]
    rec["bids"].pop()
    verify(rec)


# ------------------------------------------------------------------ corrupted records: the rule broken


def test_illegal_card_must_follow_R_PLAY_4a():
    rec = ex(T3)
    assert rec["tricks"][1]["cards"] == ["3S", "5S", "NS"]     # seats 2, 0, 1
    rec["tricks"][1]["cards"][1] = "T8"
    e = refused(rec, 7)
    assert (e.line, e.action, e.rule_id) == (7, "trick 2, seat 0 plays T8", "R-PLAY-4a")
    assert str(e) == "line 7: trick 2, seat 0 plays T8: must follow spades: holds 4S (R-PLAY-4a)"


def test_illegal_card_must_play_a_trump_R_PLAY_4c():
    rec = ex(EX4_SLAM)
    rec["tricks"][0]["cards"][1] = "7S"                          # seat 2 holds T2 T3 T4
    e = refused(rec)
    assert (e.action, e.rule_id) == ("trick 1, seat 2 plays 7S", "R-PLAY-4c")


def test_card_not_held_R_PLAY_2():
    rec = ex(EX4_SLAM)
    rec["tricks"][0]["cards"][1] = "T5"
    e = refused(rec)
    assert (e.action, e.rule_id) == ("trick 1, seat 2 plays T5", "R-PLAY-2")
    assert "does not hold T5" in e.message


def test_wrong_trick_winner_R_PLAY_5():
    rec = ex(T3)
    rec["tricks"][0]["winner"] = 1
    e = refused(rec)
    assert (e.action, e.rule_id) == ("trick 1", "R-PLAY-5") and "won by seat 2" in e.message


def test_wrong_winner_of_an_excuse_slam_R_EXC_4():
    rec = ex(SLAM_EXCUSE)
    rec["tricks"][-1]["winner"] = 0
    e = refused(rec)
    assert (e.action, e.rule_id) == ("trick 18", "R-EXC-4")


def test_wrong_leader_R_PLAY_1():
    rec = ex(T3)
    rec["tricks"][0]["leader"] = 1
    e = refused(rec)
    assert (e.action, e.rule_id) == ("trick 1", "R-PLAY-1")


def test_missing_trick_R_DEAL_1():
    rec = ex(T3)
    rec["tricks"].pop()
    e = refused(rec)
    assert (e.action, e.rule_id) == ("field tricks", "R-DEAL-1")


def test_wrong_score_R_SCORE_2_and_wrong_result_fields():
    rec = ex(T3)
    rec["scores"] = [-50, 100, -50]
    e = refused(rec, 3)
    assert (e.line, e.action, e.rule_id) == (3, "field scores", "R-SCORE-2")
    rec = ex(T3)
    rec["result"]["attack_half_points"] = 86
    assert refused(rec).rule_id == "R-COUNT-1"
    rec = ex(T3)
    rec["result"]["value"] = 50
    assert (refused(rec).action, refused(rec).rule_id) == ("field result.value", "R-SCORE-1")


def test_first_bad_thing_is_reported():
    rec = ex(T3)
    rec["scores"] = [0, 0, 0]
    rec["tricks"][4]["winner"] = 0
    rec["tricks"][1]["cards"][1] = "T8"
    assert refused(rec).action == "trick 2, seat 0 plays T8"


def test_bids_R_BID_2_and_taker_R_BID_3():
    rec = ex(T5)
    rec["bids"][2] = [3, "prise"]                                # not higher than prise
    e = refused(rec)
    assert (e.action, e.rule_id) == ("bid 3, seat 3 says prise", "R-BID-2")
    rec = ex(T5)
    rec["bids"][0], rec["bids"][1] = rec["bids"][1], rec["bids"][0]
    assert refused(rec).rule_id == "R-BID-2"                     # out of turn
    rec = ex(T5)
    rec["taker"] = 1
    assert (refused(rec).action, refused(rec).rule_id) == ("field taker", "R-BID-3")


def test_call_R_CALL_1_and_partner_R_CALL_2():
    rec = ex(T5)
    rec["called"] = "QC"
    e = refused(rec)
    assert (e.action, e.rule_id) == ("call, seat 3 calls QC", "R-CALL-1")
    rec = ex(T5)
    rec["partner"] = 2
    assert refused(rec).rule_id == "R-CALL-2"


def test_ecart_with_a_king_R_CHIEN_2():
    rec = ex(T5)
    rec["ecart"] = ["KD", "1C", "6D"]
    e = refused(rec)
    assert e.rule_id == "R-CHIEN-2" and e.action.startswith("ecart, seat 3 discards")


def test_poignee_not_held_R_POIG_3():
    rec = ex(CONTRE)
    rec["declarations"][0]["cards"][-1] = "T20"                  # seat 1 does not hold T20
    e = refused(rec)
    assert e.rule_id == "R-POIG-3" and e.action.startswith("trick 1, seat 1 shows a simple poignee")


def test_chelem_by_a_defender_R_SLAM_1():
    rec = ex(SLAM_EXCUSE)
    rec["declarations"] = [{"seat": 0, "kind": "chelem"}]
    assert refused(rec).rule_id == "R-SLAM-1"


def test_outcome_must_match_the_deal():
    rec = ex(T3)
    rec["outcome"] = "all_passed"
    assert refused(rec).rule_id == "R-BID-3"
    rec = ex(T3)
    rec["outcome"] = "petit_sec"
    assert refused(rec).rule_id == "R-DEAL-4"


def test_partition_of_the_deck_R_DEAL_1():
    rec = ex(T3)
    rec["chien"].append(rec["hands"][0].pop())
    e = refused(rec)
    assert (e.action, e.rule_id) == ("deal", "R-DEAL-1") and "23 cards" in e.message


# ------------------------------------------------------------------ load: the shape of a record


def lines(*recs_or_text):
    return io.StringIO("\n".join(x if isinstance(x, str) else json.dumps(x) for x in recs_or_text) + "\n")


def load_error(f) -> RecordError:
    with pytest.raises(RecordError) as e:
        list(load(f))
    return e.value


def test_load_names_the_line_of_bad_json():
    e = load_error(lines(ex(T3), "", '{"format": "tarotsim-deal/1", "table": '))
    assert e.line == 3 and "malformed JSON" in str(e)


def test_load_missing_field_wrong_type_unknown_card_duplicate_card():
    rec = ex(T3)
    del rec["dealer"]
    e = load_error(lines(rec))
    assert (e.line, e.action) == (1, "field dealer") and "missing" in e.message
    rec = ex(T3)
    rec["dealer"] = "2"
    assert "must be a seat number" in load_error(lines(ex(T3), rec)).message
    rec = ex(T3)
    rec["hands"][1][0] = "ZZ"
    e = load_error(lines(rec))
    assert (e.action, e.rule_id) == ("field hands[1]", "R-CARD-1") and "'ZZ'" in e.message
    rec = ex(T3)
    rec["hands"][1][0] = rec["hands"][0][0]
    e = load_error(lines(ex(T3), ex(T3), rec))
    assert (e.line, e.rule_id) == (3, "R-DEAL-1") and "dealt twice" in e.message
    rec = ex(T3)
    rec["tricks"][2]["cards"] = ["T18", "T18", "T1"]
    assert load_error(lines(rec)).action == "field tricks[2].cards"
    assert load_error(lines("[1, 2]")).message.startswith("a record is a JSON object")
    rec = ex(T3)
    rec["result"]["made"] = 1
    assert load_error(lines(rec)).action == "field result.made"


def test_verify_file_names_the_line_of_the_bad_record(tmp_path):
    recs = [ex(i) for i in range(6)]
    recs[3]["scores"][0] += 1
    path = tmp_path / "deals.jsonl"
    dump(recs, path)
    with pytest.raises(RecordError) as e:
        verify_file(path)
    assert e.value.line == 4 and e.value.rule_id == "R-SCORE-2"


# ------------------------------------------------------------------ dump


def test_dump_then_load_round_trip(tmp_path):
    path = tmp_path / "deals.jsonl"
    assert dump(EXAMPLES, path) == 6
    assert [r for _, r in load(path)] == EXAMPLES
    assert [n for n, _ in load(path)] == [1, 2, 3, 4, 5, 6]
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask     # not the 0600 of a temp file


def test_dump_is_atomic(tmp_path):
    path = tmp_path / "deals.jsonl"
    dump(EXAMPLES[:2], path)
    before = path.read_text()

    def broken():
        yield EXAMPLES[2]
        yield {"bad": object()}                                   # not JSON: fails mid-way

    with pytest.raises(TypeError):
        dump(broken(), path)
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.jsonl"]   # no temp file left


def test_dump_to_an_open_file_and_numpy_scalars():
    import numpy as np
    rec = ex(T3)
    rec["scores"] = [np.int64(s) for s in rec["scores"]]
    buf = io.StringIO()
    dump(rec, buf)
    (n, back), = load(io.StringIO(buf.getvalue()))
    assert n == 1 and back == ex(T3)
    verify(back)


def test_record_error_text():
    e = RecordError(5, "trick 7, seat 2 plays T5", "R-PLAY-4b", "must overtrump: holds T17 above T12")
    assert str(e) == "line 5: trick 7, seat 2 plays T5: must overtrump: holds T17 above T12 (R-PLAY-4b)"
    assert str(RecordError(None, None, None, "malformed")) == "malformed"
    assert record.RecordError is RecordError
