"""The table's web server: Starlette routes and one WebSocket per open seat.

Routes
  ``GET  /``                          the lobby: create a table, or take a free seat of a listed one
  ``GET  /api/tables``                the listed tables with their free seats (never a token)
  ``POST /api/tables``                create a table; answers the creator's seat link and one single-use
                                      invitation per other person (``/join/{table}?invite=…``)
  ``POST /api/join``                  redeem an invitation, or take a free seat of a listed table
  ``GET  /table/{table}?token=…``     the table page of the seat the token opens
  ``GET  /table/{table}?watch=…``     a spectator's page: the table's public view (the spectators' token)
  ``WS   /ws/{table}?token=…``        that seat's messages (below); ``?watch=…`` a spectator's
  ``GET  /game/{game}``               a finished game's page (kept for ``--keep-days``), with a shareable link
  ``GET  /api/games/{game}``          the game as JSON; ``…/trace`` downloads it as a trace the replay viewer
                                      opens (``/replay/view?id=game:{game}``); ``…/hands/{n}.yaml`` one hand
                                      as a regression scenario (:mod:`~hakka_play.kept`)
  ``GET  /replay`` ``/replay/view?id=…`` ``/api/replay?id=…``   the replay viewer
  ``GET  /rulebook/{lang}/…``         the rulebook in that language: the five-language build
                                      (docs/_build/html/{lang}/), else the English one of either build, else,
                                      if it is not built, the clauses and decisions of spec/ as plain pages;
                                      ``/rulebook/…`` without a language goes to the reader's

Every request passes :class:`~hakka_play.doors.Doors` (``Host`` and ``Origin`` on an
allow-list, loopback by default). ``POST`` requests take ``Content-Type: application/json`` only,
which a form of another site cannot send.

Messages (JSON text frames). From the browser: ``{"type": "act", "action": "play Sup3"}``,
``{"type": "next"}`` (seen the end of the hand), ``{"type": "back"}`` (the turn clock gave my seat to a
bot: I am back), ``{"type": "leave"}`` (a bot takes my seat for good; the socket is closed with 4410),
``{"type": "name", "name": …}``. Any message of a person the clock marked away hands them their seat
back, as a new connection of theirs does. A spectator's messages are all refused. To the browser:
``{"type": "hello", "seat", "links": {rule: {href, title}}, "invite": [...]}`` once, then
``{"type": "view", …}`` (:meth:`Table.view` of that seat, nothing else) after every change, and
``{"type": "error", "kind", "message", "rule", "href", "title", "statement", "detail"}`` to the socket
whose message was refused. A frame that is not a message of the table (binary, not JSON, another
shape, too long) is answered with an error and a close code (:func:`~hakka_play.doors.read_frame`).
The seat comes from the token alone; the language of the messages from the socket's handshake.

The turn clock (a table's ``turn_seconds``; ``hakka-play --turn-seconds``, on with ``--online``) starts
whenever a person must act or press Next hand, and runs out only if the table has not moved since: the
person is then *away*, and a bot of the table's kind plays their seat (their Next hand pressed for them,
each an accepted, stored move) until they come back.

Bots think off the event loop: each move in a thread of its own (:func:`_in_thread`), from a
:class:`~hakka_play.table.BotTurn` (a snapshot of what the bot may see), so that every socket
and page of every table is served meanwhile. The move applies only if the table is still where the
bot thought it was (else the bot thinks again); a bot that fails, or thinks longer than
``think_seconds``, becomes the table's ``problem``; the server waits for a thinking bot at most that
long when it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import sqlite3
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from conformance.paths import PACKAGE_DIR
from conformance.replay import corpus, index, load_replay
from conformance.rulebook import Rulebook
from reference_engine import Action, HakkaError

from . import kept
from .doors import LOOPBACK, POLICY, ASGIApp, BadFrame, Doors, Limits, read_frame
from .held import Open
from .i18n import COOKIE, DEFAULT, LANGUAGES, Msg, NMsg, language, page, rulebook_text, statement
from .lobby import lobby_routes
from .store import GameRecord, Move, Store
from .table import BotTurn, Table, TableError

STATIC = Path(__file__).resolve().parent / "static"
BUILT_RULEBOOK = PACKAGE_DIR.parent / "docs" / "_build" / "html"  # a checkout's built book, if any
FORBIDDEN = 4403  # WebSocket close code: no such table or seat
LEFT = 4410  # WebSocket close code: the person left the table (a bot has the seat; the link opens nothing)
SAVE_FAILED = 1011  # WebSocket close code: the store refused the table's change (RFC 6455: an unexpected condition)
JANITOR_SECONDS = 30.0
THINK_SECONDS = 5.0
"""The longest a bot may think over one move (the rule-aware bot takes microseconds, the IS-MCTS bot its
budget of 0.25 s): past it the table says the bot failed, and a stopping server waits no longer for it."""


class BotFailed(Exception):
    """A bot raised instead of choosing, or did not choose in time: the words say which (English)."""


def _in_thread(choose: Callable[[], Action]) -> asyncio.Future[Action]:
    """Run ``choose`` in a thread of its own; the future settles on the running loop when it returns or raises.

    A daemon thread rather than the loop's default executor, whose threads are joined at exit: a bot
    that never returns holds neither the process nor the other tables' bots.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Action] = loop.create_future()

    def settle(outcome: Action | Exception) -> None:
        if future.done():
            return
        if isinstance(outcome, Exception):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    def run() -> None:
        outcome: Action | Exception
        try:
            outcome = choose()
        except Exception as exc:  # noqa: BLE001 - any bot's failure goes back to the loop, to be shown
            outcome = exc
        with contextlib.suppress(RuntimeError):  # the loop has closed meanwhile: nobody waits any more
            loop.call_soon_threadsafe(settle, outcome)

    threading.Thread(target=run, name="hakka-bot", daemon=True).start()
    return future


def _forget(future: asyncio.Future[Action]) -> None:
    """Read a finished think's outcome, so that one whose table is gone is never logged as unretrieved."""
    if not future.cancelled():
        future.exception()


class PlayServer:
    """The tables of one running server, their open sockets and their bots."""

    def __init__(self, bot_delay: float = 0.6, rulebook: Rulebook | None = None,
                 replays: dict[str, str] | None = None, limits: Limits | None = None,
                 allowed_hosts: Iterable[str] = LOOPBACK, clock: Callable[[], float] = time.monotonic,
                 think_seconds: float = THINK_SECONDS, store: Store | None = None,
                 turn_seconds: float | None = None) -> None:
        self.open: dict[str, Open] = {}
        self.turn_seconds = turn_seconds
        """The turn clock of the tables made without one of their own (``hakka-play --turn-seconds``; None: off)."""
        self.store = store
        """Where every table and accepted move is kept (:mod:`~hakka_play.store`); ``None``: in memory only."""
        self.bot_delay = bot_delay
        self.think_seconds = think_seconds
        self.thinking: set[asyncio.Future[Action]] = set()
        """The bots' moves being thought in their threads (of every table, its own gone or not)."""
        self.rulebook = rulebook or Rulebook.default()
        self.replays = dict(replays or {})
        """Replays named on the command line: a short name → the scenario ID or file."""
        self.limits = limits or Limits()
        self.allowed_hosts = tuple(allowed_hosts)
        self.clock = clock
        self._replayed: dict[str, asyncio.Future[tuple[bytes, int]]] = {}
        """Each replay served, as its JSON (built once, by the first request for it)."""
        if store is not None:  # every table the store holds open comes back at its last accepted move
            for record in store.open_tables():
                table = self._hold(Table.restore(record))
                if table.game.over and store.game(table.game_id) is not None:  # finished before the restart
                    table.kept_link = f"/game/{table.game_id}"

    @property
    def tables(self) -> dict[str, Table]:
        return {tid: held.table for tid, held in self.open.items()}

    def add_table(self, table: Table) -> Table:
        if self.store is not None:
            self.store.add(table.record())
        return self._hold(table)

    def _hold(self, table: Table) -> Table:
        self.open[table.id] = Open(table, last_active=self.clock())
        if self.store is not None:
            table.journal = self
        return table

    # ------------------------------------------------------------ the store, told before anyone else

    def moved(self, table: Table, n: int, move: Move) -> None:
        """Keep ``table``'s accepted move (:class:`~hakka_play.table.Journal`); it returns once the move is durable."""
        assert self.store is not None
        try:
            self.store.move(table.id, n, move)
        except sqlite3.Error as exc:
            self._lost(table, exc)

    def seated(self, table: Table, seat: int) -> None:
        assert self.store is not None
        try:
            self.store.seat(table.id, table.seat_record(seat))
        except sqlite3.Error as exc:
            self._lost(table, exc)

    def finished(self, table: Table) -> None:
        """Keep ``table``'s finished game (:class:`~hakka_play.store.GameRecord`), before anyone is told it ended."""
        assert self.store is not None
        try:
            self.store.keep(table.kept(time.time()))
        except sqlite3.Error as exc:
            self._lost(table, exc)
            return
        table.kept_link = f"/game/{table.game_id}"

    def _lost(self, table: Table, exc: Exception) -> None:
        """The store refused a change: the table leaves memory untold (a restart resumes it at its last kept
        move), and its sockets are closed, so that nobody sees what was not kept."""
        held = self.open.pop(table.id, None)
        table.problem = f"the table could not be saved ({exc})"
        table.journal = None
        if held is None:
            return
        if held.bots is not None:
            held.bots.cancel()
        for sockets in held.sockets.values():
            for ws in list(sockets):
                asyncio.get_running_loop().create_task(ws.close(code=SAVE_FAILED, reason="the table could not be saved"))

    def links(self, table: Table, base: str = "") -> list[dict[str, Any]]:
        """Every person's seat link: for the command line that started the server, never for a page."""
        return [{"seat": s.index, "url": f"{base}/table/{table.id}?token={s.token}"} for s in table.seats if s.human]

    @staticmethod
    def invites(table: Table, base: str = "") -> list[dict[str, Any]]:
        """The seats not yet taken, each as its single-use invitation link (no seat token)."""
        return [{"seat": seat, "url": f"{base}/join/{table.id}?invite={code}"} for seat, code in table.invitations()]

    # ------------------------------------------------------------ freeing tables

    def sweep(self) -> list[str]:
        """Free every table nobody is connected to that is finished, or idle too long; return their IDs."""
        now = self.clock()
        freed = []
        for tid, held in list(self.open.items()):
            if held.connected:
                continue
            quiet = now - held.last_active
            if quiet >= self.limits.idle_seconds or (held.table.over and quiet >= self.limits.finished_seconds):
                freed.append(tid)
                self.free(tid)
        return freed

    def free(self, tid: str) -> None:
        held = self.open.pop(tid, None)
        if held is not None and held.bots is not None:
            held.bots.cancel()
        if held is not None and held.clock is not None:
            held.clock.cancel()
        if held is not None and self.store is not None:
            self.store.close(tid)

    def forget_old(self) -> int:
        """Delete the games kept longer than ``--keep-days`` (and the closed tables as old); how many games."""
        if self.store is None:
            return 0
        return self.store.forget(time.time() - self.limits.keep_days * 86400)

    async def _janitor(self) -> None:
        while True:
            await asyncio.sleep(JANITOR_SECONDS)
            self.sweep()
            await run_in_threadpool(self.forget_old)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        task = asyncio.get_running_loop().create_task(self._janitor())
        try:
            yield
        finally:
            # A task still pending when the loop stops would be destroyed pending (and logged as such):
            # the janitor and every table's bots are cancelled and awaited.
            tasks = [task, *(held.bots for held in self.open.values() if held.bots is not None)]
            for pending in tasks:
                pending.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if self.thinking:  # a bot still thinking in its thread: it ends within its bound
                await asyncio.wait(set(self.thinking), timeout=self.think_seconds)

    # ------------------------------------------------------------ messages

    def error(self, exc: HakkaError | Msg, lang: str, kind: str = "malformed") -> dict[str, Any]:
        """An error message in ``lang``: the table's own words translated; an engine's refusal as the
        translated name of its clause, with the clause's statement and the engine's words (English)."""
        out: dict[str, Any] = {"type": "error", "kind": kind, "message": "", "rule": None, "href": None,
                               "title": None, "statement": None, "detail": None}
        if isinstance(exc, Msg):
            out["message"] = exc.render(lang)
            return out
        out.update(kind=exc.kind, rule=exc.rule, href=self.book_href(exc.rule, lang),
                   title=rulebook_text(lang, self.rulebook.title(exc.rule)) if exc.rule else None,
                   statement=statement(self.rulebook.clauses, exc.rule, lang) if exc.rule else None)
        if isinstance(exc, TableError):
            out["message"] = exc.msg.render(lang)
        else:
            template = Msg("Refused by rule {rule}.", rule=exc.rule) if exc.rule else Msg("Refused.")
            out["message"] = template.render(lang)
            out["detail"] = exc.message  # the engine's own words: English
        return out

    def book_href(self, rule: str | None, lang: str) -> str | None:
        """A clause's or decision's address in the rulebook of ``lang`` (:meth:`rulebook_page` serves it)."""
        anchor = self.rulebook.anchor(rule)
        return None if anchor is None else f"{self.rulebook.base}{lang}/{anchor}"

    def _view_text(self, held: Open, seat: int | None, lang: str, cache: dict[tuple[int | None, str], str]) -> str:
        key = (seat, lang)
        if key not in cache:
            view = held.table.view(seat, self.clock())
            problem = view.get("problem")
            view["problem"] = problem.render(lang) if isinstance(problem, Msg) else problem
            cache[key] = json.dumps(view)
        return cache[key]

    async def broadcast(self, table: Table) -> None:
        """Each socket of the table gets its seat's view once (one view built per seat and language)."""
        held = self.open.get(table.id)
        if held is None:
            return
        self._arm_clock(held)
        cache: dict[tuple[int | None, str], str] = {}
        for seat, sockets in held.sockets.items():
            for ws, lang in list(sockets.items()):
                await self._send(held, seat, ws, self._view_text(held, seat, lang, cache))
        for ws, lang in list(held.watchers.items()):
            await self._send(held, None, ws, self._view_text(held, None, lang, cache))

    # ------------------------------------------------------------ the turn clock

    def _arm_clock(self, held: Open) -> None:
        """Start the turn clock for whoever must act now, unless it already runs for this very position."""
        table = held.table
        if held.clock_at == table.version and (held.clock is not None or not table.clock_seats()):
            return
        if held.clock is not None:
            held.clock.cancel()
        held.clock, held.clock_at, table.deadline = None, table.version, None
        seats = table.clock_seats()
        if seats and table.turn_seconds:
            held.clock = asyncio.get_running_loop().call_later(table.turn_seconds, self._clock_ran_out, held,
                                                                table.version)
            table.deadline = self.clock() + table.turn_seconds

    def _clock_ran_out(self, held: Open, version: int) -> None:
        """Nobody moved since the clock started: a bot plays for each person it ran for, until they come back."""
        table = held.table
        held.clock = None
        if table.version != version or self.open.get(table.id) is not held:
            return
        for seat in table.clock_seats():
            table.away(seat)
        table.next_for_away()
        asyncio.get_running_loop().create_task(self._changed(held))

    async def _changed(self, held: Open) -> None:
        """After a change to the table: everyone is told, the bots are woken."""
        await self.broadcast(held.table)
        self.wake_bots(held.table)

    async def _send(self, held: Open, seat: int | None, ws: WebSocket, text: str) -> None:
        try:
            await ws.send_text(text)
        except Exception:  # noqa: BLE001 - a socket closing under us: forget it
            (held.watchers if seat is None else held.sockets[seat]).pop(ws, None)

    async def tell_host(self, table: Table) -> None:
        """The creator's page lists the invitations still open: a seat just taken leaves the list."""
        held = self.open.get(table.id)
        if held is None or table.host is None:
            return
        text = json.dumps({"type": "invite", "invite": self.invites(table)})
        for ws in list(held.sockets[table.host]):
            await self._send(held, table.host, ws, text)

    def wake_bots(self, table: Table) -> None:
        held = self.open.get(table.id)
        if held is not None and (held.bots is None or held.bots.done()):
            held.bots = asyncio.get_running_loop().create_task(self._run_bots(held))

    async def _run_bots(self, held: Open) -> None:
        table = held.table
        while table.bot_to_act() is not None:
            await asyncio.sleep(self.bot_delay)
            turn = table.bot_turn()
            if turn is None:
                continue
            try:
                if not table.apply_bot(turn, await self._think(turn)):
                    continue  # the table moved while the bot thought: its move is stale, it thinks again
            except BotFailed as exc:  # a bot that fails or takes too long: say so at the table, never hang
                table.problem = Msg("the bot at seat {seat} could not choose an action: {error}",
                                    seat=turn.seat, error=str(exc))
            except HakkaError as exc:  # a bot's choice the engine refuses: the same
                table.problem = Msg("the bot at seat {seat} chose an action the engine refuses: {error}",
                                    seat=turn.seat, error=str(exc))
            table.next_for_away()
            held.last_active = self.clock()
            await self.broadcast(table)

    async def _think(self, turn: BotTurn) -> Action:
        """The move of ``turn``'s bot, thought in a thread while the loop serves everyone else."""
        thinking = _in_thread(turn.choose)
        self.thinking.add(thinking)
        thinking.add_done_callback(self.thinking.discard)
        thinking.add_done_callback(_forget)
        try:  # shielded: a cancelled table (freed, or the server stopping) leaves the thread to finish alone
            return await asyncio.wait_for(asyncio.shield(thinking), self.think_seconds)
        except Exception as exc:
            if not thinking.done():
                raise BotFailed(f"no action within {self.think_seconds:g} s") from None
            raise BotFailed(f"{type(exc).__name__}: {exc}") from exc

    def handle(self, table: Table, seat: int, message: dict[str, Any], lang: str) -> dict[str, Any] | None:
        """One message of ``seat``: ``None`` when it changed the table, else the error to send back."""
        if "seat" in message and message["seat"] != seat:
            return self.error(TableError(Msg(
                "this connection holds seat {seat}'s token: it cannot act for seat {other}",
                seat=seat, other=repr(message["seat"])), rule="GAME-5", seat=seat), lang)
        kind = message["type"]
        back = table.back(seat)  # any message of an away person brings them back: the seat is theirs again
        try:
            if kind == "act":
                table.act(seat, message["action"])
            elif kind == "next":
                table.next_hand(seat)
            elif kind == "leave":
                table.leave(seat)
            elif kind == "name":
                table.name(seat, message["name"])
            elif not back:  # "back" from a person who is not away
                return self.error(TableError(Msg("seat {seat} is not away: nobody plays for it", seat=seat), seat=seat),
                                  lang)
        except HakkaError as exc:
            return self.error(exc, lang)
        table.next_for_away()
        return None

    # ------------------------------------------------------------ the socket of a seat

    async def socket(self, ws: WebSocket) -> None:
        lang = language(ws)
        held = self.open.get(ws.path_params["table"])
        if held is not None and "watch" in ws.query_params and held.table.watching(ws.query_params["watch"]):
            await self._spectator(held, ws, lang)
            return
        seat = None if held is None else held.table.seat_of(ws.query_params.get("token"))
        await ws.accept()
        if held is None or seat is None:
            await ws.send_text(json.dumps(self.error(Msg("no such table or seat token"), lang, kind="forbidden")))
            await ws.close(code=FORBIDDEN)
            return
        table, sockets = held.table, held.sockets[seat]
        if len(sockets) >= self.limits.max_sockets_per_seat:
            bound = NMsg("seat {seat} already has {limit} connection open, the bound (hakka-play --max-sockets-per-seat): close a tab",
                         "seat {seat} already has {limit} connections open, the bound (hakka-play --max-sockets-per-seat): close a tab",
                         self.limits.max_sockets_per_seat, seat=seat, limit=self.limits.max_sockets_per_seat)
            await ws.send_text(json.dumps(self.error(bound, lang, kind="refused")))
            await ws.close(code=POLICY, reason="too many connections to this seat")
            return
        sockets[ws] = lang
        table.occupy(seat)
        table.seats[seat].connections = len(sockets)
        held.last_active = self.clock()
        came_back = table.back(seat)  # a person the clock gave away comes back: the seat is theirs again
        try:
            invite = self.invites(table) if seat == table.host else []
            await ws.send_text(json.dumps({"type": "hello", "seat": seat, "links": self._links(lang), "invite": invite,
                                           "watch": self.watch_link(table) if seat == table.host else None,
                                           "lang": lang}))
            if len(sockets) == 1 or came_back:  # the seat comes online: every socket's view shows it
                await self.broadcast(table)
            else:  # another tab of a seat already online: only this socket needs the view
                await self._send(held, seat, ws, self._view_text(held, seat, lang, {}))
            self.wake_bots(table)
            await self._serve(held, seat, ws, lang)
        finally:
            sockets.pop(ws, None)
            if not table.seats[seat].human:  # the person left: none of their tabs holds the seat any more
                for other in list(sockets):
                    sockets.pop(other, None)
                    with contextlib.suppress(Exception):
                        await other.close(code=LEFT, reason="left the table")
            table.seats[seat].connections = len(sockets)
            held.last_active = self.clock()
            if not sockets and table.id in self.open:  # the seat goes offline
                try:
                    await self.broadcast(table)
                except Exception:  # noqa: BLE001 - the server may be shutting down
                    pass

    async def _serve(self, held: Open, seat: int, ws: WebSocket, lang: str) -> None:
        table = held.table
        window: list[float] = []  # when this socket's messages of the last second came
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            now = time.monotonic()
            window = [t for t in window if now - t < 1.0]
            if len(window) >= self.limits.messages_per_second:  # refused unread
                flood = NMsg("more than {limit} message in a second, the bound of this server "
                             "(hakka-play --messages-per-second): this one was not read",
                             "more than {limit} messages in a second, the bound of this server "
                             "(hakka-play --messages-per-second): this one was not read",
                             self.limits.messages_per_second, limit=self.limits.messages_per_second)
                await ws.send_text(json.dumps(self.error(flood, lang, kind="refused")))
                continue
            window.append(now)
            message = read_frame(frame, self.limits.max_message)
            if isinstance(message, BadFrame):
                await ws.send_text(json.dumps(self.error(message.msg, lang)))
                await ws.close(code=message.code, reason=f"close code {message.code}")
                return
            version = table.version
            answer = self.handle(table, seat, message, lang)
            held.last_active = self.clock()
            if answer is not None:
                await ws.send_text(json.dumps(answer))
                if table.version == version:  # refused, nothing changed
                    continue
            await self.broadcast(table)
            self.wake_bots(table)
            if not table.seats[seat].human:  # the person left: a bot has the seat, this socket no longer does
                await ws.send_text(json.dumps({"type": "left", "message": Msg(
                    "You left the table: a bot plays your seat from now on.").render(lang)}))
                await ws.close(code=LEFT, reason="left the table")
                return

    async def _spectator(self, held: Open, ws: WebSocket, lang: str) -> None:
        """A spectator's socket: the public view after every change; whatever it sends is refused."""
        await ws.accept()
        if len(held.watchers) >= self.limits.max_watchers:
            bound = Msg("this table already has {limit} spectators, its bound: try again later",
                        limit=self.limits.max_watchers)
            await ws.send_text(json.dumps(self.error(bound, lang, kind="refused")))
            await ws.close(code=POLICY, reason="too many spectators")
            return
        held.watchers[ws] = lang
        try:
            await ws.send_text(json.dumps({"type": "hello", "seat": None, "links": self._links(lang), "invite": [],
                                           "watch": None, "lang": lang}))
            await self._send(held, None, ws, self._view_text(held, None, lang, {}))
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                await ws.send_text(json.dumps(self.error(Msg("a spectator watches: it cannot act at the table"),
                                                         lang, kind="refused")))
        finally:
            held.watchers.pop(ws, None)

    def _links(self, lang: str) -> dict[str, Any]:
        """Every rule badge's link for a hello: the clause's page in the rulebook of ``lang``, its title translated."""
        return {rule: {"href": self.book_href(rule, lang), "title": rulebook_text(lang, link["title"])}
                for rule, link in self.rulebook.links().items()}

    @staticmethod
    def watch_link(table: Table, base: str = "") -> str:
        """The table's spectator link: its public view, no seat."""
        return f"{base}/table/{table.id}?watch={table.watch}"

    # ------------------------------------------------------------ pages

    def html_page(self, name: str, conn: HTTPConnection, status_code: int = 200) -> Response:
        lang = language(conn)
        response = HTMLResponse(page(STATIC / name, lang), status_code=status_code)
        if conn.query_params.get("lang") in LANGUAGES:  # the switcher's choice, kept for the session
            response.set_cookie(COOKIE, lang, samesite="lax")
        return response

    async def lobby(self, request: Request) -> Response:
        return self.html_page("lobby.html", request)

    async def spec(self, request: Request) -> Response:
        return JSONResponse({"decisions": self.rulebook.configurable(), "links": self.rulebook.links()})

    async def table_page(self, request: Request) -> Response:
        held = self.open.get(request.path_params["table"])
        if held is None or (held.table.seat_of(request.query_params.get("token")) is None
                            and not held.table.watching(request.query_params.get("watch"))):
            return self.html_page("noseat.html", request, status_code=404)
        return self.html_page("table.html", request)

    # ------------------------------------------------------------ kept games

    async def _kept(self, request: Request) -> GameRecord | Response:
        game_id = request.path_params["game"]
        found = None if self.store is None else await run_in_threadpool(self.store.game, game_id)
        if found is None:
            return JSONResponse({"error": Msg("no kept game {id}: it may be older than this server keeps games",
                                              id=repr(game_id)).render(language(request))}, status_code=404)
        return found

    async def game_page(self, request: Request) -> Response:
        found = await self._kept(request)
        if isinstance(found, Response):
            return self.html_page("noseat.html", request, status_code=404)
        return self.html_page("game.html", request)

    async def game_data(self, request: Request) -> Response:
        found = await self._kept(request)
        if isinstance(found, Response):
            return found
        return JSONResponse({**found.json(), "replay": f"/replay/view?id=game:{found.id}",
                             "trace": f"/api/games/{found.id}/trace",
                             "scenarios": [f"/api/games/{found.id}/hands/{n}.yaml" for n in range(1, len(found.hands) + 1)]})

    async def game_trace(self, request: Request) -> Response:
        found = await self._kept(request)
        if isinstance(found, Response):
            return found
        return Response(_json(kept.trace(found)), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="hakka-game-{found.id}.trace.json"'})

    async def game_scenario(self, request: Request) -> Response:
        found = await self._kept(request)
        if isinstance(found, Response):
            return found
        text = request.path_params["hand"]
        number = int(text) if text.isdigit() else 0
        if not 1 <= number <= len(found.hands):
            return JSONResponse({"error": Msg("game {id} has hands 1 to {count}", id=found.id,
                                              count=len(found.hands)).render(language(request))}, status_code=404)
        return Response(kept.scenario(found, number), media_type="application/yaml",
                        headers={"Content-Disposition": f'attachment; filename="{kept.scenario_id(found, number)}.yaml"'})

    async def replay_index(self, request: Request) -> Response:
        return self.html_page("replay.html", request)

    async def replay_list(self, request: Request) -> Response:
        named = [{"id": name, "title": ref, "kind": "named", "file": ref, "clauses": [], "generated": False}
                 for name, ref in self.replays.items()]
        return JSONResponse({"scenarios": named + await run_in_threadpool(index)})  # the corpus loads off the loop

    async def replay_data(self, request: Request) -> Response:
        """A replay, built once per scenario or trace in a worker thread (the corpus loads in 7-10 s, a long trace
        in seconds), then served from memory: the set is bounded, only the corpus and the command line's."""
        ref = request.query_params.get("id", "")
        if ref.startswith("game:"):
            return await self._game_replay(request, ref.removeprefix("game:"))
        ref = self.replays.get(ref, ref)
        if ref not in self.replays.values() and not await run_in_threadpool(_is_corpus_id, ref):
            return JSONResponse({"error": Msg("no scenario {id}", id=repr(ref)).render(language(request))},
                                status_code=404)
        if ref not in self._replayed:
            self._replayed[ref] = asyncio.ensure_future(run_in_threadpool(self._build_replay, ref))
        body, status = await asyncio.shield(self._replayed[ref])
        return Response(body, status_code=status, media_type="application/json")

    async def _game_replay(self, request: Request, game_id: str) -> Response:
        """A kept game in the replay viewer: its trace replayed on the reference (in a thread; not cached, since
        kept games are unbounded in number)."""
        request.path_params["game"] = game_id
        found = await self._kept(request)
        if isinstance(found, Response):
            return found
        body, status = await run_in_threadpool(self._build_game_replay, found)
        return Response(body, status_code=status, media_type="application/json")

    def _build_game_replay(self, game: GameRecord) -> tuple[bytes, int]:
        with tempfile.TemporaryDirectory(prefix="hakka-game-") as folder:
            path = Path(folder) / f"hakka-game-{game.id}.trace.json"
            path.write_bytes(_json(kept.trace(game)))
            body, status = self._build_replay(str(path))
        return body, status

    def _build_replay(self, ref: str) -> tuple[bytes, int]:
        try:
            return _json(load_replay(ref, self.rulebook)), 200
        except Exception as exc:  # noqa: BLE001 - a ReplayError or a scenario's InputError: shown, never a traceback
            return _json({"error": str(exc)}), 404

    async def rulebook_page(self, request: Request) -> Response:
        """A page of the rulebook in the language its address names: the five-language build's
        (``python -m docs.build_all``: docs/_build/html/<lang>/), else the English build of either command,
        else the clauses of spec/. An address without a language is sent to the reader's language."""
        path = request.path_params["path"] or "index.html"
        lang, _sep, rest = path.partition("/")
        if lang not in LANGUAGES:
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(f"{self.rulebook.base}{language(request)}/{path}{query}")
        rest = rest or "index.html"
        for folder in (BUILT_RULEBOOK / lang, BUILT_RULEBOOK / DEFAULT, BUILT_RULEBOOK):
            built = (folder / rest).resolve()
            if folder.is_dir() and built.is_file() and folder.resolve() in built.parents:
                return FileResponse(built)
        return HTMLResponse(self._plain_rulebook(rest, lang))

    def _plain_rulebook(self, path: str, lang: str) -> str:
        """The clauses (or decisions) of one page, from spec/, when the rulebook is not built: each title and
        statement as the rulebook's catalog of ``lang`` words it, else in English (so marked)."""
        book = self.rulebook
        if path == "decisions.html":
            items = list(book.decisions.values())
        else:
            area = path.removeprefix("rules/").removesuffix(".html").upper()
            items = [c for c in book.clauses.values() if c["id"].split("-")[0] == area] or list(book.clauses.values())

        def section(item: dict[str, Any]) -> str:
            text = str(item.get("statement") or item.get("question") or "")
            said = statement({item["id"]: {"statement": text}}, item["id"], lang) or {"text": text, "lang": DEFAULT}
            title = rulebook_text(lang, str(item.get("title", "")))
            return (f'<section id="{html.escape(item["id"].lower())}"><h2><bdi dir="ltr">{html.escape(item["id"])}</bdi> '
                    f'<span dir="auto">{html.escape(title)}</span></h2>'
                    f'<p lang="{said["lang"]}" dir="auto">{html.escape(said["text"])}</p></section>')

        note = Msg("The rulebook is not built here ({command}); these are the clauses of spec/.",
                   command="python -m docs.build_all").render(lang)
        return (f'<!doctype html><html lang="{lang}" dir="{LANGUAGES[lang].dir}"><meta charset="utf-8">'
                f'<title>Hakka Cards</title><style>body{{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto}}'
                f'section:target{{background:#fff6d5}}</style><p><em>{html.escape(note)}</em></p>'
                + "".join(section(i) for i in items) + "</html>")

    def app(self) -> ASGIApp:
        routes = [
            Route("/", self.lobby),
            Route("/join/{table}", self.lobby),
            *lobby_routes(self),
            Route("/api/spec", self.spec),
            Route("/table/{table}", self.table_page),
            Route("/game/{game}", self.game_page),
            Route("/api/games/{game}", self.game_data),
            Route("/api/games/{game}/trace", self.game_trace),
            Route("/api/games/{game}/hands/{hand}.yaml", self.game_scenario),
            WebSocketRoute("/ws/{table}", self.socket),
            Route("/replay", self.replay_index),
            Route("/replay/view", self.replay_index),
            Route("/api/replays", self.replay_list),
            Route("/api/replay", self.replay_data),
            Route("/rulebook/{path:path}", self.rulebook_page),
            Route("/rulebook", lambda r: RedirectResponse("/rulebook/index.html")),  # then to the reader's language
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
        return Doors(Starlette(routes=routes, lifespan=self._lifespan), self.allowed_hosts)


def _json(content: Any) -> bytes:
    """The bytes Starlette's JSONResponse would send."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


def _is_corpus_id(ref: str) -> bool:
    """Only IDs of the corpus are served by ID (no path from a browser is ever opened)."""
    return any(s.id == ref for s in corpus())
