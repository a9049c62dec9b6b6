"""The mutant catalogue: plausible misreadings of the rules, one per engine.

"A conformance suite is worth what it catches." Each :class:`Mutant` is the
reference engine with ONE misreading of the rules (one method or one table of
:class:`~tests.mutants.seams.SeamHand` / :class:`~tests.mutants.seams.SeamTables`
overridden), named by a kebab-case ``id`` and tied to the clauses it breaks.
``python -m tests.mutants.report`` runs the scenario corpus against each of
them; a mutant that passes every scenario *survives*, and names a hole in the
corpus.

Every mutant is also an in-process engine for the conformance runner::

    hakka-conformance run --engine python:tests.mutants.catalogue:clockwise

(the factory is the ``id`` with ``-`` turned into ``_``). ``control`` is the
seam base with nothing overridden: it must pass everything.

A mutant ignores the decision options that its misreading replaces: e.g.
``set-of-ones-lowest`` ranks a Set of 1s lowest whatever D16 says, so only the
scenarios that run under the default of D16 can kill it (``pins`` records
that).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reference_engine.actions import CLAIM, Action, LegalActions
from reference_engine.cards import NUMBER_MASKS, SUIT_MASKS, WAN_SIN_BIT, number_of
from reference_engine.hand import CLAIMING, PLAYING, Hand, top_suit_mask
from reference_engine.patterns import RUN, RUNS_IN, SET, SINGLE, run_rank, set_rank
from reference_engine.profile import DEFAULT_PROFILE, Profile
from reference_engine.scoring import SCORE_TABLE, HandResult
from reference_engine.wire import Session

from .seams import SeamHand, SeamTables, leadable, session_for


@dataclass(frozen=True)
class Mutant:
    """One misreading of the rules, as an engine."""

    id: str
    description: str
    clauses: tuple[str, ...]
    hand_class: type[Hand]
    pins: str | None = None
    """The decision option the misreading amounts to, if any (``"D16=lowest"``)."""

    @property
    def factory_name(self) -> str:
        return self.id.replace("-", "_")

    @property
    def engine_spec(self) -> str:
        """The runner's ``--engine`` argument for this mutant."""
        return f"python:{__name__}:{self.factory_name}"

    def factory(self) -> Session:
        return session_for(self.hand_class, f"mutant-{self.id}")


MUTANTS: list[Mutant] = []


def mutant(
    id: str, description: str, clauses: Sequence[str], pins: str | None = None
) -> Callable[[type[Hand]], type[Hand]]:
    """Register the decorated Hand subclass as a mutant."""

    def register(cls: type[Hand]) -> type[Hand]:
        assert all(m.id != id for m in MUTANTS), id
        MUTANTS.append(Mutant(id, description, tuple(clauses), cls, pins))
        return cls

    return register


def _with_tables(tables_class: type[SeamTables]) -> type[SeamHand]:
    """A hand whose only change is its pattern tables."""
    return type(f"{tables_class.__name__}Hand", (SeamHand,), {"__slots__": (), "tables_class": tables_class})


def _suit_and_top(mask: int) -> tuple[int, int]:
    low = (mask & -mask).bit_length() - 1
    high = mask.bit_length() - 1
    return low // 9, high % 9 + 1


# ====================================================================== patterns


class RunNumberFirstTables(SeamTables):
    __slots__ = ()

    def classify(self, mask: int) -> tuple[int, int]:
        kind, rank = super().classify(mask)
        if kind == RUN:
            suit, top = _suit_and_top(mask)
            return RUN, top * 4 + (3 - suit)
        return kind, rank


mutant(
    "run-rank-number-first",
    "Runs are ranked by their top number first and by suit only between equal numbers.",
    ["PAT-2"],
)(_with_tables(RunNumberFirstTables))


class SetOfOnesLowestTables(SeamTables):
    __slots__ = ()

    def __init__(self, profile: Profile) -> None:
        super().__init__(dataclasses.replace(profile, set_of_ones="lowest"))


mutant(
    "set-of-ones-lowest",
    "A Set of 1s ranks lowest (beats no Set) though only a Set of 9s beats it, even under the default of D16.",
    ["PAT-4"],
    pins="D16=lowest",
)(_with_tables(SetOfOnesLowestTables))


class SetOfOnesPlainTables(SeamTables):
    __slots__ = ()

    def classify(self, mask: int) -> tuple[int, int]:
        kind, rank = super().classify(mask)
        if kind == SET and number_of((mask & -mask).bit_length() - 1) == 1:
            return SET, 1
        return kind, rank


mutant(
    "set-of-ones-plain",
    "A Set of 1s is ranked as a plain 1: the lowest Set, beaten by any other Set.",
    ["PAT-4"],
)(_with_tables(SetOfOnesPlainTables))


class SetOfOnesHighestTables(SeamTables):
    __slots__ = ()

    def classify(self, mask: int) -> tuple[int, int]:
        kind, rank = super().classify(mask)
        if kind == SET and number_of((mask & -mask).bit_length() - 1) == 1:
            return SET, 11
        return kind, rank


mutant(
    "set-of-ones-highest",
    "A Set of 1s is the highest Set, above the 9s (the special rank read as 'unbeatable').",
    ["PAT-4"],
)(_with_tables(SetOfOnesHighestTables))


class WanSinInSetsTables(SeamTables):
    __slots__ = ()

    def __init__(self, profile: Profile) -> None:
        super().__init__(dataclasses.replace(profile, wan_sin_in_set="yes"))


mutant(
    "wan-sin-in-sets",
    "Wan Sin, worth 1, joins the suited 1s in a Set of 1s, even under the default of D17.",
    ["PAT-3", "CARDS-3"],
    pins="D17=yes",
)(_with_tables(WanSinInSetsTables))


class RunsOfThreeOnlyTables(SeamTables):
    __slots__ = ()

    def runs_in_hand(self, hand: int) -> list[int]:
        return [r for r in super().runs_in_hand(hand) if r.bit_count() == 3]

    def classify(self, mask: int) -> tuple[int, int]:
        kind, rank = super().classify(mask)
        return (0, 0) if kind == RUN and mask.bit_count() != 3 else (kind, rank)


mutant(
    "runs-of-three-only",
    "A Run is exactly three consecutive cards of a suit; four or more are no pattern.",
    ["PAT-1", "PAT-7"],
)(_with_tables(RunsOfThreeOnlyTables))


class WanSinInRunsTables(SeamTables):
    __slots__ = ()

    def runs_in_hand(self, hand: int) -> list[int]:
        runs = super().runs_in_hand(hand)
        if hand & WAN_SIN_BIT:
            for suit in range(4):
                bits = (hand >> (9 * suit)) & 0x1FF
                for run, _length, _top in RUNS_IN[bits | 1]:
                    if run & 1:  # Wan Sin stands for the suit's 1
                        runs.append(((run & ~1) << (9 * suit)) | WAN_SIN_BIT)
        return runs

    def classify(self, mask: int) -> tuple[int, int]:
        rest = mask & ~WAN_SIN_BIT
        if mask & WAN_SIN_BIT and mask.bit_count() >= 3:
            suit, top = _suit_and_top(rest)
            bits = rest >> (9 * suit)
            if rest & SUIT_MASKS[suit] == rest and not bits & 1 and bits | 1 == (1 << top) - 1:
                return RUN, run_rank(suit, top)
        return super().classify(mask)


mutant(
    "wan-sin-in-runs",
    "Wan Sin, worth 1, may stand for the 1 of any suit in a Run.",
    ["PAT-1", "CARDS-3"],
)(_with_tables(WanSinInRunsTables))


class TwoCardSetsTables(SeamTables):
    __slots__ = ()

    def classify(self, mask: int) -> tuple[int, int]:
        if mask.bit_count() == 2:
            n = number_of((mask & -mask).bit_length() - 1)
            if mask & ~self.set_masks[n] == 0:
                return SET, set_rank(n, self.profile)
        return super().classify(mask)

    def sets_in_hand(self, hand: int) -> list[int]:
        sets = super().sets_in_hand(hand)
        for n in range(1, 10):
            cards = [1 << i for i in range(37) if hand & self.set_masks[n] >> i & 1]
            sets += [a | b for i, a in enumerate(cards) for b in cards[i + 1 :]]
        return sets


mutant(
    "two-card-sets",
    "Two cards of the same number make a Set (a pair).",
    ["PAT-3", "PAT-7"],
)(_with_tables(TwoCardSetsTables))


class SingleAnySuitTables(SeamTables):
    __slots__ = ()

    def __init__(self, profile: Profile) -> None:
        super().__init__(dataclasses.replace(profile, single_beats="any-suit"))


mutant(
    "single-beats-any-suit",
    "A higher Single of any suit beats the Single on the table, under the default of D7 too.",
    ["PAT-6"],
    pins="D7=any-suit",
)(_with_tables(SingleAnySuitTables))


_SUP1, _SIN1 = 0, 27


class OnesBeatSinglesTables(SeamTables):
    __slots__ = ()

    def __init__(self, profile: Profile) -> None:
        super().__init__(profile)
        beaters = list(self.single_beaters)
        for w in range(36):
            beaters[w] |= WAN_SIN_BIT
            if w // 9 == 0 and w != _SUP1:
                beaters[w] |= 1 << _SUP1
            if w // 9 == 3 and w != _SIN1:
                beaters[w] |= 1 << _SIN1
        self.single_beaters = tuple(beaters)


mutant(
    "special-elders-beat-singles",
    "Sup1 and Sin1 (Elders) beat any non-Elder Single of their suit and Wan Sin beats any Single, when following.",
    ["ELD-6"],
)(_with_tables(OnesBeatSinglesTables))


class ElderSingleBeatableTables(SeamTables):
    __slots__ = ()

    def single_unbeatable(self, current: int, was_elder: bool) -> bool:
        return False


mutant(
    "elder-single-beatable",
    "An Elder played as a Single can be beaten by a higher card like any other (a led Sup1 falls to Sup2).",
    ["ELD-3", "ELD-6"],
)(_with_tables(ElderSingleBeatableTables))


# ====================================================================== elders


@mutant("elders-never-promoted", "Only the initial Elders are ever Elders: Sup8 stays a non-Elder after Sup9 is played.", ["ELD-2"])
class EldersNeverPromoted(SeamHand):
    __slots__ = ()

    def _gone(self) -> int:
        return 0


@mutant(
    "elder-when-next-card-played",
    "A card becomes an Elder as soon as the card just above it is played, even if higher ones are still out.",
    ["ELD-2"],
)
class ElderWhenNextCardPlayed(SeamHand):
    __slots__ = ()

    def _elders_given(self, gone: int) -> int:
        elders = super()._elders_given(gone)
        for suit in range(4):
            for n in range(1, 9):
                if gone >> (suit * 9 + n) & 1:  # card n+1 of the suit is gone
                    elders |= 1 << (suit * 9 + n - 1)
        return elders


@mutant(
    "elders-at-round-end",
    "Elders are promoted when the round ends, not the moment the higher card is played.",
    ["ELD-2"],
)
class EldersAtRoundEnd(SeamHand):
    __slots__ = ()

    def _update_elders(self, face_up: bool) -> None:
        if self.acted == 2:  # the round's last action
            self.elders = self._elders_given(self._gone())


@mutant("all-ones-are-elders", "All four suited 1s (not only Sup1 and Sin1) are Elders from the start.", ["ELD-1"])
class AllOnesAreElders(SeamHand):
    __slots__ = ()

    def _elders_given(self, gone: int) -> int:
        return super()._elders_given(gone) | NUMBER_MASKS[1]


@mutant("nines-not-elders", "Only Sup1, Sin1 and Wan Sin are Elders from the start; the 9s are not.", ["ELD-1"])
class NinesNotElders(SeamHand):
    __slots__ = ()

    def _elders_given(self, gone: int) -> int:
        return super()._elders_given(gone) & ~NUMBER_MASKS[9]


@mutant(
    "discards-promote-elders",
    "Discarded (face-down) cards count as gone when promoting Elders.",
    ["ELD-2", "PLAY-5"],
    pins="D19=face-up-and-discards",
)
class DiscardsPromoteElders(SeamHand):
    __slots__ = ()

    def _update_elders(self, face_up: bool) -> None:
        self.elders = self._elders_given(self.played | self.discarded)


@mutant(
    "discards-promote-elders-late",
    "Discarded cards count as gone when promoting Elders, the Elders being recomputed at the next face-up play.",
    ["ELD-2", "PLAY-5"],
)
class DiscardsPromoteEldersLate(SeamHand):
    __slots__ = ()

    def _gone(self) -> int:
        return self.played | self.discarded


# ====================================================================== leading a Single


@mutant("leader-ignores-top-suit", "A leader may lead a non-Elder Single of any suit, not only of the highest suit in hand.", ["PAT-5"])
class LeaderIgnoresTopSuit(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        return leadable(self.hands[seat], self.elders, self.profile, privileged=seat == self.privileged, top_suit_rule=False)


@mutant("elder-led-before-non-elders",
        "A leader may lead an Elder of the top suit while non-Elders of it remain (non-Elder-first rule ignored).",
        ["ELD-4"])
class ElderLedFirst(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        return leadable(self.hands[seat], self.elders, self.profile, privileged=seat == self.privileged, non_elder_first=False)


@mutant(
    "elder-first-once-per-hand",
    "Once a player has led a Single in the hand, the non-Elder-first rule no longer binds him (D37's rejected once-per-hand reading).",
    ["ELD-4"],
)
class ElderFirstOncePerHand(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        plays = [(who, a) for who, a in self.history if a.verb in ("play", "discard")]
        led_single = any(who == seat and a.verb == "play" and a.mask.bit_count() == 1 for who, a in plays[::3])
        return leadable(self.hands[seat], self.elders, self.profile, privileged=seat == self.privileged,
                        non_elder_first=not led_single)


@mutant(
    "top-suit-by-count",
    "The leader's 'highest suit' is the suit he holds most cards of (ties to the higher suit), not the highest-ranking one.",
    ["PAT-5", "CARDS-2"],
)
class TopSuitByCount(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        hand = self.hands[seat]
        suits = [hand & m for m in SUIT_MASKS]
        top = max(suits, key=lambda cards: cards.bit_count()) if hand & ~WAN_SIN_BIT else None
        return leadable(hand, self.elders, self.profile, privileged=seat == self.privileged, top_override=top)


@mutant(
    "any-elder-when-top-suit-all-elders",
    "When the top suit holds only Elders, the leader may lead any Elder in hand, under the default of D10 too.",
    ["ELD-4"],
    pins="D10=any-elder",
)
class AnyElderWhenTopSuitAllElders(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        profile = dataclasses.replace(self.profile, elder_only_top_suit="any-elder")
        return leadable(self.hands[seat], self.elders, profile, privileged=seat == self.privileged)


@mutant(
    "privilege-top-suit-only",
    "The Privileged Player may lead an Elder of his top suit only, under the default of D11 too.",
    ["ELD-5"],
    pins="D11=top-suit-elder",
)
class PrivilegeTopSuitOnly(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        profile = dataclasses.replace(self.profile, privilege="top-suit-elder")
        return leadable(self.hands[seat], self.elders, profile, privileged=seat == self.privileged)


@mutant("privilege-any-single", "The Privileged Player may lead any Single at all, ignoring the suit rule too.", ["ELD-5", "PAT-5"])
class PrivilegeAnySingle(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        allowed = super().leadable_singles(seat)
        return allowed | self.hands[seat] if seat == self.privileged else allowed


@mutant("no-privilege", "The Privileged Player has no privilege: he too must lead non-Elders of the top suit first.", ["ELD-5"])
class NoPrivilege(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        return leadable(self.hands[seat], self.elders, self.profile, privileged=seat == self.privileged, privilege=False)


@mutant(
    "wan-sin-exempt-from-suit-rule",
    "Wan Sin, having no suit, may be led whenever an Elder may, even under the default of D9.",
    ["PAT-5", "CARDS-3"],
    pins="D9=exempt",
)
class WanSinExempt(SeamHand):
    __slots__ = ()

    def leadable_singles(self, seat: int) -> int:
        return leadable(self.hands[seat], self.elders, self.profile, privileged=seat == self.privileged, wan_sin_exempt=True)


# ====================================================================== following


@mutant(
    "followers-bound-by-suit",
    "Followers of a Single must beat or discard from their own highest suit, as the leader must lead from it.",
    ["PAT-5", "PLAY-3"],
    pins="D8=followers-too",
)
class FollowersBoundBySuit(SeamHand):
    __slots__ = ()

    def _follow_pool(self, seat: int) -> int:
        hand = self.hands[seat]
        return top_suit_mask(hand) if self.best_kind == SINGLE else hand


@mutant(
    "discard-always-allowed",
    "A follower may always discard, even when he could beat (must-beat not enforced).",
    ["PLAY-4"],
    pins="D12=may-discard",
)
class DiscardAlwaysAllowed(SeamHand):
    __slots__ = ()

    def _may_discard(self, can_beat: bool) -> bool:
        return True


@mutant(
    "beat-the-lead",
    "A follower must beat the lead rather than the best pattern played so far.",
    ["PLAY-3", "PLAY-6"],
    pins="D13=lead",
)
class BeatTheLead(SeamHand):
    __slots__ = ()

    def _target(self) -> tuple[int, int, bool]:
        return self.lead_mask, self.lead_rank, self.lead_elder


@mutant("discard-one-card", "A follower who cannot beat discards a single card, whatever the size of the pattern.", ["PLAY-4"])
class DiscardOneCard(SeamHand):
    __slots__ = ()

    def _discard_count(self, target_size: int) -> int:
        return 1


@mutant("follow-with-longer-pattern", "A follower may beat a Run or Set with a longer one (more cards).", ["PLAY-3"])
class FollowWithLongerPattern(SeamHand):
    __slots__ = ()

    def _follow_size_ok(self, size: int, target_size: int) -> bool:
        return size >= target_size


# ====================================================================== rounds and tricks


@mutant("tricks-one-per-round", "The winner of a round takes one trick, not one per card of the winning pattern.", ["PLAY-6"])
class TricksOnePerRound(SeamHand):
    __slots__ = ()

    def _claim_chance(self, winner: int) -> None:
        self.tricks[winner] -= self.best_mask.bit_count() - 1
        super()._claim_chance(winner)


@mutant("next-round-led-in-turn", "The next round is led by the player after the last leader, not by the round's winner.", ["PLAY-7"])
class NextRoundLedInTurn(SeamHand):
    __slots__ = ()

    def _after_claim_chance(self, winner: int) -> None:
        if self.hands[winner]:
            self.phase = PLAYING
            self._start_round(self.next_seat(self.leader))
            return
        super()._after_claim_chance(winner)


@mutant(
    "pp-leads-first",
    "The Privileged Player (when there is one) leads the first round instead of the Dealer.",
    ["PLAY-1"],
    pins="D6=privileged-player",
)
class PrivilegedLeadsFirst(SeamHand):
    __slots__ = ()

    def _start_playing(self) -> None:
        self.phase = PLAYING
        self._start_round(self.privileged if self.privileged is not None else self.dealer)


@mutant("clockwise", "Play and Calling go clockwise (seat s to s-1) instead of counterclockwise.", ["GAME-5"])
class Clockwise(SeamHand):
    __slots__ = ()

    def next_seat(self, seat: int) -> int:
        seat = (seat - 1) % 4
        return (seat - 1) % 4 if seat == self.dreamer else seat


# ====================================================================== dealing and calling


@mutant("deal-starts-after-dealer",
        "Dealing starts with the seat after the Dealer, the Dealer being served last.",
        ["DEAL-4"], pins="D2=dealer-last")
class DealStartsAfterDealer(SeamHand):
    __slots__ = ()

    @classmethod
    def from_deck(cls, dealer: int, deck: Any, profile: Profile = DEFAULT_PROFILE) -> Hand:
        hand = super().from_deck(dealer, deck, dataclasses.replace(profile, deal_order="dealer-last"))
        hand.profile = profile
        hand.tables = cls.pattern_tables(profile)
        return hand


@mutant("dreamer-speaks-in-calling",
        "The Dreamer is not skipped in Calling: after Dealer+1 passes, the Dreamer may call.",
        ["DEAL-3", "CALL-5"])
class DreamerSpeaks(SeamHand):
    __slots__ = ()

    def _pass(self, seat: int) -> None:
        after = (seat + 1) % 4
        if after == self.dealer:
            self._finish(HandResult.void(self._next_dealer(), self.profile))
        else:
            self.to_act = after


@mutant(
    "calling-continues-after-call",
    "Calling goes on after a Call until every active player has spoken; the last to call is the caller.",
    ["CALL-5"],
)
class CallingContinues(SeamHand):
    __slots__ = ()

    def _call(self, seat: int) -> None:
        self.caller = seat
        self.privileged = seat if seat != self.dealer else None
        self._pass(seat)

    def _pass(self, seat: int) -> None:
        after = self.next_seat(seat)
        if after != self.dealer:
            self.to_act = after
        elif self.caller is None:
            self._finish(HandResult.void(self._next_dealer(), self.profile))
        else:
            self._end_calling()


@mutant("dealer-caller-is-pp", "A Dealer who calls becomes the Privileged Player.", ["CALL-4"])
class DealerCallerIsPP(SeamHand):
    __slots__ = ()

    def _call(self, seat: int) -> None:
        self.privileged = seat
        super()._call(seat)


@mutant("dealer-pass-keeps-deal", "When the Dealer passes and another player calls, the same Dealer deals the next hand.", ["CALL-3"])
class DealerPassKeepsDeal(SeamHand):
    __slots__ = ()

    def _next_dealer(self) -> int:
        if self.caller is not None and self.caller != self.dealer:
            return self.dealer
        return super()._next_dealer()


@mutant(
    "next-dealer-is-caller",
    "Whoever calls deals the next hand, under the default of D4 too.",
    ["CALL-3"],
    pins="D4=caller",
)
class NextDealerIsCaller(SeamHand):
    __slots__ = ()

    def _next_dealer(self) -> int:
        if self.caller is not None:
            return self.caller
        return super()._next_dealer()


@mutant("dealer-call-passes-deal", "A Dealer who calls hands the deal to the next seat like one who passes.", ["CALL-2"])
class DealerCallPassesDeal(SeamHand):
    __slots__ = ()

    def _next_dealer(self) -> int:
        if self.caller == self.dealer:
            return (self.dealer + 1) % 4
        return super()._next_dealer()


@mutant(
    "void-same-dealer",
    "After a void hand (nobody called) the same Dealer redeals.",
    ["CALL-6", "CALL-3"],
    pins="D5=same-dealer",
)
class VoidSameDealer(SeamHand):
    __slots__ = ()

    def _next_dealer(self) -> int:
        if self.caller is None:
            return self.dealer
        return super()._next_dealer()


@mutant("void-hand-counts", "A void hand counts toward the game's 4 hands.", ["GAME-1", "CALL-6"], pins="D31=deals")
class VoidHandCounts(SeamHand):
    __slots__ = ()

    def _finish(self, result: HandResult) -> None:
        if result.end == "void":
            result = dataclasses.replace(result, counts=True)
        super()._finish(result)


@mutant(
    "played-out-replayed",
    "A hand whose cards run out with no claim does not count toward the game's 4 hands.",
    ["PLAY-8", "GAME-1"],
    pins="D23=replay",
)
class PlayedOutReplayed(SeamHand):
    __slots__ = ()

    def _finish(self, result: HandResult) -> None:
        if result.end == "played-out":
            result = dataclasses.replace(result, counts=False)
        super()._finish(result)


# ====================================================================== Five Tigers


@mutant("five-tigers-without-wan-sin", "The four suited 1s are enough for the Five Tigers (Wan Sin not needed).", ["TIG-1"])
class FiveTigersWithoutWanSin(SeamHand):
    __slots__ = ()

    def _tigers_holder(self) -> int | None:
        ones = NUMBER_MASKS[1]
        return next((s for s in self.active_seats if self.hands[s] & ones == ones), None)


@mutant("five-tigers-ignored", "The Five Tigers are not detected: the hand is played normally.", ["TIG-1"])
class FiveTigersIgnored(SeamHand):
    __slots__ = ()

    def _tigers_holder(self) -> int | None:
        return None


@mutant(
    "five-tigers-declared",
    "The Five Tigers holder is asked to declare them (phase tigers) instead of winning at once, under the default of D24 too.",
    ["TIG-1"],
    pins="D24=declared",
)
class FiveTigersDeclared(SeamHand):
    __slots__ = ()

    def _end_calling(self) -> None:
        holder = self._tigers_holder()
        if holder is None:
            self._start_playing()
            return
        self.phase = "tigers"
        self.to_act = holder


@mutant("five-tigers-on-void-calling",
        "The Five Tigers win even when nobody calls (checked before Calling, not after it).",
        ["TIG-1", "CALL-6"])
class FiveTigersOnVoidCalling(SeamHand):
    __slots__ = ()

    def _pass(self, seat: int) -> None:
        holder = self._tigers_holder()
        if self.next_seat(seat) == self.dealer and holder is not None:
            self._end_with_claim(holder, 8, "five-tigers")
            return
        super()._pass(seat)


@mutant("five-tigers-eight-points",
        "The Five Tigers score 8 points (as 9 tricks), reading the 8 as points rather than tricks.",
        ["TIG-1", "SCORE-1"])
class FiveTigersEightPoints(SeamHand):
    __slots__ = ()

    def _end_with_claim(self, winner: int, count: int, end: str) -> None:
        super()._end_with_claim(winner, 9 if end == "five-tigers" else count, end)


@mutant(
    "five-tigers-winner-only",
    "The Five Tigers pay only the winner (4 from each other active player): no Dreamer, no PP penalty, under the default of D34 too.",
    ["TIG-1", "SCORE-5", "SCORE-6"],
    pins="D34=winner-only",
)
class FiveTigersWinnerOnly(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        kwargs["profile"] = dataclasses.replace(kwargs["profile"], tigers_scoring="winner-only")
        return super()._score(**kwargs)


# ====================================================================== claiming


@mutant("claim-needs-more-than-six", "A claim needs more than 6 (tricks plus Elders of 7 or more): off by one.", ["CLAIM-1", "GAME-3"])
class ClaimNeedsMoreThanSix(SeamHand):
    __slots__ = ()

    def _claim_chance(self, winner: int) -> None:
        if self.claim_count(winner) == 6:
            self._after_claim_chance(winner)
            return
        super()._claim_chance(winner)


@mutant(
    "claim-automatic",
    "An eligible round winner claims at once (no choice to continue), under the default of D21 too.",
    ["CLAIM-1"],
    pins="D21=automatic",
)
class ClaimAutomatic(SeamHand):
    __slots__ = ()

    def _claim_chance(self, winner: int) -> None:
        if self.claim_count(winner) >= 6:
            self._end_with_claim(winner, self.claim_count(winner), "claim")
            return
        super()._claim_chance(winner)


@mutant("claim-ignores-elders", "Claim eligibility counts only the tricks won, not the Elders in hand.", ["CLAIM-1"])
class ClaimIgnoresElders(SeamHand):
    __slots__ = ()

    def claim_count(self, seat: int) -> int:
        return self.tricks[seat]


@mutant("claim-after-any-round", "The winner of any round may claim, whatever his tricks and Elders.", ["CLAIM-1"])
class ClaimAfterAnyRound(SeamHand):
    __slots__ = ()

    def _claim_chance(self, winner: int) -> None:
        self.phase = CLAIMING
        self.to_act = winner


@mutant("claim-on-any-turn",
        "A player with tricks plus Elders of 6 or more may claim on any turn, not only right after winning a round.",
        ["CLAIM-1"])
class ClaimOnAnyTurn(SeamHand):
    __slots__ = ()

    def _compute_legal(self) -> LegalActions:
        legal = super()._compute_legal()
        seat = self.to_act
        if self.phase == PLAYING and seat is not None and self.claim_count(seat) >= 6:
            return LegalActions(legal.actions + (Action(CLAIM),), legal.discard)
        return legal


@mutant("no-claim-after-last-round",
        "When the last round is over the hand is played out: its winner gets no chance to claim.",
        ["CLAIM-1", "PLAY-8"])
class NoClaimAfterLastRound(SeamHand):
    __slots__ = ()

    def _claim_chance(self, winner: int) -> None:
        if not self.hands[winner]:
            self._after_claim_chance(winner)
            return
        super()._claim_chance(winner)


@mutant(
    "claimed-count-without-elders",
    "A claim scores the tricks won only; the Elders in hand make it eligible but do not count.",
    ["CLAIM-1", "SCORE-1"],
    pins="D22=tricks-only",
)
class ClaimedCountWithoutElders(SeamHand):
    __slots__ = ()

    def _claimed_count(self, winner: int) -> int:
        return self.tricks[winner]


# ====================================================================== scoring


@mutant("pp-penalty-missing", "A Privileged Player who does not win pays only his own share.", ["SCORE-6"])
class PPPenaltyMissing(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        return super()._score(**kwargs, penalty_applies=False)


@mutant(
    "pp-penalty-winner-share",
    "A losing Privileged Player pays the winner's shares but each loser still pays the Dreamer himself, under the default of D29 too.",
    ["SCORE-6"],
    pins="D29=winner-share",
)
class PPPenaltyWinnerShare(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        kwargs["profile"] = dataclasses.replace(kwargs["profile"], privileged_penalty="winner-share")
        return super()._score(**kwargs)


@mutant("score-12-is-64", "Twelve tricks score 64 (doubling the table), not 128.", ["SCORE-1"])
class Score12Is64(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        return super()._score(**kwargs, table={**SCORE_TABLE, 12: 64})


@mutant("score-table-from-five", "The table starts one row early: 5 tricks score 1, 6 score 2, ... (off by one).", ["SCORE-1", "SCORE-2"])
class ScoreTableFromFive(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        return super()._score(**kwargs, table={t: 2 ** (t - 5) for t in range(5, 12)} | {12: 128})


@mutant(
    "dreamer-without-base-five",
    "The Dreamer counts only the matching cards, without the 5 tricks he wakes with.",
    ["SCORE-4"],
    pins="D25=matches-only",
)
class DreamerWithoutBase(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        return super()._score(**kwargs, dreamer_base=0)


@mutant(
    "dreamer-matches-hand-at-claim",
    "The Dreamer's matches are counted against the winner's hand at the claim, not the 12 dealt cards.",
    ["SCORE-4"],
    pins="D26=hand-at-claim",
)
class DreamerMatchesHandAtClaim(SeamHand):
    __slots__ = ()

    def _matched_hand(self, winner: int, end: str) -> int:
        return self.hands[winner] if end == "claim" else self.dealt[winner]


@mutant(
    "dreamer-matches-winning-pattern",
    "The Dreamer's matches are counted in the pattern that won the last round, not in the 12 dealt cards.",
    ["SCORE-4"],
    pins="D26=winning-pattern",
)
class DreamerMatchesWinningPattern(SeamHand):
    __slots__ = ()

    def _matched_hand(self, winner: int, end: str) -> int:
        return self.last_winning_pattern if end == "claim" else self.dealt[winner]


@mutant(
    "dreamer-wan-sin-no-match",
    "Wan Sin has no number for the Dreamer: it matches nothing and a Dreamer holding it matches nothing, under the default of D27 too.",
    ["SCORE-4", "CARDS-3"],
    pins="D27=no-match",
)
class DreamerWanSinNoMatch(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        kwargs["profile"] = dataclasses.replace(kwargs["profile"], dreamer_wan_sin="no-match")
        return super()._score(**kwargs)


@mutant(
    "dreamer-paid-by-all-three",
    "The Dreamer is paid by all three active players, the winner included.",
    ["SCORE-5"],
    pins="D28=all-three",
)
class DreamerPaidByAllThree(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        kwargs["profile"] = dataclasses.replace(kwargs["profile"], dreamer_payers="all-three")
        return super()._score(**kwargs)


@mutant("dreamer-not-paid", "The Dreamer collects nothing: his count is reported but nobody pays it.", ["SCORE-5", "SCORE-4"])
class DreamerNotPaid(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        return super()._score(**kwargs, dreamer_paid=False)


@mutant("dreamer-pays-winner", "The Dreamer, being one of the other players, also pays the winner the table value.", ["SCORE-3"])
class DreamerPaysWinner(SeamHand):
    __slots__ = ()

    def _score(self, **kwargs: Any) -> HandResult:
        return super()._score(**kwargs, dreamer_pays_winner=True)


# ====================================================================== factories

CONTROL = Mutant(
    "control",
    "The seam base with nothing overridden: behaves exactly like the reference engine.",
    (),
    SeamHand,
)

BY_ID: dict[str, Mutant] = {m.id: m for m in MUTANTS}


def control() -> Session:
    """The ``control`` engine (seams, no misreading): must pass the whole corpus."""
    return CONTROL.factory()


def reference() -> Session:
    """The plain reference engine."""
    return Session()


def _install_factories() -> None:
    for m in MUTANTS:
        def factory(m: Mutant = m) -> Session:
            return m.factory()

        factory.__name__ = factory.__qualname__ = m.factory_name
        factory.__doc__ = f"Engine factory of the mutant {m.id!r}: {m.description}"
        assert m.factory_name not in globals(), m.factory_name
        globals()[m.factory_name] = factory


_install_factories()


def get(mutant_id: str) -> Mutant:
    """The mutant of an id (``control`` included)."""
    if mutant_id == "control":
        return CONTROL
    return BY_ID[mutant_id]
