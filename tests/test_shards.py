"""Runs split in shards, summed exactly: --save, `tarotsim merge`, --checkpoint (tarotsim.runs.shards)."""

import json
import os
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim.runs import shards
from tarotsim.rules import Rules

#: One small run per command (random bots: fast, and every path of the code is the same).
RUNS = {
    "simulate": ["simulate", "--table", "4", "--bots", "random", "--deals", "3000", "--seed", "11", "--threads", "1"],
    "tournament": ["tournament", "--table", "5", "--bots", "greedy,random,random,random,random", "--deals", "700",
                   "--seed", "11", "--threads", "1"],
    "study bidding": ["study", "bidding", "--table", "3", "--bots", "random", "--deals", "900", "--seed", "11",
                      "--threads", "1", "--min-deals", "20"],
}
TIMING = re.compile(r"[\d,.]+ s\b.*|\d+ thread\(s\)")  # the only figures of a report that are not the deals'


def untimed(report: str) -> str:
    return TIMING.sub("<time>", report)


@pytest.mark.parametrize("command", list(RUNS))
def test_merge_of_one_saved_run_prints_the_run_s_report_byte_for_byte(cli, tmp_path, command):
    """`merge` prints through the very code of the command: the run's own saved file gives its
    report byte for byte, time included (the time is saved with the totals)."""
    for as_json in ([], ["--json"]):
        saved = tmp_path / f"all{len(as_json)}.json"
        code, out, err = cli(*RUNS[command], *as_json, "--save", str(saved))
        assert code == 0 and f"saved run written to {saved}" in err
        code, merged, _ = cli("merge", str(saved), *as_json)
        assert code == 0 and merged == out


@pytest.mark.parametrize("command", list(RUNS))
@pytest.mark.parametrize("k", [1, 3, 7])
def test_merge_of_k_shards_is_the_single_run_report(cli, tmp_path, command, k):
    code, single, _ = cli(*RUNS[command])
    assert code == 0
    files = []
    for i in range(1, k + 1):
        files.append(str(tmp_path / f"part{i}.json"))
        assert cli(*RUNS[command], "--shard", f"{i}/{k}", "--save", files[-1])[0] == 0
    code, merged, err = cli("merge", *reversed(files))  # any order
    assert code == 0 and err == ""
    assert untimed(merged) == untimed(single)
    assert merged.count("<time>") == 0 and untimed(merged).count("<time>") >= 1


def _job(command, n, start=0):
    settings_ = {"tournament": {"duplicate": True}, "study bidding": {"contracts": ["prise", "garde"]}}
    bots = {"simulate": "random", "tournament": "greedy,random,random,random", "study bidding": "random"}
    return shards.Job.of(command, Rules("4"), 5, start, start + n, bots[command], **settings_.get(command, {}))


def _json(command, totals):
    return shards._totals_json(command, totals)


@pytest.mark.parametrize("command", list(RUNS))
@settings(max_examples=8)
@given(cuts=st.lists(st.integers(min_value=1, max_value=299), max_size=6, unique=True))
def test_totals_of_any_split_add_up_to_the_whole_run_exactly(command, cuts):
    """Hypothesis over the split points: the parts' integer totals sum to the whole run's, so the
    reports agree exactly (also every float of the tournament's statistics)."""
    job = _job(command, 300)
    whole = job.compute(0, 300)
    edges = [0, *sorted(cuts), 300]
    total = None
    for a, b in zip(edges, edges[1:]):
        total = shards.add(command, total, job.compute(a, b))
    assert _json(command, total) == _json(command, whole)
    one = shards.Saved(job.config(), (0, 300), [(0, 300)], whole)
    many = shards.Saved(job.config(), (0, 300), [(0, 300)], total)
    r1, r2 = shards.report(one), shards.report(many)
    d1, d2 = (r.to_dict() if hasattr(r, "to_dict") else r for r in (r1, r2))
    assert json.dumps(d1, sort_keys=True) == json.dumps(d2, sort_keys=True)


# ---------------------------------------------------------------------------------------------
# bad input: one line, exit code 2, nothing written

def _parts(cli, tmp_path, *extra_runs):
    """Two shards of the simulate run; ``extra_runs``: (name, extra args) for other parts."""
    base = RUNS["simulate"]
    out = []
    for i in (1, 2):
        out.append(str(tmp_path / f"p{i}.json"))
        assert cli(*base, "--shard", f"{i}/2", "--save", out[-1])[0] == 0
    for name, args in extra_runs:
        out.append(str(tmp_path / name))
        assert cli(*args, "--save", out[-1])[0] == 0
    return out


@pytest.mark.parametrize("other,needle", [
    (["--seed", "12"], "seed 11 vs 12"),
    (["--bots", "greedy"], "bots random vs greedy"),
    (["--option", "misere=on"], "options"),
])
def test_merge_refuses_parts_of_different_runs(cli, tmp_path, other, needle):
    p1, p2 = _parts(cli, tmp_path)
    odd = str(tmp_path / "odd.json")
    assert cli(*RUNS["simulate"], "--shard", "2/2", *other, "--save", odd)[0] == 0
    code, out, err = cli("merge", p1, odd)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"tarotsim: error: {odd} and {p1} are not parts of one run") and needle in err


def test_merge_refuses_parts_of_different_commands(cli, tmp_path):
    p1, _ = _parts(cli, tmp_path)
    other = str(tmp_path / "t.json")
    assert cli(*RUNS["study bidding"], "--save", other)[0] == 0
    code, _, err = cli("merge", p1, other)
    assert code == 2 and "command simulate vs study bidding" in err and err.count("\n") == 1


def test_merge_refuses_overlapping_ranges_and_names_them(cli, tmp_path):
    p1, p2 = _parts(cli, tmp_path)
    over = str(tmp_path / "over.json")
    assert cli(*RUNS["simulate"][:-6], "--deals", "1000", "--start", "1000", "--seed", "11",
               "--save", over)[0] == 0
    code, out, err = cli("merge", p1, p2, over)
    assert code == 2 and out == ""
    assert err == f"tarotsim: error: {p1} and {over} both hold deals index 1,000..1,499: each deal must be in one " \
                  "part only\n"
    code, _, err = cli("merge", p1, p1)
    assert code == 2 and err == f"tarotsim: error: {p1} is given twice: each deal must be in one part only\n"


def test_merge_names_the_missing_ranges(cli, tmp_path):
    files = []
    for i in (1, 3, 5):
        files.append(str(tmp_path / f"p{i}.json"))
        assert cli(*RUNS["simulate"], "--shard", f"{i}/5", "--save", files[-1])[0] == 0
    code, out, err = cli("merge", *files)
    assert code == 2 and out == ""
    assert err == ("tarotsim: error: 1,200 deal(s) of the run (index 0..2,999) are in no part: missing "
                   "index 600..1,199, 1,800..2,399\n")


def test_merge_refuses_a_truncated_an_edited_or_a_foreign_file(cli, tmp_path):
    p1, p2 = _parts(cli, tmp_path)
    text = open(p1).read()
    cases = {
        "truncated.json": (text[: len(text) // 2], "not a complete tarotsim saved run"),
        "edited.json": (text.replace('"seed": 11', '"seed": 12'), "checksum does not match"),
        "foreign.json": ('{"format": "tarotsim-deal/1"}', "not a tarotsim saved run"),
        "empty.json": ("", "not a complete tarotsim saved run"),
        "nested.json": ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply to be a tarotsim saved run"),
        "long.json": ('{"a": ' + "9" * 5000 + "}", "a JSON number too long to be part of a tarotsim saved run"),
    }
    d = json.loads(text)
    d["totals"][0] += 1  # deals counted no longer match the ranges: re-sealed, still refused
    d["checksum"] = shards._checksum(d)
    cases["recounted.json"] = (json.dumps(d), "its totals count 1,501 deals but its ranges hold 1,500")
    for name, (content, needle) in cases.items():
        bad = tmp_path / name
        bad.write_text(content)
        code, out, err = cli("merge", str(bad), p2)
        assert code == 2 and out == "" and err.count("\n") == 1, name
        assert err.startswith(f"tarotsim: error: {bad}: ") and needle in err, (name, err)
    code, _, err = cli("merge", str(tmp_path / "nowhere.json"))
    assert code == 2 and err.startswith("tarotsim: error: cannot read") and err.count("\n") == 1


@pytest.mark.parametrize("shard,needle", [("0/3", "K must be 1..N"), ("4/3", "K must be 1..N"),
                                          ("two", "is not K/N"), ("1/5000", "leave some empty")])
def test_bad_shard_is_one_line(cli, tmp_path, shard, needle):
    saved = tmp_path / "s.json"
    code, out, err = cli(*RUNS["simulate"], "--shard", shard, "--save", str(saved))
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1
    assert not saved.exists()


def test_unreachable_scheduler_is_one_line_and_writes_nothing(cli, tmp_path, monkeypatch):
    from tarotsim.runs import distributed

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT", 1)
    saved, ck = tmp_path / "s.json", tmp_path / "ck.json"
    code, out, err = cli(*RUNS["simulate"], "--scheduler", "tcp://127.0.0.1:9", "--save", str(saved),
                         "--checkpoint", str(ck))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("tarotsim: error: --scheduler tcp://127.0.0.1:9: cannot reach the Dask scheduler")
    assert os.listdir(tmp_path) == []


def test_without_dask_the_error_names_the_extra(cli, tmp_path, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_dask(name, *a, **kw):
        if name == "distributed" or name.startswith(("distributed.", "dask")):
            raise ImportError(f"No module named {name!r}")
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    code, out, err = cli(*RUNS["simulate"], "--dask-local", "2", "--save", str(tmp_path / "s.json"))
    assert code == 2 and out == ""
    assert err == ("tarotsim: error: --scheduler and --dask-local need Dask, which is not installed: "
                   "pip install 'tarotsim[dask]'\n")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("files,elsewhere,line", [
    (["--records", "r.jsonl"], ["--checkpoint", "ck.json"],
     "--records is written by a plain local run: leave out --checkpoint"),
    (["--facts", "f.csv"], ["--dask-local", "2"], "--facts is written by a plain local run: leave out --dask-local"),
    (["--records", "r.jsonl", "--facts", "f.csv"], ["--scheduler", "tcp://127.0.0.1:9", "--dask-local", "2"],
     "--records and --facts are written by a plain local run: leave out --scheduler and --dask-local"),
])
def test_records_are_not_written_by_a_checkpointed_or_dask_run(cli, tmp_path, monkeypatch, files, elsewhere, line):
    """The line names the options given, and only those."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*RUNS["simulate"], *files, *elsewhere)
    assert (code, out, err) == (2, "", f"tarotsim: error: {line}\n")
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------------------------
# checkpoint and resume

@pytest.mark.parametrize("command", list(RUNS))
def test_checkpoint_resume_after_an_interruption_counts_each_deal_once(tmp_path, monkeypatch, command):
    """Ctrl-C in the middle of a piece: the checkpoint holds the pieces finished before it, and
    the run resumed from it gives the totals of one uninterrupted run."""
    monkeypatch.setattr(shards, "TASK_DEALS", {command: 100})
    monkeypatch.setattr(shards, "CHECKPOINT_EVERY", 0.0)
    job = _job(command, 450, start=50)
    ck = str(tmp_path / "ck.json")
    calls = []

    def interrupt(n):
        calls.append(n)
        if sum(calls) >= 250:  # within the third piece
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        shards.execute(job, checkpoint=ck, progress=interrupt)
    half = shards.load(ck)
    assert half.done == [(50, 200)]  # pieces aligned on multiples of 100: 50..99, 100..199
    resumed = shards.execute(job, checkpoint=ck)
    assert resumed.done == [(50, 500)]
    assert _json(command, resumed.totals) == _json(command, job.compute(50, 500))
    assert shards.load(ck).done == [(50, 500)]


def test_checkpoint_resume_through_the_command_line(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(shards, "TASK_DEALS", {"simulate": 700})
    monkeypatch.setattr(shards, "CHECKPOINT_EVERY", 0.0)
    ck = str(tmp_path / "ck.json")
    code, single, _ = cli(*RUNS["simulate"])
    job = shards.Job.of("simulate", Rules("4"), 11, 0, 3000, "random")
    part = shards.execute(shards.Job.of("simulate", Rules("4"), 11, 0, 1400, "random"))
    half = shards.Saved(job.config(), (0, 3000), part.done, part.totals, 1.0, 1)
    shards.write(half, ck, "--checkpoint")  # as an interrupted run left it
    code, out, err = cli(*RUNS["simulate"], "--checkpoint", ck)
    assert code == 0 and "resuming, 1,400 deal(s) done, 1,600 to go" in err
    assert untimed(out) == untimed(single)
    # finished, the checkpoint is a saved run of the whole
    code, merged, _ = cli("merge", ck)
    assert code == 0 and merged == out


def test_a_checkpoint_of_another_run_is_refused_and_kept(cli, tmp_path):
    ck = tmp_path / "ck.json"
    assert cli(*RUNS["simulate"], "--checkpoint", str(ck))[0] == 0
    before = ck.read_bytes()
    code, out, err = cli(*RUNS["simulate"][:-2], "--seed", "12", "--checkpoint", str(ck))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"--checkpoint {ck} records another run (seed 11 vs 12)" in err.replace("seed 12 vs 11", "seed 11 vs 12")
    assert ck.read_bytes() == before


def test_pieces_are_aligned_and_cover_the_ranges():
    assert shards.pieces([(50, 260), (300, 301)], 100) == [(50, 100), (100, 200), (200, 260), (300, 301)]
    assert shards.missing((0, 10), [(2, 4), (3, 6), (8, 10)]) == [(0, 2), (6, 8)]
    assert shards.split_shard("3/3", 10, 10) == (16, 20)
    assert [shards.split_shard(f"{k}/7", 0, 100) for k in range(1, 8)][-1] == (85, 100)


def test_saved_file_is_readable_json_with_its_configuration(cli, tmp_path):
    saved = tmp_path / "s.json"
    assert cli(*RUNS["tournament"], "--shard", "2/3", "--save", str(saved))[0] == 0
    d = json.loads(saved.read_text())
    assert d["format"] == shards.FORMAT and d["run"] == [0, 700] and d["done"] == [[233, 466]]
    cfg = d["config"]
    assert cfg["command"] == "tournament" and cfg["seed"] == 11 and cfg["table"] == "5" and cfg["duplicate"]
    assert cfg["tarotsim"] and [s["label"] for s in cfg["seats"]] == ["greedy"] + ["random"] * 4
    assert all(len(s["params"]) > 0 for s in cfg["seats"])
    np.testing.assert_equal(sorted(d), sorted(["format", "config", "run", "done", "totals", "elapsed_s", "threads",
                                               "compile_s", "checksum"]))


def test_a_deeply_nested_checkpoint_is_one_line_and_kept(cli, tmp_path):
    """The checkpoint reader has the guard of every JSON reader (tarotsim.json_input)."""
    ck = tmp_path / "ck.json"
    ck.write_text("[" * 100_000 + "]" * 100_000)
    code, out, err = cli(*RUNS["simulate"], "--checkpoint", str(ck))
    assert code == 2 and out == "" and err == f"tarotsim: error: {ck}: JSON nested too deeply to be a tarotsim saved run\n"
    assert ck.read_text().startswith("[[[") and os.listdir(tmp_path) == ["ck.json"]


@pytest.mark.parametrize("stop,code,first", [
    ("SIGTERM", 128 + 15, "tarotsim: stopped by SIGTERM; "),
    ("Ctrl-C", 130, "tarotsim: stopped by SIGINT; "),
])
def test_an_interrupted_checkpoint_run_says_what_the_checkpoint_holds(cli, tmp_path, monkeypatch, stop, code,
                                                                      first):
    """Not "no output file was written": the checkpoint holds the finished pieces, and the same
    command resumes from it (to the very report of an uninterrupted run)."""
    import signal

    from tarotsim.outputs import Terminated

    monkeypatch.setattr(shards, "TASK_DEALS", {"simulate": 700})
    monkeypatch.setattr(shards, "CHECKPOINT_EVERY", 0.0)
    ck, saved = tmp_path / "ck.json", tmp_path / "s.json"
    _, single, _ = cli(*RUNS["simulate"])
    real, calls = shards.Job.compute, []

    def compute(self, a, b, **kw):
        calls.append(a)
        if len(calls) == 4:  # the warm-up, two pieces, then the signal
            raise Terminated(signal.SIGTERM) if stop == "SIGTERM" else KeyboardInterrupt
        return real(self, a, b, **kw)

    monkeypatch.setattr(shards.Job, "compute", compute)
    got, out, err = cli(*RUNS["simulate"], "--checkpoint", str(ck), "--save", str(saved))
    assert got == code and out == ""
    assert err.strip() == (f"{first}--checkpoint {ck} holds 1,400 of the run's 3,000 deals: the same command "
                           f"resumes from there; no other output file was written")
    assert not saved.exists() and shards.load(str(ck)).done == [(0, 1400)]
    monkeypatch.setattr(shards.Job, "compute", real)
    got, out, err = cli(*RUNS["simulate"], "--checkpoint", str(ck))
    assert got == 0 and "resuming, 1,400 deal(s) done, 1,600 to go" in err and untimed(out) == untimed(single)
