"""One table a server holds: the table, its sockets (each with its language), when it was last used, its bots.

Its own module so that the lobby (:mod:`~hakka_play.lobby`) and the server (:mod:`~hakka_play.server`)
both read it while only the server imports the lobby.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.websockets import WebSocket

from .table import Table


@dataclass
class Open:
    """One table the server holds: its sockets (each with its language), when it was last used, its bots."""

    table: Table
    sockets: dict[int, dict[WebSocket, str]] = field(default_factory=lambda: {i: {} for i in range(4)})
    last_active: float = 0.0
    bots: asyncio.Task[None] | None = None
    address: str = ""
    """The client address that created the table in the lobby ("" for the command line's, or a restored one)."""
    watchers: dict[WebSocket, str] = field(default_factory=dict)
    """The spectators' sockets, each with its language: they are sent the public view."""
    clock: asyncio.TimerHandle | None = None
    clock_at: int = -1
    """The table's version the running turn clock was started at (it runs out only if nothing moved since)."""

    @property
    def connected(self) -> int:
        return sum(len(s) for s in self.sockets.values()) + len(self.watchers)
