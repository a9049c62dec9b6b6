"""One hand of Hakka Cards: Dealing, Calling, Playing and Scoring (GAME-2).

>>> hand = Hand.from_seed(dealer=0, seed=1)
>>> hand.phase, hand.to_act, [str(a) for a in hand.legal_actions()]
(<Phase.CALLING: 'calling'>, 0, ['call', 'pass'])
>>> hand.apply(0, "call")  # a move returns the events it caused (reference_engine.events)
(Event.parse('0 call'),)
>>> hand.phase == "playing", hand.to_act
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from ._mypyc import blank, mypyc_attr
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
    play_action,
)
from .cards import Cards, indices, seeded_deck
from .dealing import HAND_SIZE, check_seat, deal_sequence, dealt_from, holdings
from .errors import HakkaError, MalformedError
from .events import (
    CALLED,
    CALLED_PRIVILEGED,
    CLAIM_DECLINED,
    CLAIM_OFFERED,
    CLAIMED,
    CLAIMED_AUTOMATICALLY,
    PASSED,
    PLAYED_EVENTS,
    TIGERS_DECLINED,
    TIGERS_OFFERED,
    TIGERS_SHOWN,
    TIGERS_SHOWN_AUTOMATICALLY,
    Discarded,
    Event,
    HandEnded,
    Played,
    SeatEvent,
    discarded,
    elders_promoted,
    played,
    round_won,
)
from .patterns import RUN, SINGLE, PatternTables, tables_for
from .profile import DEFAULT_PROFILE, Profile
from .rounds import Round
from .rules import DEFAULT_RULES, FIVE_TIGERS, Rules, elders_given, top_suit_mask
from .scoring import HandResult, Win

if TYPE_CHECKING:
    from .observation import Observation, SeatViews

# The one circle of the engine besides the events' (issue 28 §1): a Hand is the object a caller holds,
# so it answers notation(), from_notation(), observation() and the reason an action is refused, but
# what those are lives in notation.py, observation.py and explain.py, which read a Hand. Hand imports
# them inside those methods, when asked; rules.py names Hand for its types only (TYPE_CHECKING).

__all__ = ["FIVE_TIGERS", "HAND_SIZE", "Hand", "Phase", "Round", "deal_sequence", "elders_given", "top_suit_mask"]


class Phase(StrEnum):
    """The phase of a hand (GAME-2); the value is its wire name (spec/PROTOCOL.md)."""

    CALLING = "calling"
    TIGERS = "tigers"
    PLAYING = "playing"
    CLAIMING = "claim"
    ENDED = "ended"


_SINGLES_CACHE: dict[int, tuple[Action, ...]] = {}


def _singles(mask: int) -> tuple[Action, ...]:
    """One ``play`` action per card of ``mask``, in card order (cached: Singles repeat)."""
    actions = _SINGLES_CACHE.get(mask)
    if actions is None:
        actions = _SINGLES_CACHE[mask] = tuple(play_action(1 << index) for index in indices(mask))
    return actions


_CALL_OR_PASS: Final = LegalActions((Action(CALL), Action(PASS)))
_CLAIM_OR_CONTINUE: Final = LegalActions((Action(CLAIM), Action(CONTINUE)))
_TIGERS_OR_DECLINE: Final = LegalActions((Action(TIGERS), Action(DECLINE)))
_NOTHING: Final = LegalActions(())


HAND_FIELDS: Final = (
    "profile", "rules", "tables", "dealer", "dreamer", "dreamer_card", "dealt", "hands",
    "phase", "to_act", "caller", "privileged", "played", "discarded", "elders",
    "tricks", "round", "last_winning_pattern", "result", "events", "_legal", "_views",
)
"""Every field of a :class:`Hand` (its ``__slots__``, which a compiled class does not show)."""


@mypyc_attr(serializable=True)  # compiled: pickle and copy, and cls.__new__(cls) without __init__ (setup.py)
class Hand:
    """The mutable state of one hand, from the deal to the result.

    Build it with :meth:`deal`, :meth:`from_deck`, :meth:`from_seed` or
    :meth:`from_notation`; then ask :attr:`to_act` and :meth:`legal_actions`
    and :meth:`apply` actions until :attr:`result` is set; each move returns
    the events it caused, and :attr:`events` logs them all. Every seat index is
    0-3; ``seat + 1`` is the next seat counterclockwise (GAME-5, D1). Every
    rule decision is asked of :attr:`rules` (:class:`~reference_engine.rules.Rules`).
    """

    __slots__ = HAND_FIELDS

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
    round: Round
    """The round in play (a finished round until the next one starts)."""
    last_winning_pattern: int
    """The pattern that won the last finished round (SCORE-4, D26 winning-pattern)."""
    result: HandResult | None
    events: list[Event]
    """Every event of the hand so far, in order: the hand's log (:mod:`reference_engine.events`)."""
    _legal: LegalActions | None
    _views: SeatViews | None
    """The seats' views of :attr:`events`, kept for :meth:`observation` (``observation.SeatViews``)."""

    # ------------------------------------------------------------------ dealing

    @classmethod
    def deal(
        cls,
        dealer: object,
        hands: Sequence[int | Cards | str],
        profile: Profile = DEFAULT_PROFILE,
        *,
        rules: Rules = DEFAULT_RULES,
    ) -> Hand:
        """A hand from explicit holdings by seat (DEAL-2, DEAL-4).

        The Dreamer (``dealer + 2``) holds exactly 1 card, the others 12, and
        the four holdings together are the 37 cards.
        """
        masks = holdings(dealer, hands)
        return cls._new(check_seat(dealer, "dealer"), masks, rules.profile(profile), rules)

    @classmethod
    def from_deck(
        cls, dealer: object, deck: Sequence[int] | str, profile: Profile = DEFAULT_PROFILE, *,
        rules: Rules = DEFAULT_RULES,
    ) -> Hand:
        """A hand dealt from a deck order (DEAL-4, D2); ``deck[0]`` is dealt first."""
        profile = rules.profile(profile)
        masks = dealt_from(dealer, deck, profile)
        return cls._new(check_seat(dealer, "dealer"), masks, profile, rules)

    @classmethod
    def from_seed(
        cls, dealer: object, seed: object, profile: Profile = DEFAULT_PROFILE, *, rules: Rules = DEFAULT_RULES
    ) -> Hand:
        """A hand dealt from the deck that ``seed`` shuffles (DEAL-5, D33)."""
        return cls.from_deck(dealer, seeded_deck(seed), profile, rules=rules)

    @classmethod
    def from_notation(cls, text: object, *, rules: Rules = DEFAULT_RULES) -> Hand:
        """The hand that :meth:`notation` wrote (see :mod:`reference_engine.notation`)."""
        from .notation import parse_notation

        if not isinstance(text, str):  # ``object``: see the seats of apply() below
            raise MalformedError(f"a hand notation is text (what Hand.notation() writes), not {text!r}")
        return parse_notation(text, rules)

    @classmethod
    def _new(cls, dealer: int, masks: list[int], profile: Profile, rules: Rules) -> Hand:
        self = blank(cls)  # no __init__: the constructors above build it field by field
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
        self.round = Round(dealer)
        self.last_winning_pattern = 0
        self.result = None
        self.events = []
        self._legal = None
        self._views = None
        return self

    def copy(self) -> Hand:
        """An independent copy (for search, perft and fuzzing)."""
        o = blank(type(self))
        self.copy_into(o)
        return o

    def copy_into(self, o: Hand) -> None:
        """Make ``o`` this hand: every slot, the mutable ones copied (tests/engine/test_hand.py checks that none
        is forgotten). :meth:`copy` fills a blank hand so; ``Game.apply`` puts a hand back as it was so."""
        o.profile, o.rules, o.tables, o.dealer, o.dreamer, o.dreamer_card, o.dealt = (
            self.profile, self.rules, self.tables, self.dealer, self.dreamer, self.dreamer_card, self.dealt)
        o.phase, o.to_act, o.caller, o.privileged, o.played, o.discarded, o.elders = (
            self.phase, self.to_act, self.caller, self.privileged, self.played, self.discarded, self.elders)
        o.last_winning_pattern, o.result, o._legal = self.last_winning_pattern, self.result, self._legal
        o.hands, o.tricks, o.round, o.events = list(self.hands), list(self.tricks), self.round.copy(), list(self.events)
        o._views = None  # views of another log: the copy builds its own when observed

    def notation(self) -> str:
        """The position as one line of text that :meth:`from_notation` reads back."""
        from .notation import write_notation

        return write_notation(self)

    def __repr__(self) -> str:
        return f"Hand.from_notation({self.notation()!r})"

    # ---------------------------------------------------------------- queries

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every action taken so far, as ``(seat, action)``: the action events of :attr:`events`."""
        return [(e.seat, a) for e in self.events if isinstance(e, SeatEvent) and (a := e.action) is not None]

    @property
    def leader(self) -> int:
        """Who led (or leads) the round in play."""
        return self.round.leader

    @property
    def plays(self) -> list[Played | Discarded]:
        """The plays and discards of the round in play, in order (full truth)."""
        return self.round.plays

    @property
    def acted(self) -> int:
        """How many seats have played or discarded in the round in play."""
        return len(self.round.plays)

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
            legal = LegalActions(self._lead_actions(seat)) if not self.round.plays else self._follow_actions(seat)
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
        patterns = rules.runs_in(tables, hand) + rules.sets_in(tables, hand)
        if not patterns:
            return _singles(rules.leadable_singles(self, seat))
        return (*[play_action(mask) for mask in patterns], *_singles(rules.leadable_singles(self, seat)))

    def target(self) -> tuple[int, int, bool]:
        """The pattern a follower must beat: (mask, rank, was an Elder) (D13, :meth:`Rules.beat_target`)."""
        return self.rules.beat_target(self)

    def _follow_actions(self, seat: int) -> LegalActions:
        """PLAY-3, PLAY-4, D8, D12, D13: the plays that beat the target, or the discard option."""
        rules, tables = self.rules, self.tables
        target, rank, target_elder = rules.beat_target(self)  # D13
        kind = self.round.kind
        size = target.bit_count()
        pool = rules.follow_pool(self, seat, kind)  # D8
        actions: tuple[Action, ...] = ()
        if kind == SINGLE:
            if not rules.elder_single_unbeatable(target_elder):
                actions = _singles(pool & rules.single_beaters(tables, target.bit_length() - 1))
        else:
            candidates = rules.runs_in(tables, pool) if kind == RUN else rules.sets_in(tables, pool)
            beating = []
            for mask in candidates:
                if rules.follow_size_ok(mask.bit_count(), size):
                    ckind, crank = rules.classify(tables, mask)
                    if ckind == kind and rules.rank_beats(tables, kind, crank, rank):
                        beating.append(play_action(mask))
            actions = tuple(beating)
        if rules.may_discard(self, bool(actions)):  # PLAY-4, D12
            return LegalActions(actions, DiscardOption(rules.discard_count(size), pool))
        return LegalActions(actions)

    # ---------------------------------------------------------------- actions

    # Seats and actions come in as ``object``: compiled, typed parameters would refuse a wrong type with
    # a bare TypeError and take ``True`` for seat 1; here every wrong input is the engine's own error.

    def can_apply(self, seat: object, action: object) -> bool:
        try:
            self.check(seat, action)
        except HakkaError:
            return False
        return True

    def check(self, seat: object, action: object) -> Action:
        """Raise the error that applying ``action`` for ``seat`` would raise; else return it."""
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except MalformedError as exc:
                raise MalformedError(exc.message, rule=exc.rule, seat=seat if isinstance(seat, int) else None,
                                     action=str(exc.action)) from None
        elif not isinstance(action, Action):
            raise MalformedError(f"{action!r} is not an action", seat=seat if isinstance(seat, int) else None)
        if type(seat) is not int or self.to_act != seat or action not in self.legal_actions():
            from .explain import explain

            raise explain(self, seat, action)
        return action

    def apply(self, seat: object, action: object) -> tuple[Event, ...]:
        """Apply ``action`` for ``seat`` and return the events it caused, the action's own first.

        Raise (and change nothing) if it is not legal. The events are also
        appended to :attr:`events`.
        """
        legal = self._legal
        if type(action) is not Action or type(seat) is not int or self.to_act != seat or action not in (
                legal if legal is not None else self.legal_actions()):
            action = self.check(seat, action)
        assert isinstance(seat, int) and isinstance(action, Action)  # check() refused the rest
        self._legal = None
        log = self.events
        start = len(log)
        verb = action.verb
        if verb in (PLAY, DISCARD):
            self._play_or_discard(seat, verb, action.mask)
        elif verb == CALL:
            self._call(seat)
        elif verb == PASS:
            log.append(PASSED[seat])
            self._pass(seat)
        elif verb == CLAIM:
            log.append(CLAIMED[seat])
            self._end_with_claim(seat, self.claim_count(seat), "claim")
        elif verb == CONTINUE:
            log.append(CLAIM_DECLINED[seat])
            self._after_claim_chance(seat)
        elif verb == TIGERS:
            log.append(TIGERS_SHOWN[seat])
            self._end_with_claim(seat, self.rules.tigers_count(), "five-tigers")
        else:  # DECLINE
            log.append(TIGERS_DECLINED[seat])
            self._start_playing()
        return (log[start],) if len(log) == start + 1 else tuple(log[start:])

    def _call(self, seat: int) -> None:
        self.caller = seat
        # CALL-4, D30: a caller other than the Dealer becomes the Privileged Player
        privileged = self.rules.caller_is_privileged(self, seat)
        self.privileged = seat if privileged else None
        self.events.append(CALLED_PRIVILEGED[seat] if privileged else CALLED[seat])
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
        elif rules.tigers_shown_automatically(self):  # D24
            self.events.append(TIGERS_SHOWN_AUTOMATICALLY[holder])
            self._end_with_claim(holder, rules.tigers_count(), "five-tigers")
        else:
            self.phase = Phase.TIGERS
            self.to_act = holder
            self.events.append(TIGERS_OFFERED[holder])

    def _start_playing(self) -> None:
        self.phase = Phase.PLAYING
        self._start_round(self.rules.first_leader(self))  # PLAY-1, D6

    def _start_round(self, leader: int) -> None:
        self.round = Round(leader)
        self.to_act = leader

    def _play_or_discard(self, seat: int, verb: str, mask: int) -> None:
        rules = self.rules
        self.hands[seat] ^= mask
        rnd = self.round
        plays = rnd.plays
        log = self.events
        before = self.elders
        event: Played | Discarded
        face_up = verb == PLAY
        if face_up:
            kind, rank = rules.classify(self.tables, mask)
            cached = PLAYED_EVENTS.get(mask << 2 | seat)  # events.played(), its lookup written out
            event = cached if cached is not None and cached.kind is kind else played(seat, mask, kind)
            if not plays:  # the lead (PLAY-2)
                rnd.lead(seat, mask, kind, rank, bool(mask & before))
            elif self._beats_best(mask, rank):
                rnd.beat(seat, mask, rank, bool(mask & before))
            self.played |= mask
        else:
            event = discarded(seat, mask)
            self.discarded |= mask  # PLAY-5: face down
        log.append(event)
        elders = self.elders = rules.elders_after(self, face_up)  # ELD-2, D19, D35
        if elders & ~before:
            log.append(elders_promoted(seat, elders & ~before))
        plays.append(event)
        if len(plays) < 3:
            self.to_act = rules.next_seat(self, seat)
            return
        winner = rnd.best_seat  # PLAY-6
        tricks = rules.tricks_won(rnd.best_mask)
        self.tricks[winner] += tricks
        self.last_winning_pattern = rnd.best_mask
        log.append(round_won(winner, tricks))
        self._claim_chance(winner)

    def _beats_best(self, mask: int, rank: int) -> bool:
        """Under D13 ``lead`` a follower beat the lead; is it also better than the best?"""
        rules, tables, rnd = self.rules, self.tables, self.round
        kind = rnd.kind
        if kind != SINGLE:
            return rules.rank_beats(tables, kind, rank, rnd.best_rank)
        if rules.elder_single_unbeatable(rnd.best_elder):
            return False
        return bool(rules.single_beaters(tables, rnd.best_mask.bit_length() - 1) & mask)

    def _claim_chance(self, winner: int) -> None:
        if self.rules.may_claim(self, winner):  # CLAIM-1
            if self.rules.claims_automatically(self):  # D21
                self.events.append(CLAIMED_AUTOMATICALLY[winner])
                self._end_with_claim(winner, self.claim_count(winner), "claim")
                return
            self.phase = Phase.CLAIMING
            self.to_act = winner
            self.events.append(CLAIM_OFFERED[winner])
            return
        self._after_claim_chance(winner)

    def _after_claim_chance(self, winner: int) -> None:
        if self.hands[winner]:
            self.phase = Phase.PLAYING
            self._start_round(self.rules.next_leader(self, winner))  # PLAY-7
            return
        self._finish(HandResult.played_out(self.rules.next_dealer(self), self.profile))  # PLAY-8, D23

    def _end_with_claim(self, winner: int, count: int, end: str) -> None:
        rules = self.rules
        if end == "claim":
            count = rules.claimed_count(self, winner)  # CLAIM-1, D22
        win = Win(end, winner, count, self.dealer, self.privileged, self.dreamer_card,
                  rules.matched_hand(self, winner, end), rules.next_dealer(self))  # SCORE-4, D26
        self._finish(self.rules.score(win, self.profile))

    def _finish(self, result: HandResult) -> None:
        self.result = result
        self.phase = Phase.ENDED
        self.to_act = None
        self._legal = None
        self.events.append(HandEnded(result))

    # ------------------------------------------------------------ observation

    def observation(self, seat: object) -> Observation:
        """What ``seat`` may see now (OBS-1, D32).

        Two states that differ only in cards hidden from ``seat`` give equal
        observations.
        """
        from .observation import observe

        return observe(self, check_seat(seat, "seat"))
