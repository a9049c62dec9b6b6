"""Where each clause and decision is in the rulebook, from the spec's own IDs.

Clause anchors come from :func:`conformance.report.rule_anchor` (the same
address the runner's reports print: ``PLAY-4`` is ``rules/play.html#play-4``);
a decision ``D7`` is ``decisions.html#d7`` (docs/_ext/hakka_spec.py). The IDs
are read from ``spec/clauses.yaml`` and ``spec/decisions.yaml``, so a link
names only a rule that exists. They are read through :mod:`conformance.specdata`,
the one reader of spec/.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .report import rule_anchor
from .specdata import default_spec_data, load_spec_data


def decision_anchor(decision: str) -> str:
    return f"decisions.html#{decision.lower()}"


@dataclass
class Rulebook:
    """The spec's clause and decision IDs with their titles, and their rulebook addresses."""

    base: str = "/rulebook/"
    clauses: dict[str, dict[str, Any]] = field(default_factory=dict)
    decisions: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, spec_dir: Path | None = None, base: str = "/rulebook/") -> Rulebook:
        """The IDs and items of ``spec_dir`` (default: the checkout's), read through the one reader of spec/."""
        spec = load_spec_data(spec_dir) if spec_dir is not None else default_spec_data()
        book = cls(base=base if base.endswith("/") else base + "/")
        book.clauses = {rule: spec.items[rule] for rule in (spec.clauses or {}) if rule in spec.items}
        book.decisions = {rule: spec.items[rule] for rule in (spec.decisions or {}) if rule in spec.items}
        return book

    @classmethod
    def default(cls) -> Rulebook:
        """The checkout's spec, read once."""
        return _default()

    def anchor(self, rule: str | None) -> str | None:
        """The rulebook address of a clause or decision, relative to the book's root."""
        if not rule:
            return None
        if rule in self.clauses:
            return rule_anchor(rule)
        if rule in self.decisions:
            return decision_anchor(rule)
        return None

    def href(self, rule: str | None) -> str | None:
        anchor = self.anchor(rule)
        return None if anchor is None else self.base + anchor

    def title(self, rule: str) -> str:
        item = self.clauses.get(rule) or self.decisions.get(rule) or {}
        return str(item.get("title", ""))

    def links(self) -> dict[str, dict[str, str]]:
        """Every rule ID → ``{href, title}``: sent once to a browser, which links IDs with it."""
        out: dict[str, dict[str, str]] = {}
        for rule in [*self.clauses, *self.decisions]:
            href = self.href(rule)
            if href:
                out[rule] = {"href": href, "title": self.title(rule)}
        return out

    def configurable(self) -> list[dict[str, Any]]:
        """The decisions with more than one option, for the form that creates a table."""
        out = []
        for did, item in self.decisions.items():
            options = [str(o["id"]) if isinstance(o, dict) else str(o) for o in item.get("options", [])]
            if len(options) > 1:
                out.append({"id": did, "title": str(item.get("title", "")), "options": options,
                            "default": str(item.get("default") or options[0])})
        return out


@lru_cache(maxsize=1)
def _default() -> Rulebook:
    return Rulebook.load()
