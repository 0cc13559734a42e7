"""The world sampler at table 2 (R-VAR-TWO): what one player cannot see, with the piles.

* Every sampled world is consistent (the fast checker and the reference engine's replay, which
  rebuilds the piles from their public history) on random deals and histories, every stage.
* The law is uniform: on late positions the sampler's count equals exact enumeration of the
  placements the checkers accept, and the location frequencies match the exact law.
* One test per clause of what a player knows at table 2, on built deals: the face-up tops are
  their owner's; a void shown by not following binds the hand only (a pile may still hide that
  suit, the player's own piles too); the card under a top played in the trick stays unseen until
  the trick is over; no petit sec (R-DEAL-4 does not apply).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from helpers_worlds import UNDER, FastChecker, placements, replay_consistent, true_row
from helpers_worlds import (frequencies_match, world_frequencies_match, check_worlds, held, near_misses,
                         random_position, suit_of)
from tarotsim._kernels import worlds as W
from tarotsim.cards import DECK, Card, parse_cards
from tarotsim.engine import Game
from tarotsim.reference.bot import RandomBot
from tarotsim.rng import STREAM_BOTS, Rng
from tarotsim.rules import Rules
from tarotsim.worlds import PILE, constraints, knowledge, sample

TWO = Rules("2")
SEED = 20261130


@pytest.mark.parametrize("index, frac, forced", [
    (1, 0.0, None), (2, 0.05, None), (3, 0.2, (0, "prise")), (4, 0.35, (1, "garde")), (5, 0.5, (0, "garde_sans")),
    (6, 0.65, (1, "garde_contre")), (7, 0.7, (1, "prise")), (8, 0.75, (0, "garde")), (9, 0.78, None),
    (10, 0.45, None), (11, 0.55, (0, "garde")), (12, 0.3, (1, "prise"))])
def test_R_VAR_TWO_every_sampled_world_is_consistent(index, frac, forced):
    """Random deals and histories at table 2 (random bot; the auction, the écart, the play), both
    players: every world passes the fast checker, a few the replay (the piles rebuilt), the true
    world both, and the two checkers agree on near misses."""
    game = random_position("2", index, frac, forced)
    assert not game.done
    for seat in (0, 1):
        worlds, checker = check_worlds(game, seat, 4000, seed=index * 2 + seat, replays=3)
        view = game.view(seat)
        for row in near_misses(worlds.locations, random.Random(index), 6):
            assert bool(checker.check(row[None, :])[0]) == replay_consistent(TWO, view, row, game._deal)


def late_two(index, left, forced):
    """Deal ``(SEED, index)`` at table 2, played by the random bot until ``left`` cards are left
    to play (hands and piles)."""
    game = Game(TWO, seed=SEED, index=index, forced=forced)
    bot = RandomBot(Rng.for_deal(SEED, index, STREAM_BOTS))
    d = game._deal
    while not game.done and sum(len(h) for h in d.hands) + sum(len(p) for ps in d.piles for p in ps) > left:
        bot.act(d, d.decision())
    return game


def _placements(game, seat):
    """Every placement of the cards ``seat`` cannot place (each place keeps its count)."""
    c = constraints(game, seat)
    return placements(c, [0, 1, PILE, UNDER], [c.counts[0], c.counts[1], c.counts[2], c.under])


@pytest.mark.parametrize("index, left, forced", [
    (5, 16, (1, "garde_sans")), (13, 16, (0, "garde_contre")), (14, 14, (0, "prise")), (15, 16, (1, "garde"))])
@pytest.mark.slow
def test_R_VAR_TWO_late_positions_match_exact_enumeration(index, left, forced):
    """Late table-2 positions, both players: the replay oracle and the fast checker accept the
    same placements; the sampler counts them exactly; each card's location frequencies over
    30,000 draws (and the worlds' frequencies, when they are few) match the exact law."""
    game = late_two(index, left, forced)
    assert not game.done
    for seat in (0, 1):
        view = game.view(seat)
        rows = _placements(game, seat)
        assert 2 <= len(rows) <= 100_000
        checker = FastChecker(TWO, view)
        ok = checker.check(rows)
        for i in random.Random(seat).sample(range(len(rows)), min(20, len(rows))):
            assert bool(ok[i]) == replay_consistent(TWO, view, rows[i], game._deal)
        exact = rows[ok]
        assert len(exact) >= 2 and ok[np.flatnonzero((rows == true_row(game)).all(axis=1))].all()
        cons = np.zeros(W.C_LEN, dtype=np.int64)
        assert W.derive(TWO.to_vector(), knowledge(view, TWO), cons) == W.OK
        wf, wi = W.new_workspace()
        status, count = W.count_worlds(cons, wf, wi)
        assert status == W.OK and round(count) == len(exact)
        worlds = sample(game, seat, 30_000, seed=index * 10 + seat).locations
        assert checker.check(worlds).all()
        frequencies_match(worlds, exact)
        if len(exact) <= 2000:
            assert world_frequencies_match(worlds, exact) > 1e-4


# ---------------------------------------------------------------------------------------------
# built deals

def built_two(wishes, refuse=None, dealer=1, forced=(0, "garde_sans")):
    """A hand-entered table-2 deal: ``wishes`` {place: card names} placed as asked, the other
    cards at random (seeded) but never a card ``refuse[place](card)`` refuses. Places: ``h0``,
    ``h1`` (hands), ``p0``, ``p1`` (the 18 pile places of a seat, pile by pile, bottom first: place
    ``3 * pile + 2`` is a face-up top), ``chien``; a wish for a pile place is ``{place index: name}``."""
    refuse = refuse or {}
    size = {"h0": 18, "h1": 18, "chien": 6}
    for seed in range(100):
        rnd = random.Random(seed)
        flat = {k: list(parse_cards(wishes.get(k, []))) for k in size}
        slots = {k: [None] * 18 for k in ("p0", "p1")}
        for k in slots:
            for i, name in wishes.get(k, {}).items():
                slots[k][i] = Card.parse(name)
        taken = {c for v in flat.values() for c in v} | {c for v in slots.values() for c in v if c}
        rest = [c for c in DECK if c not in taken]
        rnd.shuffle(rest)
        free = [(k, None) for k in size for _ in range(size[k] - len(flat[k]))] + \
            [(k, i) for k in slots for i in range(18) if slots[k][i] is None]
        ok = True
        for c in rest:
            fits = [j for j, (k, i) in enumerate(free) if not (k in refuse and refuse[k](c, i))]
            if not fits:
                ok = False
                break
            k, i = free.pop(rnd.choice(fits))
            if i is None:
                flat[k].append(c)
            else:
                slots[k][i] = c
        if not ok:
            continue
        piles = [[slots[k][3 * p:3 * p + 3] for p in range(6)] for k in ("p0", "p1")]
        game = Game(TWO, hands=[flat["h0"], flat["h1"]], chien=flat["chien"], dealer=dealer, forced=forced,
                    piles=piles)
        if game.decision.kind == "chelem":
            game.announce_chelem(False)
        return game
    raise AssertionError("no such deal")


def _top(i):
    return i % 3 == 2


def test_R_VAR_TWO_the_face_up_tops_are_their_owners():
    game = built_two({"p0": {0: "T20", 2: "T21", 5: "KH"}, "p1": {2: "EX", 17: "1S"}})
    for seat in (0, 1):
        c = constraints(game, seat)
        for name, owner in (("T21", 0), ("KH", 0), ("EX", 1), ("1S", 1)):
            assert c.known[Card.parse(name)] == owner
        assert c.counts[:2] == (24, 24) and c.under == 24 and c.pile == "chien"
        locs = check_worlds(game, seat, 2000, seed=seat)[0].locations
        assert (locs[:, Card.parse("T21").id] == 0).all() and (locs[:, 0] == 1).all()
        # the other cards may be anywhere unseen: under a pile (the seat's own piles included)
        assert ((locs == UNDER).sum(axis=1) == 24).all()
        assert set(np.unique(locs[:, Card.parse("T20").id])) == {1 - seat, PILE, UNDER}


def test_R_VAR_TWO_a_void_binds_the_hand_only():
    """Seat 1 does not follow a spade lead, with no spade in hand or on a face-up top; one spade
    lies face down in its own piles: worlds give its hand no spade, but spades lie under the piles."""
    no_spade_1 = {"h1": lambda c, i: c.suit == 0, "p1": lambda c, i: c.suit == 0}
    game = built_two({"h0": ["1S"], "p1": {0: "2S"}, "p0": {0: "T20"}}, no_spade_1)
    game.play(Card.parse("1S"))
    game.play(next(k for k in game.legal_actions() if not k.is_excuse))
    c = constraints(game, 0)
    assert c.voids[1] == frozenset("S")
    locs = check_worlds(game, 0, 4000, seed=3)[0].locations
    assert not held(locs, 1, suit_of("S")).any()
    assert held(locs, UNDER, suit_of("S")).mean() > 0.5
    assert (locs[:, Card.parse("2S").id] == UNDER).any()
    # the player's own view: its hand void, its piles hiding a spade it has not seen
    assert Card.parse("2S") in constraints(game, 1).allowed
    assert UNDER in constraints(game, 1).allowed[Card.parse("2S")]


def test_R_VAR_TWO_the_card_under_a_top_played_in_the_trick_is_unseen_until_the_trick_ends():
    game = built_two({"p0": {0: "5H", 1: "KC", 2: "T10"}})
    game.play(Card.parse("T10"))   # from the top of pile 1: KC is face down until the trick is over
    view = game.view(1)
    assert view.pile_tops[0][0] is None and view.pile_sizes[0][0] == 2
    c = constraints(game, 1)
    assert c.under == 24 and UNDER in c.allowed[Card.parse("KC")]
    check_worlds(game, 1, 2000, seed=4)
    game.play(next(k for k in game.legal_actions() if k in game.hand(1)))
    c = constraints(game, 1)
    assert c.known[Card.parse("KC")] == 0 and c.under == 23


def test_R_VAR_TWO_no_petit_sec_at_table_2():
    """R-DEAL-4 does not apply at table 2: no world is rejected for it, whatever the plays showed
    (here seat 1 shows no trump after playing T1 on a trump lead: a petit sec would be possible)."""
    no_trump_1 = {"h1": lambda c, i: c.id < 22 and c.id != 1, "p1": lambda c, i: c.id < 22 and _top(i)}
    game = built_two({"h0": ["T20", "T21", "5S"], "h1": ["T1", "6S"], "p0": {0: "EX"}}, no_trump_1)
    assert TWO.petit_sec == "redeal"
    for name in ("T20", "T1", "T21"):
        game.play(Card.parse(name))
    game.play(next(k for k in game.legal_actions() if not k.is_excuse))
    c = constraints(game, 0)
    assert c.petit_sec_checked == () and c.trump_ceiling[1] == 0
    locs = check_worlds(game, 0, 3000, seed=5)[0].locations
    assert not held(locs, 1, lambda k: k.is_trump).any()
    # at table 4 it would have to hold the Excuse (T1 then no trump: dealt a petit sec otherwise)
    assert (locs[:, 0] == 1).any() and (locs[:, 0] != 1).any()
