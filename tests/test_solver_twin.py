"""The solver's slow twin: a plain minimax over every legal card, in plain Python (no kernel).

Written from RULES.md on the reference engine's trick functions (``play_duty``: R-PLAY-3,
R-PLAY-4a to R-PLAY-4e, R-EXC-1, R-CALL-4; ``trick_winner``: R-PLAY-5, R-EXC-4) and its scorer
(``tarotsim.scoring.score``): no transposition, no pruning, no merged cards, every line of play
counted at the end of the deal as RULES §7 to §13 say. It is checked here against the reference
engine itself (deals played out with the Game facade), then used by the solver's tests as the
oracle (``tests/test_solver.py``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim.cards import PETIT
from tarotsim.engine import Game, PyRandomBot
from tarotsim.reference.tricks import play_duty, trick_winner
from tarotsim.rng import STREAM_BOTS, Rng, deal, dealing_order
from tarotsim.rules import N_TRICKS, Rules
from tarotsim.scoring import DealFacts, score
from tarotsim.analysis.solver import Position


def count_deal(pos: Position, tricks) -> dict:
    """The end of a deal from ``pos`` once ``tricks`` (every trick from ``pos.first_trick``, as
    ``(leader, [(seat, card)], winner, excuse_won)``) are played: the attack's half-points, its
    oudlers, the petit au bout, the slam and the taker's score (RULES §7 to §13)."""
    n = N_TRICKS[pos.rules.table]
    side = pos.side_of
    attack_cards = list(pos.attack_pile)
    debt = pos.excuse_debt
    for k, (_, plays, winner, _) in enumerate(tricks):
        last = pos.first_trick + k == n - 1
        won_by = side(winner)
        for seat, card in plays:
            if card.is_excuse and not last:      # R-EXC-2: the Excuse stays with its owner's side
                if side(seat) == "attack":
                    attack_cards.append(card)
                if side(seat) != won_by:
                    debt += 1 if won_by == "attack" else -1
            elif won_by == "attack":             # R-EXC-3: in the last trick, an ordinary card
                attack_cards.append(card)
    points = sum(c.half_points for c in attack_cards) + debt
    oudlers = sum(1 for c in attack_cards if c.is_oudler)     # R-EXC-5
    _, last_plays, last_winner, excuse_won = tricks[-1]
    pab = None
    if any(c.id == PETIT for _, c in last_plays):             # R-PAB-1
        pab = side(last_winner)
    elif excuse_won and pos.rules.pab_slam_penultimate:       # R-PAB-2
        before = [c for _, c in tricks[-2][1]] if len(tricks) >= 2 else []
        if any(c.id == PETIT for c in before) or (len(tricks) == 1 and pos.petit_in_previous):
            pab = side(last_winner)
    attack_tricks = pos.attack_tricks + sum(1 for t in tricks if side(t[2]) == "attack")
    announced = "announced_" if pos.slam_announced else ""
    chelem = None
    if attack_tricks == n:                                    # R-SLAM-2, R-SLAM-3
        chelem = announced + "made"
    elif attack_tricks == 0:
        chelem = announced + "defence"
    elif pos.slam_announced:
        chelem = "announced_failed"
    facts = DealFacts(rules=pos.rules, contract=pos.contract, attack_half_points=points, oudlers=oudlers,
                      taker=pos.taker, partner=pos.partner, dummy=pos.dealer if pos.rules.table == "5d" else None,
                      petit_au_bout=pab, poignees=tuple((lv, side(s)) for s, lv in pos.poignees),
                      chelem=chelem, miseres=tuple(pos.miseres))
    b = score(facts)
    return {"points": points, "oudlers": oudlers, "pab": pab, "chelem": chelem, "score": b.scores[pos.taker]}


def _history(pos: Position) -> list:
    """``pos``'s finished tricks as ``count_deal`` takes them (none of them is the last trick)."""
    out = []
    for leader, cards in pos.tricks:
        winner = pos.seat_after(leader, trick_winner(list(cards)))
        out.append((leader, [(pos.seat_after(leader, j), c) for j, c in enumerate(cards)], winner, False))
    return out


def _excuse_lead_wins(pos: Position, leader: int, tricks) -> bool:
    """R-EXC-4: the Excuse led to the last trick by a seat whose side won every earlier trick."""
    mine = pos.side_of(leader)
    if pos.rules.excuse_slam_lead == "attack_only" and mine != "attack":
        return False
    before = pos.attack_tricks if mine == "attack" else pos.first_trick - pos.attack_tricks
    return before == pos.first_trick and all(pos.side_of(t[2]) == mine for t in tricks)


def brute_force(pos: Position, mode: str = "points") -> tuple[int, dict]:
    """``(value, {legal card: value after it})`` of ``pos`` by minimax: the attack's seats take the
    largest value of their legal cards, the defence's the smallest. Each card of the seat to move
    is searched with a full window, so its value is exact; below it, alpha-beta leaves out the
    cards that cannot change the answer (a cut never changes a minimax value)."""
    n = N_TRICKS[pos.rules.table]
    na = pos.rules.n_active
    hands = [list(h) for h in pos.hands]
    tricks = _history(pos)
    inf = 10**9

    def walk(leader, plays, alpha, beta):
        t = pos.first_trick + len(tricks)
        if len(plays) == na:
            cards = [c for _, c in plays]
            won_by_excuse = t == n - 1 and cards[0].is_excuse and _excuse_lead_wins(pos, leader, tricks)
            winner = plays[trick_winner(cards, won_by_excuse)][0]
            tricks.append((leader, plays, winner, won_by_excuse))
            v = count_deal(pos, tricks)[mode] if t == n - 1 else walk(winner, [], alpha, beta)
            tricks.pop()
            return v
        seat = pos.seat_after(leader, len(plays))
        legal, _, _ = play_duty(hands[seat], [c for _, c in plays], called=pos.called, first_trick=t == 0,
                                called_suit_after_excuse=pos.rules.called_suit_after_excuse)
        attack = pos.side_of(seat) == "attack"
        best = -inf if attack else inf
        for c in legal:
            hands[seat].remove(c)
            v = walk(leader, plays + [(seat, c)], alpha, beta)
            hands[seat].append(c)
            if attack:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    seat = pos.to_move
    start = [(pos.seat_after(pos.leader, j), c) for j, c in enumerate(pos.trick)]
    per_card = {}
    for c in pos.legal_cards():
        hands[seat].remove(c)
        per_card[c] = walk(pos.leader, start + [(seat, c)], -inf, inf)
        hands[seat].append(c)
    best = max(per_card.values()) if pos.side_of(seat) == "attack" else min(per_card.values())
    return best, per_card


# --- the twin's counting against the reference engine ---------------------------------------------------

def game_until(table: str, seed: int, index: int, contract: str, bot: str = "random", tricks_left: int = 0,
               in_trick: int = 0, options: dict | None = None) -> Game:
    """A deal of ``bot`` (``random``: the engine's random player; ``heuristic``) at every seat, the
    first seat to speak forced to take ``contract``, played until ``tricks_left`` tricks are left
    with ``in_trick`` cards in the first of them (0: to its end)."""
    from tarotsim.adapters import FastBotAdapter

    rules = Rules.from_options(table, options or {})
    in_trick %= rules.n_active
    dealer = deal(rules, seed, index)[0]
    game = Game(rules, seed=seed, index=index, forced=(dealing_order(rules, dealer)[0], contract))
    rng = Rng.for_deal(seed, index, STREAM_BOTS)
    player = PyRandomBot() if bot == "random" else FastBotAdapter(bot)
    n = N_TRICKS[table]
    while (d := game.decision) is not None:
        deal_ = game._deal
        if tricks_left and d.kind == "card" and len(deal_.tricks) == n - tricks_left and len(deal_.trick) == in_trick:
            break
        game.apply(player.choose(game.view(d.seat), game.legal_actions(), rng))
    return game


def position_at(table, seed, index, contract, bot="random", tricks_left=1, in_trick=0, options=None):
    """:func:`game_until`'s position (``Position.from_game``), or None when the deal was annulled."""
    game = game_until(table, seed, index, contract, bot, tricks_left, in_trick, options)
    return None if game.decision is None else Position.from_game(game)


def _played_out(table: str, seed: int, index: int, contract: str) -> Game:
    return game_until(table, seed, index, contract)


@settings(max_examples=40)
@given(table=st.sampled_from(["3", "4", "5", "5d"]), seed=st.integers(0, 2**32), index=st.integers(0, 10**6),
       contract=st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"]))
def test_twin_counts_a_deal_as_the_reference_engine(table, seed, index, contract):
    """``count_deal`` on a whole deal's tricks gives the reference engine's result and taker's
    score (R-EXC-2, R-EXC-3, R-EXC-4, R-EXC-5, R-PAB-1, R-PAB-2, R-SLAM-2, R-COUNT-1, R-COUNT-4, R-SCORE-2)."""
    game = _played_out(table, seed, index, contract)
    if game.outcome != "played":  # a petit sec annuls even a forced deal (R-DEAL-4)
        return
    rec = game.record()
    start = Position.from_deal(game._deal, 0, 0)
    tricks = [(t.leader, list(t.plays), t.winner, t.excuse_won) for t in game._deal.tricks]
    got = count_deal(start, tricks)
    assert got["points"] == rec["result"]["attack_half_points"]
    assert got["oudlers"] == rec["result"]["oudlers"]
    assert got["pab"] == rec["result"]["petit_au_bout"]
    assert got["chelem"] == rec["result"]["chelem"]
    assert got["score"] == rec["scores"][rec["taker"]]
