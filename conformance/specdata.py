"""The one reader of ``spec/``'s data files, for the harness, the play table and the rulebook.

``clauses.yaml``: ``areas: [{id, prefix, title, covers}, ...]`` (the areas of the
rules in reading order) and ``clauses: [{id, area, ...}, ...]``.
``decisions.yaml``: ``decisions: [{id, key, options: [{id, ...}], default, ...}, ...]``.
``expectations.yaml``: ``keys:`` the clauses behind each expectation key.
``languages.yaml``: ``languages: [{code, name, english, dir, plural, book}, ...]``, the project's
languages (:func:`load_languages`).

The runner uses IDs, options and defaults: to reject scenarios that name an
unknown clause or option, and to decide which scenarios a non-configurable
engine can run. Products (the play table, the rulebook) read titles and the
whole items through :attr:`SpecData.items`. Either file may be absent (the
check is then skipped with a warning); a present but malformed file is an
input error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import InputError, Problem
from .paths import default_spec_dir, display_path
from .yamlsource import load_yaml


@dataclass(frozen=True)
class Area:
    """An area of the rules: a clause's ``area``, the prefix of its IDs, its rulebook page's title."""

    id: str
    prefix: str
    title: str
    covers: str = ""


@dataclass(frozen=True)
class Decision:
    id: str
    key: str
    options: tuple[str, ...]
    default: str
    clauses: tuple[str, ...] = ()
    title: str = ""


@dataclass
class SpecData:
    """Clause IDs and decisions, or ``None`` for a file that is not there."""

    clauses: dict[str, str] | None = None  # clause ID -> area
    decisions: dict[str, Decision] | None = None
    key_clauses: dict[str, tuple[str, ...]] = field(default_factory=dict)  # expectation key -> clauses
    warnings: list[str] = field(default_factory=list)
    areas: tuple[Area, ...] = ()
    """The areas in reading order (``clauses.yaml`` ``areas:``)."""
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Every clause and decision as ``spec/`` writes it, by ID (titles, statements, option texts)."""

    def area_of_prefix(self, prefix: str) -> Area | None:
        return next((a for a in self.areas if a.prefix == prefix), None)

    def area_sort_key(self, prefix: str) -> tuple[int, str]:
        """Areas (by ID prefix) in the reading order; unknown ones after, alphabetically."""
        order = [a.prefix for a in self.areas]
        return (order.index(prefix), "") if prefix in order else (len(order), prefix)

    def title(self, rule: str) -> str:
        """A clause's or a decision's title, or ``""``."""
        return str(self.items.get(rule, {}).get("title", ""))

    def clauses_behind(self, keys: tuple[str, ...], scenario_clauses: tuple[str, ...]) -> tuple[str, ...]:
        """The clauses of the failing expectation ``keys`` first, then the scenario's others."""
        first = [c for key in keys for c in self.key_clauses.get(key, ())]
        return tuple(dict.fromkeys([*first, *scenario_clauses]))

    def default_of(self, decision: str) -> str | None:
        if self.decisions is None or decision not in self.decisions:
            return None
        return self.decisions[decision].default

    def effective_options(self, declared: dict[str, str]) -> dict[str, str]:
        """Every known decision's option for an engine that declares ``declared``."""
        out = {d.id: d.default for d in (self.decisions or {}).values()}
        out.update(declared)
        return out


def _as_list(doc_data: Any, key: str, shown: str) -> list[Any]:
    if not isinstance(doc_data, dict) or not isinstance(doc_data.get(key), list):
        raise InputError(Problem(shown, 1, f"expected a top-level `{key}:` list"))
    items: list[Any] = doc_data[key]
    return items


def _load_clauses(doc_data: Any, shown: str, line_of: Callable[[str], int | None],
                  problems: list[Problem | str], items: dict[str, dict[str, Any]]) -> dict[str, str]:
    clauses: dict[str, str] = {}
    for i, item in enumerate(_as_list(doc_data, "clauses", shown)):
        where = f"/clauses/{i}"
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            problems.append(Problem(shown, line_of(where), "a clause needs a string `id`", where))
            continue
        area = item.get("area")
        clauses[item["id"]] = str(area) if area is not None else item["id"].split("-")[0]
        items[item["id"]] = item
    return clauses


def _load_areas(doc_data: Any, shown: str, line_of: Callable[[str], int | None],
                problems: list[Problem | str], _items: dict[str, dict[str, Any]]) -> tuple[Area, ...]:
    raw = doc_data.get("areas") if isinstance(doc_data, dict) else None
    if raw is None:  # an older spec/: the areas in the order their clauses come
        seen = dict.fromkeys((str(c.get("area")), str(c.get("id", "")).split("-")[0])
                             for c in _as_list(doc_data, "clauses", shown) if isinstance(c, dict))
        return tuple(Area(area, prefix, area.title()) for area, prefix in seen)
    areas = []
    for i, item in enumerate(raw if isinstance(raw, list) else [None]):
        where = f"/areas/{i}"
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("id", "prefix", "title")):
            problems.append(Problem(shown, line_of(where), "an area needs string `id`, `prefix` and `title`", where))
            continue
        areas.append(Area(item["id"], item["prefix"], item["title"], str(item.get("covers", ""))))
    return tuple(areas)


def _load_decisions(doc_data: Any, shown: str, line_of: Callable[[str], int | None],
                    problems: list[Problem | str], items: dict[str, dict[str, Any]]) -> dict[str, Decision]:
    decisions: dict[str, Decision] = {}
    for i, item in enumerate(_as_list(doc_data, "decisions", shown)):
        where = f"/decisions/{i}"
        line = line_of(where)
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            problems.append(Problem(shown, line, "a decision needs a string `id`", where))
            continue
        raw_options = item.get("options")
        if not isinstance(raw_options, list):
            problems.append(Problem(shown, line, f"decision {item['id']}: `options` must be a list", where))
            continue
        options = tuple(str(o["id"]) if isinstance(o, dict) and "id" in o else str(o) for o in raw_options)
        default = item.get("default")
        if default is None and options:
            default = options[0]
        if default is not None and str(default) not in options:
            problems.append(Problem(shown, line, f"decision {item['id']}: default {default!r} is not one of its options", where))
            continue
        decisions[item["id"]] = Decision(item["id"], str(item.get("key", "")), options, str(default),
                                         tuple(map(str, item.get("clauses") or ())), str(item.get("title", "")))
        items[item["id"]] = item
    return decisions


def _load_key_clauses(doc_data: Any, shown: str, line_of: Callable[[str], int | None],
                      problems: list[Problem | str], _items: dict[str, dict[str, Any]]) -> dict[str, tuple[str, ...]]:
    keys = doc_data.get("keys") if isinstance(doc_data, dict) else None
    if not isinstance(keys, dict):
        problems.append(Problem(shown, 1, "expected a top-level `keys:` mapping"))
        return {}
    return {str(k): tuple(map(str, v or ())) for k, v in keys.items()}


_Loader = Callable[[Any, str, Callable[[str], "int | None"], list["Problem | str"], dict[str, dict[str, Any]]], Any]
_FILES: tuple[tuple[str, tuple[tuple[str, _Loader], ...], str | None], ...] = (
    ("clauses.yaml", (("clauses", _load_clauses), ("areas", _load_areas)), "clause IDs of scenarios are not checked"),
    ("decisions.yaml", (("decisions", _load_decisions),), "decision options of scenarios are not checked"),
    ("expectations.yaml", (("key_clauses", _load_key_clauses),), None),
)
"""Each file of spec/ read: where its data goes, and what is lost without it."""


def load_spec_data(spec_dir: Path) -> SpecData:
    data = SpecData()
    problems: list[Problem | str] = []
    for name, parts, without in _FILES:
        path = spec_dir / name
        shown = display_path(path)
        if not path.exists():
            if without:
                data.warnings.append(f"warning: {shown} not found; {without}")
            continue
        doc, probs = load_yaml(path, shown)
        problems.extend(probs)
        if doc is not None and not probs:
            for attribute, loader in parts:
                setattr(data, attribute, loader(doc.data, shown, doc.line_of, problems, data.items))
    if problems:
        raise InputError(problems)
    return data


@lru_cache(maxsize=1)
def default_spec_data() -> SpecData:
    """The spec of this checkout or wheel (``HAKKA_SPEC_DIR`` if set), read once."""
    return load_spec_data(default_spec_dir())


def area_sort_key(prefix: str) -> tuple[int, str]:
    """Areas (by ID prefix) in the reading order of the default spec; unknown ones after, alphabetically."""
    try:
        spec = default_spec_data()
    except InputError:
        spec = SpecData()
    return spec.area_sort_key(prefix)


@dataclass(frozen=True)
class Language:
    """A row of ``spec/languages.yaml``: a language the project writes in, or names."""

    code: str
    name: str
    """Its name in itself (the switchers list these)."""
    english: str
    """Its name in English: a msgid of the rulebook's catalog, translated there."""
    dir: str
    """``ltr`` or ``rtl``."""
    plural: str
    """The gettext ``Plural-Forms`` of its catalogs."""
    book: bool
    """Whether the rulebook and the table are written in it."""


_LANGUAGE_FIELDS = {"code": str, "name": str, "english": str, "dir": str, "plural": str, "book": bool}


def load_languages(spec_dir: Path) -> tuple[Language, ...]:
    """The rows of ``spec_dir/languages.yaml``, in order; a missing or malformed file is an input error."""
    path = spec_dir / "languages.yaml"
    shown = display_path(path)
    if not path.exists():
        raise InputError(f"{shown}: not found (the table of the project's languages)")
    doc, problems = load_yaml(path, shown)
    if problems or doc is None:
        found: list[Problem | str] = [*problems] or [Problem(shown, 1, "empty file")]
        raise InputError(found)
    rows = _as_list(doc.data, "languages", shown)
    languages: list[Language] = []
    errors: list[Problem | str] = []
    for index, row in enumerate(rows):
        where = f"/languages/{index}"
        if not isinstance(row, dict) or set(row) != set(_LANGUAGE_FIELDS) or not all(
                isinstance(row[k], t) for k, t in _LANGUAGE_FIELDS.items()) or row["dir"] not in ("ltr", "rtl"):
            errors.append(Problem(shown, doc.line_of(where), f"a language needs exactly {', '.join(_LANGUAGE_FIELDS)} "
                                  "(dir ltr or rtl, book true or false)", where))
            continue
        if any(lang.code == row["code"] for lang in languages):
            errors.append(Problem(shown, doc.line_of(where), f"language {row['code']!r} is listed twice", where))
            continue
        languages.append(Language(**row))
    if not errors and not (languages and languages[0].code == "en" and languages[0].book):
        errors.append(Problem(shown, 1, "English, the source of every message, must be the first language"))
    if errors:
        raise InputError(errors)
    return tuple(languages)


@lru_cache(maxsize=1)
def default_languages() -> tuple[Language, ...]:
    """The languages of this checkout's or wheel's ``spec/`` (``HAKKA_SPEC_DIR`` if set), read once."""
    return load_languages(default_spec_dir())


def book_languages() -> tuple[Language, ...]:
    """The languages the rulebook and the table are written in, English first."""
    return tuple(lang for lang in default_languages() if lang.book)
