"""The ``tarotsim`` command: parse the arguments, call the library, print.

``main`` is the entry point (``tarotsim = "tarotsim.cli:main"``); ``cli`` is the click group
every command module adds its commands to.
"""

from .app import cli, main

__all__ = ["cli", "main"]
