"""End to end in a real headless browser: Debian's chromium through Selenium plays a whole hand by clicking.

Seat 0 is the person; the test decides what to play with the rule-aware bot's choice for that seat
(asked of the server's own table) and does it by clicking the cards and buttons of the page. The deal
is one where seat 0 gets to claim, so the screenshots show the table, a claim and the end-of-hand
scores (reports/screenshots/). Every card drawn on the page is one that seat may know.
Skipped, with the reason, where chromium or its driver is not installed
(Debian: apt-get install chromium chromium-driver fonts-noto-core).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from random import Random

import pytest

from conformance.specdata import book_languages
from hakka_play.bots import RuleBot
from hakka_play.i18n import number
from hakka_play.table import Table
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


def chromium(profile: Path):
    """A headless Chromium of its own (its profile in ``profile``), driven by Selenium."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000", f"--user-data-dir={profile}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


@pytest.fixture
def browser(tmp_path):
    driver = chromium(tmp_path / "chromium")
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


# ---------------------------------------------------------------- five languages, and a table a person enjoys

SCREENS = Path(os.environ.get("HAKKA_SCREENS_DIR", "/work/screens"))
LANGS = tuple(lang.code for lang in book_languages())  # spec/languages.yaml, the one table
# words of the English page that must not be left on a page in another language
ENGLISH = ("Your hand", "Scores", "This hand", "tricks", "score ", "Seat ", "Elders", "Waiting", "Your turn")


def mid_hand_table(seed: int = 7) -> Table:
    """A table in the playing phase with a round won and one under way, seat 0 to act: a busy screenshot."""
    table = Table(humans=[0], seed=seed)
    me = RuleBot()
    for _ in range(400):
        hand = table.current.hand
        if (table.to_act == 0 and hand.phase == "playing" and any(r.winner is not None for r in table.current.rounds)
                and hand.plays):
            return table
        seat = table.to_act
        assert seat is not None
        action = table.bot_action(seat) if seat else me.choose(table._hand_view(table.current, 0), hand.legal_actions(), Random(0))
        table.act(seat, action)
    raise AssertionError("no busy position reached")


def opened(browser, live, table: Table, extra: str = "") -> None:
    browser.get(f"{live.base}/table/{table.id}?token={table.seats[0].token}{extra}")
    body = browser.find_element(By.TAG_NAME, "body")
    wait(lambda: body.get_attribute("data-version") == str(table.version), what="the seat's view")


# Text a reader reads as prose: every text node but notation (rule IDs, card codes, URLs, code).
PROSE_DIGITS = """
  const skip = '.pl-rule, code, .pl-url, script, #hk-langbox, [dir="ltr"]';
  const out = []; const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.parentElement.closest(skip) || !n.parentElement.offsetParent) continue;
    if (/[0-9]/.test(n.textContent)) out.push(n.textContent);
  }
  return out;
"""
# the first person of the seat's own call or pass, and the third person a page must never pair with "you"
OWN_CALL = {"en": ("You call", "You pass"), "de": ("Sie sagen an", "Sie passen"), "fr": ("Vous annoncez", "Vous passez"),
            "hi": ("आप कॉल करते हैं", "आप पास करते हैं"), "ar": ("تطلب", "تتجاهل")}
WRONG_PERSON = {"en": "You calls", "de": "Sie sagt an", "fr": "Vous annonce ", "hi": "आप कॉल करता है", "ar": "أنت يطلب"}


def test_the_table_in_each_language_arabic_text_mirrored_seats_not_with_screenshots(live, browser) -> None:
    seed = next(s for s in range(5, 60) if _busy(s))
    table = live.call(live.play.add_table, mid_hand_table(seed))
    SCREENS.mkdir(parents=True, exist_ok=True)
    positions = {}
    for lang in LANGS:
        opened(browser, live, table, f"&lang={lang}")
        root = browser.find_element(By.TAG_NAME, "html")
        assert root.get_attribute("lang") == lang and root.get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
        text = browser.find_element(By.TAG_NAME, "body").text
        if lang != "en":
            left = [w for w in ENGLISH if w in text]
            assert not left, f"{lang}: English left on the page: {left}"
        # the other seats' hands as card backs, one per card of the observation's count
        sizes = table.current.hand.observation(0).hand_sizes
        for pos, seat in (("right", 1), ("top", 2), ("left", 3)):
            if seat == table.current.hand.dreamer:
                continue
            backs = browser.find_element(By.CSS_SELECTOR, f"#pos-{pos} .hk-backs")
            assert backs.get_attribute("data-count") == str(sizes[seat])
            assert len(backs.find_elements(By.CSS_SELECTOR, ".hk-back")) == sizes[seat]
        direction = browser.execute_script("return getComputedStyle(document.querySelector('.pl-handcards')).direction")
        assert direction == "ltr", "card notation stays left-to-right"
        rows = browser.execute_script("return [...document.querySelectorAll('.hk-cards')].map(e => getComputedStyle(e).direction)")
        assert set(rows) == {"ltr"}, f"{lang}: every row of cards runs one way: {rows}"
        positions[lang] = {pos: browser.find_element(By.ID, f"pos-{pos}").rect["x"] for pos in ("left", "right")}
        # the seat's own call or pass in the first person, never "You" with a third-person verb
        history = browser.find_element(By.ID, "history").text
        assert any(w in history for w in OWN_CALL[lang]) and WRONG_PERSON[lang] not in history, (lang, history)
        # the page and the server write a number alike (cards.js HK.num, hakka_play.i18n.number)
        assert browser.execute_script("return [HK.num(-1234), HK.num(7)]") == [number(lang, -1234), number(lang, 7)], lang
        # one numeral system a page: Eastern Arabic digits in Arabic (the seed's), Western elsewhere
        western = browser.execute_script(PROSE_DIGITS)
        if lang == "ar":
            assert not western, f"Western digits in the Arabic page's prose: {western}"
            assert any(c in text for c in "٠١٢٣٤٥٦٧٨٩"), "the Arabic page writes its numbers in Eastern Arabic digits"
            seat_box = browser.find_element(By.ID, "pos-right").get_attribute("dir") or browser.execute_script(
                "return getComputedStyle(document.getElementById('pos-right')).direction")
            assert seat_box == "rtl", "the text inside a seat is right-to-left"
        else:
            assert not any(c in text for c in "٠١٢٣٤٥٦٧٨٩"), lang
        browser.save_screenshot(str(SCREENS / f"table-{lang}.png"))
    for lang in LANGS:
        # seat s + 1 sits to the right of seat s in every language: play runs counterclockwise, as the rules
        # (the Arabic seed's "عكس عقارب الساعة" too) say; an Arabic page mirrors its text, never the seating
        assert positions[lang]["right"] > positions[lang]["left"], (lang, positions[lang])


def test_a_play_the_rules_refuse_shows_its_clause_in_the_page_in_the_players_language(live, browser) -> None:
    """Issue 30 §4.3: the page lets the player try a selection that is no legal play; the refusal shows in the
    page: the clause, linked to the rulebook of the player's language, and its statement in that language."""
    table = live.call(live.play.add_table, mid_hand_table(next(s for s in range(5, 60) if _busy(s))))
    hand = table.current.hand
    legal = {" ".join(sorted(str(a).split()[1:])) for a in hand.legal_actions().actions if str(a).startswith("play ")}
    cards = str(hand.observation(0).hand).split()
    wrong = next([c] for c in cards if c not in legal) if any(c not in legal for c in cards) else next(
        [a, b] for a in cards for b in cards if a < b and " ".join(sorted([a, b])) not in legal)
    version = table.version
    opened(browser, live, table, "&lang=ar")
    for name in wrong:
        browser.find_element(By.CSS_SELECTOR, f'#hand .hk-card[data-card="{name}"]').click()
    button = browser.find_element(By.ID, "play-selected")
    assert button.is_enabled() and "pl-try" in button.get_attribute("class"), "an illegal selection can be tried"
    button.click()
    box = wait(lambda: browser.find_element(By.ID, "error") if browser.find_element(By.ID, "error").is_displayed() else None,
               what="the refusal in the page")
    link = box.find_element(By.CSS_SELECTOR, "a.pl-rule")
    assert link.get_attribute("href").startswith(f"{live.base}/rulebook/ar/rules/"), link.get_attribute("href")
    statement = box.find_element(By.CSS_SELECTOR, "blockquote.pl-statement")
    assert statement.get_attribute("lang") == "ar" and any("\u0600" <= c <= "\u06ff" for c in statement.text)
    assert table.version == version, "the refused play changed nothing"
    SCREENS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENS / "table-ar-refused.png"))


def _busy(seed: int) -> bool:
    try:
        mid_hand_table(seed)
    except AssertionError:
        return False
    return True


def test_the_language_switcher_keeps_the_page_and_the_session(live, browser) -> None:
    table = live.call(live.play.add_table, mid_hand_table(next(s for s in range(5, 60) if _busy(s))))
    opened(browser, live, table, "&lang=en")
    before = browser.current_url.split("&lang=")[0]
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, "hk-lang")).select_by_value("fr")
    wait(lambda: browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr", what="the French page")
    body = browser.find_element(By.TAG_NAME, "body")
    wait(lambda: body.get_attribute("data-version") == str(table.version), what="the seat's view again")
    assert browser.current_url == before, "the switcher keeps the page (the same seat of the same table)"
    assert "Votre main" in body.text and "Place " in body.text and "Siège" not in body.text
    browser.get(f"{live.base}/replay")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr", "kept for the session"


def test_rule_badges_hide_and_stay_hidden_and_a_played_card_moves_unless_asked_not_to(live, browser) -> None:
    live.play.bot_delay = 0.4
    table = live.call(live.play.add_table, mid_hand_table(next(s for s in range(5, 60) if _busy(s))))
    opened(browser, live, table)
    shown = lambda: [e for e in browser.find_elements(By.CSS_SELECTOR, ".pl-rule") if e.is_displayed()]  # noqa: E731
    assert shown()
    browser.find_element(By.ID, "show-rules").click()
    assert not shown()
    opened(browser, live, table)
    assert not shown(), "the choice is remembered (localStorage)"
    browser.find_element(By.ID, "show-rules").click()
    assert shown()
    version = table.version
    browser.find_element(By.CSS_SELECTOR, "button.pl-chip").click()  # a legal play: the bots answer it
    wait(lambda: table.version > version, what="the play")
    names = wait(lambda: browser.execute_script(
        "return [...document.querySelectorAll('.pl-center .pl-new .hk-card')].map(e => getComputedStyle(e).animationName)"),
        what="a newly played card")
    assert "pl-play-in" in names
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    still = browser.execute_script(
        "return [...document.querySelectorAll('.pl-new .hk-card, .pl-seat')].map(e => getComputedStyle(e).animationName)")
    assert still and set(still) == {"none"}, still


def test_the_lobby_lists_an_open_table_and_seats_a_person(live, browser) -> None:
    httpx = pytest.importorskip("httpx")
    created = httpx.post(f"{live.base}/api/tables", json={"humans": 2, "listed": True}).json()
    browser.get(f"{live.base}/?lang=de")
    row = wait(lambda: browser.find_elements(By.CSS_SELECTOR, f'.pl-opentable[data-table="{created["table"]}"]'),
               what="the listed table")[0]
    assert "freie Plätze: 1" in row.text
    row.find_element(By.TAG_NAME, "button").click()
    wait(lambda: "/table/" in browser.current_url, what="the seat's page")
    body = browser.find_element(By.TAG_NAME, "body")
    wait(lambda: body.get_attribute("data-version"), what="the view")
    assert "Sie (Platz 1)" in body.text
    assert live.play.open[created["table"]].table.free_seats() == []


def test_a_pattern_scenario_is_drawn_as_cards(live, browser) -> None:
    browser.get(f"{live.base}/replay/view?id=pat-eld-sup8-non-elder-beaten&lang=hi")
    page = wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rp-pattern"), what="the pattern")[0]
    assert page.find_element(By.CSS_SELECTOR, '.rp-current .hk-card[data-card="Sup8"]')
    challenger = page.find_element(By.CSS_SELECTOR, '.rp-challenger .hk-card[data-card="Sup9"]')
    assert "hk-elder" in challenger.get_attribute("class") and "सुप" in challenger.text
    assert page.find_element(By.CSS_SELECTOR, ".rp-expect").text == "इसे हराता है"
    browser.get(f"{live.base}/replay/view?id=dec-d17-yes-wansin-joins-ones&lang=ar")
    page = wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rp-pattern"), what="the pattern")[0]
    assert [c.get_attribute("data-card") for c in page.find_elements(By.CSS_SELECTOR, ".rp-classify .hk-card")] == [
        "Sup1", "Gon1", "WanSin"]
    assert page.find_element(By.CSS_SELECTOR, ".rp-expect").text == "مجموعة"
    browser.save_screenshot(str(SHOTS / "replay-pattern-ar.png"))


def test_the_arabic_replay_viewer_keeps_its_info_line_in_order(live, browser) -> None:
    """Issue 30 §4.7: the replay viewer's info line and step list in Arabic: steps labelled in Arabic, numbers in
    the seed's digits, each score isolated (a minus sign keeps its number), the line's direction from its text."""
    browser.get(f"{live.base}/replay/view?id=game-two-voids-and-tigers-with-pp-penalty&lang=ar")
    steps = wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rp-steps li"), what="the steps")
    assert not [li.text for li in steps if "seat " in li.text or "final" in li.text], "step labels in Arabic"
    browser.find_element(By.CSS_SELECTOR, ".rp-steps li:last-child").click()
    info = wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rp-main .rp-info"), what="the info line")[0]
    assert info.get_attribute("dir") == "auto"
    text = browser.execute_script("return arguments[0].textContent", info)
    assert "\u2068" in text and not any(c in "0123456789" for c in text), text
    assert "nobody" not in text and "لا أحد" in text, text  # nobody acts at the end of a game
    assert browser.find_element(By.ID, "prev").text and browser.find_element(By.ID, "next").text
    SCREENS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENS / "replay-ar.png"))
