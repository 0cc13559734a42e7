"""Observation and information-state tensors of one seat: the layout, written once.

``OBS_FIELDS`` is the one table of the observation's named slices (uint8, seats relative to
the observer: slot 0 is the observer, slot ``k`` the seat ``k`` places after it, slots past the
table's seats stay 0); ``INFO_FIELDS`` adds the whole public history. docs/observations.md
shows the same table (a test keeps the two equal) and a golden test pins the values.
:func:`observation` and :func:`information_state` compute them from a :class:`tarotsim.engine.Game`;
the batched environment (``tarotsim.runs.env``) fills the same layout in its kernels.

An observation holds only what its seat may see: its own hand and écart, and what
every seat sees (bids, contract, the shown chien, écart trumps and poignées, played cards, the
voids and trump ceilings those plays show). Cards are indexed by card id (:mod:`tarotsim.cards`).
"""

from __future__ import annotations

import numpy as np

from .cards import N_CARDS
from .rules import CONTRACT_OF, CONTRACTS, DECISION_KINDS, ENV_TABLES, LED_NONE, NO_CEILING, after_play, play_shows

MAX_SEATS = 5
MAX_TRICKS = 24
N_TRUMP_IDS = 22  # the Excuse (0) and T1..T21: the trump word
BID_NAMES = ("pass",) + CONTRACTS

#: Every entry is a flag or a small count (at most 182): one byte each, so that a batch of
#: observations is cheap to fill and to move (convert to float for a network).
OBS_DTYPE = np.uint8

#: The observation, field by field: (name, size, meaning). Per-seat fields are MAX_SEATS rows.
OBS_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("table", len(ENV_TABLES), "one-hot: table " + ", ".join(ENV_TABLES)),
    ("decision", 8, "one-hot kind of the decision now: " + ", ".join(DECISION_KINDS) + " (0 when over)"),
    ("to_play", MAX_SEATS, "one-hot relative seat to decide now"),
    ("dealer", MAX_SEATS, "one-hot relative seat of the dealer"),
    ("dummy", MAX_SEATS, "one-hot relative seat of the 5d dummy"),
    ("hand", N_CARDS, "own hand now (at the écart: without the cards picked so far)"),
    ("bids", MAX_SEATS * 5, "per relative seat, one-hot bid: pass, prise, garde, garde_sans, garde_contre"),
    ("taker", MAX_SEATS, "one-hot relative seat of the taker"),
    ("contract", 4, "one-hot contract: prise, garde, garde_sans, garde_contre"),
    ("called", N_CARDS, "the called card (table 5)"),
    ("partner", MAX_SEATS, "one-hot relative seat of the partner, once known to this seat (R-CALL-3)"),
    ("chien", N_CARDS, "the chien, once shown (prise, garde: R-CHIEN-1)"),
    ("ecart", N_CARDS, "own écart (the taker; the cards picked so far during the écart)"),
    ("ecart_trumps", N_TRUMP_IDS, "trumps put in the écart, shown to all (R-CHIEN-2)"),
    ("chelem", 1, "a chelem announced (R-SLAM-1)"),
    ("poignees", MAX_SEATS * N_TRUMP_IDS, "per relative seat, the poignée cards shown (R-POIG-2)"),
    ("miseres", MAX_SEATS * 2, "per relative seat, misère d'atout, de tête declared (R-MIS-1)"),
    ("played", MAX_SEATS * N_CARDS, "per relative seat, every card it has played"),
    ("trick", MAX_SEATS * N_CARDS, "per relative seat, its card in the trick being played"),
    ("trick_leader", MAX_SEATS, "one-hot relative seat leading the trick being played"),
    ("trick_number", MAX_TRICKS, "one-hot number of the trick being played"),
    ("voids", MAX_SEATS * 5, "per relative seat, shown void in spades, hearts, diamonds, clubs, trumps"),
    ("trump_ceiling", MAX_SEATS, "per relative seat, the highest trump it may still hold, 0..21 (21: no sign)"),
    ("tricks_won", MAX_SEATS, "per relative seat, tricks won"),
    ("points_won", MAX_SEATS, "per relative seat, half-points of its tricks' cards, the Excuse aside (0..182)"),
)
#: The information state: the observation, then the whole public history of the play.
INFO_FIELDS: tuple[tuple[str, int, str], ...] = OBS_FIELDS + (
    ("history_leader", MAX_TRICKS * MAX_SEATS, "per trick, one-hot relative seat of its leader"),
    ("history_cards", MAX_TRICKS * MAX_SEATS * N_CARDS, "per trick and position from the leader, the card"),
)


def _slices(fields) -> dict[str, slice]:
    out, at = {}, 0
    for name, size, _ in fields:
        out[name] = slice(at, at + size)
        at += size
    return out


#: name -> slice of the observation / the information state
OBS: dict[str, slice] = _slices(OBS_FIELDS)
INFO: dict[str, slice] = _slices(INFO_FIELDS)
OBS_LEN = OBS["points_won"].stop
INFO_LEN = INFO["history_cards"].stop
#: start offsets by name, for the kernels (plain ints)
OBS_AT = {name: s.start for name, s in OBS.items()}
INFO_AT = {name: s.start for name, s in INFO.items()}


def layout_table() -> str:
    """The Markdown table of the layout (docs/observations.md holds this text)."""
    rows = ["| field | offset | size | meaning |", "|---|---:|---:|---|"]
    for name, size, meaning in INFO_FIELDS:
        rows.append(f"| `{name}` | {INFO[name].start} | {size} | {meaning} |")
    return "\n".join(rows)


def _public_play_signs(deal, n_seats: int) -> tuple[list[int], list[int]]:
    """The voids and trump ceilings each seat has shown by its plays.

    Voids (bits S H D C trumps) and trump ceilings each seat has shown by its plays
    (``rules.play_shows``: R-PLAY-4a to R-PLAY-4d, R-EXC-1)."""
    voids = [0] * n_seats
    ceiling = [NO_CEILING] * n_seats
    tricks = [t.plays for t in deal.tricks] + ([tuple(deal.trick)] if deal.trick else [])
    for plays in tricks:
        led, top = LED_NONE, 0
        for seat, c in plays:
            voids[seat], ceiling[seat] = play_shows(c.id, led, top, voids[seat], ceiling[seat])
            led, top = after_play(c.id, led, top)
    return voids, ceiling


def _fill(out: np.ndarray, at: dict[str, int], game, seat: int) -> None:
    """Write the observation of ``seat`` into ``out`` (zeros) with the offsets ``at``."""
    d = game._deal
    n = d.n_seats
    rel = [(s - seat) % n for s in range(n)]

    def put(name, k, value=1):
        out[at[name] + k] = value

    put("table", ENV_TABLES.index(d.table))
    dec = d.decision()
    if dec is not None:
        put("decision", DECISION_KINDS.index(dec.kind))
        put("to_play", rel[dec.seat])
    put("dealer", rel[d.dealer])
    if d.dummy is not None:
        put("dummy", rel[d.dummy])
    picks = set(game.ecart_picks) if seat == d.taker else set()
    for c in d.hands[seat]:
        if c not in picks:
            put("hand", c.id)
    for s, b in d.bids:
        put("bids", 5 * rel[s] + BID_NAMES.index(b))
    if d.taker is not None and d.phase != "bid":
        put("taker", rel[d.taker])
        put("contract", BID_NAMES.index(d.contract) - 1)
    if d.called is not None:
        put("called", d.called.id)
    played_cards = {c for t in d.tricks for c in t.cards} | {c for _, c in d.trick}
    if d.partner is not None and (seat == d.partner or d.called in played_cards):
        put("partner", rel[d.partner])
    if d.contract is not None and CONTRACT_OF[d.contract].chien_shown and d.phase not in ("bid", "call"):
        for c in d.chien:
            put("chien", c.id)
    if seat == d.taker:
        for c in list(d.ecart) + list(game.ecart_picks):
            put("ecart", c.id)
    for c in d.ecart:
        if c.is_trump:
            put("ecart_trumps", c.id)
    if d.chelem_announced:
        put("chelem", 0)
    for s, (_, cards) in d._poignee_shown.items():
        for c in cards:
            put("poignees", N_TRUMP_IDS * rel[s] + c.id)
    for s, kind in d._miseres:
        put("miseres", 2 * rel[s] + ("atout", "tete").index(kind))
    for t in d.tricks:
        for s, c in t.plays:
            put("played", N_CARDS * rel[s] + c.id)
    for s, c in d.trick:
        put("played", N_CARDS * rel[s] + c.id)
        put("trick", N_CARDS * rel[s] + c.id)
    if d.phase == "play":
        put("trick_leader", rel[d.leader])
        put("trick_number", len(d.tricks))
    voids, ceiling = _public_play_signs(d, n)
    for s in range(n):
        for k in range(5):
            if voids[s] >> k & 1:
                put("voids", 5 * rel[s] + k)
        put("trump_ceiling", rel[s], ceiling[s])
    for t in d.tricks:
        out[at["tricks_won"] + rel[t.winner]] += 1
        out[at["points_won"] + rel[t.winner]] += sum(c.half_points for c in t.cards if not c.is_excuse)


def observation(game, seat: int) -> np.ndarray:
    """The observation tensor of ``seat`` (uint8[OBS_LEN], layout ``OBS_FIELDS``)."""
    out = np.zeros(OBS_LEN, dtype=OBS_DTYPE)
    _fill(out, OBS_AT, game, seat)
    return out


def information_state(game, seat: int) -> np.ndarray:
    """The information-state tensor of a seat.

    The information-state tensor of ``seat`` (uint8[INFO_LEN], layout ``INFO_FIELDS``): the
    observation and the whole public history of the play (every trick's leader and cards)."""
    out = np.zeros(INFO_LEN, dtype=OBS_DTYPE)
    _fill(out, INFO_AT, game, seat)
    d = game._deal
    n = d.n_seats
    tricks = [(t.leader, t.cards) for t in d.tricks]
    if d.trick:
        tricks.append((d.leader, [c for _, c in d.trick]))
    for k, (leader, cards) in enumerate(tricks):
        out[INFO_AT["history_leader"] + MAX_SEATS * k + (leader - seat) % n] = 1
        for pos, c in enumerate(cards):
            out[INFO_AT["history_cards"] + (MAX_SEATS * k + pos) * N_CARDS + c.id] = 1
    return out
