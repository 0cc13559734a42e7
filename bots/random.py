"""``random``: uniform over the legal choices, the engine's own player (a baseline to compare bots with).

Its draws are the engine's random player (``tarotsim._kernels.random_player``), from the deal's
bots stream in the draw order of docs/engine-contract.md: the deal kernel's random build plays
them when every seat is ``random``, and the bots' dispatch (``bots/dispatch.py``) for a ``random``
seat among other bots, before any policy. So it has no policy and no parameter of its own, and a
deal of random seats is the reference engine's deal with ``PyRandomBot``.
"""

from __future__ import annotations

NAME = "random"
#: Its kind in the kernels' ``kinds`` arrays (``bots.BOT_KINDS``).
CODE = 0
#: The bot whose policies make its decisions in the dispatch (``bots/dispatch.py``): its draws, before any policy.
DECIDES_AS = "random"
DESCRIPTION = "uniform over the legal choices: a baseline to compare bots with (the reference engine's player)"

PARAMS: tuple = ()
