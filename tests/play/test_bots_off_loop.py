"""The table's bots think off the server's event loop (a thread per move, on a snapshot of their view).

Over a real uvicorn server and real clients (httpx, websockets), with fake bots that take their time:
while a bot thinks, every other request of the server is answered at once; a move thought for a position
the table has left is dropped, not applied and not an error; a bot that fails or never answers becomes
the table's problem; a server stopped while a bot thinks stops cleanly, its thread ended.
"""

from __future__ import annotations

import gc
import threading
import time
from random import Random
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("websockets", reason="the play extra's test client: pip install -e '.[play]'")

from hakka_play.bots import Observation, RuleBot  # noqa: E402
from hakka_play.server import PlayServer  # noqa: E402
from hakka_play.table import Table  # noqa: E402
from reference_engine import Action, LegalActions  # noqa: E402

from .client import SeatClient  # noqa: E402
from .conftest import Live, serving  # noqa: E402

QUICK = 0.25
"""What "answered at once" means here: half the slow bot's think (a request takes milliseconds)."""


class SlowBot:
    """Thinks ``seconds`` (or until ``gate`` opens), then plays ``action``, or the rule-aware bot's choice."""

    name = "slow bot"

    def __init__(self, seconds: float = 0.5, gate: threading.Event | None = None, action: str | None = None,
                 error: Exception | None = None) -> None:
        self.seconds, self.gate, self.action, self.error = seconds, gate, action, error
        self.started, self.finished = threading.Event(), threading.Event()
        self.calls = 0
        self.thread: threading.Thread | None = None

    def choose(self, observation: Observation, legal: LegalActions, rng: Random) -> Action:
        self.calls += 1
        self.thread = threading.current_thread()
        self.started.set()
        try:
            if self.gate is not None:
                self.gate.wait(self.seconds)
            else:
                time.sleep(self.seconds)
            if self.error is not None:
                raise self.error
            return Action.parse(self.action) if self.action else RuleBot().choose(observation, legal, rng)
        finally:
            self.finished.set()


def _seated(live: Live, bot: SlowBot, **kwargs: Any) -> tuple[Table, SeatClient, SeatClient]:
    """People at seats 0 and 3, ``bot`` at seat 1 (the rule-aware bot at 2); seat 0, the Dealer, speaks first."""
    table: Table = live.call(live.play.add_table, Table(humans=[0, 3], bots={1: bot}, seed=7, **kwargs))
    seat0 = SeatClient(live.ws_base, table.id, table.seats[0].token)
    seat3 = SeatClient(live.ws_base, table.id, table.seats[3].token)
    for client in (seat0, seat3):
        client.until(lambda m: m["type"] == "view")
    assert table.to_act == 0  # CALL-1: the Dealer speaks first, then seat 1 (the slow bot)
    return table, seat0, seat3


def _history(live: Live, table: Table) -> list[tuple[int, str]]:
    history: list[tuple[int, str]] = live.call(lambda: [(seat, str(a)) for seat, a in table.current.hand.history])
    return history


def _no_errors_logged(live: Live) -> None:
    assert not live.errors, [record.getMessage() for record in live.errors]


def test_the_server_answers_everyone_while_a_bot_thinks(live: Live) -> None:
    """(1) A bot thinking 0.5 s stalls nobody: a page and another seat's message are answered at once.

    On the event loop (the old ``table.bot_action`` in ``_run_bots``) both waited for the bot's move."""
    slow = SlowBot(seconds=0.5)
    table, seat0, seat3 = _seated(live, slow)
    page = f"{live.base}/table/{table.id}?token={table.seats[3].token}"
    with httpx.Client(timeout=10) as http:
        assert http.get(page).status_code == 200  # the connection is open before the bot thinks
        seat0.send({"type": "act", "action": "pass"})
        assert slow.started.wait(5), "the bot was never asked to move"
        started = time.monotonic()
        assert http.get(page).status_code == 200
        page_took = time.monotonic() - started
        started = time.monotonic()
        refused = seat3.error_after({"type": "act", "seat": 0, "action": "call"})  # refused in any position
        socket_took = time.monotonic() - started
        still_thinking = not slow.finished.is_set()
    assert page_took < QUICK and socket_took < QUICK, f"page {page_took:.3f} s, socket {socket_took:.3f} s"
    assert still_thinking, "the bot had finished before the other requests were answered"
    assert refused["rule"] == "GAME-5"
    moved = seat0.until(lambda m: m["type"] == "view" and len(m["hand"]["history"]) >= 2)
    assert moved["hand"]["history"][1]["seat"] == 1 and not moved["problem"]  # the bot's move, in its turn
    _no_errors_logged(live)


def test_a_move_thought_for_a_position_the_table_left_is_dropped(live: Live) -> None:
    """(2) While the bot thinks, a person's message and a move on the loop land: its stale move is dropped.

    The engine lets one seat act at a time, so a person's action during a bot's think is refused (out of
    turn) and leaves the table where it was. What moves the table under a think comes from the loop; here
    seat 1's move is made there, as a second writer would. The bot's own move ("call") is then stale:
    not applied, not reported, and the table goes on from where it is (seat 3's turn: seat 2 is the Dreamer)."""
    gate = threading.Event()
    slow = SlowBot(seconds=10, gate=gate, action="call")
    table, seat0, seat3 = _seated(live, slow)
    seat0.send({"type": "act", "action": "pass"})
    assert slow.started.wait(5)
    assert seat3.error_after({"type": "act", "action": "pass"})["rule"] == "CALL-1"
    assert _history(live, table) == [(0, "pass")]
    bots = _bots_of(live, table)
    live.call(table.act, 1, "pass")  # the table leaves the position the bot is thinking about
    gate.set()
    _settled(live, bots)
    assert _history(live, table) == [(0, "pass"), (1, "pass")]  # the bot's "call" was dropped
    assert slow.calls == 1 and not table.problem  # not asked again (seat 1's turn had passed), nothing reported
    seat3.send({"type": "act", "action": "pass"})  # CALL-1: after seat 1, seat 3 speaks (seat 2 is the Dreamer)
    after = seat0.until(lambda m: m["type"] == "view" and len(m["hand"]["history"]) >= 3)
    assert [(h["seat"], h["action"]) for h in after["hand"]["history"][:3]] == [(0, "pass"), (1, "pass"), (3, "pass")]
    assert not after["problem"]
    assert not [m for m in seat0.received + seat3.received if m["type"] == "error" and m.get("rule") != "CALL-1"]
    _no_errors_logged(live)


def _bots_of(live: Live, table: Table) -> Any:
    """The table's bots task (an asyncio.Task of the server's loop)."""
    return live.call(lambda: live.play.open[table.id].bots)


def _settled(live: Live, bots: Any, timeout: float = 5) -> None:
    """The bots task has ended (its move applied or dropped) and no bot thinks any more."""
    deadline = time.monotonic() + timeout
    while not live.call(lambda: bots.done() and not live.play.thinking):
        assert time.monotonic() < deadline, "the bots are still at work"
        time.sleep(0.01)


def test_a_table_freed_while_its_bot_thinks_takes_no_move(live: Live) -> None:
    """The janitor frees a table whose bot is thinking: the move that comes back is never applied."""
    gate = threading.Event()
    slow = SlowBot(seconds=10, gate=gate, action="pass")
    table, seat0, seat3 = _seated(live, slow)
    seat0.send({"type": "act", "action": "pass"})
    assert slow.started.wait(5)
    seat0.close()
    seat3.close()
    bots = _bots_of(live, table)
    live.call(live.play.free, table.id)
    gate.set()
    _settled(live, bots)
    assert slow.finished.is_set() and bots.cancelled()
    assert _history(live, table) == [(0, "pass")] and table.id not in live.play.open
    _no_errors_logged(live)


@pytest.mark.parametrize("bot, words", [
    (SlowBot(seconds=0.0, error=RuntimeError("the search ran out of worlds")),
     "could not choose an action: RuntimeError: the search ran out of worlds"),
    (SlowBot(seconds=0.0, action="play Sup1"), "chose an action the engine refuses"),
], ids=["raises", "illegal"])
def test_a_bot_that_fails_becomes_the_tables_problem(live: Live, bot: SlowBot, words: str) -> None:
    table, seat0, seat3 = _seated(live, bot)
    seat0.send({"type": "act", "action": "pass"})
    stopped = seat3.until(lambda m: m["type"] == "view" and bool(m["problem"]))
    assert words in stopped["problem"] and "seat 1" in stopped["problem"]
    assert stopped["hand"]["legal"] is None and _history(live, table) == [(0, "pass")]
    _no_errors_logged(live)


def _server_with(think_seconds: float) -> PlayServer:
    return PlayServer(bot_delay=0.0, think_seconds=think_seconds)


def test_a_bot_that_never_answers_is_given_up_after_the_bound() -> None:
    """A think is bounded: past ``think_seconds`` the table says so, and a stop does not wait for the bot."""
    gate = threading.Event()
    hung = SlowBot(seconds=60, gate=gate)
    try:
        with serving(_server_with(think_seconds=0.5)) as running:
            _table, seat0, _seat3 = _seated(running, hung)
            seat0.send({"type": "act", "action": "pass"})
            stopped = seat0.until(lambda m: m["type"] == "view" and bool(m["problem"]))
            assert "could not choose an action: no action within 0.5 s" in stopped["problem"]
            assert not hung.finished.is_set()
            took = running.stop()
            assert took < 5, f"the server took {took:.1f} s to stop"
            gc.collect()
            _no_errors_logged(running)
    finally:
        gate.set()  # the bot's thread ends, whatever happened


def test_stopping_the_server_while_a_bot_thinks_is_clean() -> None:
    """(3) Stopped mid-think: the bot's thread ends (within its bound), no task is left pending, nothing logged."""
    slow = SlowBot(seconds=0.5)
    with serving(_server_with(think_seconds=5.0)) as running:
        table, seat0, _seat3 = _seated(running, slow)
        seat0.send({"type": "act", "action": "pass"})
        assert slow.started.wait(5)
        running.stop()
        assert slow.finished.is_set()  # the server waited for the bot's thread, no longer than its bound
        assert slow.thread is not None
        slow.thread.join(2)
        assert not slow.thread.is_alive()
        held = running.play.open[table.id]
        assert held.bots is not None and held.bots.done()
        assert [(s, str(a)) for s, a in table.current.hand.history] == [(0, "pass")]  # no move after the stop
        gc.collect()  # a task destroyed pending would be logged now ("Task was destroyed but it is pending!")
        _no_errors_logged(running)
