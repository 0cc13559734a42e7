"""`tarotsim replay` on the files a user has: gzip, standard input, broken or empty files,
and the same output whatever the number of worker processes."""

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tarotsim import record

EXAMPLES_FILE = Path(__file__).parent / "data" / "examples.jsonl"
EXAMPLE_BYTES = EXAMPLES_FILE.read_bytes()


def with_stdin(monkeypatch, data: bytes):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))


def test_replay_gzip_file_and_gzip_on_stdin(cli, monkeypatch, tmp_path):
    path = tmp_path / "deals.jsonl.gz"
    path.write_bytes(gzip.compress(EXAMPLE_BYTES))
    code, plain, _ = cli("replay", "--verify", str(EXAMPLES_FILE))
    assert code == 0 and plain.endswith("6 record(s) verified, 0 bad\n")
    assert cli("replay", "--verify", str(path)) == (0, plain, "")
    with_stdin(monkeypatch, gzip.compress(EXAMPLE_BYTES))
    assert cli("replay", "--verify", "-") == (0, plain, "")


@pytest.mark.slow
def test_replay_gzip_on_stdin_of_a_real_process():
    done = subprocess.run([sys.executable, "-m", "tarotsim.cli", "replay", "--verify", "-"],
                          input=gzip.compress(EXAMPLE_BYTES), capture_output=True, timeout=120)
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode().splitlines()[-1] == "6 record(s) verified, 0 bad"


@pytest.mark.parametrize("bad_line, expected", [
    (lambda line: line[:16] + b"\xe9" + line[17:], "not UTF-8 text (byte 0xe9 at column 17)"),
    (lambda line: b"[" * 100_000 + b"]" * 100_000, "JSON nested too deeply to be a deal record"),
    (lambda line: b'"' + b"x" * (record.MAX_LINE_BYTES + 1) + b'"', "longer than 1 MiB"),
])
def test_replay_names_an_unreadable_line_and_stops_there(cli, tmp_path, bad_line, expected):
    lines = EXAMPLE_BYTES.rstrip(b"\n").split(b"\n")
    lines[2] = bad_line(lines[2])
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    code, out, err = cli("replay", str(path))
    lines = out.splitlines()
    assert code == 1 and err == "" and len(lines) == 4       # lines 1 and 2, line 3 BAD, summary
    assert lines[0].startswith("line 1: ok") and lines[1].startswith("line 2: ok")
    assert lines[2].startswith("line 3: BAD  " + expected)
    assert lines[3].startswith("3 record(s) replayed, 1 bad; first: line 3: " + expected)


def test_replay_truncated_gzip(cli, tmp_path):
    path = tmp_path / "deals.jsonl.gz"
    path.write_bytes(gzip.compress(EXAMPLE_BYTES)[:-4])
    code, out, err = cli("replay", "--verify", str(path), "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and err == "" and [x["ok"] for x in lines[:6]] == [True] * 6
    assert lines[6] == {"line": 7, "ok": False, "error": "the gzip data ends early: the file is truncated",
                        "action": None, "rule": None}
    assert lines[7]["records"] == 7 and lines[7]["bad"] == 1


# mtime=0: every test process collects the same bytes (gzip stamps the time by default)
@pytest.mark.parametrize("data", [b"", b"\n  \n\n", gzip.compress(b"", mtime=0)], ids=["empty", "blank", "empty-gzip"])
def test_replay_of_a_file_without_records_says_so(cli, tmp_path, monkeypatch, data):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(data)
    code, out, err = cli("replay", "--verify", str(path))
    assert (code, out, err) == (2, "", f"tarotsim: error: {path} holds no deal record\n")
    with_stdin(monkeypatch, data)
    code, out, err = cli("replay", "-")
    assert (code, out, err) == (2, "", "tarotsim: error: standard input holds no deal record\n")


def test_replay_unreadable_file_is_one_line(cli, tmp_path):
    code, out, err = cli("replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and out == "" and err.startswith("tarotsim: error: ") and err.count("\n") == 1
    code, out, err = cli("replay", "--workers", "0", str(EXAMPLES_FILE))
    assert code == 2 and out == "" and "--workers" in err and err.count("\n") == 1


def mixed_file(tmp_path) -> Path:
    """The examples three times, some corrupted, then a line that breaks the file, then more."""
    recs = [json.loads(line) for line in EXAMPLE_BYTES.splitlines()] * 3
    recs = [json.loads(json.dumps(r)) for r in recs]
    recs[3]["scores"][1] -= 2
    recs[7]["tricks"][0]["cards"].reverse()
    recs[13]["result"]["oudlers"] = 0
    lines = [json.dumps(r) for r in recs]
    lines.insert(16, '{"format": "tarotsim-deal/1", "table": "4"')
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("flags", [["--verify"], [], ["--verify", "--json"]])
def test_replay_output_is_the_same_for_one_and_two_workers(cli, monkeypatch, tmp_path, flags):
    monkeypatch.setattr(record, "CHUNK_LINES", 3)     # several chunks: the pool is really used
    path = str(mixed_file(tmp_path))
    one = cli("replay", *flags, "--workers", "1", path)
    two = cli("replay", *flags, "--workers", "2", path)
    every_core = cli("replay", *flags, path)
    assert one == two == every_core
    code, out, err = one
    assert code == 1 and err == "" and len(out.splitlines()) == 18     # 17 records then the summary
    last = out.splitlines()[-2]
    if "--json" in flags:
        last = json.loads(last)
        assert last["line"] == 17 and last["error"] == "malformed JSON: Expecting ',' delimiter (column 43)"
    else:
        assert last == "line 17: BAD  malformed JSON: Expecting ',' delimiter (column 43)"
