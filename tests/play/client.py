"""A real WebSocket client of one seat (websockets' synchronous client), and a simple player for it."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect


class SeatClient:
    def __init__(self, ws_base: str, table: str, token: str) -> None:
        self.ws = connect(f"{ws_base}/ws/{table}?token={token}", open_timeout=10, close_timeout=2).__enter__()
        self.received: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.hello = self.recv()

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        if message.get("type") == "view":
            self.view = message
        return message

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def until(self, predicate, timeout: float = 10) -> dict[str, Any]:
        """Read messages until one satisfies ``predicate``."""
        while True:
            message = self.recv(timeout)
            if predicate(message):
                return message

    def error_after(self, message: Any) -> dict[str, Any]:
        self.send(message)
        return self.until(lambda m: m["type"] == "error")

    def close(self) -> None:
        self.ws.close()


def simple_choice(view: dict[str, Any]) -> str:
    """A legal action from the view's own legal list: the first concrete one, else a discard of the first cards."""
    legal = view["hand"]["legal"]
    if legal["actions"]:
        return str(legal["actions"][0])  # call, claim, tigers, or the first legal play
    option = legal["discard"]
    return "discard " + " ".join(option["from"].split()[: option["count"]])
