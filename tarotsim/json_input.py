"""JSON that a user hands in: deal records, saved runs and checkpoints, threshold files.

The one guard of every JSON reader against the input that makes Python's own ``json`` fail in
ways of its own rather than with ``JSONDecodeError``: nesting deep enough to exhaust the stack
(``RecursionError``), a number of thousands of digits (``ValueError``, the interpreter's limit on
integer digits), a file too large to be what it claims, bytes that are not UTF-8. Each becomes a
:class:`JSONInputError` of one line, which the reader prefixes with the file (and line) it read.
"""

from __future__ import annotations

import json

#: A file of one JSON object read whole (a saved run, a thresholds file) is never near this size.
MAX_FILE_BYTES = 64 << 20


class JSONInputError(ValueError):
    """Text that is not usable JSON: the reason, in one line (the caller names the file)."""


def loads(text: str, what: str = "a tarotsim file"):
    """Parse a JSON text, every failure a :class:`JSONInputError`.

    ``json.loads(text)``, every failure a :class:`JSONInputError` naming why; ``what`` is what
    the text should have been (``"a deal record"``), for the reasons that depend on it."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno}, column {e.colno}" if e.lineno > 1 else f"column {e.colno}"
        raise JSONInputError(f"malformed JSON: {e.msg} ({where})") from None
    except RecursionError:
        raise JSONInputError(f"JSON nested too deeply to be {what}") from None
    except ValueError:  # a number of thousands of digits (the interpreter's int max str digits)
        raise JSONInputError(f"a JSON number too long to be part of {what}") from None


def read_text(path: str, what: str = "a tarotsim file", max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read the text of a JSON input file.

    The text of the file ``path`` (UTF-8, a byte-order mark dropped, at most ``max_bytes``). An
    unreadable file raises ``OSError``; one too large or not UTF-8, :class:`JSONInputError`."""
    with open(path, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JSONInputError(f"larger than {max_bytes >> 20} MiB: too large to be {what}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JSONInputError(f"not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})") from None
    return text.removeprefix("\ufeff")


def load_file(path: str, what: str = "a tarotsim file", max_bytes: int = MAX_FILE_BYTES):
    """The JSON value of the file ``path``: :func:`read_text`, then :func:`loads`."""
    return loads(read_text(path, what, max_bytes), what)
