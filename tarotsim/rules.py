"""The rule tables (tables, contracts, sizes, poignées, targets) and the options of docs/rules.md §14.

The tables are data, with int64 arrays for the kernels (``KERNEL_*``, indexed by table or
contract code): every engine, the facade, the env, the observations and the scorer read them
here. ``Rules()`` is the official game at four players. Every option of docs/rules.md §14 is a field,
named as there; a non-default value is a variant. ``Rules.to_vector()`` packs the table
and options into an int64 array so one compiled kernel serves every table and variant.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np

from . import echo
from .cards import EXCUSE, SUIT_BASE

#: The tables (R-GEN-1; 5d: five seats, the dealer sits out; 2: R-VAR-TWO); a table's code in the
#: kernels is its index here.
TABLES = ("3", "4", "5", "5d", "2")
#: Cards in each hand and in the chien, per table (R-DEAL-1; table 2: R-VAR-TWO, the hand
#: without the piles laid before the player).
HAND_SIZE = {"3": 24, "4": 18, "5": 15, "5d": 18, "2": 18}
CHIEN_SIZE = {"3": 6, "4": 6, "5": 3, "5d": 6, "2": 6}
#: Table 2 (R-VAR-TWO): piles laid before each player, and the cards in each (the top one face up).
PILES = {"2": 6}
PILE_DEPTH = 3
#: Tricks of a played deal: every card a player holds, in hand or in his piles (R-DEAL-1, R-VAR-TWO).
N_TRICKS = {t: HAND_SIZE[t] + PILES.get(t, 0) * PILE_DEPTH for t in TABLES}
#: What each table can do, as subsets of ``TABLES`` in its order (no other list of tables): the numba
#: kernels play every table; the batched environment (``tarotsim.runs.env``, its observations and the
#: Python bots' batches) every table but 2, whose piles have no observation layout (R-VAR-TWO).
KERNEL_TABLES = TABLES
ENV_TABLES = tuple(t for t in TABLES if t != "2")
#: The tables the exact solver plays (``tarotsim.analysis.solver``, ``analyse``): every table but 2,
#: whose face-down piles change what each player may play (R-VAR-TWO).
SOLVER_TABLES = tuple(t for t in TABLES if t != "2")

#: Poignée sizes per table (R-POIG-1) and bonuses; levels simple, double, triple.
POIGNEE_LEVELS = ("simple", "double", "triple")
POIGNEE_SIZES = {"3": (13, 15, 18), "4": (10, 13, 15), "5d": (10, 13, 15), "5": (8, 10, 13)}
POIGNEE_BONUS = (20, 30, 40)

#: Targets by number of oudlers (R-COUNT-3), in points.
TARGETS = (56, 51, 41, 36)


@dataclass(frozen=True)
class Contract:
    """What a contract means for the deal (R-BID-1, R-CHIEN-1 to R-CHIEN-4), as data.

    ``chien_shown``: the chien is shown to everyone and joins the taker's hand (R-CHIEN-1);
    ``ecart_made``: the taker then lays an écart aside (R-CHIEN-1, R-CHIEN-2); ``chien_to``:
    the side whose pile counts the cards set aside, the écart or the unseen chien (``"attack"``:
    R-CHIEN-1, R-CHIEN-3; ``"defence"``: R-CHIEN-4).
    """

    name: str
    label: str
    multiplier: int
    chien_shown: bool
    ecart_made: bool
    chien_to: str


#: The contract table, low to high (R-BID-1): the kernels' contract code is the index here.
CONTRACT_TABLE = (
    Contract("prise", "Prise", 1, chien_shown=True, ecart_made=True, chien_to="attack"),
    Contract("garde", "Garde", 2, chien_shown=True, ecart_made=True, chien_to="attack"),
    Contract("garde_sans", "Garde sans le chien", 4, chien_shown=False, ecart_made=False, chien_to="attack"),
    Contract("garde_contre", "Garde contre le chien", 6, chien_shown=False, ecart_made=False, chien_to="defence"),
)
#: The contract of each name.
CONTRACT_OF = {c.name: c for c in CONTRACT_TABLE}
#: Contracts low to high (R-BID-1), their multipliers and their names in full.
CONTRACTS = tuple(c.name for c in CONTRACT_TABLE)
#: How many contracts there are: every per-contract array and loop is this long (contract codes ``0 .. N_CONTRACTS - 1``).
N_CONTRACTS = len(CONTRACTS)
MULTIPLIERS = tuple(c.multiplier for c in CONTRACT_TABLE)
CONTRACT_LABELS = {c.name: c.label for c in CONTRACT_TABLE}

# --- rules on card ids and masks (plain ints: the kernels compile these very functions) ----------

#: The decisions of a deal (``Decision.kind``), in the order of docs/engine-contract.md: their one
#: enumeration. The env kernel's and the observations' decision codes are the indices here.
DECISION_KINDS = ("bid", "call", "ecart", "chelem", "poignee", "misere_atout", "misere_tete", "card")
#: A bot's decisions (the policy sets' functions, the kernels' bot dispatch and decision trace): the
#: decision kinds with the two misères as one decision, whose argument says which.
BOT_DECISIONS = tuple(dict.fromkeys("misere" if k.startswith("misere") else k for k in DECISION_KINDS))
#: The decisions of the play (R-PLAY-1 on): a seat's declarations at its first turn, then its cards.
PLAY_DECISIONS = DECISION_KINDS[DECISION_KINDS.index("poignee"):]

#: What a play shows (``play_shows``): the led suit of a trick, -1 before it is fixed (R-PLAY-3),
#: a suit 0..3 (S H D C), or 4 for trumps; voids as bits, bit s for suit s and ``VOID_TRUMPS`` for
#: the trumps; a trump ceiling, the highest trump a hand may still hold (``NO_CEILING``: no sign).
LED_NONE = -1
LED_TRUMPS = 4
VOID_TRUMPS = 1 << LED_TRUMPS
NO_CEILING = 21


def after_play(card: int, led: int, top: int):
    """The led suit and the highest trump of a trick after a card is played.

    ``(led, top)`` of a trick once card id ``card`` is played into it: the led suit, fixed by
    the first card that is not the Excuse (R-PLAY-3), and the highest trump in it (0: none)."""
    if led == LED_NONE and card != EXCUSE:
        led = LED_TRUMPS if card < SUIT_BASE else (card - SUIT_BASE) // 14
    if card < SUIT_BASE and card > top:
        top = card
    return led, top


def play_shows(card: int, led: int, top: int, voids: int, ceiling: int):
    """What playing card id ``card`` shows of its player's hand: ``(voids, ceiling)`` updated.

    The one home of these signs: the kernels compile this very function (``_kernels.steps``),
    the facade's observations and the adapters call it on the same ids. ``led`` and ``top``: the
    led suit and the highest trump in the trick before the card (``after_play``).

    The Excuse, always allowed (R-EXC-1), and a card played before the led suit is fixed
    (R-PLAY-3) show nothing. Not following the led suit shows a void in it (R-PLAY-4a); a card
    that is neither of the led suit nor a trump shows no trump at all (R-PLAY-4b, R-PLAY-4c,
    R-PLAY-4d); a trump below ``top`` shows no trump above ``top``, since overtrumping was due
    when possible (R-PLAY-4b, R-PLAY-4c).
    """
    if card == EXCUSE or led == LED_NONE:
        return voids, ceiling
    is_trump = card < SUIT_BASE
    if led != LED_TRUMPS:
        if not is_trump and (card - SUIT_BASE) // 14 == led:
            return voids, ceiling
        voids |= 1 << led
    if not is_trump:
        return voids | VOID_TRUMPS, 0
    if card < top and top < ceiling:
        ceiling = top
    return voids, ceiling


def ecart_trumps_needed(n_ecart: int, n_normal: int) -> int:
    """The number of trumps the écart must hold (R-CHIEN-2).

    Trumps the écart must hold (R-CHIEN-2): trumps only when the ``n_normal`` eligible
    non-trumps (neither trump, king nor Excuse) are fewer than the ``n_ecart`` cards to lay."""
    return max(0, n_ecart - n_normal)


def ecart_pick_choices(normal: int, trumps: int, trumps_needed: int, picked_t: int, picked_s: int,
                       trumps_picked: int):
    """The cards the next single pick of the écart may take (R-CHIEN-2), ``(trump word, suit word)``.

    ``normal`` (suit word): the eligible non-trumps; ``trumps`` (trump word): the taker's T2..T20;
    ``picked_t``, ``picked_s``: the picks so far, ``trumps_picked`` of them trumps. The eligible
    non-trumps not picked yet, and the trumps not picked yet only while the écart still needs one
    (``ecart_trumps_needed``: every eligible non-trump must then go, so every order of the picks
    is legal). The one home of the rule: the kernels compile this function, the facade and the
    Python bots' batches call it.
    """
    suits = normal & ~picked_s
    if trumps_picked < trumps_needed:
        return trumps & ~picked_t, suits
    return 0, suits


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
    """A whole number from what a caller gives, or None.

    An int from an int, a numpy integer or a decimal string; None for anything else (a bool,
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
        raise RulesError(f"option {name} takes {what} in {lo}..{hi}, not {echo.shown(value)}")
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
    raise RulesError(f"option {name} takes one of: {shown} (not {echo.shown(value)})")


@dataclass(frozen=True)
class Rules:
    """A table and its variant options; defaults are the official FFT rules (docs/rules.md §14).

    Examples
    --------
    >>> rules = Rules("5", misere=True)
    >>> rules.n_seats, rules.non_default_options()
    (5, {'misere': True})
    >>> Rules.from_options("4", {"petit_sec": "off"}).petit_sec
    'off'
    >>> Rules("6")
    Traceback (most recent call last):
    ...
    tarotsim.rules.RulesError: unknown table '6': choose one of 3, 4, 5, 5d, 2
    """

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
            raise RulesError(f"unknown table {echo.shown(self.table)}: choose one of {', '.join(TABLES)}")
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
                raise RulesError(f"unknown option {echo.shown(name)}: known options are {', '.join(OPTION_SPECS)}")
        return cls(table=table, **options)

    @staticmethod
    def parse_option(text: str) -> tuple[str, str]:
        """Split ``NAME=VALUE`` (the CLI form) and check the name."""
        if "=" not in text:
            raise RulesError(f"option {echo.shown(text)} must be NAME=VALUE")
        name, value = (p.strip() for p in text.split("=", 1))
        if name not in OPTION_SPECS:
            raise RulesError(f"unknown option {echo.shown(name)}: known options are {', '.join(OPTION_SPECS)}")
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

#: The contract table as the kernels index it, by contract code (``CONTRACTS`` order, 0 prise ..
#: 3 garde contre): the multiplier (R-BID-1), 1 when the chien is shown and an écart made
#: (R-CHIEN-1, R-CHIEN-2), 1 when the cards set aside count for the attack (R-CHIEN-1, R-CHIEN-3;
#: 0: the defence, R-CHIEN-4).
KERNEL_MULTIPLIER = np.array([c.multiplier for c in CONTRACT_TABLE], dtype=np.int64)
KERNEL_CHIEN_SHOWN = np.array([c.chien_shown for c in CONTRACT_TABLE], dtype=np.int64)
KERNEL_ECART_MADE = np.array([c.ecart_made for c in CONTRACT_TABLE], dtype=np.int64)
KERNEL_CHIEN_TO_ATTACK = np.array([c.chien_to == "attack" for c in CONTRACT_TABLE], dtype=np.int64)
