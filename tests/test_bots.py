"""The bot registry (``bots``): specs, parameter vectors, ``parse_bots``, and the plumbing into
``tarotsim.runs.simulate.bot_arrays`` and the kernels' bot codes."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import bots
from bots import BOT_KINDS, REGISTRY, BotError, BotSpec, Param, parse_bots
from tarotsim import echo
from tarotsim.runs import simulate
from tarotsim._kernels import layout
from tarotsim.rules import Rules


def test_registry_matches_the_kernel_codes():
    assert list(REGISTRY) == ["random", "greedy", "heuristic", "pimc", "learned"]
    assert {n: s.code for n, s in REGISTRY.items()} == BOT_KINDS == simulate.BOT_KINDS
    for name, spec in REGISTRY.items():
        assert isinstance(spec, BotSpec) and spec.name == name
        assert spec.description and "\n" not in spec.description
        assert len(spec.params) <= layout.N_BOT_PARAMS == bots.N_BOT_PARAMS
        assert len({p.name for p in spec.params}) == len(spec.params)
        for p in spec.params:
            assert isinstance(p, Param) and p.kind in (int, float, bool) and p.help
            assert isinstance(p.default, p.kind) or (p.kind is float and isinstance(p.default, (int, float)))
    assert REGISTRY["random"].params == ()
    names = [p.name for p in REGISTRY["heuristic"].params]
    assert names[:4] == ["prise", "garde", "garde_sans", "garde_contre"]
    assert REGISTRY["greedy"].params[0].name == "prise"


def test_vector_defaults_and_overrides():
    spec = REGISTRY["heuristic"]
    v = spec.vector()
    assert v.dtype == np.float64 and v.shape == (layout.N_BOT_PARAMS,)
    assert v[:len(spec.params)].tolist() == [float(p.default) for p in spec.params]
    assert not v[len(spec.params):].any()
    w = spec.vector(garde=60, prise="41.5", hunt="6", chelem=14.0)
    assert w[1] == 60 and w[0] == 41.5
    assert spec.values(w)["hunt"] == 6 and isinstance(spec.values(w)["hunt"], int)
    assert spec.overrides(w) == {"prise": 41.5, "garde": 60.0, "hunt": 6, "chelem": 14}
    assert REGISTRY["random"].vector().tolist() == [0.0] * layout.N_BOT_PARAMS
    with pytest.raises(BotError) as e:
        spec.vector(gard=56)
    assert str(e.value).startswith("bot heuristic has no parameter 'gard' (known: prise, garde, ")
    assert "\n" not in str(e.value)
    with pytest.raises(BotError, match="random has no parameter 'x' \\(known: none\\)"):
        REGISTRY["random"].vector(x=1)


@pytest.mark.parametrize("value", ["abc", "", "nan", True, None, [1]])
def test_float_parameter_rejects(value):
    with pytest.raises(BotError, match="parameter garde takes a"):
        REGISTRY["heuristic"].vector(garde=value)


@pytest.mark.parametrize("value", ["1.5", 1.5, "x", True, "2.0e0"])
def test_int_parameter_rejects(value):
    with pytest.raises(BotError, match="parameter hunt takes a whole number"):
        REGISTRY["heuristic"].vector(hunt=value)


def test_bool_parameter():
    p = Param("smear", True, bool, "throw points")
    assert [p.coerce(x) for x in ("yes", "off", "TRUE", "0", 1, False)] == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    with pytest.raises(BotError, match="takes true or false"):
        p.coerce("maybe")
    with pytest.raises(BotError, match="takes true or false"):
        p.coerce(2)


def test_parameter_with_one_bound():
    """A Param bounded on one side only (lo or hi None) refuses a value past that bound with a
    BotError naming it (it used to raise TypeError while writing the message)."""
    at_most = Param("depth", 3, int, "search depth", None, 5)
    assert at_most.coerce("-7") == -7.0
    with pytest.raises(BotError, match=r"parameter depth takes a value of at most 5, not '7'"):
        at_most.coerce("7")
    at_least = Param("margin", 0.5, float, "a margin", 0.0, None)
    assert at_least.coerce(1e9) == 1e9
    with pytest.raises(BotError, match=r"parameter margin takes a value of at least 0.0, not -1"):
        at_least.coerce(-1)


def test_parse_bots_forms():
    out = parse_bots("heuristic", 4)
    assert [n for n, _ in out] == ["heuristic"] * 4
    assert all(np.array_equal(v, REGISTRY["heuristic"].vector()) for _, v in out)
    out[0][1][0] = 99.0  # each seat gets its own vector
    assert out[1][1][0] != 99.0
    out = parse_bots("heuristic:garde=56,prise=40,random,random,random", 4)
    assert [n for n, _ in out] == ["heuristic", "random", "random", "random"]
    assert out[0][1][1] == 56 and out[0][1][0] == 40
    out = parse_bots(" Greedy:prise=8 , HEURISTIC:garde=50,hunt=4 ,random", 3)
    assert [n for n, _ in out] == ["greedy", "heuristic", "random"]
    assert out[0][1][0] == 8 and out[1][1][1] == 50 and out[1][1][REGISTRY["heuristic"].params.index(
        REGISTRY["heuristic"].param("hunt"))] == 4
    assert [n for n, _ in parse_bots("greedy:prise=8", 5)] == ["greedy"] * 5


@pytest.mark.parametrize("text,n,needle", [
    ("heuristic,random", 4, "2 bots for a table of 4 seats"),
    ("genius", 4, "unknown bot 'genius' (known: random, greedy, heuristic, pimc, learned, strong)"),
    ("heuristic:gard=56", 4, "bot heuristic has no parameter 'gard' (known: prise, garde"),
    ("heuristic:garde=abc", 4, "bot heuristic parameter garde takes a number, not 'abc'"),
    ("heuristic:hunt=1.5", 4, "bot heuristic parameter hunt takes a whole number, not '1.5'"),
    ("heuristic:garde=56,garde=57", 4, "parameter garde given twice"),
    ("heuristic:garde", 4, "'garde' is not NAME=VALUE"),
    ("heuristic:", 4, "nothing after ':'"),
    ("garde=56,heuristic", 4, "comes before any bot name"),
    ("heuristic,,random", 3, "empty bot name"),
    ("", 4, "no bot given"),
    ("random:x=1", 4, "bot random has no parameter 'x'"),
])
def test_parse_bots_errors(text, n, needle):
    with pytest.raises(BotError) as e:
        parse_bots(text, n)
    assert needle in str(e.value) and "\n" not in str(e.value)
    assert isinstance(e.value, ValueError)


#: every parameter whose registry entry says when it acts: (bot, parameter)
CONDITIONAL = [(b.name, p.name) for b in REGISTRY.values() for p in b.params if p.condition()]


def _idle_text(bot: str, name: str) -> tuple[str, str, str]:
    """``(--bots text, table, message)`` giving ``name`` where its condition fails."""
    spec = REGISTRY[bot]
    p = spec.param(name)
    default = p.decode(float(p.default))
    if p.tables is not None:
        table = next(t for t in ("4", "2", "3", "5", "5d") if t not in p.tables)
        only = f" (only at table {p.tables[0]})" if len(p.tables) == 1 else ""
        return f"{bot}:{name}={default}", table, f"bot {bot}: {name} does nothing at table {table}{only}: leave it out"
    if p.needs is not None:
        need = f"{p.needs[0]}={p.needs[1]:g}"
        return (f"{bot}:{name}={default}", "4",
                f"bot {bot}: {name} does nothing without {need}: leave it out or set {need}")
    raise AssertionError(f"{bot}:{name} has a condition of no kind tested here")


def test_the_conditional_parameters_are_the_ones_the_bots_document():
    """Every condition the registry holds is a condition of the search or of the heuristic's bidding."""
    pimc = {n for b, n in CONDITIONAL if b == "pimc"}
    assert {n for b, n in CONDITIONAL if b == "heuristic"} == {
        "prise", "garde", "garde_sans", "garde_contre", "shift3", "shift5", "prise2", "garde2", "garde_sans2",
        "garde_contre2"} < pimc
    assert pimc - {n for b, n in CONDITIONAL if b == "heuristic"} == {
        "rollouts", "exact_from", "infer", "candidates", "epsilon", "min_ess", "moves", "card_epsilon", "trust",
        "bid_search", "bid_worlds", "ecart_worlds", "ecart_candidates", "locations", "location_model_id",
        "location_power", "learned_opponent", "opponent_model_id"}


@pytest.mark.parametrize("bot,name", CONDITIONAL)
def test_a_parameter_given_where_it_does_nothing_is_refused_with_one_line(bot, name):
    """Each conditional parameter of the registry, given where its condition fails: one line
    naming it and its condition; given where it holds, taken."""
    text, table, message = _idle_text(bot, name)
    n = Rules(table=table).n_seats
    with pytest.raises(BotError) as e:
        parse_bots(text, n, table)
    assert str(e.value) == message
    p = REGISTRY[bot].param(name)
    fine, fine_table, q = text, p.tables[0] if p.tables else "4", p
    while q.needs:  # the parameters it needs, and those they need
        fine += f",{q.needs[0]}={q.needs[1]:g}"
        q = REGISTRY[bot].param(q.needs[0])
    parse_bots(fine, Rules(table=fine_table).n_seats, fine_table)


@pytest.mark.parametrize("text,message", [
    ("pimc:infer=1,worlds=64,candidates=32", "bot pimc: candidates=32 is below worlds=64, so it acts as 64: give "
                                             "candidates of at least 64, or fewer worlds"),
    ("pimc:infer=1,candidates=16", "bot pimc: candidates=16 is below worlds=32, so it acts as 32: give candidates "
                                   "of at least 32, or fewer worlds"),
])
def test_candidates_below_worlds_is_refused(text, message):
    with pytest.raises(BotError) as e:
        parse_bots(text, 4, "4")
    assert str(e.value) == message
    parse_bots("pimc:infer=1,worlds=64,candidates=64", 4, "4")
    parse_bots("pimc:infer=1,worlds=1024", 4, "4")  # candidates not given: the search draws the worlds


def test_a_condition_needs_the_table_known_only_for_the_tables():
    parse_bots("heuristic:shift3=-5", 4)  # no table given: only the other conditions hold
    with pytest.raises(BotError, match="candidates does nothing without infer=1"):
        parse_bots("pimc:candidates=64", 4)


def test_a_thresholds_file_of_another_table_is_named_in_the_refusal(tmp_path):
    path = tmp_path / "cal2.json"
    path.write_text('{"format": "tarotsim-thresholds/1", "table": "2", "thresholds": '
                    '{"prise": 1, "garde": 2, "garde_sans": 3, "garde_contre": 4}}')
    with pytest.raises(BotError) as e:
        parse_bots(f"heuristic:thresholds={path}", 4, "4")
    assert str(e.value) == (f"bot heuristic: thresholds={path} sets prise2, which does nothing at table 4 "
                            f"(only at table 2): leave it out")
    parse_bots(f"heuristic:thresholds={path}", 2, "2")


def test_the_library_s_own_forms_refuse_an_idle_parameter_too():
    from tarotsim.runs.players import seats

    with pytest.raises(BotError, match="exact_from does nothing at table 2"):
        seats(Rules(table="2"), [("pimc", {"exact_from": 2}), "heuristic"])
    with pytest.raises(BotError, match="epsilon does nothing without infer=1"):
        seats(Rules(table="4"), ("pimc", {"epsilon": 0.2}))
    with pytest.raises(BotError, match="shift5 does nothing at table 4"):
        seats(Rules(table="4"), "heuristic:shift5=-3")
    assert seats(Rules(table="5"), ("heuristic", {"shift5": -3.0}))[0].params[
        REGISTRY["heuristic"].params.index(REGISTRY["heuristic"].param("shift5"))] == -3.0


def test_the_cli_refuses_an_idle_parameter_with_one_line_before_any_deal(cli):
    code, out, err = cli("simulate", "--table", "2", "--deals", "10", "--bots", "pimc:exact_from=3,heuristic")
    assert (code, out, err) == (2, "", "tarotsim: error: bot pimc: exact_from does nothing at table 2: leave it out\n")
    code, out, err = cli("tournament", "--bots", "pimc:candidates=8,heuristic,heuristic,heuristic", "--deals", "10")
    assert (code, out) == (2, "")
    assert err == "tarotsim: error: bot pimc: candidates does nothing without infer=1: leave it out or set infer=1\n"


def test_bots_says_each_condition(cli):
    code, out, _ = cli("bots")
    assert code == 0
    current, shown = None, {}
    for line in out.splitlines():  # a bot's line, then one line indented by 4 per parameter
        if not line.startswith(" "):
            current = line.split()[0]
        elif not line.startswith(" " * 5):  # not a wrapped text's next line
            shown[(current, line.split()[0])] = line
    assert max(len(line) for line in out.splitlines()) <= echo.TEXT_WIDTH
    assert "\n" + " " * 44 + "bid a prise\n" in out  # the greedy prise's help, wrapped beside its column
    for bot, name in CONDITIONAL:
        assert f"[{REGISTRY[bot].param(name).condition()}] " in shown[(bot, name)]
    assert "[only with infer=1; at least worlds] " in shown[("pimc", "candidates")]
    assert "[not at table 2] " in shown[("pimc", "exact_from")]
    assert "[only at table 3] " in shown[("heuristic", "shift3")]
    code, out, _ = cli("bots", "--json")
    candidates = next(p for b in json.loads(out) if b["name"] == "pimc" for p in b["params"] if p["name"] == "candidates")
    assert candidates["condition"] == "only with infer=1; at least worlds"
    assert (candidates["needs"], candidates["tables"], candidates["at_least"]) == ({"infer": 1.0}, None, "worlds")


def test_bot_arrays_accepts_every_form():
    r = Rules(table="4")
    h = REGISTRY["heuristic"].vector(garde=50)
    kinds, params = simulate.bot_arrays(r, [("heuristic", h), "greedy", ("greedy", {"prise": 7}), "random"])
    assert kinds.tolist() == [2, 1, 1, 0]
    assert np.array_equal(params[0], h)
    assert np.array_equal(params[1], REGISTRY["greedy"].vector())
    assert params[2, 0] == 7 and params[2, 1] == REGISTRY["greedy"].params[1].default
    k2, p2 = simulate.bot_arrays(r, "heuristic:garde=50,greedy,greedy:prise=7,random")
    assert np.array_equal(k2, kinds) and np.array_equal(p2, params)
    # a short vector is completed with the defaults; (name, vector) alone means every seat
    k3, p3 = simulate.bot_arrays(r, ("heuristic", [39.0]))
    assert k3.tolist() == [2] * 4 and p3[0, 0] == 39 and p3[0, 1] == REGISTRY["heuristic"].params[1].default
    with pytest.raises(BotError, match="unknown bot"):
        simulate.bot_arrays(r, ["heuristic", "genius", "random", "random"])
    with pytest.raises(BotError, match="no parameter"):
        simulate.bot_arrays(r, [("heuristic", {"nope": 1})] * 4)
    with pytest.raises(ValueError, match="seats"):
        simulate.bot_arrays(r, "heuristic,random")


@pytest.mark.parametrize("first", ["import bots", "import bots.heuristic", "import tarotsim.runs.simulate",
                                   "import tarotsim._builds.deal", "import bots.search", "import tarotsim._builds.pimc",
                                   "import tarotsim.engine"])
@pytest.mark.slow
def test_any_import_order_works(first):
    code = f"{first}\nimport bots, tarotsim.runs.simulate\nassert bots.REGISTRY['heuristic'].code == 2"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=120)


@pytest.mark.slow
def test_random_tables_never_build_the_other_bots():
    """A table of random bots runs (and compiles) a build of the deal kernel without them."""
    code = ("from tarotsim import simulate\n"
            "from tarotsim.rules import Rules\n"
            "from tarotsim._builds import deal as play\n"
            "import bots.heuristic, bots.greedy\n"
            "simulate.facts(Rules('5'), 1, 0, 50)\n"
            "simulate.aggregate(Rules('4'), 1, 0, 50)\n"
            "simulate.records(Rules('3'), 1, [0, 1])\n"
            "assert not play.run_facts_bots.signatures and not play.run_aggregate_bots.signatures\n"
            "assert not bots.heuristic.heuristic_card.signatures and not bots.greedy.greedy_card.signatures\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=300)
