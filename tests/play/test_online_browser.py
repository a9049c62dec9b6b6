"""The online table's pages in headless Chromium: the clock's away banner and the return, a spectator's page,
a kept game's page, the lobby's name and clock, in English and Arabic (screenshots in reports/screenshots)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hakka_play.server import PlayServer
from hakka_play.store import SQLiteStore
from hakka_play.table import Table

from .conftest import Live, serving
from .test_browser import CHROMIUM, DRIVER, SHOTS, browser, wait  # noqa: F401 - the fixture, shared

pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason="no chromium/chromedriver here")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the `play` extra")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


@pytest.fixture
def kept_server(tmp_path: Path) -> Iterator[Live]:
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    with serving(PlayServer(bot_delay=0.3, store=store)) as live:
        yield live
    store.shutdown()


def _shown(driver: Any, element_id: str) -> bool:
    return bool(driver.execute_script(f"const e = document.getElementById('{element_id}'); return e && !e.hidden;"))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_away_back_spectator_and_kept_game_pages(kept_server: Live, browser: Any, lang: str) -> None:  # noqa: F811
    live = kept_server
    table: Table = live.call(live.play.add_table, Table(humans=[0, 1], seed=21, turn_seconds=1.5))
    live.call(table.name, 1, "<i>Zoë</i> \u0646\u0648\u0631")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.get(f"{live.base}/table/{table.id}?token={table.seats[0].token}&lang={lang}")
    wait(lambda: _shown(browser, "clock"), what="the turn clock")
    assert browser.find_element(By.ID, "clock").text
    wait(lambda: _shown(browser, "away"), what="the away banner once the clock ran out")
    right = "const e = document.getElementById('pos-right'); return [e.textContent, e.querySelectorAll('i').length];"
    names, markup = browser.execute_script(right)  # seat 1, right of seat 0
    assert "<i>Zoë</i>" in names and markup == 0  # the name as text, never as markup
    browser.save_screenshot(str(SHOTS / f"online-away-{lang}.png"))
    browser.execute_script("document.getElementById('back').click();")  # the bots redraw the page meanwhile
    wait(lambda: not _shown(browser, "away"), what="the seat handed back")
    assert _shown(browser, "watch") and table.watch in browser.find_element(By.ID, "watch-link").text
    # a spectator's page: the table, no hand, no actions, no leaving
    browser.get(f"{live.base}/table/{table.id}?watch={table.watch}&lang={lang}")
    wait(lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-version"), what="the spectator's view")
    assert _shown(browser, "watching") and not _shown(browser, "mine") and not _shown(browser, "leave")
    browser.save_screenshot(str(SHOTS / f"online-spectator-{lang}.png"))
    # a kept game's page
    done = Table(humans=[], seed=4)
    done.play_bots()
    live.call(live.play.store.keep, done.kept(1.7e9))
    browser.get(f"{live.base}/game/{done.game_id}?lang={lang}")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#hands li"), what="the kept game's hands")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#hands li a[download]")) == len(done.hands)
    assert browser.find_element(By.ID, "replay").get_attribute("href").endswith(f"id=game:{done.game_id}")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
    browser.save_screenshot(str(SHOTS / f"online-game-{lang}.png"))
    browser.find_element(By.ID, "replay").click()
    wait(lambda: len(browser.window_handles) == 1 and "replay" in browser.current_url, what="the replay viewer")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rp-label"), what="the kept game's steps in the viewer")


def test_the_lobby_creates_a_listed_table_with_a_name_and_a_clock(kept_server: Live, browser: Any) -> None:  # noqa: F811
    live = kept_server
    browser.get(f"{live.base}/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#decisions select"), what="the lobby's options")
    browser.find_element(By.ID, "name").send_keys("Ada")
    Select(browser.find_element(By.ID, "clock")).select_by_value("60")
    Select(browser.find_element(By.ID, "humans")).select_by_visible_text("2")
    browser.find_element(By.ID, "listed").click()
    browser.find_element(By.CSS_SELECTOR, "#create button[type=submit]").click()
    wait(lambda: "/table/" in browser.current_url, what="the creator's seat")
    (table,) = live.play.tables.values()
    assert table.turn_seconds == 60 and table.seats[0].name == "Ada" and table.listed
    wait(lambda: _shown(browser, "clock"), what="the clock at the creator's turn")
    browser.get(f"{live.base}/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".pl-opentable"), what="the listed table")
    row = browser.find_element(By.CSS_SELECTOR, ".pl-opentable")
    assert "Ada" in row.text and "60" in row.text
    assert row.find_element(By.LINK_TEXT, "Watch").get_attribute("href").endswith(f"watch={table.watch}")
    browser.save_screenshot(str(SHOTS / "online-lobby-en.png"))
