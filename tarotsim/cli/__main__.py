"""``python -m tarotsim.cli``: the ``tarotsim`` command."""

from .app import main

main()
