"""``learned``: the best legal action of a policy network trained on the engine's deals.

The network (``tarotsim.learn``, docs/learn.md) reads the seat's observation
(``tarotsim.observations``: what the seat may see, nothing else) and scores every action id;
the bot plays the legal action of the highest score (the lowest id among equals), at every
decision: bids, call, écart (card by card), chelem, poignée, misères and cards. It draws nothing
from the bots stream. Its deals are played by a build of their own (``tarotsim/_builds/learned.py``:
the batched environment's steps, the other seats' bots through the dispatch), compiled only
when a seat is ``learned``; its other seats play ``random``, ``greedy`` or ``heuristic``.

``model=FILE`` plays another policy model (``tarotsim learn train --model policy``); one model
per run. Without it, the model shipped in ``tarotsim/learn/shipped/``.
"""

from __future__ import annotations

NAME = "learned"
#: Its kind in the kernels' ``kinds`` arrays (``bots.BOT_KINDS``).
CODE = 5
#: The bot whose policies make its decisions in the dispatch (``bots/dispatch.py``): never asked there: its deals are
#: played by its build (``tarotsim/_builds/learned.py``).
DECIDES_AS = "greedy"
DESCRIPTION = ("plays the best legal action of a policy network trained on the engine's deals (docs/learn.md); "
               "model=FILE for another model")

PARAMS = [
    ("model_id", 0, int, "the policy model: 0 the shipped one; model=FILE sets it to that file's (docs/learn.md)"),
]
RANGES = {"model_id": (0, None)}


def model_file(path: str) -> dict:
    """The parameters of ``model=FILE``: the model read and its id (``tarotsim.learn.models.ModelError``, one line)."""
    from tarotsim.learn.models import register

    return {"model_id": register(path)}
