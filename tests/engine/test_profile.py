"""reference_engine.profile: one option per decision, equal to spec/decisions.yaml."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from reference_engine import DECISIONS, DEFAULT_PROFILE, Profile, SetupError
from reference_engine.profile import every_option_profile

ROOT = Path(__file__).resolve().parents[2]
DECISIONS_YAML = ROOT / "spec" / "decisions.yaml"
README = ROOT / "spec" / "README.md"


def readme_table() -> list[tuple[str, str, tuple[str, ...]]]:
    """The decision table of spec/README.md: | D1 | `direction` | `counterclockwise` |."""
    rows = []
    for line in README.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*(D\d+)\s*\|\s*`([a-z_]+)`\s*\|(.*)\|\s*$", line)
        if m:
            rows.append((m.group(1), m.group(2), tuple(re.findall(r"`([^`]+)`", m.group(3)))))
    return rows


def test_profile_table_equals_spec_readme() -> None:
    rows = readme_table()
    assert len(rows) >= 36  # D1-D36, plus any found later
    assert [d for d, _k, _o in rows] == [f"D{i}" for i in range(1, len(rows) + 1)]
    assert list(DECISIONS) == rows


def _decision_entries(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        for key in ("decisions", "items"):
            if isinstance(data.get(key), list):
                return list(data[key])
        if all(re.fullmatch(r"D\d+", str(k)) for k in data):
            return [{"id": k, **v} for k, v in data.items()]
    if isinstance(data, list):
        return list(data)
    raise AssertionError(f"cannot find the decisions in {DECISIONS_YAML}")


def _option_ids(entry: dict[str, Any]) -> list[str]:
    options = entry.get("options") or []
    if isinstance(options, dict):
        return [str(k) for k in options]
    return [str(o["id"]) if isinstance(o, dict) else str(o) for o in options]


def test_profile_table_equals_spec_decisions_yaml() -> None:
    import yaml

    entries = _decision_entries(yaml.safe_load(DECISIONS_YAML.read_text(encoding="utf-8")))
    table = {}
    for entry in entries:
        ids = _option_ids(entry)
        default = entry.get("default", ids[0] if ids else None)
        table[str(entry["id"])] = (str(entry["key"]), default, set(ids))
    ours = {d: (key, opts[0], set(opts)) for d, key, opts in DECISIONS}
    assert table == ours


def test_profile_fields_are_the_decision_keys_with_the_defaults() -> None:
    fields = dataclasses.fields(Profile)
    assert [f.name for f in fields] == [key for _d, key, _o in DECISIONS]
    for f, (_d, _key, opts) in zip(fields, DECISIONS, strict=True):
        assert f.default == opts[0]
    assert Profile() == DEFAULT_PROFILE
    assert DEFAULT_PROFILE.changed() == {}
    assert DEFAULT_PROFILE.options() == {d: opts[0] for d, _k, opts in DECISIONS}


@pytest.mark.parametrize("decision, key, option", [(d, k, o) for d, k, opts in DECISIONS for o in opts])
def test_from_options_sets_exactly_that_option(decision: str, key: str, option: str) -> None:
    profile = Profile.from_options({decision: option})
    assert getattr(profile, key) == option
    assert profile.options()[decision] == option
    expected_changed = {} if option == dict((d, o[0]) for d, _k, o in DECISIONS)[decision] else {decision: option}
    assert profile.changed() == expected_changed


def test_from_options_rejects_an_unknown_decision() -> None:
    with pytest.raises(SetupError) as info:
        Profile.from_options({"D99": "yes"})
    assert info.value.rule is None  # "D99" is no decision, so it cannot be the rule at stake
    assert "D99" in str(info.value) and "D1-D38" in str(info.value)


@pytest.mark.parametrize("decision", ["D7", "D12", "D1", "D36"])
def test_from_options_rejects_an_unknown_option(decision: str) -> None:
    with pytest.raises(SetupError) as info:
        Profile.from_options({decision: "no-such-option"})
    assert info.value.rule == decision
    assert decision in str(info.value)
    assert "no-such-option" in str(info.value)


def test_constructor_rejects_an_unknown_option() -> None:
    with pytest.raises(SetupError) as info:
        Profile(single_beats="sideways")  # type: ignore[arg-type]
    assert info.value.rule == "D7"


def test_profile_is_frozen_and_hashable() -> None:
    profile = Profile.from_options({"D7": "any-suit"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        profile.single_beats = "same-suit"  # type: ignore[misc]
    assert hash(profile) == hash(Profile.from_options({"D7": "any-suit"}))
    assert Profile.from_options(profile.options()) == profile


def test_every_option_profile_covers_each_option_once() -> None:
    profiles = every_option_profile()
    assert profiles[0] == DEFAULT_PROFILE
    changed = [p.changed() for p in profiles[1:]]
    assert all(len(c) == 1 for c in changed)
    seen = {next(iter(c.items())) for c in changed}
    assert seen == {(d, o) for d, _k, opts in DECISIONS for o in opts[1:]}
    assert len(seen) == len(changed)
