"""The rule profile: one option for every decision of spec/decisions.yaml.

>>> Profile().single_beats
'same-suit'
>>> Profile.from_options({"D7": "any-suit"}).options()["D7"]
'any-suit'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal, get_args, get_type_hints

from .errors import SetupError


def _decision(decision_id: str, default: str) -> Any:
    """A Profile field: its decision ID (metadata) and default option."""
    return field(default=default, metadata={"decision": decision_id})


@dataclass(frozen=True, slots=True)
class Profile:
    """A frozen choice of one option per decision; the default is the spec's.

    This class is the one table of decisions in the engine: each field is a
    decision (its name the decision's key, its metadata the decision ID), its
    ``Literal`` type lists the options with the default first.
    tests/engine/test_profile.py keeps it equal to spec/decisions.yaml.
    """

    direction: Literal["counterclockwise"] = _decision("D1", "counterclockwise")
    deal_order: Literal["dealer-first", "dealer-last"] = _decision("D2", "dealer-first")
    calling_end: Literal["first-call"] = _decision("D3", "first-call")
    next_dealer: Literal["next-seat", "caller"] = _decision("D4", "next-seat")
    void_redeal: Literal["next-dealer", "same-dealer"] = _decision("D5", "next-dealer")
    first_leader: Literal["dealer", "privileged-player"] = _decision("D6", "dealer")
    single_beats: Literal["same-suit", "any-suit"] = _decision("D7", "same-suit")
    follower_suit_rule: Literal["leader-only", "followers-too"] = _decision("D8", "leader-only")
    wan_sin_suit: Literal["lowest", "exempt"] = _decision("D9", "lowest")
    elder_only_top_suit: Literal["top-suit-elder", "any-elder"] = _decision("D10", "top-suit-elder")
    privilege: Literal["any-elder", "top-suit-elder"] = _decision("D11", "any-elder")
    must_beat: Literal["must-beat", "may-discard"] = _decision("D12", "must-beat")
    beat_target: Literal["best-so-far", "lead"] = _decision("D13", "best-so-far")
    discard_choice: Literal["any"] = _decision("D14", "any")
    run_order: Literal["suit-then-top"] = _decision("D15", "suit-then-top")
    set_of_ones: Literal["below-nines", "lowest"] = _decision("D16", "below-nines")
    wan_sin_in_set: Literal["no", "yes"] = _decision("D17", "no")
    wan_sin_in_run: Literal["no"] = _decision("D18", "no")
    elder_promotion: Literal["face-up", "face-up-and-discards"] = _decision("D19", "face-up")
    promoted_elder_following: Literal["unbeatable"] = _decision("D20", "unbeatable")
    claim_mode: Literal["optional", "automatic"] = _decision("D21", "optional")
    claim_count: Literal["tricks-plus-elders", "tricks-only"] = _decision("D22", "tricks-plus-elders")
    no_claim: Literal["no-score", "replay"] = _decision("D23", "no-score")
    five_tigers: Literal["automatic", "declared"] = _decision("D24", "automatic")
    dreamer_count: Literal["five-plus-matches", "matches-only"] = _decision("D25", "five-plus-matches")
    dreamer_matches: Literal["dealt-hand", "hand-at-claim", "winning-pattern"] = _decision("D26", "dealt-hand")
    dreamer_wan_sin: Literal["number-one", "no-match"] = _decision("D27", "number-one")
    dreamer_payers: Literal["two-losers", "all-three"] = _decision("D28", "two-losers")
    privileged_penalty: Literal["all-shares", "winner-share"] = _decision("D29", "all-shares")
    calling_dealer: Literal["not-privileged"] = _decision("D30", "not-privileged")
    game_length: Literal["played-hands", "deals"] = _decision("D31", "played-hands")
    visibility: Literal["standard"] = _decision("D32", "standard")
    seeded_deal: Literal["splitmix64-fisher-yates"] = _decision("D33", "splitmix64-fisher-yates")
    tigers_scoring: Literal["as-claim", "winner-only"] = _decision("D34", "as-claim")
    elder_timing: Literal["immediate"] = _decision("D35", "immediate")
    first_dealer: Literal["given-first-hand-only"] = _decision("D36", "given-first-hand-only")
    elder_first_scope: Literal["current-holding"] = _decision("D37", "current-holding")
    void_scope: Literal["hand-only"] = _decision("D38", "hand-only")

    def __post_init__(self) -> None:
        for decision, key, options in DECISIONS:
            value = getattr(self, key)
            if value not in options:
                raise SetupError(
                    f"{value!r} is not an option of {decision} ({key}); options: {', '.join(options)}",
                    rule=decision,
                )

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> Profile:
        """Build a profile from ``{decision ID: option ID}``; the rest default (cached: every
        ``start`` and ``pattern`` request builds one)."""
        try:
            key = (cls, tuple(sorted(options.items())))
            cached = _FROM_OPTIONS.get(key)
        except TypeError:  # unhashable or unorderable input: build it, and let it raise
            key, cached = None, None
        if cached is not None:
            return cached
        profile = cls._from_options(options)
        if key is not None and len(_FROM_OPTIONS) < 4096:
            _FROM_OPTIONS[key] = profile
        return profile

    @classmethod
    def _from_options(cls, options: Mapping[str, str]) -> Profile:
        changes: dict[str, str] = {}
        for decision, option in options.items():
            if decision not in _BY_ID:
                raise SetupError(
                    f"unknown decision {decision!r}: decisions are D1-D{len(DECISIONS)} (spec/decisions.yaml)"
                )
            changes[_BY_ID[decision][0]] = option
        return replace(cls(), **changes)  # type: ignore[arg-type]

    def options(self) -> dict[str, str]:
        """``{decision ID: option ID}`` for every decision."""
        return {d: getattr(self, key) for d, key, _ in DECISIONS}

    def changed(self) -> dict[str, str]:
        """Only the decisions whose option differs from the default."""
        return {d: getattr(self, key) for d, key, opts in DECISIONS if getattr(self, key) != opts[0]}


def _table() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    hints = get_type_hints(Profile)
    table = []
    for f in fields(Profile):
        options: tuple[str, ...] = get_args(hints[f.name])
        assert options[0] == f.default, f"{f.name}: the default option comes first"
        table.append((str(f.metadata["decision"]), f.name, options))
    return tuple(table)


DECISIONS: Final = _table()
"""``(decision ID, Profile field, options with the default first)`` for every decision, in order."""
_BY_ID: Final = {d: (key, opts) for d, key, opts in DECISIONS}
_BY_KEY: Final = {key: (d, opts) for d, key, opts in DECISIONS}
assert [d for d, _k, _o in DECISIONS] == [f"D{i}" for i in range(1, len(DECISIONS) + 1)]

DEFAULT_PROFILE: Final = Profile()
_FROM_OPTIONS: dict[tuple[Any, ...], Profile] = {}


def every_option_profile() -> list[Profile]:
    """The default profile, then one profile per non-default option."""
    profiles = [DEFAULT_PROFILE]
    for decision, _key, opts in DECISIONS:
        for opt in opts[1:]:
            profiles.append(Profile.from_options({decision: opt}))
    return profiles
