"""The rule profile: one option for every decision of spec/decisions.yaml.

>>> Profile().single_beats
'same-suit'
>>> Profile.from_options({"D7": "any-suit"}).options()["D7"]
'any-suit'
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal, get_args

from ._mypyc import mypyc_attr
from .errors import SetupError


def _decision(decision_id: str, options: Any) -> Any:
    """A Profile field of decision ``decision_id`` whose type is the ``Literal`` ``options``; its default is
    the first option.

    The options are read from the alias (a module-level name), not from the class's annotations: a build
    compiled by mypyc keeps the aliases but not the annotations (setup.py).
    """
    return field(default=get_args(options)[0], metadata={"decision": decision_id, "options": get_args(options)})


# The options of each decision, the default first (spec/decisions.yaml; tests/engine/test_profile.py).
Direction = Literal["counterclockwise"]
DealOrder = Literal["dealer-first", "dealer-last"]
CallingEnd = Literal["first-call"]
NextDealer = Literal["next-seat", "caller"]
VoidRedeal = Literal["next-dealer", "same-dealer"]
FirstLeader = Literal["dealer", "privileged-player"]
SingleBeats = Literal["same-suit", "any-suit"]
FollowerSuitRule = Literal["leader-only", "followers-too"]
WanSinSuit = Literal["lowest", "exempt"]
ElderOnlyTopSuit = Literal["top-suit-elder", "any-elder"]
Privilege = Literal["any-elder", "top-suit-elder"]
MustBeat = Literal["must-beat", "may-discard"]
BeatTarget = Literal["best-so-far", "lead"]
DiscardChoice = Literal["any"]
RunOrder = Literal["suit-then-top"]
SetOfOnes = Literal["below-nines", "lowest"]
WanSinInSet = Literal["no", "yes"]
WanSinInRun = Literal["no"]
ElderPromotion = Literal["face-up", "face-up-and-discards"]
PromotedElderFollowing = Literal["unbeatable"]
ClaimMode = Literal["optional", "automatic"]
ClaimCount = Literal["tricks-plus-elders", "tricks-only"]
NoClaim = Literal["no-score", "replay"]
FiveTigers = Literal["automatic", "declared"]
DreamerCount = Literal["five-plus-matches", "matches-only"]
DreamerMatches = Literal["dealt-hand", "hand-at-claim", "winning-pattern"]
DreamerWanSin = Literal["number-one", "no-match"]
DreamerPayers = Literal["two-losers", "all-three"]
PrivilegedPenalty = Literal["all-shares", "winner-share"]
CallingDealer = Literal["not-privileged"]
GameLength = Literal["played-hands", "deals"]
Visibility = Literal["standard"]
SeededDeal = Literal["splitmix64-fisher-yates"]
TigersScoring = Literal["as-claim", "winner-only"]
ElderTiming = Literal["immediate"]
FirstDealer = Literal["given-first-hand-only"]
ElderFirstScope = Literal["current-holding"]
VoidScope = Literal["hand-only"]


# Not a mypyc native class: it stays a plain dataclass in both builds, so that a wrong option of any type
# (``Profile(single_beats=3)``) is the engine's SetupError, never the compiled field's TypeError.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Profile:
    """A frozen choice of one option per decision; the default is the spec's.

    This class is the one table of decisions in the engine: each field is a
    decision (its name the decision's key, its metadata the decision ID), its
    ``Literal`` type (an alias above) lists the options, the default first.
    tests/engine/test_profile.py keeps it equal to spec/decisions.yaml.
    """

    direction: Direction = _decision("D1", Direction)
    deal_order: DealOrder = _decision("D2", DealOrder)
    calling_end: CallingEnd = _decision("D3", CallingEnd)
    next_dealer: NextDealer = _decision("D4", NextDealer)
    void_redeal: VoidRedeal = _decision("D5", VoidRedeal)
    first_leader: FirstLeader = _decision("D6", FirstLeader)
    single_beats: SingleBeats = _decision("D7", SingleBeats)
    follower_suit_rule: FollowerSuitRule = _decision("D8", FollowerSuitRule)
    wan_sin_suit: WanSinSuit = _decision("D9", WanSinSuit)
    elder_only_top_suit: ElderOnlyTopSuit = _decision("D10", ElderOnlyTopSuit)
    privilege: Privilege = _decision("D11", Privilege)
    must_beat: MustBeat = _decision("D12", MustBeat)
    beat_target: BeatTarget = _decision("D13", BeatTarget)
    discard_choice: DiscardChoice = _decision("D14", DiscardChoice)
    run_order: RunOrder = _decision("D15", RunOrder)
    set_of_ones: SetOfOnes = _decision("D16", SetOfOnes)
    wan_sin_in_set: WanSinInSet = _decision("D17", WanSinInSet)
    wan_sin_in_run: WanSinInRun = _decision("D18", WanSinInRun)
    elder_promotion: ElderPromotion = _decision("D19", ElderPromotion)
    promoted_elder_following: PromotedElderFollowing = _decision("D20", PromotedElderFollowing)
    claim_mode: ClaimMode = _decision("D21", ClaimMode)
    claim_count: ClaimCount = _decision("D22", ClaimCount)
    no_claim: NoClaim = _decision("D23", NoClaim)
    five_tigers: FiveTigers = _decision("D24", FiveTigers)
    dreamer_count: DreamerCount = _decision("D25", DreamerCount)
    dreamer_matches: DreamerMatches = _decision("D26", DreamerMatches)
    dreamer_wan_sin: DreamerWanSin = _decision("D27", DreamerWanSin)
    dreamer_payers: DreamerPayers = _decision("D28", DreamerPayers)
    privileged_penalty: PrivilegedPenalty = _decision("D29", PrivilegedPenalty)
    calling_dealer: CallingDealer = _decision("D30", CallingDealer)
    game_length: GameLength = _decision("D31", GameLength)
    visibility: Visibility = _decision("D32", Visibility)
    seeded_deal: SeededDeal = _decision("D33", SeededDeal)
    tigers_scoring: TigersScoring = _decision("D34", TigersScoring)
    elder_timing: ElderTiming = _decision("D35", ElderTiming)
    first_dealer: FirstDealer = _decision("D36", FirstDealer)
    elder_first_scope: ElderFirstScope = _decision("D37", ElderFirstScope)
    void_scope: VoidScope = _decision("D38", VoidScope)

    def __post_init__(self) -> None:
        for decision, key, options in DECISIONS:
            value = getattr(self, key)
            if value not in options:
                raise SetupError(
                    f"{value!r} is not an option of {decision} ({key}); options: {', '.join(options)}",
                    rule=decision,
                )

    @classmethod
    def from_options(cls, options: Mapping[str, object]) -> "Profile":
        """Build a profile from ``{decision ID: option ID}``; the rest default (cached: every
        ``start`` and ``pattern`` request builds one). Anything but an option of the decision is a
        :class:`SetupError`, whatever its type."""
        if not isinstance(options, Mapping):
            raise SetupError(f"options are a mapping of decision IDs to option IDs, not {options!r}")
        # read as objects: a compiled build would check the declared str types with a bare TypeError
        items: tuple[tuple[object, object], ...] = tuple(options.items())
        try:
            key = (cls, frozenset(items))
            cached = _FROM_OPTIONS.get(key)
        except TypeError:  # unhashable input: build it, and let it raise
            key, cached = None, None
        if cached is not None:
            return cached
        profile = cls._from_options(items)
        if key is not None and len(_FROM_OPTIONS) < 4096:
            _FROM_OPTIONS[key] = profile
        return profile

    @classmethod
    def _from_options(cls, items: tuple[tuple[object, object], ...]) -> "Profile":
        changes: dict[str, object] = {}
        for decision, option in items:
            if not isinstance(decision, str) or decision not in _BY_ID:
                raise SetupError(
                    f"unknown decision {decision!r}: decisions are D1-D{len(DECISIONS)} (spec/decisions.yaml)"
                )
            changes[_BY_ID[decision][0]] = option  # __post_init__ refuses anything but an option
        return replace(cls(), **changes)  # type: ignore[arg-type]

    def options(self) -> dict[str, str]:
        """``{decision ID: option ID}`` for every decision."""
        return {d: getattr(self, key) for d, key, _ in DECISIONS}

    def changed(self) -> dict[str, str]:
        """Only the decisions whose option differs from the default."""
        return {d: getattr(self, key) for d, key, opts in DECISIONS if getattr(self, key) != opts[0]}


def _table() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    return tuple((str(f.metadata["decision"]), f.name, tuple(f.metadata["options"])) for f in fields(Profile))


DECISIONS: Final = _table()
"""``(decision ID, Profile field, options with the default first)`` for every decision, in order."""
_BY_ID: Final = {d: (key, opts) for d, key, opts in DECISIONS}
_BY_KEY: Final = {key: (d, opts) for d, key, opts in DECISIONS}
assert [d for d, _k, _o in DECISIONS] == [f"D{i}" for i in range(1, len(DECISIONS) + 1)]

DEFAULT_PROFILE: Final = Profile()
_FROM_OPTIONS: dict[tuple[type[Profile], frozenset[tuple[object, object]]], Profile] = {}


def every_option_profile() -> list[Profile]:
    """The default profile, then one profile per non-default option."""
    profiles = [DEFAULT_PROFILE]
    for decision, _key, opts in DECISIONS:
        for opt in opts[1:]:
            profiles.append(Profile.from_options({decision: opt}))
    return profiles
