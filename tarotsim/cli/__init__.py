"""The ``tarotsim`` command: parse the arguments, call the library, print.

``main`` is the entry point (``tarotsim = "tarotsim.cli:main"``); ``cli`` is the click group
(:mod:`~tarotsim.cli.app`) that each module of a command group adds its commands to:
:mod:`~tarotsim.cli.scoring` (``options``, ``score``, ``sheet``), :mod:`~tarotsim.cli.runs`
(``simulate``, ``tournament``, ``merge``, ``bots``), :mod:`~tarotsim.cli.deals` (``show``,
``replay``, ``stats``, ``analyse``), :mod:`~tarotsim.cli.play` (``play``, its game loop
:mod:`~tarotsim.cli.interactive`), :mod:`~tarotsim.cli.study` (``study bidding``),
:mod:`~tarotsim.cli.learn` (``learn data``, ``learn train``, ``learn calibration``),
:mod:`~tarotsim.cli.league` (``league``) and :mod:`~tarotsim.cli.serve` (``serve``,
``evenings``); what they share is :mod:`~tarotsim.cli.common`.
"""

from . import deals, learn, league, play, runs, scoring, serve, study  # noqa: F401  (each adds its commands to the group)
from .app import cli, main

__all__ = ["cli", "main"]
