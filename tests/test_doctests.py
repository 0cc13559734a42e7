"""The examples of the docstrings: each one runs, and every public function and class of the
modules that teach by example has one (the API pages render them, these tests run them).

An example is a NumPy-style ``Examples`` section of ``>>>`` lines. They are collected here with
the standard :mod:`doctest` module, so that ``python -m pytest`` runs them as any other test,
with no ``--doctest-modules`` flag. The modules: the facade, the scoring, the worlds, the solver
and the statistics in full, and the main names of ``import tarotsim as ts`` (``ts.__all__``)
where each one lives.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import re
from types import ModuleType

import pytest

import tarotsim

#: The modules whose every public function and class shows an example.
MODULES = ("tarotsim.engine", "tarotsim.scoring", "tarotsim.worlds", "tarotsim.analysis.solver", "tarotsim.stats")
#: The homes of the main names: their examples run too (and the package's own, on the API index page).
HOMES = tuple(sorted({f"tarotsim.{home}" for home in tarotsim._EXPORTS.values()} - set(MODULES)))

#: Public names with no example, and why.
EXEMPT = {
    "tarotsim.analysis.solver.CompileWarning":
        "only a process whose numba cache lacks the solver's search gives it: an example cannot show it",
}

#: A NumPy-style ``Examples`` section that holds at least one ``>>>`` line.
EXAMPLES_SECTION = re.compile(r"^Examples\n-+\n(?:(?!^\w[^\n]*\n-{3,}\n).*\n)*?>>> ", re.M)


def public_objects(module: ModuleType) -> dict[str, object]:
    """The public functions and classes a module defines, by qualified name: the names of its
    ``__all__`` and every other one without a leading ``_`` (imported names are their home's)."""
    names = set(getattr(module, "__all__", ())) | {n for n in vars(module) if not n.startswith("_")}
    out = {}
    for name in sorted(names):
        obj = getattr(module, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and obj.__module__ == module.__name__:
            out[f"{module.__name__}.{name}"] = obj
    return out


def shown_objects() -> dict[str, object]:
    """Every object that must show an example: the public ones of :data:`MODULES`, and the main names."""
    out = {}
    for name in MODULES:
        out.update(public_objects(importlib.import_module(name)))
    for name in tarotsim.__all__:
        obj = getattr(tarotsim, name)
        out[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return out


def has_example(obj) -> bool:
    return EXAMPLES_SECTION.search(inspect.cleandoc(obj.__doc__ or "") + "\n") is not None


def examples() -> list[doctest.DocTest]:
    """The docstring examples of the package, :data:`MODULES` and :data:`HOMES`, one test per docstring."""
    finder = doctest.DocTestFinder()
    found = [test for name in ("tarotsim",) + MODULES + HOMES
             for test in finder.find(importlib.import_module(name)) if test.examples]
    return sorted(found, key=lambda t: t.name)


@pytest.mark.parametrize("test", examples(), ids=lambda t: t.name)
def test_the_example_runs(test):
    report: list[str] = []
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test, out=report.append)
    assert result.attempted > 0
    assert result.failed == 0, "".join(report)


def test_every_public_function_and_class_shows_an_example():
    missing = [name for name, obj in shown_objects().items() if name not in EXEMPT and not has_example(obj)]
    assert missing == []


def test_every_example_shown_is_one_that_runs():
    run = {test.name for test in examples()}
    assert [name for name in shown_objects() if name not in EXEMPT and name not in run] == []


def test_every_exemption_names_a_public_object_without_an_example():
    shown = shown_objects()
    assert [name for name in EXEMPT if name not in shown or has_example(shown[name])] == []


def test_an_example_is_found_only_in_an_examples_section():
    def doc(text):
        return inspect.cleandoc(text) + "\n"

    assert EXAMPLES_SECTION.search(doc("""Sum.

        Examples
        --------
        The sum of two:

        >>> 1 + 1
        2
        """))
    assert not EXAMPLES_SECTION.search(doc("""Sum.

        Examples
        --------
        None here.

        Notes
        -----
        >>> 1 + 1
        """))
    assert not EXAMPLES_SECTION.search(doc(">>> 1 + 1\n2"))
    assert "tarotsim.engine.Game" in shown_objects() and "tarotsim.cards.Card" in shown_objects()
    assert "tarotsim.engine.Rules" not in shown_objects()  # an imported name belongs to its home
