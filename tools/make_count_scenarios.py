"""Perft over the independent oracle, and the generator of the COUNT scenarios.

The expectations of ``conformance/scenarios/counts/*.yaml`` come from here, never
from the reference engine: :func:`oracle_perft` walks every legal action
sequence of an :class:`oracle.OracleHand` (tests/engine/oracle.py, written from
the rules text and importing nothing from ``reference_engine``), with legal
actions found the oracle's way: every subset of the acting seat's hand is put
to the oracle's ``is_legal_play`` and ``is_legal_discard``, so each concrete
discard is one action (spec/PROTOCOL.md, ``count``).

The scenarios themselves are data, in ``tools/data/count_scenarios.yaml``: each
carries the depth-1 (and often depth-2) numbers worked out by hand in its notes;
generating asserts that the oracle agrees with them.

Run ``python tools/make_count_scenarios.py`` (or ``python -m tools.make_count_scenarios``)
to rewrite the YAML (``--check`` only compares). tests/conformance/test_counts_independent.py
recomputes the cheap depths of every count scenario with the same perft.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
ORACLE = REPO / "tests" / "engine" / "oracle.py"
OUT = REPO / "conformance" / "scenarios" / "counts"
SCHEMA = REPO / "spec" / "schema" / "scenario.schema.json"

# The oracle is test code (tests/engine/oracle.py); a tool beside the tests loads it by path
# (mypy reads the same file as the module tests.engine.oracle).
_NAME = "hakka_count_oracle"
if TYPE_CHECKING:
    from tests.engine import oracle
elif _NAME in sys.modules:
    oracle = sys.modules[_NAME]
else:
    _spec = importlib.util.spec_from_file_location(_NAME, ORACLE)
    assert _spec is not None and _spec.loader is not None
    oracle = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = oracle  # dataclasses look their module up while the file runs
    _spec.loader.exec_module(oracle)

Action = tuple[str, "frozenset[oracle.Card]"]  # ("play" | "discard" | "call" | ..., cards)


# ------------------------------------------------------------------ oracle perft


def _clone(hand: oracle.OracleHand) -> oracle.OracleHand:
    c = copy.copy(hand)
    c.hands = [set(h) for h in hand.hands]
    c.face_up = set(hand.face_up)
    c.discarded = set(hand.discarded)
    c.tricks = list(hand.tricks)
    c.round = list(hand.round)
    return c


class OraclePerft:
    """Legal actions and perft of oracle hands under one set of options.

    Legal plays and discards of a playing seat are a pure function of the
    oracle's ``Facts`` (hand, PP or not, leading, the pattern to beat and
    whether it was an Elder, the Elders); they are computed once per distinct
    facts, by trying every non-empty subset of the hand.
    """

    def __init__(self) -> None:
        self._cache: dict[Any, list[Action]] = {}

    def legal(self, hand: oracle.OracleHand) -> list[Action]:
        if hand.phase == "ended":
            return []
        if hand.phase != "playing":
            return [(verb, frozenset()) for verb in sorted(hand.simple_actions())]
        facts = hand.facts()
        key = (
            tuple(sorted(facts.options.items())),
            frozenset(facts.hand),
            facts.is_pp,
            facts.leading,
            facts.target,
            facts.target_was_elder,
            frozenset(facts.elders),
        )
        found = self._cache.get(key)
        if found is None:
            option = oracle.discard_option(facts)
            held = sorted(facts.hand, key=oracle.canonical_key)
            found = []
            for k in range(1, len(held) + 1):
                for combo in combinations(held, k):
                    cards = frozenset(combo)
                    if oracle.is_legal_play(cards, facts):
                        found.append(("play", cards))
                    if oracle.is_legal_discard(cards, facts, option):
                        found.append(("discard", cards))
            self._cache[key] = found
        return found

    @staticmethod
    def child(hand: oracle.OracleHand, action: Action) -> oracle.OracleHand:
        verb, cards = action
        c = _clone(hand)
        seat = c.to_act
        assert seat is not None
        if verb in ("play", "discard"):
            c._play(seat, verb, cards)  # legality was just established subset by subset
        else:
            c.apply(seat, verb)
        return c

    def perft(self, hand: oracle.OracleHand, depth: int) -> int:
        """Sequences of exactly ``depth`` legal actions (an ended hand has none)."""
        actions = self.legal(hand)
        if depth == 1:
            return len(actions)
        return sum(self.perft(self.child(hand, a), depth - 1) for a in actions)

    def counts(self, hand: oracle.OracleHand, depth: int) -> list[int]:
        """``[perft 1, ..., perft depth]`` in one walk."""
        totals = [0] * depth

        def walk(h: oracle.OracleHand, level: int) -> None:
            actions = self.legal(h)
            totals[level] += len(actions)
            if level + 1 < depth:
                for a in actions:
                    walk(self.child(h, a), level + 1)

        walk(hand, 0)
        return totals


def parse_cards(text: str) -> frozenset[oracle.Card]:
    return frozenset(oracle.card_from_name(n) for n in text.split())


def parse_action(text: str) -> Action:
    verb, *rest = text.split()
    return verb, parse_cards(" ".join(rest)) if rest else frozenset()


def oracle_hand(
    setup: Mapping[str, Any], prefix: Sequence[Mapping[str, Any]], options: Mapping[str, str]
) -> oracle.OracleHand:
    """The oracle hand of a count scenario's setup (explicit hands) after its prefix."""
    dealt = [parse_cards(h) for h in setup["hands"]]
    hand = oracle.OracleHand(setup["dealer"], dealt, dict(options))
    for step in prefix:
        verb, cards = parse_action(step["do"])
        hand.apply(step["seat"], verb, cards)  # the oracle checks the prefix's legality
    return hand


def scenario_options(requires: Any) -> dict[str, str]:
    return {} if requires in (None, "defaults") else dict(requires)


# ------------------------------------------------------------------ the data

DATA = HERE / "data" / "count_scenarios.yaml"


@dataclass
class Spec:
    id: str
    file: str
    title: str
    deal: str
    prefix: list[tuple[int, str]]
    requires: Any  # "defaults" or {decision: option}
    depth: int
    clauses: list[str]
    hand: dict[int, int]  # depth -> count worked out by hand in the notes
    notes: str
    twin: str | None = None  # the defaults scenario with the same deal and prefix
    counts: list[int] = field(default_factory=list)


# The phrase every count scenario's notes carry (tests/conformance/test_counts_independent.py looks for it).
ORACLE_PHRASE = "Counts from the independent oracle (tests/engine/oracle.py), depth 1 checked by hand"
ORACLE_LINE = ORACLE_PHRASE + "{more}.\nThe perft over the oracle is in tools/make_count_scenarios.py."

_KEYS = {"id", "file", "title", "deal", "prefix", "requires", "depth", "clauses", "hand", "notes", "twin"}
_REQUIRED = _KEYS - {"twin"}


def load_data(path: Path = DATA) -> tuple[dict[str, str], dict[str, dict[str, Any]], list[Spec]]:
    """The files, deals and scenario specs of ``tools/data/count_scenarios.yaml``, checked for shape."""
    shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SystemExit(f"{shown}: cannot read the count scenarios: {exc}") from None
    if not isinstance(doc, dict) or not {"files", "deals", "scenarios"} <= set(doc):
        raise SystemExit(f"{shown}: expected the keys files, deals and scenarios")
    specs = []
    for i, item in enumerate(doc["scenarios"]):
        where = f"{shown}: scenario #{i + 1} ({item.get('id', '?') if isinstance(item, dict) else '?'})"
        if not isinstance(item, dict) or not set(item) >= _REQUIRED or not set(item) <= _KEYS:
            keys = sorted(item) if isinstance(item, dict) else item
            raise SystemExit(f"{where}: needs the keys {sorted(_REQUIRED)} (and may have twin), has {keys}")
        if item["deal"] not in doc["deals"]:
            raise SystemExit(f"{where}: no deal named {item['deal']!r} under deals")
        specs.append(Spec(
            id=str(item["id"]), file=str(item["file"]), title=str(item["title"]), deal=str(item["deal"]),
            prefix=[(int(seat), str(action)) for seat, action in item["prefix"]],
            requires=item["requires"] if item["requires"] == "defaults" else dict(item["requires"]),
            depth=int(item["depth"]), clauses=[str(c) for c in item["clauses"]],
            hand={int(d): int(n) for d, n in item["hand"].items()},
            notes=str(item["notes"]).rstrip("\n"), twin=item.get("twin"),
        ))
    return dict(doc["files"]), dict(doc["deals"]), specs


FILES, DEALS, SPECS = load_data()


def spec_hand(spec: Spec) -> oracle.OracleHand:
    deal = DEALS[spec.deal]
    prefix = [{"seat": s, "do": a} for s, a in spec.prefix]
    return oracle_hand(deal, prefix, scenario_options(spec.requires))


def check_deal(name: str, deal: Mapping[str, Any]) -> None:
    hands = [parse_cards(h) for h in deal["hands"]]
    dreamer = (deal["dealer"] + 2) % 4
    sizes = [len(h) for h in hands]
    assert sizes == [1 if s == dreamer else 12 for s in range(4)], (name, sizes)
    assert frozenset().union(*hands) == oracle.FULL_DECK, name
    for text in deal["hands"]:
        assert text == oracle.names(parse_cards(text)), (name, "hands in canonical order", text)


def compute(spec: Spec, perft: OraclePerft) -> tuple[list[int], float]:
    start = time.perf_counter()
    counts = perft.counts(spec_hand(spec), spec.depth)
    return counts, time.perf_counter() - start


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _action(text: str) -> str:
    return text if " " not in text else _quote(text)


def render(specs: Sequence[Spec], description: str) -> str:
    out = [f"# yaml-language-server: $schema={os.path.relpath(SCHEMA, OUT)}",
           "# Written by tools/make_count_scenarios.py from tools/data/count_scenarios.yaml: edit the data there, not this file.",
           "description: >"]
    words = description.split()
    line = " "
    for w in words:
        if len(line) + len(w) + 1 > 100:
            out.append(line.rstrip())
            line = " "
        line += " " + w
    out.append(line.rstrip())
    out.append("scenarios:")
    for spec in specs:
        deal = DEALS[spec.deal]
        if spec.requires == "defaults":
            requires = "defaults"
        else:
            requires = "{" + ", ".join(f"{k}: {_quote(v)}" for k, v in spec.requires.items()) + "}"
        checked = sorted(spec.hand)
        more = ""
        if checked[-1] >= 2:
            more = ", depth 2 too" if checked[-1] == 2 else f", depths 2-{checked[-1]} too"
        notes = spec.notes.rstrip() + "\n" + ORACLE_LINE.format(more=more)
        out += [
            f"  - id: {spec.id}",
            f"    title: {_quote(spec.title)}",
            f"    clauses: [{', '.join(spec.clauses)}]",
            f"    requires: {requires}",
            "    tags: [count]",
            "    notes: |",
            *[("      " + n).rstrip() for n in notes.splitlines()],
            "    count:",
            "      setup:",
            f"        dealer: {deal['dealer']}",
            "        hands:",
            *[f"          - {_quote(h)}" for h in deal["hands"]],
        ]
        if spec.prefix:
            out.append("      prefix:")
            out += [f"        - {{seat: {s}, do: {_action(a)}}}" for s, a in spec.prefix]
        out.append(f"      counts: [{', '.join(str(c) for c in spec.counts)}]")
        out.append("")
    return "\n".join(out)


def generate(verbose: bool = True) -> dict[str, str]:
    """Compute every spec's counts with the oracle, check the hand-worked numbers, render the files."""
    for name, deal in DEALS.items():
        check_deal(name, deal)
    ids = [s.id for s in SPECS]
    assert len(ids) == len(set(ids)), "duplicate IDs"
    perft = OraclePerft()
    by_id = {}
    for spec in SPECS:
        spec.counts, seconds = compute(spec, perft)
        by_id[spec.id] = spec
        if verbose:
            print(f"{spec.id}: {spec.counts} ({seconds:.1f} s)", file=sys.stderr)
        for depth, number in spec.hand.items():
            assert spec.counts[depth - 1] == number, (
                f"{spec.id}: depth {depth} by hand {number}, oracle {spec.counts[depth - 1]}")
    for spec in SPECS:
        if spec.twin is not None:
            twin = by_id[spec.twin]
            assert twin.requires == "defaults" and twin.deal == spec.deal and twin.prefix == spec.prefix, spec.id
            n = min(len(twin.counts), len(spec.counts))
            assert twin.counts[:n] != spec.counts[:n], f"{spec.id}: same counts as {twin.id}"
        else:
            assert spec.requires == "defaults", f"{spec.id}: an option scenario needs its defaults twin"
    files = {}
    for name, description in FILES.items():
        specs = [s for s in SPECS if s.file == name]
        files[name] = render(specs, description)
    assert {s.file for s in SPECS} <= set(FILES)
    return files


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line: ``--help`` prints the help and does nothing else (argparse exits before any work)."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.make_count_scenarios",
        description="Compute the perft counts of the COUNT scenarios (tools/data/count_scenarios.yaml) with the "
                    "independent oracle, check the numbers worked out by hand, and write "
                    "conformance/scenarios/counts/*.yaml.")
    parser.add_argument("--check", action="store_true",
                        help="only compare: exit 1, naming the files, if the YAML on disk is out of date")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    check = parse_args(argv).check
    files = generate()
    stale = []
    for name, text in files.items():
        path = OUT / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}", file=sys.stderr)
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
