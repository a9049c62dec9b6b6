"""The mutant catalogue: plausible misreadings of the rules, one per engine.

"A conformance suite is worth what it catches." Each :class:`Mutant` is the
reference engine played under a variant of :class:`~reference_engine.rules.Rules`
(the engine's one seam for variant rules) that overrides ONE rule, named by a
kebab-case ``id`` and tied to the clauses it breaks. ``python -m
tests.mutants.report`` runs the scenario corpus against each of them; a mutant
that passes every scenario *survives*, and names a hole in the corpus.

Three families:

- hand-written misreadings below: a ``Rules`` subclass overriding one method
  (two at most, for one misreading that shows in two places);
- pinned options, generated from spec/decisions.yaml: for every non-default
  option of every decision, the reference that plays that option whatever the
  options asked for (``pins`` records it, e.g. ``"D16=lowest"``). Only the
  scenarios run under that decision's default can kill it;
- misreports: the default rules, played right, whose accepted ``act`` answers
  tell the move's events wrong (``report`` rewrites them): only an ``events``
  expectation, or the fuzzer comparing events, can kill them;
- miswirings: the default rules, played right, with one other request answered
  wrong (``session``, the fuzzer's fake engines of ``tests/fuzz/fakes.py``),
  each killed by the corpus's scenarios of that request. The first three are
  each met by one kind of the fuzzer's side checks only (a ``pattern`` answer,
  a refused setup in a ``batch``, the move reaching a bad deal), which
  ``tests/fuzz/test_kinds.py`` proves; those of issue 31 §3's scenarios (a
  count running on into the next deal, a wrong ``divide``, a batch stopping at
  a refused step, answering ``state: last`` with every state, played on a copy,
  the Dreamer's card after a won hand) are met by the fuzzer too, but for
  ``batch-state-every-step``: the fuzzer does not compare a ``state`` it did not
  ask for, so ``tests/mutants/test_catalogue.py`` shows it differs by one probe.
  ``legal-order-reversed`` is met by the runner's check that an engine
  declaring ``playout`` lists ``legal.actions`` in the canonical order, which
  every trajectory scenario makes, and ``observe-legal-order-reversed`` by the
  same check of the observations the scenarios that observe read;
  ``observe-changed-by-a-refused-start`` by a setup scenario with ``observe:
  true`` (and the fuzzer's observations after a refused setup); ``text-split-at-spaces-only`` by the
  fuzzer's actions respelled with other white space, and
  ``text-split-at-unit-separators`` by text the fuzzer never sends (U+001C to
  U+001F), which the scenarios of ``contract/white-space.yaml`` hold.

Every mutant is also an in-process engine for the conformance runner::

    hakka-conformance run --engine python:tests.mutants.catalogue:clockwise

(the factory is the ``id`` with ``-`` turned into ``_``). ``control`` is the
default ``Rules`` through the same path: it must pass everything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import yaml

from reference_engine.cards import NUMBER_MASKS, SUIT_MASKS, WAN_SIN_BIT, number_of
from reference_engine.patterns import RUN, RUNS_IN, SET, SINGLE, Kind, PatternTables, run_rank, set_rank
from reference_engine.profile import Profile
from reference_engine.rules import DEFAULT_RULES, Rules
from reference_engine.scoring import Payment, Win
from reference_engine.wire import Session

if TYPE_CHECKING:
    from reference_engine.hand import Hand

DECISIONS_YAML = Path(__file__).resolve().parents[2] / "spec" / "decisions.yaml"

MUTANT_COUNT_NODE_LIMIT = 250_000
"""A misreading can make perft explode (a discard always allowed multiplies every
level by up to 220); the reference needs far fewer positions for any count
scenario (tests/mutants/test_catalogue.py checks that), so past this bound the
mutant's `count` is an error, which kills it, instead of a run that never ends."""


@dataclass(frozen=True)
class Mutant:
    """One misreading of the rules, as an engine."""

    id: str
    description: str
    clauses: tuple[str, ...]
    rules: Rules
    pins: str | None = None
    """The decision option the mutant plays whatever is asked (``"D16=lowest"``), if it is one."""
    report: Callable[[list[str]], list[str]] | None = None
    """For a misreport: how it rewrites the events of each accepted ``act`` (in ``batch`` steps too)."""
    session: type[Session] | None = None
    """For a miswiring: the session class that answers one request wrong (the rules played right)."""

    @property
    def factory_name(self) -> str:
        return self.id.replace("-", "_")

    @property
    def engine_spec(self) -> str:
        """The runner's ``--engine`` argument for this mutant."""
        return f"python:{__name__}:{self.factory_name}"

    def factory(self) -> Any:
        """A protocol session playing under this mutant's rules, named ``mutant-<id>`` in ``hello``."""
        # ``name`` is a class attribute (the compiled Session has no instance field for it): a subclass per mutant
        base = self.session or Session
        named = cast(type[Session], type(f"Session_{self.factory_name}", (base,), {"name": f"mutant-{self.id}"}))
        session = named(rules=self.rules)
        session.count_node_limit = MUTANT_COUNT_NODE_LIMIT
        return session if self.report is None else Misreporting(session, self.report)


class Misreporting:
    """A session whose accepted ``act`` answers (alone or in a ``batch``'s steps) carry rewritten events."""

    def __init__(self, session: Session, report: Callable[[list[str]], list[str]]) -> None:
        self.session = session
        self.report = report

    def _act(self, answer: Any) -> Any:
        if isinstance(answer, dict) and answer.get("ok") and isinstance(answer.get("events"), list):
            return {**answer, "events": self.report(list(answer["events"]))}
        return answer

    def handle(self, message: Any) -> dict[str, Any]:
        answer = self.session.handle(message)
        cmd = message.get("cmd") if isinstance(message, dict) else None
        if cmd == "act":
            return cast(dict[str, Any], self._act(answer))
        if cmd == "batch" and answer.get("ok") and isinstance(answer.get("steps"), list):
            steps = [{**step, "act": self._act(step["act"])} if isinstance(step, dict) and "act" in step else step
                     for step in answer["steps"]]
            return {**answer, "steps": steps}
        return answer


MUTANTS: list[Mutant] = []


def mutant(id: str, description: str, clauses: Sequence[str]) -> Callable[[type[Rules]], type[Rules]]:
    """Register the decorated ``Rules`` variant as a mutant."""

    def register(cls: type[Rules]) -> type[Rules]:
        assert all(m.id != id for m in MUTANTS), id
        MUTANTS.append(Mutant(id, description, tuple(clauses), cls()))
        return cls

    return register


def _suit_and_top(mask: int) -> tuple[int, int]:
    low = (mask & -mask).bit_length() - 1
    high = mask.bit_length() - 1
    return low // 9, high % 9 + 1


def _is_set_of_ones(kind: Kind, mask: int) -> bool:
    return kind == SET and number_of((mask & -mask).bit_length() - 1) == 1


# ====================================================================== pinned options


@dataclass(frozen=True, slots=True)
class PinnedRules(Rules):
    """The reference rules with some decisions pinned to an option, whatever options are asked for."""

    pins: tuple[tuple[str, str], ...] = ()

    def profile(self, requested: Profile) -> Profile:
        return Profile.from_options({**requested.options(), **dict(self.pins)})


def _pinned_mutants() -> list[Mutant]:
    """One mutant per non-default option of spec/decisions.yaml."""
    out = []
    for decision in yaml.safe_load(DECISIONS_YAML.read_text(encoding="utf-8"))["decisions"]:
        for option in decision["options"]:
            if option["id"] == decision["default"]:
                continue
            summary = " ".join(str(option["summary"]).split()).rstrip(".")
            out.append(Mutant(
                f"{decision['key'].replace('_', '-')}-{option['id']}",
                f"Plays {decision['id']} ({decision['title']}) as {option['id']} ({summary}), "
                "whatever option is asked for.",
                tuple(decision["clauses"]),
                PinnedRules(((decision["id"], option["id"]),)),
                pins=f"{decision['id']}={option['id']}",
            ))
    return out


# ====================================================================== patterns


@mutant("run-rank-number-first", "Runs are ranked by their top number first and by suit only between equal numbers.",
        ["PAT-2"])
class RunRankNumberFirst(Rules):
    __slots__ = ()

    def classify(self, tables: PatternTables, mask: int) -> tuple[Kind, int]:
        kind, rank = super().classify(tables, mask)
        if kind == RUN:
            suit, top = _suit_and_top(mask)
            return RUN, top * 4 + (3 - suit)
        return kind, rank


@mutant("set-of-ones-plain", "A Set of 1s is ranked as a plain 1: the lowest Set, beaten by any other Set.", ["PAT-4"])
class SetOfOnesPlain(Rules):
    __slots__ = ()

    def classify(self, tables: PatternTables, mask: int) -> tuple[Kind, int]:
        kind, rank = super().classify(tables, mask)
        return (SET, 1) if _is_set_of_ones(kind, mask) else (kind, rank)


@mutant("set-of-ones-highest", "A Set of 1s is the highest Set, above the 9s (the special rank read as 'unbeatable').",
        ["PAT-4"])
class SetOfOnesHighest(Rules):
    __slots__ = ()

    def classify(self, tables: PatternTables, mask: int) -> tuple[Kind, int]:
        kind, rank = super().classify(tables, mask)
        return (SET, 11) if _is_set_of_ones(kind, mask) else (kind, rank)


@mutant("runs-of-three-only", "A Run is exactly three consecutive cards of a suit; four or more are no pattern.",
        ["PAT-1", "PAT-7"])
class RunsOfThreeOnly(Rules):
    __slots__ = ()

    def runs_in(self, tables: PatternTables, cards: int) -> list[int]:
        return [r for r in super().runs_in(tables, cards) if r.bit_count() == 3]

    def classify(self, tables: PatternTables, mask: int) -> tuple[Kind, int]:
        kind, rank = super().classify(tables, mask)
        return (Kind.NONE, 0) if kind == RUN and mask.bit_count() != 3 else (kind, rank)


@mutant("wan-sin-in-runs", "Wan Sin, worth 1, may stand for the 1 of any suit in a Run.", ["PAT-1", "CARDS-3"])
class WanSinInRuns(Rules):
    __slots__ = ()

    def runs_in(self, tables: PatternTables, cards: int) -> list[int]:
        runs = super().runs_in(tables, cards)
        if cards & WAN_SIN_BIT:
            for suit in range(4):
                bits = (cards >> (9 * suit)) & 0x1FF
                for run, _length, _top in RUNS_IN[bits | 1]:
                    if run & 1:  # Wan Sin stands for the suit's 1
                        runs.append(((run & ~1) << (9 * suit)) | WAN_SIN_BIT)
        return runs

    def classify(self, tables: PatternTables, mask: int) -> tuple[Kind, int]:
        rest = mask & ~WAN_SIN_BIT
        if mask & WAN_SIN_BIT and mask.bit_count() >= 3:
            suit, top = _suit_and_top(rest)
            bits = rest >> (9 * suit)
            if rest & SUIT_MASKS[suit] == rest and not bits & 1 and bits | 1 == (1 << top) - 1:
                return RUN, run_rank(suit, top)
        return super().classify(tables, mask)


@mutant("two-card-sets", "Two cards of the same number make a Set (a pair).", ["PAT-3", "PAT-7"])
class TwoCardSets(Rules):
    __slots__ = ()

    def classify(self, tables: PatternTables, mask: int) -> tuple[Kind, int]:
        if mask.bit_count() == 2:
            n = number_of((mask & -mask).bit_length() - 1)
            if mask & ~tables.set_masks[n] == 0:
                return SET, set_rank(n, tables.profile)
        return super().classify(tables, mask)

    def sets_in(self, tables: PatternTables, cards: int) -> list[int]:
        sets = super().sets_in(tables, cards)
        for n in range(1, 10):
            held = [1 << i for i in range(37) if cards & tables.set_masks[n] >> i & 1]
            sets += [a | b for i, a in enumerate(held) for b in held[i + 1:]]
        return sets


_SUP1, _SIN1 = 0, 27


@mutant("special-elders-beat-singles",
        "Sup1 and Sin1 (Elders) beat any non-Elder Single of their suit and Wan Sin beats any Single, when following.",
        ["ELD-6"])
class SpecialEldersBeatSingles(Rules):
    __slots__ = ()

    def single_beaters(self, tables: PatternTables, card: int) -> int:
        beaters = super().single_beaters(tables, card)
        if card < 36:
            beaters |= WAN_SIN_BIT
            if card // 9 == 0 and card != _SUP1:
                beaters |= 1 << _SUP1
            if card // 9 == 3 and card != _SIN1:
                beaters |= 1 << _SIN1
        return beaters


@mutant("elder-single-beatable",
        "An Elder played as a Single can be beaten by a higher card like any other (a led Sup1 falls to Sup2).",
        ["ELD-3", "ELD-6"])
class ElderSingleBeatable(Rules):
    __slots__ = ()

    def elder_single_unbeatable(self, was_elder: bool) -> bool:
        return False


# ====================================================================== elders


@mutant("elders-never-promoted",
        "Only the initial Elders are ever Elders: Sup8 stays a non-Elder after Sup9 is played.", ["ELD-2"])
class EldersNeverPromoted(Rules):
    __slots__ = ()

    def gone(self, hand: Hand) -> int:
        return 0


@mutant("elder-when-next-card-played",
        "A card becomes an Elder as soon as the card just above it is played, even if higher ones are still out.",
        ["ELD-2"])
class ElderWhenNextCardPlayed(Rules):
    __slots__ = ()

    def elders_given(self, gone: int) -> int:
        elders = super().elders_given(gone)
        for suit in range(4):
            for n in range(1, 9):
                if gone >> (suit * 9 + n) & 1:  # card n+1 of the suit is gone
                    elders |= 1 << (suit * 9 + n - 1)
        return elders


@mutant("elders-at-round-end", "Elders are promoted when the round ends, not the moment the higher card is played.",
        ["ELD-2"])
class EldersAtRoundEnd(Rules):
    __slots__ = ()

    def elders_after(self, hand: Hand, face_up: bool) -> int:
        if hand.acted == 2:  # the round's last action
            return self.elders_given(self.gone(hand))
        return hand.elders


@mutant("all-ones-are-elders", "All four suited 1s (not only Sup1 and Sin1) are Elders from the start.", ["ELD-1"])
class AllOnesAreElders(Rules):
    __slots__ = ()

    def elders_given(self, gone: int) -> int:
        return super().elders_given(gone) | NUMBER_MASKS[1]


@mutant("nines-not-elders", "Only Sup1, Sin1 and Wan Sin are Elders from the start; the 9s are not.", ["ELD-1"])
class NinesNotElders(Rules):
    __slots__ = ()

    def elders_given(self, gone: int) -> int:
        return super().elders_given(gone) & ~NUMBER_MASKS[9]


@mutant("discards-promote-elders-late",
        "Discarded cards count as gone when promoting Elders, the Elders being recomputed at the next face-up play.",
        ["ELD-2", "PLAY-5"])
class DiscardsPromoteEldersLate(Rules):
    __slots__ = ()

    def gone(self, hand: Hand) -> int:
        return hand.played | hand.discarded


# ====================================================================== leading a Single


@mutant("leader-ignores-top-suit",
        "A leader may lead a non-Elder Single of any suit, not only of the highest suit in hand.", ["PAT-5"])
class LeaderIgnoresTopSuit(Rules):
    __slots__ = ()

    def lead_suit(self, cards: int) -> int:
        return cards


@mutant("elder-led-before-non-elders",
        "A leader may lead an Elder of the top suit while non-Elders of it remain (non-Elder-first rule ignored).",
        ["ELD-4"])
class ElderLedFirst(Rules):
    __slots__ = ()

    def elders_wait(self, hand: Hand, seat: int) -> bool:
        return False


@mutant("elder-first-once-per-hand",
        "Once a player has led a Single in the hand, the non-Elder-first rule no longer binds him "
        "(D37's rejected once-per-hand reading).", ["ELD-4"])
class ElderFirstOncePerHand(Rules):
    __slots__ = ()

    def elders_wait(self, hand: Hand, seat: int) -> bool:
        plays = [(who, a) for who, a in hand.history if a.verb in ("play", "discard")]
        return not any(who == seat and a.verb == "play" and a.mask.bit_count() == 1 for who, a in plays[::3])


@mutant("top-suit-by-count",
        "The leader's 'highest suit' is the suit he holds most cards of (ties to the higher suit), "
        "not the highest-ranking one.", ["PAT-5", "CARDS-2"])
class TopSuitByCount(Rules):
    __slots__ = ()

    def lead_suit(self, cards: int) -> int:
        if not cards & ~WAN_SIN_BIT:
            return super().lead_suit(cards)
        return max((cards & m for m in SUIT_MASKS), key=lambda suit: suit.bit_count())


@mutant("privilege-any-single",
        "The Privileged Player may lead any Single at all, ignoring the suit rule too.", ["ELD-5", "PAT-5"])
class PrivilegeAnySingle(Rules):
    __slots__ = ()

    def leadable_singles(self, hand: Hand, seat: int) -> int:
        allowed = super().leadable_singles(hand, seat)
        return allowed | hand.hands[seat] if seat == hand.privileged else allowed


@mutant("no-privilege",
        "The Privileged Player has no privilege: he too must lead non-Elders of the top suit first.", ["ELD-5"])
class NoPrivilege(Rules):
    __slots__ = ()

    def has_privilege(self, hand: Hand, seat: int) -> bool:
        return False


@mutant("exempt-wan-sin-always-leadable",
        "Under D9 exempt Wan Sin is outside every rule of the lead: any leader may lead it at any time, "
        "even while his top suit holds a non-Elder (ELD-4 read as not binding it).", ["ELD-4", "CARDS-3"])
class ExemptWanSinAlwaysLeadable(Rules):
    __slots__ = ()

    def leadable_singles(self, hand: Hand, seat: int) -> int:
        allowed = super().leadable_singles(hand, seat)
        return allowed | hand.hands[seat] & WAN_SIN_BIT if hand.profile.wan_sin_suit == "exempt" else allowed


@mutant("exempt-wan-sin-in-every-top-suit-privilege",
        "Under D11 top-suit-elder with D9 exempt, Wan Sin counts as an Elder of the Privileged Player's top "
        "suit, so he may lead it at any time.", ["ELD-5", "CARDS-3"])
class ExemptWanSinInEveryTopSuitPrivilege(Rules):
    __slots__ = ()

    def leadable_singles(self, hand: Hand, seat: int) -> int:
        allowed = super().leadable_singles(hand, seat)
        profile = hand.profile
        if seat == hand.privileged and profile.privilege == "top-suit-elder" and profile.wan_sin_suit == "exempt":
            allowed |= hand.hands[seat] & WAN_SIN_BIT
        return allowed


@mutant("exempt-wan-sin-bound-by-top-suit-privilege",
        "Under D11 top-suit-elder with D9 exempt, Wan Sin (of no suit) is never among the Privileged "
        "Player's leads, even once his top suit holds only Elders.", ["ELD-5", "CARDS-3"])
class ExemptWanSinBoundByTopSuitPrivilege(Rules):
    __slots__ = ()

    def leadable_singles(self, hand: Hand, seat: int) -> int:
        allowed = super().leadable_singles(hand, seat)
        cards = hand.hands[seat]
        profile = hand.profile
        if (seat == hand.privileged and profile.privilege == "top-suit-elder" and profile.wan_sin_suit == "exempt"
                and cards & ~WAN_SIN_BIT):
            allowed &= ~WAN_SIN_BIT
        return allowed


# ====================================================================== following


@mutant("discard-one-card",
        "A follower who cannot beat discards a single card, whatever the size of the pattern.", ["PLAY-4"])
class DiscardOneCard(Rules):
    __slots__ = ()

    def discard_count(self, target_size: int) -> int:
        return 1


@mutant("follow-with-longer-pattern", "A follower may beat a Run or Set with a longer one (more cards).", ["PLAY-3"])
class FollowWithLongerPattern(Rules):
    __slots__ = ()

    def follow_size_ok(self, size: int, target_size: int) -> bool:
        return size >= target_size


@mutant("exempt-wan-sin-free-for-followers",
        "Under D8 followers-too with D9 exempt, Wan Sin is outside the top-suit rule: a follower bound to "
        "his top suit may still discard it at any time.", ["PAT-5", "PLAY-4", "CARDS-3"])
class ExemptWanSinFreeForFollowers(Rules):
    __slots__ = ()

    def follow_pool(self, hand: Hand, seat: int, kind: Kind) -> int:
        pool = super().follow_pool(hand, seat, kind)
        if hand.profile.wan_sin_suit == "exempt":
            pool |= hand.hands[seat] & WAN_SIN_BIT
        return pool


@mutant("exempt-follower-wan-sin-alone-stuck",
        "Under D8 followers-too with D9 exempt, a follower's top suit leaves Wan Sin out even when it is "
        "his only card, so a follower holding Wan Sin alone has nothing he may discard.",
        ["PAT-5", "PLAY-3", "CARDS-3"])
class ExemptFollowerWanSinAloneStuck(Rules):
    __slots__ = ()

    def follow_pool(self, hand: Hand, seat: int, kind: Kind) -> int:
        pool = super().follow_pool(hand, seat, kind)
        if kind == SINGLE and hand.profile.follower_suit_rule == "followers-too" \
                and hand.profile.wan_sin_suit == "exempt":
            pool &= ~WAN_SIN_BIT
        return pool


# ====================================================================== rounds and tricks


@mutant("tricks-one-per-round",
        "The winner of a round takes one trick, not one per card of the winning pattern.", ["PLAY-6"])
class TricksOnePerRound(Rules):
    __slots__ = ()

    def tricks_won(self, pattern: int) -> int:
        return 1


@mutant("next-round-led-in-turn",
        "The next round is led by the player after the last leader, not by the round's winner.", ["PLAY-7"])
class NextRoundLedInTurn(Rules):
    __slots__ = ()

    def next_leader(self, hand: Hand, winner: int) -> int:
        return self.next_seat(hand, hand.leader)


@mutant("clockwise", "Play and Calling go clockwise (seat s to s-1) instead of counterclockwise.", ["GAME-5"])
class Clockwise(Rules):
    __slots__ = ()

    def next_seat(self, hand: Hand, seat: int) -> int:
        seat = (seat - 1) % 4
        return (seat - 1) % 4 if seat == hand.dreamer else seat


# ====================================================================== calling and the next Dealer


@mutant("dreamer-speaks-in-calling",
        "The Dreamer is not skipped in Calling: after Dealer+1 passes, the Dreamer may call.", ["DEAL-3", "CALL-5"])
class DreamerSpeaks(Rules):
    __slots__ = ()

    def next_speaker(self, hand: Hand, seat: int) -> int:
        return (seat + 1) % 4


@mutant("calling-continues-after-call",
        "Calling goes on after a Call until every active player has spoken; the last to call is the caller.",
        ["CALL-5"])
class CallingContinues(Rules):
    __slots__ = ()

    def call_ends_calling(self, hand: Hand) -> bool:
        return False


@mutant("dealer-caller-is-pp", "A Dealer who calls becomes the Privileged Player.", ["CALL-4"])
class DealerCallerIsPP(Rules):
    __slots__ = ()

    def caller_is_privileged(self, hand: Hand, seat: int) -> bool:
        return True


@mutant("dealer-pass-keeps-deal",
        "When the Dealer passes and another player calls, the same Dealer deals the next hand.", ["CALL-3"])
class DealerPassKeepsDeal(Rules):
    __slots__ = ()

    def next_dealer(self, hand: Hand) -> int:
        if hand.caller is not None and hand.caller != hand.dealer:
            return hand.dealer
        return super().next_dealer(hand)


@mutant("dealer-call-passes-deal", "A Dealer who calls hands the deal to the next seat like one who passes.",
        ["CALL-2"])
class DealerCallPassesDeal(Rules):
    __slots__ = ()

    def next_dealer(self, hand: Hand) -> int:
        if hand.caller == hand.dealer:
            return (hand.dealer + 1) % 4
        return super().next_dealer(hand)


@mutant("void-redeal-by-d4-caller",
        "Under D4 caller a void hand is redealt by dealer + 1 whatever D5 says (D4 read over D5).",
        ["CALL-6"])
class VoidRedealByD4Caller(Rules):
    __slots__ = ()

    def next_dealer(self, hand: Hand) -> int:
        if hand.caller is None and hand.profile.next_dealer == "caller":
            return (hand.dealer + 1) % 4
        return super().next_dealer(hand)


@mutant("void-keeps-deal-under-d4-caller",
        "Under D4 caller a void hand has no caller to take the deal, so the same Dealer deals again "
        "whatever D5 says.", ["CALL-6", "CALL-3"])
class VoidKeepsDealUnderD4Caller(Rules):
    __slots__ = ()

    def next_dealer(self, hand: Hand) -> int:
        if hand.caller is None and hand.profile.next_dealer == "caller":
            return hand.dealer
        return super().next_dealer(hand)


# ====================================================================== Five Tigers


@mutant("five-tigers-without-wan-sin",
        "The four suited 1s are enough for the Five Tigers (Wan Sin not needed).", ["TIG-1"])
class FiveTigersWithoutWanSin(Rules):
    __slots__ = ()

    def tigers_holder(self, hand: Hand) -> int | None:
        ones = NUMBER_MASKS[1]
        return next((s for s in hand.active_seats if hand.hands[s] & ones == ones), None)


@mutant("five-tigers-given-up-by-a-pass",
        "A player who passed in Calling has given up the Five Tigers: only the caller or a player who did "
        "not speak may show them.", ["TIG-1", "CALL-3"])
class FiveTigersGivenUpByAPass(Rules):
    __slots__ = ()

    def tigers_holder(self, hand: Hand) -> int | None:
        holder = super().tigers_holder(hand)
        if holder is None or hand.caller is None:
            return holder
        order = [hand.dealer]
        while len(order) < 3:
            order.append(self.next_speaker(hand, order[-1]))
        return None if order.index(holder) < order.index(hand.caller) else holder


@mutant("five-tigers-ignored", "The Five Tigers are not detected: the hand is played normally.", ["TIG-1"])
class FiveTigersIgnored(Rules):
    __slots__ = ()

    def tigers_holder(self, hand: Hand) -> int | None:
        return None


@mutant("five-tigers-on-void-calling",
        "The Five Tigers win even when nobody calls (checked before Calling, not after it).", ["TIG-1", "CALL-6"])
class FiveTigersOnVoidCalling(Rules):
    __slots__ = ()

    def tigers_need_a_call(self) -> bool:
        return False


@mutant("five-tigers-eight-points",
        "The Five Tigers score 8 points (as 9 tricks), reading the 8 as points rather than tricks.",
        ["TIG-1", "SCORE-1"])
class FiveTigersEightPoints(Rules):
    __slots__ = ()

    def tigers_count(self) -> int:
        return 9


# ====================================================================== claiming


@mutant("claim-needs-more-than-six",
        "A claim needs more than 6 (tricks plus Elders of 7 or more): off by one.", ["CLAIM-1", "GAME-3"])
class ClaimNeedsMoreThanSix(Rules):
    __slots__ = ()

    def may_claim(self, hand: Hand, seat: int) -> bool:
        return self.claim_count(hand, seat) > 6


@mutant("claim-ignores-elders", "Claim eligibility counts only the tricks won, not the Elders in hand.", ["CLAIM-1"])
class ClaimIgnoresElders(Rules):
    __slots__ = ()

    def claim_count(self, hand: Hand, seat: int) -> int:
        return hand.tricks[seat]


@mutant("claim-after-any-round", "The winner of any round may claim, whatever his tricks and Elders.", ["CLAIM-1"])
class ClaimAfterAnyRound(Rules):
    __slots__ = ()

    def may_claim(self, hand: Hand, seat: int) -> bool:
        return True


@mutant("claim-on-any-turn",
        "A player with tricks plus Elders of 6 or more may claim on any turn, not only right after winning a round.",
        ["CLAIM-1"])
class ClaimOnAnyTurn(Rules):
    __slots__ = ()

    def claims_any_turn(self, hand: Hand, seat: int) -> bool:
        return self.claim_count(hand, seat) >= 6


@mutant("no-claim-after-last-round",
        "When the last round is over the hand is played out: its winner gets no chance to claim.",
        ["CLAIM-1", "PLAY-8"])
class NoClaimAfterLastRound(Rules):
    __slots__ = ()

    def may_claim(self, hand: Hand, seat: int) -> bool:
        return bool(hand.hands[seat]) and super().may_claim(hand, seat)


# ====================================================================== scoring


@mutant("pp-penalty-missing", "A Privileged Player who does not win pays only his own share.", ["SCORE-6"])
class PPPenaltyMissing(Rules):
    __slots__ = ()

    def privileged_pays(self, win: Win) -> bool:
        return False


@mutant("score-12-is-64", "Twelve tricks score 64 (doubling the table), not 128.", ["SCORE-1"])
class Score12Is64(Rules):
    __slots__ = ()

    def table_value(self, tricks: int) -> int:
        return 64 if tricks == 12 else super().table_value(tricks)


@mutant("score-table-from-five",
        "The table starts one row early: 5 tricks score 1, 6 score 2, ... (off by one).", ["SCORE-1", "SCORE-2"])
class ScoreTableFromFive(Rules):
    __slots__ = ()

    def table_value(self, tricks: int) -> int:
        return 128 if tricks == 12 else 2 ** (tricks - 5) if 5 <= tricks < 12 else 0


@mutant("dreamer-not-paid", "The Dreamer collects nothing: his count is reported but nobody pays it.",
        ["SCORE-5", "SCORE-4"])
class DreamerNotPaid(Rules):
    __slots__ = ()

    def dreamer_value(self, count: int) -> int:
        return 0


@mutant("dreamer-pays-winner", "The Dreamer, being one of the other players, also pays the winner the table value.",
        ["SCORE-3"])
class DreamerPaysWinner(Rules):
    __slots__ = ()

    def payments(self, win: Win, count: int, profile: Profile) -> list[Payment]:
        return [*super().payments(win, count, profile), (win.dreamer, win.winner, self.table_value(win.tricks))]


MUTANTS.extend(_pinned_mutants())

# ====================================================================== misreports


def misreport(id: str, description: str, clauses: Sequence[str]) -> Callable[[Callable[[list[str]], list[str]]],
                                                                             Callable[[list[str]], list[str]]]:
    """Register the decorated rewrite of an act's events as a misreport of the default rules."""

    def register(rewrite: Callable[[list[str]], list[str]]) -> Callable[[list[str]], list[str]]:
        assert all(m.id != id for m in MUTANTS), id
        MUTANTS.append(Mutant(id, description, tuple(clauses), DEFAULT_RULES, report=rewrite))
        return rewrite

    return register


@misreport("events-round-won-first", "A round won is told before the play or discard that won it.", ["PLAY-6"])
def _round_won_first(events: list[str]) -> list[str]:
    won = [e for e in events if e[2:].startswith("wins ")]
    return won + [e for e in events if e not in won]


@misreport("events-promotion-untold", "Cards promoted to Elder are never told: the Elders change silently.",
           ["ELD-2"])
def _promotion_untold(events: list[str]) -> list[str]:
    return [e for e in events if not e[2:].startswith("promotes ")] or events


@misreport("events-privilege-untold", "A call that makes the Privileged Player is told as a plain call.", ["CALL-4"])
def _privilege_untold(events: list[str]) -> list[str]:
    return [e.replace(" call (privileged)", " call") for e in events]

# ====================================================================== miswirings


def _miswirings() -> list[Mutant]:
    from tests.fuzz import fakes

    return [Mutant(id, description, tuple(clauses), DEFAULT_RULES, session=session) for id, description, clauses, session in (
        ("pattern-sets-as-runs", "Answers pattern that a Set is a Run, while its play of a Set is right.", ["PAT-1", "PAT-3"],
         fakes.MisclassifiesSets),
        ("batch-setup-refused-whole", "Refuses a batch whose setup the rules refuse with an error object, where "
         "the start answer in the batch should hold the refusal.", ["CARDS-1", "DEAL-4"], fakes.RefusesABatchSetupWhole),
        ("missing-deal-illegal", "Refuses the move that would reach a missing or bad deal of a game as illegal, "
         "not bad-setup.", ["GAME-1"], fakes.RefusesAMissingDealAsIllegal),
        ("legal-order-reversed", "Lists the legal actions of every state in reverse canonical order while "
         "declaring playout, whose draws index that order.", ["PLAY-2"], fakes.ListsLegalActionsReversed),
        ("observe-changed-by-a-refused-start", "After a refused start, shows every seat the Dreamer's card in "
         "observe, as if the refused hand were half set up, its state unchanged.", ["OBS-1", "DEAL-4"],
         fakes.ShowsTheDreamerAfterARefusedSetup),
        ("observe-legal-order-reversed", "Lists the legal actions a seat observes in reverse canonical order "
         "while declaring playout, its state's in order.", ["PLAY-2", "OBS-1"], fakes.ListsObservedLegalActionsReversed),
        ("text-split-at-spaces-only", "Splits card and action text at U+0020 only, so that a tab, a line end or "
         "a no-break space between two cards makes the text malformed.", ["CARDS-1"], fakes.SplitsAtSpacesOnly),
        ("text-split-at-unit-separators", "Splits card and action text at U+001C-U+001F too (Python's str.split), "
         "which are no white space.", ["CARDS-1"], fakes.SplitsAtUnitSeparators),
        ("count-into-the-next-deal", "Counts on into the next deal in a game, where a count counts the hand in "
         "play only.", ["GAME-1"], fakes.CountsIntoTheNextDeal),
        ("divide-of-every-depth", "Answers a count's divide with the sequences of every length each first action "
         "starts, not those of the last depth.", ["CALL-1"], fakes.DivideCountsEveryDepth),
        ("batch-stops-at-a-refused-step", "Takes no step of a batch after the first one refused.", ["PLAY-4"],
         fakes.StopsABatchAtARefusedStep),
        ("batch-state-every-step", "Answers every step of a batch with its state, though asked for the last one "
         "only.", ["GAME-1"], fakes.StatesEveryStepOfABatch),
        ("batch-on-a-copy", "Plays a batch on a copy: after it, the session is where it was before it.", ["CALL-1"],
         fakes.PlaysABatchOnACopy),
        ("dreamer-card-after-a-won-hand", "Shows every seat the new Dreamer's card when the game's last ended hand "
         "was won, as if the hand in play were.", ["OBS-1", "DEAL-4"], fakes.ShowsTheDreamersCardAfterAWonHand),
    )]


MUTANTS.extend(_miswirings())

# ====================================================================== factories

CONTROL = Mutant(
    "control",
    "The default rules through the mutants' path: behaves exactly like the reference engine.",
    (),
    DEFAULT_RULES,
)

BY_ID: dict[str, Mutant] = {m.id: m for m in MUTANTS}
assert len(BY_ID) == len(MUTANTS), "mutant ids are unique"


def control() -> Any:
    """The ``control`` engine (the mutants' path, no misreading): must pass the whole corpus."""
    return CONTROL.factory()


def reference() -> Session:
    """The plain reference engine."""
    return Session()


def _install_factories() -> None:
    for m in MUTANTS:
        def factory(m: Mutant = m) -> Any:
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


def __getattr__(name: str) -> Any:  # the factories installed above, for type checkers
    raise AttributeError(name)
