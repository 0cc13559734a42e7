"""The learning data: every row against the facade on the same deal (observation, legal actions,
the action of the deal's record, where every card is, what the seat's knowledge allows), the
features the same for deals the seat cannot tell apart, and the shards on disk."""

import json
import random

import numpy as np
import pytest

from helpers_deals import hidden_twins
from tarotsim.runs import simulate
from tarotsim.engine import Game
from tarotsim.learn.data import DataError, decisions, load, pack, shard_files, unpack, write_data
from tarotsim.learn.features import PILE
from tarotsim.observations import OBS, observation
from tarotsim.rules import DECISION_KINDS, Rules
from tarotsim.worlds import PILE as WORLDS_PILE, constraints

MIXED = {"3": "heuristic,greedy,random", "4": "heuristic,greedy,random,heuristic",
         "5": "heuristic,greedy,random,heuristic,greedy", "5d": "heuristic,greedy,random,heuristic,greedy"}


def _allowed_bits(game, seat) -> np.ndarray:
    """The relative location bits of every card, from the exact sampler's constraints of the seat's view."""
    cons = constraints(game, seat)
    n = game.rules.n_seats
    out = np.zeros(78, dtype=np.uint8)

    def bit(loc):
        return 1 << (PILE if loc == WORLDS_PILE else (loc - seat) % n)

    for c, loc in cons.known.items():
        out[c.id] = bit(loc)
    for c, locs in cons.allowed.items():
        out[c.id] = sum(bit(loc) for loc in locs)
    return out


def _truth(game, seat) -> np.ndarray:
    """Where every card is, relative to ``seat``: who holds or played it, else the hidden pile."""
    d = game._deal
    n = game.rules.n_seats
    out = np.full(78, PILE, dtype=np.uint8)
    for s, hand in enumerate(d.hands):
        for c in hand:
            out[c.id] = (s - seat) % n
    for s, c in [p for t in d.tricks for p in t.plays] + list(d.trick):
        out[c.id] = (s - seat) % n
    return out


@pytest.mark.parametrize("table", ["3", "4", "5", "5d"])
def test_every_row_is_the_facade_at_that_decision(table):
    """Row by row, for every seat: the seat to decide, the decision's kind, the observation
    (tarotsim.observations), the legal actions (R-BID-2, R-CHIEN-2, R-PLAY-4a and the others), where each card
    truly is, the locations the exact sampler allows (docs/worlds.md: R-PLAY-4a to R-PLAY-4d,
    R-CHIEN-2, R-POIG-2, R-MIS-1 and the others) and the seat's final score; the actions replayed make the
    simulator's record of the deal."""
    rules = Rules(table, misere=True) if table == "4" else Rules(table)
    bots = MIXED[table]
    rows = decisions(rules, 3, 0, 6, bots)
    recs = simulate.records(rules, 3, range(6), bots)
    k = 0
    for index, rec in enumerate(recs):
        g = Game(rules, seed=3, index=index)
        while not g.done:
            seat = g.to_move
            assert (rows["index"][k], rows["seat"][k]) == (index, seat)
            assert DECISION_KINDS[rows["kind"][k]] == g.decision.kind
            assert np.array_equal(rows["obs"][k], observation(g, seat)), (index, k)
            assert np.flatnonzero(rows["mask"][k]).tolist() == g.legal_action_ids()
            assert np.array_equal(rows["location"][k], _truth(g, seat)), (index, k)
            assert np.array_equal(rows["allowed"][k], _allowed_bits(g, seat)), (index, k, g.decision)
            g.apply_action(int(rows["action"][k]))
            k += 1
        assert g.record() == rec
        mine = rows["index"] == index
        assert rows["score"][mine].tolist() == [g.scores[s] for s in rows["seat"][mine]]
    assert k == len(rows["index"])


def test_the_true_location_is_always_allowed_and_the_own_hand_is_known():
    rows = decisions("4", 5, 0, 20, "heuristic")
    where, allowed = rows["location"].astype(np.int64), rows["allowed"].astype(np.int64)
    live = allowed != 0
    assert np.all(((allowed >> where) & 1)[live] == 1)
    hand = rows["obs"][:, OBS["hand"]] == 1
    assert np.all(allowed[hand] == 1) and np.all(where[hand] == 0)
    seen = hand | (rows["obs"][:, OBS["ecart"]] == 1)  # the taker's picks stay in his hand until the écart is laid
    assert np.all(allowed[live & ~seen] != 1)


def test_chosen_seats_keep_only_their_rows():
    every = decisions("4", 5, 0, 10, "heuristic")
    two = decisions("4", 5, 0, 10, "heuristic", seats=[0, 2])
    keep = np.isin(every["seat"], [0, 2])
    for name in every:
        assert np.array_equal(two[name], every[name][keep]), name


def test_features_are_the_same_in_deals_the_seat_cannot_tell_apart():
    """The hidden-card swap: two cards the seat cannot see exchanged, the public actions replayed:
    the observation and the allowed locations (the rows' features) are the same."""
    rules = Rules("4")
    rnd = random.Random(4)

    def choose(seat, view, legal, stream):
        return legal[stream.below(len(legal))]

    met = 0
    for index in range(3):
        for twin in hidden_twins(rules, index, None, choose, lambda d, legal: True, rnd):
            seat = twin.decision.seat
            assert np.array_equal(observation(twin.game, seat), observation(twin.twin, seat))
            assert np.array_equal(_allowed_bits(twin.game, seat), _allowed_bits(twin.twin, seat))
            met += 1
    assert met > 50


def test_docs_hold_the_data_table():
    from pathlib import Path

    from tarotsim.learn.features import data_table

    assert data_table() in (Path(__file__).resolve().parent.parent / "docs" / "learn.md").read_text(encoding="utf-8")


def test_pack_and_unpack_give_the_rows_back():
    rows = decisions("5", 2, 0, 5, "heuristic")
    back = unpack(pack(rows))
    assert set(back) == set(rows)
    for name in rows:
        assert np.array_equal(back[name], rows[name]), name


def test_shards_hold_the_rows_whatever_their_size_and_threads(tmp_path):
    rows = decisions("4", 7, 3, 13, "heuristic,greedy,greedy,random")
    for shard, threads in ((4, 1), (3, 2)):
        folder = tmp_path / f"d{shard}"
        manifest = write_data(folder, "4", 7, 10, "heuristic,greedy,greedy,random", start=3, shard_deals=shard,
                              threads=threads)
        assert manifest == json.loads((folder / "data.json").read_text())
        back = load(folder)
        for name in rows:
            assert np.array_equal(back[name], rows[name]), name


def test_a_run_started_again_writes_only_the_missing_shards(tmp_path):
    write_data(tmp_path, "4", 1, 6, "greedy", shard_deals=2)
    _, files = shard_files(tmp_path)
    files[1].unlink()
    stamp = files[0].stat().st_mtime_ns
    seen = []
    write_data(tmp_path, "4", 1, 6, "greedy", shard_deals=2, progress=seen.append)
    assert files[1].exists() and files[0].stat().st_mtime_ns == stamp
    assert seen == [4, 2]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.json"] + sorted(f.name for f in files)


def test_a_run_grown_by_more_deals_keeps_its_shards_and_equals_the_larger_run(tmp_path):
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    write_data(grown, "4", 1, 5, "greedy", shard_deals=2)
    first = grown / "shard-000000000000-000000000002.npz"
    stamp = first.stat().st_mtime_ns
    write_data(grown, "4", 1, 8, "greedy", shard_deals=2)
    write_data(whole, "4", 1, 8, "greedy", shard_deals=2)
    assert first.stat().st_mtime_ns == stamp
    assert json.loads((grown / "data.json").read_text()) == json.loads((whole / "data.json").read_text())
    # The short shard of deal 4 alone is gone: the grown run holds deals 4 and 5 in one.
    assert sorted(p.name for p in grown.iterdir()) == sorted(p.name for p in whole.iterdir())
    a, b = load(grown), load(whole)
    for name in b:
        assert np.array_equal(a[name], b[name]), name
    with pytest.raises(DataError, match="differs in: stop"):
        write_data(grown, "4", 1, 6, "greedy", shard_deals=2)


def test_a_folder_of_another_run_or_without_data_is_refused(tmp_path):
    write_data(tmp_path, "4", 1, 2, "greedy", shard_deals=2)
    with pytest.raises(DataError, match="holds the data of another run .*differs in: seed"):
        write_data(tmp_path, "4", 2, 2, "greedy", shard_deals=2)
    with pytest.raises(DataError, match="holds no training data"):
        load(tmp_path / "nothing")
    (tmp_path / "shard-000000000000-000000000002.npz").unlink()
    with pytest.raises(DataError, match="1 of 1 shards are missing"):
        load(tmp_path)


def test_bad_arguments_are_data_errors():
    with pytest.raises(DataError, match="seat 4 is not a seat of a table of 4"):
        decisions("4", 1, 0, 2, "greedy", seats=[4])
    with pytest.raises(DataError, match="table 2"):
        decisions("2", 1, 0, 2, "greedy")


def test_the_data_command_writes_the_shards_and_says_so(cli, tmp_path):
    out = tmp_path / "data"
    code, stdout, err = cli("learn", "data", "--bots", "greedy", "--deals", 4, "--seed", 1, "--shard-deals", 2,
                            "--out", out)
    assert code == 0, err
    rows = load(out)
    assert stdout.splitlines() == [f"{len(rows['index'])} decisions of 4 deals written to {out} (2 shards)"]
    assert np.array_equal(rows["action"], decisions("4", 1, 0, 4, "greedy")["action"])


@pytest.mark.parametrize("args, line", [
    (["--bots", "nobot"], "unknown bot 'nobot'"),
    (["--seats", "0,7"], "seat 7 is not a seat of a table of 4"),
    (["--table", "2"], "Invalid value for '--table'"),
])
def test_the_data_command_refuses_bad_input_in_one_line(cli, tmp_path, args, line):
    code, stdout, err = cli("learn", "data", "--deals", 2, "--seed", 1, "--out", tmp_path / "d", *args)
    assert code == 2 and stdout == ""
    assert len(err.strip().splitlines()) == 1 and line in err, err
    assert not (tmp_path / "d").exists()
