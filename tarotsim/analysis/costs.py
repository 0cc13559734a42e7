"""What each card of a played deal cost against best play: the exact solver's post-mortem.

:func:`analyse` replays a deal record (docs/records.md) and, from a trick on, solves the position before
every card with every card known (``tarotsim.analysis.solver``): the value of the deal with best play from
there, and the value each legal card keeps. A card's *cost* is what it loses against the best card
for its side (0 for a best card): in half-points of the attack's card points (``mode="points"``)
or in points of the taker's score (``mode="score"``). A card that was the only legal one is
*forced*: it costs 0 whatever the budget. A card whose position the solver could not value within
the budget has no cost, and each seat's total leaves it out (a lower bound, with the count of
such cards). The tricks before ``from_trick`` are left
unmarked: by default the first trick whose position the solver values within ``budget`` nodes
(a count, so the output is reproducible), found from the last trick backwards.

``tarotsim analyse`` (``tarotsim.cli``) prints it for a recorded or replayed deal;
``tarotsim play --analyse`` prints the same post-mortem after each finished deal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..cards import Card, format_points
from ..echo import paragraph
from ..rules import SOLVER_TABLES
from .solver import MODES, TABLE_TWO, Position, Solver, SolverError

__all__ = ["DEFAULT_BUDGET", "Analysis", "AnalysisError", "CardVerdict", "analyse", "best_cards", "card_costs",
           "check_analysable", "format_analysis", "nodes_text"]

#: The default budget of one question, in nodes (cards the search tries).
DEFAULT_BUDGET = 2_000_000


class AnalysisError(ValueError):
    """A record that cannot be analysed (not a played deal, table 2, a bad record), or a bad argument."""


@dataclass(frozen=True)
class CardVerdict:
    """The verdict on one card played: the deal's value before it and what the card cost.

    One card played: ``trick`` and ``position`` 0-based, the seat and its side, the value of the
    deal before it (``value``), what the card kept (``after``) and lost (``cost``, 0 for a best card),
    the best cards when it was not one of them; ``forced``: it was the only legal card (cost 0).
    ``value`` and ``after`` are None when the budget ran out, and so is ``cost`` unless forced."""

    trick: int
    position: int
    seat: int
    side: str
    card: Card
    value: int | None
    after: int | None
    cost: int | None
    best: tuple[Card, ...] = ()
    forced: bool = False


@dataclass(frozen=True)
class Analysis:
    """The analysis of a deal: each card's verdict, the trick values and each seat's total cost.

    :func:`analyse`'s answer: the verdict on each card from ``from_trick`` (0-based) on, the exact
    value of the deal at the start of each of those tricks (``values``, by trick index) and at the
    end (``final``), each seat's total cost (``lost``: at least that much when ``not_solved`` counts
    some of its cards the budget left without a cost), the nodes searched; ``chosen``: ``from_trick``
    is the first trick solved within the budget; the deal's ``taker``, ``contract`` and ``partner``
    (table 5: the called card's holder, None when the taker called its own card or elsewhere)."""

    mode: str
    from_trick: int
    budget: int
    cards: list[CardVerdict]
    values: dict[int, int | None]
    final: int
    lost: list[int]
    nodes: int
    chosen: bool = False
    taker: int = -1
    contract: str = ""
    partner: int | None = None
    not_solved: tuple[int, ...] = ()

    def to_json(self) -> dict:
        """The analysis as JSON values (cards by name)."""
        cards = []
        for v in self.cards:
            d = asdict(v)
            d["card"] = str(v.card)
            d["best"] = [str(c) for c in v.best]
            cards.append(d)
        unit = "half-points of the attack" if self.mode == "points" else "points of the taker's score"
        return {"mode": self.mode, "unit": unit, "taker": self.taker, "contract": self.contract,
                "partner": self.partner, "from_trick": self.from_trick + 1, "from_trick_chosen": self.chosen,
                "budget": self.budget,
                "values": {str(t + 1): v for t, v in self.values.items()}, "final": self.final,
                "lost": self.lost, "not_solved": list(self.not_solved), "nodes": self.nodes,
                "cards": cards}


def check_analysable(record: dict) -> None:
    """Refuse a record :func:`analyse` cannot analyse, before any search is compiled or run.

    Raises
    ------
    AnalysisError
        A bad record, a deal not played (every seat passed), table 2 (R-VAR-TWO).
    """
    _deal_of(record)


def _deal_of(record: dict):
    from ..record import RecordError, replay

    try:
        deal = replay(record).deal
    except RecordError as e:
        raise AnalysisError(f"bad record: {e}") from None
    if deal.outcome != "played":
        raise AnalysisError(f"the deal was not played ({str(deal.outcome).replace('_', ' ')}): no card to analyse")
    if deal.table not in SOLVER_TABLES:
        raise AnalysisError(TABLE_TWO)
    return deal


def _first_solved(solver: Solver, deal, budget: int) -> int:
    """The earliest trick from which the solver values the deal within the budget.

    The earliest trick whose position before its first card the solver values within ``budget``
    nodes, trying from the last trick backwards (the table kept from one to the next)."""
    first = deal.n_tricks - 1
    for t in range(deal.n_tricks - 1, -1, -1):
        if solver.solve(Position.from_deal(deal, t, 0), cards=False, budget=budget).value is None:
            break
        first = t
    return first


def analyse(record: dict, mode: str = "points", from_trick: int | None = None, budget: int = DEFAULT_BUDGET,
            table_bits: int = 18) -> Analysis:
    """Analyse a deal record: the exact cost of every card played from one trick on.

    The exact cost of every card of ``record`` from trick ``from_trick`` (0-based; None: the first
    trick solved within ``budget`` nodes) on; see the module docstring.

    Raises
    ------
    AnalysisError
        A bad record, a deal not played, table 2, a trick out of range, a bad mode or budget.
    """
    if mode not in MODES:
        raise AnalysisError(f"unknown mode {mode!r}: points or score")
    deal = _deal_of(record)
    n = deal.n_tricks
    if from_trick is not None and not (isinstance(from_trick, int) and 0 <= from_trick < n):
        raise AnalysisError(f"trick {from_trick + 1 if isinstance(from_trick, int) else from_trick!r}: the deal "
                            f"has tricks 1..{n}")
    try:
        solver = Solver(mode, table_bits=table_bits, budget=budget)
    except SolverError as e:
        raise AnalysisError(str(e)) from None
    start = _first_solved(solver, deal, budget) if from_trick is None else from_trick
    verdicts: list[CardVerdict] = []
    values: dict[int, int | None] = {}
    lost = [0] * deal.n_seats
    not_solved = [0] * deal.n_seats
    guess = None
    for t in range(start, n):
        trick = deal.tricks[t]
        for j, (seat, card) in enumerate(trick.plays):
            pos = Position.from_deal(deal, t, j)
            sol = solver.solve(pos, guess=guess)
            forced = len(pos.legal_cards()) == 1
            if j == 0:
                values[t] = sol.value
            if not sol.complete:
                not_solved[seat] += not forced
                verdicts.append(CardVerdict(t, j, seat, sol.side, card, None, None, 0 if forced else None,
                                            forced=forced))
                guess = None
                continue
            cost = sol.cost(card)
            lost[seat] += cost
            after = sol.card_values[card]
            verdicts.append(CardVerdict(t, j, seat, sol.side, card, sol.value, after, cost,
                                        sol.best if cost else (), forced))
            guess = after
    final = deal.attack_half_points if mode == "points" else deal.scores[deal.taker]
    return Analysis(mode=mode, from_trick=start, budget=budget, cards=verdicts, values=values, final=final,
                    lost=lost, nodes=solver.nodes, chosen=from_trick is None, taker=deal.taker,
                    contract=deal.contract, partner=deal.partner, not_solved=tuple(not_solved))


def card_costs(a: Analysis, record: dict) -> list[list[int | None]]:
    """The costs of the cards of ``record`` as a replay page shows them (``card_costs``).

    Per trick, per card in playing order, the half-points the card lost against best play (0 for a
    best card), None where the analysis has no verdict (tricks before ``a.from_trick``, a budget run
    out): the record field ``card_costs`` of :mod:`tarotsim.analysis.replay_page`. Points mode only."""
    if a.mode != "points":
        raise AnalysisError(f"a page shows the cards' costs in card points, not in mode {a.mode!r}")
    costs: list[list[int | None]] = [[None] * len(t["cards"]) for t in record.get("tricks") or []]
    for v in a.cards:
        costs[v.trick][v.position] = v.cost
    return costs


def best_cards(a: Analysis, record: dict) -> list[list[list[str]]]:
    """The cards that were best instead of each card of ``record``, as a replay page shows them.

    Per trick, per card in playing order, the names of the best cards when the card cost
    something, else an empty list: the record field ``best_cards`` of :mod:`tarotsim.analysis.replay_page`."""
    best: list[list[list[str]]] = [[[] for _ in t["cards"]] for t in record.get("tricks") or []]
    for v in a.cards:
        best[v.trick][v.position] = [str(c) for c in v.best]
    return best


def _amount(x: int | None, mode: str) -> str:
    if x is None:
        return "?"
    return format_points(x) if mode == "points" else f"{x:+d}"


def nodes_text(n: int) -> str:
    """``1 node``, ``2,000,000 nodes``."""
    return f"{n:,} node" + ("" if n == 1 else "s")


def _lost(a: Analysis, seat: int, name: str) -> str:
    """One seat's total: ``Emma 3``, or ``Emma at least 3 (1 card not solved)``."""
    k = a.not_solved[seat]
    if not k:
        return f"{name} {_amount(a.lost[seat], a.mode)}"
    return f"{name} at least {_amount(a.lost[seat], a.mode)} ({k} card{'' if k == 1 else 's'} not solved)"


def format_analysis(a: Analysis, names: list[str] | None = None, you: int | None = None) -> str:
    """The analysis, readable: per trick its exact value, then every card with its cost.

    ``you``: the seat of the person reading it (`tarotsim play`), named ``you``: "you take"."""
    n_seats = len(a.lost)
    names = names or [f"seat {s}" for s in range(n_seats)]
    unit = "attack's points" if a.mode == "points" else "taker's score"
    w = max(len(x) for x in names)
    head = f"Exact analysis ({unit}, every card known, best play by both sides)"
    if a.from_trick:
        how = f", the first the solver values within {nodes_text(a.budget)}" if a.chosen else ""
        head += f" from trick {a.from_trick + 1}{how}; tricks 1..{a.from_trick} are not analysed"
    out = paragraph(head + ".")
    if a.contract:
        partner = "" if a.partner is None else f", {names[a.partner]} as partner"
        verb = "take" if a.taker == you else "takes"
        out.append(f"{names[a.taker]} {verb} a {a.contract.replace('_', ' ')}{partner}.")
    tricks: dict[int, list[CardVerdict]] = {}
    for v in a.cards:
        tricks.setdefault(v.trick, []).append(v)
    for t, cards in tricks.items():
        out.append("")
        out.append(f"trick {t + 1}: value {_amount(a.values.get(t), a.mode)}")
        for v in cards:
            who = names[v.seat].ljust(w)
            if v.forced:
                out.append(f"  {who}  {v.card.pretty():4s} forced")
            elif v.cost is None:
                out.append(f"  {who}  {v.card.pretty():4s} not solved within {nodes_text(a.budget)}")
            elif v.cost == 0:
                out.append(f"  {who}  {v.card.pretty():4s} best")
            else:
                best = " ".join(c.pretty() for c in v.best)
                out.append(f"  {who}  {v.card.pretty():4s} costs {_amount(v.cost, a.mode)} (best: {best})")
    out.append("")
    out.append(f"end of the deal: {_amount(a.final, a.mode)}")
    out.append("lost against best play: " + ", ".join(_lost(a, s, names[s]) for s in range(n_seats)))
    return "\n".join(out)
