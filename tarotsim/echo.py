"""What a user gave, as a message shows it: a value cut short, a name fit for a table.

A message that echoes something a user gave (a bot's answer, a field of a file, a command-line
value) shows it through :func:`shown`: its ``repr`` on one line, cut short with an ellipsis and
its length, so that a 10 MB answer costs one line of stderr, not 10 MB. A message of text that
is not a value (what a user's exception says) goes through :func:`cut`.

A name a user gives (``--names``, ``--players``, a sheet's header) is refused when
:func:`name_fault` finds a character that would break the table it is printed in (a newline, a
tab, an escape sequence); a name read from a record is shown :func:`printable` instead (escaped).
A sentence a command prints (a legend, a header) is broken into lines by :func:`paragraph`, so
that it fits a terminal and a page of the manual.
Plain Python, importing nothing of the project: the rule tables use it too.
"""

from __future__ import annotations

import reprlib
import textwrap
import unicodedata

#: The characters of a value a message shows, at most.
LIMIT = 60
#: The characters of a text a message quotes (what a user's exception says), at most.
MESSAGE = 200
#: The characters of a whole error line, at most (click's own messages quote the values given).
LINE = 1000
#: The characters of a line of the sentences a command prints, at most (tables keep their columns).
TEXT_WIDTH = 96
#: Unicode categories that do not print as what they are: controls (newline, tab, escape), format
#: characters (invisible, or turning the text right to left) and the line and paragraph separators.
UNPRINTABLE = ("Cc", "Cf", "Zl", "Zp")

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 2, LIMIT, LIMIT


def shown(value, limit: int = LIMIT) -> str:
    """``repr(value)`` for a message: one line of at most about ``limit`` characters.

    A longer string (or bytes) shows its first ``limit`` characters, then ``...`` and its length:
    ``'XXXX'... (10,000,000 characters)``. Any other value shows as :mod:`reprlib` abbreviates
    it (a long list as its first items, then ``...``), on one line and cut there."""
    if isinstance(value, (str, bytes)):
        if len(value) <= limit:
            return repr(value)
        unit = "characters" if isinstance(value, str) else "bytes"
        return f"{value[:limit]!r}... ({len(value):,} {unit})"
    line = " ".join(_REPR.repr(value).split())  # reprlib stands for a repr that fails, too
    return line if len(line) <= limit else line[:limit] + "..."


def cut(text: object, limit: int = LIMIT) -> str:
    """``text`` on one line (each run of white space one space), cut short past ``limit`` characters.

    Cut in its middle, so that both ends stay: ``head... (N characters) ...tail``."""
    line = " ".join(str(text).split())
    if len(line) <= limit:
        return line
    mark = f"... ({len(line):,} characters) ..."
    half = max(1, (limit - len(mark)) // 2)
    return f"{line[:half]}{mark}{line[-half:]}"


def name_fault(name: str) -> str | None:
    """What makes ``name`` unfit for a table, in words (``a newline (U+000A)``), or None."""
    for ch in name:
        if unicodedata.category(ch) in UNPRINTABLE:
            what = {"\n": "a newline", "\r": "a carriage return", "\t": "a tab", "\x1b": "an escape"}.get(ch)
            return f"{what or 'a control character'} (U+{ord(ch):04X})"
    return None


def printable(text: str) -> str:
    """``text`` with each character :func:`name_fault` refuses escaped (``\\n``, ``\\x1b``, ``\\u202e``)."""
    if not any(unicodedata.category(ch) in UNPRINTABLE for ch in text):
        return text
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) in UNPRINTABLE else ch for ch in text)


def paragraph(text: str, width: int = TEXT_WIDTH, indent: str = "") -> list[str]:
    """``text`` as lines of at most ``width`` characters, broken between words.

    Every line but the first begins with ``indent``; a word longer than a line (a path, a long
    name) stays whole on a line of its own rather than cut."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
