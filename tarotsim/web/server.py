"""The server of ``tarotsim serve``: the page, one websocket per game, the evenings' files to export.

:func:`create_app` makes the ASGI application (Starlette; uvicorn serves it). Its routes:

| route | what |
|---|---|
| ``GET /`` | the page (``tarotsim/web/static/``: one HTML file, its script and style) |
| ``GET /static/…`` | the page's script and style, from the package and nowhere else |
| ``WS /ws`` | one game: the protocol ``tarotsim-table/1`` below |
| ``GET /evenings/ID/sheet.csv`` | the evening's score sheet, as ``tarotsim sheet`` reads it |
| ``GET /evenings/ID/records.jsonl`` | the evening's deal records (docs/records.md) |
| ``GET /evenings/ID/deals/N/review`` | deal N's replay page with each card's cost (``analyse --html``) |

The protocol: JSON text messages. The page sends ``{"type": ...}`` messages, ``new``, ``resume``,
``act``, ``unpick``, ``hint``, ``next``, ``end``, ``state``, ``evenings``; the server answers
``hello`` (on connecting), ``state`` (the table, after every change: each bot's card in turn),
``refused`` (a choice the rules forbid, with the rule id), ``hint``, ``review`` (a finished
deal's review, once the solver has made it), ``evenings`` and ``error``. The how-to page of the
manual (docs/how-to/play-in-the-browser.md) lists every field.

Every message from the page is checked before it reaches a table (:func:`check_message`): its
size (:data:`MAX_MESSAGE`), its JSON, its type and each field's type and length, the rate of the
page's messages (:data:`RATE` a second, in bursts of :data:`BURST`); a message that fails is
answered by one ``error`` (at most one a second for a flood) and changes nothing. Each page has its
own game; the bots' decisions, the hints and the reviews run on worker threads, so a long
search never holds up another game. Nothing a page sends names a file: the only file the server
writes is its evenings database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import echo
from ..analysis.costs import DEFAULT_BUDGET
from ..engine import IllegalPlayError
from ..runs import evening as ev
from .store import Store, StoreError
from .table import WEB_TABLES, Table, TableError, review_data, review_page

__all__ = ["BURST", "MAX_MESSAGE", "PROTOCOL", "RATE", "ProtocolError", "Settings", "check_message", "create_app"]

#: The protocol's name and version, in the ``hello`` message.
PROTOCOL = "tarotsim-table/1"
#: The longest message a page may send, in characters (a choice is a few dozen).
MAX_MESSAGE = 4096
#: The messages a page may send a second, and in one burst; the rest are dropped, and said to be.
RATE, BURST = 20, 60
#: The most games at once: a page beyond them is told the server is full.
MAX_GAMES = 100
STATIC = Path(__file__).parent / "static"

log = logging.getLogger("tarotsim.web")


class ProtocolError(ValueError):
    """A message of the page that is no message of the protocol: one line for the page."""


#: Per message type, its fields: name -> (type, required, the longest text or list).
MESSAGES: dict[str, dict[str, tuple[type, bool, int]]] = {
    "new": {"table": (str, True, 4), "seat": (int, True, 0), "bots": (str, False, 500), "seed": (int, False, 0),
            "options": (list, False, 32)},
    "resume": {"evening": (int, True, 0)},
    "act": {"action": (str, True, 40), "turn": (int, True, 0), "seat": (int, False, 0)},
    "unpick": {"card": (str, True, 8), "turn": (int, True, 0)},
    "hint": {"turn": (int, False, 0)},
    "next": {"turn": (int, False, 0)},
    "end": {},
    "state": {},
    "evenings": {},
}


def check_message(text) -> dict:
    """A page's message, checked: a JSON object of a known ``type`` with fields of the right types.

    Raises :class:`ProtocolError` (one line) for anything else: a binary or oversized frame,
    text that is not JSON, an unknown type, a missing field, a field of the wrong type or length,
    a field the type does not have."""
    if not isinstance(text, str):
        raise ProtocolError("the protocol's messages are JSON text, not binary frames")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"a message of {len(text):,} characters: at most {MAX_MESSAGE:,}")
    try:
        msg = json.loads(text)
    except ValueError:
        raise ProtocolError(f"not JSON: {echo.shown(text)}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError('a message is a JSON object with a "type": ' + ", ".join(MESSAGES))
    kind = msg["type"]
    if kind not in MESSAGES:
        raise ProtocolError(f"unknown message type {echo.shown(kind)}: {', '.join(MESSAGES)}")
    spec = MESSAGES[kind]
    extra = [k for k in msg if k != "type" and k not in spec]
    if extra:
        raise ProtocolError(f"{kind}: no field {echo.shown(extra[0])} (its fields: {', '.join(spec) or 'none'})")
    for name, (typ, required, limit) in spec.items():
        if name not in msg or msg[name] is None:
            if required:
                raise ProtocolError(f"{kind}: the field {name!r} is missing")
            msg[name] = None
            continue
        value = msg[name]
        if typ is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ProtocolError(f"{kind}: {name} must be a whole number, not {echo.shown(value)}")
        if typ is str and not isinstance(value, str):
            raise ProtocolError(f"{kind}: {name} must be a text, not {echo.shown(value)}")
        if typ is list and not (isinstance(value, list) and all(isinstance(x, str) for x in value)):
            raise ProtocolError(f"{kind}: {name} must be a list of texts, not {echo.shown(value)}")
        if limit and len(value) > limit:
            raise ProtocolError(f"{kind}: {name} holds {len(value)} characters or items, at most {limit}")
    return msg


@dataclass
class Settings:
    """What ``tarotsim serve`` sets: the database, the bots offered, the pace of the bots, the reviews' budget.

    ``bots``: the ``--bots`` text the page proposes; the user's bots (``module:NAME``) it names
    are the only ones a page may ask for. ``pace``: seconds between two bots' decisions, so that
    each card is seen. ``budget``: the solver's nodes per question of a review."""

    db: Path
    bots: str = "heuristic"
    pace: float = 0.4
    budget: int = DEFAULT_BUDGET
    allowed: tuple[str, ...] = ()
    open_evenings: set[int] = field(default_factory=set)
    games: int = 0


def create_app(settings: Settings) -> Starlette:
    """The ASGI application of ``tarotsim serve`` (see the module docstring); opens the database.

    Raises :class:`tarotsim.web.store.StoreError` for a database that cannot be used."""
    from ..runs.players import bot_texts
    from ..runs.slowpath import is_python_bot

    store = Store(settings.db)
    settings.allowed = tuple(s for s in bot_texts(settings.bots) if is_python_bot(s))
    reviews = threading.Lock()  # one solver at a time: the games keep the other core

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        if settings.games >= MAX_GAMES:
            await ws.send_json({"type": "error", "message": f"the server is full: {MAX_GAMES} games at once"})
            await ws.close()
            return
        settings.games += 1
        try:
            await Connection(ws, store, settings, reviews).run()
        finally:
            settings.games -= 1

    def _evening(request: Request) -> int:
        evening = request.path_params["evening"]
        try:
            store.evening(evening)
        except StoreError:
            raise _NotFound(f"no evening {evening}") from None
        return evening

    async def sheet(request: Request) -> Response:
        evening = _evening(request)
        text = await run_in_threadpool(sheet_csv, store, evening)
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="evening-{evening}.csv"'})

    async def records(request: Request) -> Response:
        evening = _evening(request)
        data = await run_in_threadpool(store.jsonl, evening)
        return Response(data, media_type="application/jsonl",
                        headers={"Content-Disposition": f'attachment; filename="evening-{evening}.jsonl"'})

    async def review(request: Request) -> Response:
        evening, number = _evening(request), request.path_params["number"]
        e = store.evening(evening)
        rec = store.record(evening, number)
        if rec is None:
            raise _NotFound(f"evening {evening} has no deal {number}")
        made = store.review(evening, number)
        if made is None:  # not made yet (or the server stopped before): made now
            made = await off_loop(_make_review, reviews, store, evening, number, rec, e.names, e.seat, settings.budget)
        html = await run_in_threadpool(review_page, rec, e.names, made,
                                       f"tarotsim review · evening {evening}, deal {number}")
        return HTMLResponse(html)

    async def not_found(request: Request, exc: Exception) -> Response:
        return PlainTextResponse(str(exc), status_code=404)

    routes = [Route("/", page), WebSocketRoute("/ws", socket),
              Route("/evenings/{evening:int}/sheet.csv", sheet),
              Route("/evenings/{evening:int}/records.jsonl", records),
              Route("/evenings/{evening:int}/deals/{number:int}/review", review),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes, exception_handlers={_NotFound: not_found})
    app.state.store = store
    return app


class _NotFound(Exception):
    pass


def sheet_csv(store: Store, evening: int) -> str:
    """An evening's score sheet (:func:`tarotsim.sheet.write_sheet`), from its records."""
    import io

    from ..record import replay
    from ..rules import Rules
    from ..sheet import write_sheet

    e = store.evening(evening)
    deals = []
    for rec in store.records(evening):
        deal = replay(rec).deal
        deals.append((deal.facts() if deal.outcome == "played" else None, rec["scores"]))
    fh = io.StringIO(newline="")
    write_sheet(deals, Rules.from_options(e.table, e.options), e.names, fh)
    return fh.getvalue()


def _make_review(lock: threading.Lock, store: Store, evening: int, number: int, record: dict, names, seat: int,
                 budget: int) -> dict:
    with lock:
        made = store.review(evening, number)  # another page's request may have made it meanwhile
        if made is None:
            made = review_data(record, names, seat, budget)
            store.set_review(evening, number, made)
    return made


async def off_loop(fn, *args, running: set | None = None):
    """``fn(*args)`` on a daemon thread of its own, awaited without holding the event loop.

    A bot's search, a hint or a review may take long: the other games go on meanwhile, and a
    server stopped meanwhile (SIGTERM, Ctrl-C) does not wait for it; the deal in progress is kept
    as it was before the decision, which is made again when the evening resumes. ``running``: a
    set that holds the thread while it runs."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def done(result, error) -> None:
        if future.cancelled():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def run() -> None:
        result = error = None
        try:
            result = fn(*args)
        except BaseException as e:  # handed to the awaiting task
            error = e
        finally:
            if running is not None:
                running.discard(thread)
        with contextlib.suppress(RuntimeError):  # the loop closed: the server stopped, nobody waits
            loop.call_soon_threadsafe(done, result, error)

    thread = threading.Thread(target=run, name="tarotsim-web", daemon=True)
    if running is not None:
        running.add(thread)
    thread.start()
    return await future


def evenings_message(store: Store, settings: Settings) -> dict:
    """The ``evenings`` message: the evenings a page may resume, the latest first."""
    rows = []
    for e in store.evenings():
        if e.ended:
            continue
        rows.append({"evening": e.id, "created": e.created, "table": e.table, "seat": e.seat, "bots": e.bots,
                     "seed": e.seed, "names": e.names, "deals": e.deals, "totals": e.totals,
                     "open": e.id in settings.open_evenings})
    return {"type": "evenings", "evenings": rows}


class Connection:
    """One page's websocket: its messages checked, its game driven, the bots' moves sent one by one."""

    def __init__(self, ws: WebSocket, store: Store, settings: Settings, reviews: threading.Lock):
        self.ws, self.store, self.settings, self.reviews = ws, store, settings, reviews
        self.table: Table | None = None
        self.busy: str | None = None  # what the table is doing off the event loop (a bot thinking, a hint)
        self.shown: dict | None = None  # the last state sent
        self.tokens, self.stamp = float(BURST), time.monotonic()
        self.dropped, self.told_drop = 0, 0.0
        self.group: anyio.abc.TaskGroup | None = None
        self.running: set[threading.Thread] = set()  # the table's work under way on its threads

    async def send(self, msg: dict) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # a page that left takes no more
            await self.ws.send_text(json.dumps(msg, ensure_ascii=False))

    async def error(self, message: str) -> None:
        await self.send({"type": "error", "message": message})

    async def run(self) -> None:
        from ..svg import card_face

        await self.send({"type": "hello", "protocol": PROTOCOL, "tables": list(WEB_TABLES), "bots": self.settings.bots,
                         "hint_bot": ev.HINT_BOT, "limits": {"message": MAX_MESSAGE, "rate": RATE, "burst": BURST},
                         "cards": {str(c): card_face(c) for c in _deck()}})
        await self.send(evenings_message(self.store, self.settings))
        try:
            async with anyio.create_task_group() as group:
                self.group = group
                await self.receive()
                group.cancel_scope.cancel()
        finally:
            if self.table is not None:
                self.release(self.table.id)

    def release(self, evening: int) -> None:
        """The evening is no more this page's: free for another once the work under way on it ends."""
        running = list(self.running)
        if not running:
            self.settings.open_evenings.discard(evening)
            return

        def wait() -> None:  # a decision still being made would be kept after another page's
            for t in running:
                t.join()
            self.settings.open_evenings.discard(evening)

        threading.Thread(target=wait, name="tarotsim-web-release", daemon=True).start()

    async def receive(self) -> None:
        while True:
            try:
                message = await self.ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            if not self.admitted():
                await self.flood()
                continue
            try:
                msg = check_message(message.get("text") if message.get("text") is not None else message.get("bytes"))
                await self.dispatch(msg)
            except (ProtocolError, TableError, StoreError) as e:
                await self.error(str(e))
            except ValueError as e:  # a bots text, an option, a seat the rules refuse
                await self.error(echo.cut(e, echo.MESSAGE))

    def admitted(self) -> bool:
        """Whether this message is within the page's rate (a token bucket)."""
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            self.dropped += 1
            return False
        self.tokens -= 1
        return True

    async def flood(self) -> None:
        """Say that messages are dropped, at most once a second."""
        now = time.monotonic()
        if now - self.told_drop >= 1:
            self.told_drop = now
            await self.error(f"too many messages: {self.dropped:,} ignored so far; at most {RATE} a second")

    async def dispatch(self, msg: dict) -> None:
        kind = msg["type"]
        if kind == "evenings":
            await self.send(evenings_message(self.store, self.settings))
            return
        if kind in ("new", "resume"):
            if self.busy:
                raise TableError(f"wait: {self.busy}")
            await self.open(msg)
            return
        table = self.table
        if table is None:
            raise TableError("no game yet: start a new evening or resume one")
        if kind == "state":  # while the table works, as it was last shown
            await (self.send(self.shown) if self.busy and self.shown is not None else self.send_state())
            return
        if self.busy:
            raise TableError(f"not your turn: {self.busy}")
        if msg.get("turn") is not None and msg["turn"] != table.turn:
            raise TableError(f"out of turn: that was for an earlier state of the table ({msg['turn']}, now "
                             f"{table.turn})")
        if kind == "act":
            if msg["seat"] is not None and msg["seat"] != table.seat:
                raise TableError(f"wrong seat: you hold seat {table.seat}, not {echo.shown(msg['seat'])}")
            try:
                await self.work("your choice is being applied", table.act, msg["action"])
            except IllegalPlayError as e:
                await self.send({"type": "refused", "action": msg["action"], "rule": e.rule_id,
                                 "message": f"refused: {ev.personal(str(e), table.seat)}"})
                return
        elif kind == "unpick":
            await self.work("your choice is being applied", table.unpick, msg["card"])
        elif kind == "hint":
            advice = await self.work(f"{ev.hint_bot_name(table.rules)} is thinking of a hint", table.hint)
            await self.send({"type": "hint", "turn": table.turn, **advice})
            return
        elif kind == "next":
            await self.work("the next deal is dealt", table.next_deal)
        elif kind == "end":
            await run_in_threadpool(table.end)
            self.settings.open_evenings.discard(table.id)
            self.table = None
            await self.send({"type": "ended", "evening": table.id})
            await self.send(evenings_message(self.store, self.settings))
            return
        await self.after_change()

    async def work(self, doing: str, fn, *args):
        """Run ``fn`` on a worker thread, the table marked busy meanwhile (``doing`` says with what)."""
        self.busy = doing
        try:
            return await off_loop(fn, *args, running=self.running)
        finally:
            self.busy = None

    async def open(self, msg: dict) -> None:
        settings = self.settings
        if msg["type"] == "new":
            seed = msg["seed"]
            if seed is None:
                import secrets
                seed = secrets.randbelow(2**32)
            table = await self.work("the evening is being set", Table.new, self.store, msg["table"],
                                    msg["options"] or [], msg["seat"], msg["bots"] or settings.bots, seed,
                                    settings.allowed)
        else:
            if msg["evening"] in settings.open_evenings and (self.table is None or self.table.id != msg["evening"]):
                raise TableError(f"evening {msg['evening']} is open in another page")
            table = await self.work("the evening is being set", Table.resume, self.store, msg["evening"])
        if self.table is not None:
            self.release(self.table.id)
        settings.open_evenings.add(table.id)
        self.table = table
        await self.after_change()

    async def send_state(self) -> None:
        assert self.table is not None
        self.shown = await run_in_threadpool(self.table.state)
        await self.send(self.shown)

    async def after_change(self) -> None:
        """Send the table; then let the bots move one by one, each move sent; then review a finished deal."""
        await self.send_state()
        table = self.table
        assert table is not None and self.group is not None
        if table.bots_to_move:
            self.group.start_soon(self.drive, table)
        elif table.finished is not None:
            self.group.start_soon(self.review, table, table.finished["number"], table.finished["record"])

    async def drive(self, table: Table) -> None:
        while table is self.table and table.bots_to_move and not self.busy:
            d = table.game.decision
            assert d is not None
            self.busy = f"{table.names[d.seat]} is to decide ({d.kind.replace('_', ' ')})"
            try:
                if self.settings.pace:
                    await anyio.sleep(self.settings.pace)
                await off_loop(table.bot_move, running=self.running)
            except IllegalPlayError as e:  # a bot's forbidden answer: the game cannot go on
                await self.error(f"the game stops: {e}")
                return
            finally:
                self.busy = None
            await self.send_state()
        if table is self.table and table.finished is not None:
            await self.review(table, table.finished["number"], table.finished["record"])

    async def review(self, table: Table, number: int, record: dict) -> None:
        made = self.store.review(table.id, number)
        if made is None:
            made = await off_loop(_make_review, self.reviews, self.store, table.id, number, record, table.names,
                                  table.seat, self.settings.budget)
        await self.send({"type": "review", "evening": table.id, "deal": number, "text": made["text"],
                         "costs": "card_costs" in made, "url": f"/evenings/{table.id}/deals/{number}/review"})


def _deck():
    from ..cards import DECK
    return DECK


#: The address the server listens on unless told otherwise: this machine only.
LOCAL_HOST = "127.0.0.1"


def listen(host: str, port: int):
    """A listening socket on ``host:port`` (port 0: a free one), or ``OSError``."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock) -> str:
    """The page's address on a listening socket: ``http://127.0.0.1:8765/``."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(settings: Settings, sock) -> None:
    """Serve the application on ``sock`` until SIGTERM or Ctrl-C (uvicorn: a graceful stop, then the signal)."""
    import uvicorn

    config = uvicorn.Config(create_app(settings), log_level="warning", ws_max_size=1 << 16, ws_ping_interval=20,
                            timeout_graceful_shutdown=2, lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])
