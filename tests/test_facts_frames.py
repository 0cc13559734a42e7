"""The facts table as Arrow, Parquet and DataFrames (tarotsim.runs.simulate.facts_arrow, `simulate
--facts FILE.parquet`): the same columns and values as the CSV facts, typed; written whole or not
at all (extras parquet and dataframe, which the test command installs: never skipped)."""

import csv
import io
import math
import os
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tarotsim.runs import simulate as sim
from tarotsim.cards import format_points
from tarotsim.rules import Rules

sys.path.insert(0, str(Path(__file__).parent))  # a raising bot of test_cli_misc, loaded by --bots


def as_csv_text(v) -> str:
    """A typed facts value as the CSV writes it: null empty, booleans true/false, points with .5."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        assert (2 * v).is_integer()
        return format_points(int(2 * v))
    return str(v)


def csv_table(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("table, options", [("5", ()), ("4", ("misere=on",)), ("5d", ()), ("3", ())])
def test_parquet_facts_read_back_equal_to_the_csv_facts(cli, tmp_path, table, options):
    pq_path, csv_path = tmp_path / "f.parquet", tmp_path / "f.csv"
    opts = [x for o in options for x in ("--option", o)]
    for path in (pq_path, csv_path):
        code, _, err = cli("simulate", "--table", table, "--bots", "heuristic", "--deals", 2500, "--seed", 9,
                           "--start", 40,
                           "--facts", path, *opts)
        assert code == 0, err
    rows = csv_table(csv_path.read_text(encoding="utf-8"))
    back = pq.read_table(pq_path)
    assert back.schema.names == list(rows[0]) == sim.facts_csv_header(Rules(table))
    assert back.schema == sim.facts_schema(Rules(table))
    assert back.num_rows == len(rows) == 2500
    assert [{k: as_csv_text(v) for k, v in r.items()} for r in back.to_pylist()] == rows
    # the typed columns hold what they say: every kind of value met, nulls only where the CSV is empty
    assert set(back.column("outcome").to_pylist()) >= {"played", "all_passed"}
    assert back.column("taker").null_count == sum(r["taker"] == "" for r in rows)


def test_the_library_tables_and_frames_agree_with_the_csv_rows():
    rules = Rules.from_options("4", {"misere": True})
    f = sim.facts(rules, 3, 0, 3000)
    by_csv = csv_table(_csv_text(f, rules, 3))
    table = sim.facts_arrow(f, rules, 3)
    assert [{k: as_csv_text(v) for k, v in r.items()} for r in table.to_pylist()] == by_csv
    pdf = sim.facts_pandas(f, rules, 3)
    assert list(pdf.columns) == table.schema.names and len(pdf) == 3000
    assert all(str(t).endswith("[pyarrow]") for t in pdf.dtypes)  # Arrow-backed: the arrays are not copied
    assert pa.Table.from_pandas(pdf, preserve_index=False).equals(table)
    pl_df = sim.facts_polars(f, rules, 3)
    assert pl_df.columns == table.schema.names and pl_df.to_arrow().to_pylist() == table.to_pylist()
    # a figure from the frames equals the same figure from the facts array
    played = f[f["outcome"] == 0]
    assert math.isclose(pl_df.filter(pl_df["outcome"] == "played")["attack_points"].mean(),
                        played["attack_half_points"].mean() / 2)
    assert int(pdf["score_0"].sum()) == int(f["scores"][:, 0].sum())


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_a_frame_without_its_library_says_what_to_install(monkeypatch, library):
    f = sim.facts(Rules("4"), 3, 0, 5)
    monkeypatch.setitem(sys.modules, library, None)  # import fails as if it were not installed
    with pytest.raises(ImportError) as e:
        getattr(sim, f"facts_{library}")(f, Rules("4"), 3)
    assert str(e.value) == f"the facts as {library} DataFrames need {library}: pip install 'tarotsim[dataframe]'"
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r"^the facts as Arrow or Parquet need pyarrow: pip install 'tarotsim\[parquet\]'$"):
        sim.facts_arrow(f, Rules("4"), 3)


def _csv_text(f, rules, seed) -> str:
    out = io.StringIO(newline="")
    w = csv.writer(out)
    w.writerow(sim.facts_csv_header(rules))
    w.writerows(sim.facts_csv_rows(f, rules, seed))
    return out.getvalue()


def test_an_empty_facts_array_is_an_empty_table():
    rules = Rules("5")
    t = sim.facts_arrow(np.zeros(0, dtype=sim.FACTS_DTYPE), rules, 1)
    assert t.num_rows == 0 and t.schema == sim.facts_schema(rules)


def test_parquet_facts_are_written_whole_or_not_at_all(cli, tmp_path):
    old = tmp_path / "f.parquet"
    old.write_bytes(b"old")
    code, out, err = cli("simulate", "--bots", "random,random,test_cli_misc:DividesByZeroAtBid,random",
                         "--deals", 3, "--seed", 1, "--start", 7, "--facts", old)
    assert code == 2 and err.count("\n") == 1
    assert old.read_bytes() == b"old" and [p for p in os.listdir(tmp_path) if p != "f.parquet"] == []
    for bad, why in ((tmp_path / "f.parquet.gz", "--facts writes Parquet as it is, not gzip-compressed: leave out .gz"), (tmp_path / "no" / "f.parquet", "does not exist")):
        code, out, err = cli("simulate", "--deals", 3, "--facts", bad)
        assert code == 2 and why in err and err.count("\n") == 1
