"""One hand of Hakka Cards: Dealing, Calling, Playing and Scoring (GAME-2).

>>> hand = Hand.from_seed(dealer=0, seed=1)
>>> hand.phase, hand.to_act, [str(a) for a in hand.legal_actions()]
('calling', 0, ['call', 'pass'])
>>> hand.apply(0, "call")
>>> hand.phase, hand.to_act
('playing', 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final, NamedTuple

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
    NAMES,
    NUMBER_MASKS,
    SUIT_MASKS,
    WAN_SIN,
    WAN_SIN_BIT,
    Cards,
    indices,
    mask_text,
    parse_card_index,
    parse_mask,
    seeded_deck,
)
from .errors import HakkaError, IllegalActionError, MalformedError, SetupError
from .patterns import (
    INITIAL_ELDERS,
    NEVER_BEAT_SINGLES,
    NONE,
    RUN,
    SET,
    SINGLE,
    PatternTables,
    tables_for,
)
from .profile import DEFAULT_PROFILE, Profile
from .scoring import HandResult, score_claim

CALLING: Final = "calling"
TIGERS_PHASE: Final = "tigers"
PLAYING: Final = "playing"
CLAIMING: Final = "claim"
ENDED: Final = "ended"

FIVE_TIGERS: Final = NUMBER_MASKS[1] | WAN_SIN_BIT
"""TIG-1: Sup1, Gon1, Zok1, Sin1 and Wan Sin."""
HAND_SIZE: Final = 12


def _elder_slices() -> tuple[int, ...]:
    """``table[gone]``: the Elders of one suit given which of its cards are gone (ELD-2)."""
    table = []
    for gone in range(512):
        elders = 0
        for n in range(9, 0, -1):
            elders |= 1 << (n - 1)
            if not gone >> (n - 1) & 1:
                break
        table.append(elders)
    return tuple(table)


ELDER_SLICES: Final = _elder_slices()
_SPECIAL_ELDERS: Final = NEVER_BEAT_SINGLES  # ELD-1: Sup1, Sin1 and Wan Sin stay Elders


def elders_given(gone: int) -> int:
    """Every Elder when the cards of ``gone`` have left play (ELD-1, ELD-2)."""
    return (
        _SPECIAL_ELDERS
        | ELDER_SLICES[gone & 0x1FF]
        | ELDER_SLICES[(gone >> 9) & 0x1FF] << 9
        | ELDER_SLICES[(gone >> 18) & 0x1FF] << 18
        | ELDER_SLICES[(gone >> 27) & 0x1FF] << 27
    )


assert elders_given(0) == INITIAL_ELDERS

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


def top_suit_mask(hand: int) -> int:
    """The cards of the highest-ranking suit in ``hand`` (PAT-5).

    Wan Sin counts as a pseudo-suit below Sin, so it is the top "suit" only of
    a hand that holds nothing else; D9 ``exempt`` is applied by the callers.
    """
    for suit_mask in SUIT_MASKS:
        if hand & suit_mask:
            return hand & suit_mask
    return hand & WAN_SIN_BIT


class Play(NamedTuple):
    """One action of the current round: who did what."""

    seat: int
    action: Action


class Hand:
    """The mutable state of one hand, from the deal to the result.

    Build it with :meth:`deal`, :meth:`from_deck` or :meth:`from_seed`; then
    ask :attr:`to_act` and :meth:`legal_actions` and :meth:`apply` actions
    until :attr:`result` is set. Every seat index is 0-3; ``seat + 1`` is the
    next seat counterclockwise (GAME-5, D1).
    """

    __slots__ = (
        "profile", "tables", "dealer", "dreamer", "dreamer_card", "dealt", "hands",
        "phase", "to_act", "caller", "privileged", "played", "discarded", "elders",
        "tricks", "leader", "plays", "acted", "best_seat", "best_mask", "best_kind",
        "best_rank", "best_elder", "lead_mask", "lead_rank", "lead_elder",
        "last_winning_pattern", "result", "history", "_legal",
    )

    profile: Profile
    tables: PatternTables
    dealer: int
    dreamer: int
    dreamer_card: int
    dealt: tuple[int, int, int, int]
    hands: list[int]
    phase: str
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
    best_kind: int
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
        return cls._new(dealer, masks, profile)

    @classmethod
    def from_deck(
        cls, dealer: int, deck: Sequence[int] | str, profile: Profile = DEFAULT_PROFILE
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
        masks = [0, 0, 0, 0]
        for seat, index in zip(deal_sequence(dealer, profile), order, strict=True):
            masks[seat] |= 1 << index
        return cls._new(dealer, masks, profile)

    @classmethod
    def from_seed(cls, dealer: int, seed: int, profile: Profile = DEFAULT_PROFILE) -> Hand:
        """A hand dealt from the deck that ``seed`` shuffles (DEAL-5, D33)."""
        return cls.from_deck(dealer, seeded_deck(seed), profile)

    tables_class: ClassVar[type[PatternTables]] = PatternTables
    """The pattern tables this class plays with; a variant engine may supply its own."""

    @classmethod
    def pattern_tables(cls, profile: Profile) -> PatternTables:
        return tables_for(profile, cls.tables_class)

    @classmethod
    def _new(cls, dealer: int, masks: list[int], profile: Profile) -> Hand:
        self = object.__new__(cls)
        self.profile = profile
        self.tables = self.pattern_tables(profile)
        self.dealer = dealer
        self.dreamer = (dealer + 2) % 4
        self.dreamer_card = masks[self.dreamer].bit_length() - 1
        self.dealt = (masks[0], masks[1], masks[2], masks[3])
        self.hands = list(masks)
        self.hands[self.dreamer] = 0  # the Dreamer's card takes no part in play (DEAL-3)
        self.phase = CALLING
        self.to_act = dealer  # CALL-1: the Dealer speaks first
        self.caller = None
        self.privileged = None
        self.played = 0
        self.discarded = 0
        self.elders = self._elders_given(0)
        self.tricks = [0, 0, 0, 0]
        self.leader = dealer
        self.plays = []
        self.acted = 0
        self.best_seat = dealer
        self.best_mask = self.best_kind = self.best_rank = 0
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
        other = object.__new__(type(self))
        for name in Hand.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.tricks = list(self.tricks)
        other.plays = list(self.plays)
        other.history = list(self.history)
        return other

    # ---------------------------------------------------------------- queries

    def next_seat(self, seat: int) -> int:
        """The next active seat counterclockwise, skipping the Dreamer (GAME-5, D1)."""
        seat = (seat + 1) % 4
        return (seat + 1) % 4 if seat == self.dreamer else seat

    @property
    def active_seats(self) -> tuple[int, int, int]:
        d = self.dealer
        return (d, (d + 1) % 4, (d + 3) % 4)

    def hand_of(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (the Dreamer: its one card)."""
        return Cards(1 << self.dreamer_card if seat == self.dreamer else self.hands[seat])

    def elder_cards(self) -> Cards:
        return Cards(self.elders)

    def claim_count(self, seat: int) -> int:
        """Tricks won plus Elders in hand (CLAIM-1)."""
        return self.tricks[seat] + (self.hands[seat] & self.elders).bit_count()

    @property
    def round_plays(self) -> tuple[Play, ...]:
        return tuple(self.plays)

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now, in compact form."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> LegalActions:
        phase = self.phase
        if phase == PLAYING:
            seat = self.to_act
            assert seat is not None
            if self.acted == 0:
                return LegalActions(self._lead_actions(seat))
            return self._follow_actions(seat)
        if phase == CALLING:
            return _CALL_OR_PASS
        if phase == CLAIMING:
            return _CLAIM_OR_CONTINUE
        if phase == TIGERS_PHASE:
            return _TIGERS_OR_DECLINE
        return _NOTHING

    def _lead_actions(self, seat: int) -> tuple[Action, ...]:
        """PLAY-2: any Run or Set in hand, or a Single the lead rules allow."""
        hand = self.hands[seat]
        tables = self.tables
        actions = [_play(mask) for mask in tables.runs_in_hand(hand)]
        actions += [_play(mask) for mask in tables.sets_in_hand(hand)]
        return (*actions, *_singles(self.leadable_singles(seat)))

    def leadable_singles(self, seat: int) -> int:
        """The cards ``seat`` may lead as a Single (PAT-5, ELD-4, ELD-5, D9, D10, D11)."""
        hand = self.hands[seat]
        elders = self.elders
        profile = self.profile
        top = top_suit_mask(hand)
        exempt = profile.wan_sin_suit == "exempt"
        wan_sin = hand & WAN_SIN_BIT
        if exempt and top == wan_sin:  # D9 exempt: Wan Sin is no suit
            top = 0
        non_elders = top & ~elders
        if non_elders:
            allowed = non_elders
            may_lead_elder = False
        elif not top:  # only Wan Sin is left
            allowed = wan_sin
            may_lead_elder = True
        else:  # the top suit holds only Elders (D10)
            allowed = top if profile.elder_only_top_suit == "top-suit-elder" else hand & elders
            may_lead_elder = True
        if seat == self.privileged:  # ELD-5, D11
            if profile.privilege == "any-elder":
                allowed |= hand & elders
                may_lead_elder = True
            else:  # only the Elders of the top suit, so Wan Sin stays bound (D9)
                allowed |= top & elders
        if exempt and may_lead_elder:
            allowed |= wan_sin
        return allowed

    def _target(self) -> tuple[int, int, bool]:
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

    def _follow_size_ok(self, size: int, target_size: int) -> bool:
        """PLAY-3: a follower plays as many cards as the pattern led."""
        return size == target_size

    def _may_discard(self, can_beat: bool) -> bool:
        """PLAY-4, D12: discarding is for a follower who cannot beat."""
        return not can_beat or self.profile.must_beat == "may-discard"

    def _discard_count(self, target_size: int) -> int:
        """PLAY-4: a discard holds as many cards as the pattern led."""
        return target_size

    def _follow_actions(self, seat: int) -> LegalActions:
        """PLAY-3, PLAY-4: the plays that beat the target, or the discard option."""
        target, rank, target_elder = self._target()
        kind = self.best_kind
        size = target.bit_count()
        tables = self.tables
        pool = self._follow_pool(seat)
        actions: list[Action] = []
        if kind == SINGLE:
            if not tables.single_unbeatable(target, target_elder):
                actions = list(_singles(pool & tables.single_beaters[target.bit_length() - 1]))
        else:
            hand = self.hands[seat]
            candidates = tables.runs_in_hand(hand) if kind == RUN else tables.sets_in_hand(hand)
            for mask in candidates:
                if self._follow_size_ok(mask.bit_count(), size):
                    ckind, crank = tables.classify(mask)
                    if ckind == kind and tables.rank_beats(kind, crank, rank):
                        actions.append(_play(mask))
        if self._may_discard(bool(actions)):
            return LegalActions(tuple(actions), DiscardOption(self._discard_count(size), pool))
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
        problem = action.problem()
        if problem is not None:
            raise MalformedError(problem, seat=seat, action=f"{action.verb} <mask {action.mask!r}>")
        if self.to_act != seat or action not in self.legal_actions():
            raise self._explain(seat, action)
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
            self._end_with_claim(seat, 8, "five-tigers")
        else:  # DECLINE
            self._start_playing()

    def _call(self, seat: int) -> None:
        self.caller = seat  # CALL-5: the first Call ends Calling
        if seat != self.dealer:  # CALL-4, D30
            self.privileged = seat
        self._end_calling()

    def _tigers_holder(self) -> int | None:
        """The active seat holding the Five Tigers, if any (TIG-1)."""
        return next((s for s in self.active_seats if self.hands[s] & FIVE_TIGERS == FIVE_TIGERS), None)

    def _end_calling(self) -> None:
        """Calling is over with a caller: the Five Tigers win at once (TIG-1, D24), else Playing."""
        holder = self._tigers_holder()
        if holder is None:
            self._start_playing()
        elif self.profile.five_tigers == "automatic":
            self._end_with_claim(holder, 8, "five-tigers")
        else:
            self.phase = TIGERS_PHASE
            self.to_act = holder

    def _pass(self, seat: int) -> None:
        after = self.next_seat(seat)
        if after == self.dealer:  # CALL-6: nobody called
            self._finish(HandResult.void(self._next_dealer(), self.profile))
        else:
            self.to_act = after  # CALL-3

    def _next_dealer(self) -> int:
        """CALL-2, CALL-3, D4, D5."""
        if self.caller == self.dealer:
            return self.dealer
        if self.caller is None and self.profile.void_redeal == "same-dealer":
            return self.dealer
        if self.caller is not None and self.profile.next_dealer == "caller":
            return self.caller
        return (self.dealer + 1) % 4

    def _start_playing(self) -> None:
        self.phase = PLAYING
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
        self.hands[seat] ^= mask
        self.plays.append(Play(seat, action))
        face_up = action.verb == PLAY
        if face_up:
            was_elder = bool(mask & self.elders)
            kind, rank = self.tables.classify(mask)
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
        self._update_elders(face_up)
        self.acted += 1
        if self.acted < 3:
            self.to_act = self.next_seat(seat)
            return
        winner = self.best_seat  # PLAY-6
        self.tricks[winner] += self.best_mask.bit_count()
        self.last_winning_pattern = self.best_mask
        self._claim_chance(winner)

    def _elders_given(self, gone: int) -> int:
        """Every Elder when the cards of ``gone`` have left play (ELD-1, ELD-2)."""
        return elders_given(gone)

    def _update_elders(self, face_up: bool) -> None:
        """ELD-2, D19, D35: recompute the Elders at once after a play (or a discard)."""
        if face_up or self.profile.elder_promotion == "face-up-and-discards":
            self.elders = self._elders_given(self._gone())

    def _gone(self) -> int:
        """The cards that count as gone for promotion (D19)."""
        if self.profile.elder_promotion == "face-up-and-discards":
            return self.played | self.discarded
        return self.played

    def _beats_best(self, mask: int, rank: int) -> bool:
        """Under D13 ``lead`` a follower beat the lead; is it also better than the best?"""
        tables = self.tables
        kind = self.best_kind
        if kind != SINGLE:
            return tables.rank_beats(kind, rank, self.best_rank)
        if tables.single_unbeatable(self.best_mask, self.best_elder):
            return False
        return bool(tables.single_beaters[self.best_mask.bit_length() - 1] & mask)

    def _claim_chance(self, winner: int) -> None:
        if self.claim_count(winner) >= 6:  # CLAIM-1
            if self.profile.claim_mode == "automatic":  # D21
                self._end_with_claim(winner, self.claim_count(winner), "claim")
                return
            self.phase = CLAIMING
            self.to_act = winner
            return
        self._after_claim_chance(winner)

    def _after_claim_chance(self, winner: int) -> None:
        if self.hands[winner]:
            self.phase = PLAYING
            self._start_round(winner)  # PLAY-7
            return
        self._finish(HandResult.played_out(self._next_dealer(), self.profile))  # PLAY-8, D23

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

    def _score(self, **facts: Any) -> HandResult:
        """Score a won hand (SCORE-*); see :func:`~reference_engine.scoring.score_claim`."""
        return score_claim(**facts)

    def _end_with_claim(self, winner: int, count: int, end: str) -> None:
        if end == "claim":
            count = self._claimed_count(winner)
        self._finish(
            self._score(
                end=end,
                winner=winner,
                tricks=count,
                dealer=self.dealer,
                privileged=self.privileged,
                dreamer_card=self.dreamer_card,
                winning_hand=self._matched_hand(winner, end),
                next_dealer=self._next_dealer(),
                profile=self.profile,
            )
        )

    def _finish(self, result: HandResult) -> None:
        self.result = result
        self.phase = ENDED
        self.to_act = None
        self._legal = None

    # ---------------------------------------------------------------- errors

    def _explain(self, seat: int, action: Action) -> IllegalActionError:
        """Why ``action`` is not legal for ``seat`` now, naming the rule."""
        text = str(action)

        def illegal(message: str, rule: str) -> IllegalActionError:
            return IllegalActionError(message, rule=rule, seat=seat, action=text)

        if not 0 <= seat < 4:
            return illegal("there is no such seat (seats are 0-3)", "GAME-5")
        if self.phase == ENDED:
            return illegal("the hand is over", "CLAIM-2" if self.result and self.result.winner is not None else "PLAY-8")
        if seat == self.dreamer:
            return illegal("the Dreamer takes no part in Calling or Playing", "DEAL-3")
        if seat != self.to_act:
            rule = "CALL-1" if self.phase == CALLING else "PLAY-3"
            return illegal(f"it is seat {self.to_act}'s turn, not seat {seat}'s", rule)
        verb = action.verb
        if self.phase == CALLING:
            return illegal(f"during Calling the only actions are call and pass, not {verb}", "CALL-1")
        if verb in (CALL, PASS):
            return illegal("Calling is over: the first Call ended it", "CALL-5")
        if self.phase == CLAIMING:
            return illegal(f"seat {seat} won the round and may claim: the only actions are claim and continue", "CLAIM-1")
        if self.phase == TIGERS_PHASE:
            return illegal("the Five Tigers holder must first answer tigers or decline", "TIG-1")
        if verb == CLAIM:
            return illegal(
                "a claim is allowed only right after winning a round with tricks plus Elders in hand of 6 or more",
                "CLAIM-1",
            )
        if verb in (CONTINUE, TIGERS, DECLINE):
            return illegal(f"{verb} is not an action of the Playing phase now", "CLAIM-1" if verb == CONTINUE else "TIG-1")
        hand = self.hands[seat]
        if action.mask & ~hand:
            return illegal(f"seat {seat} does not hold {mask_text(action.mask & ~hand)}", "PLAY-2")
        kind, _rank = self.tables.classify(action.mask)
        if self.acted == 0:  # leading
            if verb == DISCARD:
                return illegal("the leader must play a Run, a Set or a Single, not discard", "PLAY-2")
            if kind == NONE:
                return illegal(_not_a_pattern(action.mask, self.profile), "PAT-7")
            # a Single that the lead rules forbid
            index = action.mask.bit_length() - 1
            top = top_suit_mask(hand)
            if action.mask & top:  # in the top suit, so an Elder while non-Elders remain
                return illegal(
                    f"{NAMES[index]} is an Elder: a Single must be a non-Elder of the top suit "
                    f"({mask_text(top & ~self.elders)}) before an Elder, unless you are the Privileged Player",
                    "ELD-4",
                )
            if action.mask & self.elders and seat == self.privileged:
                return illegal(f"the Privileged Player's privilege (D11) does not cover {NAMES[index]}", "ELD-5")
            wan_sin = " (Wan Sin counts as a suit below Sin, D9)" if index == WAN_SIN else ""
            return illegal(
                f"a Single must come from the highest-ranking suit in hand ({mask_text(top)}){wan_sin}", "PAT-5"
            )
        target, _r, _e = self._target()
        size = target.bit_count()
        legal = self.legal_actions()
        if verb == DISCARD:
            if action.mask.bit_count() != size:
                return illegal(f"a discard must be exactly {size} card(s), as many as the pattern led", "PLAY-4")
            if legal.discard is None:
                return illegal("a player who can beat the pattern on the table may not discard", "PLAY-4")
            return illegal(
                f"under D8 followers-too a discard must come from the top suit ({mask_text(legal.discard.allowed)})",
                "D8",
            )
        if kind == NONE:
            return illegal(_not_a_pattern(action.mask, self.profile), "PAT-7")
        if action.mask.bit_count() != size or kind != self.best_kind:
            return illegal(
                f"a follower must play the same pattern with the same number of cards as the lead ({mask_text(self.lead_mask)})",
                "PLAY-3",
            )
        return illegal(f"{mask_text(action.mask)} does not beat {mask_text(target)}", _BEAT_RULE[kind])

    # ------------------------------------------------------------ observation

    def observation(self, seat: int) -> dict[str, object]:
        """What ``seat`` may see now (OBS-1, D32), as a JSON-shaped dict.

        Two states that differ only in cards hidden from ``seat`` give equal
        observations.
        """
        _check_seat(seat, "seat")
        history = []
        for who, action in self.history:
            if action.verb == DISCARD and who != seat:
                history.append({"seat": who, "action": "discard", "count": action.mask.bit_count()})
            else:
                history.append({"seat": who, "action": str(action)})
        show_dreamer = seat == self.dreamer or (self.result is not None and self.result.winner is not None)
        return {
            "seat": seat,
            "phase": self.phase,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "dreamer": self.dreamer,
            "privileged": self.privileged,
            "hand": mask_text(self.hand_of(seat).mask),
            "hand_sizes": [self.hands[s].bit_count() if s != self.dreamer else 1 for s in range(4)],
            "dreamer_card": NAMES[self.dreamer_card] if show_dreamer else None,
            "history": history,
            "tricks": list(self.tricks),
            "elders": mask_text(self.elders),
            "legal": None if seat != self.to_act else legal_to_json(self.legal_actions()),
            "result": None if self.result is None else self.result.to_json(),
        }


_SET_RANKS: Final = {
    "below-nines": (0, 9, 2, 3, 4, 5, 6, 7, 8, 10),
    "lowest": (0, 0, 2, 3, 4, 5, 6, 7, 8, 10),
}
_BEAT_RULE: Final = {RUN: "PAT-2", SET: "PAT-4", SINGLE: "PAT-6"}


def _not_a_pattern(mask: int, profile: Profile) -> str:
    cards = mask_text(mask)
    if mask & WAN_SIN_BIT and mask.bit_count() >= 3 and mask & ~WAN_SIN_BIT & NUMBER_MASKS[1] != mask & ~WAN_SIN_BIT:
        return f"{cards} is not a pattern: Wan Sin has no suit and is never part of a Run (D18)"
    if mask.bit_count() == 2:
        return f"{cards} is not a pattern: Runs and Sets need at least 3 cards"
    return f"{cards} is neither a Run (same suit, consecutive), a Set (same number) nor a Single"


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


def legal_to_json(legal: LegalActions) -> dict[str, object]:
    """The wire form of legal actions (spec/PROTOCOL.md)."""
    return {
        "actions": [str(a) for a in legal.sorted()],
        "discard": None
        if legal.discard is None
        else {"count": legal.discard.count, "from": mask_text(legal.discard.allowed)},
    }

