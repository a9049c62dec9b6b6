"""The table server's doors: who may knock, what a frame may be, how much one visitor may hold open.

* :class:`Doors` is an ASGI middleware in front of every route. It checks the ``Host`` header of
  every HTTP request and WebSocket handshake against an allow-list (loopback by default), so that a
  page of another site that rebinds its DNS name to 127.0.0.1 reaches nothing; and the ``Origin``
  header, when a browser sends one, so that a page of another site holding a seat link can neither
  open that seat's socket nor create tables. A refused handshake is an HTTP 403.
* :class:`Limits` holds the bounds: open tables, sockets per seat, how long an idle or finished
  table is kept, the size of a frame and of a request body. Each refusal names its bound and the
  option of ``hakka-play`` that raises it.
* :func:`read_frame` turns one WebSocket frame into a message, or into the close code that fits it
  (RFC 6455 §7.4.1): 1003 for a binary frame, 1007 for text that is not JSON, 1008 for JSON that is
  not a message of the table, 1009 for a frame above the bound.

Starlette's TrustedHostMiddleware checks ``Host`` only, splits ``[::1]:8765`` at the first colon
and knows nothing of ``Origin``; these few lines do both for HTTP and WebSocket alike.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .i18n import COOKIE, LANGUAGES, Msg, NMsg, negotiate

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""The hosts a table answers by default: this machine only (``hakka-play --allow-host`` adds more)."""

UNSUPPORTED = 1003  # a binary frame: the table speaks JSON text
INVALID = 1007  # a text frame that is not JSON
POLICY = 1008  # JSON that is not a message of the table, or a seat with too many sockets
TOO_BIG = 1009  # a frame above Limits.max_message
MAX_HEADER_BYTES = 16 * 1024
"""The most a request's headers may hold together (names and values); above it: HTTP 431, nothing read."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Limits:
    """How much the server holds for its visitors; every bound has a ``hakka-play`` option."""

    max_tables: int = 200
    """Tables open at once (``--max-tables``); a table that would pass it is refused (503)."""
    max_tables_per_address: int = 4
    """Open tables one client address may have created (``--max-tables-per-address``); the next is refused (429)."""
    messages_per_second: int = 100
    """Messages one socket may send in a second (``--messages-per-second``); the rest are refused, unread.
    A person sends a few; a page or script that sends more than this is flooding."""
    max_sockets_per_seat: int = 8
    """Sockets (tabs) open on one seat (``--max-sockets-per-seat``); the next one is closed with 1008."""
    idle_seconds: float = 30 * 60
    """A table nobody is connected to and nobody acted at for this long is freed (``--idle-minutes``)."""
    finished_seconds: float = 5 * 60
    """A finished game nobody is connected to is freed after this long."""
    max_message: int = 4096
    """Characters in one WebSocket frame (1009 above it)."""
    max_body: int = 16 * 1024
    """Bytes in the body of a request that creates or joins a table (413 above it)."""
    max_watchers: int = 32
    """Spectators' sockets open on one table; the next one is closed with 1008."""
    keep_days: float = 30.0
    """A finished game is kept this many days (``--keep-days``), then deleted with its closed table."""


def host_name(value: str) -> str:
    """The host of a ``Host`` header or of an origin's netloc, lower-case, without port or brackets.

    >>> host_name("[::1]:8765"), host_name("LocalHost:80"), host_name("127.0.0.1")
    ('::1', 'localhost', '127.0.0.1')
    """
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") > 1:  # a bare IPv6 address
        return value
    return value.partition(":")[0]


class Doors:
    """Refuse any request whose ``Host`` (or, when present, ``Origin``) is not on the allow-list."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = LOOPBACK) -> None:
        self.app = app
        self.allowed = frozenset(host_name(h) for h in allowed_hosts)

    def refusal(self, headers: dict[str, str]) -> Msg | None:
        """Why this request may not come in, or ``None``."""
        host = host_name(headers.get("host", ""))
        if host not in self.allowed:
            return Msg("Host {host} is not one this table answers to ({allowed}; hakka-play --allow-host NAME adds one)",
                       host=repr(headers.get("host", "")), allowed=", ".join(sorted(self.allowed)))
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or host_name(parts.netloc) not in self.allowed:
                return Msg("a page of {origin} may not use this table, only its own pages may (hakka-play --allow-host NAME)",
                           origin=repr(origin))
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        raw = scope.get("headers", [])
        if sum(len(k) + len(v) for k, v in raw) > MAX_HEADER_BYTES:  # nothing of it is read
            await _refuse(scope, send, 431, NMsg("the request's headers are larger than {limit} byte",
                                                 "the request's headers are larger than {limit} bytes",
                                                 MAX_HEADER_BYTES, limit=MAX_HEADER_BYTES).render(negotiate()), "headers too large")
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in raw}
        # The table's own cookie, read in linear time: neither a refusal nor Starlette ever parses the header
        # with http.cookies, which is quadratic in backslashes (CVE-2024-7592); other sites' cookies are dropped.
        lang = own_cookie(headers.get("cookie", ""))
        why = self.refusal(headers)
        if why is None:
            kept = [(k, v) for k, v in raw if k.lower() != b"cookie"]
            if lang is not None:
                kept.append((b"cookie", f"{COOKIE}={lang}".encode()))
            await self.app({**scope, "headers": kept}, receive, send)
            return
        await _refuse(scope, send, 403, why.render(negotiate(None, lang, headers.get("accept-language"))),
                      "origin or host refused")


def own_cookie(header: str) -> str | None:
    """The value of the table's language cookie in a ``Cookie`` header, if it names a language (linear time).

    >>> own_cookie('a="x\\\\"; hakka_lang=ar; b=1'), own_cookie("hakka_lang=<script>"), own_cookie("")
    ('ar', None, None)
    """
    for part in header.split(";"):
        name, _eq, value = part.strip().partition("=")
        if name == COOKIE and value.strip().lower() in LANGUAGES:
            return value.strip().lower()
    return None


async def _refuse(scope: Scope, send: Send, status: int, text: str, reason: str) -> None:
    if scope["type"] == "websocket":  # closing before accepting: the handshake is answered HTTP 403
        await send({"type": "websocket.close", "code": POLICY, "reason": reason})
        return
    body = json.dumps({"error": text}, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


MESSAGE_TYPES = ("act", "next", "back", "leave", "name")
"""What a seat may send: an action, Next hand, I am back (the clock gave my seat to a bot), I leave the
table (a bot takes my seat for good), my display name."""


@dataclass(frozen=True)
class BadFrame:
    """A frame the table closes the socket for: the close code and what to tell the person."""

    code: int
    msg: Msg


def read_frame(frame: Message, max_message: int) -> dict[str, Any] | BadFrame:
    """One ``websocket.receive`` message → a table message (a dict with a string ``type``), or why not."""
    if frame.get("text") is None:
        return BadFrame(UNSUPPORTED, Msg("the table reads text frames of JSON; a binary frame is not one"))
    text = str(frame["text"])
    if len(text) > max_message:
        return BadFrame(TOO_BIG, NMsg("a message is at most {limit} character", "a message is at most {limit} characters",
                                     max_message, limit=max_message))
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        return BadFrame(INVALID, Msg('a message must be JSON, such as {example}', example='{"type": "act", "action": "pass"}'))
    if not isinstance(message, dict):
        return BadFrame(POLICY, Msg("a message must be a JSON object"))
    kind = message.get("type")
    if kind not in MESSAGE_TYPES:
        return BadFrame(POLICY, Msg("unknown message type {kind}: the types are {types}", kind=repr(kind),
                                    types=", ".join(MESSAGE_TYPES)))
    if kind == "act" and not isinstance(message.get("action"), str):
        return BadFrame(POLICY, Msg('an act message needs "action", a string such as {example}', example='"play Sup3"'))
    if kind == "name" and not isinstance(message.get("name"), str):
        return BadFrame(POLICY, Msg('a name message needs "name", a string'))
    return message
