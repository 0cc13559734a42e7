"""Checkers of sampled worlds, written from RULES.md, independent of the sampler's kernels.

* :func:`replay_consistent` (the oracle): rebuild the deal a world implies (each seat's hand as
  dealt = its hand in the world + the cards it played, the taker's écart and chien put back) and
  replay every public action of the seat's view on the reference engine; the world is consistent
  iff that is a legal deal (R-DEAL-1, not annulled by a petit sec, R-DEAL-4) and every action is
  accepted (R-BID, R-CALL, R-CHIEN-2, R-POIG-3, R-MIS-1, R-PLAY-4, R-CALL-4). Slow: thousands of
  worlds per run, not millions.
* :class:`FastChecker`: the same facts as per-seat forbidden cards, derived from the view in plain
  Python -- what a play shows is found by asking the reference ``play_duty`` whether the card
  would still be legal with one more card in hand (the duties of R-PLAY-4 and R-CALL-4 each have
  one-card witnesses) -- then checked on many worlds at once with numpy. The tests cross-check it
  against the oracle on worlds the sampler did not make.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np

from tarotsim.cards import DECK, JACK, KING, KNIGHT, QUEEN, Card
from tarotsim.engine import Game
from tarotsim.reference.deal import ReferenceDeal
from tarotsim.reference.errors import RuleViolation
from tarotsim.reference.tricks import play_duty
from tarotsim.rng import CHIEN_SIZE, HAND_SIZE, dealing_order

PILE = 5
PILE_CARDS = 18  # table 2: cards laid in piles before each player (R-VAR-TWO)
UNDER = 6   # table 2 (R-VAR-TWO): face down in a pile, either player's
FACES = (JACK, KNIGHT, QUEEN, KING)


def stage_of(view) -> str:
    """``auction`` (bid, call: the chien unseen), ``ecart`` (being made), ``play`` (after)."""
    k = view.decision.kind
    if k in ("bid", "call"):
        return "auction"
    return "ecart" if k == "ecart" else "play"


def all_plays(view):
    """``[(trick number, seat, card, cards before it in the trick)]`` in playing order."""
    out = []
    tricks = [p for _, p, _ in view.tricks] + ([view.trick] if view.trick else [])
    for i, plays in enumerate(tricks):
        for j, (seat, card) in enumerate(plays):
            out.append((i, seat, card, [c for _, c in plays[:j]]))
    return out


def pile_kind(view) -> str | None:
    stage = stage_of(view)
    if stage == "ecart":
        return None
    if stage == "auction" or view.contract in ("garde_sans", "garde_contre"):
        return "chien"
    return "ecart"


def face_down(d):
    """Table 2 (R-VAR-TWO): ``[(seat, pile, depth)]`` of the pile cards nobody has seen, pile by
    pile from the bottom (a pile whose top was played in this trick shows no card yet)."""
    out = []
    for s, (ps, ups) in enumerate(zip(d.piles, d.face_up)):
        for k, (p, up) in enumerate(zip(ps, ups)):
            out += [(s, k, depth) for depth in range(len(p) - (1 if p and up else 0))]
    return out


def true_row(game) -> np.ndarray:
    """The true locations of the 78 cards (seat, 5 pile, 6 face down in a pile, -1 played) at the
    current decision; at table 2 a seat's face-up pile tops are its own."""
    d = game._deal
    row = np.full(78, -1, dtype=np.int8)
    for s, hand in enumerate(d.hands):
        for c in hand:
            row[c.id] = s
    if d.two_player:
        for s in range(2):
            for c in d.face_up_tops(s):
                row[c.id] = s
        for s, k, depth in face_down(d):
            row[d.piles[s][k][depth].id] = UNDER
    view = game.view(0)
    kind = pile_kind(view)
    if kind == "chien":
        for c in d.chien:
            row[c.id] = PILE
    elif kind == "ecart":
        for c in d.ecart:
            row[c.id] = PILE
    return row


# ---------------------------------------------------------------------------------------------
# the oracle

def replay_consistent(rules, view, row, truth=None) -> bool:
    """Whether the world ``row`` (locations of the 78 cards) agrees with ``view`` by the rules:
    the deal it implies replays every public action of the view (:func:`rebuild`) and then
    shows the seat exactly ``view`` (the same hand, chien, trumps shown in the écart, partner,
    declarations, tricks and decision). Table 2: ``truth``, the true deal, gives the piles'
    public history."""
    try:
        deal = rebuild(rules, view, row, truth)
    except (RuleViolation, ValueError):
        return False
    return seat_view(rules, deal, view.seat) == view


def seat_view(rules, deal, seat):
    """What ``seat`` sees of the reference deal ``deal``, by the facade's own rule."""
    game = Game.__new__(Game)
    game.rules = rules
    game._deal = deal
    return game.view(seat)


def rebuild(rules, view, row, truth=None) -> ReferenceDeal:
    """The reference deal that world ``row`` implies, replayed to the decision of ``view``;
    raises RuleViolation or ValueError when the world does not agree with the view.

    Table 2 (R-VAR-TWO): ``truth`` (the true ``ReferenceDeal``) gives what both players saw of the
    piles (every card shown on them, played or face up now, at its place); the places never seen
    take the world's face-down cards (in id order: any order gives the same public history). A
    seat's cards in the world are its hand and its face-up tops; the cards it played from its
    piles are not in its dealt hand."""
    n = rules.n_seats
    stage = stage_of(view)
    plays = all_plays(view)
    played = {c for _, _, c, _ in plays}
    for c in range(78):
        if (row[c] == -1) != (DECK[c] in played):
            raise ValueError("played cards")
    if any(int(row[c.id]) != view.seat for c in view.hand):
        raise ValueError("the seat's own hand")
    hands = [[DECK[c] for c in range(78) if row[c] == s] for s in range(n)]
    piles = None
    from_piles: set = set()
    if rules.table == "2":
        piles = [[list(p) for p in ps] for ps in truth.initial_piles]
        hidden = face_down(truth)
        under = [DECK[c] for c in range(78) if row[c] == UNDER]
        if len(under) != len(hidden):
            raise ValueError("the face-down pile cards")
        for (s, k, depth), card in zip(hidden, under):
            piles[s][k][depth] = card
        for s in range(2):
            tops = truth.face_up_tops(s)
            if any(int(row[c.id]) != s for c in tops):
                raise ValueError("the face-up tops")
            hands[s] = [c for c in hands[s] if c not in tops]
            from_piles |= {c for k, p in enumerate(truth.initial_piles[s]) for c in p[len(truth.piles[s][k]):]}
    for _, seat, card, _ in plays:
        if card not in from_piles:
            hands[seat].append(card)
    pile = [DECK[c] for c in range(78) if row[c] == PILE]
    if view.ecart is not None and sorted(pile) != sorted(view.ecart):
        raise ValueError("the taker's own écart")
    chien = pile
    ecart = None
    if view.chien is not None:              # prise, garde: shown (R-CHIEN-1)
        chien = list(view.chien)
        t = view.taker
        if stage == "play":
            ecart = pile
            hands[t] = hands[t] + pile
        if any(c not in hands[t] for c in chien):
            raise ValueError("the shown chien is not with the taker")
        hands[t] = [c for c in hands[t] if c not in chien]
    deal = ReferenceDeal(rules, view.dealer, hands, chien, piles=piles)
    for seat, bid in view.bids:
        deal.bid(seat, bid)
    if view.called is not None:
        deal.call(view.taker, view.called)
    if ecart is not None:
        deal.discard(view.taker, ecart)
    if stage == "play" and view.decision.kind != "chelem":
        deal.announce_chelem(view.taker, any(d["kind"] == "chelem" for d in view.declarations))
    declared = {}
    for d in view.declarations:
        declared.setdefault(d["seat"], []).append(d)
    done = set()

    def declare(seat):
        done.add(seat)
        for d in declared.get(seat, []):
            if d["kind"] == "poignee":
                deal.declare_poignee(seat, d["level"], d["cards"])
            elif d["kind"].startswith("misere"):
                deal.declare_misere(seat, d["kind"].split("_")[1], True)

    for _, seat, card, _ in plays:
        if seat not in done:
            declare(seat)
        deal.play(seat, card)
    for seat in declared:
        if seat not in done and deal.phase == "play":
            declare(seat)
    if deal.phase == "done" and deal.outcome != "played":
        raise ValueError("annulled")
    # declining a poignée or a misère shows nothing: decline up to the view's decision
    while (d := deal.decision()) is not None and d != view.decision and d.seat == view.decision.seat:
        if d.kind == "poignee":
            deal.declare_poignee(d.seat, None)
        elif d.kind.startswith("misere"):
            deal.declare_misere(d.seat, d.kind.split("_")[1], False)
        else:
            break
    return deal


# ---------------------------------------------------------------------------------------------
# the vectorized checker

class FastChecker:
    """Per-seat forbidden cards, known cards and counts of ``view``; :meth:`check` takes many
    worlds (int8[n, 78]) at once and returns a bool per world."""

    def __init__(self, rules, view):
        self.rules = rules
        n = self.n = rules.n_seats
        table = rules.table
        self.viewer = view.seat
        self.dummy = view.dealer if table == "5d" else None
        stage = stage_of(view)
        plays = all_plays(view)
        played = {c for _, _, c, _ in plays}
        self.played = np.array(sorted(c.id for c in played), dtype=np.int64)
        by_seat = [[c for _, s, c, _ in plays if s == seat] for seat in range(n)]
        active = dealing_order(rules, view.dealer)
        h, e = HAND_SIZE[table], CHIEN_SIZE[table]
        self.size = [0] * (n + 1)
        for s in active:
            self.size[s] = h - len(by_seat[s])
        # table 2 (R-VAR-TWO): a seat holds its hand and its face-up tops; the face-down pile cards
        # are one more place, anything allowed there (a play shows nothing about them)
        self.under = 0
        if table == "2":
            for s in active:
                tops, sizes = view.pile_tops[s], view.pile_sizes[s]
                down = sum(size - (top is not None) for top, size in zip(tops, sizes) if size > 0)
                self.size[s] += PILE_CARDS - down   # its pile cards, but those face down
                self.under += down
        kind = pile_kind(view)
        if stage == "ecart":
            self.size[view.taker] += e
        if kind is not None:
            self.size[n] = e
        forbid = [set() for _ in range(n)]
        known = {c: view.seat for c in view.hand}
        for s, tops in enumerate(view.pile_tops):
            known.update({c: s for c in tops if c is not None})
        # what each play shows: the cards x with which it would not have been legal
        for trick, seat, card, before in plays:
            for x in DECK:
                if x == card or x in played:
                    continue
                allowed = play_duty([card, x], before, called=view.called, first_trick=trick == 0,
                                    called_suit_after_excuse=rules.called_suit_after_excuse)[0]
                if card not in allowed:
                    forbid[seat].add(x)
        shown_ecart = set(view.ecart or ()) | set(view.ecart_trumps)
        for d in view.declarations:
            s = d["seat"]
            if d["kind"] == "poignee":
                cards = [Card.parse(c) for c in d["cards"]]
                for c in cards:
                    if c not in played and c not in shown_ecart:
                        known[c] = s
                if any(c.is_excuse for c in cards):   # R-POIG-3: no other trump
                    forbid[s] |= {c for c in DECK if c.is_trump and c not in cards}
            elif d["kind"] == "misere_atout":
                forbid[s] |= {c for c in DECK if c.is_trump or (c.is_excuse and rules.misere_excuse_is_trump)}
            elif d["kind"] == "misere_tete":
                forbid[s] |= {c for c in DECK if c.suit is not None and c.rank in FACES}
        # R-MIS-1: a seat the deal asks about a misère is eligible for it (no trump / no face)
        pending = view.decision
        if pending.seat != view.seat and pending.kind == "misere_atout":
            forbid[pending.seat] |= {c for c in DECK if c.is_trump or (c.is_excuse and rules.misere_excuse_is_trump)}
        elif pending.seat != view.seat and pending.kind == "misere_tete":
            forbid[pending.seat] |= {c for c in DECK if c.suit is not None and c.rank in FACES}
        # R-CALL-1: a queen is called by a taker dealt the four kings, a knight by one dealt the
        # kings and queens, a jack by one dealt the kings, queens and knights
        dealt_to_taker = set()
        if view.called is not None:
            dealt_to_taker = {c for c in DECK if c.suit is not None and c.rank > view.called.rank}
        for s in range(n):
            if s != view.taker:
                forbid[s] |= dealt_to_taker
        self.pile_forbid = set()
        if kind == "chien":   # the unseen chien: none of the taker's dealt cards (R-CALL-1)
            self.pile_forbid = set(dealt_to_taker)
        self.two_places = {}
        if view.chien is not None:
            t = view.taker
            if stage == "ecart":
                for c in view.chien:
                    known[c] = t
            else:
                for c in shown_ecart:
                    if c not in played:
                        known[c] = PILE
                if view.ecart_trumps:   # R-CHIEN-2: the taker had no other card to put there
                    forbid[t] |= {c for c in DECK if c.suit is not None and c.rank != KING}
                # the écart: plain suit cards, and the trumps shown (R-CHIEN-2)
                self.pile_forbid = {c for c in DECK if c.suit is None or c.rank == KING} - shown_ecart
                for c in view.chien:
                    if c in played or c in known:
                        continue
                    if view.ecart is not None or c.suit is None or c.rank == KING:
                        known[c] = t
                    else:
                        self.two_places[c] = (t, PILE)
        self.known = known
        self.forbid = [np.array(sorted(c.id for c in f - set(known) - played), dtype=np.int64) for f in forbid]
        self.pile_forbid_ids = np.array(sorted(c.id for c in self.pile_forbid - set(known) - played), dtype=np.int64)
        # petit sec (R-DEAL-4): the dealt trump word of each seat, from a world
        self.psec = []
        if rules.petit_sec == "redeal" and table != "2":   # no petit sec at table 2 (R-VAR-TWO)
            for s in active:
                if s == view.seat:
                    continue
                add = np.zeros(22, dtype=bool)
                rem = np.zeros(22, dtype=bool)
                for c in by_seat[s]:
                    if c.id < 22:
                        add[c.id] = True
                if s == view.taker and view.chien is not None:
                    for c in view.chien:
                        if c.id < 22:
                            rem[c.id] = True
                    if stage == "play":
                        for c in view.ecart_trumps:
                            add[c.id] = True
                self.psec.append((s, add, rem))

    def check(self, locs: np.ndarray) -> np.ndarray:
        """Bool per world of ``locs`` (int8[n_worlds, 78])."""
        ok = np.ones(locs.shape[0], dtype=bool)
        ok &= (locs[:, self.played] == -1).all(axis=1)
        for c, loc in self.known.items():
            ok &= locs[:, c.id] == loc
        for c, (a, b) in self.two_places.items():
            ok &= (locs[:, c.id] == a) | (locs[:, c.id] == b)
        for s in range(self.n):
            ok &= (locs == s).sum(axis=1) == self.size[s]
            if self.forbid[s].size:
                ok &= ~(locs[:, self.forbid[s]] == s).any(axis=1)
        ok &= (locs == PILE).sum(axis=1) == self.size[self.n]
        ok &= (locs == UNDER).sum(axis=1) == self.under
        if self.pile_forbid_ids.size:
            ok &= ~(locs[:, self.pile_forbid_ids] == PILE).any(axis=1)
        for s, add, rem in self.psec:
            dealt = ((locs[:, :22] == s) | add) & ~rem
            ok &= ~(dealt[:, 1] & ~dealt[:, 0] & ~dealt[:, 2:].any(axis=1))
        return ok


def free_placements(game, seat) -> np.ndarray:
    """Every way to deal the cards ``seat`` does not see (neither played, nor in its hand, nor a
    face-up pile top, nor its own écart) to the other seats and the hidden places, each place
    keeping its count (:class:`FastChecker`'s), under no other rule: int8[n, 78] rows, a
    superset of the seat's worlds that a checker filters into the exact law (independent of
    the sampler's constraints, so a sampler that forbids a possible world is caught too)."""
    view = game.view(seat)
    checker = FastChecker(game.rules, view)
    n = game.rules.n_seats
    known = {c: seat for c in view.hand}
    for s, tops in enumerate(view.pile_tops):
        known.update({c: s for c in tops if c is not None})
    for c in view.ecart or ():
        known[c] = PILE
    played = {c for _, _, c, _ in all_plays(view)}
    hidden = [c for c in DECK if c not in known and c not in played]
    sizes = list(checker.size[:n]) + [checker.size[n], checker.under]
    locs = [loc for loc, size in zip(list(range(n)) + [PILE, UNDER], sizes) if size > 0]
    unseen = SimpleNamespace(known=known, allowed=dict.fromkeys(hidden))
    return placements(unseen, locs, [size for size in sizes if size > 0])


def placements(cons, locs, sizes) -> np.ndarray:
    """Every way to put the cards a seat cannot place (``cons.allowed``) in the places ``locs``,
    place ``locs[i]`` holding ``sizes[i]`` cards in all, the known ones (``cons.known``) included:
    int8[n, 78] rows (-1: played), for exact counts of the sampler's law."""
    base = np.full(78, -1, dtype=np.int8)
    for card, loc in cons.known.items():
        base[card.id] = loc
    hidden = sorted(card.id for card in cons.allowed)
    room = [size - sum(1 for v in cons.known.values() if v == loc) for loc, size in zip(locs, sizes)]
    rows = []

    def place(rest, i, row):
        if i == len(locs):
            rows.append(row.copy())
            return
        for chosen in itertools.combinations(rest, room[i]):
            for k in chosen:
                row[k] = locs[i]
            place([k for k in rest if k not in chosen], i + 1, row)

    place(list(hidden), 0, base.copy())
    return np.array(rows, dtype=np.int8)
