"""``pimc:infer=1,learned_opponent=1``: the learned policy as the opponent model of the cards played.

* The parameters: ``learned_opponent`` needs ``infer``, ``opponent_model=FILE`` reads a policy
  (a clear one-line error for a missing, truncated or mismatched file), not with ``bid_search``,
  not at table 2.
* A world's log weight equals a slow twin's on positions of every table: the world's deal
  replayed on the ``Game`` facade (``helpers_inference``), each other seat's card weighing
  ``n (1 - ε) p + ε`` with ``p`` from ``tarotsim.learn.action_probabilities`` on that seat's
  observation in the world (R-PLAY-3, R-PLAY-4a to R-PLAY-4e; its écart, R-CHIEN-2; the partner
  known to himself, R-CALL-3).
* The deals obey the rules at every table, the fast path equals the slow path, the results do
  not depend on the threads, and a decision depends only on what the seat saw (hidden-card swap).
"""

import random

import numpy as np
import pytest

from helpers_deals import card_twins
from helpers_inference import twin_log_weights
from test_inference import kernel_log_weights, positions
from test_kernels import check_record
from bots import BotError, parse_bots
from tarotsim import record
from tarotsim._builds.pimc import model_words
from tarotsim.actions import N_ACTIONS
from tarotsim.adapters import FastBotAdapter
from tarotsim.engine import Game, play_game
from tarotsim.learn.features import INPUT_SCALE
from tarotsim.learn.forward import pack, packed_model
from tarotsim.learn.models import registered
from tarotsim.rules import ENV_TABLES, Rules
from tarotsim.runs import simulate
from tarotsim.worlds import sample

OPP = "pimc:worlds=3,infer=1,candidates=8,min_ess=2,epsilon=1,card_epsilon=0.3,learned_opponent=1"
OPP_PARAMS = {"worlds": 3, "infer": True, "candidates": 8, "min_ess": 2, "epsilon": 1.0, "card_epsilon": 0.3,
              "learned_opponent": True}
SHIPPED_POLICY = "tarotsim/learn/shipped/policy-4.npz"


def test_learned_opponent_is_a_pimc_parameter_with_its_conditions(tmp_path):
    words = model_words(np.array([4]), parse_bots(OPP, 4)[0][1][None, :])
    assert packed_model(words, N_ACTIONS).size == words.size > 0
    both = model_words(np.array([4]), parse_bots(OPP + ",locations=1", 4)[0][1][None, :])
    assert packed_model(both, N_ACTIONS).size == words.size < both.size   # the location model first
    assert model_words(np.array([4]), parse_bots("pimc:infer=1", 4)[0][1][None, :]).size == 0
    for bad, why in (("pimc:learned_opponent=1", "learned_opponent does nothing without infer=1"),
                     ("pimc:infer=1,opponent_model=nope.npz", "model file nope.npz does not exist"),
                     ("pimc:infer=1,learned_opponent=1,bid_search=1",
                      "learned_opponent and bid_search do not play together"),
                     ("pimc:infer=1,opponent_model=tarotsim/learn/shipped/locations-4.npz",
                      "is a locations model, not a policy model")):
        with pytest.raises(BotError, match=why):
            parse_bots(bad, 4)
    with pytest.raises(BotError, match="does nothing at table 2"):
        parse_bots("pimc:learned_opponent=1", 2, "2")
    truncated = tmp_path / "cut.npz"
    truncated.write_bytes(open(SHIPPED_POLICY, "rb").read()[:5000])
    with pytest.raises(BotError, match="cut.npz"):
        parse_bots(f"pimc:infer=1,opponent_model={truncated}", 4)
    given = parse_bots(f"pimc:infer=1,opponent_model={SHIPPED_POLICY}", 4)[0][1]
    assert np.array_equal(model_words(np.array([4]), given[None, :]), words)


@pytest.mark.parametrize("table", ENV_TABLES)
def test_the_learned_opponents_weights_equal_the_python_twin(table):
    policy = registered(0, "policy")
    words = pack(policy, INPUT_SCALE)
    rnd = random.Random(table)
    n = weighed = 0
    for game, seat in positions(table, "mixed", range(4), 0.06, options={"misere": True}):
        if game.decision.kind != "card" or not game._deal.tricks:
            continue
        ws = sample(game, seat, 3, rnd.getrandbits(64))
        card_eps = rnd.choice([0.05, 0.3, 0.8])
        trust = rnd.choice([1.0, 0.5])
        got = kernel_log_weights(game, seat, ws.locations, 1.0, card_eps, trust, model=words)
        want = twin_log_weights(game, seat, ws.locations, 1.0, card_eps, trust, policy=policy)
        # the forward passes are float32: their probabilities agree within about 1e-6
        assert np.allclose(got, want, rtol=1e-5, atol=1e-4), (table, seat, card_eps, trust, got, want)
        n += 1
        weighed += bool(np.any(np.abs(got) > 1e-3))
    assert n >= 6 and weighed >= 4


def _mix(table):
    n = Rules(table=table).n_seats
    return [OPP, "heuristic", "pimc:worlds=3", "random", "greedy"][:n]


@pytest.mark.parametrize("table", ENV_TABLES)
def test_learned_opponent_deals_obey_the_rules_and_fast_path_equals_slow_path(table):
    r = Rules.from_options(table, {"misere": True})
    bots = _mix(table)
    recs = simulate.records(r, 5, range(5), bots=bots)
    for rec in recs:
        check_record(rec, r)
        record.verify(rec)
    assert sum(rec["outcome"] == "played" for rec in recs) >= 3
    for i, rec in zip(range(2), recs):
        adapters = [FastBotAdapter("pimc", OPP_PARAMS) if b == OPP else
                    FastBotAdapter("pimc", {"worlds": 3}) if b.startswith("pimc") else FastBotAdapter(b) for b in bots]
        assert play_game(Game(r, 5, i), adapters).record() == rec


def test_learned_opponent_changes_the_cards_and_not_with_the_threads():
    r = Rules(table="4")
    bots = [OPP, "heuristic", "heuristic", "heuristic"]
    a = simulate.facts(r, 3, 0, 20, bots=bots, threads=1)
    b = simulate.facts(r, 3, 0, 20, bots=bots, threads=2, chunk_size=5)
    assert np.array_equal(a, b)
    plain = simulate.facts(r, 3, 0, 20, bots=[OPP.replace(",learned_opponent=1", "")] + bots[1:], threads=1)
    assert not np.array_equal(a, plain)  # the policy moves the weights, so some card differs


def test_hidden_cards_never_change_a_learned_opponent_decision():
    bot = FastBotAdapter("pimc", OPP_PARAMS)
    n_cards = sum(1 for _ in card_twins(bot, ENV_TABLES, 2, random.Random(6)))
    assert n_cards >= 10
