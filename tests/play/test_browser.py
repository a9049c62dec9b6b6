"""End to end in a real headless browser: Debian's chromium through Selenium plays a whole hand by clicking.

Seat 0 is the person; the test decides what to play with the rule-aware bot's choice for that seat
(asked of the server's own table) and does it by clicking the cards and buttons of the page. The deal
is one where seat 0 gets to claim, so the screenshots show the table, a claim and the end-of-hand
scores (reports/screenshots/). Every card drawn on the page is one that seat may know.
Skipped, with the reason, where chromium or its driver is not installed
(Debian: apt-get install chromium chromium-driver fonts-noto-core).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from random import Random

import pytest

from conformance.play.bots import RuleBot
from conformance.play.table import Table
from reference_engine import Action, Cards

from .hidden import knowable

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SHOTS = Path(__file__).resolve().parents[2] / "reports" / "screenshots"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no chromium/chromedriver here (Debian: apt-get install chromium chromium-driver fonts-noto-core)",
)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the `play` extra")
from selenium.webdriver.common.by import By  # noqa: E402


def seat0_claims_first_hand(seed: int) -> bool:
    """Simulate the table with the rule-aware bot at seat 0: is seat 0 offered a claim in hand 1?"""
    table = Table(humans=[], seed=seed, bots={0: RuleBot()})
    hand = table.current.hand
    while hand.result is None:
        if hand.phase == "claim" and hand.to_act == 0:
            return True
        seat = table.to_act
        assert seat is not None
        table.act(seat, table.bot_action(seat))
    return False


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait(predicate, timeout: float = 20, what: str = "the page"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_whole_hand_played_by_clicking_in_chromium(live, browser) -> None:
    seed = next(s for s in range(200) if seat0_claims_first_hand(s))
    live.play.bot_delay = 0.05
    table = live.call(live.play.add_table, Table(humans=[0], seed=seed))
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.get(f"{live.base}/table/{table.id}?token={table.seats[0].token}")
    body = browser.find_element(By.TAG_NAME, "body")
    wait(lambda: body.get_attribute("data-phase"), what="the first view")
    shots: dict[str, Path] = {}
    clicks = 0
    me = RuleBot()
    while True:
        state = wait(lambda: body.get_attribute("data-version") == str(table.version) and (
            body.get_attribute("data-phase") == "ended" or body.get_attribute("data-to-act") == "me"),
            what="seat 0's turn or the end of the hand")
        assert state
        hand = table.current.hand if body.get_attribute("data-phase") != "ended" else table.ended.hand
        allowed = knowable(hand, 0) | hand.elders
        drawn = set(browser.execute_script(
            "return [...document.querySelectorAll('.hk-card[data-card]')].map(e => e.dataset.card)"))
        assert not Cards.parse(" ".join(drawn)).mask & ~allowed, "the page draws a card seat 0 may not know"
        if body.get_attribute("data-phase") == "ended":
            break
        phase = body.get_attribute("data-phase")
        action: Action = live.call(lambda: me.choose(table._hand_view(table.current, 0),
                                                     table.current.hand.legal_actions(), Random(0)))
        if phase == "playing" and "table" not in shots and table.current.rounds:
            shots["table"] = SHOTS / "table.png"
            browser.save_screenshot(str(shots["table"]))
        if phase == "claim":
            shots["claim"] = SHOTS / "claim.png"
            browser.save_screenshot(str(shots["claim"]))
        version = table.version
        if action.verb in ("play", "discard"):
            for card in action.cards:
                browser.find_element(By.CSS_SELECTOR, f'.pl-handcards [data-card="{card}"]').click()
                clicks += 1
            button = browser.find_element(By.ID, "play-selected" if action.verb == "play" else "discard-selected")
            assert button.is_enabled(), f"{action} selected by clicking, but its button is disabled"
            button.click()
        else:
            browser.find_element(By.CSS_SELECTOR, f'button[data-verb="{action.verb}"]').click()
        clicks += 1
        wait(lambda version=version: table.version > version, what=f"the server to receive {action}")
    panel = browser.find_element(By.ID, "ended")
    assert panel.is_displayed() and "The hand is over" in panel.text and "won by a claim" in panel.text
    assert "You won" in panel.text
    shots["scores"] = SHOTS / "end-of-hand-scores.png"
    browser.save_screenshot(str(shots["scores"]))
    assert table.ended is not None and table.ended.hand.result.winner == 0
    assert set(shots) == {"table", "claim", "scores"} and clicks > 5
    browser.find_element(By.ID, "next-hand").click()
    wait(lambda: body.get_attribute("data-phase") not in ("ended", None), what="the next hand")
    assert table.game.results and table.waiting == set()


def test_the_replay_viewer_steps_through_a_scenario(live, browser) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.get(f"{live.base}/replay")
    wait(lambda: "obs-discard-hidden-from-others" in browser.find_element(By.ID, "page").text, what="the index")
    browser.get(f"{live.base}/replay/view?id=obs-discard-hidden-from-others")
    steps = wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rp-steps li"), what="the steps")
    assert len(steps) == 5
    for _ in range(4):
        browser.find_element(By.ID, "next").click()
    main = browser.find_element(By.CSS_SELECTOR, ".rp-main")
    assert "seat 3: discard Sin1 Sin2 Sin3" in main.text and "Expected after this step" in main.text
    # every seat's cards are drawn: 9 + 9 + the Dreamer's 1 + 9
    assert len(main.find_elements(By.CSS_SELECTOR, ".rp-seat .hk-card")) == 28
    browser.save_screenshot(str(SHOTS / "replay.png"))
    browser.get(f"{live.base}/replay/view?id=setup-card-twice-in-one-holding")
    wait(lambda: "The setup sent" in browser.find_element(By.ID, "page").text, what="a refused setup")
    assert "refuses it (bad-setup)" in browser.find_element(By.ID, "page").text
    browser.get(f"{live.base}/replay/view?id=no-such-scenario")
    wait(lambda: "no scenario" in browser.find_element(By.ID, "page").text, what="the error")
