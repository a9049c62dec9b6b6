"""The rule profile: one option for every decision of spec/decisions.yaml.

>>> Profile().single_beats
'same-suit'
>>> Profile.from_options({"D7": "any-suit"}).options()["D7"]
'any-suit'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final, Literal

from .errors import SetupError

# (decision ID, Profile field, options with the default first). This table must
# equal spec/decisions.yaml; tests/engine/test_profile.py checks that it does.
DECISIONS: Final[tuple[tuple[str, str, tuple[str, ...]], ...]] = (
    ("D1", "direction", ("counterclockwise",)),
    ("D2", "deal_order", ("dealer-first", "dealer-last")),
    ("D3", "calling_end", ("first-call",)),
    ("D4", "next_dealer", ("next-seat", "caller")),
    ("D5", "void_redeal", ("next-dealer", "same-dealer")),
    ("D6", "first_leader", ("dealer", "privileged-player")),
    ("D7", "single_beats", ("same-suit", "any-suit")),
    ("D8", "follower_suit_rule", ("leader-only", "followers-too")),
    ("D9", "wan_sin_suit", ("lowest", "exempt")),
    ("D10", "elder_only_top_suit", ("top-suit-elder", "any-elder")),
    ("D11", "privilege", ("any-elder", "top-suit-elder")),
    ("D12", "must_beat", ("must-beat", "may-discard")),
    ("D13", "beat_target", ("best-so-far", "lead")),
    ("D14", "discard_choice", ("any",)),
    ("D15", "run_order", ("suit-then-top",)),
    ("D16", "set_of_ones", ("below-nines", "lowest")),
    ("D17", "wan_sin_in_set", ("no", "yes")),
    ("D18", "wan_sin_in_run", ("no",)),
    ("D19", "elder_promotion", ("face-up", "face-up-and-discards")),
    ("D20", "promoted_elder_following", ("unbeatable",)),
    ("D21", "claim_mode", ("optional", "automatic")),
    ("D22", "claim_count", ("tricks-plus-elders", "tricks-only")),
    ("D23", "no_claim", ("no-score", "replay")),
    ("D24", "five_tigers", ("automatic", "declared")),
    ("D25", "dreamer_count", ("five-plus-matches", "matches-only")),
    ("D26", "dreamer_matches", ("dealt-hand", "hand-at-claim", "winning-pattern")),
    ("D27", "dreamer_wan_sin", ("number-one", "no-match")),
    ("D28", "dreamer_payers", ("two-losers", "all-three")),
    ("D29", "privileged_penalty", ("all-shares", "winner-share")),
    ("D30", "calling_dealer", ("not-privileged",)),
    ("D31", "game_length", ("played-hands", "deals")),
    ("D32", "visibility", ("standard",)),
    ("D33", "seeded_deal", ("splitmix64-fisher-yates",)),
    ("D34", "tigers_scoring", ("as-claim", "winner-only")),
    ("D35", "elder_timing", ("immediate",)),
    ("D36", "first_dealer", ("given-first-hand-only",)),
    ("D37", "elder_first_scope", ("current-holding",)),
    ("D38", "void_scope", ("hand-only",)),
)

_BY_ID: Final = {d: (key, opts) for d, key, opts in DECISIONS}
_BY_KEY: Final = {key: (d, opts) for d, key, opts in DECISIONS}


@dataclass(frozen=True, slots=True)
class Profile:
    """A frozen choice of one option per decision; the default is the spec's.

    Field names are the decisions' keys; values are option IDs.
    """

    direction: Literal["counterclockwise"] = "counterclockwise"
    deal_order: Literal["dealer-first", "dealer-last"] = "dealer-first"
    calling_end: Literal["first-call"] = "first-call"
    next_dealer: Literal["next-seat", "caller"] = "next-seat"
    void_redeal: Literal["next-dealer", "same-dealer"] = "next-dealer"
    first_leader: Literal["dealer", "privileged-player"] = "dealer"
    single_beats: Literal["same-suit", "any-suit"] = "same-suit"
    follower_suit_rule: Literal["leader-only", "followers-too"] = "leader-only"
    wan_sin_suit: Literal["lowest", "exempt"] = "lowest"
    elder_only_top_suit: Literal["top-suit-elder", "any-elder"] = "top-suit-elder"
    privilege: Literal["any-elder", "top-suit-elder"] = "any-elder"
    must_beat: Literal["must-beat", "may-discard"] = "must-beat"
    beat_target: Literal["best-so-far", "lead"] = "best-so-far"
    discard_choice: Literal["any"] = "any"
    run_order: Literal["suit-then-top"] = "suit-then-top"
    set_of_ones: Literal["below-nines", "lowest"] = "below-nines"
    wan_sin_in_set: Literal["no", "yes"] = "no"
    wan_sin_in_run: Literal["no"] = "no"
    elder_promotion: Literal["face-up", "face-up-and-discards"] = "face-up"
    promoted_elder_following: Literal["unbeatable"] = "unbeatable"
    claim_mode: Literal["optional", "automatic"] = "optional"
    claim_count: Literal["tricks-plus-elders", "tricks-only"] = "tricks-plus-elders"
    no_claim: Literal["no-score", "replay"] = "no-score"
    five_tigers: Literal["automatic", "declared"] = "automatic"
    dreamer_count: Literal["five-plus-matches", "matches-only"] = "five-plus-matches"
    dreamer_matches: Literal["dealt-hand", "hand-at-claim", "winning-pattern"] = "dealt-hand"
    dreamer_wan_sin: Literal["number-one", "no-match"] = "number-one"
    dreamer_payers: Literal["two-losers", "all-three"] = "two-losers"
    privileged_penalty: Literal["all-shares", "winner-share"] = "all-shares"
    calling_dealer: Literal["not-privileged"] = "not-privileged"
    game_length: Literal["played-hands", "deals"] = "played-hands"
    visibility: Literal["standard"] = "standard"
    seeded_deal: Literal["splitmix64-fisher-yates"] = "splitmix64-fisher-yates"
    tigers_scoring: Literal["as-claim", "winner-only"] = "as-claim"
    elder_timing: Literal["immediate"] = "immediate"
    first_dealer: Literal["given-first-hand-only"] = "given-first-hand-only"
    elder_first_scope: Literal["current-holding"] = "current-holding"
    void_scope: Literal["hand-only"] = "hand-only"

    def __post_init__(self) -> None:
        for f in fields(self):
            decision, options = _BY_KEY[f.name]
            value = getattr(self, f.name)
            if value not in options:
                raise SetupError(
                    f"{value!r} is not an option of {decision} ({f.name}); "
                    f"options: {', '.join(options)}",
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


DEFAULT_PROFILE: Final = Profile()
_FROM_OPTIONS: dict[tuple[Any, ...], Profile] = {}


def every_option_profile() -> list[Profile]:
    """The default profile, then one profile per non-default option."""
    profiles = [DEFAULT_PROFILE]
    for decision, _key, opts in DECISIONS:
        for opt in opts[1:]:
            profiles.append(Profile.from_options({decision: opt}))
    return profiles
