"""The table server over real HTTP and WebSocket connections to a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("websockets", reason="the play extra's test client: pip install -e '.[play]'")

from hakka_play.table import Table  # noqa: E402
from reference_engine import Profile  # noqa: E402

from .client import SeatClient, simple_choice  # noqa: E402
from .hidden import check_message  # noqa: E402


def _table(live, **kwargs) -> Table:
    table: Table = live.call(live.play.add_table, Table(**kwargs))
    return table


def _my_turn(view) -> bool:
    return view["hand"]["legal"] is not None


def play_to_the_end(client: SeatClient, limit: int = 2000) -> dict[str, Any]:
    """Play one seat through a whole game: act on its turn, press Next hand after each hand."""
    view = client.view or client.until(lambda m: m["type"] == "view")
    acted = 0
    while not view["game"]["over"]:
        if view["seat"] in view["waiting"] and not view["game"]["over"]:
            client.send({"type": "next"})
        elif _my_turn(view):
            client.send({"type": "act", "action": simple_choice(view)})
            acted += 1
        else:
            pass
        before = view["version"]
        view = client.until(lambda m, before=before: m["type"] == "view" and (m["version"] != before or m is None))
        assert acted < limit
    return view


def test_a_whole_game_against_bots_over_http_and_websocket(live) -> None:
    created = httpx.post(f"{live.base}/api/tables", json={"humans": 1}, timeout=10)
    assert created.status_code == 200
    body = created.json()
    assert body["seat"] == 0 and body["invites"] == []
    page = httpx.get(live.base + body["url"], timeout=10)
    assert page.status_code == 200 and "table.js" in page.text
    token = body["url"].split("token=")[1]
    client = SeatClient(live.ws_base, body["table"], token)
    assert client.hello["type"] == "hello" and "PLAY-4" in client.hello["links"]
    final = play_to_the_end(client)
    assert final["game"]["over"] and final["game"]["hands_played"] == 4
    assert len(final["game"]["results"]) >= 4
    assert sum(final["game"]["scores"]) == 0  # SCORE-7, as the engine reports it
    client.close()


def test_out_of_turn_other_seat_garbage_and_forged_tokens_are_refused_and_the_table_goes_on(live) -> None:
    table = _table(live, humans=[0, 1], seed=11)
    seat0 = SeatClient(live.ws_base, table.id, table.seats[0].token)
    seat1 = SeatClient(live.ws_base, table.id, table.seats[1].token)
    seat0.until(lambda m: m["type"] == "view")
    seat1.until(lambda m: m["type"] == "view")
    version = table.version
    assert table.game.to_act == 0  # CALL-1: the Dealer (seat 0) speaks first
    # the first person's page offers the invitation of every seat nobody has taken; no page holds a token
    assert [link["seat"] for link in seat0.hello["invite"]] == [1] and seat1.hello["invite"] == []
    assert table.seats[1].token not in str(seat0.hello)

    out_of_turn = seat1.error_after({"type": "act", "action": "call"})
    assert out_of_turn["kind"] == "illegal" and out_of_turn["rule"] == "CALL-1"
    assert out_of_turn["href"] == "/rulebook/en/rules/call.html#call-1"  # the rulebook of the socket's language

    for_another = seat1.error_after({"type": "act", "seat": 0, "action": "call"})
    assert for_another["rule"] == "GAME-5" and "seat 1" in for_another["message"]

    bad_card = seat0.error_after({"type": "act", "action": "play Sup10"})
    assert bad_card["kind"] == "malformed" and bad_card["rule"] == "CARDS-1"
    wrong_phase = seat0.error_after({"type": "act", "action": "play Sup1"})
    assert wrong_phase["kind"] == "illegal" and wrong_phase["rule"] == "CALL-1"
    not_yet = seat0.error_after({"type": "next"})
    assert not_yet["kind"] == "refused"

    for token in ("forged", table.seats[2].token, table.seats[0].token[:-1] + "A"):
        if token == table.seats[0].token:
            continue
        forged = SeatClient(live.ws_base, table.id, token)
        assert forged.hello == {"type": "error", "kind": "forbidden", "message": "no such table or seat token",
                                "rule": None, "href": None, "title": None} or forged.hello["type"] == "error"
        with pytest.raises(Exception):  # noqa: B017 - any end of the socket will do; the close code is checked next
            forged.recv(timeout=5)  # closed by the server (4403)
        assert forged.ws.close_code == 4403
    assert httpx.get(f"{live.base}/table/{table.id}?token=forged", timeout=10).status_code == 404

    assert table.version == version, "a refused message changed the table"
    seat0.send({"type": "act", "action": "pass"})
    after = seat1.until(lambda m: m["type"] == "view" and m["version"] > version)
    assert after["hand"]["history"] == [{"seat": 0, "action": "pass"}]
    assert after["hand"]["to_act"] == 1 and _my_turn(after)  # the table went on: seat 1 speaks next
    for client in (seat0, seat1):
        for message in client.received:
            if message["type"] == "view":
                assert "hands" not in message["hand"]
    seat0.close()
    seat1.close()


def test_a_closed_tab_reconnects_to_its_seat(live) -> None:
    table = _table(live, humans=[0], seed=5)
    first = SeatClient(live.ws_base, table.id, table.seats[0].token)
    view = first.until(lambda m: m["type"] == "view")
    hand = view["hand"]["hand"]
    first.send({"type": "act", "action": "call"})
    first.until(lambda m: m["type"] == "view" and m["version"] > view["version"])
    first.close()
    again = SeatClient(live.ws_base, table.id, table.seats[0].token)
    back = again.until(lambda m: m["type"] == "view")
    assert back["seat"] == 0 and back["hand"]["history"][0] == {"seat": 0, "action": "call"}
    assert set(back["hand"]["hand"].split()) <= set(hand.split())
    final = play_to_the_end(again)
    assert final["game"]["over"]
    again.close()


def test_every_message_over_real_sockets_fits_what_its_seat_may_know(live) -> None:
    """Four people at one table, several games: every message each receives is checked (OBS-1)."""
    for seed in range(8):
        table = _table(live, humans=[0, 1, 2, 3], seed=100 + seed)
        clients = [SeatClient(live.ws_base, table.id, table.seats[s].token) for s in range(4)]
        for c in clients:
            c.until(lambda m: m["type"] == "view")
        checked = 0
        while True:
            view = clients[0].view
            assert view is not None
            assert not view["problem"]
            if view["game"]["over"]:
                break
            mover = next((c for c in clients if c.view and (c.view["hand"]["legal"] is not None
                                                            or c.view["seat"] in c.view["waiting"])), None)
            assert mover is not None, [(c.view["version"], c.view["waiting"], c.view["hand"]["to_act"], c.view["ended"],
                                        table.to_act, table.waiting, table.version) for c in clients if c.view is not None]
            v = mover.view
            assert v is not None
            mover.send({"type": "next"} if v["seat"] in v["waiting"] else {"type": "act", "action": simple_choice(v)})
            version = v["version"]
            for c in clients:
                message = c.until(lambda m, version=version: m["type"] == "view" and m["version"] > version)
                shown = live.call(lambda t=table: t.ended if (t.waiting or t.over) and t.ended else t.current)
                assert c.view is not None  # until() has just received a view
                check_message(message, shown.hand, c.view["seat"])
                checked += 1
        assert checked > 40
        for c in clients:
            c.close()


def test_http_pages_and_refusals(live) -> None:
    assert httpx.get(live.base + "/", timeout=10).status_code == 200
    spec = httpx.get(live.base + "/api/spec", timeout=10).json()
    assert any(d["id"] == "D7" for d in spec["decisions"])
    bad = httpx.post(f"{live.base}/api/tables", json={"humans": 1, "options": {"D7": "every-suit"}}, timeout=10)
    assert bad.status_code == 400 and bad.json()["rule"] == "D7"
    assert httpx.post(f"{live.base}/api/tables", content=b"{", headers={"Content-Type": "application/json"},
                      timeout=10).status_code == 400
    assert httpx.post(f"{live.base}/api/tables", json={"humans": 9}, timeout=10).status_code == 400
    ok = httpx.post(f"{live.base}/api/tables", json={"humans": 2, "options": {"D7": "any-suit"}}, timeout=10).json()
    assert ok["seat"] == 0 and len(ok["invites"]) == 1
    table = live.play.tables[ok["table"]]
    assert table.profile == Profile.from_options({"D7": "any-suit"})
    rules = httpx.get(live.base + "/rulebook/rules/play.html", timeout=10, follow_redirects=True)
    assert rules.status_code == 200 and 'id="play-4"' in rules.text
    replay = httpx.get(live.base + "/api/replay", params={"id": "obs-discard-hidden-from-others"}, timeout=10)
    assert replay.status_code == 200 and replay.json()["steps"][0]["state"]["hands"][2] == "Zok7"
    for ref in ("../../pyproject.toml", "/etc/passwd", "no-such-scenario"):
        assert httpx.get(live.base + "/api/replay", params={"id": ref}, timeout=10).status_code == 404
    assert httpx.get(live.base + "/static/cards.css", timeout=10).status_code == 200


def test_the_rulebook_links_open_the_book_in_the_readers_language_from_whichever_build_exists(live, tmp_path, monkeypatch) -> None:
    """Issue 30 §4.1-2: a link names its language (/rulebook/<lang>/…); the five-language build
    (docs/_build/html/<lang>/) serves it, else the English build of either command, else spec/'s clauses in
    the reader's words; a link without a language goes to the reader's. Never 'not built' when a build exists."""
    import httpx

    from hakka_play import server

    def page(folder, text):
        (folder / "rules").mkdir(parents=True, exist_ok=True)
        (folder / "rules" / "play.html").write_text(f'<html><section id="play-4">{text}</section></html>', encoding="utf-8")

    five = tmp_path / "five"
    for lang in ("en", "ar"):
        page(five / lang, f"book in {lang}")
    monkeypatch.setattr(server, "BUILT_RULEBOOK", five)
    get = lambda path, **kw: httpx.get(live.base + path, timeout=10, **kw)  # noqa: E731
    moved = get("/rulebook/rules/play.html", headers={"Accept-Language": "ar"})
    assert moved.status_code == 307 and moved.headers["location"] == "/rulebook/ar/rules/play.html"
    assert get("/rulebook/ar/rules/play.html").text.endswith("book in ar</section></html>")
    assert "book in en" in get("/rulebook/hi/rules/play.html").text  # Hindi not built: the English book, not a 'not built' page
    assert get("/rulebook/ar/../../../pyproject.toml").status_code in (200, 404) and "[project]" not in get(
        "/rulebook/ar/../../../pyproject.toml").text
    single = tmp_path / "single"
    page(single, "the English build of sphinx-build docs docs/_build/html")
    monkeypatch.setattr(server, "BUILT_RULEBOOK", single)
    assert "sphinx-build" in get("/rulebook/de/rules/play.html").text
    monkeypatch.setattr(server, "BUILT_RULEBOOK", tmp_path / "none")
    plain = get("/rulebook/de/rules/play.html").text
    assert "python -m docs.build_all" in plain and "Das Regelbuch ist hier nicht gebaut" in plain
    from conformance.rulebook import Rulebook
    from hakka_play.i18n import rulebook_text

    title = Rulebook.default().title("PLAY-4")
    assert rulebook_text("de", title) != title and rulebook_text("de", title) in plain  # the clause's German title
    client_links = live.play.book_href("PLAY-4", "hi")
    assert client_links == "/rulebook/hi/rules/play.html#play-4"
