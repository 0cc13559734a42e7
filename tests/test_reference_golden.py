"""Golden records of the reference engine (DESIGN §7): random-bot deals pinned field for field.

``tests/data/reference_golden.jsonl`` holds deals at tables 3, 4, 5 and 5d, with petit sec,
all-pass, poignées, misères, slams, the Excuse led to the last trick and forced contracts.
``play_deal`` must reproduce each one exactly (so must the numba engine: same rules, same
(seed, index), same random bots -> the same record), and each one must verify.

Regenerate (only after a deliberate change of the engine contract)::

    python tests/test_reference_golden.py
"""

from pathlib import Path

import pytest

from tarotsim import record
from tarotsim.reference import play_deal
from tarotsim.rules import Rules

GOLDEN = Path(__file__).parent / "data" / "reference_golden.jsonl"

# (table, options, seed, index, forced)
SPECS = [
    ("3", {}, 2024, 0, None),
    ("3", {}, 2024, 92, None),          # all passed
    ("3", {}, 2024, 165, None),         # poignée
    ("3", {"poignee_ecart_trumps": False}, 7, 7, (0, "garde")),
    ("4", {}, 2024, 0, None),
    ("4", {}, 2024, 13, None),          # poignée
    ("4", {}, 2024, 97, None),          # the defence wins every trick
    ("4", {}, 2024, 912, None),         # petit sec
    ("4", {}, 2024, 1462, None),        # the Excuse led to the last trick
    ("4", {}, 2024, 3, (1, "garde")),   # forced contract
    ("4", {"misere": True}, 2024, 5, None),
    ("5", {}, 2024, 0, None),
    ("5", {}, 2024, 20, None),
    ("5", {}, 2024, 101, None),         # petit sec
    ("5", {}, 2024, 940, None),
    ("5", {"misere": True}, 2024, 11, None),
    ("5", {"called_suit_after_excuse": "restricted"}, 2024, 7, (2, "prise")),
    ("5d", {}, 2024, 0, None),
    ("5d", {}, 2024, 13, None),
    ("5d", {}, 2024, 153, None),        # all passed
]


def forced_of(rec):
    """The (seat, contract) of a forced record: its one non-pass bid."""
    if not rec.get("forced"):
        return None
    return next((s, b) for s, b in rec["bids"] if b != "pass")


def golden():
    return list(record.load(GOLDEN))


def test_golden_file_covers_every_spec():
    assert len(golden()) == len(SPECS)


@pytest.mark.parametrize("line,rec", golden(), ids=lambda x: str(x) if isinstance(x, int) else "")
def test_play_deal_reproduces_the_golden_record(line, rec):
    rules = Rules.from_options(rec["table"], rec["options"])
    assert play_deal(rules, rec["seed"], rec["index"], forced_of(rec)) == rec


def test_golden_records_verify():
    assert record.verify_file(GOLDEN) == len(SPECS)


if __name__ == "__main__":  # regenerate
    recs = [play_deal(Rules.from_options(t, o), s, i, f) for t, o, s, i, f in SPECS]
    record.dump(recs, GOLDEN)
    print(f"wrote {len(recs)} records to {GOLDEN}")
