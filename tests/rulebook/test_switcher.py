"""The language switcher offers only languages that exist beside the build (issue 30 §3), without a build.

The README's one-language command (``sphinx-build … docs docs/_build/html``) has no other language
beside it, so its switcher names the current language only, and the command that builds the others;
``python -m docs.build_all`` sets ``hakka_languages`` to the languages it builds, so their switchers
offer each other.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from hakka_site import BOOK_LANGUAGES, available_languages, language_links, more_languages  # noqa: E402

from docs import build_all  # noqa: E402


def _app(outdir: Path, language: str, planned: str = "") -> SimpleNamespace:
    text = {"more_languages": {"en": "The other languages are built by {command}", "fr": "Les autres {command}"}}
    config = SimpleNamespace(language=language, hakka_languages=planned, hakka_site_text=text)
    return SimpleNamespace(outdir=str(outdir), config=config)


def test_a_lone_build_offers_only_its_own_language_and_names_the_command(tmp_path: Path) -> None:
    app = _app(tmp_path / "html", "en")
    available = available_languages(app)  # type: ignore[arg-type]
    assert available == {"en"}
    links = language_links("en", "rules/play", available)
    assert [(link["code"], link["url"]) for link in links] == [("en", "play.html")]
    assert more_languages(app.config) == (
        'The other languages are built by <code class="docutils literal" dir="ltr" style="white-space: nowrap">'
        'python -m docs.build_all</code>')


def test_languages_built_beside_it_and_those_of_the_same_command_are_offered(tmp_path: Path) -> None:
    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "index.html").write_text("<html></html>", encoding="utf-8")
    (tmp_path / "hi").mkdir()  # a folder without a book is not a build
    available = available_languages(_app(tmp_path / "fr", "fr", "fr,ar"))  # type: ignore[arg-type]
    assert available == {"de", "fr", "ar"}
    links = {link["code"]: link["url"] for link in language_links("fr", "rules/play", available)}
    assert links == {"de": "../../de/rules/play.html", "fr": "play.html", "ar": "../../ar/rules/play.html"}


def test_every_language_is_offered_when_all_are_there_so_the_hint_is_not_shown(tmp_path: Path) -> None:
    available = available_languages(_app(tmp_path / "ar", "ar", ",".join(BOOK_LANGUAGES)))  # type: ignore[arg-type]
    assert set(BOOK_LANGUAGES) <= available
    assert len(language_links("ar", "index", available)) == len(BOOK_LANGUAGES)


def test_build_all_tells_each_build_which_languages_it_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    monkeypatch.setattr(build_all, "_run", lambda args, cwd=build_all.ROOT: seen.append(args))
    build_all.main(["--lang", "fr", "--lang", "ar"])
    assert [a[a.index("-D") + 1:a.index("-D") + 4] for a in seen] == [
        ["language=fr", "-D", "hakka_languages=fr,ar"], ["language=ar", "-D", "hakka_languages=fr,ar"]]
