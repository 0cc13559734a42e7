"""The README's two quick-start commands, in that order, keep every command working.

numba's cache files once lived inside the installed package: they outlived ``pip uninstall`` and
turned ``site-packages/bots`` into a namespace package that shadowed the editable install.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import tarotsim

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_numba_cache_goes_to_the_user_cache_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tarotsim._numba_cache_dir() == str(tmp_path / "xdg" / "tarotsim" / "numba")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert tarotsim._numba_cache_dir() == str(tmp_path / "mine")


def _venv(path: Path) -> Path:
    """A fresh venv that sees this environment's packages (numpy, numba, click) but not tarotsim."""
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=300)
    py = path / "bin" / "python"
    inner = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           check=True, capture_output=True, text=True).stdout.strip()
    Path(inner, "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return path / "bin"


@pytest.mark.slow
def test_quick_start_then_editable_install_keeps_every_command_working(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for pkg in ("tarotsim", "bots"):
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    bin_ = _venv(tmp_path / "venv")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["HOME"] = str(tmp_path / "home")
    env.pop("XDG_CACHE_HOME", None)

    def sh(*argv):
        p = subprocess.run([str(a) for a in argv], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=600)
        assert p.returncode == 0, f"{argv}: {p.stderr[-2000:]}"
        return p.stdout

    sh(bin_ / "pip", "install", "--quiet", "--no-deps", str(src))           # the README's run command
    assert "deals/s" in sh(bin_ / "tarotsim", "simulate", "--deals", "10", "--seed", "1")
    installed = Path(sh(bin_ / "python", "-c", "import tarotsim; print(tarotsim.__file__)").strip()).parent
    site = installed.parent
    stray = [p for pkg in ("tarotsim", "bots") for p in (site / pkg).rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert stray == []  # compiled kernels live in the user's cache folder, not in the package
    assert list((tmp_path / "home" / ".cache" / "tarotsim" / "numba").iterdir())
    # the page of tarotsim serve is package data, installed with it
    assert sorted(p.name for p in (installed / "web" / "static").iterdir()) == ["index.html", "table.css", "table.js"]

    sh(bin_ / "pip", "install", "--quiet", "--no-deps", "-e", str(src))    # the README's test command
    assert not (site / "bots").exists() and not (site / "tarotsim").exists()
    assert "heuristic" in sh(bin_ / "tarotsim", "bots")
    assert "deals/s" in sh(bin_ / "tarotsim", "simulate", "--deals", "10", "--seed", "1")
    where = sh(bin_ / "python", "-c", "import bots, tarotsim; print(bots.__file__, tarotsim.__file__)")
    assert where.split() == [str(src / "bots" / "__init__.py"), str(src / "tarotsim" / "__init__.py")]
