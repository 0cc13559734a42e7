"""Reading deal records (DESIGN §6) robustly: gzip, standard input, bad bytes, huge or deep lines,
and checking a whole file with one or several worker processes.
"""

import gzip
import io
import json
import pickle
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from tarotsim import record
from tarotsim.record import RecordError, check_file, complete, load, parse_line, verify_file

EXAMPLES_FILE = Path(__file__).parent / "data" / "examples.jsonl"
EXAMPLE_BYTES = EXAMPLES_FILE.read_bytes()
EXAMPLES = [r for _, r in load(EXAMPLES_FILE)]


def lines_of(data: bytes) -> list[bytes]:
    return data.rstrip(b"\n").split(b"\n")


def refusal(source) -> RecordError:
    with pytest.raises(RecordError) as e:
        list(load(source))
    return e.value


# ------------------------------------------------------------------ gzip and standard input


def test_gzip_file_is_read_by_its_magic_bytes_not_its_name(tmp_path):
    packed = gzip.compress(EXAMPLE_BYTES)
    for name, data in [("deals.jsonl.gz", packed), ("deals.jsonl", packed), ("plain.gz", EXAMPLE_BYTES)]:
        path = tmp_path / name
        path.write_bytes(data)
        assert [r for _, r in load(path)] == EXAMPLES, name
        assert verify_file(str(path)) == 6


def test_open_files_binary_text_and_gzip_are_read_and_left_open():
    sources = [io.BytesIO(EXAMPLE_BYTES), io.BytesIO(gzip.compress(EXAMPLE_BYTES)),
               io.StringIO(EXAMPLE_BYTES.decode()), io.BufferedReader(io.BytesIO(gzip.compress(EXAMPLE_BYTES)))]
    for f in sources:
        assert [r for _, r in load(f)] == EXAMPLES
        assert not f.closed


def test_dash_is_standard_input_plain_or_gzip(monkeypatch):
    for data in (EXAMPLE_BYTES, gzip.compress(EXAMPLE_BYTES)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
        assert [n for n, _ in load("-")] == [1, 2, 3, 4, 5, 6]


def test_a_byte_order_mark_before_the_first_line_is_skipped():
    assert len(list(load(io.BytesIO(b"\xef\xbb\xbf" + EXAMPLE_BYTES)))) == 6


def test_truncated_gzip_names_the_line_after_the_last_whole_one():
    packed = gzip.compress(EXAMPLE_BYTES)
    got = []
    with pytest.raises(RecordError) as e:
        for n, _ in load(io.BytesIO(packed[:-4])):     # the trailer (length) is cut off
            got.append(n)
    assert got == [1, 2, 3, 4, 5, 6]
    assert str(e.value) == "line 7: the gzip data ends early: the file is truncated"


def test_corrupt_gzip_is_one_record_error():
    packed = bytearray(gzip.compress(EXAMPLE_BYTES))
    packed[-8] ^= 0xFF                                   # the CRC of the data
    e = refusal(io.BytesIO(bytes(packed)))
    assert e.line == 7 and e.message.startswith("corrupt gzip data (CRC check failed")


# ------------------------------------------------------------------ bad bytes, deep and huge lines


def test_a_line_that_is_not_utf8_is_named_with_its_byte_and_column():
    lines = lines_of(EXAMPLE_BYTES)
    lines[2] = lines[2][:16] + b"\xe9" + lines[2][17:]
    e = refusal(io.BytesIO(b"\n".join(lines)))
    assert str(e) == "line 3: not UTF-8 text (byte 0xe9 at column 17)"


def test_a_text_stream_that_cannot_decode_is_a_record_error():
    stream = io.TextIOWrapper(io.BytesIO(EXAMPLE_BYTES + b"\xff\xfe\n"), encoding="utf-8")
    e = refusal(stream)
    assert "not utf-8 text" in e.message.lower()


def test_deeply_nested_json_is_refused_not_a_recursion_error():
    e = refusal(io.BytesIO(EXAMPLE_BYTES + b"[" * 200_000 + b"]" * 200_000 + b"\n"))
    assert e.line == 7 and "nested too deeply" in e.message


def test_a_number_of_thousands_of_digits_is_refused():
    e = refusal(io.BytesIO(b'{"format": ' + b"9" * 5000 + b"}\n"))
    assert e.line == 1 and "number too long" in e.message


def test_a_line_over_the_cap_is_refused_without_reading_it_whole():
    huge = b'{"x": "' + b"a" * (record.MAX_LINE_BYTES + 10) + b'"}\n'
    f = io.BytesIO(EXAMPLE_BYTES + huge + EXAMPLE_BYTES)
    e = refusal(f)
    assert e.line == 7 and "longer than 1 MiB" in e.message
    assert f.tell() < len(EXAMPLE_BYTES) + record.MAX_LINE_BYTES + 2   # stopped at the cap
    # a line just at the cap is read (and refused for what it is, not for its length)
    at_cap = b"[" + b" " * (record.MAX_LINE_BYTES - 2) + b"]"
    assert "a record is a JSON object" in refusal(io.BytesIO(at_cap + b"\n")).message


def test_long_values_are_shortened_in_messages():
    rec = dict(EXAMPLES[0], outcome="x" * 100_000)
    e = refusal(io.StringIO(json.dumps(rec)))
    assert "unknown outcome" in e.message and len(str(e)) < 200


def test_parse_line_blank_is_none():
    assert parse_line(b"  \r\n", 4) is None and parse_line("", 1) is None


def test_record_error_survives_pickling():
    e = RecordError(3, "trick 2, seat 1 plays T5", "R-PLAY-4c", "must overtrump: holds T17 above T12")
    back = pickle.loads(pickle.dumps(e))
    assert (back.line, back.action, back.rule_id, back.message, str(back)) == \
           (e.line, e.action, e.rule_id, e.message, str(e))


# ------------------------------------------------------------------ a whole file, one or several workers


def corrupted_file() -> bytes:
    """The six examples twice over, with a wrong score, a wrong trick winner, a blank line,
    then a line cut short (the file is broken there) and records after it."""
    recs = [json.loads(json.dumps(r)) for r in EXAMPLES * 2]
    recs[1]["scores"][0] += 1                                           # R-SCORE-2
    recs[8]["tricks"][2]["winner"] = (recs[8]["tricks"][2]["winner"] + 1) % len(recs[8]["hands"])
    lines = [json.dumps(r).encode() for r in recs]
    lines.insert(4, b"")
    lines.insert(11, lines[11][:-7])                                    # malformed JSON
    return b"\n".join(lines) + b"\n"


def summary(reports):
    return [(r.line, r.ok, r.stop, str(r.error) if r.error else None, r.outcome, r.result, r.scores)
            for r in reports]


@pytest.mark.parametrize("verify", [True, False])
def test_check_file_same_reports_for_one_and_two_workers(monkeypatch, verify):
    monkeypatch.setattr(record, "CHUNK_LINES", 2)          # several chunks, so the pool is used
    data = corrupted_file()
    one = summary(check_file(io.BytesIO(data), verify=verify, workers=1))
    two = summary(check_file(io.BytesIO(data), verify=verify, workers=2))
    assert one == two
    assert [x[0] for x in one] == [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12]   # line 5 blank; stops at 12
    assert one[-1][2] and "malformed JSON" in one[-1][3]
    bad = [x[0] for x in one if not x[1]]
    assert bad == ([2, 10, 12] if verify else [10, 12])


def test_check_file_reading_error_comes_after_the_good_lines(monkeypatch):
    monkeypatch.setattr(record, "CHUNK_LINES", 2)
    data = gzip.compress(EXAMPLE_BYTES * 2)[:-4]
    for workers in (1, 2):
        reports = list(check_file(io.BytesIO(data), verify=True, workers=workers))
        assert [r.line for r in reports] == list(range(1, 14))
        assert all(r.ok for r in reports[:-1]) and reports[-1].stop and "truncated" in reports[-1].error.message


def test_verify_file_with_workers_raises_the_first_bad_record(tmp_path, monkeypatch):
    monkeypatch.setattr(record, "CHUNK_LINES", 2)
    path = tmp_path / "deals.jsonl.gz"
    path.write_bytes(gzip.compress(corrupted_file()))
    with pytest.raises(RecordError) as e:
        verify_file(path, workers=2)
    assert e.value.line == 2 and e.value.rule_id == "R-SCORE-2"


def test_workers_start_clean_when_other_threads_run(monkeypatch):
    # forking a process with other threads could deadlock: then the pool starts fresh interpreters
    monkeypatch.setattr(record, "CHUNK_LINES", 2)
    monkeypatch.setattr("threading.active_count", lambda: 2)
    assert record._pool_context().get_start_method() != "fork"
    data = corrupted_file()
    assert summary(check_file(io.BytesIO(data), workers=2)) == summary(check_file(io.BytesIO(data), workers=1))


def test_check_file_refuses_zero_workers():
    with pytest.raises(ValueError):
        list(check_file(io.BytesIO(EXAMPLE_BYTES), workers=0))


# ------------------------------------------------------------------ one record of a file, completed


def test_record_at_reads_only_up_to_its_line():
    data = EXAMPLE_BYTES.replace(b"\n", b"\n\n", 1) + b"\xe9 not even text\n"   # line 2 blank, line 8 bad
    assert record.record_at(io.BytesIO(data)) == (1, EXAMPLES[0])
    assert record.record_at(io.BytesIO(data), 4) == (4, EXAMPLES[2])
    assert record.record_at(io.BytesIO(b"\n\n" + data)) == (3, EXAMPLES[0])
    for line, message in [(2, "line 2: a blank line: no deal record there"),
                          (8, "line 8: not UTF-8 text (byte 0xe9 at column 1)"),
                          (10, "line 10: no such line: the file has 8 line(s)")]:
        with pytest.raises(RecordError) as e:
            record.record_at(io.BytesIO(data), line)
        assert str(e.value) == message
    with pytest.raises(RecordError, match="no deal record in the file"):
        record.record_at(io.BytesIO(b"\n \n"))


def test_complete_fills_in_what_a_typed_record_leaves_out_and_checks_the_rest():
    t5 = json.loads(json.dumps(EXAMPLES[4]))
    assert t5["table"] == "5"
    typed = {k: v for k, v in t5.items() if k not in ("result", "scores", "partner")}
    assert complete(typed) == t5
    t5["scores"][0] += 1
    with pytest.raises(RecordError) as e:
        complete(t5, 5)
    assert e.value.line == 5 and e.value.rule_id == "R-SCORE-2"


def test_complete_names_the_petit_sec_seat():
    from tarotsim.runs import simulate as sim
    from tarotsim.rules import Rules

    rec = next(r for r in sim.records(Rules("4"), 1, range(2000)) if r["outcome"] == "petit_sec")
    typed = {k: v for k, v in rec.items() if k not in ("petit_sec_seat", "scores")}
    assert complete(typed) == rec


# ------------------------------------------------------------------ never anything but a RecordError

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.sampled_from(["KH", "T21", "EX", "pass", "garde", "played", "poignee", "simple", "5", "4"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=6)


@settings(deadline=None, max_examples=300)
@given(st.binary(max_size=300))
def test_any_bytes_give_a_record_nothing_or_a_record_error(data):
    try:
        got = list(check_file(io.BytesIO(data), verify=True))
    except RecordError:
        pytest.fail("check_file reports a bad line, it does not raise")
    for report in got:
        assert report.ok or isinstance(report.error, RecordError)


@settings(deadline=None, max_examples=400)
@given(st.sampled_from(range(6)), st.data())
def test_any_change_to_a_record_is_accepted_or_refused_with_a_record_error(which, data):
    rec = json.loads(json.dumps(EXAMPLES[which]))
    parent, key = None, None
    node = rec
    for _ in range(data.draw(st.integers(1, 4))):   # walk down to some field, item or card
        if isinstance(node, dict) and node:
            k = data.draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            k = data.draw(st.integers(0, len(node) - 1))
        else:
            break
        parent, key, node = node, k, node[k]
    action = data.draw(st.sampled_from(["replace", "delete"]))
    if action == "delete" and isinstance(parent, dict):
        del parent[key]
    else:
        parent[key] = data.draw(JSON_VALUES)
    line = json.dumps(rec).encode()
    try:
        parsed = parse_line(line, 1)
        record.verify(parsed, 1)
        complete(parsed, 1)
    except RecordError:
        pass
