"""The deal kernel's ``pimc`` builds (private): the bots with the search as their card decision.

The deal kernel's two ``pimc`` builds (private): the bots build with the search
(``bots.search.make_search``) as its card dispatch, their batch kernels, and the search as one
compiled call for the slow path.

* ``pimc``: the search alone, what a ``pimc`` seat plays with its default parameters;
* ``pimc_full``: the search with its optional parts, the exact solver (``exact_from``) and the
  weighing of the worlds (``infer``); it takes about twice as long to compile, so a run compiles
  it only when a seat asks for one of them (:func:`build_for`, ``bots.search.needs_full_build``).

The search finishes its sampled deals with the bots build's ``_play_rest`` (its rollouts:
random, greedy and heuristic seats only), handed to it here.

Compiled only when a seat plays ``pimc``. The search's scratch (``bots.search.PW_*``,
``PIMC_LEN`` int64) follows the deal kernel's buffer (``buf[BUF_LEN:]``); the batch kernels
allocate it once per chunk (:func:`new_pimc_buffer`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarotsim._kernels._cache import guard_cache
from tarotsim._kernels.layout import L_LEN
from tarotsim._kernels.masks import card_bits
from tarotsim._kernels.play import aggregate_logs, build_name, facts_of_logs, make_play
from tarotsim._kernels.workspace import BUF_LEN, WS_LEN
from tarotsim.rules import RV_N_SEATS

from bots import BOT_KINDS
from bots.dispatch import DISPATCH, bot_card_bits
from bots.search import (IW_LOGQ, IW_STATS, N_STATS, PILES_LEN, PIMC_LEN, PW_CONS, PW_INFER, PW_KNOW, PW_PILES, PW_STATS,
                         location_log_probs, make_search, needs_full_build, own_ecart, public_piles, seat_knowledge)
from tarotsim._kernels.worlds import C_LEN, K_LEN, derive

from . import sources
from .deal import BOTS_PARTS
from .loops import make_loops

#: the ``pimc`` bot's kind (``bots/pimc.py``): the seats whose cards the search plays
PIMC = BOT_KINDS["pimc"]


@njit(cache=True, nogil=True)
def new_pimc_buffer():
    """A deal buffer with the search's scratch after it (``workspace.new_buffer`` + :data:`PIMC_LEN`)."""
    return np.zeros(BUF_LEN + PIMC_LEN, dtype=np.int64)


def _make_build(EXACT, INFER):
    """Build one pimc build: its search, its card dispatch and its deal kernel.

    The search (``bots.search.make_search``, with the exact solver when ``EXACT`` and the weighing
    when ``INFER``), its rollouts finishing a deal with the bots build's ``_play_rest`` (random,
    greedy, heuristic only); the card dispatch that calls it for a ``pimc`` seat; and the deal
    kernel with that dispatch (``make_play``). Returns ``(search, card dispatch, deal kernel)`` (the
    bid-search builds, ``bid_search.py``, play their cards with the same dispatch)."""
    search = make_search(BOTS_PARTS["play_rest"], EXACT, INFER)

    @njit(nogil=True, _nrt=False)
    def _card_pimc(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, rv, buf, log, st):
        """The pimc build's card dispatch: the search for a ``pimc`` seat, the bots' dispatch otherwise.

        The search for a ``pimc`` seat (its own écart from the log when it is the taker at prise
        or garde), ``bots.dispatch.bot_card_bits`` otherwise."""
        if kind == PIMC:
            et, es = own_ecart(seat, pub, log)
            wsp = buf[BUF_LEN:]  # the search's scratch, then the models the seats read (model_words)
            piles = wsp[PW_PILES:PW_PILES + PILES_LEN]
            public_piles(rv, buf[0:WS_LEN], pub, piles)
            c, st = search(rv, params, seat, ht, hs, pub, et, es, lt, ls, pos, piles, st, wsp)
            bt, bs = card_bits(c)
            return c, bt, bs, st
        return bot_card_bits(kind, params, pol, ub, seat, ht, hs, pub, lt, ls, fixed, fmask, amask, pos, st)

    card = build_name(_card_pimc, search.py_func.__qualname__.rsplit("__", 1)[-1])
    return search, card, make_play(DISPATCH, CARD=card)


#: The pimc build: the search without its optional parts, what ``pimc`` plays by default.
pimc_card, card_pimc, _play_pimc = _make_build(False, False)
#: The full pimc build: the search with the exact solver (``exact_from``) and the weighing
#: (``infer``), for the runs in which a seat asks for them (``bots.search.needs_full_build``).
pimc_card_full, card_pimc_full, _play_pimc_full = _make_build(True, True)
_logs = make_loops(_play_pimc, new_pimc_buffer).logs


# --- the one batch kernel of each pimc build ------------------------------------------------------
# numba compiles each cached kernel with its whole build inlined, so each pimc build has one: the
# logs of a list of deals, with the search's counters. Facts and aggregates are read from the logs
# (``facts_of_logs``, ``aggregate_logs``, cheap kernels of the engine), a chunk of deals at a time:
# a searched deal costs far more than its log, and a run compiles the build once whatever it asks.

@njit(inline="always")
def _add_stats(buf, stats):
    """Add the search's counters of a run's buffer into ``stats`` (the weighing's after them)."""
    for k in range(min(stats.shape[0], 3)):
        stats[k] += buf[BUF_LEN + PW_STATS + k]
    for k in range(min(stats.shape[0] - 3, N_STATS)):
        stats[3 + k] += buf[BUF_LEN + PW_INFER + IW_STATS + k]


@njit(cache=True, nogil=True)
def run_logs_pimc(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs, stats):
    """The pimc build's logs of the deals ``indices`` (int64[n]) into ``logs`` (int64[n, L_LEN]).

    The search's counters are added into ``stats`` (int64[k]: decisions searched, worlds sampled,
    rollouts played, then the weighing's ``bots.inference.ST_*``, as many as ``k`` holds)."""
    _add_stats(_logs(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs), stats)


@njit(inline="always")
def _buffer_with(model):
    """A deal buffer, the search's scratch after it, then ``model`` (int64[k], :func:`model_words`; may be empty)."""
    buf = np.zeros(BUF_LEN + PIMC_LEN + model.size, dtype=np.int64)
    for k in range(model.size):
        buf[BUF_LEN + PIMC_LEN + k] = model[k]
    return buf


@njit(cache=True, nogil=True)
def run_logs_pimc_full(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs, stats, model):
    """:func:`run_logs_pimc` on the full pimc build; ``model``: the seats' models, packed (:func:`model_words`)."""
    buf = _buffer_with(model)
    for i in range(indices.shape[0]):
        _play_pimc_full(rv, seed, indices[i], forced_seat, forced_contract, kinds, params, pol, logs[i], buf)
    _add_stats(buf, stats)


#: Deals per call of a build's logs kernel when a run asks for facts or an aggregate.
LOG_CHUNK = 256


class Build:
    """One pimc build, called as the other builds' batch kernels are (``tarotsim._builds.runs``).

    Parameters
    ----------
    logs_kernel : numba dispatcher
        The build's one batch kernel (:func:`run_logs_pimc` or :func:`run_logs_pimc_full`).
    decide_card : numba dispatcher
        Its search as one compiled call, for the slow path (:func:`decide_pimc_card`).
    """

    def __init__(self, logs_kernel, decide_card, reads_models=False):
        self.kernel = logs_kernel
        self.decide_card = decide_card
        self.reads_models = reads_models

    def _model(self, kinds, params):
        """The extra argument of a build that reads models: the seats' models, packed (:func:`model_words`)."""
        return (model_words(kinds, params),) if self.reads_models else ()

    def decide(self, rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st):
        """One card decision of ``seat`` on the slow path (:func:`decide_pimc_card`): ``(card, state)``."""
        kinds = np.full(len(params), PIMC, dtype=np.int64)
        return self.decide_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st,
                                *self._model(kinds[seat:seat + 1], np.asarray(params)[seat:seat + 1]))

    def _chunks(self, start, count):
        for a in range(0, count, LOG_CHUNK):
            yield a, np.arange(start + a, start + min(count, a + LOG_CHUNK), dtype=np.int64)

    def run_logs(self, rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs, stats=None):
        """Full logs of the deals ``indices`` into ``logs[i, :]``; the search's counters into ``stats``."""
        self.kernel(rv, seed, indices, forced_seat, forced_contract, kinds, params, pol, logs,
                    np.zeros(3, dtype=np.int64) if stats is None else stats, *self._model(kinds, params))

    def run_facts(self, rv, seed, start, forced_seat, forced_contract, kinds, params, pol, out):
        """Deals ``start .. start + len(out) - 1`` into the facts rows ``out``, as ``deal.run_facts_bots``."""
        for a, idx in self._chunks(start, out.shape[0]):
            logs = np.zeros((idx.size, L_LEN), dtype=np.int64)
            self.run_logs(rv, seed, idx, forced_seat, forced_contract, kinds, params, pol, logs)
            if facts_of_logs(logs, out, np.int64(a)):
                return

    def run_aggregate(self, rv, seed, start, count, forced_seat, forced_contract, kinds, params, pol, acc,
                      stats=None):
        """Deals ``start .. start + count - 1`` added into ``acc``, as ``deal.run_aggregate_bots``.

        ``stats``: the search's counters are added into it (:func:`run_logs_pimc`)."""
        for _, idx in self._chunks(start, count):
            logs = np.zeros((idx.size, L_LEN), dtype=np.int64)
            self.run_logs(rv, seed, idx, forced_seat, forced_contract, kinds, params, pol, logs, stats)
            if aggregate_logs(logs, acc, rv[RV_N_SEATS]):
                return


@njit(cache=True, nogil=True)
def decide_pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st):
    """One ``pimc`` card decision as a compiled call, for the slow path.

    :func:`pimc_card` for the slow path (``tarotsim.adapters.FastBotAdapter``): ``(card, state)``;
    ``piles``: :func:`pile_vector` of the seat's view (table 2)."""
    wsp = np.zeros(PIMC_LEN, dtype=np.int64)
    return pimc_card(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, wsp)


@njit(cache=True, nogil=True)
def decide_pimc_card_full(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, model):
    """:func:`decide_pimc_card` on the full pimc build; ``model`` as :func:`run_logs_pimc_full`'s."""
    wsp = _buffer_with(model)[BUF_LEN:]
    return pimc_card_full(rv, params, seat, ht, hs, pub, ecart_t, ecart_s, lt, ls, pos, piles, st, wsp)


@njit(cache=True, nogil=True)
def view_location_probabilities(rv, seat, ht, hs, pub, ecart_t, ecart_s, pos, model, out):
    """The card-location model's probabilities as the search reads them at a card decision, into ``out``.

    ``out[c, loc]`` (float64[78, N_LOC], location codes): the probability the search's weighing
    gives card ``c`` at ``loc`` (``bots.search.location_log_probs``: the seat's knowledge, its
    observation rebuilt from its view, the packed ``model``), 1 where the seat knows the place;
    for the tests, which check it against ``tarotsim.learn.locations``."""
    wsp = _buffer_with(model)[BUF_LEN:]
    know = wsp[PW_KNOW:PW_KNOW + K_LEN]
    cons = wsp[PW_CONS:PW_CONS + C_LEN]
    seat_knowledge(rv, seat, ht, hs, pub, ecart_t, ecart_s, pos, wsp[PW_PILES:PW_PILES + PILES_LEN], know)
    derive(rv, know, cons)
    location_log_probs(rv, seat, ht, hs, ecart_t, ecart_s, pub, pos, cons, 1.0, wsp)
    logq = wsp[PW_INFER + IW_LOGQ:PW_INFER + IW_LOGQ + out.size].view(np.float64)
    for c in range(out.shape[0]):
        for loc in range(out.shape[1]):
            out[c, loc] = np.exp(logq[c * out.shape[1] + loc])


_PACKED: dict[tuple[str, int], np.ndarray] = {}


def _seats_model(kinds, params, kind: str, switch: int, id_param: int, given: str) -> np.ndarray:
    """The model of ``kind`` that the ``pimc`` seats with parameter ``switch`` on read, packed (empty: none)."""
    from tarotsim.learn.features import INPUT_SCALE
    from tarotsim.learn.forward import pack
    from tarotsim.learn.models import registered

    ids = {int(params[s][id_param]) for s, k in enumerate(kinds) if int(k) == PIMC and params[s][switch] != 0}
    if not ids:
        return np.zeros(0, dtype=np.int64)
    if len(ids) > 1:
        raise ValueError(f"every pimc seat of a run reads one {kind} model: give the same {given}=FILE")
    (model_id,) = ids
    if (kind, model_id) not in _PACKED:
        _PACKED[kind, model_id] = pack(registered(model_id, kind), INPUT_SCALE)
    return _PACKED[kind, model_id]


def model_words(kinds, params) -> np.ndarray:
    """The models the ``pimc`` seats read, packed one after another for the kernels (empty: none).

    The card-location model of the seats with ``locations`` on, then the policy of those with
    ``learned_opponent`` on (the search finds each by its output size:
    ``learn.forward.packed_model``). One model of each kind a run: a ``ValueError`` when two seats
    read different ones (``location_model``, ``opponent_model``)."""
    from bots.search import P_LEARNED_OPPONENT, P_LOCATION_MODEL, P_LOCATIONS, P_OPPONENT_MODEL

    return np.concatenate([_seats_model(kinds, params, "locations", P_LOCATIONS, P_LOCATION_MODEL, "location_model"),
                           _seats_model(kinds, params, "policy", P_LEARNED_OPPONENT, P_OPPONENT_MODEL,
                                        "opponent_model")])


#: The pimc builds by name: ``pimc`` (the search alone) and ``pimc_full`` (with the exact solver
#: and the weighing).
BUILDS = {"pimc": Build(run_logs_pimc, decide_pimc_card),
          "pimc_full": Build(run_logs_pimc_full, decide_pimc_card_full, reads_models=True)}


def build_for(kinds, params) -> str:
    """The pimc build these seats need: ``pimc_full`` when a ``pimc`` seat asks for an optional part.

    Parameters
    ----------
    kinds : int64[n_seats]
        Bot kind per seat.
    params : float64[n_seats, N_BOT_PARAMS]
        Bot parameters per seat.
    """
    return "pimc_full" if needs_full_build(kinds, params) else "pimc"


# the cache guard (``tarotsim._kernels._cache``): these kernels inline the engine and the policies
guard_cache("builds-pimc", (new_pimc_buffer, run_logs_pimc, decide_pimc_card, run_logs_pimc_full,
                            decide_pimc_card_full, view_location_probabilities), sources())
