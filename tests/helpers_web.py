"""What the tests of `tarotsim serve` share.

A server on a free port of this machine, a page that speaks the protocol (a websocket client,
no browser), and the person who plays.

The person's choice is the same whatever drives the page (the protocol alone, a browser's
clicks): ``garde`` when it is legal, else the first legal choice the server lists, so a seeded
deal is played the same way every time and its record can be played again on the ``Game``."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.error
import urllib.request

from tarotsim.web.server import Settings, create_app, listen, url_of


@contextlib.contextmanager
def running_server(db, **settings):
    """A server of ``db`` in a thread of the test process, on a free port of 127.0.0.1; its URL.

    ``settings``: those of :class:`tarotsim.web.server.Settings` (``pace`` 0 by default)."""
    import uvicorn

    sock = listen("127.0.0.1", 0)
    app = create_app(Settings(db=db, **{"pace": 0, **settings}))
    # log_config=None: uvicorn leaves the logging set-up alone (its own would bind handlers to the
    # test's captured streams and reset the handlers of the whole process at every server)
    config = uvicorn.Config(app, log_level="warning", log_config=None, ws_max_size=1 << 16, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(30)
        app.state.store.close()


def choose(choices: list[dict]) -> str:
    """The person's choice among the choices of a state: garde when legal, else the first legal one."""
    legal = [c["action"] for c in choices if c["legal"]]
    return "garde" if "garde" in legal else legal[0]


def get(url: str) -> tuple[int, str, bytes]:
    """``(status, content type, body)`` of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


class Page:
    """A page of the protocol: a websocket to the server, the messages it receives."""

    def __init__(self, url: str):
        from websockets.sync.client import connect

        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(connect(url.replace("http://", "ws://") + "ws", max_size=1 << 22))
        self.hello = self.receive()
        assert self.hello["type"] == "hello"
        self.evenings = self.receive()["evenings"]
        self.last: dict | None = None

    def close(self) -> None:
        self._stack.close()

    def send(self, **msg) -> None:
        self.ws.send(json.dumps(msg))

    def receive(self, timeout: float = 120) -> dict:
        msg = json.loads(self.ws.recv(timeout=timeout))
        if msg["type"] == "state":
            self.last = msg
        return msg

    def until(self, kind: str, timeout: float = 120) -> dict:
        """The next message of type ``kind``; the others are skipped (each state kept in ``last``)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.receive(max(0.1, deadline - time.monotonic()))
            if msg["type"] == kind:
                return msg

    def settled(self, timeout: float = 120) -> dict:
        """The next state in which the person is to decide or the deal is over."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.until("state", max(0.1, deadline - time.monotonic()))
            if msg["yours"] or msg["over"]:
                return msg

    def play_deal(self, state: dict | None = None, timeout: float = 300) -> dict:
        """Play the deal to its end, the person choosing as :func:`choose`; the last state."""
        state = state if state is not None else self.settled(timeout)
        while not state["over"]:
            self.send(type="act", action=choose(state["choices"]), turn=state["turn"])
            state = self.settled(timeout)
        return state
