"""The library's front door as the manual shows it: ``import tarotsim as ts`` gives the main names
and every module, each imported on first use, so that importing the package loads nothing else."""

import subprocess
import sys

import pytest

import tarotsim


def test_every_main_name_is_exported_from_its_home():
    assert sorted(tarotsim.__all__) == sorted(tarotsim._EXPORTS)
    for name, module in tarotsim._EXPORTS.items():
        home = __import__(f"tarotsim.{module}", fromlist=[name])
        assert getattr(tarotsim, name) is getattr(home, name), name
    assert set(tarotsim.__all__) <= set(dir(tarotsim))


def test_modules_are_attributes_and_unknown_names_raise_attribute_error():
    assert tarotsim.simulate.aggregate is __import__("tarotsim.simulate", fromlist=["aggregate"]).aggregate
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
