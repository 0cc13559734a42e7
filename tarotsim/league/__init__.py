"""A league of bots: every entrant of a pool rated in points a deal, from duplicate games kept in SQLite.

- :mod:`~tarotsim.league.pool`: the pool (table, options, seed, deals per game, filler, anchor and
  the named entrants), from a TOML file or the command line;
- :mod:`~tarotsim.league.schedule`: the games of a pool and how they are played, on the
  tournament's machinery (every deal in every seat rotation, threads, Dask), and each entrant's
  time per decision;
- :mod:`~tarotsim.league.store`: the SQLite database that keeps every game's per-deal scores as
  they are played, so that a stopped league resumes and a new entrant plays only its own games;
- :mod:`~tarotsim.league.ratings`: the joint least-squares fit of every seat's score on the
  strengths of the bots at the table, anchored to one entrant, with bootstrap intervals over deals;
- :mod:`~tarotsim.league.report`: the leaderboard as text, JSON, CSV and a self-contained HTML page.

``tarotsim league`` (:mod:`tarotsim.cli.league`) runs them; the how-to page is docs/how-to/league.md.
"""

from .. import submodule


def __getattr__(name: str):
    """A module of the package, imported the first time it is asked for (``tarotsim.league.pool``)."""
    value = submodule(__name__, name)
    globals()[name] = value
    return value
