"""One hand of Hakka Cards: Dealing, Calling, Playing and Scoring (GAME-2).

>>> hand = Hand.from_seed(dealer=0, seed=1)
>>> hand.phase, hand.to_act, [str(a) for a in hand.legal_actions()]
(<Phase.CALLING: 'calling'>, 0, ['call', 'pass'])
>>> hand.apply(0, "call")
>>> hand.phase == "playing", hand.to_act
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Final, NamedTuple

from .actions import (
    CALL,
    CLAIM,
    CONTINUE,
    DECLINE,
    DISCARD,
    PASS,
    PLAY,
    TIGERS,
    Action,
    DiscardOption,
    LegalActions,
)
from .cards import (
    DECK_SIZE,
    FULL_DECK,
    Cards,
    indices,
    mask_text,
    parse_card_index,
    parse_mask,
    seeded_deck,
)
from .errors import HakkaError, MalformedError, SetupError
from .patterns import RUN, SINGLE, Kind, PatternTables, tables_for
from .profile import DEFAULT_PROFILE, Profile
from .rules import DEFAULT_RULES, FIVE_TIGERS, Rules, elders_given, top_suit_mask
from .scoring import HandResult, Win

if TYPE_CHECKING:
    from .observation import Observation

__all__ = ["FIVE_TIGERS", "HAND_SIZE", "Hand", "Phase", "Play", "deal_sequence", "elders_given", "top_suit_mask"]


class Phase(StrEnum):
    """The phase of a hand (GAME-2); the value is its wire name (spec/PROTOCOL.md)."""

    CALLING = "calling"
    TIGERS = "tigers"
    PLAYING = "playing"
    CLAIMING = "claim"
    ENDED = "ended"


HAND_SIZE: Final = 12

_PLAY_CACHE: dict[int, Action] = {}


def _play(mask: int) -> Action:
    action = _PLAY_CACHE.get(mask)
    if action is None:
        action = _PLAY_CACHE[mask] = Action(PLAY, mask)
    return action


_SINGLES_CACHE: dict[int, tuple[Action, ...]] = {}


def _singles(mask: int) -> tuple[Action, ...]:
    """One ``play`` action per card of ``mask``, in card order (cached: Singles repeat)."""
    actions = _SINGLES_CACHE.get(mask)
    if actions is None:
        actions = _SINGLES_CACHE[mask] = tuple(_play(1 << index) for index in indices(mask))
    return actions


_CALL_OR_PASS: Final = LegalActions((Action(CALL), Action(PASS)))
_CLAIM_OR_CONTINUE: Final = LegalActions((Action(CLAIM), Action(CONTINUE)))
_TIGERS_OR_DECLINE: Final = LegalActions((Action(TIGERS), Action(DECLINE)))
_NOTHING: Final = LegalActions(())


class Play(NamedTuple):
    """One action of the current round: who did what."""

    seat: int
    action: Action


class Hand:
    """The mutable state of one hand, from the deal to the result.

    Build it with :meth:`deal`, :meth:`from_deck`, :meth:`from_seed` or
    :meth:`from_notation`; then ask :attr:`to_act` and :meth:`legal_actions`
    and :meth:`apply` actions until :attr:`result` is set. Every seat index is
    0-3; ``seat + 1`` is the next seat counterclockwise (GAME-5, D1). Every
    rule decision is asked of :attr:`rules` (:class:`~reference_engine.rules.Rules`).
    """

    __slots__ = (
        "profile", "rules", "tables", "dealer", "dreamer", "dreamer_card", "dealt", "hands",
        "phase", "to_act", "caller", "privileged", "played", "discarded", "elders",
        "tricks", "leader", "plays", "acted", "best_seat", "best_mask", "best_kind",
        "best_rank", "best_elder", "lead_mask", "lead_rank", "lead_elder",
        "last_winning_pattern", "result", "history", "_legal",
    )

    profile: Profile
    rules: Rules
    tables: PatternTables
    dealer: int
    dreamer: int
    dreamer_card: int
    dealt: tuple[int, int, int, int]
    hands: list[int]
    phase: Phase
    to_act: int | None
    caller: int | None
    privileged: int | None
    played: int
    discarded: int
    elders: int
    tricks: list[int]
    leader: int
    plays: list[Play]
    acted: int
    best_seat: int
    best_mask: int
    best_kind: Kind
    best_rank: int
    best_elder: bool
    lead_mask: int
    lead_rank: int
    lead_elder: bool
    last_winning_pattern: int
    result: HandResult | None
    history: list[tuple[int, Action]]
    _legal: LegalActions | None

    # ------------------------------------------------------------------ dealing

    @classmethod
    def deal(
        cls,
        dealer: int,
        hands: Sequence[int | Cards | str],
        profile: Profile = DEFAULT_PROFILE,
        *,
        rules: Rules = DEFAULT_RULES,
    ) -> Hand:
        """A hand from explicit holdings by seat (DEAL-2, DEAL-4).

        The Dreamer (``dealer + 2``) holds exactly 1 card, the others 12, and
        the four holdings together are the 37 cards.
        """
        _check_seat(dealer, "dealer")
        if len(hands) != 4:
            raise SetupError(f"hands must list 4 seats, got {len(hands)}", rule="DEAL-4")
        masks = []
        for seat, holding in enumerate(hands):
            try:
                masks.append(_to_mask(holding))
            except MalformedError as exc:
                raise SetupError(f"seat {seat}'s hand: {exc.message}", rule="CARDS-1", seat=seat) from None
        dreamer = (dealer + 2) % 4
        seen = 0
        for seat, mask in enumerate(masks):
            want = 1 if seat == dreamer else HAND_SIZE
            role = "the Dreamer (opposite the Dealer)" if seat == dreamer else "an active player"
            if mask.bit_count() != want:
                raise SetupError(
                    f"seat {seat} is {role} and must hold {want} card(s), "
                    f"not {mask.bit_count()}: {mask_text(mask)}",
                    rule="DEAL-4", seat=seat,
                )
            if seen & mask:
                raise SetupError(
                    f"seat {seat} holds {mask_text(seen & mask)}, already dealt to another seat",
                    rule="CARDS-1", seat=seat,
                )
            seen |= mask
        return cls._new(dealer, masks, rules.profile(profile), rules)

    @classmethod
    def from_deck(
        cls, dealer: int, deck: Sequence[int] | str, profile: Profile = DEFAULT_PROFILE, *,
        rules: Rules = DEFAULT_RULES,
    ) -> Hand:
        """A hand dealt from a deck order (DEAL-4, D2); ``deck[0]`` is dealt first."""
        _check_seat(dealer, "dealer")
        if isinstance(deck, str):
            try:
                order = [parse_card_index(word) for word in deck.split()]
            except MalformedError as exc:
                raise SetupError(f"deck: {exc.message}", rule="CARDS-1") from None
        else:
            order = list(deck)
        if len(order) != DECK_SIZE or len(set(order)) != DECK_SIZE or not all(
            0 <= i < DECK_SIZE for i in order
        ):
            missing = FULL_DECK & ~sum(1 << i for i in set(order) if 0 <= i < DECK_SIZE)
            raise SetupError(
                f"a deck order must hold each of the 37 cards once; got {len(order)} cards"
                + (f", missing {mask_text(missing)}" if missing else ", some twice"),
                rule="CARDS-1",
            )
        profile = rules.profile(profile)
        masks = [0, 0, 0, 0]
        for seat, index in zip(deal_sequence(dealer, profile), order, strict=True):
            masks[seat] |= 1 << index
        return cls._new(dealer, masks, profile, rules)

    @classmethod
    def from_seed(
        cls, dealer: int, seed: int, profile: Profile = DEFAULT_PROFILE, *, rules: Rules = DEFAULT_RULES
    ) -> Hand:
        """A hand dealt from the deck that ``seed`` shuffles (DEAL-5, D33)."""
        return cls.from_deck(dealer, seeded_deck(seed), profile, rules=rules)

    @classmethod
    def from_notation(cls, text: str, *, rules: Rules = DEFAULT_RULES) -> Hand:
        """The hand that :meth:`notation` wrote (see :mod:`reference_engine.notation`)."""
        from .notation import parse_notation

        return parse_notation(text, rules)

    @classmethod
    def _new(cls, dealer: int, masks: list[int], profile: Profile, rules: Rules) -> Hand:
        self = object.__new__(cls)
        self.profile = profile
        self.rules = rules
        self.tables = tables_for(profile)
        self.dealer = dealer
        self.dreamer = (dealer + 2) % 4
        self.dreamer_card = masks[self.dreamer].bit_length() - 1
        self.dealt = (masks[0], masks[1], masks[2], masks[3])
        self.hands = list(masks)
        self.hands[self.dreamer] = 0  # the Dreamer's card takes no part in play (DEAL-3)
        self.phase = Phase.CALLING
        self.to_act = dealer  # CALL-1: the Dealer speaks first
        self.caller = None
        self.privileged = None
        self.played = 0
        self.discarded = 0
        self.elders = rules.elders_given(0)  # ELD-1
        self.tricks = [0, 0, 0, 0]
        self.leader = dealer
        self.plays = []
        self.acted = 0
        self.best_seat = dealer
        self.best_mask = self.best_rank = 0
        self.best_kind = Kind.NONE
        self.best_elder = False
        self.lead_mask = self.lead_rank = 0
        self.lead_elder = False
        self.last_winning_pattern = 0
        self.result = None
        self.history = []
        self._legal = None
        return self

    def copy(self) -> Hand:
        """An independent copy (for search, perft and fuzzing)."""
        o = object.__new__(type(self))
        o.profile, o.rules, o.tables, o.dealer, o.dreamer, o.dreamer_card, o.dealt = (
            self.profile, self.rules, self.tables, self.dealer, self.dreamer, self.dreamer_card, self.dealt)
        o.phase, o.to_act, o.caller, o.privileged, o.played, o.discarded, o.elders = (
            self.phase, self.to_act, self.caller, self.privileged, self.played, self.discarded, self.elders)
        o.leader, o.acted, o.best_seat, o.best_mask, o.best_kind, o.best_rank, o.best_elder = (
            self.leader, self.acted, self.best_seat, self.best_mask, self.best_kind, self.best_rank, self.best_elder)
        o.lead_mask, o.lead_rank, o.lead_elder, o.last_winning_pattern, o.result, o._legal = (
            self.lead_mask, self.lead_rank, self.lead_elder, self.last_winning_pattern, self.result, self._legal)
        o.hands, o.tricks, o.plays, o.history = list(self.hands), list(self.tricks), list(self.plays), list(self.history)
        return o  # every slot (tests/engine/test_hand.py checks that none is forgotten)

    def notation(self) -> str:
        """The position as one line of text that :meth:`from_notation` reads back."""
        from .notation import write_notation

        return write_notation(self)

    def __repr__(self) -> str:
        return f"Hand.from_notation({self.notation()!r})"

    # ---------------------------------------------------------------- queries

    def next_seat(self, seat: int) -> int:
        """The next active seat counterclockwise, skipping the Dreamer (GAME-5, D1)."""
        return self.rules.next_seat(self, seat)

    @property
    def active_seats(self) -> tuple[int, int, int]:
        d = self.dealer
        return (d, (d + 1) % 4, (d + 3) % 4)

    def hand_of(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (the Dreamer: its one card)."""
        return Cards(1 << self.dreamer_card if seat == self.dreamer else self.hands[seat])

    def claim_count(self, seat: int) -> int:
        """Tricks won plus Elders in hand (CLAIM-1)."""
        return self.rules.claim_count(self, seat)

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now, in compact form."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> LegalActions:
        phase = self.phase
        if phase == Phase.PLAYING:
            seat = self.to_act
            assert seat is not None
            legal = LegalActions(self._lead_actions(seat)) if self.acted == 0 else self._follow_actions(seat)
            if self.rules.claims_any_turn(self, seat):
                legal = LegalActions((*legal.actions, Action(CLAIM)), legal.discard)
            return legal
        if phase == Phase.CALLING:
            return _CALL_OR_PASS
        if phase == Phase.CLAIMING:
            return _CLAIM_OR_CONTINUE
        if phase == Phase.TIGERS:
            return _TIGERS_OR_DECLINE
        return _NOTHING

    def _lead_actions(self, seat: int) -> tuple[Action, ...]:
        """PLAY-2: any Run or Set in hand, or a Single the lead rules allow."""
        hand = self.hands[seat]
        rules, tables = self.rules, self.tables
        actions = [_play(mask) for mask in rules.runs_in(tables, hand)]
        actions += [_play(mask) for mask in rules.sets_in(tables, hand)]
        return (*actions, *_singles(rules.leadable_singles(self, seat)))

    def target(self) -> tuple[int, int, bool]:
        """The pattern a follower must beat: (mask, rank, was an Elder) (D13)."""
        if self.profile.beat_target == "lead":
            return self.lead_mask, self.lead_rank, self.lead_elder
        return self.best_mask, self.best_rank, self.best_elder

    def _follow_pool(self, seat: int) -> int:
        """The cards a follower may beat or discard with (D8)."""
        hand = self.hands[seat]
        if self.best_kind == SINGLE and self.profile.follower_suit_rule == "followers-too":
            return top_suit_mask(hand)
        return hand

    def _follow_actions(self, seat: int) -> LegalActions:
        """PLAY-3, PLAY-4, D12: the plays that beat the target, or the discard option."""
        target, rank, target_elder = self.target()
        kind = self.best_kind
        size = target.bit_count()
        rules, tables = self.rules, self.tables
        pool = self._follow_pool(seat)
        actions: list[Action] = []
        if kind == SINGLE:
            if not rules.elder_single_unbeatable(target_elder):
                actions = list(_singles(pool & rules.single_beaters(tables, target.bit_length() - 1)))
        else:
            hand = self.hands[seat]
            candidates = rules.runs_in(tables, hand) if kind == RUN else rules.sets_in(tables, hand)
            for mask in candidates:
                if rules.follow_size_ok(mask.bit_count(), size):
                    ckind, crank = rules.classify(tables, mask)
                    if ckind == kind and rules.rank_beats(tables, kind, crank, rank):
                        actions.append(_play(mask))
        if not actions or self.profile.must_beat == "may-discard":
            return LegalActions(tuple(actions), DiscardOption(rules.discard_count(size), pool))
        return LegalActions(tuple(actions))

    # ---------------------------------------------------------------- actions

    def can_apply(self, seat: int, action: Action | str) -> bool:
        try:
            self.check(seat, action)
        except HakkaError:
            return False
        return True

    def check(self, seat: int, action: Action | str) -> Action:
        """Raise the error that applying ``action`` for ``seat`` would raise; else return it."""
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except MalformedError as exc:
                raise MalformedError(exc.message, rule=exc.rule, seat=seat, action=str(exc.action)) from None
        elif not isinstance(action, Action):
            raise MalformedError(f"{action!r} is not an action", seat=seat)
        if self.to_act != seat or action not in self.legal_actions():
            from .explain import explain

            raise explain(self, seat, action)
        return action

    def apply(self, seat: int, action: Action | str) -> None:
        """Apply ``action`` for ``seat``; raise (and change nothing) if it is not legal."""
        if type(action) is not Action or self.to_act != seat or action not in self.legal_actions():
            action = self.check(seat, action)
        self._legal = None
        self.history.append((seat, action))
        verb = action.verb
        if verb in (PLAY, DISCARD):
            self._play_or_discard(seat, action)
        elif verb == CALL:
            self._call(seat)
        elif verb == PASS:
            self._pass(seat)
        elif verb == CLAIM:
            self._end_with_claim(seat, self.claim_count(seat), "claim")
        elif verb == CONTINUE:
            self._after_claim_chance(seat)
        elif verb == TIGERS:
            self._end_with_claim(seat, self.rules.tigers_count(), "five-tigers")
        else:  # DECLINE
            self._start_playing()

    def _call(self, seat: int) -> None:
        self.caller = seat
        # CALL-4, D30: a caller other than the Dealer becomes the Privileged Player
        self.privileged = seat if self.rules.caller_is_privileged(self, seat) else None
        if self.rules.call_ends_calling(self):  # CALL-5: the first Call ends Calling
            self._end_calling()
        else:
            self._pass(seat)

    def _pass(self, seat: int) -> None:
        after = self.rules.next_speaker(self, seat)
        if after == self.dealer:  # every active seat has spoken
            self._end_calling()
        else:
            self.to_act = after  # CALL-3

    def _end_calling(self) -> None:
        """Calling is over: void with no caller (CALL-6); the Five Tigers win at once (TIG-1, D24); else Playing."""
        rules = self.rules
        holder = rules.tigers_holder(self) if self.caller is not None or not rules.tigers_need_a_call() else None
        if holder is None:
            if self.caller is None:
                self._finish(HandResult.void(rules.next_dealer(self), self.profile))  # CALL-6
            else:
                self._start_playing()
        elif self.profile.five_tigers == "automatic":
            self._end_with_claim(holder, rules.tigers_count(), "five-tigers")
        else:
            self.phase = Phase.TIGERS
            self.to_act = holder

    def _start_playing(self) -> None:
        self.phase = Phase.PLAYING
        first = self.dealer  # PLAY-1, D6
        if self.profile.first_leader == "privileged-player" and self.privileged is not None:
            first = self.privileged
        self._start_round(first)

    def _start_round(self, leader: int) -> None:
        self.leader = leader
        self.to_act = leader
        self.plays = []
        self.acted = 0

    def _play_or_discard(self, seat: int, action: Action) -> None:
        mask = action.mask
        rules = self.rules
        self.hands[seat] ^= mask
        self.plays.append(Play(seat, action))
        face_up = action.verb == PLAY
        if face_up:
            was_elder = bool(mask & self.elders)
            kind, rank = rules.classify(self.tables, mask)
            if self.acted == 0:
                self.lead_mask = self.best_mask = mask
                self.lead_rank = self.best_rank = rank
                self.lead_elder = self.best_elder = was_elder
                self.best_kind = kind
                self.best_seat = seat
            elif self._beats_best(mask, rank):
                self.best_mask, self.best_rank, self.best_elder = mask, rank, was_elder
                self.best_seat = seat
            self.played |= mask
        else:
            self.discarded |= mask  # PLAY-5: face down
        self.elders = rules.elders_after(self, face_up)  # ELD-2, D19, D35
        self.acted += 1
        if self.acted < 3:
            self.to_act = rules.next_seat(self, seat)
            return
        winner = self.best_seat  # PLAY-6
        self.tricks[winner] += rules.tricks_won(self.best_mask)
        self.last_winning_pattern = self.best_mask
        self._claim_chance(winner)

    def _beats_best(self, mask: int, rank: int) -> bool:
        """Under D13 ``lead`` a follower beat the lead; is it also better than the best?"""
        rules, tables = self.rules, self.tables
        kind = self.best_kind
        if kind != SINGLE:
            return rules.rank_beats(tables, kind, rank, self.best_rank)
        if rules.elder_single_unbeatable(self.best_elder):
            return False
        return bool(rules.single_beaters(tables, self.best_mask.bit_length() - 1) & mask)

    def _claim_chance(self, winner: int) -> None:
        if self.rules.may_claim(self, winner):  # CLAIM-1
            if self.profile.claim_mode == "automatic":  # D21
                self._end_with_claim(winner, self.claim_count(winner), "claim")
                return
            self.phase = Phase.CLAIMING
            self.to_act = winner
            return
        self._after_claim_chance(winner)

    def _after_claim_chance(self, winner: int) -> None:
        if self.hands[winner]:
            self.phase = Phase.PLAYING
            self._start_round(self.rules.next_leader(self, winner))  # PLAY-7
            return
        self._finish(HandResult.played_out(self.rules.next_dealer(self), self.profile))  # PLAY-8, D23

    def _claimed_count(self, winner: int) -> int:
        """The count a claim scores (CLAIM-1, D22)."""
        if self.profile.claim_count == "tricks-plus-elders":
            return self.claim_count(winner)
        return self.tricks[winner]

    def _matched_hand(self, winner: int, end: str) -> int:
        """The cards matched against the Dreamer's card (SCORE-4, D26)."""
        if end != "claim":
            return self.dealt[winner]
        option = self.profile.dreamer_matches
        if option == "hand-at-claim":
            return self.hands[winner]
        if option == "winning-pattern":
            return self.last_winning_pattern
        return self.dealt[winner]

    def _end_with_claim(self, winner: int, count: int, end: str) -> None:
        if end == "claim":
            count = self._claimed_count(winner)
        win = Win(end, winner, count, self.dealer, self.privileged, self.dreamer_card,
                  self._matched_hand(winner, end), self.rules.next_dealer(self))
        self._finish(self.rules.score(win, self.profile))

    def _finish(self, result: HandResult) -> None:
        self.result = result
        self.phase = Phase.ENDED
        self.to_act = None
        self._legal = None

    # ------------------------------------------------------------ observation

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now (OBS-1, D32).

        Two states that differ only in cards hidden from ``seat`` give equal
        observations.
        """
        from .observation import observe

        _check_seat(seat, "seat")
        return observe(self, seat)


def _check_seat(seat: object, what: str) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
        raise SetupError(f"{what} must be a seat 0-3, not {seat!r}", rule="GAME-5")


def _to_mask(holding: int | Cards | str) -> int:
    if isinstance(holding, Cards):
        return holding.mask
    if isinstance(holding, str):
        return parse_mask(holding)
    if not isinstance(holding, int) or isinstance(holding, bool) or not 0 <= holding <= FULL_DECK:
        raise MalformedError(f"{holding!r} is not a set of cards of the 37-card deck", rule="CARDS-1")
    return holding


def deal_sequence(dealer: int, profile: Profile = DEFAULT_PROFILE) -> list[int]:
    """The seat that receives each card of a deck order, in order (DEAL-4, D2)."""
    dreamer = (dealer + 2) % 4
    start = dealer if profile.deal_order == "dealer-first" else (dealer + 1) % 4
    first_pass = [(start + i) % 4 for i in range(4)]
    actives = [s for s in first_pass if s != dreamer]
    return first_pass + actives * (HAND_SIZE - 1)
