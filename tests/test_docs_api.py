"""The library's front door as the manual shows it: ``import tarotsim as ts`` gives the main names
and every module, each imported on first use, so that importing the package loads nothing else;
the API pages render every public module, from docstrings in Markdown."""

import ast
import inspect
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tarotsim


def test_every_main_name_is_exported_from_its_home():
    assert sorted(tarotsim.__all__) == sorted(tarotsim._EXPORTS)
    for name, module in tarotsim._EXPORTS.items():
        home = __import__(f"tarotsim.{module}", fromlist=[name])
        assert getattr(tarotsim, name) is getattr(home, name), name
    assert set(tarotsim.__all__) <= set(dir(tarotsim))


def test_modules_are_attributes_and_unknown_names_raise_attribute_error():
    assert tarotsim.runs.simulate.aggregate is __import__("tarotsim.runs.simulate", fromlist=["aggregate"]).aggregate
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        tarotsim.nope  # noqa: B018
    with pytest.raises(AttributeError):
        tarotsim._private  # noqa: B018


def test_the_docs_first_lines_work():
    ts = tarotsim
    game = ts.Game(ts.Rules("4"), seed=7, index=3)
    assert game.legal_actions()[0] == "pass"
    assert ts.score(ts.DealFacts(ts.Rules("4"), contract="garde", attack_half_points=90, oudlers=2)).value == 58


@pytest.mark.slow
def test_importing_the_package_imports_none_of_its_modules():
    code = "import sys, tarotsim; print(sorted(m for m in sys.modules if m.startswith(('tarotsim.', 'bots', 'numba'))))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=120).stdout
    assert out.strip() == "[]"


# -- the API pages: every public module, written from docstrings in Markdown ----------------------

ROOT = Path(__file__).resolve().parent.parent
API_PAGES = ROOT / "docs" / "reference" / "api"
#: A reference to a file outside the repository: the project's own copies are docs/rules.md and
#: docs/records.md (the words are written in capitals when they name those files).
OUTSIDE = re.compile(r"\bDESIGN\b|\bRULES\b|shared/")
#: A reST literal block (``text::``) or a reST table's border (``=====  =====``): Markdown shows them as text.
REST = re.compile(r"::\s*$|^\s*={3,}\s+={3,}", re.M)
#: The longest code line of a docstring that the API pages show without a scroll bar.
CODE_WIDTH = 80


def public_modules() -> list[str]:
    """Every public module of the packages: names without a leading ``_``, outside a private
    package, found in the packages' folders (nothing is imported)."""
    found = []

    def walk(path: Path, name: str) -> None:
        found.append(name)
        for info in pkgutil.iter_modules([str(path)]):
            if info.name.startswith("_"):
                continue
            if info.ispkg:
                walk(path / info.name, f"{name}.{info.name}")
            else:
                found.append(f"{name}.{info.name}")

    for package in ("tarotsim", "bots"):
        walk(ROOT / package, package)
    return sorted(found)


def documented_modules() -> dict[str, str]:
    """The modules the API pages render (``::: module``), with their page."""
    return {m: page.name for page in sorted(API_PAGES.glob("*.md"))
            for m in re.findall(r"^::: ([\w.]+)\s*$", page.read_text(encoding="utf-8"), re.M)}


def module_file(name: str) -> Path:
    path = ROOT.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def shown_texts(path: Path) -> list[tuple[int, str]]:
    """What the API pages show of a module besides its signatures: every docstring (the module's,
    its classes', functions' and methods', and the strings after an assignment) and every ``#:``
    comment, with its line."""
    source = path.read_text(encoding="utf-8")
    out = []
    for node in ast.walk(ast.parse(source)):
        for statement in getattr(node, "body", []) if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) else []:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
                    and isinstance(statement.value.value, str):
                out.append((statement.lineno, statement.value.value))
    out += [(i, line.strip()) for i, line in enumerate(source.splitlines(), 1) if line.strip().startswith("#:")]
    return out


def test_public_modules_are_found_in_the_package_folders():
    modules = public_modules()
    assert {"tarotsim", "tarotsim.svg", "tarotsim.reference.deal", "bots", "bots.policy"} <= set(modules)
    assert not [m for m in modules if "._" in m]  # tarotsim._kernels, tools.docs: private


def test_every_public_module_is_on_an_api_page():
    """A module added to tarotsim or bots fails this test until an API page renders it
    (``::: tarotsim.module`` in a page of docs/reference/api/, that page in mkdocs.yml's nav)."""
    on_pages = documented_modules()
    assert [m for m in public_modules() if m not in on_pages] == []
    assert [m for m in on_pages if m not in public_modules()] == []  # no page renders a module that is gone
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert [p for p in set(on_pages.values()) if f"reference/api/{p}" not in nav] == []


def test_the_api_pages_show_markdown_and_no_file_outside_the_repository():
    """The docstrings the API pages render: no reST literal block or table (fenced code and Markdown
    tables instead), no code line wider than the page, no RULES.md or DESIGN (the manual's pages)."""
    found = []
    for name in documented_modules():
        path = module_file(name)
        for line, text in shown_texts(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            found += [f"{where}: reST {m[0].strip()!r}" for m in REST.finditer(text)]
            found += [f"{where}: {m[0]!r}, a file outside the repository" for m in OUTSIDE.finditer(text)]
            fenced = False
            for code in inspect.cleandoc(text).splitlines():
                fenced ^= code.lstrip().startswith("```")
                if (fenced or code.lstrip().startswith(">>>")) and len(code) > CODE_WIDTH:
                    found.append(f"{where}: a code line of {len(code)} characters")
    assert found == []


def test_the_checks_of_the_api_pages_find_what_they_look_for():
    assert REST.search("the pattern::\n\n    code") and REST.search("=====  =====\nids    names")
    assert not REST.search("``float64[::1]`` (16)")
    assert [m[0] for m in OUTSIDE.finditer("DESIGN §6, RULES.md, RULES §14, /work/shared/x, the rules, design")] == \
        ["DESIGN", "RULES", "RULES", "shared/"]
    texts = dict(shown_texts(ROOT / "tarotsim" / "svg.py"))
    assert any(t.startswith("Pictures of the game as SVG") for t in texts.values())
    assert any(t.startswith("#: Horizontal step between two overlapped cards") for t in texts.values())
