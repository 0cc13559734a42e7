"""`tarotsim play`: a person against the bots, scripted through click's test runner.

The script of each game is computed beforehand by playing the same deals on the :class:`Game`
facade with the same bots (``heuristic`` draws nothing from the bots stream, so its answers depend
on the views alone): a person policy answers each of the person's decisions, first with answers
the rules forbid (each must be refused naming its rule, and asked again), then with a legal one.
The records the CLI appends must then be the very records of that game, and `replay --verify`
must accept them.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from tarotsim.cli import interactive
from tarotsim.adapters import FastBotAdapter
from tarotsim.cards import DECK, Card
from tarotsim.cli import cli, main
from tarotsim.engine import Game, IllegalPlayError
from tarotsim.cli.interactive import first_index, next_index
from tarotsim.rng import STREAM_BOTS, Rng, deal_with_piles
from tarotsim.rules import Rules

_BOTS: dict = {}


def heuristic():
    if "h" not in _BOTS:
        _BOTS["h"] = FastBotAdapter("heuristic")
    return _BOTS["h"]


class Person:
    """Answers the person's decisions: refused answers first (with the rule each must be refused
    by), then the accepted one. ``take``: the contract to bid when it is legal."""

    def __init__(self, take: str = "garde", poignee: bool = True, misere: bool = True):
        self.take, self.poignee, self.misere = take, poignee, misere
        self.refusals: list[tuple[str, str]] = []   # (answer, rule id) the CLI must refuse
        self.count = 0

    def refuse(self, game: Game, text: str, action, rule_id: str) -> str:
        """``text`` (meaning ``action``) must be refused by the game with ``rule_id``."""
        with pytest.raises(IllegalPlayError) as e:  # a refused action leaves the game unchanged
            game.apply(action)
        assert e.value.rule_id == rule_id
        self.refusals.append((text, rule_id))
        return text

    def answer(self, game: Game) -> tuple[list[str], object]:
        d = game.decision
        legal = game.legal_actions()
        self.count += 1
        lines = []
        if d.kind == "bid":
            if self.count == 1:
                lines += ["xyzzy", "?", "hint"]  # not understood; the explanation; the pimc bot's advice
            if "prise" not in legal:  # somebody bid already: prise is not higher (R-BID-2)
                lines.append(self.refuse(game, "prise", "prise", "R-BID-2"))
            bid = self.take if self.take in legal else "pass"
            return lines + [bid.replace("_", " ")], bid
        if d.kind == "call":
            hand = game.hand(d.seat)
            kings = sum(1 for c in hand if c.rank == 14 and c.suit is not None)
            if kings < 4:
                lines.append(self.refuse(game, "QH", Card.parse("QH"), "R-CALL-1"))
            king = next((c for c in legal if c not in hand), legal[0])
            return lines + [str(king)], king
        if d.kind == "ecart":
            hand = game.hand(d.seat)
            pick = list(legal.normal[:legal.size])
            if len(pick) < legal.size:
                pick += list(legal.trumps[:legal.trumps_needed])
            king = next((c for c in hand if c.suit is not None and c.rank == 14), None)
            if king is not None:
                bad = pick[:-1] + [king]
                lines.append(self.refuse(game, " ".join(map(str, bad)), bad, "R-CHIEN-2"))
            listed = list(legal.normal) + (list(legal.trumps) if legal.trumps_needed else [])
            # half by name, half by their number in the listing
            text = " ".join(str(c) if i % 2 else str(listed.index(c) + 1) for i, c in enumerate(pick))
            return lines + [text], pick
        if d.kind == "chelem":
            return ["?", "no"], False
        if d.kind == "poignee":
            level = legal[1] if self.poignee and len(legal) > 1 else None
            if level is None:
                return ["no"], None
            size = game.rules.poignee_sizes[0]
            trumps = [c for c in game.hand(d.seat) if c.is_trump][:size - 1]
            text = "simple " + " ".join(map(str, trumps))
            lines.append(self.refuse(game, text, ("simple", trumps), "R-POIG-2"))
            return lines + ["simple"], "simple"
        if d.kind.startswith("misere"):
            return ["y" if self.misere else "n"], self.misere
        hand = game.hand(d.seat)
        barred = [c for c in hand if c not in legal]
        if barred:
            with pytest.raises(IllegalPlayError) as e:
                game.verify_play(barred[-1])
            lines.append(self.refuse(game, str(barred[-1]), barred[-1], e.value.rule_id))
        card = legal[-1] if self.count % 3 else legal[0]
        return lines + [str(card) if self.count % 2 else str(legal.index(card) + 1)], card


def script(rules: Rules, seed: int, seat: int, deals: int, person: Person):
    """The person's input lines, the records and the decision kinds met, for ``deals`` deals of the
    game ``play --seed seed --seat seat`` against heuristic bots."""
    lines, records, kinds = [], [], set()
    index = first_index(rules, seed)
    for _ in range(deals):
        game = Game(rules, seed, index)
        rng = Rng.for_deal(seed, index, STREAM_BOTS)
        while (d := game.decision) is not None:
            if d.seat != seat:
                game.apply(heuristic().choose(game.view(d.seat), game.legal_actions(), rng))
            elif d.kind == "poignee" and game.legal_actions() == [None]:
                game.declare_poignee(None)  # nothing to ask: the loop declines it by itself
            else:
                texts, action = person.answer(game)
                kinds.add(d.kind)
                lines += texts
                game.apply(action)
        records.append(game.record())
        index = next_index(rules, index, records[-1]["outcome"])
    return lines, records, kinds


def play(args, lines, tmp_path):
    path = tmp_path / "game.jsonl"
    res = CliRunner().invoke(cli, ["play", *args, "--records", str(path)], input="".join(f"{x}\n" for x in lines))
    recs = [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []
    seat = int(args[args.index("--seat") + 1]) if "--seat" in args else 0
    for r in recs:  # each names its players, for `tarotsim stats --by player`; the rest is the game's record
        assert r.pop("players") == ["you" if s == seat else f"bot{s}" for s in range(len(r["hands"]))]
    return res, recs


def totals_line(output: str) -> list[int]:
    """The last total row of the score sheet printed."""
    rows = [line for line in output.splitlines() if line.strip().startswith("total")]
    return [int(x) for x in rows[-1].split()[1:]]


def check_game(tmp_path, capsys, table, seed, seat, person, kinds_needed, options=(), deals=1):
    rules = Rules.from_options(table, dict(o.split("=") for o in options))
    lines, records, kinds = script(rules, seed, seat, deals, person)
    assert kinds_needed <= kinds, f"seed {seed} no longer meets {kinds_needed - kinds}"
    args = ["--table", table, "--seed", str(seed), "--seat", str(seat), "--deals", str(deals)]
    for o in options:
        args += ["--option", o]
    res, recs = play(args, lines, tmp_path)
    assert res.exit_code == 0, res.output
    assert recs == records  # every answer applied as scripted, every refused one left the deal unchanged
    out = res.output
    for text, rule_id in person.refusals:  # each refused with its rule and asked again
        assert re.search(rf"refused: .*\({re.escape(rule_id)}\)", out), (text, rule_id)
    assert out.count("refused: ") == len(person.refusals)
    if any(rule.startswith("R-PLAY-4") for _, rule in person.refusals):  # in the person's words
        assert re.search(r"refused: must (follow|trump|overtrump|play a trump)[^\n]*: you hold ", out)
    assert "not understood: 'xyzzy' is not a bid" in out
    name = interactive.hint_bot_name(rules)
    assert f"hint: {name} would bid" in out
    # the first hint says it is thinking (and, with a cold numba cache, that it compiles first), once
    assert out.count(f"hint: {name} is thinking") == 1 and out.index(f"hint: {name} is thinking") < out.index(
        f"hint: {name} would bid")
    assert "the auction (R-BID-2)" in out  # the answer to ?
    # the final scores: the sheet's totals are the records' scores, summed
    assert totals_line(out) == [sum(r["scores"][s] for r in records) for s in range(rules.n_seats)]
    assert f"{deals} deal(s) appended to" in out
    # the records are valid deals: replay --verify accepts them
    with pytest.raises(SystemExit) as e:
        main(["replay", str(tmp_path / "game.jsonl"), "--verify", "--workers", "1"])
    assert e.value.code == 0
    assert f"{deals} record(s) verified, 0 bad" in capsys.readouterr().out
    return out, records


def test_play_table_3_taker_with_ecart_chelem_and_poignee(tmp_path, capsys):
    """Table 3: bid, écart (a king refused, R-CHIEN-2), chelem, poignée (a wrong size refused,
    R-POIG-2), every card (illegal ones refused with R-PLAY-4a, R-PLAY-4b, R-PLAY-4c)."""
    out, recs = check_game(tmp_path, capsys, "3", SEEDS["3"], 0, Person(),
                           {"bid", "ecart", "chelem", "poignee", "card"})
    assert recs[0]["taker"] == 0 and any(d["kind"] == "poignee" and d["seat"] == 0
                                         for d in recs[0]["declarations"])
    assert "count\nattack " in out and "target " in out and "(R-COUNT-4)" in out


def test_play_table_4_misere_and_cards(tmp_path, capsys):
    """Table 4 with option misere: the misère asked and declared (R-MIS-1), the cards played."""
    out, recs = check_game(tmp_path, capsys, "4", SEEDS["4"], 1, Person(), {"bid", "misere_atout", "card"},
                           options=("misere=on",))
    assert {"seat": 1, "kind": "misere_atout"} in recs[0]["declarations"]
    assert "you declare misère d’atout (R-MIS-1)" in out


def test_play_table_5_call_ecart_and_cards(tmp_path, capsys):
    """Table 5: the call (a queen refused, R-CALL-1), the écart, the chelem question, the cards."""
    out, recs = check_game(tmp_path, capsys, "5", SEEDS["5"], 2, Person(take="prise"),
                           {"bid", "call", "ecart", "chelem", "card"})
    assert recs[0]["taker"] == 2 and recs[0]["called"] is not None
    assert "(R-CALL-1)" in out


def test_play_5d_the_next_seat_deals_and_the_dealer_sits_out(tmp_path, capsys):
    """After a played deal the next seat deals (R-DEAL-3); at 5d the dealer is the dummy and sits
    out (R-DEAL-6): here the person deals the second deal."""
    out, recs = check_game(tmp_path, capsys, "5d", 14, 0, Person(take="pass"), {"bid", "card"}, deals=2)
    assert [r["dealer"] for r in recs] == [4, 0] and recs[1]["hands"][0] == []
    assert "you deal and sit out this deal (the dummy, R-DEAL-6)" in out


@pytest.mark.parametrize("same, dealers", [("true", [4, 4]), ("false", [4, 0])])
def test_play_5d_after_all_passed_the_dummy_deals_again(tmp_path, capsys, same, dealers):
    """5d, all passed: the same dummy deals again (R-DEAL-6), unless option dummy_redeal_same is off."""
    out, recs = check_game(tmp_path, capsys, "5d", 4, 0, Person(take="pass"), {"bid"}, deals=2,
                           options=(f"dummy_redeal_same={same}",))
    assert recs[0]["outcome"] == "all_passed" and [r["dealer"] for r in recs] == dealers
    assert "everybody passed: the deal is thrown in, scores 0 (R-BID-3)" in out


def test_refusal_names_the_rule_in_the_persons_words():
    """An overtrump refused: "must overtrump: you hold … (R-PLAY-4b)"."""
    assert (interactive.personal("must overtrump: holds T17 above T12", 0) ==
            "must overtrump: you hold T17 above T12")
    assert interactive.personal("seat 2 does not hold KH", 2) == "you do not hold KH"


#: Seeds whose first deal meets the decisions each test needs (checked by the tests themselves).
SEEDS = {"3": 16, "4": 1828, "5": 2, "2": 13}


def test_end_of_input_mid_deal_keeps_the_finished_deals(tmp_path):
    """EOF during deal 2: a short summary, deal 1 kept in the records, exit code 0, no traceback."""
    rules = Rules("4")
    lines, records, _ = script(rules, 3, 0, 2, Person())
    n1 = len(script(rules, 3, 0, 1, Person())[0])
    res, recs = play(["--seed", "3", "--deals", "2"], lines[:n1 + 2], tmp_path)
    assert res.exit_code == 0 and res.exception is None, res.output
    assert recs == records[:1]
    assert "game stopped (end of input): the deal under way is not scored; 1 finished deal(s) kept" in res.output
    assert res.output.rstrip().endswith("1 deal(s) appended to " + str(tmp_path / "game.jsonl"))


def test_interrupt_mid_deal_ends_cleanly_with_code_130(tmp_path, monkeypatch):
    """Ctrl-C during deal 2: the summary, deal 1 kept, exit code 130 (interrupted), no traceback."""
    rules = Rules("4")
    lines, records, _ = script(rules, 3, 0, 2, Person())
    n1 = len(script(rules, 3, 0, 1, Person())[0])
    feed = iter(lines[:n1 + 3])

    def read_line():
        for line in feed:
            return line
        raise KeyboardInterrupt

    monkeypatch.setattr(interactive, "read_line", read_line)
    res, recs = play(["--seed", "3", "--deals", "2"], [], tmp_path)
    assert res.exit_code == 130 and not isinstance(res.exception, KeyboardInterrupt), res.output
    assert recs == records[:1]
    assert "game stopped (interrupted): the deal under way is not scored; 1 finished deal(s) kept" in res.output
    assert "Traceback" not in res.output


def test_quit_ends_the_game(tmp_path):
    res, recs = play(["--seed", "3", "--deals", "2"], ["quit"], tmp_path)
    assert res.exit_code == 0 and recs == []
    assert "game stopped (you quit)" in res.output and "no deal finished" in res.output


@pytest.mark.parametrize("flag", ["--until", "--option"])
def test_until_stops_at_the_first_deal_where_someone_reaches_the_target(tmp_path, flag):
    """--until P (or --option game_end=P): the game stops after the first deal where a total
    reaches P, as `sheet --until` does."""
    rules = Rules("4")
    seed = 3
    lines, records, _ = script(rules, seed, 0, 6, Person(take="pass"))
    totals, best = [0] * 4, []
    for r in records:
        totals = [t + s for t, s in zip(totals, r["scores"])]
        best.append(max(totals))
    k = next(i for i in range(1, 6) if best[i] > max(best[:i]))  # a deal that sets a new best total
    target = best[k]
    res, recs = play(["--seed", str(seed), flag, str(target) if flag == "--until" else f"game_end={target}"],
                     lines, tmp_path)
    assert res.exit_code == 0, res.output
    if flag == "--option":  # the records name the option; the deals are the same
        assert all(r.pop("options") == {"game_end": target} for r in recs)
        records = [{k: v for k, v in r.items() if k != "options"} for r in records]
    assert recs == records[:k + 1]
    assert f"game over at deal {k + 1}: " in res.output and f"reached {target}" in res.output
    assert f"── deal {k + 2}" not in res.output


def test_default_is_one_round_and_the_first_dealer_comes_from_the_seed(tmp_path):
    """Without --deals: one deal per seat; deal 1 is index seed mod n, so its dealer is drawn
    from the seed (R-DEAL-3)."""
    res, _ = play(["--table", "3", "--seed", "5"], ["quit"], tmp_path)
    assert "── deal 1 of 3 · table 3 · seed 5, index 2 · dealer bot2 ──" in res.output


def test_colour_on_a_terminal_only(tmp_path):
    """Hearts and diamonds in red when colours are on; --no-color and a pipe are plain."""
    base = ["play", "--seed", "3", "--deals", "1"]
    coloured = CliRunner().invoke(cli, base, input="quit\n", color=True).output
    assert "\x1b[31m" in coloured
    plain = CliRunner().invoke(cli, base + ["--no-color"], input="quit\n", color=True).output
    piped = CliRunner().invoke(cli, base, input="quit\n").output
    assert "\x1b[" not in plain and "\x1b[" not in piped
    assert plain == piped


@pytest.mark.parametrize("args, message", [
    (["--seat", "4"], "--seat: seat 4 is not a seat of table 4: seats 0..3 (R-GEN-2)"),
    (["--deals", "2", "--until", "100"], "give --deals N or --until POINTS, not both"),
    (["--bots", "heuristic,random"], "--bots: you hold seat 0; give one bot for the 3 other seats or 3"),
    (["--bots", "nosuchbot"], "nosuchbot"),
    (["--records", "x.jsonl.gz"], "play appends plain JSON Lines"),
    (["--records", "X.JSONL.GZ"], "--records X.JSONL.GZ: play appends plain JSON Lines to a file (FILE.jsonl)"),
    (["--records", "notes.csv"], "--records notes.csv: play appends plain JSON Lines to a file (FILE.jsonl)"),
    (["--records", "/no/such/dir/x.jsonl"], "--records: cannot open /no/such/dir/x.jsonl"),
])
def test_bad_input_is_one_line_and_code_2(capsys, args, message):
    with pytest.raises(SystemExit) as e:
        main(["play", "--seed", "1", *args])
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == ""
    assert err.startswith("tarotsim: error: ") and message in err and err.count("\n") == 1


def test_bots_one_per_other_seat_in_seat_order():
    rules = Rules("4")
    bots = interactive.bots_for("greedy,random,heuristic", rules, 1)
    assert bots[1] is None and [b.name for b in bots if b] == ["greedy", "random", "heuristic"]


def test_answers_in_every_notation():
    """Cards by name (any case, suit symbols) or number; bids by name, alias or number."""
    game = Game(Rules("4"), 3, 0)
    assert interactive.answer_for(game, "garde sans") == "garde_sans"
    assert interactive.answer_for(game, "GC") == "garde_contre"
    assert interactive.answer_for(game, "3") == "garde"
    with pytest.raises(interactive.BadAnswer):
        interactive.answer_for(game, "9")
    assert interactive._card("k♥") == Card.parse("KH") and interactive._card("t21") == Card.parse("T21")


def test_records_that_cannot_be_written_stop_with_one_line(tmp_path):
    """A full disk under --records: one line, exit code 1, no traceback."""
    lines, _, _ = script(Rules("4"), 3, 0, 1, Person())
    res = CliRunner().invoke(cli, ["play", "--seed", "3", "--deals", "1", "--records", "/dev/full"],
                             input="".join(f"{x}\n" for x in lines))
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit)
    assert "--records: cannot append to /dev/full" in res.output


def test_question_mark_at_a_card_names_the_duty():
    """`?` at a restricted card decision says why, with the rule (R-PLAY-4a, R-PLAY-4b, R-PLAY-4c),
    and offers the Excuse (R-EXC-1) only to a player who holds it."""
    rules = Rules("4")
    seen = set()
    for index in range(60):
        game = Game(rules, 3, index)
        rng = Rng.for_deal(3, index, STREAM_BOTS)
        while (d := game.decision) is not None:
            if d.kind == "card" and len(game.legal_cards()) < len(game.hand(d.seat)):
                session = interactive.Session(rules, d.seat, [None] * 4, 3, color=False)
                with pytest.raises(IllegalPlayError) as e:
                    game.verify_play(next(c for c in game.hand(d.seat) if c not in game.legal_cards()))
                text = session.explain(game)
                holds = Card.parse("EX") in game.hand(d.seat)
                assert f"({e.value.rule_id})" in text
                assert ("the Excuse may always be played instead (R-EXC-1)" in text) == holds, text
                seen.add(holds)
                if seen == {True, False}:
                    return
                break
            game.apply(heuristic().choose(game.view(d.seat), game.legal_actions(), rng))
    raise AssertionError("no restricted card decision with and without the Excuse in 60 deals")


def test_the_partner_line_says_what_the_seat_knows_at_table_5_R_CALL_2():
    """A taker who called his own king knows he plays alone; the holder of the called card knows
    he is the partner (the view tells him); the others do not know yet (R-CALL-2, R-CALL-3)."""
    rules = Rules("5")
    found = {}
    for index in range(200):
        game = Game(rules, 5, index)
        rng = Rng.for_deal(5, index, STREAM_BOTS)
        while (d := game.decision) is not None and d.kind != "call":
            game.apply(heuristic().choose(game.view(d.seat), game.legal_actions(), rng))
        if d is None:
            continue
        taker = d.seat
        kings = [c for c in game.legal_actions() if c.rank == 14]
        own = [c for c in kings if c in game.hand(taker)]
        other = [c for c in kings if any(c in game.hand(s) for s in range(5) if s != taker)]  # not in the chien
        case = "own" if own and "own" not in found else "other" if other and "other" not in found else None
        if case is None:
            continue
        called = (own or other)[0] if case == "own" else other[0]
        game.apply(called)
        holder = next(s for s in range(5) if called in game.hand(s))
        views = {s: interactive.Session(rules, s, [None] * 5, 5, color=False).format_view(game) for s in range(5)}
        bystander = next(s for s in range(5) if s not in (taker, holder))
        found[case] = (views[taker], views[holder], views[bystander])
        if len(found) == 2:
            break
    taker_view, _, bystander_view = found["own"]
    assert "partner nobody: you hold the card you called, you play alone (R-CALL-2)" in taker_view
    assert "partner not known yet" in bystander_view
    taker_view, holder_view, bystander_view = found["other"]
    assert "partner not known yet" in taker_view and "partner not known yet" in bystander_view
    assert "partner you\n" in holder_view


# ---------------------------------------------------------------------------------------------
# Table 2 (R-VAR-TWO): the piles at the person's prompt


def face_down_card(game: Game, seat: int) -> Card | None:
    """A card still face down in one of ``seat``'s piles (the bottom of a pile never played from)."""
    piles = deal_with_piles(game.rules, game.seed, game.index)[3][seat]
    sizes = game.view(seat).pile_sizes[seat]
    return next((DECK[p[0]] for p, n in zip(piles, sizes) if n == 3), None)


class PilesPerson(Person):
    """At table 2, also a pile card in the écart and a face-down pile card played (each refused
    with R-VAR-TWO), once each."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.tried: set[str] = set()

    def answer(self, game: Game):
        d = game.decision
        lines = []
        under = face_down_card(game, d.seat)
        if d.kind in ("ecart", "card") and d.kind not in self.tried and under is not None:
            self.tried.add(d.kind)
            if d.kind == "ecart":
                legal = game.legal_actions()
                bad = list(legal.normal[:legal.size - 1]) + [under]
                lines.append(self.refuse(game, " ".join(map(str, bad)), bad, "R-VAR-TWO"))
            else:
                lines.append(self.refuse(game, str(under), under, "R-VAR-TWO"))
        more, action = super().answer(game)
        return lines + more, action


def test_play_table_2_draws_the_piles_and_plays_from_them(tmp_path, capsys):
    """Table 2 (R-VAR-TWO): both players' piles drawn at the prompt (face-down cards ``#``, the
    face-up top in brackets), a pile top played by its name or number, a face-down pile card and a
    pile card in the écart refused naming R-VAR-TWO, each card turned up after a trick announced;
    no poignée asked; the non-dealer speaks first; the records pass `replay --verify`."""
    person = PilesPerson()
    out, recs = check_game(tmp_path, capsys, "2", SEEDS["2"], 0, person, {"bid", "ecart", "chelem", "card"},
                           deals=2)
    assert [r for _, r in person.refusals].count("R-VAR-TWO") == 2
    assert re.search(r"refused: the écart is made from the hand only: \S+ lies in your pile \d \(R-VAR-TWO\)", out)
    assert re.search(r"refused: \S+ lies face down in your pile \d: only a face-up pile top may be played "
                     r"\(R-VAR-TWO\)", out)
    assert re.search(r"\n  your piles +# # \[[^\]]+\]  \|  ", out) and "\n  bot1's piles  " in out
    assert "(^ = the face-up top of one of your piles, R-VAR-TWO)" in out
    assert re.search(r"\n  turned up \(R-VAR-TWO\): (your|bot1's) pile \d ", out)
    assert "from your pile " in out and "from his pile " in out
    assert "poignée" not in out and "misère" not in out
    for rec in recs:  # the non-dealer speaks first; the person played from his piles
        assert rec["bids"][0][0] != rec["dealer"]
        own = {c for p in rec["piles"][0] for c in p}
        assert own & {c for t in rec["tricks"] for c in t["cards"]}
    assert any(r["taker"] == 0 for r in recs)


def test_play_table_2_shows_no_card_under_a_top_played_in_the_trick():
    """A pile whose top was led in the trick under way shows only face-down cards until the trick
    ends (R-VAR-TWO); leading, `?` names the face-up tops among the cards one may play."""
    rules = Rules("2")
    checked = set()
    for index in range(40):
        game = Game(rules, 9, index)
        rng = Rng.for_deal(9, index, STREAM_BOTS)
        while (d := game.decision) is not None:
            v = game.view(d.seat)
            session = interactive.Session(rules, d.seat, [None] * 2, 9, color=False)
            if d.kind == "card" and not v.trick and "lead" not in checked:
                checked.add("lead")
                assert "any card of your hand or a face-up top of your piles (R-VAR-TWO) (you lead this trick, " \
                       "R-PLAY-1)" in session.explain(game)
            other = 1 - d.seat
            hidden = [k for k, (t, n) in enumerate(zip(v.pile_tops[other], v.pile_sizes[other])) if t is None and n]
            if d.kind == "card" and hidden:
                row = next(line for line in session.format_view(game).splitlines() if "bot" in line and "piles" in line)
                cells = row.split("piles", 1)[1].strip().split("  |  ")
                assert cells[hidden[0]] == " ".join(["#"] * v.pile_sizes[other][hidden[0]])
                checked.add("hidden")
            if checked == {"lead", "hidden"}:
                return
            game.apply(heuristic().choose(v, game.legal_actions(), rng))
    raise AssertionError(f"only {checked} met in 40 deals")


def test_records_are_appended_only_to_a_records_file(capsys, tmp_path):
    """--records never glues JSON onto a file of another kind; a records file whose last line is
    not ended gets its newline first, so every line stays one record."""
    notes = tmp_path / "notes.jsonl"
    notes.write_text("name,score\nEmma,12\n")
    with pytest.raises(SystemExit) as e:
        main(["play", "--seed", "3", "--deals", "1", "--records", str(notes)])
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == "" and err.count("\n") == 1
    assert err == (f"tarotsim: error: --records {notes} is not a deal-records file (line 1: malformed JSON: "
                   f"Expecting value (column 1)): name another file\n")
    assert notes.read_text() == "name,score\nEmma,12\n"
    lines, records, _ = script(Rules("4"), 3, 0, 1, Person())
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(records[0]))  # one record, its line not ended
    res = CliRunner().invoke(cli, ["play", "--seed", "3", "--deals", "1", "--records", str(path)],
                             input="".join(f"{x}\n" for x in lines))
    assert res.exit_code == 0, res.output
    first, second = (json.loads(x) for x in path.read_text().splitlines())
    assert second.pop("players") == ["you", "bot1", "bot2", "bot3"]  # the names `stats --by player` reads
    assert first == second == records[0]


@pytest.mark.slow
def test_a_reader_that_leaves_ends_the_game_quietly(tmp_path):
    """`tarotsim play | head` (stdout closed by its reader mid-game) ends without a message about
    the records file it did not fail to write, and the records file holds whole lines only."""
    import subprocess
    import sys

    lines, _, _ = script(Rules("4"), 3, 0, 1, Person())
    path = tmp_path / "game.jsonl"
    p = subprocess.Popen([sys.executable, "-m", "tarotsim.cli", "play", "--seed", "3", "--deals", "1",
                          "--records", str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdin is not None
    p.stdout.readline()  # the game has started, and waits for the first answer
    p.stdout.close()  # the reader leaves before it is given
    _, err = p.communicate("".join(f"{x}\n" for x in lines), timeout=300)
    assert p.returncode == 1 and err == ""
    assert all(json.loads(x) for x in path.read_text().splitlines())


def test_the_hint_names_the_kernels_its_bot_compiles():
    """The first hint's compile notice counts the kernels of the hint bot's own build: the full
    card search for ``pimc:infer=1`` (the weighing), the bid search's kernel with ``bid_search``."""
    from tarotsim._builds import bid_search, pimc
    from tarotsim._builds.runs import COMPILE_SECONDS, hint_kernels

    assert interactive.hint_bot_name(Rules(table="4")) == interactive.HINT_BOT == "pimc:infer=1"
    kernels, seconds = hint_kernels(interactive.HINT_BOT)
    assert pimc.BUILDS["pimc_full"].decide_card in kernels and seconds == COMPILE_SECONDS["pimc_full"]
    kernels, seconds = hint_kernels("pimc")
    assert pimc.BUILDS["pimc"].decide_card in kernels and seconds == COMPILE_SECONDS["pimc"]
    kernels, seconds = hint_kernels("pimc:bid_search=1")
    assert bid_search.decide_search in kernels and seconds == COMPILE_SECONDS["bid_search"]
    kernels, seconds = hint_kernels("heuristic")
    assert len(kernels) == 2 and seconds == COMPILE_SECONDS["bots"]


def test_step_compile_seconds_says_a_cold_cache_and_then_none():
    """The hint's compile notice, for the library: the bot's kernels' compile time while numba's cache
    lacks them, None once one deal played step by step has compiled them."""
    from tarotsim._builds.runs import COMPILE_SECONDS
    from tarotsim.adapters import FastBotAdapter
    from tarotsim.runs.players import step_compile_seconds
    from tarotsim.runs.slowpath import play_record

    assert step_compile_seconds("heuristic") in (None, COMPILE_SECONDS["bots"])
    play_record(Rules(table="4"), 1, 0, [FastBotAdapter("heuristic") for _ in range(4)])
    assert step_compile_seconds("heuristic") is None


def test_the_post_mortem_says_you_take_to_the_taker():
    """`play --analyse` names the person "you", and its verbs agree: "you take", never "you takes"."""
    from pathlib import Path

    from tarotsim.record import load

    rec = next(r for _, r in load(Path(__file__).parent / "data" / "examples.jsonl")
               if r["table"] == "4" and r["outcome"] == "played")
    rules = Rules(table="4")
    you = interactive.Session(rules, rec["taker"], interactive.bots_for("heuristic", rules, rec["taker"]), 1)
    text = you.post_mortem(rec)
    assert f"\nyou take a {rec['contract'].replace('_', ' ')}" in text and "you takes" not in text
    other = (rec["taker"] + 1) % 4
    text = interactive.Session(rules, other, interactive.bots_for("heuristic", rules, other), 1).post_mortem(rec)
    assert f"\nbot{rec['taker']} takes a {rec['contract'].replace('_', ' ')}" in text
