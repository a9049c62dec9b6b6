"""Two people in two headless Chromium browsers play one hand at one table (two bots at the others), and
each one's network drops in turn: the page says so, retries with backoff, and comes back to the same hand.

Each browser reaches the server through a :class:`Cable` of its own, a TCP relay on loopback that the test
cuts as a network would (every connection reset, new ones refused) and mends again; the other browser,
the bots and the server go on meanwhile. The server is a real uvicorn server on a real SQLite file.
Browser A reads English, browser B Arabic; the screenshots of both, disconnected and back, are in
reports/screenshots/ (reconnect-*.png).
"""

from __future__ import annotations

import re
import selectors
import socket
import struct
import threading
import time
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the play extra: pip install -e '.[play]'")
pytest.importorskip("selenium", reason="selenium is in the `play` extra")

from selenium.webdriver.common.by import By

from hakka_play.server import PlayServer
from hakka_play.store import SQLiteStore
from hakka_play.table import Table

from .client import simple_choice
from .conftest import serving
from .test_browser import SHOTS, browser, chromium, pytestmark, wait  # noqa: F401 - the fixture, the skip


def _reset(sock: socket.socket) -> None:
    """Close ``sock`` with a TCP reset, as a dropped network path or a crashed peer leaves it."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


class Cable(threading.Thread):
    """A TCP relay from a port of its own to the server's: one browser's network, which the test can cut."""

    def __init__(self, target: int) -> None:
        super().__init__(daemon=True, name="cable")
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.setblocking(False)
        self.port = int(self.listener.getsockname()[1])
        self.up = True
        self.cuts = 0
        self._cut = threading.Event()
        self._done = threading.Event()
        self._closing = False
        self.peer: dict[socket.socket, socket.socket] = {}
        self.start()

    def cut(self) -> None:
        """Reset every connection under way, and refuse new ones until :meth:`mend`."""
        self.up = False
        self._done.clear()
        self._cut.set()
        assert self._done.wait(5), "the cable was not cut"
        self.cuts += 1

    def mend(self) -> None:
        self.up = True

    def close(self) -> None:
        self._closing = True
        self.join(5)

    def run(self) -> None:
        sel = selectors.DefaultSelector()
        sel.register(self.listener, selectors.EVENT_READ)
        while not self._closing:
            if self._cut.is_set():
                for sock in list(self.peer):
                    sel.unregister(sock)
                    _reset(sock)
                self.peer.clear()
                self._cut.clear()
                self._done.set()
            for key, _events in sel.select(0.02):
                ready = key.fileobj
                assert isinstance(ready, socket.socket)
                if ready is self.listener:
                    self._accept(sel)
                elif ready in self.peer:
                    self._relay(sel, ready)
        for sock in [*self.peer, self.listener]:
            sock.close()

    def _accept(self, sel: selectors.BaseSelector) -> None:
        try:
            conn, _address = self.listener.accept()
        except BlockingIOError:
            return
        if not self.up:
            _reset(conn)
            return
        try:
            server = socket.create_connection(("127.0.0.1", self.target), timeout=5)
        except OSError:
            _reset(conn)
            return
        for one, other in ((conn, server), (server, conn)):
            one.setblocking(True)
            one.settimeout(5)
            self.peer[one] = other
            sel.register(one, selectors.EVENT_READ)

    def _relay(self, sel: selectors.BaseSelector, sock: socket.socket) -> None:
        other = self.peer[sock]
        try:
            data = sock.recv(65536)
            if data:
                other.sendall(data)
                return
        except OSError:
            pass
        for end in (sock, other):  # one end closed: so does the other
            if end in self.peer:
                sel.unregister(end)
                del self.peer[end]
                end.close()


@pytest.fixture
def second_browser(tmp_path):
    driver = chromium(tmp_path / "second")
    yield driver
    driver.quit()


def _attempt(status: str) -> int | None:
    """The attempt's number that the header's countdown ends with, "(attempt 2)", in any script's digits."""
    found = re.search(r"\(\D*(\d+)\)", status)
    return int(found.group(1)) if found else None


def _status(driver) -> tuple[str, str]:
    conn = driver.find_element(By.ID, "conn")
    return conn.get_attribute("class") or "", conn.text


def _version(driver) -> str | None:
    version = driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    return None if version is None else str(version)


PAGE = """const shown = (id) => !document.getElementById(id).hidden;
return {status: document.getElementById("conn").textContent, conn: document.getElementById("conn").className,
        button: shown("reconnect-now"), note: shown("offline") && document.getElementById("offline").textContent,
        body: document.body.className, version: document.body.dataset.version};"""
"""What the page shows of its connection, read at one instant."""


def _click(driver, action: str) -> None:
    """Do ``action`` on the page as a person would: a verb's button, a play's chip, or the cards and Discard."""
    verb, *cards = action.split()
    if verb == "play":
        driver.find_element(By.CSS_SELECTOR, f'button.pl-chip[data-action="{action}"]').click()
    elif verb == "discard":
        for card in cards:
            driver.find_element(By.CSS_SELECTOR, f'.pl-handcards [data-card="{card}"]').click()
        driver.find_element(By.ID, "discard-selected").click()
    else:
        driver.find_element(By.CSS_SELECTOR, f'button[data-verb="{verb}"]').click()


def test_two_browsers_play_a_hand_and_each_comes_back_after_its_network_drops(tmp_path, browser, second_browser) -> None:  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    with serving(PlayServer(bot_delay=0.05, store=store)) as live:
        port = int(live.base.rsplit(":", 1)[1])
        cables = {"en": Cable(port), "ar": Cable(port)}
        try:
            # seats 0 and 1 are people (seat 2 is the first hand's Dreamer), each acts in several rounds
            table = live.call(live.play.add_table, Table(humans=[0, 1], seed=7))
            drivers = {"en": browser, "ar": second_browser}
            base = {lang: f"http://127.0.0.1:{cable.port}" for lang, cable in cables.items()}
            # A opens seat 0's link; B follows the invitation to seat 1, in Arabic
            browser.get(f"{base['en']}/table/{table.id}?token={table.seats[0].token}&lang=en")
            invite = next(code for seat, code in table.invitations() if seat == 1)
            second_browser.get(f"{base['ar']}/join/{table.id}?invite={invite}&lang=ar")
            wait(lambda: second_browser.find_element(By.ID, "join-button").is_displayed(), what="the invitation")
            second_browser.find_element(By.ID, "join-button").click()
            wait(lambda: "/table/" in second_browser.current_url, what="B's seat page")
            seats = {"en": 0, "ar": 1}
            for lang, driver in drivers.items():
                wait(lambda driver=driver: "pl-ok" in _status(driver)[0] and _version(driver), what=f"{lang}'s view")
            assert second_browser.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
            hand = table.current
            dropped: dict[str, dict[str, Any]] = {}

            def drop(lang: str) -> None:
                """Cut ``lang``'s network while another seat is to act; see the page say so and back off."""
                driver = drivers[lang]
                cables[lang].cut()
                # the second countdown: the first try after the drop failed, and the wait doubled (the attempt's
                # number in the page's digits: Arabic writes ٢, which re's \d and int() read as 2)
                page = wait(lambda: (lambda p: p if _attempt(p["status"]) == 2 and p["button"] else None)(
                    driver.execute_script(PAGE)), what=f"{lang}'s second countdown after the drop")
                assert page["note"] and "pl-offline" in page["body"] and "pl-retrying" in page["conn"], page
                driver.save_screenshot(str(SHOTS / f"reconnect-dropped-{lang}.png"))
                dropped[lang] = page

            def mend(lang: str) -> None:
                driver = drivers[lang]
                if lang == "ar":
                    # B does not wait for its next try: when the countdown says 4 s or more, the button tries now
                    wait(lambda: (lambda p: p["button"] and int(re.findall(r"\d+", p["status"])[0]) >= 4)(
                        driver.execute_script(PAGE)), timeout=30, what="a countdown of 4 s or more")
                    cables[lang].mend()
                    driver.find_element(By.ID, "reconnect-now").click()
                    clicked = time.monotonic()
                    wait(lambda: "pl-ok" in _status(driver)[0], what="B back, at the button's try")
                    assert time.monotonic() - clicked < 3, "B came back at the button's try, not at the timer's"
                else:
                    cables[lang].mend()
                wait(lambda: "pl-ok" in _status(driver)[0] and _version(driver) == str(table.version),
                     timeout=30, what=f"{lang}'s page back at the table's version {table.version}")
                assert not driver.find_element(By.ID, "offline").is_displayed()
                assert table.game.hands_played == 0 and table.current is hand, "the same hand"
                driver.save_screenshot(str(SHOTS / f"reconnect-back-{lang}.png"))

            while table.ended is None:
                seat = live.call(lambda: table.to_act)
                person = next((name for name, s in seats.items() if s == seat), None)
                if person is None:  # a bot's turn
                    version = table.version
                    wait(lambda version=version: table.version > version or table.ended is not None, what="a bot")
                    continue
                other = "ar" if person == "en" else "en"
                driver = drivers[person]
                if other not in dropped and table.current.hand.phase == "playing":
                    # the other person's network drops while this one plays on: the table moves on without them
                    drop(other)
                    behind = table.version
                    assert dropped[other]["version"] == str(behind)
                    action = simple_choice(live.call(table.view, seat))
                    _click(driver, action)
                    wait(lambda behind=behind: table.version > behind, what=f"{person}'s {action}")
                    wait(lambda: live.call(lambda: table.to_act) in (None, *seats.values()),
                         timeout=30, what="the bots to play up to a person's turn")
                    assert _version(drivers[other]) == str(behind), "a dropped page hears nothing"
                    mend(other)
                    continue
                wait(lambda driver=driver: _version(driver) == str(table.version)
                     and driver.find_element(By.TAG_NAME, "body").get_attribute("data-to-act") == "me",
                     what=f"{person}'s turn on its page")
                version = table.version
                action = simple_choice(live.call(table.view, seat))
                _click(driver, action)
                wait(lambda version=version: table.version > version, what=f"{person}'s {action}")
            assert set(dropped) == {"en", "ar"}, f"the hand ended before both dropped ({sorted(dropped)})"
            for lang, driver in drivers.items():
                wait(lambda driver=driver: driver.find_element(By.ID, "ended").is_displayed(), what=f"{lang}'s end")
            assert "The hand is over" in browser.find_element(By.ID, "ended").text
            browser.save_screenshot(str(SHOTS / "reconnect-hand-over-en.png"))
            second_browser.save_screenshot(str(SHOTS / "reconnect-hand-over-ar.png"))
        finally:
            for cable in cables.values():
                cable.close()
    store.shutdown()
    # what each page said while its network was down, in its language
    assert "trying again in" in str(dropped["en"]["status"]) and "reconnects by itself" in str(dropped["en"]["note"])
    assert "محاولة جديدة" in str(dropped["ar"]["status"]) and "مقعدك محفوظ" in str(dropped["ar"]["note"])
    assert live.errors == []
