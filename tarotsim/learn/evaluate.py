"""What a card-location model is worth: its log-loss against the uniform laws, by trick.

:func:`calibration` plays deals (any bots), and at every card decision of tricks ``first..last``
of the chosen seats compares three predictions of where each hidden card is (a card with more
than one allowed location), paired by position and card:

* ``allowed``: uniform over the locations the seat's knowledge allows;
* ``worlds``: the exact sampler's law (``tarotsim.worlds``: uniform over the whole deals that
  agree with what the seat saw), its marginals estimated from ``worlds`` draws per position,
  smoothed by half a draw per allowed location (a location no draw chose keeps a little
  probability, so the log-loss stays finite);
* ``model``: the card-location model.

Each is the mean of ``-log2 p(true location)`` in bits per hidden card; ``gain`` is
``worlds - model`` (positive: the model is better).
"""

from __future__ import annotations

import numpy as np

from ..rules import DECISION_KINDS
from .data import _rules, _seat_bits, rows_of_logs
from .features import INPUT_SCALE, N_LOCATIONS

__all__ = ["calibration", "format_calibration"]

CARD = DECISION_KINDS.index("card")


def calibration(model, rules="4", seed: int = 7, start: int = 0, deals: int = 1000, bots="heuristic", seats=None,
                first: int = 2, last: int = 12, worlds: int = 200) -> dict:
    """The log-losses (bits per hidden card) of the uniform laws and of ``model``, by trick (from 1).

    Returns ``{"buckets": [{"trick", "positions", "cards", "allowed", "worlds", "model", "gain"}, ...],
    "all": {...}}`` and the run's arguments."""
    from ..runs import simulate
    from ..rng import check_run, check_seed
    from . import _kernels as K
    from .forward import location_probabilities, work_size

    r = _rules(rules)
    seed = check_seed(seed)
    start, stop = check_run(start, deals, "number of deals", 1)
    bits = _seat_bits(seats, r.n_seats)
    logs = simulate.logs(r, seed, range(start, stop), bots)
    rows = rows_of_logs(r, seed, logs, bits)
    trick = rows["obs"][:, _trick_slice()].argmax(axis=1) + 1
    keep = (rows["kind"] == CARD) & (trick >= first) & (trick <= last)
    obs, where, trick = rows["obs"][keep], rows["location"][keep], trick[keep]
    allowed = rows["allowed"][keep].astype(np.int64)
    n = obs.shape[0]
    counts = np.zeros((n, 78, N_LOCATIONS), dtype=np.int64)
    wf, wi = _worlds_workspace()
    done, status = K.uniform_marginals(r.to_vector(), np.uint64(seed), logs, np.int64(bits), first - 1, last - 1,
                                       np.zeros((worlds, 78), dtype=np.int8), counts, K.new_scratch(), wf, wi)
    if status != K.DONE or done != n:  # pragma: no cover - the replay of a kernel log never fails
        raise RuntimeError(f"the worlds' marginals failed (code {status}, {done} of {n} positions)")
    probs = np.zeros((n, 78, N_LOCATIONS), dtype=np.float32)
    location_probabilities(obs, allowed, INPUT_SCALE, *model.arrays(), np.zeros(work_size(model), np.float32), probs)
    legal = (allowed[:, :, None] >> np.arange(N_LOCATIONS)) & 1 == 1
    n_allowed = legal.sum(axis=2)
    hidden = n_allowed > 1
    pos, card = np.nonzero(hidden)
    true = where[pos, card].astype(np.int64)
    loss = {
        "allowed": np.log2(n_allowed[pos, card]),
        "worlds": -np.log2((counts[pos, card, true] + 0.5) / (worlds + 0.5 * n_allowed[pos, card])),
        "model": -np.log2(np.maximum(probs[pos, card, true], np.float32(1e-30)).astype(np.float64)),
    }
    tricks = trick[pos]

    def summary(sel, positions) -> dict:
        out: dict[str, float] = {"positions": int(positions), "cards": int(sel.sum())}
        out.update({k: float(v[sel].mean()) if sel.any() else float("nan") for k, v in loss.items()})
        out["gain"] = out["worlds"] - out["model"]
        return out

    buckets = [{"trick": t, **summary(tricks == t, (trick == t).sum())} for t in range(first, last + 1)]
    return {"table": r.table, "bots": str(bots), "seed": seed, "start": start, "deals": deals, "worlds": worlds,
            "first": first, "last": last, "buckets": buckets, "all": summary(np.ones(tricks.size, bool), n)}


def _trick_slice():
    from ..observations import OBS

    return OBS["trick_number"]


def _worlds_workspace():
    from .._kernels.worlds import new_workspace

    return new_workspace()


def format_calibration(d: dict) -> str:
    """The table of :func:`calibration`: one row per trick and one for all, bits per hidden card."""
    lines = [f"card locations, table {d['table']}, bots {d['bots']}, seed {d['seed']}, deals {d['start']}.."
             f"{d['start'] + d['deals'] - 1}, card decisions of tricks {d['first']} to {d['last']} "
             f"(bits per hidden card; worlds: {d['worlds']} uniform worlds per position)",
             f"{'trick':>5}  {'positions':>9}  {'cards':>8}  {'allowed':>7}  {'worlds':>7}  {'model':>7}  {'gain':>7}"]
    for b in d["buckets"] + [{"trick": "all", **d["all"]}]:
        lines.append(f"{b['trick']:>5}  {b['positions']:>9}  {b['cards']:>8}  {b['allowed']:7.3f}  {b['worlds']:7.3f}  "
                     f"{b['model']:7.3f}  {b['gain']:+7.3f}")
    return "\n".join(lines)
