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

A finished game is kept whole (:class:`GameRecord`: options, seed, deals, each hand's actions and the
events the engine reported, scores), so that its page, replay, trace and scenarios need no replay of the
table; :meth:`Store.forget` drops the games and closed tables older than ``--keep-days``.

The schema is versioned (``PRAGMA user_version``): :data:`MIGRATIONS` holds one script per version,
run in order on an older file; a file newer than this code is refused with a clear message.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable
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
    # version 2: people come and go (names, leaving, the clock, spectators), and every finished game is kept
    """
    ALTER TABLE seats ADD COLUMN name TEXT NOT NULL DEFAULT '';
    ALTER TABLE seats ADD COLUMN left_at INTEGER;   -- moves accepted when the person left; a bot since
    ALTER TABLE tables ADD COLUMN turn_seconds REAL; -- the turn clock, NULL: off
    ALTER TABLE tables ADD COLUMN watch TEXT NOT NULL DEFAULT '';   -- the spectators' token
    ALTER TABLE tables ADD COLUMN game_id TEXT NOT NULL DEFAULT ''; -- the id its finished game is kept under
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        table_id TEXT NOT NULL,
        finished REAL NOT NULL,     -- when the game ended (seconds since the epoch); --keep-days counts from it
        record TEXT NOT NULL        -- JSON: options, seed, first Dealer, deals, seats, scores, hands with events
    );
    CREATE INDEX games_finished ON games (finished);
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
    name: str = ""
    left_at: int | None = None


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
    turn_seconds: float | None = None
    watch: str = ""
    game_id: str = ""


@dataclass
class GameRecord:
    """A finished game, kept: what it was played under, each hand's deal and accepted actions with the
    events the engine said they caused, and the scores."""

    id: str
    table: str
    finished: float
    """When it ended, in seconds since the epoch."""
    options: dict[str, str]
    seed: int
    first_dealer: int
    deals: list[dict[str, Any]]
    """The deals the game used, in order (given to reference_engine.Game, they deal its hands again)."""
    seats: list[dict[str, Any]]
    """Per seat: ``name`` (a person's display name, or ""), ``bot`` (a bot's name, or None), ``left``."""
    scores: list[int]
    hands: list[dict[str, Any]]
    """Per hand: ``dealer``, ``hands`` (the four dealt hands' text), ``steps`` (``seat``, ``do``, ``events``), ``result``."""

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "table": self.table, "finished": self.finished, "options": self.options,
                "seed": self.seed, "first_dealer": self.first_dealer, "deals": self.deals, "seats": self.seats,
                "scores": self.scores, "hands": self.hands}


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

    def keep(self, game: GameRecord) -> None:
        """A finished game, kept until :meth:`forget` drops it."""

    def game(self, game_id: str) -> GameRecord | None:
        """The kept game of that id, if any."""

    def forget(self, before: float) -> int:
        """Drop the games finished and the tables closed before ``before`` (seconds since the epoch); how many games."""

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

    def __init__(self, path: str | os.PathLike[str], sync: str = "full",
                 now: Callable[[], float] = time.time) -> None:
        """``sync``: ``"full"`` (each move waits until the disk has it: it survives a power cut) or ``"normal"``
        (each move waits until the operating system has it: it survives the server being killed, not a power
        cut; the disk flushes at WAL checkpoints). One flush per move bounds the moves per second of a server
        to the disk's flush rate (``benchmarks/play_capacity.py`` measures both). ``now``: the clock that
        ``--keep-days`` retention reads (a test gives its own)."""
        if sync not in SYNC:
            raise StoreError(f"{path}: sync must be one of {', '.join(SYNC)}, not {sync!r}")
        self.path = Path(path)
        self.now = now
        self.lock = threading.RLock()
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
                "INSERT INTO tables (id, created, seed, first_dealer, options, deals, bot, listed, turn_seconds, watch, "
                "game_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, self.now(), record.seed, record.first_dealer, json.dumps(record.options),
                 json.dumps(record.deals), record.bot, int(record.listed), record.turn_seconds, record.watch,
                 record.game_id))
            self.db.executemany(
                "INSERT INTO seats (table_id, seat, human, token, invite, taken, name, left_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(record.id, s.seat, int(s.human), s.token, s.invite, int(s.taken), s.name, s.left_at)
                 for s in record.seats])

    def seat(self, table_id: str, seat: SeatRecord) -> None:
        with self._transaction():
            self.db.execute("UPDATE seats SET human = ?, token = ?, invite = ?, taken = ?, name = ?, left_at = ? "
                            "WHERE table_id = ? AND seat = ?",
                            (int(seat.human), seat.token, seat.invite, int(seat.taken), seat.name, seat.left_at,
                             table_id, seat.seat))

    def move(self, table_id: str, n: int, move: Move) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO moves (table_id, n, seat, kind, action) VALUES (?, ?, ?, ?, ?)",
                            (table_id, n, move.seat, move.kind, move.action))

    def close(self, table_id: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE tables SET closed = ? WHERE id = ? AND closed IS NULL", (self.now(), table_id))

    def open_tables(self) -> list[TableRecord]:
        out = []
        rows = self.db.execute("SELECT id, seed, first_dealer, options, deals, bot, listed, turn_seconds, watch, game_id "
                               "FROM tables WHERE closed IS NULL ORDER BY created, id").fetchall()
        for tid, seed, first_dealer, options, deals, bot, listed, turn_seconds, watch, game_id in rows:
            seats = [SeatRecord(s, bool(h), tok, inv, bool(tk), name, left) for s, h, tok, inv, tk, name, left in self.db.execute(
                "SELECT seat, human, token, invite, taken, name, left_at FROM seats WHERE table_id = ? ORDER BY seat", (tid,))]
            moves = [Move(s, k, a) for s, k, a in self.db.execute(
                "SELECT seat, kind, action FROM moves WHERE table_id = ? ORDER BY n", (tid,))]
            out.append(TableRecord(tid, seed, first_dealer, json.loads(options), json.loads(deals), bot,
                                   bool(listed), seats, moves, turn_seconds, watch, game_id))
        return out

    def keep(self, game: GameRecord) -> None:
        with self._transaction():
            self.db.execute("INSERT OR REPLACE INTO games (id, table_id, finished, record) VALUES (?, ?, ?, ?)",
                            (game.id, game.table, game.finished, json.dumps(game.json())))

    def game(self, game_id: str) -> GameRecord | None:
        with self.lock:
            row = self.db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        return GameRecord(**data)

    def forget(self, before: float) -> int:
        with self._transaction():
            gone = self.db.execute("DELETE FROM games WHERE finished < ?", (before,)).rowcount
            self.db.execute("DELETE FROM tables WHERE closed IS NOT NULL AND closed < ?", (before,))
        return int(gone)

    def shutdown(self) -> None:
        self.db.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db, self.lock)


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on an error): the change is durable when the block ends.

    It holds the store's lock throughout: the one connection is shared by the server's event loop (moves)
    and its worker threads (retention, a kept game read), and two transactions on one connection at once
    would refuse each other."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self.db, self.lock = db, lock

    def __enter__(self) -> None:
        self.lock.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.lock.release()
            raise

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        try:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self.lock.release()


def _statements(script: str) -> list[str]:
    """A migration's statements, one by one (``executescript`` would commit the open transaction first)."""
    lines = [line.split("--")[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
