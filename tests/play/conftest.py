"""A real uvicorn server on 127.0.0.1 (a free port), in a thread of the test process."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

NEEDS_PLAY = "the play table needs the `play` extra: pip install -e '.[play]'"


@dataclass
class Live:
    base: str
    ws_base: str
    play: Any  # conformance.play.server.PlayServer
    loop: asyncio.AbstractEventLoop
    errors: list[logging.LogRecord]
    """What the server logged at ERROR or above (an exception in the application: a traceback)."""

    def call(self, fn, *args):  # run a function on the server's event loop (its tables live there)
        async def run():
            return fn(*args)
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def live() -> Iterator[Live]:
    """Skips, with the reason, where the `play` extra is not installed."""
    pytest.importorskip("starlette", reason=NEEDS_PLAY)
    uvicorn = pytest.importorskip("uvicorn", reason=NEEDS_PLAY)
    from conformance.play.server import PlayServer

    play = PlayServer(bot_delay=0.0)
    port = _free_port()
    config = uvicorn.Config(play.app(), host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio",
                            ws_max_size=64 * 1024)
    server = uvicorn.Server(config)
    holder: dict[str, asyncio.AbstractEventLoop] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        holder["loop"] = loop
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.serve())

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
    for name in ("uvicorn.error", "uvicorn.asgi", "asyncio"):
        logging.getLogger(name).addHandler(keep)
    try:
        yield Live(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", play, holder["loop"], errors)
    finally:
        for name in ("uvicorn.error", "uvicorn.asgi", "asyncio"):
            logging.getLogger(name).removeHandler(keep)
        server.should_exit = True
        thread.join(10)
