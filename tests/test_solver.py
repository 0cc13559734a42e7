"""The exact solver (``tarotsim.analysis.solver``, ``tarotsim._kernels.solver``) against its slow twin.

The twin (``tests/test_solver_twin.py``) is a plain minimax over every legal card on the reference
engine. Positions come from deals played by random and heuristic bots at tables 3, 4, 5 and 5d,
one to four tricks before the end, at any card of a trick. ``SOLVER_TWIN_EXAMPLES`` sets how many
(the default run keeps it modest; docs/solver.md gives the command of the long run).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_solver_twin import brute_force, position_at

from tarotsim._kernels import solver as K
from tarotsim.cards import Card
from tarotsim.rules import CONTRACTS, Rules
from tarotsim.analysis.solver import Position, Solver, SolverError, solve

EXAMPLES = int(os.environ.get("SOLVER_TWIN_EXAMPLES", "150"))
SMALL = 12  # transposition table bits for the tests (4,096 entries)

positions = st.builds(
    position_at, table=st.sampled_from(["3", "4", "5", "5d"]), seed=st.integers(0, 2**32),
    index=st.integers(0, 10**6), contract=st.sampled_from(CONTRACTS), bot=st.sampled_from(["random", "heuristic"]),
    tricks_left=st.integers(1, 4), in_trick=st.integers(0, 4))


@settings(max_examples=EXAMPLES)
@given(pos=positions, mode=st.sampled_from(["points", "score"]), other=st.integers(-300, 300))
def test_value_and_every_card_equal_the_brute_force(pos, mode, other):
    """``value`` and the value of each legal card equal the twin's; ``reach(T)`` is true exactly when
    ``value >= T``; the best cards are worth the value (R-PLAY-4a to R-PLAY-4e, R-EXC-2, R-EXC-3, R-EXC-4, R-PAB-1, R-COUNT-4)."""
    assume(pos is not None)  # an annulled deal has no position: not counted as an example
    want, per_card = brute_force(pos, mode)
    solver = Solver(mode, table_bits=SMALL)
    sol = solver.solve(pos)
    assert sol.complete and sol.value == want
    assert sol.card_values == per_card
    assert sol.best and all(per_card[c] == want for c in sol.best)
    assert all(sol.cost(c) >= 0 for c in per_card) and all(sol.cost(c) == 0 for c in sol.best)
    for target in (want - 1, want, want + 1, want + other):
        assert solver.reach(pos, target) == (want >= target)
    assert Solver(mode, table_bits=SMALL).reach(pos, want + other) == (want >= want + other)


@settings(max_examples=max(10, EXAMPLES // 5))
@given(pos=positions, mode=st.sampled_from(["points", "score"]), flags=st.integers(0, K.F_ALL))
def test_every_technique_switched_off_gives_the_same_values(pos, mode, flags):
    """Merging, the transposition table and its canonical key, move ordering and bounds change the
    work, never the values."""
    assume(pos is not None)  # an annulled deal has no position: not counted as an example
    full = Solver(mode, table_bits=SMALL).solve(pos)
    bare = Solver(mode, table_bits=SMALL, flags=flags).solve(pos)
    assert (bare.value, bare.card_values) == (full.value, full.card_values)


SUIT_ORDERS = [(1, 0, 3, 2), (3, 2, 1, 0), (2, 3, 0, 1), (1, 2, 3, 0)]


def _permuted(card: Card, order) -> Card:
    if card.suit is None:
        return card
    return Card(22 + 14 * order[card.suit] + card.rank - 1)


@settings(max_examples=max(10, EXAMPLES // 5))
@given(pos=positions, order=st.sampled_from(SUIT_ORDERS), mode=st.sampled_from(["points", "score"]))
def test_suits_permuted_give_the_same_values(pos, order, mode):
    """Suits are not ranked (R-CARD-1): renaming them changes no value."""
    assume(pos is not None)  # an annulled deal has no position: not counted as an example
    from dataclasses import replace

    def perm(cards):
        return tuple(_permuted(c, order) for c in cards)

    other = replace(pos, hands=tuple(perm(h) for h in pos.hands), trick=perm(pos.trick),
                    tricks=tuple((ld, perm(cs)) for ld, cs in pos.tricks), attack_pile=perm(pos.attack_pile),
                    called=None if pos.called is None else _permuted(pos.called, order))
    a = Solver(mode, table_bits=SMALL).solve(pos)
    b = Solver(mode, table_bits=SMALL).solve(other)
    assert a.value == b.value
    assert b.card_values == {_permuted(c, order): v for c, v in a.card_values.items()}


def test_one_solver_across_a_deal_agrees_with_fresh_ones():
    """The transposition table kept from one position of a deal to the next gives the answers a
    fresh solver gives."""
    for index in range(3):
        kept = Solver(table_bits=SMALL)
        for left in (4, 3, 2):
            for k in range(4):
                pos = position_at("4", 5, index, "garde", "heuristic", left, k)
                a, b = kept.solve(pos), Solver(table_bits=SMALL).solve(pos)
                assert (a.value, a.card_values) == (b.value, b.card_values)


# --- hand-built positions: one rule each --------------------------------------------------------

def _endgame(hands, leader, attack_pile=(), table="3", taker=0, first=None, attack_tricks=0, **kw):
    rules = Rules(table=table)
    n = {"3": 24, "4": 18, "5": 15, "5d": 18}[table]
    left = max(len(h) for h in hands)
    first = n - left if first is None else first
    return Position(rules=rules, dealer=rules.n_seats - 1, taker=taker, partner=None, contract=kw.pop("contract", "garde"),
                    hands=hands, leader=leader, first_trick=first, attack_pile=attack_pile,
                    attack_tricks=attack_tricks, **kw)


def test_excuse_in_the_last_trick_goes_to_the_winner_R_EXC_3():
    """R-EXC-3: the defence's Excuse in the last trick, won by the attack, is the attack's (9 + the
    king's 9 + a low card); R-EXC-5 makes it the attack's oudler."""
    pos = _endgame((("KH",), ("EX",), ("3H",)), leader=0)
    assert solve(pos).value == 9 + 9 + 1


def test_excuse_before_the_last_trick_stays_with_its_side_R_EXC_2():
    """R-EXC-2: the defence's Excuse played to a trick the attack wins stays with the defence, which
    owes one low card (+1 half-point); in the last trick it would be the attack's (R-EXC-3). Seat 1
    holds the Excuse and 2H, hearts are led twice: it plays the Excuse in the first trick."""
    pos = _endgame((("KH", "QH"), ("EX", "2H"), ("3H", "4H")), leader=0)
    sol = solve(pos)
    # attack: KH, 3H and a low card owed; then QH, 2H, 4H
    assert sol.value == (9 + 1 + 1) + (7 + 1 + 1)


def test_excuse_led_to_the_last_trick_of_a_slam_wins_it_R_EXC_4():
    """R-EXC-4: the Excuse led to the last trick by a side that won every earlier trick wins it; if
    that side lost a trick, it is an ordinary card of the trick (R-EXC-3) and the king wins."""
    slam = _endgame((("EX",), ("KH",), ("3H",)), leader=0, attack_tricks=23)
    assert solve(slam).value == 9 + 9 + 1
    lost_one = _endgame((("EX",), ("KH",), ("3H",)), leader=0, attack_tricks=22)
    assert solve(lost_one).value == 0
    defence = _endgame((("KH",), ("EX",), ("3H",)), leader=1, attack_tricks=0)
    assert solve(defence).value == 0
    attack_only = Position(rules=Rules(table="3", excuse_slam_lead="attack_only"), dealer=2, taker=0, partner=None,
                           contract="garde", hands=(("KH",), ("EX",), ("3H",)), leader=1, first_trick=23)
    assert solve(attack_only).value == 9 + 9 + 1  # the defence's lead does not win: the king takes all


def test_petit_au_bout_changes_best_play_in_score_mode_R_PAB_1():
    """R-PAB-1: the Petit in the last trick is worth 10 x m to the side winning it. The taker
    (seat 0, garde: m = 2) holds T1 and KH, seat 1 T2 and 2H: leading KH first takes a trick and
    loses the Petit au bout to T2 in the last trick; leading T1 first loses T1 to T2 at once and
    takes the last trick with KH. The same 11 half-points either way: for points both cards are
    best; for the score T1 is, by 2 x 10 x 2 (the taker gets twice the per-defender value)."""
    pos = _endgame((("T1", "KH"), ("T2", "2H"), ("3H", "4H")), leader=0)
    points = solve(pos, "points")
    assert points.card_values == {Card.parse("T1"): 11, Card.parse("KH"): 11}
    score = solve(pos, "score")
    assert score.best == (Card.parse("T1"),)
    assert score.card_values[Card.parse("T1")] - score.card_values[Card.parse("KH")] == 2 * 10 * 2


def test_petit_au_bout_in_the_penultimate_trick_of_a_slam_R_PAB_2():
    """R-PAB-2: when the last trick is won by the Excuse (R-EXC-4), the Petit played in the
    penultimate trick counts as au bout; with option ``pab_slam_penultimate`` off it does not."""
    def taker_score(rules):
        pos = Position(rules=rules, dealer=2, taker=0, partner=None, contract="prise",
                       hands=(("EX",), ("KH",), ("3H",)), leader=0, first_trick=23, attack_tricks=23,
                       petit_in_previous=True, attack_pile=tuple(Card(c) for c in range(1, 22)))
        return solve(pos, "score").value

    with_it = taker_score(Rules(table="3"))
    without = taker_score(Rules(table="3", pab_slam_penultimate=False))
    assert with_it - without == 2 * 10  # the taker gets twice the per-defender value at table 3


def test_slam_counts_in_score_mode_R_SLAM_2():
    """R-SLAM-2, R-SLAM-3: winning the last trick completes an unannounced slam (+200 per
    defender, twice that for the taker at table 3)."""
    def taker_score(attack_tricks):
        pos = _endgame((("KH",), ("2H",), ("3H",)), leader=0, attack_tricks=attack_tricks, contract="prise",
                       attack_pile=tuple(Card(c) for c in range(1, 22)))
        return solve(pos, "score").value

    assert taker_score(23) - taker_score(22) == 2 * 200


def test_called_suit_barred_from_the_first_lead_R_CALL_4():
    """R-CALL-4: at trick 1 of table 5 the leader may not lead the called suit but the called card
    (unless it holds nothing else); the solver's candidate cards are the reference engine's."""
    from test_solver_twin import game_until

    barred = 0
    for index in range(30):
        game = game_until("5", 3, index, "prise")
        if game.outcome != "played":
            continue
        pos = Position.from_record(game.record(), 0, 0)
        assert set(Solver(flags=0, table_bits=SMALL).moves(pos)) == set(pos.legal_cards())
        barred += len(pos.legal_cards()) < len(pos.hands[pos.leader])
    assert barred > 0


@settings(max_examples=max(10, EXAMPLES // 3))
@given(pos=positions)
def test_candidate_cards_are_the_legal_cards(pos):
    """Without merging the search tries exactly the legal cards (R-PLAY-3, R-PLAY-4a to R-PLAY-4e,
    R-EXC-1); merged, one card of each class of equivalent ones, and every legal card still gets
    its value."""
    assume(pos is not None)  # an annulled deal has no position: not counted as an example
    legal = set(pos.legal_cards())
    assert set(Solver(flags=0, table_bits=SMALL).moves(pos)) == legal
    merged = Solver(table_bits=SMALL).moves(pos)
    assert set(merged) <= legal and merged


# --- the API's checks -----------------------------------------------------------------------------

def test_bad_positions_are_named():
    from test_solver_twin import game_until

    from tarotsim.engine import Game

    fresh = Game(Rules(), seed=1, index=0)
    with pytest.raises(SolverError, match="has not started"):
        Position.from_game(fresh)
    done = game_until("4", 1, 0, "garde")
    with pytest.raises(SolverError, match="deal is over"):
        Position.from_game(done)
    with pytest.raises(SolverError, match="table 2"):
        Position.from_game(Game(Rules(table="2"), seed=1, index=0))
    with pytest.raises(SolverError, match="unknown card"):
        _endgame((("KX",), ("2H",), ("3H",)), leader=0)
    with pytest.raises(SolverError, match="both in"):
        _endgame((("KH",), ("KH",), ("3H",)), leader=0)
    with pytest.raises(SolverError, match="holds 2 cards"):
        _endgame((("KH", "QH"), ("2H",), ("3H",)), leader=0, first=23)
    with pytest.raises(SolverError, match="may not play 2C: must follow hearts"):
        _endgame((("KH",), ("2H",), ("3H",)), leader=0, first=22,
                 tricks=((0, (Card.parse("QH"), Card.parse("2C"), Card.parse("4H"))),))
    with pytest.raises(SolverError, match="unknown mode"):
        Solver("tricks")
    with pytest.raises(SolverError, match="budget"):
        Solver(budget=0)
    with pytest.raises(SolverError, match="a Position"):
        Solver().solve("KH")
    assert isinstance(SolverError("x"), ValueError)


def test_budget_runs_out_cleanly():
    """A question that needs more nodes than its budget says so (no value, bounds kept), and the
    same solver then answers it without a budget."""
    pos = position_at("4", 2, 3, "garde", "heuristic", 8, 1)
    solver = Solver(table_bits=SMALL)
    part = solver.solve(pos, budget=50)
    assert not part.complete and part.value is None and part.lo <= part.hi and part.nodes <= 51
    full = solver.solve(pos)
    assert full.complete and part.lo <= full.value <= part.hi
    assert Solver(table_bits=SMALL).reach(pos, full.value, budget=10) is None
    again = solver.solve(pos)
    assert again.value == full.value and again.nodes < full.nodes  # the table kept makes it cheaper


def test_a_sampled_world_is_solved():
    """A world of ``tarotsim.worlds`` is a position like the true deal (its hidden écart counted for
    the attack); the true deal is one of the worlds the seat cannot tell apart."""
    from test_solver_twin import game_until

    from tarotsim.worlds import sample

    game = game_until("4", 9, 2, "garde", "heuristic", 3, 2)
    seat = game.decision.seat
    worlds = sample(game, seat, 8, seed=1)
    for w in range(len(worlds)):
        pos = Position.from_world(game, worlds, w)
        assert pos.hands[seat] == Position.from_game(game).hands[seat]
        want, per_card = brute_force(pos)
        assert solve(pos).card_values == per_card


# --- arguments past what the kernels hold, places of a record, interrupts, the first compile -----

def test_a_budget_past_64_bits_is_refused_and_a_target_past_every_value_answered():
    """A budget of 2**63 nodes or more is a SolverError (the kernels count in 64 bits), at the
    solver and at a question; a target beyond every value of the objective gets the plain answer."""
    from tarotsim.analysis.solver import MAX_BUDGET

    pos = position_at("4", 2, 3, "garde", "heuristic", 2, 1)
    want, _ = brute_force(pos)
    assert MAX_BUDGET == 2**63 - 1 and Solver(table_bits=SMALL, budget=MAX_BUDGET).value(pos) == want
    message = "budget must be a whole number of nodes from 1 to 9,223,372,036,854,775,807 (2**63 - 1), or None"
    with pytest.raises(SolverError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        Solver(budget=2**63)
    solver = Solver(table_bits=SMALL)
    with pytest.raises(SolverError, match="budget must be a whole number of nodes from 1 to"):
        solver.reach(pos, want, budget=2**64)
    for mode in ("points", "score"):
        solver = Solver(mode, table_bits=SMALL)
        assert [solver.reach(pos, t) for t in (2**63, 10**30, 2**62 + 1)] == [False, False, False]
        assert [solver.reach(pos, t) for t in (-2**63, -10**30, -2**62 - 1)] == [True, True, True]


@pytest.mark.parametrize("trick,card,message", [
    (-1, 0, "trick -1 (0-based) is not a trick of the deal: its 18 tricks are 0..17"),
    (18, 0, "trick 18 (0-based) is not a trick of the deal: its 18 tricks are 0..17"),
    (0, 4, "card 4 (0-based, from the leader) is not a card of a trick: its 4 cards are 0..3"),
    (0, -1, "card -1 (0-based, from the leader) is not a card of a trick: its 4 cards are 0..3"),
    (1.0, 0, "trick must be a whole number (0-based), not 1.0"),
    ("3", 0, "trick must be a whole number (0-based), not '3'"),
    (True, 0, "trick must be a whole number (0-based), not True"),
    (0, "1", "card must be a whole number (0-based), not '1'"),
])
def test_a_place_in_a_record_that_is_not_one_is_named_0_based(trick, card, message):
    """``Position.from_record``'s trick and card are 0-based: a bad one is a SolverError (a
    ValueError) that names it as given, 0-based, with the places the deal has."""
    from test_solver_twin import game_until

    game = game_until("4", 3, 7, "garde", "heuristic", 1, 0)
    while game.decision is not None:
        game.apply(game.legal_actions()[0] if game.decision.kind != "poignee" else None)
    rec = game.record()
    with pytest.raises(SolverError) as e:
        Position.from_record(rec, trick, card)
    assert str(e.value) == message and isinstance(e.value, ValueError)
    assert Position.from_record(rec, 17, 3).trick_index == 17


def test_an_interrupted_question_stops_at_once_and_the_solver_answers_the_next():
    """A signal handled while a long question runs (Ctrl-C, SIGTERM as tarotsim.outputs.signals_raise
    turns it into an exception) stops the question at once: the search runs in a worker thread while
    the main thread waits. The same solver then answers the next question right, on new arrays (the
    abandoned search still writes into the old ones)."""
    import signal
    import time

    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop

    long_one = position_at("4", 2, 3, "garde", "heuristic", 12, 1)  # 2 * 10**7 nodes: seconds of search
    small = position_at("4", 2, 3, "garde", "heuristic", 2, 1)
    want, _ = brute_force(small)
    solver = Solver(table_bits=SMALL)
    assert solver.value(small) == want
    table = solver.tt
    old = signal.signal(signal.SIGALRM, stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        t0 = time.monotonic()
        with pytest.raises(Stop):
            solver.solve(long_one, budget=2 * 10**7)
        assert time.monotonic() - t0 < 1.5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert solver.tt is not table and solver.value(small) == want


def test_call_waiting_runs_the_call_in_a_worker_and_raises_what_it_raises():
    """From the main thread the call runs in a worker thread (one kept for the next call), its value
    returned and its exception raised; from another thread it is simply called."""
    import threading

    from tarotsim.parallel import call_waiting

    here = threading.current_thread()
    first = call_waiting(threading.current_thread)
    assert first is not here and call_waiting(threading.current_thread) is first
    with pytest.raises(ZeroDivisionError):
        call_waiting(lambda x: 1 // x, 0)
    assert call_waiting(lambda a, b: a + b, 2, 3) == 5
    seen = []
    worker = threading.Thread(target=lambda: seen.append(call_waiting(threading.current_thread)))
    worker.start()
    worker.join()
    assert seen == [worker]


def test_the_first_question_of_a_process_says_the_solver_compiles(monkeypatch):
    """A cold numba cache (``_cache.is_cached`` says the search is not there): the first question
    warns once, with a CompileWarning the user can silence, and ``warm_up`` returns the seconds
    spent; a warm cache says nothing."""
    import warnings

    from tarotsim.analysis import solver as S
    from tarotsim._kernels import _cache

    pos = position_at("4", 2, 3, "garde", "heuristic", 2, 1)
    monkeypatch.setattr(_cache, "is_cached", lambda kernels: False)  # as on a first run
    monkeypatch.setattr(S, "_ready", False)
    with pytest.warns(S.CompileWarning) as said:
        Solver(table_bits=SMALL).solve(pos)
        Solver(table_bits=SMALL).solve(pos)
    assert [str(w.message) for w in said] == ["compiling the kernels for the exact solver, once: about 20 s "
                                              "(numba keeps them in its cache)"]
    monkeypatch.setattr(S, "_ready", False)
    lines: list[str] = []
    assert S.warm_up(lines.append) > 0 and lines == [str(said[0].message)] and S.warm_up(lines.append) == 0.0
    monkeypatch.setattr(S, "_ready", False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", S.CompileWarning)  # silenced
        Solver(table_bits=SMALL).solve(pos)
    monkeypatch.undo()
    monkeypatch.setattr(S, "_ready", False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # loaded from the cache: no warning
        assert S.warm_up() == 0.0
