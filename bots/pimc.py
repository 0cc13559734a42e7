"""``pimc``: the heuristic's bidding, call, écart and declarations; its cards by search.

``pimc``: the heuristic's bidding (with its own thresholds), call, écart and declarations; its
cards by search.

Perfect-information Monte Carlo (the search itself is ``bots/search.py``, inside the deal
kernel): at each card decision with more than one legal card, the seat draws ``worlds``
deals of the cards it cannot see, uniformly among those that agree with what it has seen
(``tarotsim.worlds``), plays every legal card (one of each class of equivalent cards) in each of
them and finishes the deal ``rollouts`` times with every seat playing the rollout ``policy``, the same rollout streams for every card
(common random numbers); it plays the card with the best mean score for itself (ties: the lowest
card id). With ``exact_from=K``, in the last ``K`` tricks each world is solved instead, every card
known (the exact solver, ``tarotsim._kernels.solver``): each card's score for the seat with best
play by every seat. Parameters are counts, never seconds, so results stay deterministic.

With ``infer`` it reads the table (``bots/inference.py``): it draws ``candidates`` worlds, weighs
each by how well the heuristic (which with probability ``epsilon`` makes any legal choice instead)
explains what the other seats did in it (bids, call, écart, declarations, cards), and keeps
``worlds`` of them by weight (weights tempered to keep an effective sample size of ``min_ess``),
each then moved ``moves`` times by Metropolis-Hastings towards the weighted law. The cards played
weigh with their own ε, ``card_epsilon``; ``trust`` is the prior that a seat plays as the model
at all. The defaults were chosen by duplicate tournaments against pimc on seed 1, with
heuristic and with greedy seats beside, and measured on seed 2 (docs/explanation/strength.md).

With ``locations`` as well, each world also weighs by the card-location model
(``tarotsim.learn``, docs/learn.md): the product over the cards the seat cannot place of the
model's probability of the world's place, raised to ``location_power``; ``location_model=FILE``
reads another model. With ``epsilon=1,card_epsilon=1`` the model alone weighs the worlds, and its
``moves`` are swaps whose weight changes by two cards' terms, so a move replays nothing.

Its first parameters are the heuristic's, in the same order (they drive its bidding and
declarations), with lower bidding thresholds (:data:`BIDDING`); then ``worlds``, ``rollouts`` and
``policy``, ``exact_from``; then ``infer``, ``candidates``, ``epsilon``, ``min_ess``, ``moves``,
``card_epsilon`` and ``trust``; then the bid search's: with ``bid_search`` on, it also bids, calls,
lays its écart, shows its poignée and announces a chelem by search (``bots/bid_search.py``: every
choice played out over ``bid_worlds`` or ``ecart_worlds`` sampled deals with the rollout
``policy``, the shortlist of ``ecart_candidates`` écarts), except at table 2, where it decides as
the heuristic.
"""

from __future__ import annotations

from tarotsim.rules import TABLES

from . import greedy, heuristic, random

NAME = "pimc"
#: Its kind in the kernels' ``kinds`` arrays (``bots.BOT_KINDS``).
CODE = 4
#: The bot whose policies make its decisions in the dispatch (``bots/dispatch.py``): the heuristic's bidding, écart
#: and declarations (its card search is its build's, ``tarotsim/_builds/pimc.py``).
DECIDES_AS = "heuristic"
DESCRIPTION = ("searches its cards: samples the unseen cards, plays each legal card out with the heuristic; "
               "bids as the heuristic, from lower thresholds (bid_search=1: bids, calls, écart and "
               "declarations by search too)")

#: Most worlds a decision may sample (the kernel's scratch is sized for it).
MAX_WORLDS = 4096
#: Most moves per kept world (``infer``).
MAX_MOVES = 64
#: Most rollouts per world.
MAX_ROLLOUTS = 64
#: Most écarts in the bid search's shortlist (``ecart_candidates``).
MAX_ECARTS = 16
#: The widest first layer of a policy the search reads as its opponent model (``learned_opponent``).
MAX_OPPONENT_HIDDEN = 1024
#: The smallest ε of the opponent model (``infer``): a legal choice is never impossible.
EPSILON_MIN = 0.001
#: Most tricks before the end from which ``exact_from`` solves the worlds (the solver's cost grows
#: about tenfold a trick: docs/solver.md).
MAX_EXACT_FROM = 10
#: Rollout policies, by bot code (``bots.BOT_KINDS``): the bots without a search, codes 0 to
#: ``heuristic.CODE`` (the search clamps its ``policy`` parameter to them).
POLICIES = {bot.NAME: bot.CODE for bot in (random, greedy, heuristic)}

#: Its own bidding thresholds, lower than the heuristic's (prise 40, garde 42): it plays its
#: contracts better, so more hands pay. Found by duplicate tournaments against three heuristic bots
#: at table 4 (docs/explanation/strength.md); the table shifts (``shift3``, ``shift5``) are the heuristic's.
#: At table 2 (R-VAR-TWO) its garde sans and garde contre thresholds are 3 below the heuristic's
#: (21, 42): pimc:worlds=8 against the heuristic, 2,000 deals of seed 2, +55.7 points a deal
#: [+50.4, +60.9] against +48.0 [+43.2, +52.7] with the heuristic's (15 and 36: +55.0).
BIDDING = {"prise": 38.0, "garde": 39.0, "garde_sans2": 18.0, "garde_contre2": 39.0}

#: (name, default, kind, help), in parameter-vector order: the heuristic's (with :data:`BIDDING`),
#: then the search's
PARAMS = tuple((n, BIDDING.get(n, d), k, h) for n, d, k, h in heuristic.PARAMS) + (
    ("worlds", 32, int, f"worlds sampled per card decision (1..{MAX_WORLDS})"),
    ("rollouts", 1, int, f"rollouts per world and legal card (1..{MAX_ROLLOUTS}; the greedy and heuristic "
                         "rollouts are deterministic: one is all they play)"),
    ("policy", POLICIES["heuristic"], int, "rollout policy, by bot code: " + ", ".join(
        f"{code} {name}" for name, code in sorted(POLICIES.items(), key=lambda x: -x[1]))),
    ("exact_from", 0, int, f"from this many tricks before the end (the one being played included) each world is "
                           f"solved exactly (tarotsim.analysis.solver, the seat's score) instead of rolled out; 0: never "
                           f"(0..{MAX_EXACT_FROM})"),
    # reading the table (bots/inference.py): the worlds weighed by the other seats' decisions
    ("infer", False, bool, "weigh the worlds by how well the heuristic explains what the other seats did "
                           "(bids, call, écart, declarations, cards), then keep `worlds` of them by weight"),
    ("candidates", 512, int, f"worlds drawn per card decision before weighing (at most {MAX_WORLDS})"),
    ("epsilon", 0.3, float, "the opponent model's ε: the heuristic's choice, or with probability ε any legal one, "
                            "for the bids, call, écart and declarations (1, and card_epsilon 1: every world weighs "
                            "the same)"),
    ("min_ess", 16, int, "the effective sample size the weights keep at least: weights that would leave fewer are "
                         "tempered (raised to a power below 1) until they leave that many; 0: never"),
    ("moves", 0, int, f"Metropolis-Hastings moves (swaps of two unseen cards) per kept world, towards the weighted "
                      f"law (0..{MAX_MOVES})"),
    ("card_epsilon", 0.8, float, "the opponent model's ε for the cards played (`epsilon` is the one of the bids, "
                                 "call, écart and declarations; 1: a card weighs only by its legality)"),
    ("trust", 0.5, float, "the prior probability that a seat plays as the model (else uniformly): a seat whose "
                          "decisions the model explains badly then weighs little (0..1; 1: every seat as the model)"),
    # the bid search (bots/bid_search.py): bids, call, écart and declarations by search
    ("bid_search", False, bool, "bid, call, lay its écart, show its poignée and announce a chelem by search "
                                "(bots/bid_search.py); off: as the heuristic, from the thresholds above"),
    ("bid_worlds", 48, int, f"worlds sampled per bid and per call (1..{MAX_WORLDS})"),
    ("ecart_worlds", 32, int, f"worlds sampled per écart, poignée and chelem decision (1..{MAX_WORLDS})"),
    ("ecart_candidates", 8, int, f"écarts in the shortlist, the heuristic's first (1..{MAX_ECARTS})"),
    # sequential halving (bots/search.py): the worlds in rounds, the weaker half of the cards dropped after each
    ("halving", False, bool, "play the worlds out in rounds and drop the weaker half of the cards after each: "
                             "the last two cards see every world, the others fewer, so a decision costs less"),
    # the card-location model (tarotsim.learn): the worlds weighed by where it finds each card likely
    ("locations", False, bool, "with infer, weigh each world also by the card-location model: the product over "
                               "the cards the seat cannot place of the model's probability of the world's place "
                               "(docs/learn.md); with epsilon=1,card_epsilon=1 the model alone weighs"),
    ("location_model_id", 0, int, "the card-location model: 0 the shipped one; location_model=FILE sets it to "
                                  "that file's (a model of `tarotsim learn train --model locations`)"),
    ("location_power", 0.35, float, "the power the model's product of probabilities is raised to (0..1): the "
                                    "product counts what the seat saw once per card, so 1 is overconfident"),
    # the learned policy (tarotsim.learn) as the opponent model of the cards played
    ("learned_opponent", False, bool, "with infer, the learned policy (docs/learn.md) as the opponent model of the "
                                      "cards played: a card weighs n (1 - card_epsilon) p + card_epsilon, p the "
                                      "policy's probability of it among the n legal ones in the world (the bids and "
                                      "declarations keep the heuristic's, by epsilon)"),
    ("opponent_model_id", 0, int, "the policy of learned_opponent: 0 the shipped one; opponent_model=FILE sets it to "
                                  "that file's (a model of `tarotsim learn train --model policy`)"),
)
_IX = {p[0]: i for i, p in enumerate(PARAMS)}
P_WORLDS = _IX["worlds"]
P_ROLLOUTS = _IX["rollouts"]
P_POLICY = _IX["policy"]
P_EXACT_FROM = _IX["exact_from"]
P_INFER = _IX["infer"]
P_CANDIDATES = _IX["candidates"]
P_EPSILON = _IX["epsilon"]
P_MIN_ESS = _IX["min_ess"]
P_MOVES = _IX["moves"]
P_CARD_EPSILON = _IX["card_epsilon"]
P_TRUST = _IX["trust"]
P_BID_SEARCH = _IX["bid_search"]
P_BID_WORLDS = _IX["bid_worlds"]
P_ECART_WORLDS = _IX["ecart_worlds"]
P_ECART_CANDIDATES = _IX["ecart_candidates"]
P_HALVING = _IX["halving"]
P_LOCATIONS = _IX["locations"]
P_LOCATION_MODEL = _IX["location_model_id"]
P_LOCATION_POWER = _IX["location_power"]
P_LEARNED_OPPONENT = _IX["learned_opponent"]
P_OPPONENT_MODEL = _IX["opponent_model_id"]
#: valid ranges (checked by ``bots.BotSpec.vector``)
RANGES = {"worlds": (1, MAX_WORLDS), "rollouts": (1, MAX_ROLLOUTS),
          "policy": (min(POLICIES.values()), max(POLICIES.values())), "exact_from": (0, MAX_EXACT_FROM),
          "candidates": (1, MAX_WORLDS), "epsilon": (EPSILON_MIN, 1.0), "card_epsilon": (EPSILON_MIN, 1.0),
          "min_ess": (0, MAX_WORLDS), "moves": (0, MAX_MOVES), "trust": (0.0, 1.0), "bid_worlds": (1, MAX_WORLDS),
          "ecart_worlds": (1, MAX_WORLDS), "ecart_candidates": (1, MAX_ECARTS), "location_model_id": (0, None),
          "location_power": (0.0, 1.0), "opponent_model_id": (0, None)}
#: The parameters that act only under a condition (``bots.BotSpec.refuse_idle`` refuses them given
#: where it fails): at the tables the search reads (not table 2, where it decides as the heuristic
#: but for its cards), with the switch they belong to, and ``candidates`` no fewer than ``worlds``
AT_TABLES = {**heuristic.AT_TABLES, **{n: tuple(t for t in TABLES if t != "2")
                                       for n in ("exact_from", "infer", "bid_search", "locations",
                                                 "location_model_id", "location_power", "learned_opponent",
                                                 "opponent_model_id")}}
NEEDS = {**{n: ("infer", 1.0) for n in ("candidates", "epsilon", "min_ess", "moves", "card_epsilon", "trust",
                                         "locations", "learned_opponent")},
         "location_model_id": ("locations", 1.0), "location_power": ("locations", 1.0),
         "opponent_model_id": ("learned_opponent", 1.0),
         **{n: ("bid_search", 1.0) for n in ("bid_worlds", "ecart_worlds", "ecart_candidates")},
         "rollouts": ("policy", float(POLICIES["random"]))}
AT_LEAST = {"candidates": "worlds"}
#: Switches that do not play together: the bid search's builds hand the card search no model.
EXCLUSIVE = (("locations", "bid_search"), ("learned_opponent", "bid_search"))


def location_model_file(path: str) -> dict:
    """The parameters of ``location_model=FILE``: the model read, its id, and the switch on (one-line ``ModelError``)."""
    from tarotsim.learn.models import register

    return {"location_model_id": register(path, "locations"), "locations": True}


def opponent_model_file(path: str) -> dict:
    """The parameters of ``opponent_model=FILE``: the policy read, its id, and the switch on (one-line ``ModelError``)."""
    from tarotsim.learn.models import ModelError, register, registered

    model_id = register(path, "policy")
    if registered(model_id, "policy").hidden[0] > MAX_OPPONENT_HIDDEN:
        raise ModelError(f"model file {path}: a first layer of more than {MAX_OPPONENT_HIDDEN} units is too wide "
                         f"for the opponent model")
    return {"opponent_model_id": model_id, "learned_opponent": True}

