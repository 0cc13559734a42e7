"""One conformance test over every engine: the same deals for the same ``(seed, index)``.

The reference engine (:mod:`tarotsim.reference`) is the oracle. Every other engine plays the
same deals with the random bot (the deal's bots stream, docs/engine-contract.md) and shows what
it can of them, each compared with the oracle's:

* ``kernel``: the deal kernel (:func:`tarotsim.runs.simulate.records` and ``facts``);
* ``facade``: the :class:`tarotsim.engine.Game`, a whole deal (:func:`tarotsim.engine.play_game`)
  and step by step by action ids (:meth:`Game.apply_action`, the écart card by card);
* ``env``: the batched environment :class:`tarotsim.runs.env.VecEnv`, self-play step by step;
* ``env_opponents``: the same with random opponents at every seat, a whole deal per step;
* ``adapter``: the slow path (:func:`tarotsim.runs.slowpath.play_record`) with
  :class:`tarotsim.adapters.FastBotAdapter` and with :class:`tarotsim.engine.PyRandomBot`;
* ``pettingzoo``: the AEC environment of :mod:`tarotsim.runs.rl` (the ``rl`` extra);
* ``openspiel``: the game ``python_french_tarot`` (the ``openspiel`` extra), its chance nodes
  dealing the deal's cards.

What is compared: the record (docs/records.md) and the facts row; at every decision, step by step,
the seat to move, its legal action ids (R-BID-2, R-CALL-1, R-CHIEN-2, R-POIG-2, R-MIS-1, R-PLAY-4a
and every other rule of a decision) and its observation; the scores. The steps' expectation is the
facade's, whose verdicts are the reference engine's. Both extras are installed in CI.

The kernels against the reference over many more deals (options, forced contracts, any seed) are
here too, below the conformance test, so that these comparisons live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarotsim.actions import CHELEM_NO, CHELEM_YES, MISERE_NO, MISERE_YES, POIGNEE_BASE, POIGNEE_NONE, bid_action
from tarotsim._kernels import layout as L
from tarotsim.adapters import FastBotAdapter
from tarotsim.engine import Game, PyRandomBot, play_game
from tarotsim.reference import play_deal
from tarotsim.rng import STREAM_BOTS, Rng, deal
from tarotsim.rules import CONTRACTS, ENV_TABLES, POIGNEE_LEVELS, TABLES, Rules
from tarotsim.runs import simulate, slowpath
from tarotsim.runs.env import VecEnv

SEED = 21
#: The deals of every engine at every table.
DEALS = range(12)
#: Options beside the defaults (the engines that take options play both).
OPTIONS = {"misere": True, "called_suit_after_excuse": "restricted", "poignee_ecart_trumps": False}
RULESETS = {f"{table}{'-options' if options else ''}": Rules(table, **options)
            for table in TABLES for options in ({}, OPTIONS)}


@dataclass(frozen=True)
class Deal:
    """One deal as the oracle has it."""

    record: dict
    facts: tuple
    actions: tuple[int, ...]                 # the random bot's answers as action ids, step by step
    steps: tuple[tuple[int, tuple[int, ...]], ...]   # before each action: the seat to move, its legal ids
    observations: tuple[tuple[int, ...], ...] | None  # and its observation (no layout at table 2)
    scores: tuple[int, ...]


def action_ids(game: Game, answer) -> list[int]:
    """The action ids (:mod:`tarotsim.actions`) of an answer :meth:`Game.apply` takes."""
    kind = game.decision.kind
    if kind == "bid":
        return [bid_action(answer)]
    if kind == "ecart":
        return [card.id for card in answer]
    if kind == "chelem":
        return [CHELEM_YES if answer else CHELEM_NO]
    if kind == "poignee":
        return [POIGNEE_NONE if answer is None else POIGNEE_BASE + POIGNEE_LEVELS.index(answer)]
    if kind.startswith("misere"):
        return [MISERE_YES if answer else MISERE_NO]
    return [answer.id]  # a call or a card


def observed(game: Game) -> tuple[int, ...] | None:
    return None if game.rules.table == "2" else tuple(game.observation(game.to_move).tolist())


def facts_of(row) -> tuple:
    """A facts row (:data:`tarotsim.runs.simulate.FACTS_DTYPE`) as plain values."""
    return tuple(v.tolist() if isinstance(v, np.ndarray) else v for v in row.tolist())


@cache
def the_deal(ruleset: str, index: int) -> Deal:
    """Deal ``(SEED, index)``: the reference engine's record, and the facade step by step."""
    rules = RULESETS[ruleset]
    record = play_deal(rules, SEED, index)
    facts = np.zeros(1, dtype=simulate.FACTS_DTYPE)
    slowpath.facts_row(rules, record, facts, 0)
    game, bot, rng = Game(rules, SEED, index), PyRandomBot(), Rng.for_deal(SEED, index, STREAM_BOTS)
    actions, steps, observations = [], [], []
    while game.decision is not None:
        for action in action_ids(game, bot.choose(game.view(game.to_move), game.legal_actions(), rng)):
            steps.append((game.to_move, tuple(game.legal_action_ids())))
            observations.append(observed(game))
            actions.append(action)
            game.apply_action(action)
    return Deal(record, facts_of(facts[0]), tuple(actions), tuple(steps),
                None if rules.table == "2" else tuple(observations), tuple(game.scores))


# ---------------------------------------------------------------------------------------------
# the engines: each shows, per deal, some of the Deal's fields

def kernel(rules, ruleset, indices):
    facts = simulate.facts(rules, SEED, indices[0], indices[-1] + 1)
    for index, record, row in zip(indices, simulate.records(rules, SEED, indices), facts):
        yield index, {"record": record, "facts": facts_of(row)}


def facade(rules, ruleset, indices):
    for index in indices:
        yield index, {"record": play_game(Game(rules, SEED, index), PyRandomBot()).record()}
        game = Game(rules, SEED, index)
        for action in the_deal(ruleset, index).actions:
            game.apply_action(action)
        yield index, {"record": game.record(), "scores": tuple(game.scores)}


def env(rules, ruleset, indices):
    for index in indices:
        if not the_deal(ruleset, index).actions:
            continue  # a deal that asks nothing (R-DEAL-4) is skipped: tests/test_env.py
        vec = VecEnv(rules, 1, seed=SEED, start=index)
        obs, masks, to_play = vec.reset()
        steps, observations, ends = [], [], []
        for action in the_deal(ruleset, index).actions:
            steps.append((int(to_play[0]), tuple(np.flatnonzero(masks[0]).tolist())))
            observations.append(tuple(obs[0].tolist()))
            obs, masks, rewards, terminated, info = vec.step(np.array([action]))
            to_play = info["to_play"]
            ends.append(bool(terminated[0]))
        assert ends == [False] * (len(ends) - 1) + [True] and info["final_index"][0] == index
        yield index, {"steps": tuple(steps), "observations": tuple(observations),
                      "scores": tuple(rewards[0].tolist()), "record": vec.record(0)}


def env_opponents(rules, ruleset, indices):
    vec = VecEnv(rules, len(indices), seed=SEED, opponents="random", agent_seat=None, start=indices[0])
    vec.reset()
    _, _, rewards, terminated, info = vec.step(np.zeros(len(indices), dtype=np.int64))
    assert terminated.all() and info["final_index"].tolist() == list(indices)
    for slot, index in enumerate(indices):
        yield index, {"record": vec.record(slot)}


def adapter(rules, ruleset, indices):
    for players in ([FastBotAdapter("random")] * rules.n_seats, [PyRandomBot()] * rules.n_seats):
        facts = slowpath.facts(rules, SEED, indices[0], indices[-1] + 1, players)
        for index, row in zip(indices, facts):
            yield index, {"record": slowpath.play_record(rules, SEED, index, players), "facts": facts_of(row)}


def pettingzoo(rules, ruleset, indices):
    from tarotsim.runs import rl

    aec = rl.env(rules, seed=SEED)
    aec.reset(seed=SEED)
    while aec.unwrapped.index <= indices[-1]:
        index, actions = aec.unwrapped.index, iter(the_deal(ruleset, aec.unwrapped.index).actions)
        steps, observations, total = [], [], {a: 0 for a in aec.possible_agents}
        for agent in aec.agent_iter():
            obs, reward, terminated, _, _ = aec.last()
            total[agent] += reward
            if terminated:
                aec.step(None)
                continue
            for other in aec.possible_agents:  # only the agent to move may act
                assert other == agent or not aec.observe(other)["action_mask"].any()
            steps.append((aec.possible_agents.index(agent), tuple(np.flatnonzero(obs["action_mask"]).tolist())))
            observations.append(tuple(obs["observation"].tolist()))
            aec.step(next(actions))
        yield index, {"steps": tuple(steps), "observations": tuple(observations),
                      "scores": tuple(total[a] for a in aec.possible_agents)}
        aec.reset()  # the next deal that asks something (R-DEAL-4)


def openspiel(rules, ruleset, indices):
    import pyspiel

    import tarotsim.runs.openspiel_game  # noqa: F401  (registers the game)

    for index in indices:
        if not the_deal(ruleset, index).actions:
            continue  # a petit sec is no deal of a game that has no redeal (R-DEAL-4)
        dealer, hands, chien = deal(rules, SEED, index)
        game = pyspiel.load_game("python_french_tarot", {"table": int(rules.table[0]), "dummy": rules.table == "5d",
                                                         "dealer": dealer})
        state = game.new_initial_state()
        for card in [c for hand in hands for c in hand] + list(chien):
            state.apply_action(card)
        steps, observations = [], []
        for action in the_deal(ruleset, index).actions:
            player = state.current_player()
            steps.append((player, tuple(state.legal_actions())))
            observations.append(tuple(np.asarray(state.observation_tensor(player), dtype=np.uint8).tolist()))
            state.apply_action(action)
        assert state.is_terminal()
        yield index, {"steps": tuple(steps), "observations": tuple(observations),
                      "scores": tuple(int(r) for r in state.returns())}


#: The rules sets of the tables the environments play, with and without the options.
ENV_RULESETS = {r for r in RULESETS if r.split("-")[0] in ENV_TABLES}
#: Each engine, what it shows of a deal, and the rules it plays (the slower ones the defaults only).
ENGINES = {
    kernel: ({"record", "facts"}, set(RULESETS)),
    facade: ({"record", "scores"}, set(RULESETS)),
    env: ({"steps", "observations", "scores", "record"}, ENV_RULESETS),
    env_opponents: ({"record"}, set(ENV_TABLES)),
    adapter: ({"record", "facts"}, set(TABLES)),
    pettingzoo: ({"steps", "observations", "scores"}, set(ENV_TABLES)),
    openspiel: ({"steps", "observations", "scores"}, set(ENV_TABLES)),  # its rules have no options
}


@pytest.mark.parametrize("engine,ruleset", [pytest.param(engine, ruleset, id=f"{engine.__name__}-{ruleset}")
                                            for engine, (_, rulesets) in ENGINES.items()
                                            for ruleset in RULESETS if ruleset in rulesets])
def test_every_engine_plays_the_reference_deals(engine, ruleset):
    shows, _ = ENGINES[engine]
    seen, shown = set(), set()
    for index, fields in engine(RULESETS[ruleset], ruleset, DEALS):
        expected = the_deal(ruleset, index)
        for name, value in fields.items():
            assert value == getattr(expected, name), (engine.__name__, ruleset, index, name)
        seen.add(index)
        shown |= set(fields)
    assert shown == shows
    played = {index for index in DEALS if the_deal(ruleset, index).actions}
    assert played <= seen and len(played) >= len(DEALS) // 2


def test_the_deals_hold_every_kind_of_decision():
    """The deals compared above reach every decision kind (R-CALL-1, R-CHIEN-2, R-POIG-2, R-MIS-1 and the others)."""
    seen = set()
    for ruleset in RULESETS:
        for index in DEALS:
            game = Game(RULESETS[ruleset], SEED, index)
            for action in the_deal(ruleset, index).actions:
                seen.add(game.decision.kind)
                game.apply_action(action)
    assert {"bid", "call", "ecart", "chelem", "poignee", "card"} <= seen
    assert {"misere_atout", "misere_tete"} & seen


# ---------------------------------------------------------------------------------------------
# the facade and the kernels against the reference engine, over many deals (DESIGN §7)

@given(st.sampled_from(["3", "4", "5", "5d"]), st.integers(0, 2**32), st.integers(0, 10**6))
def test_slow_path_random_bots_give_the_reference_deal(table, seed, index):
    rules = Rules(table)
    g = play_game(Game(rules, seed, index), PyRandomBot())
    assert g.done and sum(g.scores) == 0
    assert g.record() == play_deal(rules, seed, index)


def _diff(rules, seed, indices, forced=None) -> list[dict]:
    """The reference records of the deals, once checked equal to the kernel's."""
    recs = simulate.records(rules, seed, indices, forced=forced)
    refs = []
    for i, k in zip(indices, recs):
        ref = play_deal(rules, seed, i, forced=forced)
        if ref != k or list(ref) != list(k):
            bad = [key for key in ref if ref.get(key) != k.get(key)] or ["field order"]
            raise AssertionError(f"table {rules.table} seed {seed} index {i} options "
                                 f"{rules.non_default_options()}: {bad}\nref {ref}\nker {k}")
        refs.append(ref)
    return refs


@pytest.mark.parametrize("table", TABLES)
def test_kernel_records_equal_reference(table):
    rules = Rules(table=table)
    expected = np.zeros(300, dtype=simulate.FACTS_DTYPE)
    for i, ref in enumerate(_diff(rules, 123456789, range(300))):
        slowpath.facts_row(rules, ref, expected, i)
    assert np.array_equal(simulate.facts(rules, 123456789, 0, 300), expected)


@pytest.mark.parametrize("opts", [
    {"misere": True},
    {"excuse_slam_lead": "attack_only"},
    {"called_suit_after_excuse": "restricted"},
    {"poignee_ecart_trumps": False},
    {"misere": True, "misere_excuse_is_trump": False, "petit_sec": "off", "pab_slam_penultimate": False,
     "poignee_to": "declarer_side", "pab_multiplied": False, "defence_slam_bonus": 0},
], ids=lambda o: ",".join(o))
@pytest.mark.parametrize("table", ENV_TABLES)
def test_kernel_records_equal_reference_with_options(table, opts):
    _diff(Rules.from_options(table, opts), 2**63 + 5, range(1000, 1060))


@pytest.mark.parametrize("table", ENV_TABLES)
def test_kernel_records_equal_reference_forced(table):
    r = Rules(table=table)
    for seat in range(r.n_seats):
        for contract in CONTRACTS:
            idx = [i for i in range(12) if not (table == "5d" and i % 5 == seat)]
            _diff(r, 31 + seat, idx, forced=(seat, contract))


@pytest.mark.parametrize("opts", [{}, {"excuse_slam_lead": "attack_only", "pab_slam_penultimate": False}],
                         ids=["default", "attack_only"])
@pytest.mark.parametrize("table", ("4", "5"))
def test_kernel_records_equal_reference_on_slams(table, opts):
    """Slams are rare with random bots: pick them from the facts table, so R-SLAM-2, R-SLAM-3, R-EXC-4
    and R-PAB-2 are compared too."""
    r = Rules.from_options(table, opts)
    f = simulate.facts(r, 606, 0, 400000, threads=2)
    slams = f["index"][(f["chelem"] != 0) & (f["chelem"] != 3)].tolist()
    logs = simulate.logs(r, 606, slams)
    last = {"4": 17, "5": 14}[table]
    excuse_led = [i for i, lg in zip(slams, logs) if lg[L.L_CARDS + last * L.MAX_SEATS] == 0]
    assert len(slams) >= 20 and len(excuse_led) >= 1
    _diff(r, 606, slams[:20] + excuse_led[:20])
