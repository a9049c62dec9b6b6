"""Reading ``spec/`` and the conformance scenarios for the rulebook.

Pure Python (PyYAML only), no Sphinx: the Sphinx extension ``hakka_spec``
renders what this module loads, and ``tests/docs`` can use it directly.

Cards are parsed here independently of the reference engine, from the
notation of ``spec/README.md``, and the seeded deal of D33 is reimplemented
from its description there, so that the rulebook draws a ``seed`` setup's
hands without importing any engine (a test checks both agree).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SUITS = ("Sup", "Gon", "Zok", "Sin")
"""Suits, highest first (CARDS-2)."""
SHORT_SUITS = {"s": "Sup", "g": "Gon", "z": "Zok", "n": "Sin"}
WAN_SIN = "WanSin"
CANONICAL_DECK = tuple(f"{s}{n}" for s in SUITS for n in range(1, 10)) + (WAN_SIN,)
CARD_ORDER = {name: i for i, name in enumerate(CANONICAL_DECK)}
INITIAL_ELDERS = ("Sup9", "Gon9", "Zok9", "Sin9", "Sup1", "Sin1", WAN_SIN)
"""ELD-1: the Elders at the start of every hand."""
PERMANENT_ELDERS = ("Sup1", "Sin1", WAN_SIN)

# The areas of spec/README.md, in reading order: prefix -> (area name, page title).
AREAS: dict[str, tuple[str, str]] = {
    "CARDS": ("cards", "The cards"),
    "GAME": ("game", "The game"),
    "DEAL": ("deal", "Dealing"),
    "CALL": ("calling", "Calling"),
    "PAT": ("patterns", "Patterns"),
    "ELD": ("elders", "Elder cards"),
    "TIG": ("tigers", "Five Tigers"),
    "PLAY": ("play", "Playing"),
    "CLAIM": ("claim", "Claiming victory"),
    "SCORE": ("scoring", "Scoring"),
    "OBS": ("observation", "What each seat sees"),
}

LANGUAGES = {
    "en": ("English", "ltr"),
    "fr": ("French", "ltr"),
    "hi": ("Hindi", "ltr"),
    "de": ("German", "ltr"),
    "ar": ("Arabic", "rtl"),
    "zh": ("Chinese", "ltr"),
}
SEED_LANGUAGES = {"000": "en", "001": "fr", "002": "hi", "003": "de", "004": "ar"}

CLAUSE_ID = re.compile(r"^([A-Z]+)-([1-9][0-9]*)$")
ID_IN_TEXT = re.compile(r"\b(?:[A-Z]+-[1-9][0-9]*|D[1-9][0-9]*)\b")


class SpecError(Exception):
    """The spec or a scenario file is missing or cannot be rendered."""


# ---------------------------------------------------------------- cards


@dataclass(frozen=True)
class Card:
    name: str  # canonical text, e.g. "Sup9" or "WanSin"

    @property
    def suit(self) -> str | None:
        return None if self.name == WAN_SIN else self.name[:3]

    @property
    def number(self) -> int:
        return 1 if self.name == WAN_SIN else int(self.name[3])


def parse_card(text: str) -> Card:
    t = text.strip().lower()
    if t in ("wansin", "w"):
        return Card(WAN_SIN)
    m = re.fullmatch(r"(sup|gon|zok|sin|s|g|z|n)([1-9])", t)
    if not m:
        raise SpecError(f"{text!r} is not a card (spec/README.md, card notation)")
    suit = SHORT_SUITS[m.group(1)] if len(m.group(1)) == 1 else m.group(1).capitalize()
    return Card(f"{suit}{m.group(2)}")


def parse_cards(text: str | list[str] | None) -> list[Card]:
    """A card list as written in a scenario (a string, or a list of single cards)."""
    if text is None:
        return []
    items = text.split() if isinstance(text, str) else [str(t) for t in text]
    return [parse_card(t) for t in items]


def sort_cards(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: CARD_ORDER[c.name])


def parse_action(text: str) -> tuple[str, list[Card]]:
    """``"play Sup3 Sup4"`` -> ``("play", [Sup3, Sup4])``; unknown cards raise SpecError."""
    parts = text.split()
    if not parts:
        return "", []
    return parts[0].lower(), parse_cards(" ".join(parts[1:]))


# ------------------------------------------------------ deals (D2, D33)

_MASK64 = (1 << 64) - 1


def splitmix64(seed: int):
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def seeded_deck(seed: int) -> list[Card]:
    """D33: SplitMix64 then Fisher-Yates over the canonical deck order."""
    deck = list(CANONICAL_DECK)
    rng = splitmix64(seed)
    for i in range(36, 0, -1):
        j = next(rng) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return [Card(n) for n in deck]


def deal(deck: list[Card], dealer: int, deal_order: str = "dealer-first") -> list[list[Card]]:
    """DEAL-4 / D2: the hands by seat from a deck order."""
    if len(deck) != 37:
        raise SpecError(f"a deck has 37 cards, this one {len(deck)}")
    dreamer = (dealer + 2) % 4
    if deal_order == "dealer-last":
        first_pass = [(dealer + k) % 4 for k in (1, 2, 3, 4)]
    else:
        first_pass = [(dealer + k) % 4 for k in range(4)]
    active = [s for s in first_pass if s != dreamer]
    hands: list[list[Card]] = [[] for _ in range(4)]
    for seat, card in zip(first_pass, deck[:4]):
        hands[seat].append(card)
    for k, card in enumerate(deck[4:]):
        hands[active[k % 3]].append(card)
    return [sort_cards(h) for h in hands]


def setup_hands(setup: dict[str, Any], options: dict[str, str]) -> tuple[list[list[Card]], str]:
    """The four hands of a setup, and how they were obtained (for the reader)."""
    dealer = int(setup.get("dealer", 0))
    order = options.get("D2", "dealer-first")
    if "hands" in setup:
        return [sort_cards(parse_cards(h)) for h in setup["hands"]], "hands"
    if "deck" in setup:
        return deal(parse_cards(setup["deck"]), dealer, order), f"dealt from a given deck order ({order}, D2)"
    if "seed" in setup:
        return (
            deal(seeded_deck(int(setup["seed"])), dealer, order),
            f"dealt from seed {setup['seed']} (D33, {order})",
        )
    raise SpecError("a setup needs hands, deck or seed")


def elders_after(gone: set[str]) -> set[str]:
    """ELD-1/ELD-2: Sup1, Sin1, Wan Sin, and every suited card whose higher cards are all gone."""
    out = set(PERMANENT_ELDERS)
    for s in SUITS:
        for n in range(9, 0, -1):
            out.add(f"{s}{n}")
            if f"{s}{n}" not in gone:
                break
    return out


# ------------------------------------------------------------ the spec


@dataclass
class Scenario:
    data: dict[str, Any]
    file: str  # path relative to the repository, e.g. conformance/scenarios/play/follow.yaml
    group: str  # first folder below scenarios/ ("play"), or "misc" for a file at the top
    index: int  # position in the file

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def generated(self) -> bool:
        return bool(self.data.get("generated")) or self.group == "generated"

    @property
    def body(self) -> str:
        for key in ("pattern", "trajectory", "game", "count", "setup"):
            if key in self.data:
                return key
        return "?"


@dataclass
class Spec:
    root: Path
    clauses: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    scenarios: list[Scenario]
    clause_by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    decision_by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    scenario_by_id: dict[str, Scenario] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.clause_by_id = {c["id"]: c for c in self.clauses}
        self.decision_by_id = {d["id"]: d for d in self.decisions}
        self.scenario_by_id = {s.id: s for s in self.scenarios}

    # -- areas

    def areas(self) -> list[str]:
        """Clause prefixes present, in the reading order of spec/README.md."""
        present = []
        for c in self.clauses:
            p = clause_prefix(c["id"])
            if p not in present:
                present.append(p)
        known = [p for p in AREAS if p in present]
        return known + [p for p in present if p not in AREAS]

    def clauses_of(self, prefix: str) -> list[dict[str, Any]]:
        return [c for c in self.clauses if clause_prefix(c["id"]) == prefix]

    def scenario_groups(self) -> list[str]:
        groups: list[str] = []
        for s in self.scenarios:
            if not s.generated and s.group not in groups:
                groups.append(s.group)
        return groups

    # -- decisions

    def default_of(self, did: str) -> str | None:
        d = self.decision_by_id.get(did)
        if d is None:
            return None
        if d.get("default") is not None:
            return str(d["default"])
        opts = option_ids(d)
        return opts[0] if opts else None

    def clauses_touched_by(self, did: str) -> list[str]:
        """Clauses that name the decision, plus those the decision lists itself."""
        out = [c["id"] for c in self.clauses if did in (c.get("decisions") or [])]
        for cid in self.decision_by_id.get(did, {}).get("clauses") or []:
            if cid not in out:
                out.append(cid)
        order = {c["id"]: i for i, c in enumerate(self.clauses)}
        return sorted(out, key=lambda cid: order.get(cid, 10**6))

    # -- scenarios

    def worked_examples(self, cid: str) -> list[Scenario]:
        """Hand-worked scenarios testing a clause: those tagged worked-example first."""
        found = [s for s in self.scenarios if not s.generated and cid in (s.data.get("clauses") or [])]
        return sorted(found, key=lambda s: (0 if "worked-example" in (s.data.get("tags") or []) else 1))

    def generated_count(self, cid: str | None = None) -> int:
        return sum(
            1 for s in self.scenarios if s.generated and (cid is None or cid in (s.data.get("clauses") or []))
        )


def clause_prefix(cid: str) -> str:
    m = CLAUSE_ID.match(cid)
    return m.group(1) if m else cid.split("-")[0]


def clause_page(cid: str) -> str:
    """The docname of the page holding a clause: ``rules/play`` for PLAY-4."""
    return f"rules/{clause_prefix(cid).lower()}"


def option_ids(decision: dict[str, Any]) -> list[str]:
    return [str(o["id"]) if isinstance(o, dict) else str(o) for o in decision.get("options") or []]


def _load_yaml(path: Path, what: str) -> Any:
    try:
        with path.open(encoding="utf-8") as f:
            return yaml.safe_load(f)
    except yaml.YAMLError as exc:
        raise SpecError(f"{what}: {path} is not valid YAML: {exc}") from exc


def required_files(root: Path) -> list[Path]:
    spec = root / "spec"
    return [
        spec / "clauses.yaml",
        spec / "decisions.yaml",
        spec / "PROTOCOL.md",
        spec / "SCENARIOS.md",
        spec / "schema" / "scenario.schema.json",
        spec / "schema" / "protocol",
        root / "conformance" / "scenarios",
    ]


def load_spec(root: Path) -> Spec:
    missing = [p for p in required_files(root) if not p.exists()]
    if missing:
        names = ", ".join(str(p.relative_to(root)) for p in missing)
        raise SpecError(
            f"the rulebook is generated from spec/ and cannot be built: missing {names} "
            f"(looked under {root})"
        )
    clauses_doc = _load_yaml(root / "spec" / "clauses.yaml", "clauses")
    decisions_doc = _load_yaml(root / "spec" / "decisions.yaml", "decisions")
    if not isinstance(clauses_doc, dict) or not isinstance(clauses_doc.get("clauses"), list):
        raise SpecError("spec/clauses.yaml: expected a top-level `clauses:` list")
    if not isinstance(decisions_doc, dict) or not isinstance(decisions_doc.get("decisions"), list):
        raise SpecError("spec/decisions.yaml: expected a top-level `decisions:` list")
    clauses = clauses_doc["clauses"]
    decisions = decisions_doc["decisions"]
    for i, c in enumerate(clauses):
        if not isinstance(c, dict) or not CLAUSE_ID.match(str(c.get("id", ""))):
            raise SpecError(f"spec/clauses.yaml: clause #{i + 1} has no valid `id`")
    for i, d in enumerate(decisions):
        if not isinstance(d, dict) or not re.fullmatch(r"D[1-9][0-9]*", str(d.get("id", ""))):
            raise SpecError(f"spec/decisions.yaml: decision #{i + 1} has no valid `id`")

    scenarios: list[Scenario] = []
    base = root / "conformance" / "scenarios"
    for path in sorted(base.rglob("*.yaml")) + sorted(base.rglob("*.yml")):
        rel = path.relative_to(base)
        group = rel.parts[0] if len(rel.parts) > 1 else "misc"
        doc = _load_yaml(path, "scenarios")
        shown = str(path.relative_to(root))
        if not isinstance(doc, dict) or not isinstance(doc.get("scenarios"), list):
            raise SpecError(f"{shown}: expected a top-level `scenarios:` list")
        for i, item in enumerate(doc["scenarios"]):
            if not isinstance(item, dict) or "id" not in item:
                raise SpecError(f"{shown}: scenario #{i + 1} has no `id`")
            scenarios.append(Scenario(item, shown, group, i))
    seen: dict[str, str] = {}
    for s in scenarios:
        if s.id in seen:
            raise SpecError(f"scenario id {s.id!r} is used twice: {seen[s.id]} and {s.file}")
        seen[s.id] = s.file
    return Spec(root, clauses, decisions, scenarios)


def score_table(spec: Spec) -> list[tuple[int, int]]:
    """SCORE-1's table, read from its statement ("6 -> 1, 7 -> 2, ...")."""
    clause = spec.clause_by_id.get("SCORE-1")
    if clause is None:
        raise SpecError("spec/clauses.yaml has no SCORE-1: the score table cannot be drawn")
    pairs = [(int(a), int(b)) for a, b in re.findall(r"(\d+)\s*(?:->|→)\s*(\d+)", str(clause["statement"]))]
    if not pairs:
        raise SpecError("SCORE-1's statement does not state the table as 't -> points' pairs")
    return pairs
