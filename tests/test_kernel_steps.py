"""The deal kernel as named steps: every rule it implements is cited in full in
``tarotsim/_kernels/play.py`` and its rule steps ``steps.py`` (so ``grep R-PAB-2 tarotsim/_kernels/``
finds the code), and no
citation in the kernels is compressed (``R-PLAY-3/4``, ``R-EXC-2..5``) past what grep finds."""

from __future__ import annotations

import re
from pathlib import Path

import tarotsim._kernels

KERNELS = Path(tarotsim._kernels.__file__).parent

#: The rules the deal kernel (``play.py``, ``steps.py``) implements itself, step by step.
IMPLEMENTED = (
    "R-GEN-2", "R-GEN-3", "R-DEAL-1", "R-DEAL-2", "R-DEAL-4", "R-DEAL-6",
    "R-BID-1", "R-BID-2", "R-BID-3", "R-CALL-1", "R-CALL-2", "R-CALL-4",
    "R-CHIEN-1", "R-CHIEN-2", "R-CHIEN-3", "R-CHIEN-4", "R-SLAM-1", "R-SLAM-2",
    "R-POIG-1", "R-POIG-2", "R-POIG-3", "R-MIS-1",
    "R-PLAY-1", "R-PLAY-2", "R-PLAY-3", "R-PLAY-4a", "R-PLAY-4b", "R-PLAY-4c", "R-PLAY-4d", "R-PLAY-4e",
    "R-PLAY-5", "R-EXC-1", "R-EXC-2", "R-EXC-3", "R-EXC-4", "R-EXC-5",
    "R-PAB-1", "R-PAB-2", "R-COUNT-1", "R-COUNT-2",
)

COMPRESSED = re.compile(r"R-[A-Z]+-[0-9]+[a-z]?(?:\s*(?:/|\.\.|…)|-[0-9])")


def test_deal_kernel_cites_in_full_every_rule_it_implements():
    text = "".join((KERNELS / f).read_text(encoding="utf-8") for f in ("play.py", "steps.py"))
    missing = [rule for rule in IMPLEMENTED if not re.search(re.escape(rule) + r"(?![0-9a-z])", text)]
    assert missing == []


def test_no_compressed_rule_citation_in_the_kernels():
    found = [f"{f.name}: {m.group(0)}" for f in sorted(KERNELS.glob("*.py"))
             for m in COMPRESSED.finditer(f.read_text(encoding="utf-8"))]
    assert found == []


def test_no_compressed_rule_citation_anywhere():
    """Code, tests and docs cite every id in full, so grep finds each (the old forms are named by
    this file only)."""
    root = KERNELS.parent.parent
    files = [f for d in ("tarotsim", "bots", "tests", "benchmarks", "docs") for f in sorted((root / d).rglob("*"))
             if f.suffix in (".py", ".md") and f.resolve() != Path(__file__).resolve()]
    found = [f"{f.relative_to(root)}: {m.group(0)}" for f in files + [root / "README.md"]
             for m in COMPRESSED.finditer(f.read_text(encoding="utf-8"))]
    assert found == []


def test_the_compressed_citation_pattern_catches_the_old_forms():
    for old in ("R-PLAY-3/4", "R-POIG-2/3", "R-EXC-2..5", "R-EXC-2…5", "R-PAB-1/2"):
        assert COMPRESSED.search(old), old
    for full in ("R-PLAY-4b, R-PLAY-4c", "R-EXC-2 and R-EXC-3", "R-PLAY-4a to R-PLAY-4e"):
        assert not COMPRESSED.search(full), full


def test_every_build_names_its_out_of_line_closures_apart():
    """numba names a compiled function by qualified name, argument types and a per-process
    counter: two builds' closures of one name, compiled by two processes and loaded from the
    cache together, ran one build's code for the other (seen: heuristic tables dealt as random
    ones). Every build's out-of-line closures carry the build's name."""
    from tarotsim._builds import deal as _deal, pimc as _pimc
    from tarotsim._kernels import play

    builds = [play.play_random, play.play_random_two, _deal._play_bots, _deal._play_traced, _pimc._play_pimc,
              _deal.BOTS_PARTS["play_rest"]]
    names = [b.py_func.__qualname__ for b in builds]
    assert len(set(names)) == len(names), names
    assert all("__random" in n or "__bots" in n for n in names)
