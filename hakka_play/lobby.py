"""The lobby's requests: create a table, list the tables open to anyone, take a seat.

A seat's token is handed out once, to the person who takes the seat: the creator gets their own
seat link; every other person's seat is a single-use invitation (``/join/{table}?invite=…``) that
becomes that person's seat link when they redeem it, and is gone afterwards. A table created with
``"listed": true`` appears in ``GET /api/tables`` with its free seats (never a token or an
invitation), and anyone may take one of them.

``POST`` bodies are JSON with ``Content-Type: application/json`` and at most
:attr:`Limits.max_body` bytes: a form of another site can send neither that type nor (the
``Origin`` check of :mod:`~hakka_play.doors`) anything at all.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from conformance.rulebook import Rulebook
from reference_engine import Profile, SetupError

from .doors import Limits
from .held import Open
from .i18n import Msg, NMsg, language
from .table import Table, clean_name

MIN_TURN_SECONDS, MAX_TURN_SECONDS = 5, 3600
"""The turn clocks a table made in the lobby may have (seconds)."""


class LobbyHost(Protocol):
    """What the lobby needs of the server (:class:`hakka_play.server.PlayServer`), which imports the lobby."""

    open: dict[str, Open]
    limits: Limits
    rulebook: Rulebook
    turn_seconds: float | None

    def clock(self) -> float: ...

    def sweep(self) -> list[str]: ...

    def add_table(self, table: Table) -> Table: ...

    @staticmethod
    def invites(table: Table, base: str = "") -> list[dict[str, Any]]: ...

    @staticmethod
    def watch_link(table: Table, base: str = "") -> str: ...

    async def tell_host(self, table: Table) -> None: ...


def _refuse(request: Request, msg: Msg, status: int, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": msg.render(language(request)), **extra}, status_code=status)


async def _json_body(server: LobbyHost, request: Request) -> dict[str, Any] | JSONResponse:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return _refuse(request, Msg("the request must be JSON, sent with Content-Type: application/json"), 415)
    limit = server.limits.max_body
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return _refuse(request, NMsg("the request is larger than {limit} byte", "the request is larger than {limit} bytes",
                                          limit, limit=limit), 413)
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _refuse(request, Msg("the request must be JSON"), 400)
    if not isinstance(data, dict):
        return _refuse(request, Msg("the request must be a JSON object"), 400)
    return data


def _room(server: LobbyHost, request: Request) -> JSONResponse | None:
    """Free what may be freed; refuse when the server still holds its bound of tables."""
    server.sweep()
    if len(server.open) >= server.limits.max_tables:
        full = NMsg("this server holds {limit} open table, its bound (hakka-play --max-tables raises it): try again later",
                    "this server holds {limit} open tables, its bound (hakka-play --max-tables raises it): try again later",
                    server.limits.max_tables, limit=server.limits.max_tables)
        return _refuse(request, full, 503)
    return None


async def create(server: LobbyHost, request: Request) -> Response:
    body = await _json_body(server, request)
    if isinstance(body, Response):
        return body
    humans, options, listed = body.get("humans", 1), body.get("options") or {}, body.get("listed", False)
    clock = body.get("turn_seconds", server.turn_seconds)
    if not isinstance(humans, int) or isinstance(humans, bool) or not 1 <= humans <= 4:
        return _refuse(request, Msg("humans must be 1-4"), 400)
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        return _refuse(request, Msg("options must map decision IDs to option IDs"), 400)
    if not isinstance(listed, bool):
        return _refuse(request, Msg("listed must be true or false"), 400)
    if clock is not None and (isinstance(clock, bool) or not isinstance(clock, (int, float))
                              or not MIN_TURN_SECONDS <= clock <= MAX_TURN_SECONDS):
        return _refuse(request, Msg("turn_seconds must be null (no clock) or {low} to {high} seconds",
                                    low=MIN_TURN_SECONDS, high=MAX_TURN_SECONDS), 400)
    if "name" in body and not isinstance(body["name"], str):
        return _refuse(request, Msg("name must be a string"), 400)
    try:
        profile = Profile.from_options(options)
    except SetupError as exc:
        return JSONResponse({"error": str(exc), "rule": exc.rule, "href": server.rulebook.href(exc.rule)}, status_code=400)
    full = _room(server, request)
    if full is not None:
        return full
    address = request.client.host if request.client else ""
    mine = sum(1 for held in server.open.values() if held.address == address and not held.table.over)
    if address and mine >= server.limits.max_tables_per_address:
        return _refuse(request, NMsg("your address already has {limit} open table, the bound of this server "
                                     "(hakka-play --max-tables-per-address): finish or leave one first",
                                     "your address already has {limit} open tables, the bound of this server "
                                     "(hakka-play --max-tables-per-address): finish or leave one first",
                                     server.limits.max_tables_per_address, limit=server.limits.max_tables_per_address), 429)
    table = Table(humans=range(humans), profile=profile, listed=listed, turn_seconds=clock)
    table.seats[0].name = clean_name(body.get("name"))  # the creator's seat, kept with the table below
    server.add_table(table)
    server.open[table.id].address = address
    seat = table.take_free()
    assert seat is not None  # a new table has every person's seat free
    return JSONResponse({"table": table.id, "seat": seat, "url": _seat_url(table, seat),
                         "invites": server.invites(table), "watch": server.watch_link(table)})


def _seat_url(table: Table, seat: int) -> str:
    return f"/table/{table.id}?token={table.seats[seat].token}"


async def join(server: LobbyHost, request: Request) -> Response:
    body = await _json_body(server, request)
    if isinstance(body, Response):
        return body
    held = server.open.get(str(body.get("table", "")))
    invite = body.get("invite")
    if "name" in body and not isinstance(body["name"], str):
        return _refuse(request, Msg("name must be a string"), 400)
    if held is None:
        return _refuse(request, Msg("no such table: it may have ended and been cleared away"), 404)
    table = held.table
    if invite is not None:
        seat = table.redeem(invite)
        if seat is None:
            return _refuse(request, Msg("this invitation has been used already, or never existed: ask for a new link"), 403)
    elif not table.listed:
        return _refuse(request, Msg("this table takes people by invitation only"), 403)
    else:
        seat = table.take_free()
        if seat is None:
            return _refuse(request, Msg("every seat of this table is taken"), 409)
    if body.get("name"):
        table.name(seat, body["name"])
    held.last_active = server.clock()
    await server.tell_host(table)
    return JSONResponse({"table": table.id, "seat": seat, "url": _seat_url(table, seat)})


async def listed(server: LobbyHost, request: Request) -> Response:
    """The tables open to anyone, with their free seats (no token, no invitation)."""
    server.sweep()
    out = []
    for held in server.open.values():
        table = held.table
        free = table.free_seats()
        if table.listed and free and not table.over:
            out.append({"table": table.id, "free": free, "people": len(table.humans), "options": table.profile.changed(),
                        "hands_played": table.game.hands_played, "online": held.connected > 0,
                        "turn_seconds": table.turn_seconds, "watch": server.watch_link(table),
                        "names": [s.name for s in table.seats if s.human and s.taken and s.name]})
    return JSONResponse({"tables": out})


def lobby_routes(server: LobbyHost) -> list[Route]:
    async def tables(request: Request) -> Response:
        return await (create(server, request) if request.method == "POST" else listed(server, request))

    async def take(request: Request) -> Response:
        return await join(server, request)

    return [Route("/api/tables", tables, methods=["GET", "POST"]), Route("/api/join", take, methods=["POST"])]
