"""The mutant catalogue: well-formed entries, a faithful control, and mutants
that really are different engines.

For every mutant, differential play (random games from seeds, or a small
targeted deal where random play would rarely get there) finds a reachable
state where its protocol answers differ from the reference's. The control
(the default rules through the mutants' path) must never differ, under every
decision option.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from reference_engine.profile import DECISIONS, Profile, every_option_profile
from reference_engine.rules import DEFAULT_RULES, Rules
from tests.mutants import catalogue
from tests.mutants.catalogue import CONTROL, MUTANT_COUNT_NODE_LIMIT, MUTANTS, Mutant, PinnedRules
from tests.mutants.differential import first_divergence, hand_start, lockstep, random_policy

SPEC = Path(__file__).resolve().parents[2] / "spec"
CLAUSE_IDS = {c["id"] for c in yaml.safe_load((SPEC / "clauses.yaml").read_text(encoding="utf-8"))["clauses"]}
DECISION_IDS = {d["id"] for d in yaml.safe_load((SPEC / "decisions.yaml").read_text(encoding="utf-8"))["decisions"]}

DEAL_R_WAN_SIN_AT_0 = [
    "Sup3 Sup4 Sup9 Gon2 Gon3 Gon4 Gon6 Zok4 Zok6 Sin6 Sin8 WanSin",
    "Sup1 Sup5 Sup6 Sup7 Sup8 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok8",
    "Zok7",
    "Sup2 Gon1 Gon5 Zok5 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin7 Sin9",
]
DEAL_R_WAN_SIN_AT_1 = [
    "Sup3 Sup4 Sup9 Gon2 Gon3 Gon4 Gon6 Zok4 Zok6 Zok8 Sin6 Sin8",
    "Sup1 Sup5 Sup6 Sup7 Sup8 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 WanSin",
    "Zok7",
    "Sup2 Gon1 Gon5 Zok5 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin7 Sin9",
]
DEAL_WAN_SIN_ALONE = [
    "Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon9 Zok9 Sin9",
    "Gon1 Gon2 Gon3 Gon4 Gon5 Gon6 Gon7 Gon8 Zok1 Zok2 Zok3 WanSin",
    "Sin8",
    "Zok4 Zok5 Zok6 Zok7 Zok8 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7",
]

def wan_sin_alone_rounds() -> list[str]:
    """DEAL_WAN_SIN_ALONE's first eleven rounds: seat 0 leads a Single, both followers discard, seat 0 goes on."""
    leads, ones, threes = ("Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Sup1 Gon9 Zok9",
                           "Gon1 Gon2 Gon3 Gon4 Gon5 Gon6 Gon7 Gon8 Zok1 Zok2 Zok3",
                           "Zok4 Zok5 Zok6 Zok7 Zok8 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6")
    return [action for lead, one, three in zip(leads.split(), ones.split(), threes.split(), strict=True)
            for action in (f"play {lead}", f"discard {one}", f"discard {three}", "continue")]

ORDER_ONLY = {"legal-order-reversed", "observe-legal-order-reversed"}
"""Miswirings in the order of ``legal.actions`` only (of ``state``, or of what the seat to act observes): the
runner's order check for an engine that declares ``playout`` meets them (tests/conformance/test_legal_order.py),
not the fuzzer, which compares the list as a set."""
TEXT_ONLY = {"text-split-at-unit-separators": "Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3\x1f"}
"""Miswirings in reading what is no white space, with a holding of seat 0 that tells each apart: the fuzzer
respells actions with white space only (variant:space), never with U+001C-U+001F; the scenarios of
conformance/scenarios/contract/white-space.yaml kill them. (``text-split-at-spaces-only`` is met by the
fuzzer's respelled actions.)"""

# Miswirings no side check of the fuzzer meets: one request, answered otherwise than the reference answers it.
PROBED: dict[str, dict[str, object]] = {
    # the fuzzer takes a `state` it did not ask for without comparing it
    "batch-state-every-step": {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"},
                               "steps": [{"seat": 0, "action": "pass"}], "state": "last"},
}

# Random games rarely reach these; a small deal does.
TARGETED: dict[str, tuple[dict[str, object], list[str]]] = {
    # Seat 0 runs Sup1-Sup9 (9 tricks) and keeps three 9s (Elders): a claim of 12.
    "score-12-is-64": (
        hand_start(0, [
            "Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon9 Zok9 Sin9",
            "Gon1 Gon2 Gon3 Gon4 Gon5 Gon6 Gon7 Gon8 Zok1 Zok2 Zok3 Zok4",
            "WanSin",
            "Zok5 Zok6 Zok7 Zok8 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8",
        ]),
        ["call", "play Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9"],
    ),
    # Seat 1 holds the Five Tigers.
    "five-tigers-ignored": (
        hand_start(0, [
            "Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon2 Gon3 Gon4 Gon5",
            "Sup1 Gon1 Zok1 Sin1 WanSin Gon6 Gon7 Gon8 Gon9 Zok2 Zok3 Zok4",
            "Zok5",
            "Zok6 Zok7 Zok8 Zok9 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9",
        ]),
        ["call"],
    ),
    # Seat 1 holds the Five Tigers, and everybody passes.
    "five-tigers-on-void-calling": (
        hand_start(0, [
            "Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon2 Gon3 Gon4 Gon5",
            "Sup1 Gon1 Zok1 Sin1 WanSin Gon6 Gon7 Gon8 Gon9 Zok2 Zok3 Zok4",
            "Zok5",
            "Zok6 Zok7 Zok8 Zok9 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9",
        ]),
        ["pass", "pass", "pass"],
    ),
    # Seat 1 holds the four suited 1s, but Wan Sin is the Dreamer's.
    "five-tigers-without-wan-sin": (
        hand_start(0, [
            "Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon2 Gon3 Gon4 Gon5",
            "Sup1 Gon1 Zok1 Sin1 Zok5 Gon6 Gon7 Gon8 Gon9 Zok2 Zok3 Zok4",
            "WanSin",
            "Zok6 Zok7 Zok8 Zok9 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9",
        ]),
        ["call"],
    ),
    # Option interplay (issue 31 §2.8): each mutant misreads two options together, so its deal is played
    # under them (conformance/scenarios/decisions/interplay.yaml holds the hand-worked scenarios).
    "exempt-wan-sin-always-leadable": (
        hand_start(0, DEAL_R_WAN_SIN_AT_0, {"D9": "exempt"}),
        ["call"],
    ),
    "exempt-wan-sin-in-every-top-suit-privilege": (
        hand_start(0, DEAL_R_WAN_SIN_AT_1, {"D11": "top-suit-elder", "D9": "exempt", "D6": "privileged-player"}),
        ["pass", "call"],
    ),
    "exempt-wan-sin-bound-by-top-suit-privilege": (
        hand_start(0, [
            "Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Gon2 Gon3 Gon4 Gon6 Zok4 Zok6",
            "Sup1 Sup9 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok8 Sin6 Sin8 WanSin",
            "Zok7",
            "Sup2 Gon1 Gon5 Zok5 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin7 Sin9",
        ], {"D11": "top-suit-elder", "D9": "exempt", "D6": "privileged-player"}),
        ["pass", "call"],
    ),
    "exempt-wan-sin-free-for-followers": (
        hand_start(0, DEAL_WAN_SIN_ALONE, {"D8": "followers-too", "D9": "exempt"}),
        ["call", "play Sup2"],
    ),
    # Seat 0 leads every round and never claims; seat 1 keeps Wan Sin for the last round.
    "exempt-follower-wan-sin-alone-stuck": (
        hand_start(0, DEAL_WAN_SIN_ALONE, {"D8": "followers-too", "D9": "exempt"}),
        ["call", *wan_sin_alone_rounds(), "play Sin9"],
    ),
    "void-redeal-by-d4-caller": (
        hand_start(0, DEAL_R_WAN_SIN_AT_0, {"D4": "caller", "D5": "same-dealer"}),
        ["pass", "pass", "pass"],
    ),
    "void-keeps-deal-under-d4-caller": (
        hand_start(0, DEAL_R_WAN_SIN_AT_0, {"D4": "caller"}),
        ["pass", "pass", "pass"],
    ),
    # The Dealer holds the Five Tigers and passes; seat 3 calls.
    "five-tigers-given-up-by-a-pass": (
        hand_start(0, [
            "Sup1 Sup2 Sup7 Gon1 Gon2 Zok1 Zok2 Zok7 Sin1 Sin2 Sin7 WanSin",
            "Sup3 Sup4 Sup5 Sup6 Sup8 Sup9 Gon3 Gon4 Gon5 Gon6 Gon8 Gon9",
            "Gon7",
            "Zok3 Zok4 Zok5 Zok6 Zok8 Zok9 Sin3 Sin4 Sin5 Sin6 Sin8 Sin9",
        ]),
        ["pass", "pass", "call"],
    ),
}


def test_enough_mutants() -> None:
    assert len(MUTANTS) >= 25


@pytest.mark.parametrize("m", MUTANTS, ids=lambda m: m.id)
def test_entry_is_well_formed(m: Mutant) -> None:
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", m.id)
    assert m.description.endswith(".") and "\n" not in m.description and m.description[0].isupper()
    assert m.clauses and set(m.clauses) <= CLAUSE_IDS, set(m.clauses) - CLAUSE_IDS
    if m.pins is not None:
        decision, _, option = m.pins.partition("=")
        assert decision in DECISION_IDS and option
    if m.report is not None or m.session is not None:  # a misreport or miswiring plays the default rules
        assert m.rules is DEFAULT_RULES and m.pins is None and (m.report is None or m.session is None)
        return
    assert isinstance(m.rules, Rules) and m.rules != DEFAULT_RULES


@pytest.mark.parametrize("m", MUTANTS, ids=lambda m: m.id)
def test_mutant_changes_one_thing(m: Mutant) -> None:
    """A mutant is a pinned option, or overrides one rule of the default rules (two for one misreading at most)."""
    if m.report is not None:
        assert m.rules is DEFAULT_RULES
        return
    if m.session is not None:  # one request answered otherwise: the session overrides handle, and nothing else
        assert m.rules is DEFAULT_RULES and {n for n, v in vars(m.session).items() if callable(v)} == {"handle"}
        return
    if m.pins is not None:
        assert type(m.rules) is PinnedRules and m.rules.pins == (tuple(m.pins.split("=")),)
        return
    cls = type(m.rules)
    assert cls.__bases__ == (Rules,)
    changed = {name for name, value in vars(cls).items() if not name.startswith("__") and callable(value)}
    assert 1 <= len(changed) <= 2, changed
    assert changed <= set(vars(Rules)), f"{changed - set(vars(Rules))} is not a rule of Rules"


def test_every_non_default_option_is_a_pinned_mutant() -> None:
    pinned = {m.pins for m in MUTANTS if m.pins is not None}
    assert pinned == {f"{d}={o}" for d, _key, options in DECISIONS for o in options[1:]}


def test_factories_are_module_attributes_with_distinct_engine_names() -> None:
    names = set()
    for m in [*MUTANTS, CONTROL]:
        factory = getattr(catalogue, m.factory_name)
        hello = factory().handle({"cmd": "hello", "protocol": 1})
        assert hello["ok"] and hello["engine"]["name"] == f"mutant-{m.id}"
        names.add(hello["engine"]["name"])
        assert m.engine_spec == f"python:tests.mutants.catalogue:{m.factory_name}"
    assert len(names) == len(MUTANTS) + 1


def test_control_is_the_reference_under_defaults() -> None:
    assert first_divergence(catalogue.reference, catalogue.control, range(120)) is None


@pytest.mark.parametrize("profile", every_option_profile()[1:], ids=lambda p: ",".join(f"{k}={v}" for k, v in p.changed().items()))
def test_control_is_the_reference_under_every_option(profile: Profile) -> None:
    assert first_divergence(catalogue.reference, catalogue.control, range(12), profile.changed()) is None


def test_control_is_the_reference_on_targeted_deals() -> None:
    for start, script in TARGETED.values():
        for seed in range(5):
            policy = random_policy(claim_rate=1.0)
            assert lockstep(catalogue.reference(), catalogue.control(), start, seed=seed, script=script, policy=policy) is None


def test_control_pattern_answers_match_the_reference() -> None:
    ref, ctl = catalogue.reference(), catalogue.control()
    probes = ["Sup3 Sup4 Sup5", "Sup1 Gon1 WanSin", "Gon7 Gon7", "Sup1 Gon1 Zok1 Sin1", "Sin9"]
    for text in probes:
        msg: dict[str, object] = {"cmd": "pattern", "classify": text}
        assert ref.handle(msg) == ctl.handle(msg)
    elders = "Sup1 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin"
    for current, challenger in [("Sup1", "Sup2"), ("Sup7", "Sup8"), ("Gon1 Zok1 Sin1", "Sup9 Gon9 Zok9"),
                                ("Sup1 Sup2 Sup3", "Gon7 Gon8 Gon9"), ("Sup5 Gon5 Zok5", "Sup1 Gon1 Sin1")]:
        for options in ({}, {"D16": "lowest"}, {"D7": "any-suit"}):
            msg = {"cmd": "pattern", "current": current, "challenger": challenger, "options": options,
                   "elders": elders, "led": True}
            answer = ref.handle(msg)
            assert answer["ok"], answer
            assert answer == ctl.handle(msg)


@pytest.mark.parametrize("m", MUTANTS, ids=lambda m: m.id)
def test_mutant_differs_from_the_reference(m: Mutant) -> None:
    if m.id in TEXT_ONLY:
        hands = [TEXT_ONLY[m.id], "Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6", "Sin9",
                 "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 WanSin"]
        answers = []
        for session in (catalogue.reference(), m.factory()):
            session.handle({"cmd": "hello", "protocol": 3})
            answers.append(session.handle({"cmd": "start", "setup": {"dealer": 0, "hands": hands}})["ok"])
        assert answers[0] != answers[1], answers
        return
    if m.id in ORDER_ONLY:  # the same answers but for the order of a list the fuzzer compares as a set
        ref, mutant = catalogue.reference(), m.factory()
        for session in (ref, mutant):
            session.handle({"cmd": "hello", "protocol": 3})
            session.handle({"cmd": "start", "setup": {"dealer": 0, "seed": "3"}})
        lists = [[session.handle({"cmd": "state"})["legal"]["actions"],
                  session.handle({"cmd": "observe", "seat": 0})["observation"]["legal"]["actions"]]
                 for session in (ref, mutant)]  # seat 0, the Dealer, speaks first
        assert lists[0] != lists[1] and [sorted(a) for a in lists[0]] == [sorted(a) for a in lists[1]], lists
        return
    if m.id in PROBED:
        mutant, reference = m.factory(), catalogue.reference()
        for session in (mutant, reference):
            session.handle({"cmd": "hello", "protocol": 3})
        assert mutant.handle(PROBED[m.id]) != reference.handle(PROBED[m.id]), f"{m.id} answers the probe as the reference"
        return
    if m.session is not None:  # plays like the reference; one side check of the fuzzer tells it apart
        from conformance.fuzz import FuzzConfig, fuzz

        report = fuzz(FuzzConfig.of(engine=m.factory, hands=300, seed=0, out=None, shrink=False))
        # a disagreement, or an answer the protocol rules out (a batch of too few steps is a candidate failure)
        assert report.disagreement is not None or report.failures, f"{m.id}: {report.format()}"
        return
    if m.id in TARGETED:
        start, script = TARGETED[m.id]
        div = lockstep(catalogue.reference(), m.factory(), start, script=script, policy=random_policy(claim_rate=1.0))
        assert div is not None, f"{m.id} plays the targeted deal exactly like the reference"
        return
    found = first_divergence(catalogue.reference, m.factory, range(60))
    assert found is not None, f"{m.id} played 60 random games exactly like the reference"


def test_the_reference_counts_every_count_scenario_within_the_mutant_node_limit() -> None:
    """The bound that stops exploding mutants must never stop a correct engine."""
    from conformance.loader import load_scenarios
    from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
    from conformance.schemas import load_schemas
    from conformance.setups import start_request, start_setup
    from conformance.specdata import load_spec_data
    from reference_engine.wire import Session

    spec_dir = default_spec_dir()
    scenarios = load_scenarios([DEFAULT_SCENARIOS_DIR / "counts"], load_schemas(spec_dir / "schema"),
                               load_spec_data(spec_dir))
    assert scenarios
    session = Session()
    session.count_node_limit = MUTANT_COUNT_NODE_LIMIT // 4  # with room to spare
    for scenario in scenarios:
        body = scenario.body
        options = dict(scenario.requires) if not isinstance(scenario.requires, str) and scenario.requires else {}
        assert session.handle(start_request(start_setup(body["setup"]), options))["ok"]
        for step in body.get("prefix", ()):
            assert session.handle({"cmd": "act", "seat": step["seat"], "action": step["do"]})["ok"]
        answer = session.handle({"cmd": "count", "depth": len(body["counts"])})
        assert answer == {"ok": True, "counts": list(body["counts"])}, scenario.id
