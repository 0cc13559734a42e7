"""A griffe extension for the API pages: the Sphinx roles of the docstrings as plain code.

The docstrings cite other objects as Sphinx does (``:func:`score_core```, ``:class:`~tarotsim.engine.Game```);
mkdocstrings reads Markdown, where those roles would show as text. Each becomes the inline code
it names (the last part of the path when it starts with ``~``, as Sphinx shows it).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """``text`` with every Sphinx role replaced by the code it names."""
    return ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)


class SphinxRoles(griffe.Extension):
    """Rewrites the roles of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
