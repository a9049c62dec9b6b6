"""Players come and go, spectators watch, every game is kept: a real uvicorn server, real clients, a real SQLite file.

* the turn clock hands a person's seat to a bot when it runs out, and the person's return (a message,
  or a new connection) hands it back;
* a person can leave: a bot takes the seat for good, their link opens nothing, and a restart agrees;
* a spectator's link gets the public view only: every message it receives passes the leak probe the seats'
  messages pass (:func:`hidden.check_spectator`, the probe of :func:`hidden.check_message`);
* a finished game is kept: its page, its replay, its trace, and each hand as a YAML regression scenario
  that ``hakka-conformance check`` accepts and ``run`` passes on the reference and the standing engines
  of ../shared/engines; ``--keep-days`` drops it afterwards.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("websockets", reason="the play extra's test client: pip install -e '.[play]'")

from websockets.exceptions import ConnectionClosed  # noqa: E402

from hakka_play.bots import RandomBot  # noqa: E402
from hakka_play.doors import Limits  # noqa: E402
from hakka_play.server import LEFT, PlayServer  # noqa: E402
from hakka_play.store import SQLiteStore  # noqa: E402
from hakka_play.table import Table  # noqa: E402
from reference_engine import Profile  # noqa: E402

from .client import SeatClient, simple_choice  # noqa: E402
from .conftest import Live, serving  # noqa: E402
from .hidden import check_spectator  # noqa: E402
from .test_server import play_to_the_end  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT.parent / "shared" / "engines"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def online(database: Path) -> Iterator[Live]:
    """A server keeping its tables and games in a real SQLite file."""
    store = SQLiteStore(database)
    with serving(PlayServer(bot_delay=0.0, store=store)) as live:
        yield live
    store.shutdown()


def _add(live: Live, **kwargs: Any) -> Table:
    table: Table = live.call(live.play.add_table, Table(**kwargs))
    return table


def _view(client: SeatClient, predicate: Any, timeout: float = 10) -> dict[str, Any]:
    return client.until(lambda m: m["type"] == "view" and predicate(m), timeout)


# ------------------------------------------------------------------ the clock, and the person's return


def test_the_clock_hands_a_seat_to_a_bot_and_the_persons_return_hands_it_back(online: Live) -> None:
    table = _add(online, humans=[0], seed=21, turn_seconds=0.4)
    me = SeatClient(online.ws_base, table.id, table.seats[0].token)
    first = _view(me, lambda m: True)
    assert first["hand"]["to_act"] == 0 and first["hand"]["legal"] is not None  # CALL-1: the Dealer speaks first
    assert first["clock"]["seats"] == [0] and 0 < first["clock"]["ends_in"] <= 0.4
    # nobody acts at seat 0: the clock runs out, a bot plays for it, and keeps playing for it
    away = _view(me, lambda m: m["seats"][0]["away"])
    assert away["hand"]["legal"] is None  # the person no longer acts: their stand-in does
    played = _view(me, lambda m: any(e["seat"] == 0 for e in m["hand"]["history"]) or m["ended"])
    assert played["seats"][0]["away"] and played["seats"][0]["human"]  # still the person's seat, played for them
    # the person says they are back: the seat is theirs again, and their own move is the one applied
    me.send({"type": "back"})
    back = _view(me, lambda m: not m["seats"][0]["away"])
    assert back["seats"][0]["human"]
    mine = back if back["hand"]["legal"] is not None else _view(
        me, lambda m: m["hand"]["legal"] is not None or (0 in m["waiting"] and not m["seats"][0]["away"]), timeout=30)
    if 0 in mine["waiting"]:
        me.send({"type": "next"})
        mine = _view(me, lambda m: m["hand"]["legal"] is not None, timeout=30)
    action = simple_choice(mine)
    me.send({"type": "act", "action": action})
    after = _view(me, lambda m: m["version"] > mine["version"])
    assert after["hand"]["history"][len(mine["hand"]["history"])] == {"seat": 0, "action": action} or \
        after["hand"]["history"][len(mine["hand"]["history"])]["seat"] == 0
    me.close()
    # gone, then coming back by connecting again: the clock gives the seat away, the new connection takes it back
    deadline = time.monotonic() + 20
    while not online.call(lambda: table.seats[0].away):
        assert time.monotonic() < deadline, "the clock never ran out on a person who left the page"
        time.sleep(0.05)
    again = SeatClient(online.ws_base, table.id, table.seats[0].token)
    assert not _view(again, lambda m: True)["seats"][0]["away"]
    again.close()


def test_the_clock_is_off_by_default_and_a_table_of_the_lobby_chooses_its_own(online: Live) -> None:
    plain = httpx.post(online.base + "/api/tables", json={"humans": 1}, timeout=10).json()
    timed = httpx.post(online.base + "/api/tables", json={"humans": 1, "turn_seconds": 30}, timeout=10).json()
    assert online.play.tables[plain["table"]].turn_seconds is None
    assert online.play.tables[timed["table"]].turn_seconds == 30
    for bad in (0, -1, 1e9, True, "60"):
        refused = httpx.post(online.base + "/api/tables", json={"humans": 1, "turn_seconds": bad},
                             headers={"Accept-Language": "fr"}, timeout=10)
        assert refused.status_code == 400 and "turn_seconds" in refused.json()["error"], bad
    client = SeatClient(online.ws_base, plain["table"], plain["url"].split("token=")[1])
    assert _view(client, lambda m: True)["clock"] is None
    client.close()


# ------------------------------------------------------------------ names and leaving


def test_names_are_bounded_cleaned_and_kept_and_the_systems_names_stay_the_systems(online: Live) -> None:
    made = httpx.post(online.base + "/api/tables", json={"humans": 2, "name": "  <b>Ada</b>\u202e" + "x" * 80},
                      timeout=10).json()
    table, code = made["invites"][0]["url"].removeprefix("/join/").split("?invite=")
    joined = httpx.post(online.base + "/api/join", json={"table": table, "invite": code, "name": "Grace\nHopper"},
                        timeout=10).json()
    client = SeatClient(online.ws_base, table, joined["url"].split("token=")[1])
    seats = _view(client, lambda m: True)["seats"]
    assert seats[0]["display"] == ("<b>Ada</b>" + "x" * 80)[:24]  # text, cut at 24, the bidi override gone
    assert seats[1]["display"] == "Grace Hopper" and seats[1]["name"] == "you"
    assert seats[2]["display"] is None and seats[2]["name"] == "rule-aware bot"  # translated by the page
    client.send({"type": "name", "name": "G. H."})
    assert _view(client, lambda m: m["seats"][1]["display"] == "G. H.")
    page = httpx.get(online.base + made["url"], timeout=10).text
    assert "Ada" not in page  # no page is written with a name in it: the script sets it as text
    client.close()


def test_a_person_who_leaves_is_replaced_by_a_bot_for_good_even_after_a_restart(database: Path) -> None:
    store = SQLiteStore(database)
    with serving(PlayServer(bot_delay=0.0, store=store)) as live:
        table = _add(live, humans=[0, 1], seed=5)
        live.call(table.name, 0, "Ada")
        stay = SeatClient(live.ws_base, table.id, table.seats[0].token)
        go = SeatClient(live.ws_base, table.id, table.seats[1].token)
        view = _view(stay, lambda m: True)
        stay.send({"type": "act", "action": simple_choice(view)})  # seat 0, the Dealer, speaks first
        _view(go, lambda m: m["version"] > view["version"])
        go.send({"type": "leave"})
        left = go.until(lambda m: m["type"] == "left")
        assert "bot" in left["message"]
        with pytest.raises(ConnectionClosed) as closed:
            go.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == LEFT
        after = _view(stay, lambda m: not m["seats"][1]["human"])
        assert after["seats"][1]["left"] and after["seats"][1]["name"] == "rule-aware bot"
        refused = SeatClient(live.ws_base, table.id, table.seats[1].token)  # the link opens nothing now
        assert refused.hello["kind"] == "forbidden"
        told = _view(stay, lambda m: m["hand"]["legal"] is not None or m["ended"], timeout=30)
        stay.close()
    store.shutdown()
    store = SQLiteStore(database)
    with serving(PlayServer(bot_delay=0.0, store=store)) as live:
        again = SeatClient(live.ws_base, table.id, table.seats[0].token)
        view = _view(again, lambda m: True)
        assert not view["seats"][1]["human"] and view["hand"]["history"] == told["hand"]["history"]
        assert view["seats"][0]["display"] == "Ada"  # the name is kept with the seat
        watcher = _spectator(live, table)  # the same spectators' link works after the restart
        assert _view(watcher, lambda m: True)["hand"]["history"] == told["hand"]["history"]
        again.close()
        watcher.close()
    store.shutdown()


def test_a_version_1_database_is_migrated_and_its_tables_resume(database: Path) -> None:
    """A file written before people could come and go (schema 1) gains the new columns and tables, keeps its tables."""
    import sqlite3

    from hakka_play.store import MIGRATIONS, SCHEMA_VERSION, _statements

    table = Table(humans=[0], seed=12)
    kept: list[tuple[int, str, str]] = []

    class Journal:  # what the server's store would be told
        def moved(self, _table: Table, _n: int, move: Any) -> None:
            kept.append((move.seat, move.kind, move.action))

        def seated(self, _table: Table, _seat: int) -> None: ...

        def finished(self, _table: Table) -> None: ...

    table.journal = Journal()
    while len(kept) < 8 and table.to_act is not None:  # seat 0 plays its simple choice, the bots theirs
        table.act(0, simple_choice(table.view(0))) if table.to_act == 0 else table.play_bots(limit=1)
    with sqlite3.connect(database) as db:
        for statement in _statements(MIGRATIONS[0]):
            db.execute(statement)
        db.execute("PRAGMA user_version = 1")
        db.execute("INSERT INTO tables (id, created, seed, first_dealer, options, deals, bot, listed) "
                   "VALUES (?, 0, ?, 0, '{}', ?, 'rule', 0)", (table.id, table.seed, json.dumps(table.deals)))
        db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, '', ?)",
                       [(table.id, s.index, int(s.human), s.token, int(s.human)) for s in table.seats])
        db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                       [(table.id, n, seat, kind, action) for n, (seat, kind, action) in enumerate(kept)])
    store = SQLiteStore(database)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    (record,) = store.open_tables()
    assert record.turn_seconds is None and [s.name for s in record.seats] == [""] * 4
    back = Table.restore(record)
    assert len(kept) > 3 and back.view(0)["hand"] == table.view(0)["hand"] and back.watch  # a spectators' link of its own
    store.shutdown()


# ------------------------------------------------------------------ spectators


def test_every_message_a_spectator_receives_passes_the_seats_leak_probe(online: Live) -> None:
    """Four people and a spectator, whole games over real sockets: every spectator message is probed (OBS-1)."""
    probed = discards = 0
    for seed in (3, 8):
        table = _add(online, humans=[0, 1, 2, 3], seed=200 + seed)
        clients = [SeatClient(online.ws_base, table.id, table.seats[s].token) for s in range(4)]
        watcher = _spectator(online, table)
        assert watcher.hello["seat"] is None and watcher.hello["invite"] == []
        for c in [*clients, watcher]:
            _view(c, lambda m: True)
        while True:
            view = clients[0].view
            assert view is not None and not view["problem"]
            if view["game"]["over"]:
                break
            mover = next(c for c in clients if c.view and (c.view["hand"]["legal"] is not None
                                                          or c.view["seat"] in c.view["waiting"]))
            v = mover.view
            assert v is not None
            mover.send({"type": "next"} if v["seat"] in v["waiting"] else {"type": "act", "action": simple_choice(v)})
            for c in clients:
                c.until(lambda m, version=v["version"]: m["type"] == "view" and m["version"] > version)
            message = watcher.until(lambda m, version=v["version"]: m["type"] == "view" and m["version"] > version)
            shown = online.call(lambda t=table: t.ended if (t.waiting or t.over) and t.ended else t.current)
            check_spectator(message, shown.hand)
            probed += 1
            discards += sum(1 for e in message["hand"]["history"] if e.get("count"))
        refused = watcher.error_after({"type": "act", "action": "pass"})
        assert refused["kind"] == "refused" and "spectator" in refused["message"]
        for c in [*clients, watcher]:
            c.close()
    assert probed > 80 and discards > 20  # the probe was exercised: face-down discards were shown as counts


def _spectator(live: Live, table: Table) -> SeatClient:
    client = SeatClient.__new__(SeatClient)
    from websockets.sync.client import connect

    client.ws = connect(f"{live.ws_base}/ws/{table.id}?watch={table.watch}", open_timeout=10, close_timeout=2)
    client.received, client.view = [], None
    client.hello = client.recv()
    return client


def test_the_public_view_of_60_random_games_holds_only_what_anyone_may_know() -> None:
    """The spectator's view in-process after every move of many games and options (the socket test's property, wider)."""
    profiles = [Profile(), Profile.from_options({"D19": "face-up-and-discards"}),
                Profile.from_options({"D7": "any-suit", "D12": "may-discard"})]
    person, revealed = RandomBot(), 0
    for game in range(60):
        profile = profiles[game % len(profiles)]
        table = Table(humans=[0], seed=game, bot="random", profile=profile)
        rng = Random(game)
        while not table.over:
            if table.waiting:
                table.next_hand(0)
            else:
                seat = table.to_act
                assert seat is not None
                action = table.bot_action(seat) if seat else person.choose(table.view(0)["hand"],
                                                                          table.current.hand.legal_actions(), rng)
                table.act(seat, action)
            shown = table.ended if (table.waiting or table.over) and table.ended else table.current
            view = table.view(None)
            check_spectator(view, shown.hand, profile.elder_promotion == "face-up")
            revealed += view["hand"]["dreamer_card"] is not None
    assert revealed > 20  # a won hand shows the Dreamer's card to everyone, spectators included


def test_spectators_are_bounded_and_a_wrong_watch_token_opens_nothing(database: Path) -> None:
    with serving(PlayServer(bot_delay=0.0, limits=Limits(max_watchers=1))) as live:
        table = _add(live, humans=[0], seed=1)
        first = _spectator(live, table)
        second = _spectator(live, table)
        assert second.hello["kind"] == "refused" and "1 spectators" in second.hello["message"]
        assert httpx.get(f"{live.base}/table/{table.id}?watch=nope", timeout=10).status_code == 404
        assert httpx.get(f"{live.base}/table/{table.id}?watch={table.watch}", timeout=10).status_code == 200
        first.close()


# ------------------------------------------------------------------ every game kept


def _conformance(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_a_finished_game_is_kept_and_each_hand_is_a_scenario_that_check_and_run_accept(online: Live,
                                                                                        tmp_path: Path) -> None:
    made = httpx.post(online.base + "/api/tables", json={"humans": 1, "name": "Ada"}, timeout=10).json()
    client = SeatClient(online.ws_base, made["table"], made["url"].split("token=")[1])
    final = play_to_the_end(client)
    client.close()
    assert final["kept"] and final["kept"].startswith("/game/")
    assert httpx.get(online.base + final["kept"], timeout=10).status_code == 200  # the shareable page
    game = httpx.get(online.base + "/api/games/" + final["kept"].removeprefix("/game/"), timeout=10).json()
    assert game["scores"] == final["game"]["scores"] and game["seats"][0]["name"] == "Ada"
    assert len(game["scenarios"]) == len(game["hands"]) >= 4
    # the replay viewer opens it: every accepted action replays on the reference without a problem
    replay = httpx.get(online.base + "/api/replay", params={"id": game["replay"].split("id=")[1]}, timeout=60).json()
    moves = sum(len(h["steps"]) for h in game["hands"])
    assert replay["problem"] is None and len([s for s in replay["steps"] if s["kind"] == "do"]) == moves
    trace = httpx.get(online.base + game["trace"], timeout=10)
    assert "attachment" in trace.headers["content-disposition"]
    assert trace.json()["trace"]["steps"][0] == {"seat": game["hands"][0]["steps"][0]["seat"],
                                                 "do": game["hands"][0]["steps"][0]["do"]}
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for url in game["scenarios"]:
        answer = httpx.get(online.base + url, timeout=10)
        assert answer.status_code == 200 and "regression scenario" in answer.text
        (folder / url.rsplit("/", 1)[1]).write_text(answer.text, encoding="utf-8")
    checked = _conformance("check", "--scenarios", str(folder))
    assert checked.returncode == 0 and f"ok: {len(game['hands'])} scenario(s)" in checked.stdout, checked.stdout + checked.stderr
    engines = ["reference", f"cmd:{ENGINES / 'go-v2' / 'hakka-go'}", f"cmd:{ENGINES / 'rust-v3' / 'hakka-rust'}"]
    if shutil.which("node"):
        engines.append(f"cmd:node {ENGINES / 'js-v1' / 'engine.js'}")
    for engine in engines:
        ran = _conformance("run", "-q", "--scenarios", str(folder), "--engine", engine)
        assert ran.returncode == 0 and f"{len(game['hands'])} passed, 0 failed" in ran.stdout, (engine, ran.stdout)
    # the expectations are the recorded events: a wrong one fails the run (the scenario checks something)
    first = sorted(folder.iterdir())[0]
    text = first.read_text(encoding="utf-8")
    wrong = text.replace("- 0 pass\n", "- 0 call\n", 1) if "- 0 pass\n" in text else text.replace("- 0 call\n", "- 0 pass\n", 1)
    assert wrong != text
    first.write_text(wrong, encoding="utf-8")
    assert _conformance("run", "-q", "--scenarios", str(first)).returncode != 0


def test_keep_days_drops_old_games_and_their_links_answer_404(database: Path) -> None:
    clock = [1_000_000.0]
    store = SQLiteStore(database, now=lambda: clock[0])
    table = Table(humans=[], seed=9)
    table.play_bots()
    store.keep(table.kept(clock[0]))
    play = PlayServer(bot_delay=0.0, store=store, limits=Limits(keep_days=2))
    with serving(play) as live:
        url = f"{live.base}/api/games/{table.game_id}"
        assert httpx.get(url, timeout=10).json()["scores"] == list(table.game.scores)
        assert live.call(play.forget_old) == 1  # finished long before time.time() - 2 days
        assert httpx.get(url, timeout=10).status_code == 404
        assert httpx.get(f"{live.base}/game/{table.game_id}", timeout=10).status_code == 404
    assert store.forget(clock[0] + 1) == 0
    store.keep(table.kept(clock[0]))
    assert store.forget(clock[0]) == 0 and store.forget(clock[0] + 1) == 1  # strictly older than the bound
    store.shutdown()


def test_a_server_without_a_store_has_no_kept_games(live: Live) -> None:
    answer = httpx.get(live.base + "/api/games/0123456789abcdef", headers={"Accept-Language": "de"}, timeout=10)
    assert answer.status_code == 404 and "0123456789abcdef" in json.dumps(answer.json())

