"""Human-readable rendering of a deal record (docs/records.md) for ``tarotsim show`` and ``replay``."""

from __future__ import annotations

from .cards import DECK_HALF_POINTS, SUIT_SYMBOLS, Card, format_points
from .rules import CONTRACT_OF, TARGETS


def display_order(names) -> list[Card]:
    """A hand in the order a player holds it.

    A hand as a player holds it (the text view and the pictures alike): trumps high to low,
    the Excuse, then each suit (♠ ♥ ♦ ♣) high to low."""
    cards = sorted((Card.parse(n) for n in names), reverse=True)
    return ([c for c in cards if c.is_trump] + [c for c in cards if c.is_excuse]
            + [c for s in range(4) for c in cards if c.suit == s])


def hand_by_suit(names) -> str:
    """``T21 T14 T3 EX | ♠ K 10 4 | ♥ … `` : trumps high to low, then each suit high to low."""
    cards = display_order(names)
    trumps = [str(c) for c in cards if c.is_trump] + [str(c) for c in cards if c.is_excuse]
    parts = [" ".join(trumps)] if trumps else []
    for s in range(4):
        suit = [c.pretty()[:-1] for c in cards if c.suit == s]
        if suit:
            parts.append(SUIT_SYMBOLS[s] + " " + " ".join(suit))
    return "  |  ".join(parts) if parts else "-"


def trick_seats(rec: dict, trick: dict) -> list[int]:
    """The seat of each card of a record's trick.

    The seat of each card of a record's ``trick``, from its leader in playing order
    (R-PLAY-2; the 5d dummy plays no card)."""
    n = len(rec["hands"])
    seats = [(trick["leader"] + k) % n for k in range(n)]
    if rec["table"] == "5d":
        seats = [s for s in seats if s != rec["dealer"]]
    return seats


def _pretty(names) -> str:
    return " ".join(Card.parse(n).pretty() for n in names)


def piles_line(piles, draw=None) -> str:
    """One seat's piles at table 2, as a line of text.

    One seat's piles (R-VAR-TWO), each from bottom to top, the face-up top in brackets:
    ``♠3 T5 [♣4]  |  …``. A card the viewer may not see is None, drawn ``#`` (``# # [♣4]``; a
    pile whose top was just played shows ``# #`` until the trick ends); ``draw(card)`` draws a
    card (``Card.pretty`` by default, ``play`` colours it)."""
    draw = draw or Card.pretty
    cells = []
    for p in piles:
        cards = ["#" if n is None else draw(Card.parse(n)) for n in p]
        if cards and p[-1] is not None:
            cards[-1] = f"[{cards[-1]}]"
        cells.append(" ".join(cards) or "-")
    return "  |  ".join(cells)


def format_record(rec: dict, names: list[str] | None = None) -> str:
    """The whole deal, readable: hands, bids, chien, écart, declarations, tricks, count, scores."""
    names = names or [f"seat {i}" for i in range(len(rec["hands"]))]
    w = max(len(x) for x in names)
    out, pile_cards = _deal_lines(rec, names, w)
    if rec["outcome"] == "petit_sec":
        holder = rec.get("petit_sec_seat")
        who = names[holder] if holder is not None else "a player"
        out.append(f"Petit sec: {who} holds the Petit as his only trump; the deal is annulled (R-DEAL-4).")
        return "\n".join(out)
    bids = ", ".join(f"{names[s]} {b}" for s, b in rec["bids"])
    out.append(f"Bids: {bids}" + ("  (contract forced)" if rec.get("forced") else ""))
    if rec["outcome"] == "all_passed":
        out.append("Everybody passed: the deal is thrown in (R-BID-3).")
        return "\n".join(out)
    out += _contract_lines(rec, names)
    out.append("")
    out += _trick_lines(rec, names, w, pile_cards)
    out += _result_lines(rec.get("result"))
    out.append("")
    scores = rec.get("scores")
    out.append("Scores: " + (", ".join(f"{names[s]} {sc:+d}" for s, sc in enumerate(scores)) if scores is not None
                             else "not recorded"))
    return "\n".join(out)


def _deal_lines(rec: dict, names: list[str], w: int) -> tuple[list[str], set]:
    """The lines of the deal: title, options, hands, chien and piles.

    The title, the options, the hands and chien dealt and, at table 2 (R-VAR-TWO), the piles;
    with the names of the cards dealt in the piles."""
    ident = f"seed {rec['seed']}, index {rec['index']}" if rec.get("seed") is not None else "hand-entered deal"
    out = [f"Table {rec['table']} — {ident} — dealer {names[rec['dealer']]}"]
    if rec.get("options"):
        out.append("options: " + ", ".join(f"{k}={v}" for k, v in rec["options"].items()))
    out += ["", "Hands"]
    for seat, hand in enumerate(rec["hands"]):
        label = "(dummy, sits out)" if rec["table"] == "5d" and seat == rec["dealer"] else hand_by_suit(hand)
        out.append(f"  {names[seat].ljust(w)}  {label}")
    out.append(f"  {'chien'.ljust(w)}  {hand_by_suit(rec['chien'])}")
    pile_cards: set = set()
    if rec.get("piles"):
        out.append("Piles (bottom to top; [face up] at the start)")
        for seat, piles in enumerate(rec["piles"]):
            out.append(f"  {names[seat].ljust(w)}  {piles_line(piles)}")
            pile_cards |= {n for p in piles for n in p}
    out.append("")
    return out, pile_cards


def _contract_lines(rec: dict, names: list[str]) -> list[str]:
    """The lines of the taker, the contract, the call and the declarations.

    The taker, his contract (``rules.CONTRACT_TABLE``: multiplier, what becomes of the chien),
    the call and the declarations."""
    contract = CONTRACT_OF[rec["contract"]]
    line = f"Taker: {names[rec['taker']]}, {contract.name} (x{contract.multiplier})"
    if rec.get("called"):
        partner = names[rec["partner"]] if rec.get("partner") is not None else "nobody: the taker plays alone"
        line += f"; calls {Card.parse(rec['called']).pretty()}, partner {partner}"
    out = [line]
    if contract.chien_shown:
        out.append(f"Chien shown: {_pretty(rec['chien'])}; écart: {_pretty(rec['ecart'])}")
    else:
        out.append(f"Chien unseen, counts for the {contract.chien_to}")
    out.extend(declaration_phrase(d, names[d["seat"]]) for d in rec.get("declarations", []))
    return out


def declaration_phrase(declaration: dict, who: str, *, to_you: bool = False, pretty: bool = False) -> str:
    """One declaration of a record as a phrase: a poignée shown (R-POIG-1), a chelem announced (R-SLAM-1).

    Parameters
    ----------
    declaration : dict
        One entry of a record's ``declarations`` (``docs/records.md``): ``seat``, ``kind`` and,
        for a poignée, ``level`` and ``cards``.
    who : str
        The name of the declaring seat.
    to_you : bool
        The phrase speaks to that seat ("You announce" rather than "X announces").
    pretty : bool
        The poignée's cards with suit symbols rather than in record notation.

    Examples
    --------
    >>> declaration_phrase({"seat": 1, "kind": "chelem"}, "West")
    'West announces a chelem'
    >>> declaration_phrase({"seat": 0, "kind": "poignee", "level": "simple",
    ...                     "cards": ["T1", "T2"]}, "You", to_you=True)
    'You show a simple poignée: T1 T2'
    """
    kind = declaration["kind"]
    if kind == "poignee":
        cards = declaration["cards"]
        shown = " ".join(Card.parse(c).pretty() for c in cards) if pretty else " ".join(cards)
        return f"{who} {'show' if to_you else 'shows'} a {declaration['level']} poignée: {shown}"
    if kind == "chelem":
        return f"{who} {'announce' if to_you else 'announces'} a chelem"
    return f"{who} {'declare' if to_you else 'declares'} {kind.replace('_', ' ')}"


def _trick_lines(rec: dict, names: list[str], w: int, pile_cards: set) -> list[str]:
    """One line per trick, from its leader, the winner starred and a card from a pile marked."""
    out = ["Tricks (leader first; * = winner" + ("; ^ = from a pile)" if pile_cards else ")")]
    for i, t in enumerate(rec["tricks"], 1):
        cells = []
        for seat, c in zip(trick_seats(rec, t), t["cards"]):
            mark = "*" if seat == t["winner"] else " "
            pile = "^" if c in pile_cards else ""
            cells.append(f"{names[seat]}:{Card.parse(c).pretty()}{pile}{mark}")
        out.append(f"  {i:>2}. " + "  ".join(c.ljust(w + 6) for c in cells))
    return out


def _result_lines(res: dict | None) -> list[str]:
    """The count against the target (R-COUNT-3, R-COUNT-4), petit au bout, chelem and the value."""
    if not res:
        return []
    hp = res["attack_half_points"]
    out = ["", f"Attack: {format_points(hp)} points with {res['oudlers']} oudler(s); target {TARGETS[res['oudlers']]}; "
               f"{'made' if res['made'] else 'failed'} by {abs(res['difference'])}"
               f"  (defence {format_points(DECK_HALF_POINTS - hp)})"]
    extras = []
    if res.get("petit_au_bout"):
        extras.append(f"petit au bout: {res['petit_au_bout']}")
    if res.get("chelem"):
        extras.append(f"chelem: {res['chelem']}")
    if extras:
        out.append("; ".join(extras))
    out.append(f"Value V = {res['value']:+d} per defender")
    return out
