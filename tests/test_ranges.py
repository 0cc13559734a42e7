"""Numbers out of range, refused at the edge of the library (and so of the CLI): seeds, deal
indices, numbers of deals, and whole-number variant options (RULES §14)."""

import json

import numpy as np
import pytest

from tarotsim import rng

from tarotsim.runs import simulate as sim, study
from tarotsim.engine import Game
from tarotsim.rng import MAX_INDEX, MAX_SEED, DealIdError, check_index, check_run, check_seed
from tarotsim.rules import OPTION_RANGES, Rules, RulesError
from tarotsim.runs.tournament import Entry, run as tournament

BAD_TYPES = [1.5, 1.0, True, np.True_, "3", None, np.float64(2.0), [1]]


# ---------------------------------------------------------------------------------------------
# the checkers


@pytest.mark.parametrize("seed", [0, 1, MAX_SEED, np.uint64(MAX_SEED), np.int64(7), np.uint32(3)])
def test_seeds_in_range_are_taken_as_python_ints(seed):
    got = check_seed(seed)
    assert type(got) is int and got == int(seed)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 2**70] + BAD_TYPES)
def test_seeds_out_of_range_or_not_whole_are_refused_never_wrapped(seed):
    with pytest.raises(DealIdError, match="seed"):
        check_seed(seed)


@pytest.mark.parametrize("index", [-1, MAX_INDEX + 1, MAX_SEED] + BAD_TYPES)
def test_indices_out_of_int64_or_not_whole_are_refused(index):
    with pytest.raises(DealIdError, match="index"):
        check_index(index)


def test_a_run_may_end_at_the_last_index_but_not_pass_it():
    assert check_run(MAX_INDEX - 9, 10) == (MAX_INDEX - 9, MAX_INDEX + 1)
    with pytest.raises(DealIdError, match="2\\*\\*63"):
        check_run(MAX_INDEX - 9, 11)
    with pytest.raises(DealIdError, match="at least 1"):
        check_run(0, 0, minimum=1)
    with pytest.raises(DealIdError, match="whole number"):
        check_run(0, 2.5)


def test_deal_id_error_is_a_value_error():
    assert issubclass(DealIdError, ValueError)


# ---------------------------------------------------------------------------------------------
# every entry point


def test_rng_entry_points_refuse_what_they_used_to_wrap():
    """Before: seed 2**64 dealt the cards of seed 0, -1 those of 2**64 - 1, 1.5 those of 1."""
    r = Rules("4")
    for bad_seed in (MAX_SEED + 1, -1, 1.5):
        for call in (lambda s=bad_seed: rng.stream_state(s, 0, rng.STREAM_CARDS),
                     lambda s=bad_seed: rng.shuffled_deck(s, 0), lambda s=bad_seed: rng.deal(r, s, 0),
                     lambda s=bad_seed: rng.Rng.for_deal(s, 0, rng.STREAM_BOTS)):
            with pytest.raises(DealIdError):
                call()
    with pytest.raises(DealIdError):
        rng.deal(r, 1, MAX_INDEX + 1)
    # the largest seed and index are fine, and numpy integers give the same deal as ints
    assert rng.deal(r, np.uint64(MAX_SEED), np.int64(MAX_INDEX)) == rng.deal(r, MAX_SEED, MAX_INDEX)


@pytest.mark.parametrize("kwargs", [
    {"seed": MAX_SEED + 1}, {"seed": -1}, {"seed": 1.5}, {"seed": True},
    {"seed": 1, "index": MAX_INDEX + 1}, {"seed": 1, "index": -3}, {"seed": 1, "index": 2.0},
])
def test_game_refuses_a_bad_seed_or_index(kwargs):
    with pytest.raises(DealIdError):
        Game(Rules("4"), **kwargs)


def test_game_takes_numpy_integers_and_records_plain_ints():
    g = Game(Rules("4"), seed=np.uint64(MAX_SEED), index=np.int64(3))
    assert type(g.seed) is int and type(g.index) is int and g.seed == MAX_SEED


@pytest.mark.parametrize("call", [
    lambda: sim.facts("4", MAX_SEED + 1, 0, 3),
    lambda: sim.facts("4", -1, 0, 3),
    lambda: sim.facts("4", 1.5, 0, 3),
    lambda: sim.facts("4", 1, 1.5, count=3),
    lambda: sim.facts("4", 1, MAX_INDEX + 1, count=1),
    lambda: sim.facts("4", 1, MAX_INDEX - 5, count=10),
    lambda: sim.facts("4", 1, 0, count=2.5),
    lambda: sim.facts("4", 1, 5, 3),
    lambda: sim.aggregate("4", 1, MAX_INDEX - 5, count=10),
    lambda: sim.aggregate("4", MAX_SEED + 1, 0, 10),
    lambda: sim.records("4", 1, [0, MAX_INDEX + 1]),
    lambda: sim.records("4", 1, [1.5]),
    lambda: sim.records("4", MAX_SEED + 1, [0]),
    lambda: sim.logs("4", 1, [-1]),
    lambda: sim.logs("4", 1, [True]),
])
def test_simulate_entry_points_refuse_out_of_range(call):
    with pytest.raises(DealIdError):
        call()


def test_simulate_plays_the_very_last_deals_and_the_largest_seed():
    f = sim.facts("4", MAX_SEED, MAX_INDEX - 2, count=3)
    assert f["index"].tolist() == [MAX_INDEX - 2, MAX_INDEX - 1, MAX_INDEX]
    rec = sim.records("4", MAX_SEED, [MAX_INDEX])[0]
    assert rec["seed"] == MAX_SEED and rec["index"] == MAX_INDEX
    assert rng.deal(Rules("4"), MAX_SEED, MAX_INDEX)[0] == rec["dealer"]


@pytest.mark.parametrize("kwargs", [
    {"seed": MAX_SEED + 1}, {"seed": 2.5}, {"start": MAX_INDEX - 5}, {"start": -1}, {"deals": 0},
    {"deals": 3.0},
])
def test_tournament_and_study_entry_points_refuse_out_of_range(kwargs):
    args = {"seed": 1, "start": 0, "deals": 10, **kwargs}
    with pytest.raises(DealIdError):
        tournament(Rules("4"), args["seed"], args["deals"], [Entry("a", "random"), Entry("b", "greedy")] * 2,
                   start=args["start"])
    with pytest.raises(DealIdError):
        study.plan(Rules("4"), args["seed"], args["deals"], start=args["start"])


# ---------------------------------------------------------------------------------------------
# whole-number options (RULES §14)


@pytest.mark.parametrize("name,value", [
    ("misere_value", "10**23"), ("misere_value", 10**23), ("misere_value", "100000000000000000000000"),
    ("misere_value", 10_001), ("misere_value", -1), ("misere_value", 1.5), ("misere_value", "1.5"),
    ("misere_value", True), ("misere_value", "1e3"), ("game_end", 0), ("game_end", 10**9 + 1),
    ("game_end", "2.5"), ("game_end", False),
])
def test_whole_number_options_out_of_range_are_refused(name, value):
    with pytest.raises(RulesError, match=name):
        Rules.from_options("4", {name: value})


def test_whole_number_options_at_their_bounds_fit_the_kernels_vector():
    for name, (lo, hi) in OPTION_RANGES.items():
        for v in (lo, hi, str(hi), np.int64(hi)):
            assert getattr(Rules.from_options("4", {name: v}), name) == int(v)
    r = Rules(misere=True, misere_value=OPTION_RANGES["misere_value"][1])
    assert r.to_vector().dtype == np.int64 and r.to_vector().max() == 10_000


# ---------------------------------------------------------------------------------------------
# the command line: one line, exit code 2


@pytest.mark.parametrize("argv,needle", [
    (["tournament", "--bots", "heuristic,random,random,random", "--start", "9223372036854775000",
      "--deals", "10000", "--seed", "1"], "2**63"),
    (["tournament", "--bots", "heuristic,random,random,random", "--start", str(2**63), "--deals", "10"],
     "--start"),
    (["tournament", "--bots", "heuristic,random,random,random", "--seed", str(2**63), "--deals", "10"],
     "--seed"),
    (["simulate", "--start", "9223372036854775000", "--deals", "10000", "--seed", "1"], "2**63"),
    (["study", "bidding", "--start", "9223372036854775000", "--deals", "10000", "--seed", "1"], "2**63"),
    (["score", "--contract", "garde", "--oudlers", "2", "--points", "45", "--option", "misere_value=10**23"],
     "misere_value"),
    (["simulate", "--deals", "10", "--option", "misere_value=100000000000000000000000"], "0..10000"),
    (["sheet", "-", "--until", str(10**9 + 1)], "game_end"),
])
def test_cli_out_of_range_is_one_line_exit_2(cli, argv, needle):
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err and "Traceback" not in err
    assert err.startswith("tarotsim: error: ")


def test_cli_largest_start_that_fits_runs(cli):
    code, out, _ = cli("tournament", "--bots", "greedy,random,random,random", "--seed", "3",
                       "--start", str(MAX_INDEX - 9), "--deals", "10", "--json")
    assert code == 0 and json.loads(out)["start"] == MAX_INDEX - 9
