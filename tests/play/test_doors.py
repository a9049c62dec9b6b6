"""The table's doors (issue 20 item 7), each knocked on with a real client of a real server.

Bad frames get a close code and no traceback; ``Host`` and ``Origin`` are checked; a cross-site form
cannot create a table; idle and finished tables are freed and tables and sockets are bounded; a new
socket costs one view, not one per open socket; and no page, hello or answer holds another seat's token.
"""

from __future__ import annotations

import contextlib
import gc
import json
import socket
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import replace

import pytest

httpx = pytest.importorskip("httpx", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("websockets", reason="the play extra's test client: pip install -e '.[play]'")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from hakka_play.table import Table  # noqa: E402

from .client import SeatClient  # noqa: E402


def _table(live, **kwargs) -> Table:
    table: Table = live.call(live.play.add_table, Table(**kwargs))
    return table


def _closed_with(client: SeatClient) -> int | None:
    with pytest.raises(ConnectionClosed):
        while True:
            client.recv(timeout=5)
    return client.ws.close_code


@pytest.mark.parametrize(("frame", "code"), [
    (b"\x00\x01binary", 1003),                    # a binary frame: the table speaks JSON text
    ("not json", 1007),                           # text that is not JSON
    ("[1, 2]", 1008),                             # JSON, but not a message of the table
    ('{"type": "dance"}', 1008),
    ('{"type": "act", "action": 5}', 1008),
    ("x" * 5000, 1009),                           # above the 4096-character bound
])
def test_a_bad_frame_is_answered_with_an_error_and_a_close_code_never_a_traceback(live, frame, code) -> None:
    table = _table(live, humans=[0], seed=4)
    client = SeatClient(live.ws_base, table.id, table.seats[0].token)
    client.until(lambda m: m["type"] == "view")
    client.send(frame) if isinstance(frame, str) else client.ws.send(frame)
    error = client.until(lambda m: m["type"] == "error")
    assert error["kind"] == "malformed" and error["message"]
    assert _closed_with(client) == code
    assert not live.errors, [r.getMessage() for r in live.errors]
    # the seat is still there: a new connection plays on
    again = SeatClient(live.ws_base, table.id, table.seats[0].token)
    assert again.until(lambda m: m["type"] == "view")["seat"] == 0
    again.close()


def test_a_frame_far_above_the_bound_is_closed_by_the_protocol_layer(live) -> None:
    table = _table(live, humans=[0], seed=4)
    client = SeatClient(live.ws_base, table.id, table.seats[0].token)
    client.until(lambda m: m["type"] == "view")
    client.ws.send("y" * (1 << 20))
    assert _closed_with(client) == 1009
    assert not live.errors


def _handshake(url: str, port: int, origin: str | None = None):
    """A WebSocket handshake to 127.0.0.1:port whatever host the URL names (a rebound DNS name)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return connect(url, sock=sock, origin=origin, open_timeout=10)  # type: ignore[arg-type]


def test_a_page_of_another_site_cannot_open_a_seat_and_a_rebound_name_reaches_nothing(live) -> None:
    table = _table(live, humans=[0], seed=4)
    port = int(live.base.rsplit(":", 1)[1])
    path = f"/ws/{table.id}?token={table.seats[0].token}"
    with pytest.raises(InvalidStatus) as refused:
        _handshake(live.ws_base + path, port, origin="https://evil.example")
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as rebound:
        _handshake(f"ws://evil.example:{port}{path}", port)
    assert rebound.value.response.status_code == 403
    for origin in (None, f"http://127.0.0.1:{port}", f"http://localhost:{port}"):  # its own pages, a script
        ws = _handshake(live.ws_base + path, port, origin=origin)
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        ws.close()
    page = httpx.get(f"{live.base}/table/{table.id}?token={table.seats[0].token}", headers={"Host": "evil.example"})
    assert page.status_code == 403 and "evil.example" in page.json()["error"] and table.seats[0].token not in page.text


def test_the_allow_list_is_configurable(live) -> None:
    from hakka_play.doors import Doors

    app = Doors(lambda scope, receive, send: None, ["table.lan"])  # type: ignore[arg-type, return-value]
    assert app.refusal({"host": "table.lan:8765", "origin": "http://table.lan:8765"}) is None
    assert app.refusal({"host": "127.0.0.1:8765"}) is not None  # loopback is the default, not a given
    assert app.refusal({"host": "table.lan", "origin": "null"}) is not None


def test_a_cross_site_form_cannot_create_a_table(live) -> None:
    before = len(live.play.open)
    form = httpx.post(f"{live.base}/api/tables", content='{"humans": 1}', headers={"Content-Type": "text/plain"})
    assert form.status_code == 415 and "application/json" in form.json()["error"]
    urlencoded = httpx.post(f"{live.base}/api/tables", data={"humans": "1"})
    assert urlencoded.status_code == 415
    cross = httpx.post(f"{live.base}/api/tables", json={"humans": 1}, headers={"Origin": "https://evil.example"})
    assert cross.status_code == 403
    assert len(live.play.open) == before
    huge = httpx.post(f"{live.base}/api/tables", content="[" + " " * 20_000 + "]", headers={"Content-Type": "application/json"})
    assert huge.status_code == 413
    own = httpx.post(f"{live.base}/api/tables", json={"humans": 1}, headers={"Origin": live.base})
    assert own.status_code == 200 and len(live.play.open) == before + 1


def test_idle_and_finished_tables_are_freed_and_open_tables_are_bounded(live) -> None:
    now = [1000.0]
    live.play.clock = lambda: now[0]
    live.play.limits = replace(live.play.limits, max_tables=3, idle_seconds=600, finished_seconds=60)
    made = [httpx.post(f"{live.base}/api/tables", json={"humans": 1}).json()["table"] for _ in range(3)]
    full = httpx.post(f"{live.base}/api/tables", json={"humans": 1})
    assert full.status_code == 503 and "--max-tables" in full.json()["error"]
    # a finished game nobody is connected to goes after a minute, an idle one after ten
    live.call(lambda: setattr(live.play.open[made[0]].table, "problem", "over"))
    client = SeatClient(live.ws_base, made[1], live.play.open[made[1]].table.seats[0].token)  # someone is there
    client.until(lambda m: m["type"] == "view")
    now[0] += 61
    assert httpx.get(f"{live.base}/api/tables").status_code == 200  # the lobby's listing sweeps too
    assert made[0] not in live.play.open and made[1] in live.play.open and made[2] in live.play.open
    now[0] += 600
    assert httpx.post(f"{live.base}/api/tables", json={"humans": 1}).status_code == 200
    assert made[2] not in live.play.open and made[1] in live.play.open, "a table with a person connected is kept"
    client.close()


def test_a_freed_table_gives_its_memory_back() -> None:
    from hakka_play.server import PlayServer

    now = [0.0]
    play = PlayServer(clock=lambda: now[0])
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for _ in range(200):
        play.add_table(Table(humans=[0]))
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    now[0] += play.limits.idle_seconds
    assert len(play.sweep()) == 200 and not play.open
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    assert held / 200 > 4096, "a table should weigh kilobytes; the measure is off"
    assert kept < held * 0.05, f"{kept / 200:.0f} bytes per table kept after freeing ({held / 200:.0f} held)"


def test_sockets_per_seat_are_bounded(live) -> None:
    table = _table(live, humans=[0], seed=4)
    bound = live.play.limits.max_sockets_per_seat
    clients = [SeatClient(live.ws_base, table.id, table.seats[0].token) for _ in range(bound)]
    extra = SeatClient(live.ws_base, table.id, table.seats[0].token)
    assert extra.hello["type"] == "error" and "--max-sockets-per-seat" in extra.hello["message"]
    assert _closed_with(extra) == 1008
    for c in clients:
        c.close()


def test_a_new_socket_costs_one_view_not_one_per_open_socket(live) -> None:
    """On main every connect sent a view to every open socket: 200 sockets on one seat took 70 s."""
    live.play.limits = replace(live.play.limits, max_sockets_per_seat=1000)
    table = _table(live, humans=[0], seed=4)
    start = time.monotonic()
    clients = [SeatClient(live.ws_base, table.id, table.seats[0].token) for _ in range(100)]
    for c in clients:
        c.until(lambda m: m["type"] == "view")
    first = clients[0]
    with pytest.raises(TimeoutError):
        first.recv(timeout=0.5)  # nothing more came: the 99 later sockets cost it no view each
    assert [m["type"] for m in first.received] == ["hello", "view"]
    for c in clients:
        c.close()
    took = time.monotonic() - start
    assert took < 30, f"100 sockets on one seat took {took:.1f} s"


def test_each_person_gets_their_own_seat_link_once_and_no_page_holds_another_seats_token(live) -> None:
    created = httpx.post(f"{live.base}/api/tables", json={"humans": 3}).json()
    table: Table = live.play.open[created["table"]].table
    tokens = [s.token for s in table.seats]
    answer = json.dumps(created)
    assert tokens[0] in answer and tokens[1] not in answer and tokens[2] not in answer
    assert [i["seat"] for i in created["invites"]] == [1, 2]
    host = SeatClient(live.ws_base, table.id, tokens[0])
    assert tokens[1] not in json.dumps(host.hello) and tokens[2] not in json.dumps(host.hello)
    assert [i["seat"] for i in host.hello["invite"]] == [1, 2]
    invite = created["invites"][0]["url"].split("invite=")[1]
    assert httpx.get(live.base + created["invites"][0]["url"]).status_code == 200  # the page that redeems it
    taken = httpx.post(f"{live.base}/api/join", json={"table": table.id, "invite": invite})
    assert taken.status_code == 200 and taken.json()["seat"] == 1 and tokens[1] in taken.json()["url"]
    update = host.until(lambda m: m["type"] == "invite")  # the host's page drops the invitation just used
    assert [i["seat"] for i in update["invite"]] == [2] and tokens[1] not in json.dumps(update)
    again = httpx.post(f"{live.base}/api/join", json={"table": table.id, "invite": invite})
    assert again.status_code == 403 and tokens[1] not in again.text
    guest = SeatClient(live.ws_base, table.id, tokens[1])
    assert guest.hello["invite"] == [] and tokens[0] not in json.dumps(guest.received)
    later = SeatClient(live.ws_base, table.id, tokens[0])
    assert [i["seat"] for i in later.hello["invite"]] == [2], "a redeemed invitation is gone from the host's page"
    not_listed = httpx.post(f"{live.base}/api/join", json={"table": table.id})
    assert not_listed.status_code == 403
    for c in (host, guest, later):
        c.close()


def test_the_lobby_lists_open_tables_with_their_free_seats_and_no_token(live) -> None:
    created = httpx.post(f"{live.base}/api/tables", json={"humans": 3, "listed": True,
                                                         "options": {"D7": "any-suit"}}).json()
    httpx.post(f"{live.base}/api/tables", json={"humans": 2})  # by invitation only: not listed
    listing = httpx.get(f"{live.base}/api/tables")
    [entry] = listing.json()["tables"]
    assert entry["table"] == created["table"] and entry["free"] == [1, 2] and entry["options"] == {"D7": "any-suit"}
    table: Table = live.play.open[created["table"]].table
    for secret in [s.token for s in table.seats] + [s.invite for s in table.seats if s.invite]:
        assert secret not in listing.text
    took = httpx.post(f"{live.base}/api/join", json={"table": table.id}).json()
    assert took["seat"] == 1 and table.seats[1].token in took["url"]
    assert httpx.get(f"{live.base}/api/tables").json()["tables"][0]["free"] == [2]
    httpx.post(f"{live.base}/api/join", json={"table": table.id})
    assert httpx.get(f"{live.base}/api/tables").json()["tables"] == []
    assert httpx.post(f"{live.base}/api/join", json={"table": table.id}).status_code == 409


@contextlib.contextmanager
def _stall(live) -> Iterator[list[float]]:
    """The gaps between 5 ms sleeps on the server's event loop while the block runs (a stall is a long gap)."""
    import asyncio

    gaps: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        last = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(0.005)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticking = asyncio.run_coroutine_threadsafe(ticker(), live.loop)
    time.sleep(0.1)
    try:
        yield gaps
    finally:
        live.loop.call_soon_threadsafe(stop.set)
        ticking.result(10)


def test_a_replay_is_built_once_off_the_event_loop(live, monkeypatch: pytest.MonkeyPatch) -> None:
    # The first /api/replay loaded the corpus on the loop (7-10 s), and a long --replay trace was rebuilt on
    # every request (about 5 s for 20,000 steps): here a replay that takes 1 s to build stands for both.
    from conformance.replay import load_replay as real

    built: list[str] = []

    def slow(ref, rulebook=None):
        built.append(ref)
        time.sleep(1.0)
        return real(ref, rulebook)

    monkeypatch.setattr("hakka_play.server.load_replay", slow)
    live.play.replays["cli"] = "obs-discard-hidden-from-others"
    with _stall(live) as gaps:
        first = httpx.get(live.base + "/api/replay?id=cli", timeout=30)
        again = httpx.get(live.base + "/api/replay?id=cli", timeout=30)
    assert max(gaps) < 0.25, f"the event loop stalled {max(gaps):.2f} s"
    assert first.status_code == again.status_code == 200 and first.content == again.content
    assert first.json()["steps"] and built == ["obs-discard-hidden-from-others"]  # built once


def test_a_hostile_cookie_does_not_stall_the_event_loop(live) -> None:
    # CVE-2024-7592: http.cookies (and Starlette's parser, which uses its unquoting) is quadratic in the
    # backslashes of a quoted value; 15,000 of them took about 2 s here, during which no table was served.
    # The doors read only the table's own cookie, linearly, and pass nothing else on.
    cookie = 'x="' + "\\" * 15_000 + '"; hakka_lang=de'
    with _stall(live) as gaps:
        refused = httpx.get(live.base + "/api/tables", headers={"Host": "evil.example", "Cookie": cookie}, timeout=30)
        allowed = httpx.get(live.base + "/", headers={"Cookie": cookie}, timeout=30)
        huge = httpx.get(live.base + "/", headers={"X-Pad": "a" * 17_000}, timeout=30)
    assert max(gaps) < 0.25, f"the event loop stalled {max(gaps):.2f} s"
    assert refused.status_code == 403 and "evil.example" in refused.json()["error"]
    assert allowed.status_code == 200 and 'lang="de"' in allowed.text  # the table's own cookie still counts
    assert huge.status_code == 431 and "16384" in huge.json()["error"]
