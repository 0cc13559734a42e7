"""The replay page: one self-contained HTML file to step through deals, card by card.

``tarotsim show FILE.jsonl --line N --html deal.html`` (or ``--seed S --index I``) writes it:
the table picture of :mod:`tarotsim.svg` at every step (dealt, each bid, the call, the écart,
each declaration, each card), stepped with buttons or the arrow keys, a side panel with the step,
the auction, the trick on the table, and at the end the count and the score breakdown of
:func:`tarotsim.scoring.format_breakdown`. Several records give one page with a deal picker.

A link to ``deal.html#step=N`` opens the page at step N (from 1, as the page counts them) of its
first deal.

The file needs nothing else: no server, no network, no external script, style or font. Its 78
cards are drawn once (:func:`tarotsim.svg.card_face`, :func:`~tarotsim.svg.card_back`); each
step is the list of where each card lies (the coordinates of :func:`tarotsim.svg.layout`), the
labels drawn over them and the panel's HTML, so the page shows exactly the pictures the library
draws.

Per-card costs: a record may carry ``card_costs``, per trick, per card in playing order, the
half-points that card lost against best play (0 for a best card, null where unknown), as an
exact solver computes them, and ``best_cards``, in the same shape, the cards that were best
instead (empty for a best card or where unknown); :func:`deal_data` also takes them as ``costs``
and ``best``. The page then shows each card's cost on the table and, in the panel, beside the
card that was best.

Every card on the page is written as the pictures write it (``K♥``, ``T21``, ``EX``).
"""

from __future__ import annotations

import html
import json

from .. import svg
from ..cards import Card, CardError, format_points
from ..scoring import format_breakdown

#: The most deals one page holds (each is about 150 KB of steps): pick lines beyond that.
MAX_PAGE_DEALS = 500
PAGE_FORMAT = "tarotsim-replay/1"


class PageError(ValueError):
    """Deals that cannot make a page (too many, costs of the wrong shape): one line for the user."""


def _per_card(field: str, rows, record: dict) -> None:
    """Check that ``rows`` holds one list per trick of ``record`` and one entry per card of each."""
    tricks = record.get("tricks") or []
    if not isinstance(rows, list) or len(rows) != len(tricks):
        raise PageError(f"{field}: one list per trick ({len(tricks)}), not {_shape(rows)}")
    for k, (row, t) in enumerate(zip(rows, tricks), 1):
        if not isinstance(row, list) or len(row) != len(t["cards"]):
            raise PageError(f"{field}, trick {k}: one entry per card ({len(t['cards'])}), not {_shape(row)}")


def card_costs(record: dict, costs=None) -> list[list[int | None]] | None:
    """The per-card costs of a record, checked, or None.

    The per-card costs of a record (``costs``, else its field ``card_costs``), checked against
    its tricks: per trick, per card, whole half-points >= 0 or None. None when there are none."""
    costs = record.get("card_costs") if costs is None else costs
    if costs is None:
        return None
    _per_card("card_costs", costs, record)
    for k, row in enumerate(costs, 1):
        for x in row:
            if x is not None and (not isinstance(x, int) or isinstance(x, bool) or x < 0):
                raise PageError(f"card_costs, trick {k}: a cost is whole half-points >= 0 or null, not {x!r}")
    return costs


def best_cards(record: dict, best=None) -> list[list[list[Card]]] | None:
    """The cards that were best instead of each card played, checked, or None.

    The best cards of a record (``best``, else its field ``best_cards``), checked against its
    tricks: per trick, per card, a list of card names (empty for a best card or where unknown).
    None when there are none."""
    best = record.get("best_cards") if best is None else best
    if best is None:
        return None
    _per_card("best_cards", best, record)
    out = []
    for k, row in enumerate(best, 1):
        cards_row = []
        for x in row:
            if not isinstance(x, list) or not all(isinstance(c, str) for c in x):
                raise PageError(f"best_cards, trick {k}: each entry is a list of card names, not {x!r}")
            try:
                cards_row.append([Card.parse(c) for c in x])
            except CardError as e:
                raise PageError(f"best_cards, trick {k}: {e}") from None
        out.append(cards_row)
    return out


def _shape(x) -> str:
    return f"{len(x)} entries" if isinstance(x, list) else type(x).__name__


def _of_trick(pos: svg.Position, rows) -> dict:
    """The entries of ``rows`` (per trick, per card) for the cards of the trick shown, by card name."""
    if not rows or not pos.trick:
        return {}
    row = rows[pos.trick_number - 1]
    return {str(c): row[k] for k, (_, c) in enumerate(pos.trick)}


def deal_data(record: dict, line: int | None = None, names=None, costs=None, best=None) -> dict:
    """Everything the page needs to step through one deal.

    Everything the page needs to step through one deal (JSON-ready): a title, ``pool`` (the
    labels drawn over the table, SVG elements, each once), and per step ``c`` (each card shown:
    ``name,x,y,flags`` joined by ``;``; flag ``d`` face down, ``m`` a chien card in the taker's
    hand), ``o`` (the labels of the step, as indices into ``pool``: most labels stay from one
    step to the next) and ``p`` (the panel, HTML).

    ``costs`` and ``best`` are the record fields ``card_costs`` and ``best_cards`` (the record's
    own when not given, see the module docstring); ``names`` one name per seat (default: the
    record's ``players``, else ``seat 0`` ...).

    The record is replayed through the rules first (:func:`tarotsim.record.positions`): a record
    that breaks one raises :class:`tarotsim.record.RecordError`; costs of the wrong shape raise
    :class:`PageError`, names not one per seat :class:`tarotsim.svg.PictureError`."""
    from ..record import positions, seat_labels

    full, steps = positions(record, line)
    names = svg.seat_names(names if names is not None else seat_labels(full, "players"), len(full["hands"]))
    costs = card_costs(full, costs)
    best = best_cards(full, best)
    out = []
    pool: dict[str, int] = {}
    for i, pos in enumerate(steps):
        trick_costs = _of_trick(pos, costs)
        lay = svg.layout(pos, names, trick_costs)
        cards = ";".join(f"{p.card},{svg.coord(p.x)},{svg.coord(p.y)},{'' if p.face_up else 'd'}{'m' if p.marked else ''}"
                         for p in lay.cards)
        last = i == len(steps) - 1
        labels = [pool.setdefault(x, len(pool)) for x in lay.overlay[1:]]  # the felt is the page's own
        out.append({"c": cards, "o": labels, "p": _panel(pos, names, trick_costs, _of_trick(pos, best), last)})
    return {"title": _title(full, line, names), "start": svg.start_of_play(steps), "pool": list(pool),
            "steps": out}


def _title(rec: dict, line: int | None, names) -> str:
    where = f"line {line}: " if line is not None else ""
    ident = f"seed {rec['seed']}, index {rec['index']}" if rec.get("seed") is not None else "hand-entered"
    what = rec["outcome"].replace("_", " ")
    if rec["outcome"] == "played":
        res = rec["result"]
        what = (f"{names[rec['taker']]} {rec['contract'].replace('_', ' ')} "
                f"{'made' if res['made'] else 'failed'} {res['difference']:+d}")
    return f"{where}table {rec['table']}, {ident}: {what}"


def _panel(pos: svg.Position, names, costs: dict, best: dict, last: bool) -> str:
    """The side panel of one step: what happened, the auction, the trick on the table, the end."""
    out = [f'<p class="step-label">{html.escape(svg.shown_text(pos.step, names))}</p>']
    if pos.bids:
        bids = ", ".join(f"{names[s]} {b.replace('_', ' ')}" for s, b in pos.bids)
        out.append(f'<p class="bids"><b>Auction:</b> {html.escape(bids)}</p>')
    if pos.aside or pos.marked:
        cards = " ".join(c.pretty() for c in pos.aside)
        out.append(f'<p class="aside"><b>{html.escape(svg.shown_text(pos.aside_label, names))}</b> '
                   f'{html.escape(cards)}</p>')
    if pos.trick:
        out.append(_trick_table(pos, names, costs, best))
    if last:
        out.append(_count(pos, names))
    return "".join(out)


def _cost_cells(cost: int | None, best) -> str:
    """A card's cost in the panel: ``best``, or what it lost and the card(s) best instead."""
    if cost is None:
        return ""
    if cost == 0:
        return '<td class="best">best</td>'
    instead = f'<td class="instead">best: {html.escape(" ".join(c.pretty() for c in best))}</td>' if best else ""
    return f'<td class="cost">-{format_points(cost)}</td>{instead}'


def _trick_table(pos: svg.Position, names, costs: dict, best: dict) -> str:
    rows = []
    for seat, c in pos.trick:
        klass = ' class="winner"' if seat == pos.trick_winner else ""
        cells = _cost_cells(costs.get(str(c)), best.get(str(c)))
        rows.append(f'<tr{klass} data-seat="{seat}" data-card="{c}"><td>{html.escape(names[seat])}</td>'
                    f"<td>{html.escape(c.pretty())}</td>{cells}</tr>")
    head = f"Trick {pos.trick_number}" + (f": {html.escape(names[pos.trick_winner])} wins"
                                          if pos.trick_winner is not None else "")
    return f'<table class="trick" data-trick="{pos.trick_number}"><caption>{head}</caption>{"".join(rows)}</table>'


def _count(pos: svg.Position, names) -> str:
    """The HTML panel of the end of the deal.

    The end of the deal: the score breakdown (:func:`tarotsim.scoring.format_breakdown`) and
    each seat's score."""
    out = ['<div class="count">']
    if pos.breakdown is not None:
        out.append(f'<pre class="breakdown">{html.escape(format_breakdown(pos.breakdown, names))}</pre>')
    else:
        out.append(f"<p>{html.escape(svg.contract_line(pos, names))}</p>")
    rows = "".join(f'<tr><td>{html.escape(names[s])}</td><td class="score" data-seat="{s}">{sc:+d}</td></tr>'
                   for s, sc in enumerate(pos.scores or ()))
    out.append(f'<table class="scores"><caption>Scores</caption>{rows}</table></div>')
    return "".join(out)


def _card_defs() -> str:
    """The 78 cards, each drawn once face up and face down; the page shows one side or the other."""
    ring = (f'<rect class="markring" x="1.5" y="1.5" width="{svg.CARD_WIDTH - 3}" height="{svg.CARD_HEIGHT - 3}" '
            f'rx="{svg.CARD_RADIUS}" fill="none" stroke="{svg.MARK_EDGE}" stroke-width="3"/>')
    out = []
    for cid in range(78):
        c = Card(cid)
        out.append(f'<g class="card" data-card="{c}" style="display:none"><title>{html.escape(svg.card_title(c))}'
                   f'</title><g class="face">{svg.card_face(c)}</g><g class="back">{svg.card_back()}</g>{ring}</g>')
    return "".join(out)


def _script_json(data) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` or ``<!--`` can appear)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def page(deals: list[dict], title: str = "tarotsim replay") -> str:
    """The whole HTML page for deals made by :func:`deal_data`."""
    if not deals:
        raise PageError("no deal to show")
    if len(deals) > MAX_PAGE_DEALS:
        raise PageError(f"{len(deals)} deals: a page holds at most {MAX_PAGE_DEALS}; choose them with --line")
    picker = ""
    if len(deals) > 1:
        options = "".join(f'<option value="{i}">{html.escape(d["title"])}</option>' for i, d in enumerate(deals))
        picker = f'<label>Deal <select id="deal">{options}</select></label>'
    data = {"format": PAGE_FORMAT, "deals": deals}
    return (_PAGE.replace("%TITLE%", html.escape(title)).replace("%PICKER%", picker)
            .replace("%W%", str(svg.TABLE_WIDTH)).replace("%H%", str(svg.TABLE_HEIGHT))
            .replace("%RATIO%", f"{svg.TABLE_WIDTH / svg.TABLE_HEIGHT:g}").replace("%COST%", svg.COST_FILL)
            .replace("%FONT%", html.escape(svg.FONT)).replace("%FELT%", svg.FELT)
            .replace("%CARDS%", _card_defs()).replace("%DATA%", _script_json(data)))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>
/* The page fits its window: the table as large as the window leaves beside the panel and below
   the header (--head, the header's height, set by the script), never larger than drawn. */
:root{--head:3em;--panel:20em;--gap:.8em}
body{margin:0;font-family:%FONT%;background:#f3f1ea;color:#1b1b1b}
header{display:flex;flex-wrap:wrap;gap:.6em;align-items:center;padding:.5em .8em;background:#e4e0d4}
header h1{font-size:1.05em;margin:0 1em 0 0}
button{font:inherit;padding:.25em .7em}
main{display:flex;gap:var(--gap);padding:var(--gap);align-items:flex-start}
#table{flex:none;height:auto;
 width:min(%W%px,calc(100vw - var(--panel) - 3*var(--gap)),calc((100vh - var(--head) - 2*var(--gap))*%RATIO%))}
#panel{flex:1 1 var(--panel);min-width:0;font-size:.92em;overflow-y:auto;
 max-height:calc(100vh - var(--head) - 2*var(--gap))}
#panel p{margin:.2em 0 .6em}
#panel table{border-collapse:collapse;margin:.4em 0}
#panel caption{text-align:left;white-space:nowrap;padding-left:.6em}
#panel td{padding:.1em .6em;border-bottom:1px solid #ccc}
#panel tr.winner td{font-weight:bold;background:#fff3c4}
#panel td.cost{color:%COST%;font-weight:bold}
#panel td.best{color:#1b5e20}
#panel td.instead{color:#1b1b1b}
#panel pre{background:#fff;padding:.5em;overflow-x:auto;font-size:.9em}
@media (max-width:56em){main{flex-wrap:wrap}#table{width:min(%W%px,calc(100vw - 2*var(--gap)))}
 #panel{max-height:none}}
.card.down .face,.card:not(.down) .back,.card:not(.mark) .markring{display:none}
.keys{color:#555;font-size:.85em}
</style></head>
<body>
<header><h1>%TITLE%</h1>%PICKER%
<button id="first" title="first step (Home)">&#x00AB; first</button>
<button id="prev" title="previous step (left arrow)">&#x25C0; back</button>
<button id="next" title="next step (right arrow)">next &#x25B6;</button>
<button id="last" title="last step (End)">last &#x00BB;</button>
<button id="play-start" title="the start of play">start of play</button>
<span id="counter"></span><span class="keys">keys: &#x2190; &#x2192; Home End</span></header>
<main>
<svg id="table" xmlns="http://www.w3.org/2000/svg" width="%W%" height="%H%" viewBox="0 0 %W% %H%"
 font-family="%FONT%"><rect width="%W%" height="%H%" fill="%FELT%"/><g id="cards">%CARDS%</g><g id="overlay"></g></svg>
<div id="panel"></div>
</main>
<script>
"use strict";
const DATA = %DATA%;
const cardsLayer = document.getElementById("cards");
const cardEls = {};
for (const g of cardsLayer.children) cardEls[g.dataset.card] = g;
let deal = 0, step = 0;
function show() {
  const steps = DATA.deals[deal].steps;
  step = Math.max(0, Math.min(step, steps.length - 1));
  const s = steps[step];
  const seen = new Set();
  for (const item of s.c.split(";")) {
    if (!item) continue;
    const [name, x, y, flags] = item.split(",");
    const g = cardEls[name];
    seen.add(name);
    g.setAttribute("transform", "translate(" + x + " " + y + ")");
    g.classList.toggle("down", flags.includes("d"));
    g.classList.toggle("mark", flags.includes("m"));
    g.style.display = "";
    cardsLayer.appendChild(g);  /* later cards lie over earlier ones, as the picture draws them */
  }
  for (const name in cardEls) if (!seen.has(name)) cardEls[name].style.display = "none";
  document.getElementById("overlay").innerHTML = s.o.map(i => DATA.deals[deal].pool[i]).join("");
  document.getElementById("panel").innerHTML = s.p;
  document.getElementById("counter").textContent = "step " + (step + 1) + " / " + steps.length;
  document.getElementById("prev").disabled = document.getElementById("first").disabled = step === 0;
  document.getElementById("next").disabled = document.getElementById("last").disabled = step === steps.length - 1;
}
function go(to) { step = to; show(); }
function fit() {  /* the header's height, which wraps on a narrow window, for the table's size */
  document.documentElement.style.setProperty("--head", document.querySelector("header").offsetHeight + "px");
}
window.addEventListener("resize", fit);
fit();
function linked() {  /* a link to one step of the first deal: deal.html#step=12 */
  const m = /^#step=(\\d+)$/.exec(location.hash);
  if (m) { deal = 0; if (picker) picker.value = "0"; step = Number(m[1]) - 1; }
  return m !== null;
}
window.addEventListener("hashchange", () => { if (linked()) show(); });
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(step - 1);
document.getElementById("next").onclick = () => go(step + 1);
document.getElementById("last").onclick = () => go(DATA.deals[deal].steps.length - 1);
document.getElementById("play-start").onclick = () => go(DATA.deals[deal].start);
const picker = document.getElementById("deal");
if (picker) picker.onchange = () => { deal = Number(picker.value); go(0); };
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT") return;
  const to = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: Infinity}[e.key];
  if (to !== undefined) { e.preventDefault(); go(to); }
});
linked();
show();
</script>
</body></html>
"""


def write_page(path: str, deals: list[dict], title: str = "tarotsim replay") -> None:
    """Write the page to ``path``, whole or not at all (:func:`tarotsim.outputs.atomic_write_text`)."""
    from ..outputs import atomic_write_text

    atomic_write_text(path, [page(deals, title)], flag="--html")


__all__ = ["MAX_PAGE_DEALS", "PageError", "card_costs", "deal_data", "page", "write_page"]
