"""The modules that moved into the folders of their parts still import by their old names, as the new modules."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import pytest

import tarotsim


@pytest.mark.parametrize("old", sorted(tarotsim.MOVED_MODULES))
def test_an_old_module_name_is_the_new_module_with_a_deprecation_warning(old):
    new = importlib.import_module(tarotsim.MOVED_MODULES[old])
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is now {new.__name__}"):
        assert importlib.import_module(old) is new
    name = old.rsplit(".", 1)[1]
    sys.modules.pop(old, None)
    vars(tarotsim).pop(name, None)  # the import set it as an attribute of the package
    with pytest.warns(DeprecationWarning, match=f"{old} is now {new.__name__}"):
        assert getattr(tarotsim, name) is new


def test_every_old_name_is_gone_from_the_package_and_every_new_one_is_there():
    root = tarotsim.__path__[0]
    for old, new in tarotsim.MOVED_MODULES.items():
        assert importlib.util.find_spec(new) is not None
        assert not (importlib.util.find_spec(new).origin or "").startswith(f"{root}/{old.rsplit('.', 1)[1]}.py")


def test_the_packages_of_the_parts_give_their_modules_as_attributes():
    import tarotsim.analysis
    import tarotsim.runs

    assert tarotsim.runs.simulate is importlib.import_module("tarotsim.runs.simulate")
    assert tarotsim.analysis.solver is importlib.import_module("tarotsim.analysis.solver")
    assert tarotsim.analysis.analyse is importlib.import_module("tarotsim.analysis.costs").analyse
    with pytest.raises(AttributeError):
        tarotsim.runs.no_such_module  # noqa: B018
