"""The reference engine with seams: the base that every mutant subclasses.

A mutant embodies one misreading of the rules by overriding ONE method (or one
table method). Most of the reference's :class:`~reference_engine.hand.Hand`
methods are already small enough to override on their own
(``next_seat``, ``_next_dealer``, ``_gone``, ``_target``, ``claim_count``,
``_start_playing``, ``_claim_chance``, ``_finish``, ...). A few rules are
inlined in bigger reference methods, so :class:`SeamHand` re-expresses those
methods through small hooks:

- pattern enumeration and ranking go through the pattern tables
  (:class:`SeamTables`: ``runs_in_hand``, ``sets_in_hand``, ``rank_beats``,
  ``single_unbeatable``) instead of the reference's inline formulas, so a
  table mutant changes leading, following, round winners and the ``pattern``
  command consistently;
- following has ``_follow_pool`` (D8), ``_follow_size_ok`` (PLAY-3),
  ``_may_discard`` (D12) and ``_discard_count`` (PLAY-4);
- leading a Single goes through :func:`leadable` with one switch per rule;
- Elders are computed by ``_elders_given`` (ELD-1, ELD-2) and refreshed by
  ``_update_elders`` (D19, D35) from a copy of ``_play_or_discard``;
- Calling has ``_tigers_holder`` (TIG-1);
- the claim has ``_claimed_count`` (D22), ``_matched_hand`` (D26) and
  ``_score`` (:func:`score_with`, a parametrised copy of
  :func:`reference_engine.scoring.score_claim`).

With no hook overridden, :class:`SeamHand` must behave exactly like the
reference ``Hand``; ``tests/mutants/test_catalogue.py`` checks that by
differential play, and ``python -m tests.mutants.report`` runs it against the
scenario corpus as the ``control`` engine. Nothing here is imported by the
reference engine or the runner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from reference_engine.actions import PLAY, Action, DiscardOption, LegalActions
from reference_engine.cards import WAN_SIN_BIT, indices
from reference_engine.hand import (
    FIVE_TIGERS,
    Hand,
    Play,
    _play,
    elders_given,
    top_suit_mask,
)
from reference_engine.patterns import NONE, RUN, RUNS_IN, SINGLE, PatternTables
from reference_engine.profile import Profile
from reference_engine.scoring import SCORE_TABLE, HandResult, dreamer_count
from reference_engine.wire import Session

__all__ = ["SeamHand", "SeamTables", "leadable", "score_with", "session_for"]


class SeamTables(PatternTables):
    """The reference pattern tables plus the queries :class:`SeamHand` needs."""

    __slots__ = ()

    def runs_in_hand(self, hand: int) -> list[int]:
        """Every Run in ``hand`` (PAT-1)."""
        runs = []
        for suit in range(4):
            bits = (hand >> (9 * suit)) & 0x1FF
            if bits:
                for run, _length, _top in RUNS_IN[bits]:
                    runs.append(run << (9 * suit))
        return runs

    def sets_in_hand(self, hand: int) -> list[int]:
        """Every Set in ``hand`` (PAT-3, D17)."""
        sets: list[int] = []
        for n in range(1, 10):
            bits = hand & self.set_masks[n]
            if bits.bit_count() >= 3:
                sets.extend(self.sets_in[bits])
        return sets

    def rank_beats(self, kind: int, challenger_rank: int, current_rank: int) -> bool:
        """Does a Run or Set of ``challenger_rank`` beat one of ``current_rank`` (PAT-2, PAT-4)?"""
        if kind == RUN:
            return challenger_rank > current_rank
        return self.set_beats(challenger_rank, current_rank)

    def single_unbeatable(self, current: int, was_elder: bool) -> bool:
        """Can nothing beat the Single ``current``, an Elder at its play or not (ELD-3)?"""
        return was_elder

    def beats_mask(self, challenger: int, current: int, elders: int) -> bool:
        kind, rank = self.classify(challenger)
        ckind, crank = self.classify(current)
        if kind == NONE or kind != ckind or challenger.bit_count() != current.bit_count():
            return False
        if kind != SINGLE:
            return self.rank_beats(kind, rank, crank)
        if self.single_unbeatable(current, bool(current & elders)):
            return False
        return bool(self.single_beaters[current.bit_length() - 1] & challenger)


def leadable(
    hand: int,
    elders: int,
    profile: Profile,
    *,
    privileged: bool,
    top_suit_rule: bool = True,
    non_elder_first: bool = True,
    privilege: bool = True,
    wan_sin_exempt: bool | None = None,
    top_override: int | None = None,
) -> int:
    """The cards a leader may lead as a Single: the reference's ``leadable_singles``
    with one switch per rule (PAT-5, ELD-4, ELD-5, D9, D10, D11)."""
    exempt = profile.wan_sin_suit == "exempt" if wan_sin_exempt is None else wan_sin_exempt
    wan_sin = hand & WAN_SIN_BIT
    if top_override is not None:
        top = top_override
    elif top_suit_rule:
        top = top_suit_mask(hand)
        if exempt and top == wan_sin:
            top = 0
    else:  # every suit counts as the top suit
        top = hand & ~wan_sin if exempt else hand
    non_elders = top & ~elders
    if non_elders:
        allowed = non_elders
        may_lead_elder = False
        if not non_elder_first:
            allowed = top
            may_lead_elder = True
    elif not top:
        allowed = wan_sin
        may_lead_elder = True
    else:
        allowed = top if profile.elder_only_top_suit == "top-suit-elder" else hand & elders
        may_lead_elder = True
    if privileged and privilege:
        allowed |= hand & elders if profile.privilege == "any-elder" else top & elders
        may_lead_elder = True
    if exempt and may_lead_elder:
        allowed |= wan_sin
    return allowed


def score_with(
    *,
    end: str,
    winner: int,
    tricks: int,
    dealer: int,
    privileged: int | None,
    dreamer_card: int,
    winning_hand: int,
    next_dealer: int,
    profile: Profile,
    table: Mapping[int, int] = SCORE_TABLE,
    dreamer_base: int | None = None,
    dreamer_paid: bool = True,
    dreamer_pays_winner: bool = False,
    penalty_applies: bool = True,
) -> HandResult:
    """:func:`reference_engine.scoring.score_claim` with switches (SCORE-1..7, D28, D29, D34)."""
    dreamer = (dealer + 2) % 4
    losers = [s for s in (dealer, (dealer + 1) % 4, (dealer + 3) % 4) if s != winner]
    tigers_alone = end == "five-tigers" and profile.tigers_scoring == "winner-only"
    value = table.get(tricks, 0)
    count = dreamer_count(dreamer_card, winning_hand, profile)
    if dreamer_base is not None:
        count += dreamer_base - (5 if profile.dreamer_count == "five-plus-matches" else 0)
    dreamer_value = 0 if tigers_alone or not dreamer_paid else table.get(count, 0)
    penalty = penalty_applies and privileged is not None and privileged != winner and not tigers_alone
    deltas = [0, 0, 0, 0]

    def pay(payer: int, payee: int, amount: int) -> None:
        deltas[payer] -= amount
        deltas[payee] += amount

    for loser in losers:
        pay(privileged if penalty and privileged is not None else loser, winner, value)
    if dreamer_pays_winner:
        pay(dreamer, winner, value)
    payers = losers + ([winner] if profile.dreamer_payers == "all-three" else [])
    for payer in payers:
        if penalty and privileged is not None and payer in losers and profile.privileged_penalty == "all-shares":
            payer = privileged
        pay(payer, dreamer, dreamer_value)
    assert sum(deltas) == 0
    return HandResult(end, winner, tricks, count, (deltas[0], deltas[1], deltas[2], deltas[3]), next_dealer, True)


_TABLES: dict[tuple[type[PatternTables], Profile], PatternTables] = {}


class SeamHand(Hand):
    """The reference :class:`Hand`, re-expressed through overridable hooks (see module doc)."""

    __slots__ = ()

    tables_class: ClassVar[type[SeamTables]] = SeamTables

    @classmethod
    def pattern_tables(cls, profile: Profile) -> PatternTables:
        key = (cls.tables_class, profile)
        tables = _TABLES.get(key)
        if tables is None:
            tables = _TABLES[key] = cls.tables_class(profile)
        return tables

    @property
    def seam_tables(self) -> SeamTables:
        tables = self.tables
        assert isinstance(tables, SeamTables)
        return tables

    @classmethod
    def _new(cls, dealer: int, masks: list[int], profile: Profile) -> Hand:
        hand = super()._new(dealer, masks, profile)
        assert isinstance(hand, SeamHand)
        hand.elders = hand._elders_given(0)
        return hand

    # ------------------------------------------------------------ Elders

    def _elders_given(self, gone: int) -> int:
        """Every Elder when the cards of ``gone`` have left play (ELD-1, ELD-2)."""
        return elders_given(gone)

    def _update_elders(self, face_up: bool) -> None:
        """After a play (``face_up``) or a discard: recompute the Elders (D19, D35)."""
        if face_up or self.profile.elder_promotion == "face-up-and-discards":
            self.elders = self._elders_given(self._gone())

    def _play_or_discard(self, seat: int, action: Action) -> None:
        mask = action.mask
        self.hands[seat] ^= mask
        self.plays.append(Play(seat, action))
        if action.verb == PLAY:
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
            self.discarded |= mask
        self._update_elders(action.verb == PLAY)
        self.acted += 1
        if self.acted < 3:
            self.to_act = self.next_seat(seat)
            return
        winner = self.best_seat
        self.tricks[winner] += self.best_mask.bit_count()
        self.last_winning_pattern = self.best_mask
        self._claim_chance(winner)

    # ------------------------------------------------------------ leading

    def _lead_actions(self, seat: int) -> tuple[Action, ...]:
        hand = self.hands[seat]
        tables = self.seam_tables
        actions = [_play(m) for m in tables.runs_in_hand(hand)]
        actions += [_play(m) for m in tables.sets_in_hand(hand)]
        actions += [_play(1 << i) for i in indices(self.leadable_singles(seat))]
        return tuple(actions)

    def leadable_singles(self, seat: int) -> int:
        return leadable(self.hands[seat], self.elders, self.profile, privileged=seat == self.privileged)

    # ------------------------------------------------------------ following

    def _follow_pool(self, seat: int) -> int:
        """The cards a follower may beat or discard with (D8)."""
        hand = self.hands[seat]
        if self.best_kind == SINGLE and self.profile.follower_suit_rule == "followers-too":
            return top_suit_mask(hand)
        return hand

    def _follow_size_ok(self, size: int, target_size: int) -> bool:
        """May a follower's Run or Set of ``size`` cards answer one of ``target_size`` (PLAY-3)?"""
        return size == target_size

    def _may_discard(self, can_beat: bool) -> bool:
        """Is the discard option open (PLAY-4, D12)?"""
        return not can_beat or self.profile.must_beat == "may-discard"

    def _discard_count(self, target_size: int) -> int:
        """How many cards a discard holds (PLAY-4)."""
        return target_size

    def _follow_actions(self, seat: int) -> LegalActions:
        hand = self.hands[seat]
        target, rank, target_elder = self._target()
        kind = self.best_kind
        size = target.bit_count()
        tables = self.seam_tables
        pool = self._follow_pool(seat)
        actions: list[Action] = []
        if kind == SINGLE:
            if not tables.single_unbeatable(target, target_elder):
                beaters = pool & tables.single_beaters[target.bit_length() - 1]
                actions = [_play(1 << i) for i in indices(beaters)]
        else:
            candidates = tables.runs_in_hand(hand) if kind == RUN else tables.sets_in_hand(hand)
            for mask in candidates:
                if not self._follow_size_ok(mask.bit_count(), size):
                    continue
                ckind, crank = tables.classify(mask)
                if ckind == kind and tables.rank_beats(kind, crank, rank):
                    actions.append(_play(mask))
        if self._may_discard(bool(actions)):
            return LegalActions(tuple(actions), DiscardOption(self._discard_count(size), pool))
        return LegalActions(tuple(actions))

    def _beats_best(self, mask: int, rank: int) -> bool:
        tables = self.seam_tables
        kind = self.best_kind
        if kind != SINGLE:
            return tables.rank_beats(kind, rank, self.best_rank)
        if tables.single_unbeatable(self.best_mask, self.best_elder):
            return False
        return bool(tables.single_beaters[self.best_mask.bit_length() - 1] & mask)

    # ------------------------------------------------------------ calling

    def _tigers_holder(self) -> int | None:
        """The active seat holding the Five Tigers, if any (TIG-1)."""
        return next((s for s in self.active_seats if self.hands[s] & FIVE_TIGERS == FIVE_TIGERS), None)

    def _call(self, seat: int) -> None:
        self.caller = seat
        if seat != self.dealer:
            self.privileged = seat
        self._end_calling()

    def _end_calling(self) -> None:
        """Calling is over with a caller: the Five Tigers, else Playing."""
        holder = self._tigers_holder()
        if holder is not None:
            if self.profile.five_tigers == "automatic":
                self._end_with_claim(holder, 8, "five-tigers")
                return
            self.phase = "tigers"
            self.to_act = holder
            return
        self._start_playing()

    # ------------------------------------------------------------ claiming and scoring

    def _claimed_count(self, winner: int) -> int:
        """The count a claim scores (CLAIM-1, D22)."""
        if self.profile.claim_count == "tricks-plus-elders":
            return self.tricks[winner] + (self.hands[winner] & self.elders).bit_count()
        return self.tricks[winner]

    def _matched_hand(self, winner: int, end: str) -> int:
        """The cards matched against the Dreamer's card (SCORE-4, D26)."""
        if end != "claim":
            return self.dealt[winner]
        return {
            "dealt-hand": self.dealt[winner],
            "hand-at-claim": self.hands[winner],
            "winning-pattern": self.last_winning_pattern,
        }[self.profile.dreamer_matches]

    def _score(self, **kwargs: Any) -> HandResult:
        return score_with(**kwargs)

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


def session_for(hand_class: type[Hand], name: str) -> Session:
    """A protocol session whose hands are ``hand_class``, named ``name`` in ``hello``."""
    session = Session(hand_class=hand_class)
    session.name = name  # type: ignore[misc]
    return session
