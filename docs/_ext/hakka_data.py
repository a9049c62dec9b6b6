"""Reading ``spec/`` and the conformance scenarios for the rulebook.

No Sphinx: the Sphinx extension ``hakka_spec`` renders what this module
loads, and ``tests/rulebook`` can use it directly. spec/ and the scenarios are
read and checked by the harness's one reader (``conformance.specdata`` through
``conformance.suite.Suite.load``), not here.

Cards, deals (D2, D33) and the Elders of a deal (ELD-1) come from the reference
engine's public API; what a scenario's steps do (the Elders they promote, ELD-2,
D19) comes from the runner playing it on the reference (``Spec.played``), the
road every engine is run by. The rulebook draws what the engine deals and
answers, and keeps no second copy of those rules nor a scenario interpreter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hakka_gettext import N_

import reference_engine as engine
from conformance.engine import Engine
from conformance.errors import InputError
from conformance.listeners import Capture, Exchange
from conformance.loader import Scenario
from conformance.specdata import SpecData, default_languages
from conformance.suite import Suite
from reference_engine.cards import NAMES
from reference_engine.events import EldersPromoted
from reference_engine.game import deal_hand

WAN_SIN = "WanSin"
CARD_ORDER = {name: i for i, name in enumerate(NAMES)}
"""The engine's canonical card order (CARDS-2): Sup1 .. Sup9, Gon1 .. Sin9, WanSin."""
INITIAL_ELDERS = tuple(str(c) for c in engine.Cards(engine.Hand.from_seed(0, 0).elders))
"""ELD-1: the Elders at the start of every hand, as the engine deals them."""

# The areas' titles (spec/clauses.yaml `areas:`) as msgids of the catalog hakka.po: N_ marks them for
# extraction; load_spec refuses an area whose title is not here (it would show untranslated).
AREA_TITLES = frozenset({
    N_("The cards"), N_("The game"), N_("Dealing"), N_("Calling"), N_("Patterns"), N_("Elder cards"),
    N_("Five Tigers"), N_("Playing"), N_("Claiming victory"), N_("Scoring"), N_("What each seat sees"),
})

# Every language a source may be in: code -> (its English name, a msgid of hakka.po; direction), from
# spec/languages.yaml (build_all's gettext step puts the English names into hakka.pot).
LANGUAGES = {lang.code: (lang.english, lang.dir) for lang in default_languages()}
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
    """One card in the notation of spec/README.md, read by the reference engine's parser."""
    try:
        return Card(str(engine.Card.parse(text)))
    except engine.HakkaError as exc:
        raise SpecError(f"{text!r} is not a card (spec/README.md, card notation): {exc}") from None


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


def _cards_of(cards: engine.Cards) -> list[Card]:
    return [Card(str(c)) for c in cards]


# --------------------------------------------- deals and Elders, drawn by the engine
#
# The seeded shuffle (D33), the deal order (DEAL-4, D2) and Elder promotion
# (ELD-2, D19) are the reference engine's: the rulebook asks it (through its
# public API for a deal, through the runner for a scenario's steps) rather
# than keep a second copy of those rules.


def _profile(options: dict[str, str]) -> engine.Profile:
    try:
        return engine.Profile.from_options(options)
    except engine.HakkaError as exc:
        raise SpecError(f"options {options}: {exc}") from None


def _as_text(cards: Any) -> str:
    return cards if isinstance(cards, str) else " ".join(str(c) for c in cards)


def engine_hand(setup: dict[str, Any], options: dict[str, str]) -> tuple[engine.Hand, str]:
    """The reference engine's hand for a scenario's setup, and how it was dealt (for the reader)."""
    profile = _profile(options)
    deal: dict[str, object] = {key: setup[key] for key in ("hands", "deck", "seed") if key in setup}
    if "hands" in deal:
        deal["hands"] = [_as_text(h) for h in setup["hands"]]
    if "deck" in deal:
        deal["deck"] = _as_text(setup["deck"])
    if "seed" in deal:
        deal["seed"] = int(setup["seed"])  # a seed past 2**63 is written as text in a scenario
    try:
        hand = deal_hand(int(setup.get("dealer", 0)), deal, profile)  # the engine's one reading of a deal
    except engine.HakkaError as exc:
        raise SpecError(f"setup {setup}: {exc}") from None
    order = profile.deal_order
    if "hands" in deal:
        return hand, "hands"
    if "deck" in deal:
        return hand, f"dealt from a given deck order ({order}, D2)"
    return hand, f"dealt from seed {setup['seed']} (D33, {order})"


def setup_hands(setup: dict[str, Any], options: dict[str, str]) -> tuple[list[list[Card]], str]:
    """The four hands of a setup, and how they were obtained (for the reader)."""
    hand, how = engine_hand(setup, options)
    return [_cards_of(hand.hand_of(seat)) for seat in range(4)], how


def elders_by_step(spec: Spec, sc: Scenario, part: str, options: dict[str, str]) -> list[list[str]]:
    """The Elders before each step of ``part`` (``steps`` or ``prefix``) of a one-hand scenario: those of
    the deal, plus the cards that the events of each action promote (ELD-2, D19), as the reference
    engine answered the runner playing the scenario (:meth:`Spec.played`).

    A refused action promotes nothing; where the run stopped short of a step (a scenario the
    reference does not pass), the Elders stay as they were from there on.
    """
    elders = engine_hand(sc.body["setup"], options)[0].elders
    played = spec.played(sc)
    out = []
    for number in range(len(sc.body.get(part) or ())):
        out.append([c.name for c in _cards_of(engine.Cards(elders))])
        for request, answer in played.get(f"{part}[{number}]", ()):
            if request.get("cmd") != "act" or not answer or answer.get("ok") is not True:
                continue
            for text in answer.get("events", ()):
                event = engine.Event.parse(text)
                if isinstance(event, EldersPromoted):
                    elders |= event.mask
    return out


# ------------------------------------------------------------ the spec
#
# spec/ and the scenarios are read by the harness's one reader (conformance.specdata,
# conformance.suite.Suite.load): its YAML loader, schema and checks; the rulebook renders them.


def scenario_group(sc: Scenario) -> str:
    """The first folder below conformance/scenarios/ ("play"), "misc" at the top, "guide" elsewhere."""
    parts = Path(sc.file).parts
    for i in range(len(parts) - 2):
        if parts[i : i + 2] == ("conformance", "scenarios"):
            rest = parts[i + 2 :]
            return rest[0] if len(rest) > 1 else "misc"
    return "guide"


@dataclass
class Spec:
    root: Path
    data: SpecData
    scenarios: list[Scenario]
    clauses: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    clause_by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    decision_by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    scenario_by_id: dict[str, Scenario] = field(default_factory=dict)
    suite: Suite | None = None
    """The harness's suite the spec was loaded with: the runner's road to the reference engine."""
    _played: dict[tuple[str, str], dict[str, list[Exchange]]] = field(default_factory=dict)
    _reference: Engine | None = None

    def __post_init__(self) -> None:
        self.clauses = [self.data.items[cid] for cid in self.data.clauses or {}]
        self.decisions = [self.data.items[did] for did in self.data.decisions or {}]
        self.clause_by_id = {c["id"]: c for c in self.clauses}
        self.decision_by_id = {d["id"]: d for d in self.decisions}
        self.scenario_by_id = {s.id: s for s in self.scenarios}

    # -- areas

    def areas(self) -> list[str]:
        """Clause prefixes present, in the reading order of spec/clauses.yaml's `areas:`."""
        present = dict.fromkeys(clause_prefix(c["id"]) for c in self.clauses)
        return sorted(present, key=self.data.area_sort_key)

    def area_title(self, prefix: str) -> str:
        """The area's title (the English msgid of hakka.po), or the prefix in title case."""
        area = self.data.area_of_prefix(prefix)
        return area.title if area is not None else prefix.title()

    def clauses_of(self, prefix: str) -> list[dict[str, Any]]:
        return [c for c in self.clauses if clause_prefix(c["id"]) == prefix]

    def scenario_groups(self) -> list[str]:
        groups: list[str] = []
        for s in self.scenarios:
            if not s.generated and scenario_group(s) not in groups:
                groups.append(scenario_group(s))
        return groups

    # -- decisions

    def default_of(self, did: str) -> str | None:
        return self.data.default_of(did)

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
        found = [s for s in self.scenarios if not s.generated and cid in s.clauses]
        return sorted(found, key=lambda s: (0 if "worked-example" in s.tags else 1))

    def generated_count(self, cid: str | None = None) -> int:
        return sum(1 for s in self.scenarios if s.generated and (cid is None or cid in s.clauses))

    def played(self, sc: Scenario) -> dict[str, list[Exchange]]:
        """Every exchange of the runner playing ``sc`` on the reference engine, by the part of the scenario
        it was made in (``setup``, ``steps[3]``, ``prefix[0]``…): the road every engine is run by, so a page
        shows what the reference answers and never plays the scenario by a reading of its own."""
        key = (sc.file, sc.id)
        if key not in self._played:
            if self.suite is None:
                self.suite = Suite.load(self.root / "spec", [])
            if self._reference is None:
                self._reference = self.suite.engine("reference")
            capture = Capture()
            self.suite.run(self._reference, [sc], listeners=[capture])
            self._played[key] = capture.by_step(sc.id)
        return self._played[key]


def clause_prefix(cid: str) -> str:
    m = CLAUSE_ID.match(cid)
    return m.group(1) if m else cid.split("-")[0]


def clause_page(cid: str) -> str:
    """The docname of the page holding a clause: ``rules/play`` for PLAY-4."""
    return f"rules/{clause_prefix(cid).lower()}"


def option_ids(decision: dict[str, Any]) -> list[str]:
    return [str(o["id"]) if isinstance(o, dict) else str(o) for o in decision.get("options") or []]


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


def _problems(exc: InputError) -> str:
    return "; ".join(str(p) for p in exc.problems)


def load_spec(root: Path) -> Spec:
    """spec/ and every scenario, read and checked by the harness (``Suite.load``)."""
    missing = [p for p in required_files(root) if not p.exists()]
    if missing:
        names = ", ".join(str(p.relative_to(root)) for p in missing)
        raise SpecError(
            f"the rulebook is generated from spec/ and cannot be built: missing {names} "
            f"(looked under {root})"
        )
    try:
        suite = Suite.load(root / "spec", [root / "conformance" / "scenarios"])
    except InputError as exc:
        raise SpecError(_problems(exc)) from None
    untitled = [a.title for a in suite.spec.areas if a.title not in AREA_TITLES]
    if untitled:
        raise SpecError(f"spec/clauses.yaml: area title(s) {untitled} have no msgid in AREA_TITLES "
                        "(docs/_ext/hakka_data.py): add them there and to the catalogs")
    return Spec(root, suite.spec, list(suite.scenarios), suite=suite)


def load_one_scenario(text: str, name: str, root: Path) -> Scenario:
    """One scenario written in a page (YAML), checked by the harness as a scenario file is."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "guide" / f"{name}.yaml"
        path.parent.mkdir()
        indented = "\n".join("    " + line for line in text.splitlines())
        path.write_text(f"scenarios:\n  -\n{indented}\n", encoding="utf-8")
        try:
            suite = Suite.load(root / "spec", [path])
        except InputError as exc:
            raise SpecError(_problems(exc).replace(str(path), name)) from None
    return suite.scenarios[0]


def score_table(spec: Spec) -> list[tuple[int, int]]:
    """SCORE-1's table, read from its statement ("6 -> 1, 7 -> 2, ...")."""
    clause = spec.clause_by_id.get("SCORE-1")
    if clause is None:
        raise SpecError("spec/clauses.yaml has no SCORE-1: the score table cannot be drawn")
    pairs = [(int(a), int(b)) for a, b in re.findall(r"(\d+)\s*(?:->|→)\s*(\d+)", str(clause["statement"]))]
    if not pairs:
        raise SpecError("SCORE-1's statement does not state the table as 't -> points' pairs")
    return pairs
