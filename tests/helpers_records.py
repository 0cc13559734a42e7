"""The laws every deal record must obey, checked without the engines.

Small independent checks written from RULES.md on plain lists (they share no code with the kernels
or with the reference engine): :func:`check_record` for tables 3, 4, 5 and 5d, the kernels'
records and the bots' alike, and :func:`check_two_player_record` for table 2 (R-VAR-TWO)."""

from __future__ import annotations

from tarotsim.cards import Card
from tarotsim.rules import CONTRACTS, POIGNEE_LEVELS
from tarotsim.scoring import DealFacts, score


HAND = {"3": 24, "4": 18, "5": 15, "5d": 18}
CHIEN = {"3": 6, "4": 6, "5": 3, "5d": 6}


def _c(name):
    return Card.parse(name)


def _is_trump(c):
    return c.is_trump


def _legal(hand, trick, first_trick, called, restricted):
    """R-PLAY-3, R-PLAY-4a to R-PLAY-4e, R-EXC-1, R-CALL-4 from the text."""
    led = next((c for c in trick if not c.is_excuse), None)
    if led is None:
        bound = first_trick and called is not None and (not trick or restricted)
        if bound and any(c.suit != called.suit for c in hand):
            return {c for c in hand if c.suit != called.suit or c == called}
        return set(hand)
    excuse = {c for c in hand if c.is_excuse}
    trumps = [c for c in hand if _is_trump(c)]
    top = max((c.rank for c in trick if _is_trump(c)), default=0)
    if not _is_trump(led):
        same = {c for c in hand if c.suit == led.suit}
        if same:
            return same | excuse
    if trumps:
        higher = {c for c in trumps if c.rank > top}
        return (higher or set(trumps)) | excuse
    return set(hand)


def _winner(cards, seats, excuse_wins):
    if excuse_wins:
        return seats[0]
    trumps = [(c.rank, s) for c, s in zip(cards, seats) if _is_trump(c)]
    if trumps:
        return max(trumps)[1]
    led = next(c for c in cards if not c.is_excuse)
    return max((c.rank, s) for c, s in zip(cards, seats) if c.suit == led.suit)[1]


def check_record(rec, rules):
    """Assert every law a record must obey; returns the attack half-points recomputed."""
    n = rules.n_seats
    dealer = rec["dealer"]
    dummy = dealer if rules.table == "5d" else None
    active = [s for s in [(dealer + 1 + k) % n for k in range(n)] if s != dummy]
    hands = [[_c(x) for x in h] for h in rec["hands"]]
    chien = [_c(x) for x in rec["chien"]]
    # R-DEAL-1: 78 cards partitioned with the right sizes
    allc = [c for h in hands for c in h] + chien
    assert sorted(c.id for c in allc) == list(range(78))
    for s in range(n):
        assert len(hands[s]) == (0 if s == dummy else HAND[rules.table])
    assert len(chien) == CHIEN[rules.table]
    scores = rec["scores"]
    assert len(scores) == n and sum(scores) == 0  # R-GEN-5
    if dummy is not None:
        assert scores[dummy] == 0
    if rec["outcome"] == "petit_sec":  # R-DEAL-4
        s = rec["petit_sec_seat"]
        first = next(x for x in active if [c.id for c in hands[x] if c.id < 22] == [1])
        assert s == first and rec["bids"] == [] and rec["tricks"] == [] and not any(scores)
        return None
    # R-BID-2: each active seat once, in order, strictly increasing
    bids = rec["bids"]
    assert [b[0] for b in bids] == active
    best = -1
    for _, b in bids:
        if b != "pass":
            assert CONTRACTS.index(b) > best or rec.get("forced")
            best = CONTRACTS.index(b)
    if rec["outcome"] == "all_passed":
        assert best == -1 and rec["tricks"] == [] and not any(scores) and rec["result"] is None
        return None
    taker, contract = rec["taker"], rec["contract"]
    assert [taker, contract] in bids and CONTRACTS.index(contract) == best
    hand_now = {s: set(hands[s]) for s in active}
    called = _c(rec["called"]) if rec["called"] else None
    if rules.table == "5":  # R-CALL-1, R-CALL-2
        own = hands[taker]
        ranks = [14]
        for r in (13, 12, 11):
            if all(sum(1 for c in own if c.suit is not None and c.rank == q) == 4 for q in ranks):
                ranks.append(r)
            else:
                break
        assert called.suit is not None and called.rank in ranks
        holder = [s for s in active if s != taker and called in hand_now[s]]
        assert rec["partner"] == (holder[0] if holder else None)
    else:
        assert called is None and rec["partner"] is None
    partner = rec["partner"]
    attack = {taker} | ({partner} if partner is not None else set())
    ecart = [_c(x) for x in rec["ecart"]]
    if contract in ("prise", "garde"):  # R-CHIEN-1, R-CHIEN-2
        hand_now[taker] |= set(chien)
        assert len(ecart) == len(chien) and set(ecart) <= hand_now[taker]
        assert not any(c.is_oudler or (c.suit is not None and c.rank == 14) for c in ecart)
        normal = [c for c in hand_now[taker] if c.suit is not None and c.rank != 14]
        assert sum(1 for c in ecart if c.is_trump) == max(0, len(chien) - len(normal))
        hand_now[taker] -= set(ecart)
    else:
        assert ecart == []
    # declarations (R-SLAM-1, R-POIG, R-MIS)
    decl = rec["declarations"]
    chelem = any(d["kind"] == "chelem" for d in decl)
    if chelem:
        assert decl[0] == {"seat": taker, "kind": "chelem"}
    sizes = rules.poignee_sizes
    poignees = []
    miseres = []
    for d in decl:
        if d["kind"] == "poignee":
            cards = [_c(x) for x in d["cards"]]
            assert len(cards) == sizes[POIGNEE_LEVELS.index(d["level"])]
            avail = {c for c in hand_now[d["seat"]] if c.is_trump}
            if d["seat"] == taker and rules.poignee_ecart_trumps:
                avail |= {c for c in ecart if c.is_trump}
            for c in cards:
                assert c in avail or (c.is_excuse and c in hand_now[d["seat"]])
            if any(c.is_excuse for c in cards):
                assert avail <= set(cards)
            poignees.append((d["level"], "attack" if d["seat"] in attack else "defence"))
        elif d["kind"].startswith("misere"):
            assert rules.misere
            h = hand_now[d["seat"]]
            if d["kind"] == "misere_atout":
                assert not any(c.is_trump or (c.is_excuse and rules.misere_excuse_is_trump) for c in h)
            else:
                assert not any(c.suit is not None and c.rank >= 11 for c in h)
            miseres.append((d["seat"], d["kind"].split("_")[1]))
    # tricks (R-PLAY, R-CALL-4, R-EXC)
    tricks = rec["tricks"]
    assert len(tricks) == HAND[rules.table]
    leader = taker if chelem else active[0]
    piles = {"attack": [], "defence": []}
    debt = 0
    won = []
    pab = None
    for i, t in enumerate(tricks):
        assert t["leader"] == leader
        start = active.index(leader)
        seats = [active[(start + k) % len(active)] for k in range(len(active))]
        cards = [_c(x) for x in t["cards"]]
        assert len(cards) == len(active)  # R-PLAY-2
        for k, (s, c) in enumerate(zip(seats, cards)):
            allowed = _legal(hand_now[s], cards[:k], i == 0, called,
                             rules.called_suit_after_excuse == "restricted")
            assert c in allowed, (i, s, c, sorted(allowed))
            hand_now[s].remove(c)
        last = i == len(tricks) - 1
        side_of = lambda s: "attack" if s in attack else "defence"  # noqa: E731
        excuse_wins = (last and cards[0].is_excuse and all(side_of(w) == side_of(leader) for w in won)
                       and (rules.excuse_slam_lead == "either_side" or side_of(leader) == "attack"))
        w = _winner(cards, seats, excuse_wins)
        assert t["winner"] == w
        for s, c in zip(seats, cards):
            if c.is_excuse and not last:  # R-EXC-2
                piles[side_of(s)].append(c)
                if side_of(s) != side_of(w):
                    debt += 1 if side_of(w) == "attack" else -1
            else:
                piles[side_of(w)].append(c)
        won.append(w)
        if last:
            if any(c.id == 1 for c in cards):
                pab = side_of(w)
            elif excuse_wins and rules.pab_slam_penultimate and any(x == "T1" for x in tricks[-2]["cards"]):
                pab = side_of(w)
        leader = w
    assert all(not h for h in hand_now.values())
    if contract in ("prise", "garde"):
        piles["attack"] += ecart
    elif contract == "garde_sans":
        piles["attack"] += chien
    else:
        piles["defence"] += chien
    att = sum(c.half_points for c in piles["attack"]) + debt
    dfn = sum(c.half_points for c in piles["defence"]) - debt
    assert att + dfn == 182  # R-GEN-4
    oudlers = sum(1 for c in piles["attack"] if c.is_oudler)
    sides = {("attack" if w in attack else "defence") for w in won}
    chelem_out = ("announced_" if chelem else "") + "made" if sides == {"attack"} else (
        ("announced_" if chelem else "") + "defence" if sides == {"defence"} else
        ("announced_failed" if chelem else None))
    res = rec["result"]
    assert res["attack_half_points"] == att and res["oudlers"] == oudlers
    assert res["petit_au_bout"] == pab and res["chelem"] == chelem_out
    facts = DealFacts(rules=rules, contract=contract, attack_half_points=att, oudlers=oudlers, taker=taker,
                      partner=partner, dummy=dummy, petit_au_bout=pab,
                      poignees=tuple(poignees),
                      chelem=chelem_out, miseres=tuple(miseres))
    b = score(facts)
    assert list(b.scores) == scores and b.value == res["value"]
    assert b.made == res["made"] and b.difference == res["difference"]
    return att


def check_two_player_record(rec):
    """The laws of a table-2 record, checked without the engines (R-VAR-TWO)."""
    hands = [[_c(x) for x in h] for h in rec["hands"]]
    piles = [[[_c(x) for x in p] for p in ps] for ps in rec["piles"]]
    chien = [_c(x) for x in rec["chien"]]
    pile_cards = [c for ps in piles for p in ps for c in p]
    # the 78 cards partitioned among hands (18), piles (6 of 3) and chien (6)
    assert sorted(c.id for c in [c for h in hands for c in h] + pile_cards + chien) == list(range(78))
    assert [len(h) for h in hands] == [18, 18] and len(chien) == 6
    assert all(len(ps) == 6 and all(len(p) == 3 for p in ps) for ps in piles)
    assert sum(rec["scores"]) == 0 and len(rec["scores"]) == 2  # R-GEN-5
    assert rec["declarations"] in ([], [{"seat": rec["taker"], "kind": "chelem"}])  # no poignée, no misère
    assert [b[0] for b in rec["bids"]] == [1 - rec["dealer"], rec["dealer"]]  # the non-dealer speaks first
    if rec["outcome"] != "played":
        assert rec["outcome"] == "all_passed" and rec["tricks"] == [] and rec["scores"] == [0, 0]
        return
    tricks = rec["tricks"]
    assert len(tricks) == 36 and all(len(t["cards"]) == 2 for t in tricks)
    # every card held (hand, piles, the chien taken in and the écart laid aside) is played once
    ecart = {_c(x) for x in rec["ecart"]}
    held = set(c for h in hands for c in h) | set(pile_cards)
    if rec["contract"] in ("prise", "garde"):
        held = (held | set(chien)) - ecart
        assert not ecart & set(pile_cards)  # the écart from the hand only
    played = [_c(x) for t in tricks for x in t["cards"]]
    assert sorted(c.id for c in played) == sorted(c.id for c in held)
    # each pile is played from its top, and the card under a played top only in a later trick
    when = {_c(x): k for k, t in enumerate(tricks) for x in t["cards"]}
    for ps in piles:
        for p in ps:
            assert when[p[2]] < when[p[1]] < when[p[0]]
    assert 0 <= rec["result"]["attack_half_points"] <= 182
