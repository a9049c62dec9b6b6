"""``hakka-play --sync``: what an accepted move waits for. ``normal`` still survives the server being killed."""

from __future__ import annotations

from pathlib import Path

import pytest

from hakka_play.store import SQLiteStore, StoreError

from .client import simple_choice
from .conftest import _free_port
from .test_durable import Process, _public, _seat, _settled, processes  # noqa: F401 - the fixture


@pytest.mark.parametrize(("sync", "pragma"), [("full", 2), ("normal", 1)])
def test_the_store_sets_sqlites_synchronous_from_sync(tmp_path: Path, sync: str, pragma: int) -> None:
    store = SQLiteStore(tmp_path / "t.sqlite3", sync=sync)
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == pragma
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.shutdown()


def test_an_unknown_sync_is_refused_naming_the_choices(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"t.sqlite3: sync must be one of full, normal, not 'off'"):
        SQLiteStore(tmp_path / "t.sqlite3", sync="off")


def test_sync_normal_keeps_every_move_a_seat_was_told_across_a_kill_9(tmp_path: Path, processes: list[Process]) -> None:  # noqa: F811
    database, port = tmp_path / "tables.sqlite3", _free_port()
    first = Process(database, port, "--seed", "3", "--sync", "normal")
    processes.append(first)
    mine = first.link("your seat 0")
    client = _seat(first, mine)
    view = _settled(client)
    for _ in range(4):  # four of seat 0's moves, each answered by the bots
        client.send({"type": "act", "action": simple_choice(view)})
        view = _settled(client)
    told = _public(view)
    assert len(told["hand"]["history"]) >= 4
    first.kill()
    second = Process(database, port, "--sync", "normal")
    processes.append(second)
    assert _public(_settled(_seat(second, mine))) == told
    second.kill()
