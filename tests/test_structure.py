"""The project's structure (issue 11): the engine never imports the bots, no import cycles, the
leaf modules that both sides share import nothing else of the project."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tarotsim", "bots")
#: what both the engine and the bots import: these may import only each other
LEAVES = {"tarotsim._kernels._bits", "tarotsim._kernels._rng", "tarotsim._kernels.layout", "tarotsim._kernels.seats",
          "tarotsim._kernels.random_player", "tarotsim._kernels._cache", "tarotsim._kernels.masks"}
#: the homes of the rule tables, card constants and the scorer (plain Python, no numba)
RULE_HOMES = {"tarotsim.rules", "tarotsim.cards", "tarotsim.rng", "tarotsim.scoring"}


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


def test_the_shared_leaf_modules_import_only_each_other_and_the_rule_tables():
    assert LEAVES | RULE_HOMES <= set(MODULES)
    allowed = LEAVES | RULE_HOMES | {"tarotsim._kernels", "tarotsim"}
    assert {m: sorted(GRAPH[m] - allowed) for m in LEAVES if GRAPH[m] - allowed} == {}
    # the rule tables and the scorer import neither the kernels nor the bots
    assert {m: sorted(GRAPH[m] - RULE_HOMES - {"tarotsim"}) for m in RULE_HOMES if GRAPH[m] - RULE_HOMES - {"tarotsim"}} == {}


def test_importing_the_kernels_loads_no_bot():
    code = ("import sys, tarotsim._kernels, tarotsim._kernels.worlds\n"
            "print(sorted(m for m in sys.modules if m == 'bots' or m.startswith('bots.')))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=120,
                         cwd=ROOT).stdout
    assert out.strip() == "[]"
