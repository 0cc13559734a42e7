"""Output files: written whole or not at all, and never destroying what a path points at.

Every file a command or the library writes (records, facts, study tables, thresholds, plots) goes
through :func:`open_outputs`:

- every path is checked **before** any work starts (an empty name, a folder, a missing folder, two
  outputs naming one file, two outputs on standard output are refused at once);
- a regular file (or a new one) is written to a hidden temporary file beside its *target* and
  renamed over it only when everything succeeded; a symbolic link is followed, so the file it
  points at is replaced and the link stays a link;
- a named pipe, a terminal or a device is not a file that can be replaced: it is written into,
  as a stream (renaming over ``/dev/null`` would destroy it); ``-`` is standard output;
- a file's name says its format (:data:`KINDS`, matched in any case): ``--facts f.parquet`` is
  Parquet, ``--records X.JSONL.GZ`` gzip-compressed JSON Lines, and a name that says no format
  its output writes (``--facts f.xlsx``, ``--save run``) is refused before any work;
- on any failure or interrupt (an exception, Ctrl-C, SIGTERM or SIGHUP turned into
  :class:`Terminated` by :func:`signals_raise`) the temporary files are removed and the old files
  are left as they were; a command run within :func:`stoppable` (every ``tarotsim`` command)
  knows which of its outputs were written before it was stopped.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import io
import math
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

TEMP_PREFIX = ".tarotsim-"


class OutputError(ValueError):
    """An output path that cannot be written, or a write that failed: one line for the user."""


class WriteFailed(OutputError):
    """A write that failed midway (a full disk, a closed pipe's device ...): nothing was kept."""


class Terminated(SystemExit):
    """The process was asked to stop (SIGTERM, SIGHUP): raised so every cleanup runs."""

    def __init__(self, signum: int):
        super().__init__(128 + signum)
        self.signum = signum
        self.name = signal.Signals(signum).name


@dataclass(frozen=True)
class Kind:
    """What an output writes: its formats, each with the endings of a name that says it.

    ``formats`` maps a format (its name in messages) to its name endings (none: any name); the
    formats of ``gzip`` may be followed by ``.gz``, gzip-compressed (read back by every reader of
    that output)."""

    formats: dict[str, tuple[str, ...]]
    gzip: tuple[str, ...] = ()

    def names(self) -> str:
        """The names it takes, in words: ``FILE.csv, FILE.csv.gz or FILE.parquet``."""
        names = [f"FILE{e}{gz}" for f, ends in self.formats.items() for e in ends
                 for gz in (("", ".gz") if f in self.gzip else ("",))]
        return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


#: Every output of the command line by flag, the one place an output's name is read (in any
#: case). An output not named here (the library's ``records``, ``output``) takes any name and is
#: compressed when the name ends in ``.gz``.
KINDS: dict[str, Kind] = {
    "--records": Kind({"JSON Lines": (".jsonl",)}, gzip=("JSON Lines",)),
    "--facts": Kind({"CSV": (".csv",), "Parquet": (".parquet",)}, gzip=("CSV",)),
    "--csv": Kind({"CSV": (".csv",)}, gzip=("CSV",)),
    "--save": Kind({"JSON": (".json",)}),  # read back by `merge` and by a resumed run: plain JSON
    "--calibrate": Kind({"JSON": (".json",)}),
    "--checkpoint": Kind({"JSON": ()}),
    "--html": Kind({"HTML": (".html", ".htm")}),
    "--plot": Kind({"an image": ()}),  # matplotlib's formats, by the name's extension (tarotsim.runs.study.plot_format)
}
_ANY = Kind({"": ()}, gzip=("",))


def name_format(flag: str, path: str, named: bool = True) -> tuple[str, bool]:
    """The format an output's name says, and whether it is gzip-compressed.

    ``(format, gz)`` for the output ``flag`` named ``path`` (:data:`KINDS`, matched in any case).
    A name that says no format of the output, or ``.gz`` on an output written plain, raises
    :class:`OutputError` when ``named`` (a file); else (``-``, a pipe, a device: no name to go by)
    it is the output's first format, plain."""
    kind = KINDS.get(flag, _ANY)
    low = path.lower()
    gz = low.endswith(".gz")
    stem = low[:-3] if gz else low
    for fmt, ends in kind.formats.items():
        if not ends or stem.endswith(ends):
            if gz and fmt not in kind.gzip:
                if named:
                    raise OutputError(f"{flag} {path}: {flag} writes {fmt} as it is, not gzip-compressed: "
                                      "leave out .gz")
                break
            return fmt, gz
    if named:
        raise OutputError(f"{flag} {path}: {flag} writes {kind.names()}")
    return next(iter(kind.formats)), False


@dataclass(frozen=True)
class Target:
    """Where one output goes, decided before anything is written.

    ``kind`` is ``"file"`` (atomic replace of ``path``, links resolved), ``"stream"`` (a pipe or a
    device, written into) or ``"stdout"``; ``format`` is what it holds (:func:`name_format`).
    """

    flag: str
    given: str
    kind: str
    path: str
    gz: bool
    format: str = ""


def plan(flag: str, path: str) -> Target:
    """Check one output path and decide how to write it (raises :class:`OutputError`)."""
    if not isinstance(path, str) or not path.strip():
        raise OutputError(f"{flag}: empty file name")
    if path == "-":
        return Target(flag, path, "stdout", path, False, name_format(flag, path, named=False)[0])
    real = os.path.realpath(path)  # through every link: the file that will really change
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(f"{flag}: cannot write {path}: {e.strerror}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{flag}: cannot write {path}: it is a folder")
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(real, os.W_OK):
            raise OutputError(f"{flag}: cannot write {path}: permission denied")
        fmt, gz = name_format(flag, path, named=False)
        return Target(flag, path, "stream", real, gz, fmt)
    fmt, gz = name_format(flag, path)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise OutputError(f"{flag}: cannot write {path}: folder {os.path.dirname(path) or folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (st is not None and not os.access(real, os.W_OK)):
        raise OutputError(f"{flag}: cannot write {path}: permission denied")
    return Target(flag, path, "file", real, gz, fmt)


def plan_all(paths: Mapping[str, str | None]) -> list[Target]:
    """Check every output of a run together: each one, and no two on the same file or on stdout."""
    targets = [plan(flag, path) for flag, path in paths.items() if path is not None]
    seen: dict[str, Target] = {}
    for t in targets:
        key = t.path
        if t.kind != "stdout" and os.path.exists(t.path):
            st = os.stat(t.path)
            key = f"{st.st_dev}:{st.st_ino}"  # hard links name one file too
        if key in seen:
            other = seen[key]
            where = "standard output" if t.kind == "stdout" else f"the same file {t.given}"
            raise OutputError(f"{other.flag} and {t.flag} name {where}")
        seen[key] = t
    return targets


class Output:
    """One open output.

    One open output. Write text to :attr:`fh` (UTF-8, ``newline=""``) or bytes to
    :attr:`binary`, then :meth:`commit` or :meth:`abort`."""

    def __init__(self, target: Target):
        self.target = target
        self.tmp: str | None = None
        self._raw = self._open_raw(target)
        self._gz = gzip.GzipFile(fileobj=self._raw, mode="wb", mtime=0) if target.gz else None
        self.binary = self._gz if self._gz is not None else self._raw
        self.fh = io.TextIOWrapper(self.binary, encoding="utf-8", newline="")
        self._text_done = False

    def _open_raw(self, t: Target):
        if t.kind == "stdout":
            sys.stdout.flush()
            return _Unclosable(sys.stdout.buffer)
        if t.kind == "stream":
            return open(t.path, "wb")
        folder = os.path.dirname(t.path)
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=folder)
        except OSError as e:
            raise OutputError(f"{t.flag}: cannot write {t.given}: {e.strerror}") from None
        try:
            mode = stat.S_IMODE(os.stat(t.path).st_mode)  # a replaced file keeps its mode
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # an ordinary new file's mode, not mkstemp's private 0600
        os.chmod(self.tmp, mode)
        return os.fdopen(fd, "wb")

    def _release_text(self) -> None:
        # the text layer goes first, and never closes what lies under it
        if not self._text_done:
            self._text_done = True
            self.fh.detach()  # flushes first; an error there (a full disk) propagates

    def commit(self) -> None:
        """Flush and close; a temporary file then replaces the target in one step."""
        self._release_text()
        if self._gz is not None:
            self._gz.close()
        self._raw.flush()
        if self.tmp is not None:
            os.fsync(self._raw.fileno())
        self._raw.close()
        if self.tmp is not None:
            os.replace(self.tmp, self.target.path)
            self.tmp = None
        if self.target.kind != "stdout":
            for written in _WRITTEN:
                written.append(f"{self.target.flag} {self.target.given}")

    def abort(self) -> None:
        """Drop what was written: the temporary file goes, the old file stays as it was."""
        for closer in (self._release_text, self._gz.close if self._gz is not None else None,
                       self._raw.close):
            if closer is not None:
                with contextlib.suppress(Exception):
                    closer()
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
            self.tmp = None


class _Unclosable(io.BufferedIOBase):
    """Standard output's buffer, which our outputs flush but never close."""

    def __init__(self, buf):
        super().__init__()
        self._buf = buf

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        return self._buf.write(b)

    def flush(self) -> None:
        self._buf.flush()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._buf.flush()
        super().close()


_STOPS = {signal.SIGINT, signal.SIGTERM} | ({signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP back for the block: one that comes meanwhile acts after it."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextlib.contextmanager
def open_outputs(paths: Mapping[str, str | None]) -> Iterator[dict[str, Output]]:
    """Open the outputs of one run, by flag; on success all are committed, on any failure all aborted.

    Every path is checked before the first is opened, and every one is opened (its temporary file
    created) before the body runs, so a bad path costs no work. A failed write (a full disk) becomes
    a :class:`WriteFailed` naming the problem; the old files stay as they were.
    """
    targets = plan_all(paths)
    pending: list[Output] = []  # opened and not yet committed
    with signals_raise():
        try:
            for t in targets:
                with _signals_deferred():  # a stop between creating a temporary file and listing it would leave it
                    pending.append(Output(t))
            yield {o.target.flag: o for o in pending}
            while pending:
                pending[0].commit()
                pending.pop(0)
        except BaseException as e:
            for o in pending:
                o.abort()
            if isinstance(e, OSError) and not isinstance(e, BrokenPipeError):
                names = ", ".join(t.given for t in targets if t.kind != "stdout") or "standard output"
                reason = "the disk is full" if e.errno == errno.ENOSPC else (e.strerror or str(e))
                raise WriteFailed(f"cannot write {names}: {reason} (nothing was written)") from None
            raise


def json_safe(x):
    """``x`` with every NaN float as None, in its dicts and lists, for JSON (which has no NaN)."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, list):
        return [json_safe(v) for v in x]
    return x


def atomic_write_text(path: str, text_chunks, flag: str = "output") -> None:
    """Write an iterable of strings to ``path`` all or nothing (see :func:`open_outputs`)."""
    with open_outputs({flag: path}) as outs:
        fh = outs[flag].fh
        for chunk in text_chunks:
            fh.write(chunk)


#: The lists of :func:`stoppable` blocks under way, each getting every output committed within it.
_WRITTEN: list[list[str]] = []


@contextlib.contextmanager
def stoppable(written: list[str]) -> Iterator[None]:
    """Make a whole command stoppable by SIGTERM and SIGHUP, listing the outputs it writes.

    Within the block :func:`signals_raise` holds at every step (reading, computing, printing),
    not only while an output is open, so a command stopped anywhere ends the same way; each output
    committed within it is added to ``written`` as ``FLAG NAME`` (``--records r.jsonl``), for the
    line that says what a stopped command kept."""
    _WRITTEN.append(written)
    try:
        with signals_raise():
            yield
    finally:
        _WRITTEN.remove(written)


@contextlib.contextmanager
def signals_raise(signums=(signal.SIGTERM, signal.SIGHUP)) -> Iterator[None]:
    """Make SIGTERM and SIGHUP raise :class:`Terminated` within the block.

    Within the block, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread, so the
    ``finally`` and ``except BaseException`` clauses run (temporary files removed) before the
    process exits with status 128 + signal; SIGINT raises ``KeyboardInterrupt`` as Python does.
    Only signals left at their default action are caught: a handler of the program's own is
    kept. A signal that arrives inside a callback from C (:func:`_in_c_callback`) is raised a
    moment later, once the callback has returned. Outside the main thread, a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        if _in_c_callback(frame):
            if signum not in _RETRIES:  # one retry pending per signal, however often it comes
                retry = threading.Timer(_RETRY_SECONDS, _retry, (signum,))
                retry.daemon = True
                _RETRIES[signum] = retry
                retry.start()
            return
        retry = _RETRIES.pop(signum, None)
        if retry is not None:
            retry.cancel()
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated(signum)

    old = {}
    for s in signums:
        if signal.getsignal(s) is signal.SIG_DFL:
            with contextlib.suppress(OSError, ValueError):
                old[s] = signal.signal(s, handler)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        with contextlib.suppress(OSError, ValueError):
            old[signal.SIGINT] = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


#: How long a signal that came inside a callback from C waits before it is raised again.
_RETRY_SECONDS = 0.05
#: The modules whose Python functions C code calls back (numba's object cache, through llvmlite):
#: an exception raised there is printed and dropped by ctypes, so a signal must not raise there.
_C_CALLBACK_MODULES = ("llvmlite.binding.executionengine",)


#: The retry of each signal that came inside a callback from C, until it is raised.
_RETRIES: dict[int, threading.Timer] = {}


def _retry(signum: int) -> None:
    """Send ``signum`` again, the retry it was waiting for being over."""
    _RETRIES.pop(signum, None)
    signal.raise_signal(signum)


def _in_c_callback(frame) -> bool:
    """Whether the interrupted code runs inside a Python function that C code called back."""
    while frame is not None:
        if frame.f_globals.get("__name__") in _C_CALLBACK_MODULES:
            return True
        frame = frame.f_back
    return False
