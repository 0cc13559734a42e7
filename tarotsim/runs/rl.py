"""A PettingZoo AEC environment of French tarot (the ``rl`` extra: ``pip install 'tarotsim[rl]'``).

```python
from tarotsim.runs.rl import env
e = env("4")     # agents player_0 .. player_3
e.reset(seed=7)  # deal (7, 0); a later reset(): deal (7, 1), ...
for agent in e.agent_iter():
    obs, reward, terminated, truncated, info = e.last()
    mask = obs["action_mask"]
    action = None if terminated else policy(obs["observation"], mask)
    e.step(action)
```

Each agent is a seat (``player_k`` = seat k; at table 5d the dealer, the dummy, never acts).
Actions are the 91 ids of :mod:`tarotsim.actions` (``Discrete(91)``); an observation is a dict
of ``observation`` (uint8, :mod:`tarotsim.observations`) and ``action_mask`` (int8[91]: the
legal ids of the agent to act, zeros for the others). An illegal action raises
:class:`tarotsim.engine.IllegalPlayError` naming the rule (never replaced silently). The
rewards are the deal's scores, given when it ends. The deal is played by the step-by-step
:class:`tarotsim.engine.Game` (the reference rules); a deal that asks nobody anything (petit
sec, R-DEAL-4) is skipped for the next index. PettingZoo and Gymnasium are imported only when
an environment is built.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from .. import echo
from ..actions import N_ACTIONS
from ..observations import OBS_DTYPE, OBS_LEN
from ..rules import Rules

__all__ = ["env", "raw_env"]

EXTRA_HINT = "tarotsim.runs.rl needs PettingZoo and Gymnasium: pip install 'tarotsim[rl]'"


def _imports():
    try:
        import gymnasium
        import pettingzoo
    except ImportError:
        raise ImportError(EXTRA_HINT) from None
    return gymnasium, pettingzoo


@cache
def _env_class() -> Any:
    """The AEC class, built on first use (PettingZoo's base class is imported then)."""
    gymnasium, pettingzoo = _imports()
    spaces = gymnasium.spaces
    base: Any = pettingzoo.AECEnv

    class TarotAECEnv(base):
        """French tarot as a PettingZoo AEC environment (see :mod:`tarotsim.runs.rl`)."""

        metadata = {"name": "french_tarot_v0", "render_modes": ["ansi"], "is_parallelizable": False}

        def __init__(self, rules: Rules | str = "4", seed: int = 0, render_mode: str | None = None):
            super().__init__()
            self.rules = rules if isinstance(rules, Rules) else Rules(str(rules))
            if self.rules.table == "2":
                raise ValueError("table 2 (R-VAR-TWO) has no observation layout yet: tables 3, 4, 5, 5d")
            if render_mode not in (None, "ansi"):
                raise ValueError(f"render_mode {echo.shown(render_mode)}: None or 'ansi'")
            self.render_mode = render_mode
            self.possible_agents = [f"player_{s}" for s in range(self.rules.n_seats)]
            self._obs_space = spaces.Dict({
                "observation": spaces.Box(0, 255, (OBS_LEN,), dtype=OBS_DTYPE),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8)})
            self._act_space = spaces.Discrete(N_ACTIONS)
            self.seed_value, self.index = int(seed), -1
            self.game: Any = None  # the deal in play (a tarotsim.engine.Game) after reset()

        def observation_space(self, agent):
            return self._obs_space

        def action_space(self, agent):
            return self._act_space

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            """The next deal: ``(seed, 0)`` when ``seed`` is given, else the index after the last."""
            from ..engine import Game

            if seed is not None:
                self.seed_value, self.index = int(seed), -1
            while True:  # a petit sec deal asks nobody anything (R-DEAL-4): the next one
                self.index += 1
                self.game = Game(self.rules, self.seed_value, self.index)
                if not self.game.done:
                    break
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0 for a in self.agents}
            self._cumulative_rewards = {a: 0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos: dict[str, dict] = {a: {} for a in self.agents}
            self.agent_selection = self.possible_agents[self.game.to_move]

        def observe(self, agent):
            seat = self.possible_agents.index(agent)
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
            if self.game.to_move == seat:
                mask[self.game.legal_action_ids()] = 1
            return {"observation": self.game.observation(seat), "action_mask": mask}

        def step(self, action) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0
            self.game.apply_action(int(action))
            if self.game.done:
                for a, score in zip(self.agents, self.game.scores):
                    self.rewards[a] = int(score)
                    self.terminations[a] = True
            else:
                self.agent_selection = self.possible_agents[self.game.to_move]
            self._accumulate_rewards()

        def render(self):
            if self.render_mode is None or self.game is None:
                return None
            d = self.game.decision
            where = f"{d.kind} for player_{d.seat}" if d else f"over, scores {self.game.scores}"
            return f"table {self.rules.table}, deal ({self.seed_value}, {self.index}): {where}"

        def close(self) -> None:
            pass

    return TarotAECEnv


def raw_env(rules: Rules | str = "4", seed: int = 0, render_mode: str | None = None):
    """The AEC environment, unwrapped."""
    return _env_class()(rules, seed, render_mode)


def env(rules: Rules | str = "4", seed: int = 0, render_mode: str | None = None):
    """The AEC environment with PettingZoo's order checks (``OrderEnforcingWrapper``)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(rules, seed, render_mode))
