"""The manual's pictures, drawn by tarotsim at every build (an mkdocs hook: mkdocs.yml's ``hooks``).

Each file of :data:`FIGURES` is written into the site by the code of this checkout: the SVG
pictures by ``tarotsim.svg`` and ``tarotsim.record`` (from the inputs of the pictures page's own
example), the replay page by the ``tarotsim analyse --html`` command. None of them is stored in
``docs/``, so a picture in the manual is always what the code draws now.

A page shows an SVG figure as an image (``![...](figures/table-5.svg)``, a link mkdocs checks)
and embeds a page with a comment alone on its line, ``<!-- embed: figures/replay.html#step=78 -->``
(the fragment is kept), which :func:`on_page_markdown` turns into an ``<iframe>`` of that figure.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data" / "examples.jsonl"
#: the frontier run the strength page shows (``python -m benchmarks.frontier``, its command inside)
FRONTIER = ROOT / "benchmarks" / "frontier-4.json"
#: the self-play run the learned-models page shows (``tarotsim learn selfplay``, its command inside)
SELFPLAY = ROOT / "benchmarks" / "selfplay-4.json"
#: the site folder of the figures (no such folder is in docs/)
FOLDER = "figures"
EMBED = re.compile(r"^<!-- embed: ([^\s#]+)(#\S*)? -->$", re.M)
#: the names the pictures page gives the seats of its mid-deal table
NAMES = ["Ann", "Bob", "Cy", "Di"]


def _library():
    """``tarotsim.svg`` and ``tarotsim.record`` of this checkout (the build may run from any folder)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tarotsim import record, svg

    return svg, record


def example(line: int) -> dict:
    """The record of line ``line`` (1-based) of tests/data/examples.jsonl."""
    _, record = _library()
    return dict(next(rec for n, rec in record.load(str(EXAMPLES)) if n == line))


def hand() -> str:
    svg, _ = _library()
    return svg.hand_svg(["T21", "EX", "KH", "3S"])


def trick() -> str:
    svg, _ = _library()
    return svg.trick_svg([(1, "2H"), (2, "9H"), (3, "1H"), (0, "6H")], winner=2)


def table_start() -> str:
    _, record = _library()
    return record.record_svg(example(1))


def table_mid() -> str:
    svg, record = _library()
    _, steps = record.positions(example(1))
    return svg.render(svg.layout(steps[40], names=NAMES))


def table_five() -> str:
    _, record = _library()
    return record.record_svg(example(5))


def replay_page() -> str:
    """The page ``tarotsim analyse tests/data/examples.jsonl --line 5 --html FILE`` writes."""
    _library()
    from tarotsim.cli import main

    with tempfile.TemporaryDirectory(prefix="tarotsim-figures-") as folder:
        page = Path(folder) / "replay.html"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            try:
                main(["analyse", str(EXAMPLES), "--line", "5", "--html", str(page)])
            except SystemExit as e:
                if e.code:
                    raise RuntimeError(f"tarotsim analyse --html exited with {e.code}: {err.getvalue()}") from None
        return page.read_text(encoding="utf-8")


def _svg(draw: Callable) -> str:
    """The SVG text of the matplotlib figure ``draw()`` returns."""
    from matplotlib import rc_context

    out = io.StringIO()
    # text kept as text and no date or random ids, so that the same data draws the same file
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "tarotsim"}):
        draw().savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def learning_curve(kind: str) -> str:
    """The learning curve of the shipped ``kind`` model, from the history its file holds."""
    _library()
    from tarotsim.learn import models, train

    model = models.load_model(models.shipped(kind), kind)
    return _svg(lambda: train.curve_figure(kind, model.meta))


def frontier(path: Path = FRONTIER) -> str:
    """The frontier of the bots' settings (``benchmarks.frontier``), from the run stored at ``path``."""
    _library()
    import json

    from benchmarks.frontier import figure

    from bots import ALIASES

    result = json.loads(path.read_text(encoding="utf-8"))
    strong = ALIASES["strong"]
    return _svg(lambda: figure(result, strong.budget_ms, {strong.setting: strong.name}))


def selfplay_curve(path: Path = SELFPLAY) -> str:
    """The self-play learning curve (points a deal over the heuristic as the deals go), from the run stored at ``path``."""
    _library()
    import json

    from tarotsim.learn.selfplay import curve_figure

    return _svg(lambda: curve_figure(json.loads(path.read_text(encoding="utf-8"))))


def locations_curve() -> str:
    return learning_curve("locations")


def policy_curve() -> str:
    return learning_curve("policy")


#: Every figure of the site, by its path in the site, and the function that draws it.
FIGURES: dict[str, Callable[[], str]] = {
    f"{FOLDER}/hand.svg": hand,
    f"{FOLDER}/trick.svg": trick,
    f"{FOLDER}/table-start.svg": table_start,
    f"{FOLDER}/table-mid.svg": table_mid,
    f"{FOLDER}/table-5.svg": table_five,
    f"{FOLDER}/replay.html": replay_page,
    f"{FOLDER}/locations-4.svg": locations_curve,
    f"{FOLDER}/policy-4.svg": policy_curve,
    f"{FOLDER}/frontier-4.svg": frontier,
    f"{FOLDER}/selfplay-4.svg": selfplay_curve,
}


def figures() -> dict[str, str]:
    """Every figure of the site, drawn now: ``{path in the site: its text}``."""
    return {path: draw() for path, draw in FIGURES.items()}


def on_files(files, config):
    """mkdocs: add the figures, drawn now, to the site's files."""
    from mkdocs.structure.files import File

    for path, text in figures().items():
        files.append(File.generated(config, path, content=text))
    return files


def on_page_markdown(markdown: str, page, config, files):
    """mkdocs: each ``<!-- embed: PATH[#FRAGMENT] -->`` line becomes an ``<iframe>`` of that figure."""
    from mkdocs.utils import get_relative_url

    def iframe(m: re.Match) -> str:
        target = files.get_file_from_path(m[1])
        if target is None or m[1] not in FIGURES:
            raise ValueError(f"{page.file.src_path}: <!-- embed: {m[1]} --> names no figure ({', '.join(FIGURES)})")
        src = get_relative_url(target.url, page.url) + (m[2] or "")
        return (f'<iframe class="tarotsim-embed" src="{src}" title="{m[1]}" loading="lazy" '
                'style="width:100%;height:58em;border:1px solid #ccc"></iframe>')

    return EMBED.sub(iframe, markdown)
