"""Build the rulebook in its five languages, and keep the translators' catalogs in step with the English.

    python -m docs.build_all                 # HTML of en, de, fr, hi, ar into docs/_build/html/<lang>/
    python -m docs.build_all --lang fr -W    # one language, warnings are errors
    python -m docs.build_all gettext         # .pot of every page and of docs/_ext, then the .po of every language
    python -m docs.build_all stats           # messages and words per catalog, translated / fuzzy / untranslated
    python -m docs.build_all check           # the gate: every catalog complete, nothing fuzzy, prose translated

``gettext`` is the only step that writes docs/locale/: Sphinx's gettext builder
collects every translatable node of the book (the clause statements, decision texts,
glossary and guides included) into docs/_build/gettext/*.pot; babel extracts the
extension's own words (``_()`` in docs/_ext) into hakka.pot; ``sphinx-intl update``
merges both into docs/locale/<lang>/LC_MESSAGES/*.po, marking changed messages fuzzy.
Each language is a separate Sphinx build (``-D language=xx``) with its own doctrees.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from conformance.specdata import book_languages, default_languages

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
BUILD = DOCS / "_build"
LOCALE = DOCS / "locale"
POT = BUILD / "gettext"
LANGUAGES = tuple(lang.code for lang in book_languages())  # the one table, spec/languages.yaml; English first
TRANSLATED = LANGUAGES[1:]


def _run(args: list[str], cwd: Path = ROOT) -> None:
    print("$", " ".join(args), flush=True)
    proc = subprocess.run(args, cwd=cwd, check=False)
    if proc.returncode:
        raise SystemExit(f"build_all: `{' '.join(args)}` failed (exit {proc.returncode})")


def build_html(lang: str, strict: bool, languages: tuple[str, ...] = LANGUAGES) -> float:
    """One language's HTML, its switcher linking to ``languages`` (this run's); returns the seconds it took."""
    start = time.monotonic()
    args = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-D", f"language={lang}",
            "-D", f"hakka_languages={','.join(languages)}",
            "-d", str(BUILD / "doctrees" / lang), str(DOCS), str(BUILD / "html" / lang)]
    if strict:
        args[3:3] = ["-W", "--keep-going"]
    _run(args)
    return time.monotonic() - start


def extract_pot() -> None:
    """The book's .pot (Sphinx's gettext builder) and hakka.pot (babel, from docs/_ext)."""
    _run([sys.executable, "-m", "sphinx", "-b", "gettext", "-q", "-d", str(BUILD / "doctrees" / "gettext"),
          str(DOCS), str(POT)])
    # Run from the .pot folder, so that locations read like Sphinx's (../../_ext/… beside ../../../spec/…).
    _run([sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "--no-wrap", "--sort-by-file",
          "-k", "_", "-k", "N_", "-k", "ngettext:1,2", "--project", "Hakka Cards rulebook",
          "-o", "hakka.pot", "../../_ext"], cwd=POT)
    add_language_names(POT / "hakka.pot")


def add_language_names(pot: Path) -> None:
    """The languages' English names (spec/languages.yaml) as msgids of hakka.pot: the rulebook names a
    source's language with them, in the build's language (docs/_ext/hakka_data.py LANGUAGES)."""
    from babel.messages.pofile import read_po, write_po

    with pot.open("rb") as f:
        catalog = read_po(f)
    for lang in default_languages():
        if lang.english not in catalog:
            catalog.add(lang.english, locations=[("../../../spec/languages.yaml", 0)])
    with pot.open("wb") as f:
        write_po(f, catalog, width=0, sort_by_file=True)


def update_po() -> None:
    args = [sys.executable, "-m", "sphinx_intl", "update", "-p", str(POT), "-d", str(LOCALE), "-w", "0"]
    for lang in TRANSLATED:
        args += ["-l", lang]
    _run(args)


def _texts(value: object) -> list[str]:
    """A message's id or string as a list: one text, or the singular and plural forms."""
    return [str(v) for v in value] if isinstance(value, tuple | list) else [str(value or "")]


def stats() -> list[tuple[str, str, int, int, int, int, int]]:
    """(lang, catalog, messages, words of the msgids, translated, fuzzy, untranslated) of every .po."""
    from babel.messages.pofile import read_po

    rows = []
    for lang in TRANSLATED:
        for po in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as f:
                catalog = read_po(f)
            msgs = [m for m in catalog if m.id]
            words = sum(len(" ".join(_texts(m.id)).split()) for m in msgs)
            fuzzy = sum(1 for m in msgs if m.fuzzy)
            done = sum(1 for m in msgs if not m.fuzzy and all(_texts(m.string)))
            rows.append((lang, po.stem, len(msgs), words, done, fuzzy, len(msgs) - done - fuzzy))
    return rows


def print_stats() -> None:
    rows = stats()
    print(f"{'lang':4} {'catalog':12} {'messages':>8} {'words':>7} {'done':>6} {'fuzzy':>6} {'todo':>6}")
    for lang, name, n, words, done, fuzzy, todo in rows:
        print(f"{lang:4} {name:12} {n:8} {words:7} {done:6} {fuzzy:6} {todo:6}")


def check_catalogs(languages: list[str], extract: bool = True, locale: Path = LOCALE) -> int:
    """The translations' gate (docs/catalog_gate.py), against templates extracted from the book as it is."""
    from docs.catalog_gate import check

    if extract:
        extract_pot()
    problems = check(locale, languages, POT if extract else None)
    for problem in problems:
        print(problem)
    done = [lang for lang in languages if not any(p.language == lang for p in problems)]
    print(f"catalogs: {len(problems)} problem(s); complete: {', '.join(done) or 'none'}"
          f"; incomplete: {', '.join(lang for lang in languages if lang not in done) or 'none'}")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docs.build_all", description=__doc__.split("\n\n")[0])
    parser.add_argument("step", nargs="?", choices=("html", "gettext", "stats", "check"), default="html")
    parser.add_argument("--lang", action="append", choices=LANGUAGES, help="only this language (repeatable)")
    parser.add_argument("-W", dest="strict", action="store_true", help="warnings are errors")
    parser.add_argument("--no-extract", action="store_true",
                        help="check: do not extract the templates first (catalogs alone, no test of being in step)")
    parser.add_argument("--locale", type=Path, default=LOCALE, help="check: the catalogs' folder (default docs/locale)")
    args = parser.parse_args(argv)
    if args.step == "gettext":
        extract_pot()
        update_po()
        print_stats()
        return 0
    if args.step == "check":
        return check_catalogs([lang for lang in (args.lang or TRANSLATED) if lang != "en"], not args.no_extract, args.locale)
    if args.step == "stats":
        print_stats()
        return 0
    total = 0.0
    languages = tuple(args.lang or LANGUAGES)
    for lang in languages:
        took = build_html(lang, args.strict, languages)
        total += took
        print(f"{lang}: {took:.0f} s -> {BUILD / 'html' / lang / 'index.html'}", flush=True)
    print(f"all: {total:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
