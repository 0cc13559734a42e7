"""A table in the browser: ``tarotsim serve``, a person against the bots, each deal reviewed, the evening kept.

- :mod:`tarotsim.web.table`: one person's evening at one table, played decision by decision
  through :class:`tarotsim.engine.Game` (the bots, the hint, the écart card by card), its state
  as the page draws it and its review after each deal;
- :mod:`tarotsim.web.store`: the evenings in SQLite, every finished deal's record and the deal
  in progress, so that a server stopped in any way resumes where it was;
- :mod:`tarotsim.web.server`: the ASGI application (Starlette), its page, its websocket protocol
  (docs/how-to/play-in-the-browser.md lists the messages) and the checks of every message.

The extra ``web`` installs what the server needs (Starlette, uvicorn with websockets); the
table and the store need nothing beyond the standard library.
"""

from .. import submodule


def __getattr__(name: str):
    """A module of the package, imported the first time it is asked for (``tarotsim.web.store``)."""
    value = submodule(__name__, name)
    globals()[name] = value
    return value
