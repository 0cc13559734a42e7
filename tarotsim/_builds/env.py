"""The environment's step kernel with kernel bots as the opponents (private).

The batched environment's step kernel built with the bots (private): kernel bots as the
opponents of an agent (``tarotsim.runs.env.VecEnv(opponents=...)``).

The engine (``tarotsim._kernels.env``) builds its step from a factory and never imports the
bots; here the factory receives the bots' dispatch (``bots.dispatch.DISPATCH``), as ``deal.py``
does for the deal kernel.
"""

from __future__ import annotations

from pathlib import Path

from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.env import make_env_step

from bots import BOT_KINDS
from bots.dispatch import DISPATCH

from . import sources

#: The bots the step kernel plays as the agent's opponents: its bots build has no search (pimc),
#: no network (learned) and no policy set.
OPPONENT_KINDS = tuple(BOT_KINDS[name] for name in ("random", "greedy", "heuristic"))
_step_bots = make_env_step(DISPATCH)


@njit(cache=True, nogil=True)
def env_step_bots(rv, cfg, seed, lo, hi, actions, kinds, params, bufs, logs, est, bsts, obs, masks, to_play,
                  rewards, terminated, final_logs):
    """The step kernel with the opponents' bots (``tarotsim._kernels.env.make_env_step``)."""
    _step_bots(rv, cfg, seed, lo, hi, actions, kinds, params, None, bufs, logs, est, bsts, obs, masks, to_play,
               rewards, terminated, final_logs)


root = Path(__file__).resolve().parent.parent
guard_cache("builds-env", (env_step_bots,), sources() + [root / n for n in ("actions.py", "observations.py")])
