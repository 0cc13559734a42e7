"""OpenSpiel's Python ISMCTS bot at seat 0 of python_french_tarot, random bots at the others.

    pip install 'tarotsim[openspiel]'
    python examples/ismcts.py --table 4 --deals 2 --simulations 100

The hidden cards of each search are drawn by tarotsim's exact world sampler (the game's
``resample_from_infostate``). Use OpenSpiel's Python bots: its C++ MCTS and ISMCTS bots crash on
Python-defined games (open_spiel 2.0.2).
"""

from __future__ import annotations

import argparse

import numpy as np


def play(table: int = 4, dummy: bool = False, deals: int = 1, simulations: int = 100, seed: int = 1) -> list[list[float]]:
    """Play ``deals`` deals; returns each deal's scores (seat 0 is the ISMCTS bot)."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import tarotsim.runs.openspiel_game  # noqa: F401  (registers python_french_tarot)

    game = pyspiel.load_game("python_french_tarot", {"table": table, "dummy": dummy})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng,
                           max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES)
    out = []
    for _ in range(deals):
        state = game.new_initial_state()
        bot.reset()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randint(len(legal))])
        out.append(state.returns())
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--table", type=int, default=4, choices=[3, 4, 5])
    p.add_argument("--dummy", action="store_true", help="table 5 with the dealer as dummy (5d)")
    p.add_argument("--deals", type=int, default=1)
    p.add_argument("--simulations", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    for k, scores in enumerate(play(a.table, a.dummy, a.deals, a.simulations, a.seed)):
        print(f"deal {k}: scores {[int(s) for s in scores]} (seat 0: ISMCTS)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
