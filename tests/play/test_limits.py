"""The lobby's bounds per client address and per socket, over real connections from two loopback addresses."""

from __future__ import annotations

import json
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("websockets", reason="the play extra's test client: pip install -e '.[play]'")

from hakka_play.doors import Limits  # noqa: E402
from hakka_play.server import PlayServer  # noqa: E402

from .client import SeatClient  # noqa: E402
from .conftest import serving  # noqa: E402


def _from(address: str) -> Any:  # an httpx.Client
    """A client whose connections leave from ``address`` (any of 127.0.0.0/8 reaches the server on 127.0.0.1)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def test_tables_per_address_hold_for_each_address_and_refuse_with_a_clear_message() -> None:
    with serving(PlayServer(bot_delay=0.0, limits=Limits(max_tables_per_address=2))) as live, \
            _from("127.0.0.2") as two, _from("127.0.0.3") as three:
        made = [two.post(live.base + "/api/tables", json={"humans": 1}) for _ in range(2)]
        assert [r.status_code for r in made] == [200, 200]
        refused = two.post(live.base + "/api/tables", json={"humans": 1}, headers={"Accept-Language": "de"})
        assert refused.status_code == 429
        assert "2 offene Tische" in refused.json()["error"] and "--max-tables-per-address" in refused.json()["error"]
        # another address has its own bound
        assert [three.post(live.base + "/api/tables", json={"humans": 1}).status_code for _ in range(3)] == [200, 200, 429]
        owners = sorted(held.address for held in live.play.open.values())
        assert owners == ["127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"]
        # a finished table no longer counts against its address
        live.call(lambda: setattr(live.play.open[made[0].json()["table"]].table, "problem", "over"))
        assert two.post(live.base + "/api/tables", json={"humans": 1}).status_code == 200


def test_messages_per_second_per_socket_are_bounded_and_the_rest_refused_unread() -> None:
    with serving(PlayServer(bot_delay=0.0, limits=Limits(messages_per_second=5))) as live:
        body = httpx.post(live.base + "/api/tables", json={"humans": 1}, timeout=10).json()
        client = SeatClient(live.ws_base, body["table"], body["url"].split("token=")[1])
        client.until(lambda m: m["type"] == "view")
        for _ in range(12):  # out of turn or not, each read message is answered; past 5 a second, unread
            client.send(json.dumps({"type": "next"}))
        answers = [client.until(lambda m: m["type"] == "error") for _ in range(12)]
        flood = [a for a in answers if "--messages-per-second" in a["message"]]
        assert len(flood) >= 12 - 5 - 1 and all(a["kind"] == "refused" for a in flood)
        assert len(answers) - len(flood) <= 6  # the read ones: "no ended hand to move on from"
        client.close()
