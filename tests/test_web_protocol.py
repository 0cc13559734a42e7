"""`tarotsim serve` through its protocol alone (tarotsim-table/1, no browser): a server on a free
port of 127.0.0.1, pages that are websocket clients.

A seeded deal is played to its end (the person as helpers_web.choose), stored as its record,
exported (JSONL that `replay --verify` accepts, a sheet that `sheet --check` finds right) and
reviewed (each card's cost, as `analyse --html`); illegal choices are refused with their rule id
(R-BID-2, R-CHIEN-2, R-PLAY-4a and the others) and change nothing; every malformed, oversized, out-of-turn
or wrong-seat message is one error to its page, the game unchanged and the server alive; a flood
is dropped and said once a second; each page has its own game; nothing a page sends reaches a
file or loads code."""

from __future__ import annotations

import json
import time

import pytest

from tarotsim.record import verify
from tarotsim.web.server import BURST, MAX_MESSAGE, RATE, check_message, ProtocolError
from tarotsim.web.store import Store

from helpers_web import Page, choose, get, running_server

BUDGET = 20_000  # the solver's nodes per question of a review: the last tricks, quickly


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("serve") / "evenings.sqlite3"
    with running_server(db, budget=BUDGET) as url:
        yield url, db


def new_page(url: str, **msg) -> tuple[Page, dict]:
    page = Page(url)
    page.send(type="new", **{"table": "4", "seat": 0, "seed": 16, "bots": "heuristic", **msg})
    return page, page.settled()


def test_hello_names_the_protocol_and_draws_every_card(server):
    url, _ = server
    page = Page(url)
    h = page.hello
    assert h["protocol"] == "tarotsim-table/1" and h["tables"] == ["3", "4", "5", "5d"]
    assert h["hint_bot"] == "pimc:infer=1" and h["bots"] == "heuristic"
    assert h["limits"] == {"message": MAX_MESSAGE, "rate": RATE, "burst": BURST}
    assert len(h["cards"]) == 78 and h["cards"]["KH"].startswith("<rect")
    page.close()


def test_a_seeded_deal_through_the_protocol_is_stored_exported_and_reviewed(server, cli, tmp_path):
    url, db = server
    page, state = new_page(url)
    assert state["table"] == "4" and state["seat"] == 0 and state["names"] == ["you", "bot1", "bot2", "bot3"]
    assert state["dealer"] == 16 % 4 and state["deal"] == 1 and state["index"] == 0  # first index: seed mod n
    end = page.play_deal(state)
    evening = end["evening"]
    store = Store(db, create=False)
    (rec,) = store.records(evening)
    assert end["result"]["scores"] == rec["scores"] and end["result"]["number"] == 1
    assert end["sheet"]["rows"][0]["scores"] == rec["scores"] and end["sheet"]["totals"] == rec["scores"]
    assert rec["players"] == ["you", "bot1", "bot2", "bot3"] and (rec["seed"], rec["index"]) == (16, 0)
    assert ("garde" in [b for s, b in rec["bids"] if s == 0]) and verify(rec).scores == rec["scores"]
    assert "R-COUNT-1" in end["result"]["count"] and "value V" in end["result"]["count"]
    # the review: the solver's verdict on each card, as analyse gives it
    review = page.until("review")
    assert review["deal"] == 1 and review["costs"] and review["text"].startswith("Exact analysis")
    made = store.review(evening, 1)
    costs = [c for row in made["card_costs"] for c in row if c is not None]
    assert costs and all(c >= 0 for c in costs)
    status, kind, body = get(url.rstrip("/") + review["url"])
    assert status == 200 and kind.startswith("text/html")
    data = json.loads(body.decode().split("const DATA = ")[1].split(";\nconst cardsLayer")[0])
    panels = "".join(s["p"] for s in data["deals"][0]["steps"])
    assert 'class="best"' in panels  # each analysed card marked on the page (the costs, as analyse --html)
    # the exports
    status, kind, body = get(f"{url}evenings/{evening}/records.jsonl")
    assert status == 200 and json.loads(body) == rec
    (tmp_path / "e.jsonl").write_bytes(body)
    code, out, err = cli("replay", tmp_path / "e.jsonl", "--verify")
    assert code == 0 and out.endswith("1 record(s) verified, 0 bad\n")
    status, kind, body = get(f"{url}evenings/{evening}/sheet.csv")
    assert status == 200 and kind.startswith("text/csv")
    (tmp_path / "e.csv").write_bytes(body)
    assert cli("sheet", tmp_path / "e.csv", "--check")[1] == "1 deal(s) checked: every one scored as the rules say\n"
    assert get(f"{url}evenings/999/sheet.csv")[0] == 404 and get(f"{url}evenings/{evening}/deals/5/review")[0] == 404
    # the next deal: dealt by the next seat (R-DEAL-3)
    page.send(type="next", turn=end["turn"])
    nxt = page.until("state")
    assert (nxt["deal"], nxt["index"], nxt["dealer"], nxt["over"]) == (2, 1, 1, False)
    page.close()
    store.close()


@pytest.mark.parametrize("table, seat, seed", [("3", 2, 5), ("5", 1, 2), ("5d", 0, 3)])
def test_every_table_the_page_offers_plays_to_a_stored_record(server, table, seat, seed):
    """Table 5: the call (R-CALL-1) and the partner as the seat knows him; 5d: the dummy sits out (R-DEAL-6)."""
    url, db = server
    page, state = new_page(url, table=table, seat=seat, seed=seed)
    kinds = set()
    while not state["over"]:
        kinds.add(state["decision"]["kind"])
        page.send(type="act", action=choose(state["choices"]), turn=state["turn"])
        state = page.settled()
    rec = Store(db, create=False).records(state["evening"])[0]
    assert verify(rec).scores == rec["scores"] == state["result"]["scores"] and rec["table"] == table
    if table == "5" and rec["taker"] == seat:
        assert "call" in kinds
    page.close()


def refused(page: Page, state: dict, action: str) -> dict:
    """``action`` is refused with its rule, and the table is as it was."""
    page.send(type="act", action=action, turn=state["turn"])
    msg = page.receive()
    assert msg["type"] == "refused" and msg["action"] == action, msg
    page.send(type="state")
    again = page.until("state")
    assert again["turn"] == state["turn"] and again["hand"] == state["hand"] and again["log"] == state["log"]
    return msg


def test_illegal_choices_are_refused_with_their_rule_and_change_nothing(server):
    url, _ = server
    page, state = new_page(url, seed=16)
    # every illegal choice the state lists names its rule; sending it is refused with that rule
    seen = set()
    while not state["over"]:
        for c in state["choices"]:
            if not c["legal"] and c["rule"] not in seen:
                msg = refused(page, state, c["action"])
                assert msg["rule"] == c["rule"] and msg["message"] == f"refused: {c['why']}"
                assert msg["message"].endswith(f"({c['rule']})")
                seen.add(c["rule"])
        page.send(type="act", action=choose(state["choices"]), turn=state["turn"])
        state = page.settled()
    assert {"R-CHIEN-2"} <= seen and seen & {"R-PLAY-4a", "R-PLAY-4b", "R-PLAY-4c"}, seen
    page.close()


def test_the_ecart_is_picked_card_by_card_and_a_pick_taken_back_R_CHIEN_2(server):
    url, _ = server
    page, state = new_page(url, seed=16)
    page.send(type="act", action="garde", turn=state["turn"])
    state = page.settled()
    assert state["decision"]["kind"] == "ecart" and state["ecart_size"] == 6
    assert set(state["marked"]) == set(state["chien"]) and len(state["hand"]) == 24
    legal = [c["action"] for c in state["choices"] if c["legal"]]
    kings = [c for c in state["choices"] if c["action"] == "KS"]
    assert kings and not kings[0]["legal"] and kings[0]["why"] == "never a king in the écart: KS (R-CHIEN-2)"
    for card in legal[:3]:
        page.send(type="act", action=card, turn=state["turn"])
        state = page.until("state")
    assert state["picks"] == legal[:3] and state["decision"]["kind"] == "ecart"
    assert not [c for c in state["choices"] if c["action"] in legal[:3]]  # a picked card is no more a choice
    page.send(type="unpick", card=legal[1], turn=state["turn"])
    state = page.until("state")
    assert state["picks"] == [legal[0], legal[2]]
    page.send(type="unpick", card="KS", turn=state["turn"])
    assert page.receive()["message"] == "'KS' is not a card of your écart being picked"
    rest = [c["action"] for c in state["choices"] if c["legal"]][:4]
    for card in rest:
        page.send(type="act", action=card, turn=page.last["turn"])
        state = page.until("state")
    assert state["ecart"] == sorted([legal[0], legal[2], *rest], key=lambda c: __import__("tarotsim").Card.parse(c))
    assert "you lay aside" in " ".join(state["log"])
    page.close()


BAD = [
    ("nope", "not JSON: 'nope'"),
    ("[1, 2]", 'a message is a JSON object with a "type"'),
    ('{"type": 3}', 'a message is a JSON object with a "type"'),
    ('{"type": "fly"}', "unknown message type 'fly'"),
    ('{"type": "act"}', "act: the field 'action' is missing"),
    ('{"type": "act", "action": 5, "turn": 1}', "act: action must be a text, not 5"),
    ('{"type": "act", "action": "KH", "turn": true}', "act: turn must be a whole number, not True"),
    ('{"type": "act", "action": "KH", "turn": 1, "path": "/etc/passwd"}', "act: no field 'path'"),
    ('{"type": "act", "action": "' + "K" * 41 + '", "turn": 1}', "act: action holds 41 characters or items, at most 40"),
    ('{"type": "new", "table": "4", "seat": 0, "options": [1]}', "new: options must be a list of texts"),
    ("x" * (MAX_MESSAGE + 1), f"a message of {MAX_MESSAGE + 1:,} characters: at most {MAX_MESSAGE:,}"),
]


@pytest.mark.parametrize("text, words", BAD)
def test_check_message_refuses_what_is_no_message(text, words):
    with pytest.raises(ProtocolError) as e:
        check_message(text)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_bad_messages_get_one_error_each_and_change_nothing(server):
    url, _ = server
    page, state = new_page(url, seed=16)
    errors = []

    def error(raw) -> str:
        page.ws.send(raw)
        msg = page.receive()
        assert msg["type"] == "error", msg
        errors.append(msg["message"])
        return msg["message"]

    for text, words in BAD:
        assert words in error(text)
    assert error(b"\x00\x01") == "the protocol's messages are JSON text, not binary frames"
    turn = state["turn"]
    assert error(json.dumps({"type": "act", "action": "ZZ", "turn": turn})).startswith("'ZZ' is no action: a bid")
    assert error(json.dumps({"type": "act", "action": "pass", "turn": turn, "seat": 2})) == \
        "wrong seat: you hold seat 0, not 2"
    assert error(json.dumps({"type": "act", "action": "pass", "turn": turn - 1})).startswith("out of turn: that was")
    assert error(json.dumps({"type": "unpick", "card": "KS", "turn": turn})) == \
        "'KS' is not a card of your écart being picked"
    assert error(json.dumps({"type": "next", "turn": turn})) == "the deal is not over yet"
    assert error(json.dumps({"type": "resume", "evening": 10**6})).endswith("holds no evening 1000000")
    page.send(type="state")
    again = page.until("state")
    assert again["turn"] == turn and again["choices"] == state["choices"] and again["log"] == state["log"]
    assert len(errors) == len(BAD) + 7
    page.close()


def test_a_bot_s_turn_is_no_one_else_s(server):
    """While the bots play (slowly here), the person's choices and hints are refused as out of turn."""
    url, db = server
    with running_server(db, pace=1.0) as slow:
        page, state = new_page(slow, seed=17)  # dealer seat 1: seats 2, 3, then the person, then seat 1 bid
        page.send(type="act", action="pass", turn=state["turn"])
        msg = page.until("state")
        assert not msg["yours"] and msg["decision"] == {"kind": "bid", "seat": 1}
        page.send(type="act", action="pass", turn=msg["turn"])
        assert page.until("error")["message"] == "not your turn: bot1 is to decide (bid)"
        page.send(type="hint")
        assert page.until("error")["message"] == "not your turn: bot1 is to decide (bid)"
        page.close()


def test_a_flood_is_dropped_said_once_a_second_and_the_page_still_plays(server):
    url, _ = server
    page, state = new_page(url, seed=16)
    t0 = time.monotonic()
    for _ in range(3000):
        page.ws.send('{"type": "state"}')
    said = states = 0
    last = t0  # when the last answer came: the server read the flood within [t0, last]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            msg = page.receive(timeout=2)
        except TimeoutError:
            break
        last = time.monotonic()
        said += msg["type"] == "error" and msg["message"].startswith("too many messages: ")
        states += msg["type"] == "state"
    took = last - t0
    assert BURST <= states <= BURST + RATE * took + 1 and 1 <= said <= took + 2, (states, said, took)
    time.sleep(BURST / RATE)  # the page's allowance comes back
    page.send(type="act", action="garde", turn=state["turn"])
    assert page.until("state")["turn"] > state["turn"]
    page.close()


def test_each_page_has_its_own_game_and_an_open_evening_is_not_taken(server):
    url, _ = server
    one, a = new_page(url, seed=16)
    two, b = new_page(url, seed=16)
    assert a["evening"] != b["evening"] and a["hand"] == b["hand"]  # the same deal, two games
    one.send(type="act", action="garde", turn=a["turn"])
    assert one.settled()["decision"]["kind"] == "ecart"
    two.send(type="state")
    assert two.until("state")["bids"] == b["bids"]  # the other game did not move
    two.send(type="resume", evening=a["evening"])
    assert two.until("error")["message"] == f"evening {a['evening']} is open in another page"
    before = one.last
    one.close()
    time.sleep(0.5)
    three = Page(url)
    row = [e for e in three.evenings if e["evening"] == a["evening"]][0]
    assert row["deals"] == 0 and not row["open"]
    three.send(type="resume", evening=a["evening"])
    resumed = three.settled()
    for key in ("hand", "choices", "picks", "bids", "log", "picture", "marked", "chien"):
        assert resumed[key] == before[key], key
    two.close()
    three.close()


def test_the_page_sees_no_card_it_may_not_see(server):
    """The other hands and the unseen chien are drawn as backs that name no card: the page's
    picture names only the person's cards and those shown to all."""
    import re

    url, _ = server
    page, state = new_page(url, seed=16)
    named = set(re.findall(r'data-card="([^"]+)"', state["picture"]))
    assert named == set() and state["picture"].count('class="card down"') == 3 * 18 + 6
    page.send(type="act", action="garde", turn=state["turn"])
    state = page.settled()
    named = set(re.findall(r'data-card="([^"]+)"', state["picture"]))
    assert named == set()  # the chien is in the person's own hand, drawn below the picture
    end = page.play_deal(state)
    assert len(end["last_trick"]["plays"]) == 4
    page.close()


def test_no_message_reaches_a_file_or_loads_code(server, tmp_path):
    url, db = server
    page = Page(url)
    page.send(type="new", table="4", seat=0, seed=1, bots="examples.my_bot:CautiousBot")
    assert page.until("error")["message"].startswith("bot 'examples.my_bot:CautiousBot': a bot of your own")
    page.send(type="new", table="2", seat=0, seed=1)
    assert page.until("error")["message"] == "table '2': the page seats a person at table 3, 4, 5, 5d"
    page.send(type="new", table="4", seat=7, seed=1)
    assert "is not a seat of table 4" in page.until("error")["message"]
    page.send(type="new", table="4", seat=0, seed=-1)
    assert page.until("error")["message"] == "seed -1: a whole number in 0..2**63-1"
    page.send(type="new", table="4", seat=0, seed=1, options=["nope=1"])
    assert "unknown option 'nope'" in page.until("error")["message"]
    page.send(type="new", table="4", seat=0, seed=1, bots="nonsense")
    assert "nonsense" in page.until("error")["message"]
    page.close()
    for path in ("static/../store.py", "static/%2e%2e/server.py", "static/..%2fstore.py", "evenings/1/../../etc"):
        assert get(url + path)[0] == 404, path
    assert get(url + "static/table.js")[0] == 200
    with running_server(tmp_path / "own.sqlite3", bots="examples.my_bot:CautiousBot") as own:
        page = Page(own)
        page.send(type="new", table="4", seat=0, seed=1, bots="examples.my_bot:CautiousBot")
        assert page.settled()["names"] == ["you", "bot1", "bot2", "bot3"]
        page.close()


def test_a_frame_past_the_limit_closes_that_page_only(server):
    url, _ = server
    page, state = new_page(url, seed=16)
    other, _ = new_page(url, seed=3)
    from websockets.exceptions import ConnectionClosed

    page.ws.send("x" * 70_000)
    with pytest.raises(ConnectionClosed) as e:
        while True:
            page.receive(timeout=10)
    assert e.value.rcvd.code == 1009  # message too big: the protocol's own answer
    other.send(type="state")
    assert other.until("state")["turn"]  # the server lives, the other game goes on
    again = Page(url)
    again.send(type="resume", evening=state["evening"])
    assert again.settled()["hand"] == state["hand"]
    other.close()
    again.close()


def test_a_hint_is_the_strongest_bot_s_advice_and_changes_no_deal(server):
    """The hint (pimc:infer=1, as play's) names a legal choice, from its own random stream: the
    deal played after a hint is the deal played without one."""
    url, db = server
    page, state = new_page(url, seed=21)
    page.send(type="hint", turn=state["turn"])
    hint = page.until("hint", timeout=600)
    legal = {c["action"] for c in state["choices"] if c["legal"]}
    assert hint["turn"] == state["turn"] and set(hint["actions"]) <= legal and len(hint["actions"]) == 1
    assert hint["text"].startswith("pimc:infer=1 would ")
    hinted = page.play_deal(state)
    again, first = new_page(url, seed=21)
    plain = again.play_deal(first)
    store = Store(db, create=False)
    one, two = store.records(hinted["evening"])[0], store.records(plain["evening"])[0]
    assert one == two
    page.close()
    again.close()
