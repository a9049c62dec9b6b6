"""The built rulebook in a real headless browser (Debian's chromium through Selenium, as tests/play does).

* Arabic is ``dir="rtl"`` and laid out mirrored: the sidebar is on the right of the text
  (English: on the left), while code blocks, cards and IDs stay left-to-right;
* clicking a language in the switcher opens the same page in that language.

Skipped, with the reason, where chromium or its driver is not installed
(Debian: apt-get install chromium chromium-driver fonts-noto-core).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no chromium/chromedriver here (Debian: apt-get install chromium chromium-driver fonts-noto-core)",
)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the `play` extra")
from selenium.webdriver.common.by import By  # noqa: E402

Book = Callable[[str], Path]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def layout(browser: Any, page: Path) -> dict[str, Any]:
    browser.get(page.as_uri())
    script = """
      const box = s => document.querySelector(s).getBoundingClientRect();
      const dir = s => getComputedStyle(document.querySelector(s)).direction;
      return {dir: document.documentElement.dir, lang: document.documentElement.lang,
              sidebar: box('div.sphinxsidebar').left, body: box('div.body').left,
              cards: document.querySelector('.hk-cards') ? dir('.hk-cards') : null,
              code: document.querySelector('pre') ? dir('pre') : null,
              text: dir('div.body')};
    """
    return dict(browser.execute_script(script))


def test_arabic_is_right_to_left_and_mirrored_while_code_and_cards_stay_left_to_right(browser: Any, book: Book) -> None:
    en = layout(browser, book("en") / "rules" / "play.html")
    ar = layout(browser, book("ar") / "rules" / "play.html")
    assert (en["dir"], en["text"]) == ("ltr", "ltr") and (ar["dir"], ar["lang"], ar["text"]) == ("rtl", "ar", "rtl")
    assert en["sidebar"] < en["body"], f"English sidebar should be left of the text: {en}"
    assert ar["sidebar"] > ar["body"], f"Arabic sidebar should be right of the text (mirrored): {ar}"
    assert ar["cards"] == "ltr", ar
    proto = layout(browser, book("ar") / "reference" / "protocol.html")
    assert proto["code"] == "ltr", proto


def test_the_switcher_opens_the_same_page_in_the_chosen_language(browser: Any, book: Book) -> None:
    book("fr")
    browser.get((book("ar") / "rules" / "play.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, 'nav.hk-langswitch a[hreflang="fr"]').click()
    assert browser.current_url.endswith("/fr/rules/play.html"), browser.current_url
    assert browser.execute_script("return document.documentElement.lang") == "fr"
    assert browser.find_element(By.CSS_SELECTOR, "section#play-4")  # the same page: its clauses are there
    browser.find_element(By.CSS_SELECTOR, 'nav.hk-langswitch a[hreflang="ar"]').click()
    assert browser.current_url.endswith("/ar/rules/play.html")
    assert browser.execute_script("return document.documentElement.dir") == "rtl"


SCREENS = Path(os.environ.get("HAKKA_SCREENS_DIR", "/work/screens"))


def test_the_hindi_and_arabic_pages_read_their_way_with_screenshots(browser: Any, book: Book) -> None:
    """Issue 30 §4.7: an Arabic page's previous/next arrows point the way it reads (previous on the right, →),
    a formula such as (dealer + 2) mod 4 keeps its order inside Arabic prose (an isolate), the drawn cards
    write the seed's Eastern Arabic digits; the Hindi page keeps Western digits, as its seed does.
    Screenshots of both pages go to HAKKA_SCREENS_DIR (default /work/screens)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    for lang in ("hi", "ar"):
        browser.get((book(lang) / "rules" / "deal.html").as_uri())
        arrows = browser.execute_script(
            "return [...document.querySelectorAll('nav#rellinks li')].map(li => li.textContent.replace(/\\s+/g, ' ').trim())")
        assert arrows, f"{lang}: no previous/next links"
        prev_arrow, next_arrow = ("→", "←") if lang == "ar" else ("←", "→")
        assert arrows[0].startswith(prev_arrow) and arrows[-1].endswith(next_arrow), (lang, arrows)
        digits = browser.execute_script(
            "return [...document.querySelectorAll('.hk-card .hk-num')].map(e => e.textContent).join('')")
        if lang == "ar":
            assert digits and all("٠" <= c <= "٩" for c in digits), digits
            body = browser.find_element(By.CSS_SELECTOR, "div.body").text
            assert "\u2066(dealer + 2) mod 4\u2069" in browser.page_source and "(dealer + 2) mod 4" in body
            # what stays in English reads left to right, so its full stops end its lines, not begin them
            directions = browser.execute_script(
                "return [...document.querySelectorAll('.hk-sc-notes.hk-english, span.hk-english')]"
                ".map(e => getComputedStyle(e).direction)")
            assert directions and set(directions) == {"ltr"}, directions
        else:
            assert not digits or digits.isascii(), digits
        browser.save_screenshot(str(SCREENS / f"rulebook-{lang}.png"))
