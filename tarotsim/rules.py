"""Table and variant options (RULES §14) as one frozen value, and its int vector for kernels.

``Rules()`` is the official game at four players. Every option of RULES §14 is a field,
named as there; a non-default value is a variant. ``Rules.to_vector()`` packs the table
and options into an int64 array so one compiled kernel serves every table and variant.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np

TABLES = ("3", "4", "5", "5d", "2")

#: Contracts low to high (R-BID-1) and their multipliers.
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
MULTIPLIERS = (1, 2, 4, 6)
CONTRACT_LABELS = {
    "prise": "Prise",
    "garde": "Garde",
    "garde_sans": "Garde sans le chien",
    "garde_contre": "Garde contre le chien",
}

#: Cards in each hand and in the chien, per table (R-DEAL-1; table 2: R-VAR-TWO, the hand
#: without the piles laid before the player).
HAND_SIZE = {"3": 24, "4": 18, "5": 15, "5d": 18, "2": 18}
CHIEN_SIZE = {"3": 6, "4": 6, "5": 3, "5d": 6, "2": 6}
#: Table 2 (R-VAR-TWO): piles laid before each player, and the cards in each (the top one face up).
PILES = {"2": 6}
PILE_DEPTH = 3
#: Tricks of a played deal: every card a player holds, in hand or in his piles (R-DEAL-1, R-VAR-TWO).
N_TRICKS = {t: HAND_SIZE[t] + PILES.get(t, 0) * PILE_DEPTH for t in TABLES}
#: The tables the numba kernels play (all of them; table 2 since R-VAR-TWO reached the kernels).
KERNEL_TABLES = ("3", "4", "5", "5d", "2")
#: The tables of the batched environment (``tarotsim.env``, and the Python bots it plays): table 2's
#: piles have no observation layout yet (R-VAR-TWO).
ENV_TABLES = ("3", "4", "5", "5d")

#: Poignée sizes per table (R-POIG-1) and bonuses; levels simple, double, triple.
POIGNEE_LEVELS = ("simple", "double", "triple")
POIGNEE_SIZES = {"3": (13, 15, 18), "4": (10, 13, 15), "5d": (10, 13, 15), "5": (8, 10, 13)}
POIGNEE_BONUS = (20, 30, 40)

#: Targets by number of oudlers (R-COUNT-3), in points.
TARGETS = (56, 51, 41, 36)


class RulesError(ValueError):
    """An unknown table or option, or a value an option does not take."""


# name -> (default, allowed values or a type for free integers, one-line help)
OPTION_SPECS: dict[str, tuple[object, object, str]] = {
    "petit_sec": ("redeal", ("redeal", "off"), "petit sec annuls the deal (R-DEAL-4)"),
    "chien_gap_limit": (1, (1, "unlimited"), "chien cards per gap when dealing (R-DEAL-2)"),
    "dummy_redeal_same": (True, (True, False), "5d: after all pass the same dummy redeals (R-DEAL-6)"),
    "called_suit_after_excuse": (
        "free", ("free", "restricted"),
        "5: after an Excuse lead to trick 1 the next card is free or barred too (R-CALL-4)"),
    "excuse_slam_lead": (
        "either_side", ("either_side", "attack_only"),
        "which side's Excuse lead wins the last trick of a slam (R-EXC-4)"),
    "pab_slam_penultimate": (True, (True, False), "Petit in the penultimate trick of a slam is au bout (R-PAB-2)"),
    "pab_multiplied": (True, (True, False), "petit au bout is 10 x multiplier (else a flat 10) (R-PAB-3)"),
    "poignee_to": ("winner", ("winner", "declarer_side"), "who receives poignée bonuses (R-POIG-4)"),
    "poignee_ecart_trumps": (True, (True, False), "the taker may show trumps put in the écart (R-POIG-3)"),
    "defence_slam_bonus": (200, (200, 0), "defence winning every trick: 200 per defender, or 0 (R-SLAM-3)"),
    "misere": (False, (True, False), "misère declarations allowed (R-MIS-1)"),
    "misere_value": (10, int, "what a misère earns from each other player, 0..10000 (R-MIS-2)"),
    "misere_excuse_is_trump": (True, (True, False), "holding the Excuse bars misère d'atout (R-MIS-1)"),
    "game_end": ("deals", "game_end",
                 "a fixed number of deals, or a points target N in 1..10^9 (first past N)"),
    "two_player": (False, (True, False), "the two-player variant (R-VAR-TWO); set by table 2"),
}

#: The values a whole-number option takes. Bounded so that every score, and the int64 rules
#: vector of the kernels, stays far from overflow (a misère is paid by up to four players per
#: declaration; a game target is compared with running totals).
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "misere_value": (0, 10_000),
    "game_end": (1, 10**9),
}

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _whole_number(value):
    """An int from an int, a numpy integer or a decimal string; None for anything else (a bool,
    a float such as 1.5, which is refused rather than truncated)."""
    import operator
    import re

    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,30}", text):  # no "10**23", "1e3", "1.5"
            return None
        return int(text)
    try:
        return operator.index(value)
    except TypeError:
        return None


def _in_range(name: str, v, value, what: str) -> int:
    lo, hi = OPTION_RANGES[name]
    if v is None:
        raise RulesError(f"option {name} takes {what} in {lo}..{hi}, not {value!r}")
    if not lo <= v <= hi:
        raise RulesError(f"option {name} takes {what} in {lo}..{hi}, not {v}")
    return v


def _coerce(name: str, value):
    """Turn a value (maybe a CLI string) into the option's canonical value, or raise."""
    default, allowed, _ = OPTION_SPECS[name]
    if allowed is int:
        return _in_range(name, _whole_number(value), value, "a whole number")
    if allowed == "game_end":
        if isinstance(value, str) and value.strip().lower() == "deals":
            return "deals"
        return _in_range(name, _whole_number(value), value, "'deals' or a points target")
    assert isinstance(allowed, tuple)  # every other option lists its values (OPTION_SPECS)
    if allowed == (True, False):  # a yes/no option
        if isinstance(value, bool):
            return value
        low = str(value).strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    else:
        for a in allowed:
            if not isinstance(value, bool) and str(a).lower() == str(value).strip().lower():
                return a
    shown = ", ".join(str(a).lower() for a in allowed)
    raise RulesError(f"option {name} takes one of: {shown} (not {value!r})")


@dataclass(frozen=True)
class Rules:
    """A table and its variant options; defaults are the official FFT rules (RULES §14)."""

    table: str = "4"
    petit_sec: str = "redeal"
    chien_gap_limit: int | str = 1
    dummy_redeal_same: bool = True
    called_suit_after_excuse: str = "free"
    excuse_slam_lead: str = "either_side"
    pab_slam_penultimate: bool = True
    pab_multiplied: bool = True
    poignee_to: str = "winner"
    poignee_ecart_trumps: bool = True
    defence_slam_bonus: int = 200
    misere: bool = False
    misere_value: int = 10
    misere_excuse_is_trump: bool = True
    game_end: str | int = "deals"
    two_player: bool = field(default=False)

    def __post_init__(self):
        table = str(self.table).strip().lower()
        if table not in TABLES:
            raise RulesError(f"unknown table {self.table!r}: choose one of {', '.join(TABLES)}")
        object.__setattr__(self, "table", table)
        for name in OPTION_SPECS:
            object.__setattr__(self, name, _coerce(name, getattr(self, name)))
        if table == "2":
            object.__setattr__(self, "two_player", True)
        elif self.two_player:
            raise RulesError("option two_player needs table 2 (R-VAR-TWO)")

    # -- construction ---------------------------------------------------------
    @classmethod
    def from_options(cls, table: str = "4", options: dict | None = None) -> Rules:
        """Build from a table and a ``{name: value}`` mapping (values may be CLI strings)."""
        options = dict(options or {})
        for name in options:
            if name not in OPTION_SPECS:
                raise RulesError(f"unknown option {name!r}: known options are {', '.join(OPTION_SPECS)}")
        return cls(table=table, **options)

    @staticmethod
    def parse_option(text: str) -> tuple[str, str]:
        """Split ``NAME=VALUE`` (the CLI form) and check the name."""
        if "=" not in text:
            raise RulesError(f"option {text!r} must be NAME=VALUE")
        name, value = (p.strip() for p in text.split("=", 1))
        if name not in OPTION_SPECS:
            raise RulesError(f"unknown option {name!r}: known options are {', '.join(OPTION_SPECS)}")
        return name, value

    def with_options(self, **options) -> Rules:
        return replace(self, **options)

    def non_default_options(self) -> dict:
        """The options that differ from the official rule, as JSON values (for records)."""
        out = {}
        for f in fields(self):
            if f.name in ("table", "two_player"):
                continue
            v = getattr(self, f.name)
            if v != OPTION_SPECS[f.name][0]:
                out[f.name] = v
        return out

    # -- derived facts ----------------------------------------------------------
    @property
    def n_seats(self) -> int:
        """Seats at the table (5d: five, one of them the dummy)."""
        return {"3": 3, "4": 4, "5": 5, "5d": 5, "2": 2}[self.table]

    @property
    def n_active(self) -> int:
        """Players who hold cards in a deal (R-DEAL-1)."""
        return {"3": 3, "4": 4, "5": 5, "5d": 4, "2": 2}[self.table]

    @property
    def poignee_sizes(self) -> tuple[int, int, int] | None:
        return POIGNEE_SIZES.get(self.table)

    def to_vector(self) -> np.ndarray:
        """The rules as an int64 vector for kernels; indices are the ``RV_*`` constants."""
        v = np.zeros(RV_LEN, dtype=np.int64)
        v[RV_TABLE] = TABLES.index(self.table)
        v[RV_N_SEATS] = self.n_seats
        v[RV_N_ACTIVE] = self.n_active
        v[RV_PETIT_SEC] = self.petit_sec == "redeal"
        v[RV_CHIEN_GAP_LIMIT] = 1 if self.chien_gap_limit == 1 else 0
        v[RV_DUMMY_REDEAL_SAME] = self.dummy_redeal_same
        v[RV_CALLED_SUIT_AFTER_EXCUSE_RESTRICTED] = self.called_suit_after_excuse == "restricted"
        v[RV_EXCUSE_SLAM_EITHER_SIDE] = self.excuse_slam_lead == "either_side"
        v[RV_PAB_SLAM_PENULTIMATE] = self.pab_slam_penultimate
        v[RV_PAB_MULTIPLIED] = self.pab_multiplied
        v[RV_POIGNEE_TO_WINNER] = self.poignee_to == "winner"
        v[RV_POIGNEE_ECART_TRUMPS] = self.poignee_ecart_trumps
        v[RV_DEFENCE_SLAM_BONUS] = self.defence_slam_bonus
        v[RV_MISERE] = self.misere
        v[RV_MISERE_VALUE] = self.misere_value
        v[RV_MISERE_EXCUSE_IS_TRUMP] = self.misere_excuse_is_trump
        return v


# Layout of Rules.to_vector(); kernels index with these (append only).
(RV_TABLE, RV_N_SEATS, RV_N_ACTIVE, RV_PETIT_SEC, RV_CHIEN_GAP_LIMIT, RV_DUMMY_REDEAL_SAME,
 RV_CALLED_SUIT_AFTER_EXCUSE_RESTRICTED, RV_EXCUSE_SLAM_EITHER_SIDE, RV_PAB_SLAM_PENULTIMATE,
 RV_PAB_MULTIPLIED, RV_POIGNEE_TO_WINNER, RV_POIGNEE_ECART_TRUMPS, RV_DEFENCE_SLAM_BONUS,
 RV_MISERE, RV_MISERE_VALUE, RV_MISERE_EXCUSE_IS_TRUMP, RV_LEN) = range(17)

#: Table codes as stored at RV_TABLE.
TABLE_3, TABLE_4, TABLE_5, TABLE_5D, TABLE_2 = range(5)

#: The tables above as the kernels index them, by table code (``TABLES`` order): cards in a hand
#: and in the chien (R-DEAL-1, R-VAR-TWO), tricks in a deal and cards laid in piles before each
#: player (R-VAR-TWO: 36 and 18 at table 2, else the hand size and 0), the poignée sizes (R-POIG-1;
#: out of reach at table 2, R-VAR-TWO) and the bonus of a poignée by level code (0 none, 1 simple..).
KERNEL_HAND_SIZE = np.array([HAND_SIZE[t] for t in TABLES], dtype=np.int64)
KERNEL_CHIEN_SIZE = np.array([CHIEN_SIZE[t] for t in TABLES], dtype=np.int64)
KERNEL_N_TRICKS = np.array([N_TRICKS[t] for t in TABLES], dtype=np.int64)
KERNEL_PILE_CARDS = np.array([PILES.get(t, 0) * PILE_DEPTH for t in TABLES], dtype=np.int64)
KERNEL_POIGNEE_SIZES = np.array([POIGNEE_SIZES.get(t, (99, 99, 99)) for t in TABLES], dtype=np.int64)
KERNEL_POIGNEE_BONUS = np.array((0,) + POIGNEE_BONUS, dtype=np.int64)
