"""Batch simulation: ``(seed, index range)`` -> a facts table, a streaming summary, or records.

Every deal is identified by ``(seed, index)`` alone (docs/engine-contract.md): results never depend on the
number of threads or the chunk size. The numba kernels (``tarotsim._kernels``) play whole deals
and release the GIL; chunks of deals run on a thread pool.

- :func:`facts` -> numpy structured array, one row per deal (:data:`FACTS_DTYPE`).
- :func:`aggregate` -> :class:`Summary`, in constant memory whatever the number of deals.
- :func:`summarize` -> the same :class:`Summary` from a facts array.
- :func:`records` -> full deal records (dicts, docs/records.md) of chosen deals.

Bots (``bots.REGISTRY``: ``random``, ``greedy``, ``heuristic``): a ``--bots`` text such as
``"heuristic"`` or ``"heuristic:garde=60,random,random,random"``, or one entry per seat: a name
(default parameters) or ``(name, params)`` with ``params`` a vector of at most ``N_BOT_PARAMS``
floats (``bots.BotSpec.vector``) or a ``{name: value}`` mapping. Names map to kernel codes in
:data:`BOT_KINDS`.

``forced=(seat, contract)`` skips the auction: that seat takes that contract (a name such as
``"garde"`` or 0..3). At table 5d a seat sits out as the dummy one deal in five: such deals
have nobody to take and are counted as thrown in (``all_passed``); :func:`records` refuses them.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import numpy as np

from .. import echo
from ..cards import DECK, cards_of
from ..parallel import available_cores, run_chunks
from .players import baseline_note
from ..rng import check_count, check_index, check_seed, check_stop
from ..rules import CONTRACTS, KERNEL_TABLES, PILE_DEPTH, POIGNEE_LEVELS, Rules
from ..engine import BotRaisedError
from .._kernels import layout as L
from .._builds.runs import run_aggregate, run_facts, run_logs  # the deal kernel's builds, by the seats' kinds

from bots import BOT_KINDS  # the bots' codes in the kernels' ``kinds`` arrays (``bots.BOTS``)

FACTS_DTYPE = L.FACTS_DTYPE
N_BOT_PARAMS = L.N_BOT_PARAMS
OUTCOMES = L.OUTCOMES
CHELEM_NAMES = L.CHELEM_NAMES
RECORD_FORMAT = "tarotsim-deal/1"
#: Deals per kernel call; small enough to spread over threads, big enough to hide the call cost.
DEFAULT_CHUNK = 1 << 16
SIMULATED_TABLES = KERNEL_TABLES


# ---------------------------------------------------------------------------------------------
# arguments

def _rules(rules, any_table: bool = False) -> Rules:
    """Check the rules for the kernels.

    The rules, checked for the kernels (``any_table``: for the summaries of facts of any
    table, whichever engine played them)."""
    if isinstance(rules, Rules):
        r = rules
    else:
        r = Rules(table=str(rules))
    if r.table not in SIMULATED_TABLES and not any_table:
        raise ValueError(f"table {r.table} is not simulated (tables {', '.join(SIMULATED_TABLES)})")
    return r


def bot_arrays(rules: Rules, bots="random") -> tuple[np.ndarray, np.ndarray]:
    """The seats' bot kinds and parameters for the kernels.

    ``(kinds int64[n_seats], params float64[n_seats, N_BOT_PARAMS])`` for the kernels
    (:func:`bot_setup` without the policy tuple).
    """
    kinds, params, _ = bot_setup(rules, bots)
    return kinds, params


def bot_setup(rules: Rules, bots="random") -> tuple[np.ndarray, np.ndarray, tuple | None]:
    """``(kinds int64[n_seats], params float64[n_seats, N_BOT_PARAMS], policy tuple or None)`` for the kernels.

    ``bots``: anything :func:`tarotsim.runs.players.seats` takes: a ``--bots`` text
    (``"heuristic"``, ``"heuristic:garde=60,random,random,random"``), the seats' players
    (``tarotsim.runs.players.Player``, as ``parse_players`` gives them: not parsed again), or one entry
    per seat (or one for all): a name (its default parameters), ``"name:param=value,..."``,
    ``(name, params)`` with ``params`` a vector (a shorter one is completed with the defaults) or
    a ``{name: value}`` mapping, or a user's :class:`bots.policy.PolicySet` (its seat's
    decisions call its functions: the policy tuple, ``bots.policy.policy_tuple``). Unknown bots,
    unknown parameters and wrong types raise :class:`bots.BotError` (a ``ValueError``).
    """
    kinds, params, policies = _seats(rules, bots)
    if all(p is None for p in policies):
        return kinds, params, None  # no policy set: the kernels are built without the user branch
    from bots.policy import policy_tuple
    return kinds, params, policy_tuple(policies)


def _seats(rules: Rules, bots):
    """:func:`bot_setup` with the policy sets as a list (None for the registered bots)."""
    from bots import BotError

    from .players import seats

    players = seats(rules, bots)
    kinds = np.zeros(len(players), dtype=np.int64)
    params = np.zeros((len(players), N_BOT_PARAMS), dtype=np.float64)
    for seat, p in enumerate(players):
        code = p.code
        if code is None:
            raise BotError(f"seat {seat} plays a Python bot ({p.label}): the kernels play registered bots and "
                           f"policy sets")
        kinds[seat] = code
        params[seat] = p.row()
    return kinds, params, [p.policy for p in players]


def _bots_label(bots) -> str:
    """How a summary names its bots.

    How a summary names its bots, from what the caller gave (the seats' players: their labels,
    a policy set by its name)."""
    if isinstance(bots, str):
        return bots
    from .players import Player

    if isinstance(bots, list) and bots and all(isinstance(b, Player) for b in bots):
        labels = [b.policy.name if b.policy is not None else b.label for b in bots]
        return labels[0] if len(set(labels)) == 1 else ",".join(labels)
    if isinstance(bots, tuple) and len(bots) == 2 and isinstance(bots[0], str) and not isinstance(bots[1], str):
        return bots[0]
    if hasattr(bots, "functions"):  # one PolicySet for every seat
        return bots.name
    return ",".join(b if isinstance(b, str) else b.name if hasattr(b, "functions") else b[0] for b in bots)


class PolicyRaisedError(BotRaisedError):
    """A policy set raised inside the kernels, and the slow path played the deal through.

    A policy set raised inside the kernels in deal ``(seed, index)``, and the slow path played
    that deal through: the kernels' exception, in one line."""

    def __init__(self, error: BaseException, seed: int, index: int):
        text = " ".join(str(error).split())
        Exception.__init__(self, f"a policy set raised {type(error).__name__}{': ' + text if text else ''} "
                                 f"in deal ({seed}, {index})")
        self.error, self.seed, self.index = error, seed, index


def bot_error(rules, seed, index: int, bots, forced=None, raised: BaseException | None = None) -> Exception:
    """The error of a deal in which a policy set broke a rule or raised.

    The error of deal ``index`` in which a policy set chose what the rules forbid, or raised
    (``raised``: the exception the kernels passed on): :func:`slow_path_error`, whose message
    names the bot, the seat, the deal ``(seed, index)``, the decision and the rule; a line from
    the kernels' own exception when the slow path plays the deal through."""
    from ..engine import IllegalPlayError

    e = slow_path_error(rules, seed, index, bots, forced)
    if e is not None:
        return e
    if raised is not None:
        return PolicyRaisedError(raised, int(seed), int(index))
    return IllegalPlayError("R-PLAY-6", f"a bot chose what the rules forbid in deal ({int(seed)}, {int(index)})")


def slow_path_error(rules, seed, index: int, bots, forced=None) -> Exception | None:
    """Play a deal again on the slow path and return the error it stops with, or None.

    Deal ``index`` played again on the slow path, every seat's bot through its adapter: the
    :class:`~tarotsim.engine.IllegalPlayError` or :class:`~tarotsim.engine.BotRaisedError` it
    stops with (naming the bot, the seat, the deal, the decision and the rule), or None."""
    from ..adapters import FastBotAdapter, PolicyAdapter
    from ..engine import BotRaisedError, IllegalPlayError
    from .slowpath import play_record

    r = _rules(rules)
    kinds, params, policies = _seats(r, bots)
    names = {code: name for name, code in BOT_KINDS.items()}
    players = [PolicyAdapter(policies[s]) if policies[s] is not None else FastBotAdapter(names[kinds[s]], params[s])
               for s in range(r.n_seats)]
    try:
        play_record(r, int(seed), int(index), players, forced)
    except (IllegalPlayError, BotRaisedError) as e:
        return e
    return None


def _first_raising(a: int, b: int, play) -> tuple[int, BaseException]:
    """Find the first deal of a range whose play raises, by halving.

    The first deal of ``a .. b - 1`` whose play raises, and its exception: ``play(x, y)`` plays
    deals ``x .. y - 1`` on the kernels and raises for ``a .. b - 1``. Deals are independent, so
    halving finds it in about ``b - a`` deals played."""
    while b - a > 1:
        mid = (a + b) // 2
        try:
            play(a, mid)
        except Exception:  # the first half holds it
            b = mid
        else:
            a = mid
    try:
        play(a, b)
    except Exception as e:
        return a, e
    raise AssertionError(f"deals {a}..{b - 1} raised, then did not")  # deals depend on (seed, index) alone


def _forced(rules: Rules, forced) -> tuple[int, int]:
    if forced is None:
        return -1, -1
    seat, contract = forced
    if isinstance(contract, str):
        if contract not in CONTRACTS:
            raise ValueError(f"unknown contract {echo.shown(contract)}: one of {', '.join(CONTRACTS)}")
        contract = CONTRACTS.index(contract)
    seat, contract = int(seat), int(contract)
    if not 0 <= seat < rules.n_seats:
        raise ValueError(f"forced taker {seat} is not a seat of table {rules.table}")
    if not 0 <= contract < len(CONTRACTS):
        raise ValueError(f"forced contract {contract} is not 0..3")
    return seat, contract


def _seed(seed) -> np.uint64:
    """The kernels' seed: a whole number in 0..2**64-1, checked, never wrapped (``rng.DealIdError``)."""
    return np.uint64(check_seed(seed))


def _range(start, stop) -> tuple[int, int]:
    """``(start, stop)`` with ``0 <= start <= stop <= 2**63`` (``rng.DealIdError`` otherwise)."""
    start = check_index(start, "start")
    return start, check_stop(start, stop)


def _indices(indices) -> list[int]:
    """Chosen deal indices, each a whole number in 0..2**63-1 (``rng.DealIdError`` otherwise)."""
    return [check_index(i) for i in indices]


def _kernel_args(rules, seed, start, stop, count, bots, forced):
    """Check a run's arguments and turn them into the kernels' arguments.

    Check a run's arguments and turn them into the kernels' ``(rules, start, stop, rules
    vector, bot kinds, bot params, forced seat, forced contract, seed)``."""
    r = _rules(rules)
    if stop is None:
        if count is None:
            raise ValueError("give stop or count")
        stop = check_index(start, "start") + check_count(count)
    start, stop = _range(start, stop)
    kinds, params, pol = bot_setup(r, bots)
    fs, fc = _forced(r, forced)
    return r, start, stop, r.to_vector(), kinds, params, pol, fs, fc, _seed(seed)


def default_threads() -> int:
    """The default number of worker threads.

    The default number of worker threads everywhere: every core this process may use
    (:func:`tarotsim.parallel.available_cores`). Results never depend on the number of threads."""
    return available_cores()


# ---------------------------------------------------------------------------------------------
# facts table

def facts(rules, seed, start=0, stop=None, *, count=None, bots="random", forced=None, threads=1,
          chunk_size=DEFAULT_CHUNK) -> np.ndarray:
    """Facts of deals ``start .. stop - 1`` (or ``count`` deals from ``start``), one row each.

    Rows are :data:`FACTS_DTYPE`: index, dealer, outcome (0 played, 1 all_passed, 2 petit_sec),
    taker, contract, partner, called, attack_half_points, oudlers, made, difference,
    petit_au_bout (+1/0/-1), chelem (code, :data:`CHELEM_NAMES`), slam_announced,
    poignee_attack, poignee_defence, miseres, attack_tricks, petit_sec_seat, value,
    scores[5]. Unset seats are -1; deals not played have zero scores.
    """
    r, start, stop, rv, kinds, params, pol, fs, fc, s = _kernel_args(rules, seed, start, stop, count, bots, forced)
    out = np.zeros(stop - start, dtype=FACTS_DTYPE)
    raised: list[tuple[int, int]] = []  # chunks in which a user's policy set raised

    def play(a, b):
        run_facts(rv, s, a, fs, fc, kinds, params, out[a - start:b - start], pol)

    def work(a, b, _):
        try:
            play(a, b)
        except Exception:
            if pol is None:  # the engine's own bots: a bug, not the user's
                raise
            raised.append((a, b))
            return False
        return None

    run_chunks(start, stop, chunk_size, threads, lambda: None, work)
    _raise_first(r, seed, bots, forced, out["outcome"], out["index"], _first_raising(*min(raised), play)
                 if raised else None)  # the chunks below the lowest stopped one are all done
    return out


def _raise_first(r: Rules, seed, bots, forced, outcomes: np.ndarray, indices: np.ndarray, raising) -> None:
    """Stop the run at its first deal in which a policy set broke a rule or raised.

    Stop the run at its first deal in which a policy set broke a rule (``outcomes`` and
    ``indices`` of the deals played, ``bot_error`` marked) or raised (``raising``: the first such
    deal and its exception, or None), with the slow path's one line (:func:`bot_error`)."""
    bad = np.flatnonzero(outcomes == L.OUTCOME_BOT_ERROR)
    first = [(int(indices[bad[0]]), None)] if bad.size else []
    if raising is not None:
        first.append((int(raising[0]), raising[1]))
    if first:
        index, error = min(first, key=lambda x: x[0])
        raise bot_error(r, seed, index, bots, forced, error)


#: Columns of the readable facts table (``tarotsim simulate --facts``, docs/records.md): names, not
#: codes; empty cells for what a deal does not have (no taker when all passed ...).
FACTS_CSV_COLUMNS = ("seed", "table", "index", "dealer", "outcome", "taker", "contract", "partner", "called",
                     "attack_points", "oudlers", "made", "difference", "petit_au_bout", "chelem",
                     "slam_announced", "poignee_attack", "poignee_defence", "miseres", "attack_tricks", "value")


def facts_csv_header(rules) -> list[str]:
    """The header row of the facts table: :data:`FACTS_CSV_COLUMNS` then ``score_0`` .. per seat."""
    return list(FACTS_CSV_COLUMNS) + [f"score_{s}" for s in range(_rules(rules, any_table=True).n_seats)]


def facts_csv_rows(f: np.ndarray, rules, seed) -> list[list]:
    """The rows of the facts table for a facts array (see :data:`FACTS_CSV_COLUMNS`)."""
    r = _rules(rules, any_table=True)
    n = r.n_seats
    pab = {1: "attack", -1: "defence", 0: ""}
    rows = []
    fields = FACTS_DTYPE.names
    assert fields is not None  # a structured dtype
    for x in f.tolist():  # one tuple per deal, fields in FACTS_DTYPE order
        d = dict(zip(fields, x))
        played = d["outcome"] == L.OUTCOME_PLAYED
        seat = (lambda v: "" if v < 0 else v)
        rows.append([
            int(seed), r.table, d["index"], d["dealer"], OUTCOMES[d["outcome"]], seat(d["taker"]),
            CONTRACTS[d["contract"]] if d["contract"] >= 0 else "", seat(d["partner"]),
            _card(d["called"]) if d["called"] >= 0 else "",
            _points_text(d["attack_half_points"]) if played else "", d["oudlers"] if played else "",
            ("true" if d["made"] else "false") if played else "", d["difference"] if played else "",
            pab[d["petit_au_bout"]], CHELEM_NAMES[d["chelem"]] or "",
            "true" if d["slam_announced"] else "false", d["poignee_attack"], d["poignee_defence"],
            d["miseres"], d["attack_tricks"] if played else "", d["value"]] + list(d["scores"][:n]))
    return rows


def _points_text(half_points: int) -> str:
    return f"{half_points // 2}.5" if half_points % 2 else str(half_points // 2)


# ---------------------------------------------------------------------------------------------
# the facts table as Arrow: Parquet files and DataFrames (extras ``parquet``, ``dataframe``)

def _pyarrow():
    try:
        import pyarrow
    except ImportError:
        raise ImportError("the facts as Arrow or Parquet need pyarrow: pip install 'tarotsim[parquet]'") from None
    return pyarrow


def facts_schema(rules):
    """The Arrow schema of the facts table.

    The Arrow schema of the facts table: the columns of :func:`facts_csv_header`, typed (a seat
    or a count a small integer, a name a string, ``attack_points`` a float of whole or half
    points, ``made`` and ``slam_announced`` booleans); what a deal does not have is null where
    the CSV cell is empty."""
    pa = _pyarrow()
    types = {"seed": pa.uint64(), "table": pa.string(), "index": pa.int64(), "dealer": pa.int8(),
             "outcome": pa.string(), "taker": pa.int8(), "contract": pa.string(), "partner": pa.int8(),
             "called": pa.string(), "attack_points": pa.float64(), "oudlers": pa.int8(), "made": pa.bool_(),
             "difference": pa.int16(), "petit_au_bout": pa.string(), "chelem": pa.string(),
             "slam_announced": pa.bool_(), "poignee_attack": pa.int16(), "poignee_defence": pa.int16(),
             "miseres": pa.int8(), "attack_tricks": pa.int8(), "value": pa.int32()}
    return pa.schema([(c, types.get(c, pa.int32())) for c in facts_csv_header(rules)])


def facts_arrow(f: np.ndarray, rules, seed):
    """The facts table of a facts array as a ``pyarrow.Table``.

    The facts table of a facts array as a ``pyarrow.Table`` (:func:`facts_schema`): the same
    columns and values as the CSV rows of :func:`facts_csv_rows`, built column by column (each
    copied once out of the structured array, which Arrow cannot share; names through small
    dictionaries, never one Python string per deal)."""
    pa = _pyarrow()
    r = _rules(rules, any_table=True)
    schema = facts_schema(r)
    n = len(f)
    not_played = f["outcome"] != L.OUTCOME_PLAYED

    def col(name, values, mask=None):
        return pa.array(np.ascontiguousarray(values), type=schema.field(name).type, mask=mask)

    def names(codes, labels, mask=None):
        idx = pa.array(np.ascontiguousarray(codes, dtype=np.int32), mask=mask)
        return pa.DictionaryArray.from_arrays(idx, pa.array(labels, type=pa.string())).cast(pa.string())

    pab = f["petit_au_bout"]
    cols = {
        "seed": pa.array(np.full(n, int(seed), dtype=np.uint64)),
        "table": names(np.zeros(n, dtype=np.int32), [r.table]),
        "index": col("index", f["index"]), "dealer": col("dealer", f["dealer"]),
        "outcome": names(f["outcome"], list(OUTCOMES)),
        "taker": col("taker", f["taker"], f["taker"] < 0),
        "contract": names(np.maximum(f["contract"], 0), list(CONTRACTS), f["contract"] < 0),
        "partner": col("partner", f["partner"], f["partner"] < 0),
        "called": names(np.maximum(f["called"], 0), [str(c) for c in DECK], f["called"] < 0),
        "attack_points": col("attack_points", f["attack_half_points"] / 2, not_played),
        "oudlers": col("oudlers", f["oudlers"], not_played),
        "made": col("made", f["made"] != 0, not_played),
        "difference": col("difference", f["difference"], not_played),
        "petit_au_bout": names(np.where(pab < 0, 1, 0), ["attack", "defence"], pab == 0),
        "chelem": names(f["chelem"], [x or "" for x in CHELEM_NAMES], f["chelem"] == 0),
        "slam_announced": col("slam_announced", f["slam_announced"] != 0),
        "poignee_attack": col("poignee_attack", f["poignee_attack"]),
        "poignee_defence": col("poignee_defence", f["poignee_defence"]),
        "miseres": col("miseres", f["miseres"]),
        "attack_tricks": col("attack_tricks", f["attack_tricks"], not_played),
        "value": col("value", f["value"]),
    }
    for s in range(r.n_seats):
        cols[f"score_{s}"] = col(f"score_{s}", f["scores"][:, s])
    return pa.Table.from_arrays(list(cols.values()), schema=schema)


def _dataframe_library(name: str):
    """Import pandas or polars (``ImportError`` with the install hint when it is missing)."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        raise ImportError(f"the facts as {name} DataFrames need {name}: pip install 'tarotsim[dataframe]'") from None


def facts_pandas(f: np.ndarray, rules, seed):
    """The facts table as a pandas DataFrame.

    The facts table as a pandas DataFrame whose columns are the Arrow arrays of
    :func:`facts_arrow` (``pd.ArrowDtype``: no copy of them; extra ``dataframe``).

    Raises
    ------
    ImportError
        pandas or pyarrow is not installed (the message says what to install).
    """
    pd = _dataframe_library("pandas")
    return facts_arrow(f, rules, seed).to_pandas(types_mapper=pd.ArrowDtype)


def facts_polars(f: np.ndarray, rules, seed):
    """The facts table as a polars DataFrame.

    The facts table as a polars DataFrame over the Arrow arrays of :func:`facts_arrow` (no
    copy; extra ``dataframe``).

    Raises
    ------
    ImportError
        polars or pyarrow is not installed (the message says what to install).
    """
    pl = _dataframe_library("polars")
    return pl.from_arrow(facts_arrow(f, rules, seed))


class ParquetFacts:
    """Facts written block by block as one Parquet file.

    Facts written block by block as one Parquet file (one row group per block) into a binary
    stream, such as an output of :func:`tarotsim.outputs.open_outputs`; :meth:`close` finishes it."""

    def __init__(self, stream, rules, seed):
        import pyarrow.parquet as pq

        self.rules, self.seed = _rules(rules, any_table=True), int(seed)
        self.writer = pq.ParquetWriter(stream, facts_schema(self.rules), compression="zstd")

    def write(self, f: np.ndarray) -> None:
        self.writer.write_table(facts_arrow(f, self.rules, self.seed))

    def close(self) -> None:
        self.writer.close()

    def abandon(self) -> None:
        """Close without caring whether the end can be written (the output is being dropped)."""
        import contextlib

        with contextlib.suppress(Exception):
            self.writer.close()


class CsvFacts:
    """Facts written block by block as CSV rows.

    Facts written block by block as CSV rows, with names (:func:`facts_csv_header`, then
    :func:`facts_csv_rows`), into a text stream; the header is written at once. The twin of
    :class:`ParquetFacts` (:meth:`close`, :meth:`abandon` have nothing to finish)."""

    def __init__(self, stream, rules, seed):
        import csv

        self.rules, self.seed = _rules(rules, any_table=True), int(seed)
        self.writer = csv.writer(stream)
        self.writer.writerow(facts_csv_header(self.rules))

    def write(self, f: np.ndarray) -> None:
        self.writer.writerows(facts_csv_rows(f, self.rules, self.seed))

    def close(self) -> None:
        pass

    def abandon(self) -> None:
        pass


# ---------------------------------------------------------------------------------------------
# streaming summary

@dataclass
class Summary:
    """Aggregate of a run of deals (:func:`aggregate` or :func:`summarize`)."""

    table: str
    seed: int
    start: int
    stop: int
    bots: str
    deals: int = 0
    played: int = 0
    thrown_in: int = 0            # all passed (R-BID-3)
    annulled: int = 0             # petit sec (R-DEAL-4)
    taken: dict = field(default_factory=dict)        # contract -> deals
    made: dict = field(default_factory=dict)         # contract -> deals made
    made_rate: dict = field(default_factory=dict)    # contract -> made / taken (None if never)
    mean_attack_points: dict = field(default_factory=dict)  # contract -> mean points (not half)
    mean_score: list = field(default_factory=list)   # per seat, over all deals
    mean_taker_score: float | None = None            # over played deals
    petit_au_bout: dict = field(default_factory=dict)  # attack / defence -> deals
    chelems: dict = field(default_factory=dict)      # outcome name -> deals
    deals_with_poignee: int = 0
    miseres: int = 0
    taker_alone: int = 0          # table 5: called card in the taker's hand or the chien
    forced: bool = False
    threads: int = 1
    chunk_size: int = DEFAULT_CHUNK
    elapsed_s: float = 0.0
    deals_per_s: float = 0.0
    compile_s: float = 0.0        # numba compiling the kernels first (a cold cache), not in elapsed_s

    def to_dict(self) -> dict:
        return asdict(self)


def compile_text(seconds: float) -> str:
    """The report header's note of the time numba spent compiling.

    How a report's header tells the time numba spent compiling the kernels before the run
    (a cold cache): nothing when it loaded them."""
    return f" (and {seconds:.1f} s compiling the kernels first, once)" if seconds > 0 else ""


def _summary_from_acc(acc: np.ndarray | list[int], r: Rules, **meta) -> Summary:
    acc = [int(x) for x in acc]
    deals = acc[L.ACC_DEALS]
    played = acc[L.ACC_PLAYED]
    sm = Summary(table=r.table, **meta)
    sm.deals = deals
    sm.played = played
    sm.thrown_in = acc[L.ACC_ALL_PASSED]
    sm.annulled = acc[L.ACC_PETIT_SEC]
    for i, c in enumerate(CONTRACTS):
        taken = acc[L.ACC_TAKEN + i]
        made = acc[L.ACC_MADE + i]
        sm.taken[c] = taken
        sm.made[c] = made
        sm.made_rate[c] = made / taken if taken else None
        sm.mean_attack_points[c] = acc[L.ACC_ATTACK_HP + i] / 2 / taken if taken else None
    sm.mean_score = [acc[L.ACC_SCORE_SUM + s] / deals if deals else 0.0 for s in range(r.n_seats)]
    sm.mean_taker_score = acc[L.ACC_TAKER_SCORE_SUM] / played if played else None
    sm.petit_au_bout = {"attack": acc[L.ACC_PAB_ATTACK], "defence": acc[L.ACC_PAB_DEFENCE]}
    sm.chelems = {CHELEM_NAMES[i]: acc[L.ACC_CHELEM + i] for i in range(1, 6)}
    sm.deals_with_poignee = acc[L.ACC_POIGNEES]
    sm.miseres = acc[L.ACC_MISERES]
    sm.taker_alone = acc[L.ACC_ALONE]
    return sm


def _fmt_rate(x) -> str:
    return "-" if x is None else f"{100 * x:5.1f}%"


def format_summary(sm: Summary, n_seats: int) -> str:
    """Format the summary of a simulation as a short readable report.

    The summary of a simulation as a short readable report (what ``tarotsim simulate`` and
    ``tarotsim merge`` print; ``n_seats``: the table's seats)."""
    out = [*echo.paragraph(f"table {sm.table} · {sm.deals:,} deals (index {sm.start:,}..{sm.stop - 1:,}) · "
                      f"seed {sm.seed} · bots {sm.bots}{baseline_note(sm.bots.split(','))}"),
           f"{sm.threads} thread(s) · {sm.elapsed_s:.2f} s · {sm.deals_per_s:,.0f} deals/s"
           f"{compile_text(sm.compile_s)}", ""]
    pct = (lambda k: f"{100 * k / sm.deals:5.1f}%") if sm.deals else (lambda k: "    -")
    out.append(f"played      {sm.played:>12,}  {pct(sm.played)}")
    out.append(f"thrown in   {sm.thrown_in:>12,}  {pct(sm.thrown_in)}   (all passed, R-BID-3)")
    out.append(f"annulled    {sm.annulled:>12,}  {pct(sm.annulled)}   (petit sec, R-DEAL-4)")
    out.append("")
    out.append(f"{'contract':<14}{'taken':>12}{'share':>8}{'made':>8}{'mean points':>13}")
    for c in CONTRACTS:
        mp = sm.mean_attack_points[c]
        out.append(f"{c:<14}{sm.taken[c]:>12,}{pct(sm.taken[c]):>8}{_fmt_rate(sm.made_rate[c]):>8}"
                   f"{('-' if mp is None else f'{mp:.1f}'):>13}")
    out.append("share = taken / deals (as `tarotsim stats` says it); made = made / taken")
    out.append("")
    out.append(f"petit au bout: attack {sm.petit_au_bout['attack']:,}, defence {sm.petit_au_bout['defence']:,}")
    chel = ", ".join(f"{k} {v:,}" for k, v in sm.chelems.items() if v) or "none"
    out.append(f"chelems: {chel}")
    out.append(f"deals with a poignée: {sm.deals_with_poignee:,}" + (f" · misères: {sm.miseres:,}" if sm.miseres else ""))
    if sm.table == "5":
        out.append(f"taker alone (called card his own or in the chien): {sm.taker_alone:,}")
    out.append("mean score per seat: " + ", ".join(f"{s}: {m:+.2f}" for s, m in enumerate(sm.mean_score[:n_seats])))
    if sm.mean_taker_score is not None:
        out.append(f"mean score of the taker: {sm.mean_taker_score:+.2f}")
    return "\n".join(out)


def aggregate(rules, seed, start=0, stop=None, *, count=None, bots="random", forced=None, threads=1,
              chunk_size=DEFAULT_CHUNK, progress=None) -> Summary:
    """Summarise deals ``start .. stop - 1`` in fixed-size chunks.

    Summary of deals ``start .. stop - 1`` in fixed-size chunks: memory does not grow with
    the number of deals. Integer sums, so the result is the same for any threads / chunk size.

    ``progress``: called with the number of deals just finished after every chunk (under a
    lock, so a progress bar needs no locking of its own)."""
    total, elapsed, (start, stop, threads, chunk_size) = totals(
        rules, seed, start, stop, count=count, bots=bots, forced=forced, threads=threads, chunk_size=chunk_size,
        progress=progress)
    sm = _summary_from_acc(total, _rules(rules), seed=int(seed), start=start, stop=stop, bots=_bots_label(bots))
    sm.forced = forced is not None
    sm.threads = threads
    sm.chunk_size = chunk_size
    sm.elapsed_s = elapsed
    sm.deals_per_s = (stop - start) / elapsed if elapsed > 0 else 0.0
    return sm


def totals(rules, seed, start=0, stop=None, *, count=None, bots="random", forced=None, threads=1,
           chunk_size=DEFAULT_CHUNK, progress=None) -> tuple[np.ndarray, float, tuple[int, int, int, int]]:
    """The integer totals of a range of deals, as :func:`aggregate` sums them.

    The integer totals (int64[ACC_LEN], ``layout.ACC_*``) of deals ``start .. stop - 1`` as
    :func:`aggregate` sums them, with the seconds spent and ``(start, stop, threads, chunk_size)``
    as checked. Totals of disjoint ranges add up to the totals of their union."""
    r, start, stop, rv, kinds, params, pol, fs, fc, s = _kernel_args(rules, seed, start, stop, count, bots, forced)
    threads = max(1, int(threads))
    chunk_size = max(1, int(chunk_size))
    bad_chunks = []  # a chunk in which a policy set broke a rule or raised: the run stops

    def work(a, b, acc):
        try:
            run_aggregate(rv, s, a, b - a, fs, fc, kinds, params, acc, pol)
        except Exception:  # a user's policy set raised inside the kernels
            if pol is None:
                raise
            bad_chunks.append((a, b))
            return False
        if acc[L.ACC_BOT_ERRORS]:
            bad_chunks.append((a, b))
            return False
        return None

    # load the compiled kernel (from numba's cache) before the clock starts: deals/s is steady state
    run_aggregate(rv, s, start, 0, fs, fc, kinds, params, np.zeros(L.ACC_LEN, dtype=np.int64), pol)
    t0 = time.perf_counter()
    parts = run_chunks(start, stop, chunk_size, threads, lambda: np.zeros(L.ACC_LEN, dtype=np.int64), work,
                       progress)
    total = np.sum(parts, axis=0)
    if bad_chunks:
        a, b = min(bad_chunks)
        facts(r, seed, a, b, bots=bots, forced=forced)  # raises, naming the bot, the deal and the rule
    return total, time.perf_counter() - t0, (start, stop, threads, chunk_size)


def summarize(f: np.ndarray, rules, seed=0, bots="random") -> Summary:
    """The :class:`Summary` of a facts array (same numbers as :func:`aggregate` on its deals)."""
    r = _rules(rules, any_table=True)
    acc = accumulate(f, r)
    start = int(f["index"].min()) if len(f) else 0
    stop = int(f["index"].max()) + 1 if len(f) else 0
    return _summary_from_acc(acc, r, seed=int(seed), start=start, stop=stop, bots=_bots_label(bots))


def summary_from_totals(acc: np.ndarray, rules, seed, start, stop, bots="random") -> Summary:
    """The :class:`Summary` of totals summed from :func:`accumulate` over several facts arrays."""
    r = _rules(rules, any_table=True)
    return _summary_from_acc(acc, r, seed=int(seed), start=int(start), stop=int(stop), bots=_bots_label(bots))


def accumulate(f: np.ndarray, rules) -> np.ndarray:
    """The integer totals of a facts array.

    The integer totals (int64[ACC_LEN], ``layout.ACC_*``) of a facts array; totals of
    consecutive arrays add up, so a long run can be summarised chunk by chunk."""
    r = _rules(rules, any_table=True)
    acc = np.zeros(L.ACC_LEN, dtype=np.int64)
    acc[L.ACC_DEALS] = len(f)
    played = f[f["outcome"] == L.OUTCOME_PLAYED]
    acc[L.ACC_PLAYED] = len(played)
    acc[L.ACC_ALL_PASSED] = int(np.sum(f["outcome"] == L.OUTCOME_ALL_PASSED))
    acc[L.ACC_PETIT_SEC] = int(np.sum(f["outcome"] == L.OUTCOME_PETIT_SEC))
    for i in range(len(CONTRACTS)):
        sel = played[played["contract"] == i]
        acc[L.ACC_TAKEN + i] = len(sel)
        acc[L.ACC_MADE + i] = int(np.sum(sel["made"], dtype=np.int64))
        acc[L.ACC_ATTACK_HP + i] = int(np.sum(sel["attack_half_points"], dtype=np.int64))
    for s in range(r.n_seats):
        acc[L.ACC_SCORE_SUM + s] = int(np.sum(f["scores"][:, s], dtype=np.int64))
    if len(played):
        acc[L.ACC_TAKER_SCORE_SUM] = int(np.sum(
            played["scores"][np.arange(len(played)), played["taker"].astype(np.int64)], dtype=np.int64))
    acc[L.ACC_PAB_ATTACK] = int(np.sum(played["petit_au_bout"] == 1))
    acc[L.ACC_PAB_DEFENCE] = int(np.sum(played["petit_au_bout"] == -1))
    for i in range(6):
        acc[L.ACC_CHELEM + i] = int(np.sum(played["chelem"] == i))
    acc[L.ACC_POIGNEES] = int(np.sum((played["poignee_attack"] + played["poignee_defence"]) > 0))
    acc[L.ACC_MISERES] = int(np.sum(played["miseres"], dtype=np.int64))
    acc[L.ACC_ALONE] = int(np.sum((played["called"] >= 0) & (played["partner"] < 0)))
    return acc


# ---------------------------------------------------------------------------------------------
# full records

def _names(t: int, s: int) -> list[str]:
    return [str(c) for c in cards_of(int(t), int(s))]


def _card(cid: int) -> str:
    return str(DECK[int(cid)])


def logs(rules, seed, indices, bots="random", forced=None) -> np.ndarray:
    """Raw kernel logs (int64[len(indices), L_LEN], ``layout.L_*``) of chosen deals."""
    r = _rules(rules)
    idx = np.asarray(_indices(indices), dtype=np.int64).reshape(-1)
    kinds, params, pol = bot_setup(r, bots)
    fs, fc = _forced(r, forced)
    out = np.zeros((idx.size, L.L_LEN), dtype=np.int64)
    rv, s = r.to_vector(), _seed(seed)

    def play(a, b):
        run_logs(rv, s, idx[a:b], fs, fc, kinds, params, out[a:b], pol)

    raising = None
    try:
        play(0, idx.size)
    except Exception:  # a user's policy set raised inside the kernels
        if pol is None:
            raise
        k, error = _first_raising(0, idx.size, play)
        out[k:] = 0  # the deals from it on: not played
        raising = (int(idx[k]), error)
    _raise_first(r, seed, bots, forced, out[:, L.L_OUTCOME], idx, raising)
    return out


def record_from_log(rules: Rules, seed, log: np.ndarray | list[int]) -> dict:
    """The record (docs/records.md) of one deal from its kernel log (field order of the reference)."""
    log = [int(x) for x in log]
    n = rules.n_seats
    outcome = log[L.L_OUTCOME]
    played = outcome == L.OUTCOME_PLAYED
    hands = [_names(log[L.L_HAND_T + s], log[L.L_HAND_S + s]) for s in range(n)]
    bids = []
    if outcome != L.OUTCOME_PETIT_SEC:
        for k in range(log[L.L_N_BIDS]):
            b = log[L.L_BID + k]
            bids.append([log[L.L_BID_SEAT + k], "pass" if b < 0 else CONTRACTS[b]])
    ecart = sorted(log[L.L_ECART:L.L_ECART + log[L.L_N_ECART]])
    decls = []
    for i in range(log[L.L_N_DECL]):
        d = L.L_DECL + L.DECL_FIELDS * i
        seat, kind, level, shown = log[d:d + 4]
        if kind == L.DECL_POIGNEE:
            decls.append({"seat": seat, "kind": "poignee", "level": POIGNEE_LEVELS[level - 1],
                          "cards": _names(shown, 0)})
        else:
            decls.append({"seat": seat, "kind": L.DECL_NAMES[kind]})
    tricks = []
    n_active = rules.n_active
    for t in range(log[L.L_N_TRICKS]):
        base = L.L_CARDS + t * L.MAX_SEATS
        tricks.append({"leader": log[L.L_LEADER + t],
                       "cards": [_card(c) for c in log[base:base + n_active]],
                       "winner": log[L.L_WINNER + t]})
    result = None
    if played:
        pab = log[L.L_PAB]
        result = {
            "attack_half_points": log[L.L_ATTACK_HP],
            "oudlers": log[L.L_OUDLERS],
            "made": bool(log[L.L_MADE]),
            "difference": log[L.L_DIFFERENCE],
            "petit_au_bout": "attack" if pab > 0 else "defence" if pab < 0 else None,
            "chelem": CHELEM_NAMES[log[L.L_CHELEM]],
            "value": log[L.L_VALUE],
        }
    taker = log[L.L_TAKER]
    called = log[L.L_CALLED]
    partner = log[L.L_PARTNER]
    rec = {
        "format": RECORD_FORMAT,
        "table": rules.table,
        "options": rules.non_default_options(),
        "seed": int(seed),
        "index": log[L.L_INDEX],
        "dealer": log[L.L_DEALER],
        "hands": hands,
        "chien": _names(log[L.L_CHIEN_T], log[L.L_CHIEN_S]),
        "bids": bids,
        "outcome": OUTCOMES[outcome],
        "taker": taker if taker >= 0 else None,
        "contract": CONTRACTS[log[L.L_CONTRACT]] if taker >= 0 else None,
        "called": _card(called) if called >= 0 else None,
        "partner": partner if partner >= 0 else None,
        "ecart": [_card(c) for c in ecart],
        "declarations": decls,
        "tricks": tricks,
        "result": result,
        "scores": [log[L.L_SCORES + s] for s in range(n)],
    }
    if rules.table == "2":  # R-VAR-TWO: the piles as dealt, each from bottom to top, after the chien
        rec = _with_piles(rec, log)
    if log[L.L_FORCED]:
        rec["forced"] = True
    if outcome == L.OUTCOME_PETIT_SEC:
        rec["petit_sec_seat"] = log[L.L_PETIT_SEC_SEAT]
    return rec


def _with_piles(rec: dict, log: list[int]) -> dict:
    """``rec`` with the field ``piles`` (docs/records.md) read from the log, placed after ``chien``."""
    depth = PILE_DEPTH
    piles = [[[_card(log[L.L_PILES + s * L.PILE_CARDS + p * depth + d]) for d in range(depth)]
              for p in range(L.PILE_CARDS // depth)] for s in range(L.PILE_SEATS)]
    out = {}
    for k, v in rec.items():
        out[k] = v
        if k == "chien":
            out["piles"] = piles
    return out


def records(rules, seed, indices, bots="random", forced=None) -> list[dict]:
    """The full records (docs/records.md) of some deals of a seed.

    Full records of deals ``indices`` of ``seed`` (the kernel's play, decision for
    decision; with random bots the same as ``tarotsim.reference.play_deal``)."""
    r = _rules(rules)
    indices = _indices(indices)
    if forced is not None and r.table == "5d":
        fs, _ = _forced(r, forced)
        for i in indices:
            if i % r.n_seats == fs:
                raise ValueError(f"deal {i}: forced taker {fs} is the dummy (R-DEAL-6)")
    return [record_from_log(r, seed, lg) for lg in logs(r, seed, indices, bots, forced)]


__all__ = ["BOT_KINDS", "CHELEM_NAMES", "CsvFacts", "DEFAULT_CHUNK", "FACTS_DTYPE", "N_BOT_PARAMS", "OUTCOMES",
           "ParquetFacts", "Summary", "accumulate", "aggregate", "bot_arrays", "bot_error", "bot_setup", "facts",
           "facts_arrow", "facts_pandas", "facts_polars", "facts_schema", "format_summary", "logs", "record_from_log",
           "records", "slow_path_error", "summarize", "summary_from_totals", "totals"]
