"""The table's web server: Starlette routes and one WebSocket per open seat.

Routes
  ``GET  /``                          the lobby: create a table (people, decision options)
  ``POST /api/tables``                create a table; answers the seat links of the people
  ``GET  /table/{table}?token=…``     the table page of the seat the token opens
  ``WS   /ws/{table}?token=…``        that seat's messages (below)
  ``GET  /replay`` ``/replay/view?id=…`` ``/api/replay?id=…``   the replay viewer
  ``GET  /rulebook/…``                the built rulebook (docs/_build/html) or, if it is
                                      not built, the clauses and decisions of spec/ as plain pages

Messages (JSON). From the browser: ``{"type": "act", "action": "play Sup3"}``,
``{"type": "next"}`` (seen the end of the hand). To the browser:
``{"type": "hello", "links": {rule: {href, title}}}`` once, then
``{"type": "view", …}`` (:meth:`Table.view` of that seat, nothing else) after
every change, and ``{"type": "error", "kind", "message", "rule", "href"}`` to
the seat whose message was refused. The seat comes from the token alone.
"""

from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from reference_engine import HakkaError, Profile, SetupError

from ..paths import PACKAGE_DIR
from .replay import corpus, index, load_replay
from .rules import Rulebook
from .table import Table, TableError

STATIC = Path(__file__).resolve().parent / "static"
BUILT_RULEBOOK = PACKAGE_DIR.parent / "docs" / "_build" / "html"  # a checkout's built book, if any
MAX_MESSAGE = 4096
FORBIDDEN = 4403  # WebSocket close code: no such table or seat


class PlayServer:
    """The tables of one running server, their open sockets and their bots."""

    def __init__(self, bot_delay: float = 0.6, rulebook: Rulebook | None = None,
                 replays: dict[str, str] | None = None) -> None:
        self.tables: dict[str, Table] = {}
        self.sockets: dict[str, dict[int, set[WebSocket]]] = {}
        self.bot_delay = bot_delay
        self.rulebook = rulebook or Rulebook.default()
        self.replays = dict(replays or {})
        """Replays named on the command line: a short name → the scenario ID or file."""
        self._bots: dict[str, asyncio.Task[None]] = {}

    def add_table(self, table: Table) -> Table:
        self.tables[table.id] = table
        self.sockets[table.id] = {i: set() for i in range(4)}
        return table

    def links(self, table: Table, base: str = "") -> list[dict[str, Any]]:
        return [{"seat": s.index, "url": f"{base}/table/{table.id}?token={s.token}"} for s in table.seats if s.human]

    # ------------------------------------------------------------ messages

    def error(self, exc: HakkaError | str, kind: str = "malformed") -> dict[str, Any]:
        if isinstance(exc, HakkaError):
            return {"type": "error", "kind": exc.kind, "message": exc.message, "rule": exc.rule,
                    "href": self.rulebook.href(exc.rule), "title": self.rulebook.title(exc.rule) if exc.rule else None}
        return {"type": "error", "kind": kind, "message": exc, "rule": None, "href": None, "title": None}

    async def broadcast(self, table: Table) -> None:
        for seat, sockets in self.sockets[table.id].items():
            if not sockets:
                continue
            text = json.dumps(table.view(seat))
            for ws in list(sockets):
                try:
                    await ws.send_text(text)
                except Exception:  # noqa: BLE001 - a socket closing under us: forget it
                    sockets.discard(ws)

    def wake_bots(self, table: Table) -> None:
        task = self._bots.get(table.id)
        if task is None or task.done():
            self._bots[table.id] = asyncio.get_running_loop().create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        while True:
            seat = table.bot_to_act()
            if seat is None:
                return
            await asyncio.sleep(self.bot_delay)
            if table.bot_to_act() != seat:
                continue
            try:
                table.act(seat, table.bot_action(seat))
            except HakkaError as exc:  # a bot's choice the engine refuses: say so at the table, never hang
                table.problem = f"the bot at seat {seat} chose an action the engine refuses: {exc}"
            await self.broadcast(table)

    async def handle(self, table: Table, seat: int, text: str) -> dict[str, Any] | None:
        """One message of ``seat``: ``None`` when it changed the table, else the error to send back."""
        if len(text) > MAX_MESSAGE:
            return self.error(f"a message is at most {MAX_MESSAGE} characters")
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            return self.error('a message must be JSON, such as {"type": "act", "action": "pass"}')
        if not isinstance(message, dict):
            return self.error("a message must be a JSON object")
        if "seat" in message and message["seat"] != seat:
            return self.error(TableError(
                f"this connection holds seat {seat}'s token: it cannot act for seat {message['seat']!r}",
                rule="GAME-5", seat=seat))
        kind = message.get("type")
        try:
            if kind == "act":
                action = message.get("action")
                if not isinstance(action, str):
                    return self.error('an act message needs "action", a string such as "play Sup3"')
                table.act(seat, action)
            elif kind == "next":
                table.next_hand(seat)
            else:
                return self.error(f"unknown message type {kind!r}: the types are act and next")
        except HakkaError as exc:
            return self.error(exc)
        return None

    # ------------------------------------------------------------ routes

    async def lobby(self, request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def spec(self, request: Request) -> Response:
        return JSONResponse({"decisions": self.rulebook.configurable(), "links": self.rulebook.links()})

    async def create(self, request: Request) -> Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "the request must be JSON"}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "the request must be a JSON object"}, status_code=400)
        humans = body.get("humans", 1)
        options = body.get("options") or {}
        if not isinstance(humans, int) or isinstance(humans, bool) or not 1 <= humans <= 4:
            return JSONResponse({"error": "humans must be 1-4"}, status_code=400)
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            return JSONResponse({"error": "options must map decision IDs to option IDs"}, status_code=400)
        try:
            profile = Profile.from_options(options)
        except SetupError as exc:
            return JSONResponse({"error": str(exc), "rule": exc.rule, "href": self.rulebook.href(exc.rule)},
                                status_code=400)
        table = self.add_table(Table(humans=range(humans), profile=profile))
        return JSONResponse({"table": table.id, "links": self.links(table)})

    async def table_page(self, request: Request) -> Response:
        table = self.tables.get(request.path_params["table"])
        if table is None or table.seat_of(request.query_params.get("token")) is None:
            return HTMLResponse("<h1>No such seat</h1><p>This link opens no seat of a table on this server. "
                                '<a href="/">Start a table</a>.</p>', status_code=404)
        return FileResponse(STATIC / "table.html")

    async def socket(self, ws: WebSocket) -> None:
        table = self.tables.get(ws.path_params["table"])
        seat = None if table is None else table.seat_of(ws.query_params.get("token"))
        await ws.accept()
        if table is None or seat is None:
            await ws.send_text(json.dumps(self.error("no such table or seat token", kind="forbidden")))
            await ws.close(code=FORBIDDEN)
            return
        sockets = self.sockets[table.id][seat]
        sockets.add(ws)
        table.seats[seat].connections += 1
        try:
            invite = self.links(table) if seat == min(table.humans, default=0) else []
            await ws.send_text(json.dumps({"type": "hello", "seat": seat, "links": self.rulebook.links(),
                                           "invite": invite}))
            await self.broadcast(table)
            self.wake_bots(table)
            while True:
                text = await ws.receive_text()
                answer = await self.handle(table, seat, text)
                if answer is not None:
                    await ws.send_text(json.dumps(answer))
                    continue
                await self.broadcast(table)
                self.wake_bots(table)
        except WebSocketDisconnect:
            pass
        finally:
            sockets.discard(ws)
            table.seats[seat].connections -= 1
            try:
                await self.broadcast(table)
            except Exception:  # noqa: BLE001 - the server may be shutting down
                pass

    async def replay_index(self, request: Request) -> Response:
        return FileResponse(STATIC / "replay.html")

    async def replay_list(self, request: Request) -> Response:
        named = [{"id": name, "title": ref, "kind": "named", "file": ref, "clauses": [], "generated": False}
                 for name, ref in self.replays.items()]
        return JSONResponse({"scenarios": named + index()})

    async def replay_data(self, request: Request) -> Response:
        ref = request.query_params.get("id", "")
        ref = self.replays.get(ref, ref)
        if ref not in self.replays.values() and not _is_corpus_id(ref):
            return JSONResponse({"error": f"no scenario {ref!r}"}, status_code=404)
        try:
            return JSONResponse(load_replay(ref, self.rulebook))
        except Exception as exc:  # noqa: BLE001 - a ReplayError or a scenario's InputError: shown, never a traceback
            return JSONResponse({"error": str(exc)}, status_code=404)

    async def rulebook_page(self, request: Request) -> Response:
        path = request.path_params["path"] or "index.html"
        built = (BUILT_RULEBOOK / path).resolve()
        if BUILT_RULEBOOK.is_dir() and built.is_file() and BUILT_RULEBOOK.resolve() in built.parents:
            return FileResponse(built)
        return HTMLResponse(self._plain_rulebook(path))

    def _plain_rulebook(self, path: str) -> str:
        """The clauses (or decisions) of one page, from spec/, when the rulebook is not built."""
        book = self.rulebook
        if path == "decisions.html":
            items = list(book.decisions.values())
        else:
            area = path.removeprefix("rules/").removesuffix(".html").upper()
            items = [c for c in book.clauses.values() if c["id"].split("-")[0] == area] or list(book.clauses.values())
        body = "".join(
            f'<section id="{html.escape(i["id"].lower())}"><h2>{html.escape(i["id"])} {html.escape(str(i.get("title", "")))}</h2>'
            f'<p>{html.escape(str(i.get("statement") or i.get("question") or ""))}</p></section>' for i in items)
        return ('<!doctype html><meta charset="utf-8"><title>Hakka Cards rules</title>'
                '<style>body{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto}'
                'section:target{background:#fff6d5}</style>'
                "<p><em>The rulebook is not built here (<code>sphinx-build docs docs/_build/html</code>); "
                "these are the clauses of spec/.</em></p>" + body)

    def app(self) -> Starlette:
        routes = [
            Route("/", self.lobby),
            Route("/api/spec", self.spec),
            Route("/api/tables", self.create, methods=["POST"]),
            Route("/table/{table}", self.table_page),
            WebSocketRoute("/ws/{table}", self.socket),
            Route("/replay", self.replay_index),
            Route("/replay/view", self.replay_index),
            Route("/api/replays", self.replay_list),
            Route("/api/replay", self.replay_data),
            Route("/rulebook/{path:path}", self.rulebook_page),
            Route("/rulebook", lambda r: RedirectResponse("/rulebook/index.html")),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
        return Starlette(routes=routes)


def _is_corpus_id(ref: str) -> bool:
    """Only IDs of the corpus are served by ID (no path from a browser is ever opened)."""
    return any(s.id == ref for s in corpus())
