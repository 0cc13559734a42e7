"""The project's structure: the engine never imports the bots, no import cycles, the
leaf modules that both sides share import nothing else of the project."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tarotsim", "bots")
#: what both the engine and the bots import: these may import only each other
LEAVES = {"tarotsim._kernels._bits", "tarotsim._kernels._rng", "tarotsim._kernels.layout", "tarotsim._kernels.seats",
          "tarotsim._kernels.random_player", "tarotsim._kernels._cache", "tarotsim._kernels.masks"}
#: the homes of the rule tables, card constants and the scorer (plain Python, no numba)
RULE_HOMES = {"tarotsim.rules", "tarotsim.cards", "tarotsim.rng", "tarotsim.scoring"}
#: plain Python that imports nothing of the project, which every module may use (the rule tables too)
PLAIN = {"tarotsim.echo"}


def _modules() -> dict[str, Path]:
    mods = {}
    for base in PACKAGES:
        for f in sorted((ROOT / base).rglob("*.py")):
            name = ".".join(f.relative_to(ROOT).with_suffix("").parts)
            mods[name.removesuffix(".__init__")] = f
    return mods


MODULES = _modules()


def _imports(name: str) -> set[str]:
    """The project modules that ``name`` imports, at module level or inside a function."""
    f = MODULES[name]
    package = name.split(".") if f.name == "__init__.py" else name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            subs = [f"{mod}.{a.name}" for a in node.names]
            # ``from . import x`` of a submodule imports x, not the package's own code
            if node.module or not all(s in MODULES for s in subs):
                out.add(mod)
            out.update(subs)
    return {m for m in out if m in MODULES and m != name}


GRAPH = {m: _imports(m) for m in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


#: Every module of the project on a part, the parts from the bottom up: a module belongs to the
#: first part with a prefix it starts with (a prefix ending in "." takes a whole folder). The top
#: level of ``tarotsim`` holds the parts a user reads as topics; the folders hold the rest.
PARTS: dict[str, tuple[str, ...]] = {
    "basics": ("tarotsim.echo", "tarotsim.json_input", "tarotsim.outputs", "tarotsim.stats", "tarotsim.parallel"),
    "rules": ("tarotsim.cards", "tarotsim.rules", "tarotsim.rng", "tarotsim.scoring", "tarotsim.actions",
              "tarotsim.observations"),
    "reference": ("tarotsim.reference",),
    "kernels": ("tarotsim._kernels",),
    "models": ("tarotsim.learn.features", "tarotsim.learn.forward", "tarotsim.learn.models"),
    "bots": ("bots",),
    "builds": ("tarotsim._builds",),
    "facade": ("tarotsim.engine", "tarotsim.adapters", "tarotsim.record", "tarotsim.display", "tarotsim.svg"),
    "sheets": ("tarotsim.sheet", "tarotsim.audit"),
    "worlds": ("tarotsim.worlds", "tarotsim.inference"),
    "analysis": ("tarotsim.analysis",),
    "runs": ("tarotsim.runs",),
    "learn": ("tarotsim.learn",),
    "web": ("tarotsim.web",),
    "league": ("tarotsim.league",),
    "cli": ("tarotsim.cli",),
}
#: What each part may import besides itself: the parts below it that it builds on. The package's
#: root (``tarotsim``, whose names load lazily) is open to all.
BELOW = {
    "basics": set(),
    "rules": {"basics"},
    "reference": {"rules", "basics"},
    "kernels": {"rules", "basics"},
    "models": {"kernels", "rules", "basics"},
    "bots": {"models", "kernels", "rules", "basics"},
    "builds": {"bots", "models", "kernels", "rules", "basics"},
    "facade": {"builds", "bots", "models", "kernels", "reference", "rules", "basics"},
    "sheets": {"rules", "basics"},
    "worlds": {"facade", "builds", "bots", "models", "kernels", "reference", "rules", "basics"},
    # the analysis reads records and positions: it never plays runs, nor reaches the command line
    "analysis": {"worlds", "facade", "sheets", "builds", "bots", "models", "kernels", "reference", "rules", "basics"},
    # the runs never import the analysis nor the command line
    "runs": {"worlds", "facade", "sheets", "builds", "bots", "models", "kernels", "reference", "rules", "basics"},
    "learn": {"runs", "worlds", "facade", "builds", "bots", "models", "kernels", "reference", "rules", "basics"},
    "web": {"learn", "runs", "analysis", "worlds", "facade", "sheets", "builds", "bots", "models", "kernels",
            "reference", "rules", "basics"},
    "league": {"runs", "worlds", "facade", "builds", "bots", "models", "kernels", "reference", "rules", "basics"},
    "cli": set(PARTS) - {"cli"},
}


def part_of(module: str) -> str | None:
    """The part of ``module`` (None: none of :data:`PARTS` holds it; the package's root is ``"root"``)."""
    if module == "tarotsim":
        return "root"
    for part, prefixes in PARTS.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return part
    return None


def test_every_module_is_on_a_part():
    assert [m for m in MODULES if part_of(m) is None] == []
    assert set(BELOW) == set(PARTS) and all(BELOW[p] <= set(PARTS) - {p} for p in PARTS)


def test_a_part_imports_only_itself_and_the_parts_below_it():
    """The rules between parts: the analysis never imports the runs, the runs never the analysis nor
    the command line, the kernels and the bots never the builds, nothing but the command line
    imports it, and so on up the table."""
    wrong = sorted(f"{m} ({part_of(m)}) imports {d} ({part_of(d)})" for m, deps in GRAPH.items() for d in deps
                   if part_of(m) != "root" and part_of(d) not in BELOW[part_of(m)] | {part_of(m), "root"})
    assert wrong == []


def test_the_parts_table_catches_an_import_from_above():
    assert part_of("tarotsim.analysis.solver") == "analysis" and part_of("tarotsim.runs.simulate") == "runs"
    assert part_of("tarotsim.learn.forward") == "models" and part_of("tarotsim.learn.data") == "learn"
    assert "runs" not in BELOW["analysis"] and "analysis" not in BELOW["runs"] and "builds" not in BELOW["bots"]
    assert "builds" not in BELOW["kernels"] and all("cli" not in BELOW[p] for p in PARTS)


def test_only_the_command_line_imports_click():
    """The library's errors are its own; the command line alone turns them into click's."""
    users = sorted(m for m, f in MODULES.items() if part_of(m) != "cli"
                   and any(isinstance(n, (ast.Import, ast.ImportFrom))
                           and "click" in ([a.name for a in n.names] if isinstance(n, ast.Import) else [n.module])
                           for n in ast.walk(ast.parse(f.read_text(encoding="utf-8")))))
    assert users == []


def _named_on(page: str, module: str) -> bool:
    """Whether the architecture page names ``module``: its dotted name, its file, or its folder's
    form (``_kernels/steps.py``, ``runs/simulate.py``), a package by its folder (``tarotsim/runs/``)."""
    f = MODULES[module].relative_to(ROOT).as_posix()
    if f.endswith("/__init__.py"):
        folder = f.removesuffix("__init__.py")
        return folder in page or f"`{module}`" in page
    short = "/".join(f.split("/")[-2:])
    return module in page or f in page or f"`{short}`" in page or f"{short}`" in page


def test_every_module_is_named_on_the_architecture_page():
    """The page cannot fall behind: a module added anywhere fails this test until the page says what it holds."""
    page = (ROOT / "docs" / "explanation" / "architecture.md").read_text(encoding="utf-8")
    assert [m for m in MODULES if not _named_on(page, m)] == []
    assert all(f"**{part}**" in page for part in PARTS)  # each part has its paragraph


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    assert _cycles(GRAPH) == []


def test_the_kernels_never_import_the_bots():
    offenders = {m: sorted(d for d in deps if d.split(".")[0] == "bots")
                 for m, deps in GRAPH.items() if m.startswith("tarotsim._kernels")}
    assert {m: d for m, d in offenders.items() if d} == {}


def test_the_library_reaches_the_bots_only_through_their_package():
    """The engine side (``tarotsim``) imports public bot modules only: the registry, the policy
    sets, the dispatch and the searches its builds receive (cards, and bids and declarations),
    and the heuristic's count (the bidding study); a policy's internals stay behind them."""
    allowed = {"bots", "bots.policy", "bots.dispatch", "bots.search", "bots.bid_search", "bots.heuristic"}
    seen = {d for m, deps in GRAPH.items() if m.startswith("tarotsim") for d in deps if d.split(".")[0] == "bots"}
    assert seen <= allowed, seen - allowed
    assert not any(part.startswith("_") for d in seen for part in d.split(".")), seen


def test_the_bots_never_import_the_builds():
    """The engine's builds (``tarotsim._builds``) receive the bots' decisions and search; the bots
    never import them, nor build a kernel themselves."""
    offenders = {m: sorted(d for d in deps if d.startswith("tarotsim._builds"))
                 for m, deps in GRAPH.items() if m.split(".")[0] == "bots"}
    assert {m: d for m, d in offenders.items() if d} == {}
    builders = [m for m in MODULES if m.split(".")[0] == "bots"
                and any(f in MODULES[m].read_text(encoding="utf-8") for f in ("make_play(", "make_env_step("))]
    assert builders == []


def test_the_shared_leaf_modules_import_only_each_other_and_the_rule_tables():
    assert LEAVES | RULE_HOMES | PLAIN <= set(MODULES)
    allowed = LEAVES | RULE_HOMES | PLAIN | {"tarotsim._kernels", "tarotsim"}
    assert {m: sorted(GRAPH[m] - allowed) for m in LEAVES if GRAPH[m] - allowed} == {}
    # the rule tables and the scorer import neither the kernels nor the bots
    homes = RULE_HOMES | PLAIN | {"tarotsim"}
    assert {m: sorted(GRAPH[m] - homes) for m in RULE_HOMES if GRAPH[m] - homes} == {}
    assert {m: sorted(GRAPH[m] - {"tarotsim"}) for m in PLAIN if GRAPH[m] - {"tarotsim"}} == {}


@pytest.mark.slow
def test_importing_the_kernels_loads_no_bot():
    code = ("import sys, tarotsim._kernels, tarotsim._kernels.worlds\n"
            "print(sorted(m for m in sys.modules if m == 'bots' or m.startswith('bots.')))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=120,
                         cwd=ROOT).stdout
    assert out.strip() == "[]"


#: files whose docstrings follow the summary rule below once the branches that are changing them
#: are in: until then they keep their own first lines (some of these files exist only on those branches)
SUMMARY_PENDING: frozenset[str] = frozenset()
#: the project's line length (ruff's ``line-length``): a summary fits on the line of its opening quotes
LINE_LENGTH = 120


def _summary_faults(source: str) -> list[tuple[int, str, str]]:
    """The multi-line docstrings of ``source`` that do not open with a one-line summary.

    A module, class or function docstring of more than one line opens, on the line of its
    quotes, with a summary that fits that line and ends with a period, then a blank line, then
    the rest (PEP 257, the NumPy docstring style). Returns ``(line, name, fault)`` triples.
    """
    lines = source.splitlines()
    faults = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        first = node.body[0] if node.body else None
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            continue
        doc = first.value.value.splitlines()
        if len("\n".join(doc).strip().splitlines()) < 2:
            continue
        if not doc[0].strip():
            fault = "the summary is not on the line of the opening quotes"
        elif not doc[0].rstrip().endswith("."):
            fault = "the summary does not end with a period"
        elif doc[1].strip():
            fault = "no blank line after the summary"
        elif len(lines[first.value.lineno - 1]) > LINE_LENGTH:
            fault = f"the summary line is longer than {LINE_LENGTH} characters"
        else:
            continue
        faults.append((first.value.lineno, getattr(node, "name", "<module>"), fault))
    return faults


def test_the_summary_checker_finds_each_fault():
    good = 'def f():\n    """Sum.\n\n    More."""\n\n\ndef g():\n    """One line, no period needed here"""\n'
    assert _summary_faults(good) == []
    bad = ('"""A module summary that runs on\nto the next line."""\n\n\nclass C:\n    """Summary.\n    More."""\n\n'
           '    def m(self):\n        """\n        Summary.\n\n        More.\n        """\n')
    assert _summary_faults(bad) == [(1, "<module>", "the summary does not end with a period"),
                                    (6, "C", "no blank line after the summary"),
                                    (10, "m", "the summary is not on the line of the opening quotes")]
    long = f'def f():\n    """{"x" * LINE_LENGTH}.\n\n    More."""\n'
    assert _summary_faults(long) == [(2, "f", f"the summary line is longer than {LINE_LENGTH} characters")]


def test_every_multi_line_docstring_opens_with_a_one_line_summary():
    """The summary rule holds in the library, the bots and the tests' shared helpers.

    The test modules are left out: their test functions' docstrings are sentences about the test."""
    faults = {}
    helpers = sorted((ROOT / "tests").glob("helpers_*.py")) + [ROOT / "tests" / "conftest.py"]
    for path in [*MODULES.values(), *helpers]:
        rel = path.relative_to(ROOT).as_posix()
        if rel not in SUMMARY_PENDING:
            faults.update({f"{rel}:{line} {name}": fault
                           for line, name, fault in _summary_faults(path.read_text(encoding="utf-8"))})
    assert faults == {}
