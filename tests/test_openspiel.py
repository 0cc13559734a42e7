"""The OpenSpiel game ``python_french_tarot`` (the ``openspiel`` extra,
installed in CI): OpenSpiel's random simulation test, the resampling ISMCTS relies on, and the
ISMCTS example."""

import importlib
import sys

import numpy as np
import pyspiel
import pytest

import tarotsim.runs.openspiel_game as og

TABLES = [(3, False), (4, False), (5, False), (5, True)]


@pytest.mark.parametrize("table,dummy", TABLES)
def test_random_sim_test(table, dummy):
    game = pyspiel.load_game("python_french_tarot", {"table": table, "dummy": dummy, "dealer": 1})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def _random_state(game, rng, decisions):
    state = game.new_initial_state()
    while not state.is_terminal() and (state.is_chance_node() or decisions > 0):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
            decisions -= 1
    return state


@pytest.mark.parametrize("table,dummy", TABLES)
def test_resampled_states_are_the_same_information_state_with_other_hidden_cards(table, dummy):
    """R-DEAL-1 (the deal's sizes), R-CHIEN-1, R-CHIEN-2 (the écart), R-PLAY-4a (voids shown):
    the player's information state and legal actions are kept, the hidden cards are redrawn."""
    game = pyspiel.load_game("python_french_tarot", {"table": table, "dummy": dummy})
    rng = np.random.RandomState(table)
    moved = 0
    for decisions in (0, 3, 8, 15, 30, 45, 60):
        state = _random_state(game, rng, decisions)
        if state.is_terminal():
            continue
        p = state.current_player()
        for u in np.linspace(0.05, 0.95, 4):
            other = state.resample_from_infostate(p, lambda u=u: u)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.legal_actions() == state.legal_actions()
            moved += sorted(other.dealt) == sorted(state.dealt) and other.dealt != state.dealt
    assert moved > 0


def test_the_ismcts_example_plays_whole_deals():
    from examples import ismcts

    scores = ismcts.play(table=4, deals=1, simulations=5, seed=3)
    assert len(scores) == 1 and len(scores[0]) == 4 and sum(scores[0]) == 0


def test_without_the_extra_the_error_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "tarotsim.runs.openspiel_game")
    with pytest.raises(ImportError) as err:
        importlib.import_module("tarotsim.runs.openspiel_game")
    assert str(err.value) == "tarotsim.runs.openspiel_game needs OpenSpiel: pip install 'tarotsim[openspiel]'"
    assert og.SHORT_NAME == "python_french_tarot"


def test_an_impossible_chance_action_is_refused_at_once_R_CARD_1():
    """Each of the 78 cards is dealt once (R-CARD-1): a card dealt already, or no card at all, is
    refused when it is applied, and the state is left as it was."""
    game = pyspiel.load_game("python_french_tarot")
    state = game.new_initial_state()
    state.apply_action(5)
    for action, why in ((5, "chance action 5: T5 is dealt already"), (78, "chance action 78: not a card id 0..77")):
        with pytest.raises(ValueError, match=why):
            state.apply_action(action)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 77
