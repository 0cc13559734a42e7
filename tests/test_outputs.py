"""Output files: never destroyed, never half-written, checked before the run.

No test points an output at a real device such as /dev/null: a named pipe made in tmp_path stands for
every file that is not a regular one (pipes, terminals, devices take the same path in the code).
"""

import errno
import gzip
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from tarotsim import outputs
from tarotsim.outputs import OutputError, WriteFailed, open_outputs
from tarotsim.record import dump


def leftovers(folder):
    return [p.name for p in folder.iterdir() if p.name.startswith(outputs.TEMP_PREFIX)]


# --- links, pipes, standard output ------------------------------------------------------------

def test_a_link_is_written_through_and_stays_a_link(cli, tmp_path):
    target, link = tmp_path / "t.jsonl", tmp_path / "l.jsonl"
    target.write_text("old\n")
    link.symlink_to(target.name)
    code, _, _ = cli("simulate", "--deals", "10", "--seed", "1", "--records", str(link))
    assert code == 0
    assert link.is_symlink() and os.readlink(link) == "t.jsonl"
    lines = target.read_text().splitlines()
    assert len(lines) == 10 and json.loads(lines[0])["seed"] == 1
    assert leftovers(tmp_path) == []


def test_a_link_to_a_missing_file_creates_its_target(tmp_path):
    link = tmp_path / "l.jsonl"
    link.symlink_to("new.jsonl")
    dump([{"a": 1}], link)
    assert link.is_symlink() and (tmp_path / "new.jsonl").read_text() == '{"a": 1}\n'


def _read_fifo(path, into):
    with open(path, "rb") as f:
        into.append(f.read())


def test_a_named_pipe_is_written_into_not_replaced(cli, tmp_path):
    fifo = tmp_path / "p.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, got))
    reader.start()
    code, out, _ = cli("simulate", "--deals", "7", "--seed", "3", "--records", str(fifo))
    reader.join(timeout=60)
    assert code == 0 and "records written to" in out
    assert fifo.is_fifo()  # still the pipe, not a regular file
    assert len(got[0].decode().splitlines()) == 7
    assert leftovers(tmp_path) == []


@pytest.mark.slow
def test_records_to_standard_output_keep_the_summary_on_stderr(tmp_path):
    p = subprocess.run([sys.executable, "-m", "tarotsim.cli", "simulate", "--deals", "5", "--seed", "2",
                        "--records", "-", "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["index"] for r in recs] == [0, 1, 2, 3, 4]
    assert json.loads(p.stderr.splitlines()[-1])["deals"] == 5


def test_gz_outputs_are_compressed(cli, tmp_path):
    recs, facts = tmp_path / "r.jsonl.gz", tmp_path / "f.csv.gz"
    code, _, _ = cli("simulate", "--deals", "6", "--seed", "4", "--records", str(recs),
                     "--facts", str(facts))
    assert code == 0
    assert recs.read_bytes()[:2] == b"\x1f\x8b"
    with gzip.open(recs, "rt", encoding="utf-8") as f:
        assert [json.loads(line)["index"] for line in f] == list(range(6))
    with gzip.open(facts, "rt", encoding="utf-8") as f:
        assert f.readline().startswith("seed,table,index")


def test_an_output_named_in_upper_case_is_what_its_name_says(cli, tmp_path):
    """``X.JSONL.GZ`` is compressed, ``F.PARQUET`` is Parquet: a name is read in any case."""
    recs, facts = tmp_path / "X.JSONL.GZ", tmp_path / "F.PARQUET"
    code, _, err = cli("simulate", "--deals", "6", "--seed", "4", "--records", recs, "--facts", facts)
    assert code == 0, err
    with gzip.open(recs, "rt", encoding="utf-8") as f:
        assert [json.loads(line)["index"] for line in f] == list(range(6))
    assert facts.read_bytes()[:4] == b"PAR1"


@pytest.mark.parametrize("flag,name,says", [
    ("--records", "X.JSONL.GZ", ("JSON Lines", True)),
    ("--records", "r.Jsonl", ("JSON Lines", False)),
    ("--facts", "F.PARQUET", ("Parquet", False)),
    ("--facts", "f.CSV.gz", ("CSV", True)),
    ("--csv", "S.CSV", ("CSV", False)),
    ("--save", "P.JSON", ("JSON", False)),
    ("--calibrate", "cal.Json", ("JSON", False)),
    ("--checkpoint", "run.ckpt", ("JSON", False)),
    ("--html", "DEAL.HTM", ("HTML", False)),
    ("records", "x.GZ", ("", True)),  # the library's dump: any name, .gz compresses
])
def test_a_name_says_its_format_in_any_case(tmp_path, flag, name, says):
    t = outputs.plan(flag, str(tmp_path / name))
    assert (t.format, t.gz) == says


@pytest.mark.parametrize("flag,name,message", [
    ("--facts", "f.json", "--facts f.json: --facts writes FILE.csv, FILE.csv.gz or FILE.parquet"),
    ("--facts", "f.xlsx", "--facts f.xlsx: --facts writes FILE.csv, FILE.csv.gz or FILE.parquet"),
    ("--facts", "facts", "--facts facts: --facts writes FILE.csv, FILE.csv.gz or FILE.parquet"),
    ("--facts", "f.PARQUET.GZ", "--facts f.PARQUET.GZ: --facts writes Parquet as it is, not gzip-compressed: "
                                "leave out .gz"),
    ("--records", "r.txt", "--records r.txt: --records writes FILE.jsonl or FILE.jsonl.gz"),
    ("--csv", "s.json", "--csv s.json: --csv writes FILE.csv or FILE.csv.gz"),
    ("--save", "part1.json.gz", "--save part1.json.gz: --save writes JSON as it is, not gzip-compressed: "
                                "leave out .gz"),
    ("--calibrate", "cal.csv", "--calibrate cal.csv: --calibrate writes FILE.json"),
    ("--checkpoint", "ck.GZ", "--checkpoint ck.GZ: --checkpoint writes JSON as it is, not gzip-compressed: "
                              "leave out .gz"),
    ("--html", "deal.txt", "--html deal.txt: --html writes FILE.html or FILE.htm"),
])
def test_a_name_that_says_another_format_is_refused(tmp_path, monkeypatch, flag, name, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OutputError) as e:
        outputs.plan(flag, name)
    assert str(e.value) == message


def test_facts_under_a_name_of_no_format_are_refused_never_written_as_csv(cli, tmp_path):
    for name in ("f.json", "f.xlsx", "facts"):
        code, out, err = cli("simulate", "--deals", "6", "--seed", "4", "--facts", tmp_path / name)
        assert (code, out) == (2, "")
        assert err == f"tarotsim: error: --facts {tmp_path / name}: --facts writes FILE.csv, FILE.csv.gz or FILE.parquet\n"
    assert list(tmp_path.iterdir()) == []


def test_a_pipe_has_no_name_to_go_by_and_gets_the_first_format(tmp_path):
    fifo = tmp_path / "facts"
    os.mkfifo(fifo)
    t = outputs.plan("--facts", str(fifo))
    assert (t.kind, t.format, t.gz) == ("stream", "CSV", False)


def test_a_replaced_file_keeps_its_mode(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("old\n")
    path.chmod(0o640)
    dump([{"a": 1}], path)
    assert (path.stat().st_mode & 0o777) == 0o640 and path.read_text() == '{"a": 1}\n'


# --- checked before the run -------------------------------------------------------------------

def _linked(link, target: str):
    """``link``, made a symbolic link to ``target``: one file under two names."""
    link.symlink_to(target)
    return link


@pytest.mark.parametrize("make_args, message", [
    (lambda d: ["--records", ""], "--records: empty file name"),
    (lambda d: ["--records", str(d)], "it is a folder"),
    (lambda d: ["--records", str(d / "no" / "r.jsonl")], "does not exist"),
    (lambda d: ["--records", str(d / "x.jsonl"), "--facts", str(_linked(d / "x.csv", "x.jsonl"))],
     "name the same file"),
    (lambda d: ["--records", "-", "--facts", "-"], "name standard output"),
])
def test_bad_outputs_are_refused_before_the_first_deal(cli, tmp_path, monkeypatch, make_args, message):
    from tarotsim.runs import runner

    def no_play(*a, **k):
        raise AssertionError("a deal was played before the outputs were checked")

    monkeypatch.setattr(runner.Runner, "block", no_play)
    code, out, err = cli("simulate", "--deals", "100000000", "--seed", "1", *make_args(tmp_path))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
    assert leftovers(tmp_path) == []


def test_two_hard_links_are_one_file(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("x")
    os.link(a, b)
    with pytest.raises(OutputError, match="name the same file"):
        outputs.plan_all({"--csv": str(a), "--plot": str(b)})


def test_study_refuses_a_folder_before_running(cli, tmp_path):
    code, out, err = cli("study", "bidding", "--deals", "100000000", "--seed", "1",
                         "--csv", str(tmp_path))
    assert code == 2 and "it is a folder" in err and out == ""


# --- failures and interrupts ------------------------------------------------------------------

class _FullDisk(io.RawIOBase):
    """A file that takes ``room`` bytes, then fails as a full disk does."""

    def __init__(self, real, room):
        super().__init__()
        self.real, self.room = real, room

    def writable(self):
        return True

    def write(self, b):
        if len(b) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(b)
        return self.real.write(b)

    def fileno(self):
        return self.real.fileno()

    def close(self):
        self.real.close()
        super().close()


def test_a_full_disk_gives_one_line_and_keeps_the_old_file(cli, tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"
    path.write_text("old\n")
    real_open = outputs.Output._open_raw
    monkeypatch.setattr(outputs.Output, "_open_raw",
                        lambda self, t: io.BufferedWriter(_FullDisk(real_open(self, t), 50_000)))
    code, out, err = cli("simulate", "--deals", "2000", "--seed", "1", "--records", str(path))
    assert code == 1 and out == ""
    assert err == f"tarotsim: error: cannot write {path}: the disk is full (nothing was written)\n"
    assert path.read_text() == "old\n" and leftovers(tmp_path) == []


def test_an_exception_midway_leaves_every_old_file(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("old a")
    with pytest.raises(RuntimeError):
        with open_outputs({"a": str(a), "b": str(b)}) as outs:
            outs["a"].fh.write("new a")
            outs["b"].fh.write("new b")
            raise RuntimeError("boom")
    assert a.read_text() == "old a" and not b.exists() and leftovers(tmp_path) == []


def test_write_failed_is_an_output_error():
    assert issubclass(WriteFailed, OutputError)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_leaves_no_temporary_file_and_the_old_output(tmp_path, sig):
    path = tmp_path / "r.jsonl"
    path.write_text("old\n")
    # the signal's default disposition in the child, whatever the test run inherited: under nohup
    # SIGHUP is ignored, and tarotsim then rightly leaves it ignored
    proc = subprocess.Popen([sys.executable, "-m", "tarotsim.cli", "simulate", "--deals", "100000000",
                             "--seed", "1", "--records", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
    deadline = time.monotonic() + 240
    while not any(f.stat().st_size for f in tmp_path.iterdir() if f.name.startswith(outputs.TEMP_PREFIX)):
        assert proc.poll() is None and time.monotonic() < deadline, "the run never started writing"
        time.sleep(0.05)
    proc.send_signal(sig)
    try:  # the run stops at its next block of records: seconds, more on a loaded 2-core CI machine
        out, err = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"still running 240 s after {signal.Signals(sig).name}: {err[-2000:]}") from None
    assert proc.returncode == 128 + sig
    assert err == f"tarotsim: stopped by {signal.Signals(sig).name}; no output file was written\n"
    assert path.read_text() == "old\n" and leftovers(tmp_path) == []


def test_a_program_s_own_signal_handler_is_kept(tmp_path):
    seen = []
    old = signal.signal(signal.SIGHUP, lambda s, f: seen.append(s))
    try:
        with open_outputs({"a": str(tmp_path / "a.txt")}) as outs:
            assert signal.getsignal(signal.SIGHUP) is not signal.SIG_DFL
            os.kill(os.getpid(), signal.SIGHUP)
            outs["a"].fh.write("kept")
        assert seen == [signal.SIGHUP] and (tmp_path / "a.txt").read_text() == "kept"
    finally:
        signal.signal(signal.SIGHUP, old)


def test_study_plot_is_a_real_png_written_through_a_link(cli, tmp_path):
    target, link = tmp_path / "plot.png", tmp_path / "link.png"
    link.symlink_to(target.name)
    code, out, err = cli("study", "bidding", "--deals", "300", "--seed", "1", "--threads", "1",
                         "--plot", str(link), "--csv", str(tmp_path / "s.csv.gz"))
    assert code == 0, err
    assert link.is_symlink() and target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with gzip.open(tmp_path / "s.csv.gz", "rt", encoding="utf-8") as f:
        assert f.readline().strip()
    assert leftovers(tmp_path) == []
