"""What the models read and predict, written once: the input, the locations, the data's arrays.

The models read a seat's observation (:mod:`tarotsim.observations`, ``OBS_FIELDS``: its hand,
the auction, the chien and écart where seen, the call, the declarations, every card played and
by whom, the trick being played, the voids and trump ceilings the plays showed, whose turn it is),
flags as 0 or 1 and the three count fields scaled to ``0..1`` (:data:`INPUT_SCALE`). Seats are
relative to the observer there, and so are the locations here: column ``k < MAX_SEATS`` is the
seat ``k`` places after the observer (0: the observer), column :data:`PILE` the hidden pile (the
chien while nobody has seen it, or the écart).

:data:`DATA_FIELDS` is the one table of the arrays of the training data (``tarotsim learn
data``, :mod:`tarotsim.learn.data`): one row per decision of a chosen seat.
"""

from __future__ import annotations

import numpy as np

from ..actions import N_ACTIONS
from ..cards import N_CARDS
from ..observations import MAX_SEATS, MAX_TRICKS, OBS, OBS_LEN

#: Location columns: the seats relative to the observer, then the hidden pile.
PILE = MAX_SEATS
N_LOCATIONS = MAX_SEATS + 1

#: The observation's fields that are counts, and the largest value of each (R-COUNT-1: 182
#: half-points of cards in a deal, the Excuse aside at most that): the model reads count / largest.
COUNT_FIELDS: dict[str, int] = {"trump_ceiling": 21, "tricks_won": MAX_TRICKS, "points_won": 182}
#: The entries of the observation that are counts (every other one is a flag, 0 or 1).
COUNT_COLUMNS = np.concatenate([np.arange(OBS[name].start, OBS[name].stop) for name in COUNT_FIELDS])


def _input_scale() -> np.ndarray:
    scale = np.ones(OBS_LEN, dtype=np.float32)
    for name, top in COUNT_FIELDS.items():
        scale[OBS[name]] = np.float32(1.0 / top)
    return scale


#: The model's input is ``observation * INPUT_SCALE`` (float32[OBS_LEN]).
INPUT_SCALE = _input_scale()

#: The arrays of the training data, one row per decision: (name, dtype, columns, meaning).
#: ``obs_bits`` and ``mask_bits`` are packed (``numpy.packbits``, big bit order);
#: :func:`tarotsim.learn.data.load` unpacks them into ``obs`` and ``mask``.
DATA_FIELDS: tuple[tuple[str, str, int, str], ...] = (
    ("index", "int64", 1, "the deal's index (its seed is the data set's)"),
    ("seat", "int8", 1, "the seat deciding (absolute)"),
    ("kind", "int8", 1, "the decision's kind: rules.DECISION_KINDS"),
    ("obs_bits", "uint8", (OBS_LEN + 7) // 8, "the seat's observation, every entry != 0 as a bit"),
    ("obs_counts", "uint8", len(COUNT_COLUMNS), "the observation's count entries (COUNT_FIELDS), in order"),
    ("mask_bits", "uint8", (N_ACTIONS + 7) // 8, "the legal action ids (tarotsim.actions) as bits"),
    ("action", "uint8", 1, "the action id taken"),
    ("location", "uint8", N_CARDS, "per card, where it is: the relative seat holding it or having played it, "
                                   f"or {PILE} the hidden pile"),
    ("allowed", "uint8", N_CARDS, "per card, the locations the seat's knowledge allows (bit k: column k); "
                                  "0 for a card played, one bit for a card whose place it knows"),
    ("score", "int32", 1, "the seat's score at the end of the deal"),
)


def data_table() -> str:
    """The Markdown table of :data:`DATA_FIELDS` (docs/learn.md holds this text)."""
    rows = ["| array | dtype | columns | meaning |", "|---|---|---:|---|"]
    for name, dtype, columns, meaning in DATA_FIELDS:
        rows.append(f"| `{name}` | {dtype} | {columns} | {meaning} |")
    return "\n".join(rows)
