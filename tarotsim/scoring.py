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

import numpy as np

from .cards import DECK_HALF_POINTS, format_points
from .rules import (CONTRACTS, MULTIPLIERS, POIGNEE_BONUS, POIGNEE_LEVELS, RV_DEFENCE_SLAM_BONUS,
                    RV_MISERE_VALUE, RV_N_ACTIVE, RV_N_SEATS, RV_PAB_MULTIPLIED, RV_POIGNEE_TO_WINNER,
                    TARGETS, Rules)

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
    """Facts that cannot describe a deal (the message names the fact)."""


def score_core(rules_vec, contract, attack_hp, oudlers, pab, poignee_attack, poignee_defence,
               slam_announced, slam_side, taker, partner, dummy, miseres, steps, scores):
    """Score one deal from its facts, in integers (R-COUNT-3/4, R-PAB, R-POIG-4, R-SLAM-3, R-SCORE, R-MIS-2).

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
    """
    n_seats = rules_vec[RV_N_SEATS]
    n_active = rules_vec[RV_N_ACTIVE]
    m = 1
    if contract == 1:
        m = 2
    elif contract == 2:
        m = 4
    elif contract == 3:
        m = 6
    target_hp = 112
    if oudlers == 1:
        target_hp = 102
    elif oudlers == 2:
        target_hp = 82
    elif oudlers == 3:
        target_hp = 72
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
    """Every step from the facts to the scores (R-COUNT-3 … R-SCORE-2, R-MIS-2)."""

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
    """A number of points such as ``41.5`` -> half-points (83); must be 0..91 in steps of 0.5."""
    try:
        x = float(text)
    except (TypeError, ValueError):
        raise ScoringError(f"points must be a number from 0 to 91, not {text!r}") from None
    hp = x * 2
    if not (0 <= x <= 91) or hp != int(hp):
        raise ScoringError(f"points must be from 0 to 91 in steps of 0.5, not {text!r}")
    return int(hp)


def check_facts(facts: DealFacts) -> list[str]:
    """Raise ScoringError for facts no deal can have; return warnings for odd but scorable ones."""
    r = facts.rules
    warnings = []
    if facts.contract not in CONTRACTS:
        raise ScoringError(f"unknown contract {facts.contract!r}: choose one of {', '.join(CONTRACTS)}")
    if not (isinstance(facts.oudlers, int) and 0 <= facts.oudlers <= 3):
        raise ScoringError(f"oudlers must be 0, 1, 2 or 3, not {facts.oudlers!r}")
    hp = facts.attack_half_points
    if not (isinstance(hp, (int, np.integer)) and 0 <= hp <= DECK_HALF_POINTS):
        raise ScoringError(f"attack points must be from 0 to 91, not {hp!r} half-points")
    # each oudler is 4.5 points, the Excuse 4 after an exchange (R-EXC-2): bounds on both piles
    if hp < 9 * facts.oudlers - 1 or DECK_HALF_POINTS - hp < 9 * (3 - facts.oudlers) - 1:
        raise ScoringError(
            f"{format_points(hp)} points cannot hold {facts.oudlers} oudler(s) "
            f"(each oudler is worth 4.5 points, R-CARD-4)")
    if hp % 2 and r.table in ("4", "5d"):
        warnings.append(
            f"warning: {format_points(hp)} points has a half point, which card play cannot give at "
            f"table {r.table} (R-COUNT-5); scored anyway by R-COUNT-4")
    n = r.n_seats
    if not 0 <= facts.taker < n:
        raise ScoringError(f"taker seat {facts.taker} is not at a table of {n}")
    if facts.partner is not None:
        if r.table != "5":
            raise ScoringError(f"a partner is called only at table 5, not at table {r.table} (R-CALL-1)")
        if not 0 <= facts.partner < n or facts.partner == facts.taker:
            raise ScoringError("the partner must be another player at the table (R-CALL-2)")
    if r.table == "5d":
        if facts.dummy is None or not 0 <= facts.dummy < n:
            raise ScoringError("table 5d needs the dummy's seat (R-DEAL-6)")
        if facts.dummy in (facts.taker, facts.partner):
            raise ScoringError("the dummy neither takes nor partners (R-DEAL-6)")
    elif facts.dummy is not None:
        raise ScoringError(f"only table 5d has a dummy, not table {r.table}")
    if facts.petit_au_bout not in (None, "attack", "defence"):
        raise ScoringError(f"petit au bout is attack or defence, not {facts.petit_au_bout!r}")
    if facts.chelem not in CHELEM_OUTCOMES:
        raise ScoringError(
            f"unknown chelem {facts.chelem!r}: choose one of {', '.join(k for k in CHELEM_OUTCOMES if k)}")
    for level, side in facts.poignees:
        if r.table == "2":
            raise ScoringError("there is no poignée at table 2 (R-VAR-TWO)")
        if level not in POIGNEE_LEVELS:
            raise ScoringError(f"poignée level is simple, double or triple, not {level!r}")
        if side not in SIDES:
            raise ScoringError(f"poignée side is attack or defence, not {side!r}")
    for seat, kind in facts.miseres:
        if not r.misere or r.table == "2":
            raise ScoringError("misère needs the option misere=on (R-MIS-1)")
        if kind not in MISERE_KINDS:
            raise ScoringError(f"misère is atout or tete, not {kind!r}")
        if not 0 <= seat < n or seat == facts.dummy:
            raise ScoringError(f"misère by seat {seat}, who is not an active player")
    if len(set(facts.miseres)) != len(facts.miseres):
        raise ScoringError("each misère can be declared once per player")
    return warnings


def score(facts: DealFacts) -> ScoreBreakdown:
    """Check the facts, score them with :func:`score_core`, and explain every step."""
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


def format_breakdown(b: ScoreBreakdown, names=None) -> str:
    """A short readable table of the steps, for the terminal."""
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
