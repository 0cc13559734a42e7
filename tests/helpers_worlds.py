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
* The positions the tests sample (:func:`random_position`, :func:`built_game`), the sampled worlds
  checked by both (:func:`check_worlds`), and the frequencies of the worlds against their exact
  law (:func:`frequencies_match`, :func:`world_frequencies_match`).
"""

from __future__ import annotations

import itertools
import math
import random
from types import SimpleNamespace

import numpy as np

from tarotsim.cards import DECK, JACK, KING, KNIGHT, QUEEN, Card, parse_cards
from tarotsim.engine import Game
from tarotsim.reference.bot import RandomBot
from tarotsim.reference.deal import ReferenceDeal
from tarotsim.reference.errors import RuleViolation
from tarotsim.reference.tricks import play_duty
from tarotsim.rng import CHIEN_SIZE, HAND_SIZE, STREAM_BOTS, Rng, dealing_order
from tarotsim.rules import Rules
from tarotsim.worlds import sample

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
    """The pile cards nobody has seen at table 2 (R-VAR-TWO).

    Table 2 (R-VAR-TWO): ``[(seat, pile, depth)]`` of the pile cards nobody has seen, pile by
    pile from the bottom (a pile whose top was played in this trick shows no card yet)."""
    out = []
    for s, (ps, ups) in enumerate(zip(d.piles, d.face_up)):
        for k, (p, up) in enumerate(zip(ps, ups)):
            out += [(s, k, depth) for depth in range(len(p) - (1 if p and up else 0))]
    return out


def true_row(game) -> np.ndarray:
    """The true locations of the 78 cards at the current decision.

    The true locations of the 78 cards (seat, 5 pile, 6 face down in a pile, -1 played) at the
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
    """Whether a world agrees with the seat's view by the rules.

    Whether the world ``row`` (locations of the 78 cards) agrees with ``view`` by the rules:
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
    """The reference deal that a world implies, replayed to the view's decision.

    The reference deal that world ``row`` implies, replayed to the decision of ``view``;
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
    """A fast check of many worlds against a view.

    Per-seat forbidden cards, known cards and counts of ``view``; :meth:`check` takes many
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
    """Every way to deal the cards a seat does not see, under no rule but the counts.

    Every way to deal the cards ``seat`` does not see (neither played, nor in its hand, nor a
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
    """Every way to put the cards a seat cannot place in some places.

    Every way to put the cards a seat cannot place (``cons.allowed``) in the places ``locs``,
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


#: The seed of the tests' random positions, and the worlds the checks have checked (every module).
SEED = 20261130
CHECKED = {"fast": 0, "replay": 0}


def _drive(game, bot, count):
    """Let ``bot`` (a reference RandomBot) make ``count`` decisions of ``game``."""
    for _ in range(count):
        d = game._deal.decision()
        if d is None:
            return
        bot.act(game._deal, d)


def random_position(table, index, frac, forced=None, options=None):
    """A random position: a deal played by the random bot part of the way.

    Deal ``(SEED, index)`` played by the random bot up to fraction ``frac`` of its decisions;
    ``forced``: (k, contract) makes the k-th active seat take ``contract``."""
    rules = Rules.from_options(table, options or {})
    if forced is not None:
        order = dealing_order(rules, index % rules.n_seats)
        forced = (order[forced[0] % len(order)], forced[1])
    full = Game(rules, seed=SEED, index=index, forced=forced)
    _drive(full, RandomBot(Rng.for_deal(SEED, index, STREAM_BOTS)), 1000)
    total = len(full._deal.bids) + sum(len(t.plays) for t in full._deal.tricks) + 20
    game = Game(rules, seed=SEED, index=index, forced=forced)
    _drive(game, RandomBot(Rng.for_deal(SEED, index, STREAM_BOTS)), int(frac * total))
    return game


def check_worlds(game, seat, n, seed=1, replays=4):
    """Sample ``n`` worlds of ``seat`` and check them all; returns the worlds."""
    view = game.view(seat)
    rules = game.rules
    worlds = sample(game, seat, n, seed)
    locs = worlds.locations
    checker = FastChecker(rules, view)
    ok = checker.check(locs)
    assert ok.all(), f"world {int(np.argmin(ok))} breaks a constraint"
    CHECKED["fast"] += n
    truth = true_row(game)
    assert checker.check(truth[None, :]).all(), "the true world fails the fast checker"
    assert replay_consistent(rules, view, truth, game._deal), "the true world fails the replay"
    for w in range(min(replays, n)):
        assert replay_consistent(rules, view, locs[w], game._deal), f"world {w} fails the replay"
    CHECKED["replay"] += min(replays, n) + 1
    return worlds, checker


def near_misses(locs, rnd, count):
    """Worlds made by swapping two unplayed cards of different locations in sampled worlds."""
    out = []
    for _ in range(count):
        row = locs[rnd.randrange(len(locs))].copy()
        live = [c for c in range(78) if row[c] >= 0]
        a, b = rnd.sample(live, 2)
        row[a], row[b] = row[b], row[a]
        out.append(row)
    return out


def chi_square_p(observed, expected):
    """Upper tail of the chi-square statistic (Wilson-Hilferty normal approximation)."""
    df = len(observed) - 1
    if df < 1:
        return 1.0
    x = float(((observed - expected) ** 2 / expected).sum())
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def world_frequencies_match(worlds, exact):
    """Whether the sampler draws each exact world about equally often, and nothing else.

    Every exact world is drawn about as often as 1/len(exact) predicts (chi-square), and
    nothing else is drawn."""
    index = {row.tobytes(): i for i, row in enumerate(exact)}
    hits = np.zeros(len(exact))
    for row in worlds:
        i = index.get(row.tobytes())
        assert i is not None, "a world outside the exact set was drawn"
        hits[i] += 1
    return chi_square_p(hits, np.full(len(exact), len(worlds) / len(exact)))


def frequencies_match(worlds, exact):
    """Each (card, location) frequency within z* standard errors of its exact probability.

    z* is 3 raised for the number of comparisons: with M (card, location) pairs of probability
    strictly between 0 and 1, a correct sampler exceeds 3 standard errors somewhere with chance
    about M * 0.27% (a third of the runs at M = 150), so z* is the two-sided bound of family-wise
    level 0.1% (4.2 at M = 100); a biased sampler misses by far more (pairs of probability 0 or 1
    must match exactly).
    """
    n = len(worlds)
    pairs = []
    for loc in sorted(set(np.unique(exact)) - {-1}):
        p = (exact == loc).mean(axis=0)
        f = (worlds == loc).mean(axis=0)
        for c in range(78):
            if p[c] in (0.0, 1.0):
                assert f[c] == p[c], f"card {DECK[c]} at {loc}: drawn {f[c]}, exact {p[c]}"
            else:
                pairs.append((c, loc, p[c], f[c]))
    if not pairs:
        return
    m = len(pairs)
    alpha = 1e-3 / m
    z_star = max(3.0, _normal_quantile(1 - alpha / 2))
    for c, loc, p, f in pairs:
        z = abs(f - p) / math.sqrt(p * (1 - p) / n)
        assert z <= z_star, f"card {DECK[c]} at {loc}: drawn {f:.4f}, exact {p:.4f} (z = {z:.2f} > {z_star:.2f})"


def _normal_quantile(q):
    """Inverse of the standard normal distribution function (bisection on erfc)."""
    lo, hi = 0.0, 10.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(mid / math.sqrt(2)) > 1 - q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def built_game(table, dealer, wishes, exclude=None, forced=None, options=None):
    """A hand-entered deal, the other cards dealt at random.

    A hand-entered deal: ``wishes`` {seat or "chien": card names} are dealt as asked, the
    other cards at random (seeded) but never a card ``exclude[seat](card)`` refuses to that seat;
    the first seed that deals no petit sec (R-DEAL-4) is kept."""
    from tarotsim.rng import CHIEN_SIZE, HAND_SIZE
    rules = Rules.from_options(table, options or {})
    exclude = exclude or {}
    for seed in range(200):
        rnd = random.Random(seed)
        places = {s: list(parse_cards(wishes.get(s, []))) for s in dealing_order(rules, dealer)}
        places["chien"] = list(parse_cards(wishes.get("chien", [])))
        taken = {c for v in places.values() for c in v}
        rest = [c for c in DECK if c not in taken]
        rnd.shuffle(rest)
        room = {k: (CHIEN_SIZE[table] if k == "chien" else HAND_SIZE[table]) - len(v) for k, v in places.items()}
        ok = True
        for c in rest:
            fits = [k for k in places if room[k] > 0 and not (k in exclude and exclude[k](c))]
            if not fits:
                ok = False
                break
            k = fits[0] if len(fits) == 1 else rnd.choice(fits)
            places[k].append(c)
            room[k] -= 1
        if not ok:
            continue
        hands = [places.get(s, []) for s in range(rules.n_seats)]
        game = Game(rules, hands=hands, chien=places["chien"], dealer=dealer, forced=forced)
        if not game.done:
            if game.decision.kind == "chelem":
                game.announce_chelem(False)
            return game
    raise AssertionError("no such deal")


def play(game, *cards):
    """Play the cards in turn (``"?"``: the lowest legal card); declarations not made are declined."""
    for name in cards:
        card = game._deal.legal_cards(game._deal.next_player())[0] if name == "?" else Card.parse(name)
        game.play(card)


def suit_of(*suits):
    return lambda c: c.suit is not None and "SHDC"[c.suit] in suits


def worlds_of(game, seat, n=4000):
    """Sampled worlds of ``seat``, all checked (fast checker, replay)."""
    return check_worlds(game, seat, n, seed=seat + 1)[0].locations


def held(locs, seat, pred):
    """Bool per world: ``seat`` holds a card satisfying ``pred``."""
    ids = [c.id for c in DECK if pred(c)]
    return (locs[:, ids] == seat).any(axis=1)
