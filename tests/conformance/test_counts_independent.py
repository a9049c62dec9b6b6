"""The COUNT scenarios' expectations stay independent of the reference engine.

Every count in conformance/scenarios/counts/ is recomputed here with a perft over
the independent oracle (tests/engine/oracle.py, which imports nothing from
``reference_engine``; the perft is in tools/make_count_scenarios.py), up
to the depths that stay cheap for it: a depth is checked when the sequences one
shorter (the nodes the perft must expand) number at most ``NODE_BUDGET``, about
two seconds of oracle time. The deeper counts were computed the same way when
the files were generated, where the hand-worked depths were asserted too.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
COUNTS = REPO / "conformance" / "scenarios" / "counts"
GENERATOR = REPO / "tools" / "make_count_scenarios.py"
NODE_BUDGET = 20_000


def _load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("make_count_scenarios", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_count_scenarios", module)
    spec.loader.exec_module(module)
    return module


M = _load_generator()
PERFT = M.OraclePerft()  # one cache of legal actions for the whole module


def _scenarios() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted(COUNTS.glob("*.yaml")):
        for scenario in yaml.safe_load(path.read_text(encoding="utf-8"))["scenarios"]:
            found.append((path.name, scenario))
    return found


SCENARIOS = _scenarios()
BY_ID = {s["id"]: s for _, s in SCENARIOS}


def checked_depth(counts: list[int]) -> int:
    """The deepest depth whose oracle perft expands at most NODE_BUDGET nodes."""
    depth = 1
    while depth < len(counts) and 1 + sum(counts[:depth]) <= NODE_BUDGET:
        depth += 1
    return depth


@pytest.mark.parametrize("scenario", [s for _, s in SCENARIOS], ids=lambda s: s["id"])
def test_counts_equal_the_oracle_perft(scenario: dict[str, Any]) -> None:
    body = scenario["count"]
    expected = body["counts"]
    depth = checked_depth(expected)
    hand = M.oracle_hand(body["setup"], body.get("prefix", []), M.scenario_options(scenario.get("requires")))
    start = time.perf_counter()
    assert PERFT.counts(hand, depth) == expected[:depth]
    assert time.perf_counter() - start < 10, "the node budget no longer keeps the oracle fast"


def test_the_corpus_shape() -> None:
    """>= 10 fixed deals with every Dealer seat, >= 3 options besides the defaults, hand-checked notes."""
    deals = {(s["count"]["setup"]["dealer"], tuple(s["count"]["setup"]["hands"])) for _, s in SCENARIOS}
    assert len(deals) >= 10
    assert {dealer for dealer, _ in deals} == {0, 1, 2, 3}
    options = {d for _, s in SCENARIOS if s["requires"] != "defaults" for d in s["requires"]}
    assert len(options) >= 3
    for _, s in SCENARIOS:
        assert s["id"].startswith("count-")
        assert "count" in s["tags"]
        assert not s.get("generated", False)
        assert M.ORACLE_PHRASE in s["notes"], s["id"]
        assert "Depth 1:" in s["notes"], s["id"]


def test_each_option_scenario_differs_from_its_defaults_twin() -> None:
    """An option scenario has a defaults scenario with the same deal and prefix, and other counts."""
    defaults: dict[str, list[dict[str, Any]]] = {}
    for _, s in SCENARIOS:
        if s["requires"] == "defaults":
            key = yaml.safe_dump([s["count"]["setup"], s["count"].get("prefix", [])])
            defaults.setdefault(key, []).append(s)
    for _, s in SCENARIOS:
        if s["requires"] == "defaults":
            continue
        key = yaml.safe_dump([s["count"]["setup"], s["count"].get("prefix", [])])
        twins = defaults.get(key, [])
        assert twins, f"{s['id']}: no defaults scenario with the same setup and prefix"
        for twin in twins:
            n = min(len(twin["count"]["counts"]), len(s["count"]["counts"]))
            assert twin["count"]["counts"][:n] != s["count"]["counts"][:n], (s["id"], twin["id"])


def test_the_files_are_what_the_generator_writes() -> None:
    """No hand edits: the generator's specs, rendered with the files' counts, give the files."""
    specs = {spec.id: spec for spec in M.SPECS}
    assert set(specs) == set(BY_ID)
    for spec in M.SPECS:
        spec.counts = BY_ID[spec.id]["count"]["counts"]
        assert len(spec.counts) == spec.depth
    for name, description in M.FILES.items():
        rendered = M.render([s for s in M.SPECS if s.file == name], description)
        assert (COUNTS / name).read_text(encoding="utf-8") == rendered, name


def test_checked_depth() -> None:
    assert checked_depth([2]) == 1
    assert checked_depth([2, 4, 225, 48635]) == 4
    assert checked_depth([220, 48400, 3]) == 2
    assert checked_depth([30000, 1]) == 1
