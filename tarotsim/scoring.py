"""Automatic counting: deal facts (R-SCORE-5) -> the score of every player, step by step.

One arithmetic serves everything. :func:`score_core` works on plain ints and int64 arrays
so the simulator compiles the very same function with numba (``njit(score_core)``) and
calls it for every deal; :func:`score` is the Python front door used by ``tarotsim score``
and ``tarotsim sheet``: it checks the facts, calls the core, and returns a
:class:`ScoreBreakdown` that shows every step of R-SCORE-1.

All points are integer half-points (R-GEN-4); only the difference is rounded (R-COUNT-4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeGuard

import numpy as np

from . import echo
from .cards import DECK, DECK_HALF_POINTS, HALF_POINTS, JACK, PETIT, format_points
from .rules import (CHIEN_SIZE, CONTRACT_OF, CONTRACTS, KERNEL_MULTIPLIER, N_TRICKS, POIGNEE_BONUS, POIGNEE_LEVELS,
                    RV_DEFENCE_SLAM_BONUS, RV_MISERE_VALUE, RV_N_ACTIVE, RV_N_SEATS, RV_PAB_MULTIPLIED,
                    RV_POIGNEE_TO_WINNER, TARGETS, Rules)

# Layout of the ``steps`` array filled by score_core (append only).
(ST_TARGET_HP, ST_MADE, ST_DIFFERENCE, ST_BASE, ST_MULTIPLIER, ST_CONTRACT_TERM, ST_PAB_TERM,
 ST_POIGNEE_TERM, ST_SLAM_TERM, ST_VALUE, ST_LEN) = range(11)

#: Chelem outcomes as the CLI and records name them -> (announced, side that won every trick).
CHELEM_OUTCOMES = {
    None: (0, 0),
    "announced_made": (1, 1),
    "made": (0, 1),
    "announced_failed": (1, 0),
    "defence": (0, -1),
    "announced_defence": (1, -1),
}
SIDES = ("attack", "defence")
MISERE_KINDS = ("atout", "tete")


class ScoringError(ValueError):
    """Facts that cannot describe a deal: the message names the fact and the rules that rule it out.

    ``fields`` names the :class:`DealFacts` fields involved, so that a score sheet can point at
    its columns.

    Examples
    --------
    >>> from tarotsim.rules import Rules
    >>> score(DealFacts(Rules("4"), "garde", attack_half_points=90, oudlers=4))
    Traceback (most recent call last):
    ...
    tarotsim.scoring.ScoringError: oudlers must be 0, 1, 2 or 3, not 4
    >>> try:
    ...     parse_points("45.2")
    ... except ScoringError as e:
    ...     print(e.fields)
    ('attack_half_points',)
    """

    def __init__(self, message: str, fields: tuple[str, ...] = ()):
        super().__init__(message)
        self.fields = tuple(fields)


def score_core(rules_vec, contract, attack_hp, oudlers, pab, poignee_attack, poignee_defence,
               slam_announced, slam_side, taker, partner, dummy, miseres, steps, scores):
    """Score one deal from its facts, in integers (R-COUNT-3, R-COUNT-4, R-PAB, R-POIG-4, R-SLAM-3, R-SCORE, R-MIS-2).

    Plain arithmetic on ints and arrays, compiled as is by numba for the simulator.

    Parameters
    ----------
    rules_vec : int64[RV_LEN]
        ``Rules.to_vector()``.
    contract : int
        0 prise, 1 garde, 2 garde sans, 3 garde contre.
    attack_hp : int
        Half-points in the attack's pile, 0..182.
    oudlers : int
        Oudlers in the attack's pile, 0..3.
    pab : int
        Petit au bout: +1 attack, -1 defence, 0 none.
    poignee_attack, poignee_defence : int
        Sum of the poignée bonuses (20/30/40) declared by each side.
    slam_announced : int
        1 if the taker announced a chelem.
    slam_side : int
        +1 the attack won every trick, -1 the defence did, 0 neither.
    taker, partner, dummy : int
        Seats; ``partner`` -1 when the taker is alone (or not at table 5), ``dummy`` -1 except at 5d.
    miseres : int64[n_seats]
        Misères declared by each seat (0..2).
    steps : int64[ST_LEN]
        Output: the steps of R-SCORE-1 (``ST_*`` indices).
    scores : int64[n_seats]
        Output: each seat's score; sums to 0.

    Examples
    --------
    A garde (1) at table 4 made with 45 points (90 half-points) and 2 oudlers, taker seat 0:

    >>> import numpy as np
    >>> from tarotsim.rules import Rules
    >>> steps = np.zeros(ST_LEN, dtype=np.int64)
    >>> scores = np.zeros(4, dtype=np.int64)
    >>> no_misere = np.zeros(4, dtype=np.int64)
    >>> score_core(Rules("4").to_vector(), 1, 90, 2, 0, 0, 0, 0, 0, 0, -1, -1,
    ...            no_misere, steps, scores)
    >>> scores.tolist(), int(steps[ST_VALUE])
    ([174, -58, -58, -58], 58)
    """
    n_seats = rules_vec[RV_N_SEATS]
    n_active = rules_vec[RV_N_ACTIVE]
    m = KERNEL_MULTIPLIER[contract]  # R-BID-1 (``rules.CONTRACT_TABLE``)
    target_hp = 2 * TARGETS[oudlers]  # R-COUNT-3, in half-points
    gap = attack_hp - target_hp
    made = gap >= 0
    s = 1 if made else -1
    d = (abs(gap) + 1) // 2  # ceil of a half-point gap: a half point goes to the winner
    contract_term = s * (25 + d) * m
    pab_term = pab * 10
    if rules_vec[RV_PAB_MULTIPLIED]:
        pab_term *= m
    if rules_vec[RV_POIGNEE_TO_WINNER]:
        poignee_term = s * (poignee_attack + poignee_defence)
    else:
        poignee_term = poignee_attack - poignee_defence
    slam_term = 0
    if slam_side == 1:
        slam_term = 400 if slam_announced else 200
    else:
        if slam_announced:
            slam_term -= 200
        if slam_side == -1:
            slam_term -= rules_vec[RV_DEFENCE_SLAM_BONUS]
    value = contract_term + pab_term + poignee_term + slam_term

    n_def = n_active - 1
    if partner >= 0:
        n_def -= 1
    for seat in range(n_seats):
        scores[seat] = 0
        if seat == dummy:
            continue
        if seat == taker:
            scores[seat] = (n_def - (1 if partner >= 0 else 0)) * value
        elif seat == partner:
            scores[seat] = value
        else:
            scores[seat] = -value
    misere_value = rules_vec[RV_MISERE_VALUE]
    for seat in range(n_seats):
        if seat == dummy or miseres[seat] == 0:
            continue
        for other in range(n_seats):
            if other == dummy:
                continue
            if other == seat:
                scores[other] += miseres[seat] * misere_value * (n_active - 1)
            else:
                scores[other] -= miseres[seat] * misere_value

    steps[ST_TARGET_HP] = target_hp
    steps[ST_MADE] = 1 if made else 0
    steps[ST_DIFFERENCE] = s * d
    steps[ST_BASE] = 25 + d
    steps[ST_MULTIPLIER] = m
    steps[ST_CONTRACT_TERM] = contract_term
    steps[ST_PAB_TERM] = pab_term
    steps[ST_POIGNEE_TERM] = poignee_term
    steps[ST_SLAM_TERM] = slam_term
    steps[ST_VALUE] = value


# ---------------------------------------------------------------------------------------------
# The Python front door


@dataclass(frozen=True)
class DealFacts:
    """What a played deal tells the scorer (R-SCORE-5). Seats are 0-based in playing order.

    ``attack_half_points`` is the attack's pile in half-points (P × 2). ``poignees`` is a
    tuple of ``(level, side)``; ``miseres`` a tuple of ``(seat, kind)`` with kind ``atout`` or
    ``tete``. ``chelem`` is a key of :data:`CHELEM_OUTCOMES`.

    Examples
    --------
    Table 5: seat 0 takes a prise and calls seat 3; 50.5 points with 2 oudlers, the Petit in
    the last trick for the attack, a simple poignée shown by the defence:

    >>> from tarotsim.rules import Rules
    >>> facts = DealFacts(Rules("5"), "prise", attack_half_points=101, oudlers=2,
    ...                   taker=0, partner=3, petit_au_bout="attack",
    ...                   poignees=(("simple", "defence"),))
    >>> score(facts).scores
    (130, -65, -65, 65, -65)
    """

    rules: Rules
    contract: str
    attack_half_points: int
    oudlers: int
    taker: int = 0
    partner: int | None = None
    dummy: int | None = None
    petit_au_bout: str | None = None
    poignees: tuple = ()
    chelem: str | None = None
    miseres: tuple = ()


@dataclass(frozen=True)
class ScoreBreakdown:
    """Every step from the facts to the scores (R-COUNT-3, R-COUNT-4, R-SCORE-1, R-SCORE-2, R-MIS-2).

    Examples
    --------
    >>> from tarotsim.rules import Rules
    >>> b = score(DealFacts(Rules("4"), "garde", attack_half_points=90, oudlers=2))
    >>> b.target, b.made, b.difference, b.multiplier, b.value
    (41, True, 4, 2, 58)
    >>> b.to_dict(["Ann", "Bob", "Cy", "Di"])["scores"]
    {'Ann': 174, 'Bob': -58, 'Cy': -58, 'Di': -58}
    """

    facts: DealFacts
    target: int                 # T in points (R-COUNT-3)
    made: bool
    difference: int             # signed: + made, - failed, after rounding (R-COUNT-4)
    base: int                   # 25 + |difference|
    multiplier: int
    contract_term: int          # s × (25 + d) × m
    petit_au_bout_term: int
    poignee_term: int
    chelem_term: int
    value: int                  # V of R-SCORE-1, per defender, from the attack's side
    scores: tuple[int, ...]     # per seat, misères included
    misere_terms: tuple[int, ...]  # per seat, the misère part of ``scores``
    warnings: tuple[str, ...] = field(default=())

    @property
    def attack_points(self) -> str:
        return format_points(self.facts.attack_half_points)

    def to_dict(self, names=None) -> dict:
        names = list(names) if names else [f"P{i + 1}" for i in range(len(self.scores))]
        f = self.facts
        return {
            "table": f.rules.table,
            "contract": f.contract,
            "multiplier": self.multiplier,
            "points": f.attack_half_points / 2,
            "attack_half_points": f.attack_half_points,
            "oudlers": f.oudlers,
            "target": self.target,
            "made": self.made,
            "difference": self.difference,
            "base": self.base,
            "contract_term": self.contract_term,
            "petit_au_bout": f.petit_au_bout,
            "petit_au_bout_term": self.petit_au_bout_term,
            "poignees": [{"level": lv, "side": sd} for lv, sd in f.poignees],
            "poignee_term": self.poignee_term,
            "chelem": f.chelem,
            "chelem_term": self.chelem_term,
            "value": self.value,
            "miseres": [{"player": names[s], "kind": k} for s, k in f.miseres],
            "misere_terms": dict(zip(names, self.misere_terms)),
            "taker": names[f.taker],
            "partner": names[f.partner] if f.partner is not None else None,
            "dummy": names[f.dummy] if f.dummy is not None else None,
            "scores": dict(zip(names, self.scores)),
            "warnings": list(self.warnings),
        }


def parse_points(text) -> int:
    """A number of points such as ``41.5`` -> half-points (83); must be 0..91 in steps of 0.5.

    Examples
    --------
    >>> parse_points("41.5"), parse_points(91)
    (83, 182)
    """
    try:
        x = float(text)
    except (TypeError, ValueError):
        raise ScoringError(f"points must be a number from 0 to 91, not {echo.shown(text)}",
                           ("attack_half_points",)) from None
    hp = x * 2
    if not (0 <= x <= 91) or hp != int(hp):
        raise ScoringError(f"points must be from 0 to 91 in steps of 0.5, not {echo.shown(text)}", ("attack_half_points",))
    return int(hp)


# ---------------------------------------------------------------------------------------------
# Players named by the user, poignées and misères as typed


def check_names(names, n_seats: int | None = None) -> list[str]:
    """Strip and check the player names.

    Player names, stripped and checked: none empty, none holding a character that would break
    the tables they are printed in (a newline, a tab, an escape: :func:`tarotsim.echo.name_fault`),
    no two alike once case is ignored (a player is found by name whatever the case, so ``a`` and
    ``A`` could not be told apart), and exactly ``n_seats`` of them when given. The one check of
    every name a user gives: ``--names``, ``--players`` and a score sheet's header.

    Examples
    --------
    >>> check_names([" Ann", "Bob "], 2)
    ['Ann', 'Bob']
    >>> check_names(["Ann", "ann"])
    Traceback (most recent call last):
    ...
    tarotsim.scoring.ScoringError: names differ only in case: Ann and ann
    """
    names = [str(n).strip() for n in names]
    if any(not n for n in names):
        raise ScoringError("empty player name")
    for n in names:
        if (fault := echo.name_fault(n)) is not None:
            raise ScoringError(f"player name {echo.shown(n)} holds {fault}")
    seen: dict[str, str] = {}
    for n in names:
        other = seen.get(n.casefold())
        if other == n:
            raise ScoringError(f"the same name appears twice: {n}")
        if other is not None:
            raise ScoringError(f"names differ only in case: {other} and {n}")
        seen[n.casefold()] = n
    if n_seats is not None and len(names) != n_seats:
        raise ScoringError(f"the table seats {n_seats} players, got {len(names)} names")
    return names


def seat_of(name, names, what: str = "player") -> int:
    """The seat of ``name`` in ``names`` (checked by :func:`check_names`), case and spaces ignored.

    Examples
    --------
    >>> seat_of(" bob", ["Ann", "Bob"])
    1
    """
    text = str(name).strip()
    for i, n in enumerate(names):
        if n == text or n.casefold() == text.casefold():
            return i
    raise ScoringError(f"{what} {echo.shown(name)} is not one of the players: {', '.join(names)}")


def parse_poignee(text: str) -> tuple[str, str]:
    """``LEVEL:SIDE`` such as ``simple:defence`` -> ``("simple", "defence")``.

    Examples
    --------
    >>> parse_poignee("Double:attack")
    ('double', 'attack')
    """
    level, _, side = str(text).partition(":")
    level, side = level.strip().lower(), side.strip().lower()
    if level not in POIGNEE_LEVELS or side not in SIDES:
        raise ScoringError(f"poignée {echo.shown(text)} must be LEVEL:SIDE, LEVEL simple|double|triple, "
                           f"SIDE attack|defence", ("poignees",))
    return level, side


def parse_misere(text: str, names) -> tuple[int, str]:
    """``PLAYER:KIND`` such as ``Nico:atout`` -> ``(seat, "atout")``.

    Examples
    --------
    >>> parse_misere("Bob:tete", ["Ann", "Bob", "Cy"])
    (1, 'tete')
    """
    who, _, kind = str(text).rpartition(":")
    kind = kind.strip().lower()
    if not who.strip() or kind not in MISERE_KINDS:
        raise ScoringError(f"misère {echo.shown(text)} must be PLAYER:atout or PLAYER:tete", ("miseres",))
    try:
        return seat_of(who, names, "misère player"), kind
    except ScoringError as e:
        raise ScoringError(str(e), ("miseres",)) from None


# ---------------------------------------------------------------------------------------------
# What a deal can hold. check_facts refuses facts that no deal has together; every bound below
# is a necessary condition read off the rules, so no deal that can happen is refused.

#: Half-points of an oudler, and of a low card, the least a card is worth (R-CARD-4, R-CARD-5;
#: ``cards.HALF_POINTS``, the one table of card values).
OUDLER_HP = int(HALF_POINTS[PETIT])
LOW_HP = int(HALF_POINTS.min())
#: The Excuse of a side that won no trick counts 4 points for it, the other side gets the
#: missing 0.5 (R-EXC-2).
EXCUSE_KEPT_HP = OUDLER_HP - LOW_HP
#: Half-points of the 16 kings, queens, knights and jacks, best first (R-CARD-4).
FACE_HP = tuple(sorted((c.half_points for c in DECK if c.suit is not None and c.rank >= JACK), reverse=True))
#: Trumps (the Excuse aside) and face cards in the deck (R-CARD-1).
N_TRUMPS = 21
N_FACES = len(FACE_HP)
#: Cards each active player holds, and cards of the chien (and so of the écart), per table
#: (R-DEAL-1; table 2: 18 in hand and 18 in piles, chien 6, R-VAR-TWO): one trick per card held.
HAND_CARDS = N_TRICKS
CHIEN_CARDS = CHIEN_SIZE


def _least_hp(cards: int, oudlers: int) -> int:
    """The fewest half-points of a pile (R-CARD-4).

    The fewest half-points in a pile of at least ``cards`` cards holding ``oudlers`` oudlers
    (R-CARD-4): the oudlers, and low cards for the rest."""
    return oudlers * OUDLER_HP + max(0, cards - oudlers) * LOW_HP


def _pile_without_tricks(set_aside: int, any_card: bool, oudlers: int) -> tuple[int, int] | None:
    """The half-points of the pile of a side that won no trick.

    Half-points ``(low, high)`` of the pile of a side that won no trick and holds ``oudlers``
    oudlers, or None if it cannot hold that many.

    Such a pile is the ``set_aside`` cards the rules give it (an écart: never a king nor an
    oudler, R-CHIEN-2; a chien: any card, ``any_card``) and, if one of its players held the
    Excuse and played it before the last trick, that Excuse kept at 4 points (R-EXC-2; in the
    last trick it goes to the winner, R-EXC-3).
    """
    faces = FACE_HP if any_card else FACE_HP[4:]
    spans = []
    for kept in (0, 1):
        in_set_aside = oudlers - kept
        room = (3 - kept) if any_card else 0
        if not 0 <= in_set_aside <= min(room, set_aside):
            continue
        rest = set_aside - in_set_aside
        base = kept * EXCUSE_KEPT_HP + in_set_aside * OUDLER_HP
        best = sum(faces[:rest]) + max(0, rest - len(faces)) * LOW_HP
        spans.append((base + rest * LOW_HP, base + best))
    if not spans:
        return None
    return min(lo for lo, _ in spans), max(hi for _, hi in spans)


def attack_points_range(rules: Rules, contract: str, chelem: str | None, oudlers: int) -> tuple[int, int] | None:
    """The attack's half-points a deal with these facts can give.

    The attack's half-points a deal can give with these facts, ``(low, high)`` inclusive, or
    None when no deal gives the attack ``oudlers`` oudlers with this contract and chelem.

    - The attack won every trick (R-SLAM-2): the defence's pile is only the chien at garde contre
      (R-CHIEN-4) and a defender's Excuse kept at 4 points (R-EXC-2).
    - The defence won every trick: the attack's pile is only the écart (prise, garde: R-CHIEN-1,
      R-CHIEN-2) or the chien (garde sans, R-CHIEN-3), nothing at garde contre, and its Excuse
      kept at 4 points.
    - Otherwise each side won a trick of one card per active player, and the écart or chien adds
      to one pile (R-COUNT-1); every card is worth 0.5 at least, an oudler 4.5 (R-CARD-4).

    Examples
    --------
    A garde at table 4 with 2 oudlers gives the attack 13 to 85 points; the chelem made with
    none of them, no deal:

    >>> from tarotsim.rules import Rules
    >>> attack_points_range(Rules("4"), "garde", None, 2)
    (26, 170)
    >>> attack_points_range(Rules("4"), "garde", "made", 0) is None
    True
    """
    set_aside = CHIEN_CARDS[rules.table]
    c = CONTRACT_OF[contract]
    to_attack = set_aside if c.chien_to == "attack" else 0
    _, slam_side = CHELEM_OUTCOMES[chelem]
    if slam_side == 1:
        span = _pile_without_tricks(set_aside - to_attack, True, 3 - oudlers)
        return None if span is None else (DECK_HALF_POINTS - span[1], DECK_HALF_POINTS - span[0])
    if slam_side == -1:
        return _pile_without_tricks(to_attack, not c.ecart_made, oudlers)
    n = rules.n_active
    attack_cards = n + to_attack
    defence_cards = n + set_aside - to_attack
    low = _least_hp(attack_cards, oudlers)
    high = DECK_HALF_POINTS - _least_hp(defence_cards, 3 - oudlers)
    return (low, high) if low <= high else None


def _piles_reason(rules: Rules, contract: str, chelem: str | None) -> str:
    """Why :func:`attack_points_range` bounds the piles as it does, with the rules."""
    c = CHIEN_CARDS[rules.table]
    rule = CONTRACT_OF[contract]
    to = rule.chien_to
    _, slam_side = CHELEM_OUTCOMES[chelem]
    if slam_side == 1:
        chien = "the chien (R-CHIEN-4) and " if to == "defence" else ""
        return (f"the attack won every trick (R-SLAM-2), so the defence's pile holds only {chien}"
                f"the Excuse if a defender played it, kept at 4 points (R-EXC-2)")
    if slam_side == -1:
        if rule.ecart_made:
            aside = f"the écart of {c} cards, never a king nor an oudler (R-CHIEN-1, R-CHIEN-2), and "
        else:
            aside = f"the chien of {c} cards (R-CHIEN-3) and " if to == "attack" else ""
        tail = ", the chien going to the defence (R-CHIEN-4)" if to == "defence" else ""
        return (f"the defence won every trick (R-SLAM-2), so the attack's pile holds only {aside}"
                f"its Excuse if it played it, kept at 4 points (R-EXC-2){tail}")
    n = rules.n_active
    aside = "écart" if rule.ecart_made else "chien"
    attack_cards = n + (c if to == "attack" else 0)
    defence_cards = n + (c if to == "defence" else 0)
    return (f"each side won at least one trick of {n} cards (else it is a chelem, R-SLAM-2) and the {aside} "
            f"of {c} cards counts for the {to} (R-COUNT-1), so the attack's pile holds at least "
            f"{attack_cards} cards and the defence's {defence_cards}; an oudler is worth 4.5 points and "
            f"any other card 0.5 at least (R-CARD-4)")


def _points_between(low: int, high: int) -> str:
    return f"exactly {format_points(low)}" if low == high else f"from {format_points(low)} to {format_points(high)}"


def _is_int(x) -> TypeGuard[int | np.integer]:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _check_points(facts: DealFacts) -> None:
    """P and k against the contract and the chelem (docs/rules.md §1, §5, §7, §8, §11)."""
    r, k, hp = facts.rules, int(facts.oudlers), int(facts.attack_half_points)
    chelem_text = f"chelem {facts.chelem}" if facts.chelem else "no chelem"
    where = f"{facts.contract} with {chelem_text}"
    slam = CHELEM_OUTCOMES[facts.chelem][1] != 0
    why = _piles_reason(r, facts.contract, facts.chelem)
    span = attack_points_range(r, facts.contract, facts.chelem, k)
    if span is None:
        possible = [j for j in range(4) if attack_points_range(r, facts.contract, facts.chelem, j)]
        raise ScoringError(
            f"{where}: the attack cannot hold {k} oudler(s), only {' or '.join(map(str, possible))}: {why}",
            ("chelem", "oudlers") if slam else ("oudlers",))
    low, high = span
    if low <= hp <= high:
        return
    hint = ""
    if not slam:  # the missing fact may be the chelem itself
        announced = facts.chelem == "announced_failed"
        for name, side in (("made", "the defence"), ("defence", "the attack")):
            name = ("announced_" + name) if announced else name
            other = attack_points_range(r, facts.contract, name, k)
            if other and other[0] <= hp <= other[1]:
                hint = f"; if {side} won no trick, that is the chelem {name} (R-SLAM-2)"
    raise ScoringError(
        f"{where}: the attack's points with {k} oudler(s) must be {_points_between(low, high)}, "
        f"not {format_points(hp)}: {why}{hint}",
        ("chelem", "attack_half_points") if slam else ("attack_half_points", "oudlers"))


def _check_petit_au_bout(facts: DealFacts) -> None:
    """The side of the petit au bout won the last trick, which held the Petit (R-PAB-1, R-CARD-3)."""
    pab = facts.petit_au_bout
    if pab is None:
        return
    slam_side = CHELEM_OUTCOMES[facts.chelem][1]
    loser = {1: "defence", -1: "attack"}.get(slam_side)
    if pab == loser:
        raise ScoringError(
            f"petit au bout for the {pab} with chelem {facts.chelem}: the {pab} won no trick, so not the last "
            f"one (R-PAB-1, R-SLAM-2)", ("petit_au_bout", "chelem"))
    if pab == "attack" and facts.oudlers < 1:
        raise ScoringError("petit au bout for the attack puts the Petit, an oudler, in its pile: it cannot "
                           "have 0 oudlers (R-PAB-1, R-CARD-3)", ("petit_au_bout", "oudlers"))
    if pab == "defence" and facts.oudlers > 2:
        raise ScoringError("petit au bout for the defence puts the Petit, an oudler, in its pile: the attack "
                           "cannot have all 3 oudlers (R-PAB-1, R-CARD-3)", ("petit_au_bout", "oudlers"))


def _misere_seats(facts: DealFacts, kind: str) -> set[int]:
    return {seat for seat, k in facts.miseres if k == kind}


def _check_poignees(facts: DealFacts) -> None:
    """Check the poignées of a deal's facts.

    At most one poignée per player (R-POIG-2), none by a player without trumps (misère
    d'atout, R-MIS-1, R-POIG-3), and no more trumps shown than the deck holds (R-POIG-3)."""
    if not facts.poignees:
        return
    r = facts.rules
    attack = {facts.taker} | ({facts.partner} if facts.partner is not None else set())
    players = {"attack": len(attack), "defence": r.n_active - len(attack)}
    no_trump = _misere_seats(facts, "atout")
    for side in SIDES:
        count = sum(1 for _, s in facts.poignees if s == side)
        without = len({s for s in no_trump if (s in attack) == (side == "attack")})
        if count > players[side] - without:
            alone = " (the taker alone)" if side == "attack" and len(attack) == 1 and r.table == "5" else ""
            if without:
                raise ScoringError(
                    f"{count} poignée(s) for the {side}, which has {players[side]} player(s){alone}, {without} of "
                    f"them with a misère d'atout and so no trump to show (R-POIG-2, R-POIG-3, R-MIS-1)",
                    ("poignees", "miseres"))
            raise ScoringError(f"{count} poignées for the {side}, which has {players[side]} player(s){alone} "
                               f"(R-POIG-2)", ("poignees", "partner") if r.table == "5" else ("poignees",))
    sizes = r.poignee_sizes
    assert sizes is not None  # check_facts refused poignées at table 2 (R-VAR-TWO)
    shown = sum(sizes[POIGNEE_LEVELS.index(lv)] for lv, _ in facts.poignees)
    if shown > N_TRUMPS + 1:
        raise ScoringError(f"these poignées show {shown} cards; there are only 21 trumps and the Excuse (R-POIG-3)",
                           ("poignees",))


def _check_misere_counts(facts: DealFacts) -> None:
    """Check that the misères leave room for the other hands' cards.

    Misères must leave room for the trumps and the face cards in the other hands and the
    chien (R-MIS-1, R-DEAL-1): a hand judged "no trump" or "no face card" holds none of them."""
    if not facts.miseres:
        return
    r = facts.rules
    hand, chien = HAND_CARDS[r.table], CHIEN_CARDS[r.table]
    trumps = N_TRUMPS + (1 if r.misere_excuse_is_trump else 0)  # the Excuse bars misère d'atout too
    atout, tete = _misere_seats(facts, "atout"), _misere_seats(facts, "tete")
    for barred, cards, what in ((atout, trumps, "trumps"), (tete, N_FACES, "face cards"),
                                (atout & tete, trumps + N_FACES, "trumps and face cards")):
        room = (r.n_active - len(barred)) * hand + chien
        if barred and cards > room:
            raise ScoringError(
                f"{len(barred)} player(s) declared misère of {what}: the {cards} {what} do not fit in the other "
                f"hands and the chien ({room} cards) (R-MIS-1, R-DEAL-1)", ("miseres",))


def check_facts(facts: DealFacts) -> list[str]:
    """Raise ScoringError for facts no deal can have; return warnings for odd but scorable ones.

    First each fact on its own, then the facts against each other: petit au bout and chelem
    (R-PAB-1), the attack's points and oudlers against the contract and chelem
    (:func:`attack_points_range`), poignées against the players (R-POIG-2, R-POIG-3), misères
    against the deck (R-MIS-1). The message names the rules; ``ScoringError.fields`` the facts.

    Examples
    --------
    >>> from tarotsim.rules import Rules
    >>> check_facts(DealFacts(Rules("4"), "garde", 90, oudlers=2))
    []
    >>> for line in check_facts(DealFacts(Rules("4"), "garde", 83, oudlers=2)):
    ...     print(line)
    warning: 41.5 points has a half point, which card play cannot give at table 4 (R-COUNT-5); scored anyway by R-COUNT-4
    """
    r = facts.rules
    warnings = []
    if facts.contract not in CONTRACTS:
        raise ScoringError(f"unknown contract {echo.shown(facts.contract)}: choose one of {', '.join(CONTRACTS)}",
                           ("contract",))
    if not (_is_int(facts.oudlers) and 0 <= facts.oudlers <= 3):
        raise ScoringError(f"oudlers must be 0, 1, 2 or 3, not {echo.shown(facts.oudlers)}", ("oudlers",))
    hp = facts.attack_half_points
    if not (_is_int(hp) and 0 <= hp <= DECK_HALF_POINTS):
        raise ScoringError(f"attack points must be from 0 to 91, not {echo.shown(hp)} half-points", ("attack_half_points",))
    if hp % 2 and r.table in ("4", "5d"):
        warnings.append(
            f"warning: {format_points(hp)} points has a half point, which card play cannot give at "
            f"table {r.table} (R-COUNT-5); scored anyway by R-COUNT-4")
    n = r.n_seats
    if not (_is_int(facts.taker) and 0 <= facts.taker < n):
        raise ScoringError(f"taker seat {echo.shown(facts.taker)} is not at a table of {n}", ("taker",))
    if facts.partner is not None:
        if r.table != "5":
            raise ScoringError(f"a partner is called only at table 5, not at table {r.table} (R-CALL-1)",
                               ("partner",))
        if not (_is_int(facts.partner) and 0 <= facts.partner < n) or facts.partner == facts.taker:
            raise ScoringError("the partner must be another player at the table (R-CALL-2)", ("partner",))
    if r.table == "5d":
        if not (_is_int(facts.dummy) and 0 <= facts.dummy < n):
            raise ScoringError("table 5d needs the dummy's seat (R-DEAL-6)", ("dummy",))
        if facts.dummy in (facts.taker, facts.partner):
            raise ScoringError("the dummy neither takes nor partners (R-DEAL-6)", ("dummy",))
    elif facts.dummy is not None:
        raise ScoringError(f"only table 5d has a dummy, not table {r.table}", ("dummy",))
    if facts.petit_au_bout not in (None, "attack", "defence"):
        raise ScoringError(f"petit au bout is attack or defence, not {echo.shown(facts.petit_au_bout)}", ("petit_au_bout",))
    if facts.chelem not in CHELEM_OUTCOMES:
        raise ScoringError(
            f"unknown chelem {echo.shown(facts.chelem)}: choose one of {', '.join(k for k in CHELEM_OUTCOMES if k)}",
            ("chelem",))
    for level, side in facts.poignees:
        if r.table == "2":
            raise ScoringError("there is no poignée at table 2 (R-VAR-TWO)", ("poignees",))
        if level not in POIGNEE_LEVELS:
            raise ScoringError(f"poignée level is simple, double or triple, not {echo.shown(level)}", ("poignees",))
        if side not in SIDES:
            raise ScoringError(f"poignée side is attack or defence, not {echo.shown(side)}", ("poignees",))
    for seat, kind in facts.miseres:
        if r.table == "2":
            raise ScoringError("there is no misère at table 2 (R-VAR-TWO)", ("miseres",))
        if not r.misere:
            raise ScoringError("misère needs the option misere=on (R-MIS-1)", ("miseres",))
        if kind not in MISERE_KINDS:
            raise ScoringError(f"misère is atout or tete, not {echo.shown(kind)}", ("miseres",))
        if not (_is_int(seat) and 0 <= seat < n) or seat == facts.dummy:
            raise ScoringError(f"misère by seat {echo.shown(seat)}, who is not an active player", ("miseres",))
    if len(set(facts.miseres)) != len(facts.miseres):
        raise ScoringError("each misère can be declared once per player (R-MIS-1)", ("miseres",))
    _check_petit_au_bout(facts)
    _check_points(facts)
    _check_poignees(facts)
    _check_misere_counts(facts)
    return warnings


def score(facts: DealFacts) -> ScoreBreakdown:
    """Check the facts, score them with :func:`score_core`, and explain every step.

    Examples
    --------
    >>> from tarotsim.rules import Rules
    >>> facts = DealFacts(Rules("4"), "garde", attack_half_points=90, oudlers=2)
    >>> score(facts).scores
    (174, -58, -58, -58)
    """
    warnings = check_facts(facts)
    r = facts.rules
    n = r.n_seats
    bonus = {"attack": 0, "defence": 0}
    for level, side in facts.poignees:
        bonus[side] += POIGNEE_BONUS[POIGNEE_LEVELS.index(level)]
    announced, slam_side = CHELEM_OUTCOMES[facts.chelem]
    miseres = np.zeros(n, dtype=np.int64)
    for seat, _ in facts.miseres:
        miseres[seat] += 1
    steps = np.zeros(ST_LEN, dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)
    vec = r.to_vector()
    pab = {"attack": 1, "defence": -1, None: 0}[facts.petit_au_bout]
    partner = -1 if facts.partner is None else facts.partner
    dummy = -1 if facts.dummy is None else facts.dummy
    args = (vec, CONTRACTS.index(facts.contract), int(facts.attack_half_points), facts.oudlers, pab,
            bonus["attack"], bonus["defence"], announced, slam_side, facts.taker, partner, dummy)
    score_core(*args, miseres, steps, scores)
    # the misère part alone, to show it as its own step
    plain = np.zeros(n, dtype=np.int64)
    score_core(*args, np.zeros(n, dtype=np.int64), np.zeros(ST_LEN, dtype=np.int64), plain)
    total = int(scores.sum())
    if total != 0:  # R-SCORE-3: cannot happen; a loud failure beats a wrong sheet
        raise AssertionError(f"scores {scores.tolist()} do not sum to zero (R-SCORE-3)")
    return ScoreBreakdown(
        facts=facts,
        target=int(steps[ST_TARGET_HP]) // 2,
        made=bool(steps[ST_MADE]),
        difference=int(steps[ST_DIFFERENCE]),
        base=int(steps[ST_BASE]),
        multiplier=int(steps[ST_MULTIPLIER]),
        contract_term=int(steps[ST_CONTRACT_TERM]),
        petit_au_bout_term=int(steps[ST_PAB_TERM]),
        poignee_term=int(steps[ST_POIGNEE_TERM]),
        chelem_term=int(steps[ST_SLAM_TERM]),
        value=int(steps[ST_VALUE]),
        scores=tuple(int(x) for x in scores),
        misere_terms=tuple(int(a - b) for a, b in zip(scores, plain)),
        warnings=tuple(warnings),
    )


def score_limit(rules: Rules) -> int:
    """The largest score, in absolute value, any seat can get in one deal under ``rules``.

    A bound no deal passes (R-SCORE-1, R-SCORE-2): :func:`score_core` on the extreme facts of
    every contract at once (91 points with every oudler or none at all, the petit au bout, every
    active seat's triple poignée on one side, every chelem outcome, the taker alone), plus two
    misères' worth for the seat (R-MIS-2) when the variant allows them. A score beyond it is no
    deal's score under these rules.

    Examples
    --------
    >>> from tarotsim.rules import Rules
    >>> score_limit(Rules("4")), score_limit(Rules("5", misere=True))
    (3318, 4664)
    """
    vec = rules.to_vector()
    n, n_active = rules.n_seats, int(vec[RV_N_ACTIVE])
    dummy = n - 1 if n_active < n else -1  # 5d: the dealer sits out, the taker (seat 0) plays
    poignees = n_active * max(POIGNEE_BONUS)
    steps, scores, no_misere = (np.zeros(ST_LEN, dtype=np.int64), np.zeros(n, dtype=np.int64),
                                np.zeros(n, dtype=np.int64))
    worst = 0
    for contract in range(len(CONTRACTS)):
        for attack_hp, oudlers in ((0, 0), (2 * 91, 3)):
            for pab in (-1, 1):
                for attack, defence in ((poignees, 0), (0, poignees)):
                    for announced, side in CHELEM_OUTCOMES.values():
                        score_core(vec, contract, attack_hp, oudlers, pab, attack, defence, announced, side, 0, -1,
                                   dummy, no_misere, steps, scores)
                        worst = max(worst, int(np.abs(scores).max()))
    return worst + (2 * rules.misere_value * (n_active - 1) if rules.misere else 0)


def format_breakdown(b: ScoreBreakdown, names=None) -> str:
    """A short readable table of the steps, for the terminal.

    Examples
    --------
    >>> from tarotsim.rules import Rules
    >>> b = score(DealFacts(Rules("4"), "garde", attack_half_points=90, oudlers=2))
    >>> print(format_breakdown(b, ["Ann", "Bob", "Cy", "Di"]))
    contract       garde (x2)
    attack points  45 with 2 oudler(s)
    target         41  (R-COUNT-3)
    result         made by 4  (R-COUNT-4)
    contract term  +(25 + 4) x 2 = +58
    value V        +58 per defender
    <BLANKLINE>
    Ann  taker       +174
    Bob  defender     -58
    Cy   defender     -58
    Di   defender     -58
    """
    f = b.facts
    names = list(names) if names else [f"P{i + 1}" for i in range(len(b.scores))]
    sign = "+" if b.made else "-"
    rows = [
        ("contract", f"{f.contract} (x{b.multiplier})"),
        ("attack points", f"{b.attack_points} with {f.oudlers} oudler(s)"),
        ("target", f"{b.target}  (R-COUNT-3)"),
        ("result", f"{'made' if b.made else 'failed'} by {abs(b.difference)}  (R-COUNT-4)"),
        ("contract term", f"{sign}(25 + {abs(b.difference)}) x {b.multiplier} = {b.contract_term:+d}"),
    ]
    if f.petit_au_bout:
        rows.append(("petit au bout", f"{f.petit_au_bout}: {b.petit_au_bout_term:+d}"))
    if f.poignees:
        shown = ", ".join(f"{lv} ({sd})" for lv, sd in f.poignees)
        rows.append(("poignée", f"{shown}: {b.poignee_term:+d} (not multiplied)"))
    if f.chelem:
        rows.append(("chelem", f"{f.chelem}: {b.chelem_term:+d}"))
    rows.append(("value V", f"{b.value:+d} per defender"))
    if f.miseres:
        shown = ", ".join(f"{names[s]} {k}" for s, k in f.miseres)
        rows.append(("misère", shown))
    width = max(len(k) for k, _ in rows)
    out = [f"{k.ljust(width)}  {v}" for k, v in rows]
    out.append("")
    roles = {}
    for seat in range(len(b.scores)):
        if seat == f.taker:
            roles[seat] = "taker"
        elif seat == f.partner:
            roles[seat] = "partner"
        elif seat == f.dummy:
            roles[seat] = "dummy"
        else:
            roles[seat] = "defender"
    nw = max(len(x) for x in names)
    for seat, sc in enumerate(b.scores):
        extra = f"  (misère {b.misere_terms[seat]:+d})" if b.misere_terms[seat] else ""
        out.append(f"{names[seat].ljust(nw)}  {roles[seat]:<8}  {sc:+6d}{extra}")
    return "\n".join(out)
