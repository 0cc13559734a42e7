"""``pimc``: the heuristic's bidding (with its own thresholds), call, écart and declarations; its
cards by search.

Perfect-information Monte Carlo (the search itself is ``bots/search.py``, inside the deal
kernel): at each card decision with more than one legal card, the seat draws ``worlds``
deals of the cards it cannot see, uniformly among those that agree with what it has seen
(``tarotsim.worlds``), plays every legal card (one of each class of equivalent cards) in each of
them and finishes the deal ``rollouts`` times with every seat playing the rollout ``policy``, the same rollout streams for every card
(common random numbers); it plays the card with the best mean score for itself (ties: the lowest
card id). Parameters are counts, never seconds, so results stay deterministic.

Its first parameters are the heuristic's, in the same order (they drive its bidding and
declarations), with lower bidding thresholds (:data:`BIDDING`); then ``worlds``, ``rollouts`` and
``policy``; then the bid search's: with ``bid_search`` on, it also bids, calls, lays its écart,
shows its poignée and announces a chelem by search (``bots/bid_search.py``: every choice played
out over ``bid_worlds`` or ``ecart_worlds`` sampled deals with the rollout ``policy``, the
shortlist of ``ecart_candidates`` écarts), except at table 2, where it decides as the heuristic.
"""

from __future__ import annotations

from . import heuristic

NAME = "pimc"
DESCRIPTION = ("searches its cards: samples the unseen cards, plays each legal card out with the heuristic; "
               "bids as the heuristic, from lower thresholds (bid_search=1: bids, calls, écart and "
               "declarations by search too)")

#: Most worlds a decision may sample (the kernel's scratch is sized for it).
MAX_WORLDS = 4096
#: Most rollouts per world.
MAX_ROLLOUTS = 64
#: Most écarts in the search's shortlist (``ecart_candidates``).
MAX_ECARTS = 16
#: Rollout policies, by bot code (``tarotsim._kernels.layout.BOT_KINDS``).
POLICIES = {"random": 0, "greedy": 1, "heuristic": 2}

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
    ("rollouts", 1, int, f"rollouts per world and legal card (1..{MAX_ROLLOUTS}; the heuristic's are "
                         "deterministic)"),
    ("policy", 2, int, "rollout policy, by bot code: 2 heuristic, 1 greedy, 0 random"),
) + (
    ("bid_search", False, bool, "bid, call, lay its écart, show its poignée and announce a chelem by search "
                                "(bots/bid_search.py); off: as the heuristic, from the thresholds above"),
    ("bid_worlds", 48, int, f"bid_search: worlds sampled per bid and per call (1..{MAX_WORLDS})"),
    ("ecart_worlds", 32, int, f"bid_search: worlds sampled per écart, poignée and chelem decision (1..{MAX_WORLDS})"),
    ("ecart_candidates", 8, int, f"bid_search: écarts in the shortlist, the heuristic's first (1..{MAX_ECARTS})"),
)
_IX = {p[0]: i for i, p in enumerate(PARAMS)}
P_WORLDS = _IX["worlds"]
P_ROLLOUTS = _IX["rollouts"]
P_POLICY = _IX["policy"]
P_BID_SEARCH = _IX["bid_search"]
P_BID_WORLDS = _IX["bid_worlds"]
P_ECART_WORLDS = _IX["ecart_worlds"]
P_ECART_CANDIDATES = _IX["ecart_candidates"]
#: valid ranges (checked by ``bots.BotSpec.vector``)
RANGES = {"worlds": (1, MAX_WORLDS), "rollouts": (1, MAX_ROLLOUTS), "policy": (0, 2), "bid_worlds": (1, MAX_WORLDS),
          "ecart_worlds": (1, MAX_WORLDS), "ecart_candidates": (1, MAX_ECARTS)}
