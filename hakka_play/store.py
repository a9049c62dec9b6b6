"""Where the tables are kept: a table's setup and every move it accepted, so that a restart resumes it.

A table is stored as what makes it, never as a pickled object: its id, seed, first Dealer, decision
options, deals and bots, its seats (token, invitation, taken), and the moves it accepted in their
order (``act`` with the action's text, or ``next``: a person has seen the end of a hand). Restoring a
table replays those moves through the engine's public API (:meth:`Table.act`, hence
:meth:`reference_engine.Game.apply`), so what comes back is what the engine says those moves make.

:class:`Store` is the one interface the table server uses. :class:`SQLiteStore` implements it with the
standard library's :mod:`sqlite3` (WAL journal, ``synchronous=FULL`` unless ``--sync normal``): each move is one transaction,
committed before :meth:`Table.act` returns, so before anyone is told of it. A move is therefore kept
whole or not at all: a server killed while it commits comes back without the move, and nobody had
been told of it. A store shared by several processes (PostgreSQL) would implement the same methods.

The schema is versioned (``PRAGMA user_version``): :data:`MIGRATIONS` holds one script per version,
run in order on an older file; a file newer than this code is refused with a clear message.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

MIGRATIONS: tuple[str, ...] = (
    # version 1: the tables, their seats, their accepted moves
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        seed INTEGER NOT NULL,
        first_dealer INTEGER NOT NULL,
        options TEXT NOT NULL,      -- JSON: decision ID -> option ID (the changed ones)
        deals TEXT NOT NULL,        -- JSON: the deals given to reference_engine.Game
        bot TEXT NOT NULL,          -- the name of the bots of hakka_play.bots.BOTS
        listed INTEGER NOT NULL,
        closed REAL                 -- when the table was finished or freed; NULL while it is open
    );
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        human INTEGER NOT NULL,
        token TEXT NOT NULL,
        invite TEXT NOT NULL,
        taken INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE moves (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,         -- 0, 1, 2, ... in the order the table accepted them
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('act', 'next')),
        action TEXT NOT NULL,       -- the action's text for 'act', '' for 'next'
        PRIMARY KEY (table_id, n)
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


SYNC = {"full": "FULL", "normal": "NORMAL"}
"""``hakka-play --sync``: what a committed move waits for (SQLite's ``synchronous`` in WAL mode)."""


class StoreError(Exception):
    """The database cannot be used: the words name the file and what is wrong with it."""


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    human: bool
    token: str
    invite: str
    taken: bool


@dataclass(frozen=True)
class Move:
    seat: int
    kind: str  # "act" or "next"
    action: str = ""


@dataclass
class TableRecord:
    """What makes a table: everything but its moves."""

    id: str
    seed: int
    first_dealer: int
    options: dict[str, str]
    deals: list[dict[str, Any]]
    bot: str
    listed: bool
    seats: list[SeatRecord]
    moves: list[Move] = field(default_factory=list)


class Store(Protocol):
    """The table server's store. Every method returns once what it was given is durable."""

    def add(self, record: TableRecord) -> None:
        """A new table, with its seats."""

    def seat(self, table_id: str, seat: SeatRecord) -> None:
        """A seat changed (taken, its invitation spent)."""

    def move(self, table_id: str, n: int, move: Move) -> None:
        """The table's ``n``-th accepted move (``n`` counts from 0, with no gap)."""

    def close(self, table_id: str) -> None:
        """The table is finished or freed: it is not resumed by a restart."""

    def open_tables(self) -> list[TableRecord]:
        """Every table not closed, with its seats and moves, oldest first."""

    def shutdown(self) -> None:
        """Release the store (the server stops)."""


def default_path() -> Path:
    """The per-user database: ``$XDG_DATA_HOME/hakka-cards/tables.sqlite3`` (``~/.local/share`` when unset),
    ``%LOCALAPPDATA%`` on Windows."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "hakka-cards" / "tables.sqlite3"


class SQLiteStore:
    """:class:`Store` in one SQLite file (WAL journal; one transaction per change)."""

    def __init__(self, path: str | os.PathLike[str], sync: str = "full") -> None:
        """``sync``: ``"full"`` (each move waits until the disk has it: it survives a power cut) or ``"normal"``
        (each move waits until the operating system has it: it survives the server being killed, not a power
        cut; the disk flushes at WAL checkpoints). One flush per move bounds the moves per second of a server
        to the disk's flush rate (``benchmarks/play_capacity.py`` measures both)."""
        if sync not in SYNC:
            raise StoreError(f"{path}: sync must be one of {', '.join(SYNC)}, not {sync!r}")
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # autocommit mode: each change below is its own explicit transaction
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={SYNC[sync]}")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: cannot be used as the table database: {exc}") from None

    def _migrate(self) -> None:
        version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: its schema is version {version}, newer than this hakka-play's "
                             f"{SCHEMA_VERSION}: use a newer hakka-play, or another --database")
        for number in range(version, SCHEMA_VERSION):
            with self._transaction():  # a migration is whole or not at all
                for statement in _statements(MIGRATIONS[number]):
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number + 1}")

    def add(self, record: TableRecord) -> None:
        with self._transaction():
            self.db.execute(
                "INSERT INTO tables (id, created, seed, first_dealer, options, deals, bot, listed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, time.time(), record.seed, record.first_dealer, json.dumps(record.options),
                 json.dumps(record.deals), record.bot, int(record.listed)))
            self.db.executemany(
                "INSERT INTO seats (table_id, seat, human, token, invite, taken) VALUES (?, ?, ?, ?, ?, ?)",
                [(record.id, s.seat, int(s.human), s.token, s.invite, int(s.taken)) for s in record.seats])

    def seat(self, table_id: str, seat: SeatRecord) -> None:
        with self._transaction():
            self.db.execute("UPDATE seats SET human = ?, token = ?, invite = ?, taken = ? WHERE table_id = ? AND seat = ?",
                            (int(seat.human), seat.token, seat.invite, int(seat.taken), table_id, seat.seat))

    def move(self, table_id: str, n: int, move: Move) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO moves (table_id, n, seat, kind, action) VALUES (?, ?, ?, ?, ?)",
                            (table_id, n, move.seat, move.kind, move.action))

    def close(self, table_id: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE tables SET closed = ? WHERE id = ? AND closed IS NULL", (time.time(), table_id))

    def open_tables(self) -> list[TableRecord]:
        out = []
        rows = self.db.execute("SELECT id, seed, first_dealer, options, deals, bot, listed FROM tables "
                               "WHERE closed IS NULL ORDER BY created, id").fetchall()
        for tid, seed, first_dealer, options, deals, bot, listed in rows:
            seats = [SeatRecord(s, bool(h), tok, inv, bool(tk)) for s, h, tok, inv, tk in self.db.execute(
                "SELECT seat, human, token, invite, taken FROM seats WHERE table_id = ? ORDER BY seat", (tid,))]
            moves = [Move(s, k, a) for s, k, a in self.db.execute(
                "SELECT seat, kind, action FROM moves WHERE table_id = ? ORDER BY n", (tid,))]
            out.append(TableRecord(tid, seed, first_dealer, json.loads(options), json.loads(deals), bot,
                                   bool(listed), seats, moves))
        return out

    def shutdown(self) -> None:
        self.db.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on an error): the change is durable when the block ends."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _statements(script: str) -> list[str]:
    """A migration's statements, one by one (``executescript`` would commit the open transaction first)."""
    lines = [line.split("--")[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
