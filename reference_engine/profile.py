"""The rule profile: one option for every decision of spec/decisions.yaml.

>>> Profile().single_beats
'same-suit'
>>> Profile.from_options({"D7": "any-suit"}).options()["D7"]
'any-suit'
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal, TypeVar, get_args

from .errors import SetupError


def _decision(decision_id: str) -> Any:
    """A Profile field of decision ``decision_id``; its default, the first option of its type, is set by
    :func:`_defaults_first`."""
    return field(metadata={"decision": decision_id})


_T = TypeVar("_T")


def _defaults_first(cls: type[_T]) -> type[_T]:
    """Give each decision field its default: the first option of its ``Literal`` type."""
    for name, annotation in cls.__annotations__.items():
        getattr(cls, name).default = get_args(annotation)[0]
    return cls


@dataclass(frozen=True, slots=True)
@_defaults_first
class Profile:
    """A frozen choice of one option per decision; the default is the spec's.

    This class is the one table of decisions in the engine: each field is a
    decision (its name the decision's key, its metadata the decision ID), its
    ``Literal`` type lists the options, the default first.
    tests/engine/test_profile.py keeps it equal to spec/decisions.yaml.
    """

    direction: Literal["counterclockwise"] = _decision("D1")
    deal_order: Literal["dealer-first", "dealer-last"] = _decision("D2")
    calling_end: Literal["first-call"] = _decision("D3")
    next_dealer: Literal["next-seat", "caller"] = _decision("D4")
    void_redeal: Literal["next-dealer", "same-dealer"] = _decision("D5")
    first_leader: Literal["dealer", "privileged-player"] = _decision("D6")
    single_beats: Literal["same-suit", "any-suit"] = _decision("D7")
    follower_suit_rule: Literal["leader-only", "followers-too"] = _decision("D8")
    wan_sin_suit: Literal["lowest", "exempt"] = _decision("D9")
    elder_only_top_suit: Literal["top-suit-elder", "any-elder"] = _decision("D10")
    privilege: Literal["any-elder", "top-suit-elder"] = _decision("D11")
    must_beat: Literal["must-beat", "may-discard"] = _decision("D12")
    beat_target: Literal["best-so-far", "lead"] = _decision("D13")
    discard_choice: Literal["any"] = _decision("D14")
    run_order: Literal["suit-then-top"] = _decision("D15")
    set_of_ones: Literal["below-nines", "lowest"] = _decision("D16")
    wan_sin_in_set: Literal["no", "yes"] = _decision("D17")
    wan_sin_in_run: Literal["no"] = _decision("D18")
    elder_promotion: Literal["face-up", "face-up-and-discards"] = _decision("D19")
    promoted_elder_following: Literal["unbeatable"] = _decision("D20")
    claim_mode: Literal["optional", "automatic"] = _decision("D21")
    claim_count: Literal["tricks-plus-elders", "tricks-only"] = _decision("D22")
    no_claim: Literal["no-score", "replay"] = _decision("D23")
    five_tigers: Literal["automatic", "declared"] = _decision("D24")
    dreamer_count: Literal["five-plus-matches", "matches-only"] = _decision("D25")
    dreamer_matches: Literal["dealt-hand", "hand-at-claim", "winning-pattern"] = _decision("D26")
    dreamer_wan_sin: Literal["number-one", "no-match"] = _decision("D27")
    dreamer_payers: Literal["two-losers", "all-three"] = _decision("D28")
    privileged_penalty: Literal["all-shares", "winner-share"] = _decision("D29")
    calling_dealer: Literal["not-privileged"] = _decision("D30")
    game_length: Literal["played-hands", "deals"] = _decision("D31")
    visibility: Literal["standard"] = _decision("D32")
    seeded_deal: Literal["splitmix64-fisher-yates"] = _decision("D33")
    tigers_scoring: Literal["as-claim", "winner-only"] = _decision("D34")
    elder_timing: Literal["immediate"] = _decision("D35")
    first_dealer: Literal["given-first-hand-only"] = _decision("D36")
    elder_first_scope: Literal["current-holding"] = _decision("D37")
    void_scope: Literal["hand-only"] = _decision("D38")

    def __post_init__(self) -> None:
        for decision, key, options in DECISIONS:
            value = getattr(self, key)
            if value not in options:
                raise SetupError(
                    f"{value!r} is not an option of {decision} ({key}); options: {', '.join(options)}",
                    rule=decision,
                )

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> "Profile":
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
    def _from_options(cls, options: Mapping[str, str]) -> "Profile":
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
    return tuple((str(f.metadata["decision"]), f.name, get_args(f.type)) for f in fields(Profile))


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
