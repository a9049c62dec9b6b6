"""Durable tables: a real ``hakka-play`` process on a real SQLite file, killed with SIGKILL and started again.

What a person was told is kept: after the restart the same seat links open the same hand at its last
accepted move, an invitation nobody used still seats its person, and a move racing the kill is either
kept (whole, in its place) or refused (absent), never half there.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("websockets", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("uvicorn", reason="the play extra: pip install -e '.[play]'")

from hakka_play.store import SCHEMA_VERSION, Move, SeatRecord, SQLiteStore, StoreError, TableRecord  # noqa: E402

from .client import SeatClient, simple_choice  # noqa: E402
from .conftest import _free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


class Process:
    """``hakka-play`` in a process of its own (so that it can be killed as a crash would kill it); ``verify``:
    the certificate to trust when it serves TLS (``--certfile``)."""

    def __init__(self, database: Path, port: int, *args: str, verify: Path | None = None) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-u", "-m", "hakka_play.cli", "--no-browser", "--host", "127.0.0.1", "--port", str(port),
             "--database", str(database), "--bot-delay", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
        secure = "s" if verify else ""
        self.base, self.ws_base = f"http{secure}://127.0.0.1:{port}", f"ws{secure}://127.0.0.1:{port}"
        self.lines: list[str] = []
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if "replay viewer:" in line:
                break
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(self.base + "/api/tables", timeout=1, verify=str(verify) if verify else True)
                return
            except httpx.TransportError:
                assert self.proc.poll() is None and time.monotonic() < deadline, "\n".join(self.lines)
                time.sleep(0.05)

    def link(self, words: str) -> str:
        return next(line.split(": ", 1)[1] for line in self.lines if words in line).removeprefix(self.base)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def processes() -> Iterator[list[Process]]:
    started: list[Process] = []
    yield started
    for process in started:
        if process.proc.poll() is None:
            process.kill()


def _seat(process: Process, url: str) -> SeatClient:
    table, token = url.removeprefix("/table/").split("?token=")
    return SeatClient(process.ws_base, table, token)


def _settled(client: SeatClient, quiet: float = 0.5) -> dict[str, Any]:
    """The last view once the table is quiet (a person is to act; every bot move before it received)."""
    if client.view is None:
        client.until(lambda m: m["type"] == "view")
    while True:
        try:
            client.recv(timeout=quiet)
        except TimeoutError:
            break
    assert client.view is not None
    return client.view


def _public(view: dict[str, Any]) -> dict[str, Any]:
    """A view without who is online (which a restart changes)."""
    return {k: v for k, v in view.items() if k != "seats"}


def _redeem(process: Process, invite: str) -> str:
    table, code = invite.removeprefix("/join/").split("?invite=")
    answer = httpx.post(process.base + "/api/join", json={"table": table, "invite": code}, timeout=10)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["url"])


def test_kill_9_mid_hand_then_the_same_links_reconnect_to_the_same_hand(tmp_path: Path, processes: list[Process]) -> None:
    database, port = tmp_path / "tables.sqlite3", _free_port()
    first = Process(database, port, "--humans", "2", "--seed", "7")
    processes.append(first)
    mine, other = first.link("your seat 0"), _redeem(first, first.link("invitation to seat 1"))
    # a second table, made in the lobby, whose invitation nobody uses before the crash
    made = httpx.post(first.base + "/api/tables", json={"humans": 2}, timeout=10).json()
    unused = made["invites"][0]["url"].removeprefix(first.base)

    seats = {0: _seat(first, mine), 1: _seat(first, other)}
    view = _settled(seats[0])
    while len(view["hand"]["history"]) < 12:  # mid-hand: the calls made, the first rounds played
        actor = view["hand"]["to_act"]
        assert actor in (0, 1) and not view["waiting"], view
        mover = seats[actor]
        if mover.view is None or mover.view["version"] != view["version"]:
            mover.until(lambda m, v=view["version"]: m["type"] == "view" and m["version"] == v)
        assert mover.view is not None and mover.view["hand"]["legal"] is not None, (view, mover.view)
        mover.send({"type": "act", "action": simple_choice(mover.view)})
        view = _settled(seats[0])
    told = {s: _public(_settled(c)) for s, c in seats.items()}
    assert told[0]["hand"]["history"] and told[0]["hand"]["phase"] != "calling"
    first.kill()

    second = Process(database, port, "--humans", "2")
    processes.append(second)
    assert any("resumed 2 open table(s)" in line for line in second.lines), second.lines
    for s, url in ((0, mine), (1, other)):
        back = _seat(second, url)
        assert _public(_settled(back)) == told[s]  # the same hand, at its last accepted move, seen by the same seat
        back.close()
    assert _redeem(second, unused).startswith(f"/table/{made['table']}?token=")  # the invitation works once more
    creator = _seat(second, made["url"])
    assert creator.until(lambda m: m["type"] == "view")["seat"] == 0
    creator.close()
    second.kill()


@pytest.mark.parametrize("pause", [0.0, 0.003, 0.03])
def test_a_move_racing_a_kill_is_kept_or_refused_never_half_applied(tmp_path: Path, processes: list[Process],
                                                                      pause: float) -> None:
    database, port = tmp_path / "tables.sqlite3", _free_port()
    first = Process(database, port, "--seed", "3")
    processes.append(first)
    mine = first.link("your seat 0")
    client = _seat(first, mine)
    before = _settled(client)
    action = simple_choice(before)
    client.send({"type": "act", "action": action})
    time.sleep(pause)
    first.kill()
    told = [m for m in client.received if m["type"] == "view"]  # what this seat was told before the crash

    second = Process(database, port)
    processes.append(second)
    after = _settled(_seat(second, mine))
    old, new = before["hand"]["history"], after["hand"]["history"]
    assert new[: len(old)] == old
    if len(new) > len(old):  # kept: the move whole, in its place, and the bots' moves after it
        assert new[len(old)]["seat"] == 0 and after["version"] > before["version"]
    else:  # refused: nothing of it
        assert _public(after) == _public(before)
    for view in told:  # nothing a seat was told is missing after the restart
        assert new[: len(view["hand"]["history"])] == view["hand"]["history"]
    with sqlite3.connect(database) as db:  # the moves are numbered without a gap: no half-written move
        numbers = [n for (n,) in db.execute("SELECT n FROM moves ORDER BY table_id, n")]
        assert numbers == list(range(len(numbers)))
    second.kill()


def test_the_schema_is_versioned_and_a_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = SQLiteStore(path)
    record = TableRecord("ab", 1, 0, {"D7": "any-suit"}, [{"seed": 5}], "rule", False,
                         [SeatRecord(i, i == 0, f"tok{i}", "", i == 0) for i in range(4)])
    store.add(record)
    store.move("ab", 0, Move(0, "act", "pass"))
    with pytest.raises(sqlite3.IntegrityError):  # a move is stored once, under its number
        store.move("ab", 0, Move(1, "act", "pass"))
    (kept,) = store.open_tables()
    assert kept.options == {"D7": "any-suit"} and kept.moves == [Move(0, "act", "pass")] and kept.seats[0].token == "tok0"
    store.close("ab")
    assert store.open_tables() == []
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.shutdown()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=rf"schema is version {SCHEMA_VERSION + 1}, newer than this hakka-play's {SCHEMA_VERSION}"):
        SQLiteStore(path)
