"""A real uvicorn server on 127.0.0.1 (a free port), in a thread of the test process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

NEEDS_PLAY = "the play table needs the `play` extra: pip install -e '.[play]'"
LOGGERS = ("uvicorn.error", "uvicorn.asgi", "asyncio")


@dataclass
class Live:
    base: str
    ws_base: str
    play: Any  # hakka_play.server.PlayServer
    loop: asyncio.AbstractEventLoop
    errors: list[logging.LogRecord]
    """What the server logged at ERROR or above (an exception in the application: a traceback)."""
    server: Any  # uvicorn.Server
    thread: threading.Thread
    """The thread that runs the server's event loop (it closes the loop when the server has stopped)."""

    def call(self, fn, *args):  # run a function on the server's event loop (its tables live there)
        async def run():
            return fn(*args)
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def stop(self, timeout: float = 10) -> float:
        """Stop the server as Ctrl-C would; return the seconds it took (the thread has ended, or the test fails)."""
        started = time.monotonic()
        self.server.should_exit = True
        self.thread.join(timeout)
        assert not self.thread.is_alive(), f"the server did not stop within {timeout} s"
        return time.monotonic() - started


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(play: Any) -> Iterator[Live]:
    """Serve ``play`` (a PlayServer) until the block ends (or :meth:`Live.stop`)."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(play.app(), host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio",
                            ws_max_size=64 * 1024)
    server = uvicorn.Server(config)
    holder: dict[str, asyncio.AbstractEventLoop] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        holder["loop"] = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(server.serve())
        finally:  # what is still pending now is dropped: a task destroyed pending is logged (and caught below)
            loop.close()

    errors: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            errors.append(record)

    keep = Keep(level=logging.ERROR)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    for name in LOGGERS:
        logging.getLogger(name).addHandler(keep)
    try:
        yield Live(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", play, holder["loop"], errors, server, thread)
    finally:
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(keep)
        server.should_exit = True
        thread.join(10)


@pytest.fixture
def live() -> Iterator[Live]:
    """Skips, with the reason, where the `play` extra is not installed."""
    pytest.importorskip("starlette", reason=NEEDS_PLAY)
    pytest.importorskip("uvicorn", reason=NEEDS_PLAY)
    from hakka_play.server import PlayServer

    with serving(PlayServer(bot_delay=0.0)) as running:
        yield running
