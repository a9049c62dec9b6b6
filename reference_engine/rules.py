"""The rules a :class:`~reference_engine.hand.Hand` asks: the one seam for variant engines.

:class:`Hand` keeps the state and the order of play; every rule decision it
makes it asks its :class:`Rules` object: who is next, which Singles a leader
may lead, what beats what, how many cards a follower plays or discards, which
cards are Elders, who may claim, what a won hand pays, who deals next. The
profile chooses among the options of spec/decisions.yaml; the rules read it.

The default, :data:`DEFAULT_RULES`, is the reference's own reading. A variant
engine (a house rule, or a deliberate misreading in the mutation tests) is a
subclass that overrides one method, passed in like the profile::

    Hand.from_seed(0, 1, rules=MyRules())      # or Game(..., rules=), Session(rules=)

>>> from reference_engine.cards import Cards
>>> DEFAULT_RULES.classify_cards(Cards.parse("Gon3 Gon4 Gon5"))
<Kind.RUN: 'run'>
>>> DEFAULT_RULES.beats_cards(Cards.parse("Sup9"), Cards.parse("Sup1"))  # ELD-6: a led Sup1 wins
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ._mypyc import mypyc_attr
from .cards import NUMBER_MASKS, SUIT_MASKS, WAN_SIN_BIT, Cards
from .patterns import INITIAL_ELDERS, NEVER_BEAT_SINGLES, SINGLE, Kind, PatternTables, tables_for
from .profile import DEFAULT_PROFILE, Profile
from .scoring import HandResult, Payment, Win, dreamer_count, payments, settle, table_value

if TYPE_CHECKING:  # the hand each rule reads, for its type only: at run time rules.py imports nothing above it
    from .hand import Hand

FIVE_TIGERS: Final = NUMBER_MASKS[1] | WAN_SIN_BIT
"""TIG-1: Sup1, Gon1, Zok1, Sin1 and Wan Sin."""


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


def elders_given(gone: int) -> int:
    """Every Elder when the cards of ``gone`` have left play (ELD-1, ELD-2).

    Sup1, Sin1 and Wan Sin stay Elders (ELD-1); in each suit, the highest card
    not gone and every gone card above it are Elders (ELD-2).
    """
    return (
        NEVER_BEAT_SINGLES
        | ELDER_SLICES[gone & 0x1FF]
        | ELDER_SLICES[(gone >> 9) & 0x1FF] << 9
        | ELDER_SLICES[(gone >> 18) & 0x1FF] << 18
        | ELDER_SLICES[(gone >> 27) & 0x1FF] << 27
    )


assert elders_given(0) == INITIAL_ELDERS


def top_suit_mask(cards: int) -> int:
    """The cards of the highest-ranking suit in ``cards`` (PAT-5).

    Wan Sin counts as a pseudo-suit below Sin, so it is the top "suit" only of
    a hand that holds nothing else; D9 ``exempt`` is applied by the callers.
    """
    for suit_mask in SUIT_MASKS:
        if cards & suit_mask:
            return cards & suit_mask
    return cards & WAN_SIN_BIT


@mypyc_attr(allow_interpreted_subclasses=True)  # the seam: variants and mutants subclass it (setup.py)
@dataclass(frozen=True, slots=True)
class Rules:
    """The reference reading of every rule that a variant engine may read otherwise.

    Methods take the hand they decide for (read-only) and return a decision;
    none changes the hand. Seats are 0-3; card sets are masks
    (:mod:`reference_engine.cards`).
    """

    # ------------------------------------------------------------ the profile

    def profile(self, requested: Profile) -> Profile:
        """The options a hand is played under when ``requested`` are asked for (a variant may pin some)."""
        return requested

    # ------------------------------------------------------------ seats and Calling

    def next_seat(self, hand: Hand, seat: int) -> int:
        """The next active seat counterclockwise, skipping the Dreamer (GAME-5, D1)."""
        seat = (seat + 1) % 4
        return (seat + 1) % 4 if seat == hand.dreamer else seat

    def next_speaker(self, hand: Hand, seat: int) -> int:
        """Who speaks after ``seat`` passes in Calling (CALL-3): the next active seat."""
        return self.next_seat(hand, seat)

    def call_ends_calling(self, hand: Hand) -> bool:
        """CALL-5, D3: the first Call ends Calling."""
        return True

    def caller_is_privileged(self, hand: Hand, seat: int) -> bool:
        """CALL-4, D30: a caller other than the Dealer becomes the Privileged Player."""
        return seat != hand.dealer

    def next_dealer(self, hand: Hand) -> int:
        """Who deals the next hand (CALL-2, CALL-3, D4, D5)."""
        profile = hand.profile
        if hand.caller == hand.dealer:
            return hand.dealer
        if hand.caller is None and profile.void_redeal == "same-dealer":
            return hand.dealer
        if hand.caller is not None and profile.next_dealer == "caller":
            return hand.caller
        return (hand.dealer + 1) % 4

    # ------------------------------------------------------------ Five Tigers

    def tigers_holder(self, hand: Hand) -> int | None:
        """The active seat holding the Five Tigers, if any (TIG-1)."""
        return next((s for s in hand.active_seats if hand.hands[s] & FIVE_TIGERS == FIVE_TIGERS), None)

    def tigers_need_a_call(self) -> bool:
        """TIG-1: the Five Tigers win once Calling ended with a Call (a void hand is void)."""
        return True

    def tigers_shown_automatically(self, hand: Hand) -> bool:
        """D24: the Five Tigers win at once (``automatic``), or their holder is asked first."""
        return hand.profile.five_tigers == "automatic"

    def tigers_count(self) -> int:
        """TIG-1: the Five Tigers score as 8 tricks."""
        return 8

    # ------------------------------------------------------------ leading a Single

    def lead_suit(self, cards: int) -> int:
        """The cards a leader's Single must come from before the Elder rules: the top suit (PAT-5)."""
        return top_suit_mask(cards)

    def elders_wait(self, hand: Hand, seat: int) -> bool:
        """ELD-4, D37: a leader leads the non-Elders of the top suit before its Elders, judged on the
        current holding."""
        return True

    def has_privilege(self, hand: Hand, seat: int) -> bool:
        """ELD-5: the Privileged Player may lead Elders."""
        return seat == hand.privileged

    def leadable_singles(self, hand: Hand, seat: int) -> int:
        """The cards ``seat`` may lead as a Single (PAT-5, ELD-4, ELD-5, D9, D10, D11)."""
        cards = hand.hands[seat]
        elders = hand.elders
        profile = hand.profile
        top = self.lead_suit(cards)
        exempt = profile.wan_sin_suit == "exempt"
        wan_sin = cards & WAN_SIN_BIT
        if exempt and top == wan_sin:  # D9 exempt: Wan Sin is no suit
            top = 0
        non_elders = top & ~elders
        if non_elders and self.elders_wait(hand, seat):
            allowed = non_elders
            may_lead_elder = False
        elif non_elders:  # ELD-4 not binding: the whole top suit
            allowed = top
            may_lead_elder = True
        elif not top:  # only Wan Sin is left
            allowed = wan_sin
            may_lead_elder = True
        else:  # the top suit holds only Elders (D10)
            allowed = top if profile.elder_only_top_suit == "top-suit-elder" else cards & elders
            may_lead_elder = True
        if self.has_privilege(hand, seat):  # ELD-5, D11
            if profile.privilege == "any-elder":
                allowed |= cards & elders
                may_lead_elder = True
            else:  # only the Elders of the top suit, so Wan Sin stays bound (D9)
                allowed |= top & elders
        if exempt and may_lead_elder:
            allowed |= wan_sin
        return allowed

    # ------------------------------------------------------------ patterns

    def classify(self, tables: PatternTables, mask: int) -> tuple[Kind, int]:
        """``(kind, rank)`` of a card mask; the rank orders patterns of one kind (PAT-1..7, D15-D18)."""
        return tables.classify(mask)

    def runs_in(self, tables: PatternTables, cards: int) -> list[int]:
        """Every Run in ``cards`` (PAT-1)."""
        return tables.runs_in_hand(cards)

    def sets_in(self, tables: PatternTables, cards: int) -> list[int]:
        """Every Set in ``cards`` (PAT-3, D17)."""
        return tables.sets_in_hand(cards)

    def rank_beats(self, tables: PatternTables, kind: Kind, challenger: int, current: int) -> bool:
        """Does a Run or Set of rank ``challenger`` beat one of rank ``current`` (PAT-2, PAT-4, D16)?"""
        return tables.rank_beats(kind, challenger, current)

    def single_beaters(self, tables: PatternTables, card: int) -> int:
        """The cards that beat the non-Elder Single ``card`` (an index) (PAT-6, D7, ELD-6)."""
        return tables.single_beaters[card]

    def elder_single_unbeatable(self, was_elder: bool) -> bool:
        """ELD-3, D20: a Single that was an Elder when played cannot be beaten."""
        return was_elder

    def beats(self, tables: PatternTables, challenger: int, current: int, current_was_elder: bool) -> bool:
        """Does ``challenger`` beat ``current``, the best so far (PLAY-3, PAT-2, PAT-4, PAT-6, ELD-3)?"""
        kind, rank = self.classify(tables, challenger)
        ckind, crank = self.classify(tables, current)
        if kind == Kind.NONE or kind != ckind or challenger.bit_count() != current.bit_count():
            return False
        if kind != SINGLE:
            return self.rank_beats(tables, kind, rank, crank)
        if self.elder_single_unbeatable(current_was_elder):
            return False
        return bool(self.single_beaters(tables, current.bit_length() - 1) & challenger)

    def classify_cards(self, cards: Cards, profile: Profile = DEFAULT_PROFILE) -> Kind:
        """The kind of pattern ``cards`` make (PAT-1, PAT-3, PAT-5, PAT-7)."""
        return self.classify(tables_for(self.profile(profile)), cards.mask)[0]

    def beats_cards(
        self, challenger: Cards, current: Cards, *, elders: Cards = Cards(INITIAL_ELDERS),
        profile: Profile = DEFAULT_PROFILE,
    ) -> bool:
        """Does ``challenger``, played next in a round, beat ``current``, the best so far?

        ``elders`` are the Elder cards at that moment (ELD-3). Patterns of
        different kinds or sizes never beat each other (PLAY-3).
        """
        tables = tables_for(self.profile(profile))
        return self.beats(tables, challenger.mask, current.mask, bool(current.mask & elders.mask))

    # ------------------------------------------------------------ following and rounds

    def first_leader(self, hand: Hand) -> int:
        """PLAY-1, D6: the Dealer leads the first round, or the Privileged Player under ``privileged-player``."""
        if hand.profile.first_leader == "privileged-player" and hand.privileged is not None:
            return hand.privileged
        return hand.dealer

    def beat_target(self, hand: Hand) -> tuple[int, int, bool]:
        """D13: the pattern a follower must beat, as (mask, rank, was an Elder): the lead's, or the best so far."""
        r = hand.round
        if hand.profile.beat_target == "lead":
            return r.lead_mask, r.lead_rank, r.lead_elder
        return r.best_mask, r.best_rank, r.best_elder

    def follow_pool(self, hand: Hand, seat: int, kind: Kind) -> int:
        """D8: the cards a follower of ``kind`` may beat or discard with: the hand, or for a Single under
        ``followers-too`` its top suit alone."""
        cards = hand.hands[seat]
        if kind == SINGLE and hand.profile.follower_suit_rule == "followers-too":
            return top_suit_mask(cards)
        return cards

    def may_discard(self, hand: Hand, can_beat: bool) -> bool:
        """PLAY-4, D12: a follower who cannot beat discards; under ``may-discard`` one who can may discard too."""
        return not can_beat or hand.profile.must_beat == "may-discard"

    def follow_size_ok(self, size: int, target_size: int) -> bool:
        """PLAY-3: a follower plays as many cards as the pattern led."""
        return size == target_size

    def discard_count(self, target_size: int) -> int:
        """PLAY-4: a discard holds as many cards as the pattern led."""
        return target_size

    def tricks_won(self, pattern: int) -> int:
        """PLAY-6: the round's winner takes one trick per card of the winning pattern."""
        return pattern.bit_count()

    def next_leader(self, hand: Hand, winner: int) -> int:
        """PLAY-7: the round's winner leads the next round."""
        return winner

    # ------------------------------------------------------------ Elders

    def elders_given(self, gone: int) -> int:
        """Every Elder when the cards of ``gone`` have left play (ELD-1, ELD-2)."""
        return elders_given(gone)

    def gone(self, hand: Hand) -> int:
        """The cards that count as gone for promotion (D19)."""
        if hand.profile.elder_promotion == "face-up-and-discards":
            return hand.played | hand.discarded
        return hand.played

    def elders_after(self, hand: Hand, face_up: bool) -> int:
        """ELD-2, D19, D35: the Elders right after a play (``face_up``) or a discard."""
        if face_up or hand.profile.elder_promotion == "face-up-and-discards":
            return self.elders_given(self.gone(hand))
        return hand.elders

    # ------------------------------------------------------------ claiming

    def claim_count(self, hand: Hand, seat: int) -> int:
        """Tricks won plus Elders in hand (CLAIM-1)."""
        return hand.tricks[seat] + (hand.hands[seat] & hand.elders).bit_count()

    def may_claim(self, hand: Hand, seat: int) -> bool:
        """CLAIM-1: the winner of a round may claim with a claim count of 6 or more."""
        return self.claim_count(hand, seat) >= 6

    def claims_automatically(self, hand: Hand) -> bool:
        """D21: a winner who may claim claims at once (``automatic``), or is asked."""
        return hand.profile.claim_mode == "automatic"

    def claimed_count(self, hand: Hand, winner: int) -> int:
        """CLAIM-1, D22: the count a claim scores: the claim count, or the tricks alone."""
        if hand.profile.claim_count == "tricks-plus-elders":
            return self.claim_count(hand, winner)
        return hand.tricks[winner]

    def matched_hand(self, hand: Hand, winner: int, end: str) -> int:
        """SCORE-4, D26: the cards matched against the Dreamer's card (the Five Tigers: the hand dealt)."""
        if end != "claim":
            return hand.dealt[winner]
        option = hand.profile.dreamer_matches
        if option == "hand-at-claim":
            return hand.hands[winner]
        if option == "winning-pattern":
            return hand.last_winning_pattern
        return hand.dealt[winner]

    def claims_any_turn(self, hand: Hand, seat: int) -> bool:
        """CLAIM-1: a claim comes only right after winning a round, never on a turn of play."""
        return False

    # ------------------------------------------------------------ scoring

    def table_value(self, tricks: int) -> int:
        """SCORE-1, SCORE-2: points for a count of tricks."""
        return table_value(tricks)

    def dreamer_value(self, count: int) -> int:
        """SCORE-5: the Dreamer is paid the table value of his count."""
        return self.table_value(count)

    def privileged_pays(self, win: Win) -> bool:
        """SCORE-6: a Privileged Player who does not win pays for the other loser too."""
        return win.privileged is not None and win.privileged != win.winner

    def payments(self, win: Win, count: int, profile: Profile) -> list[Payment]:
        """Who pays whom (SCORE-3, SCORE-5, SCORE-6, D28, D29, D34)."""
        return payments(win, profile, value=self.table_value(win.tricks), dreamer_value=self.dreamer_value(count),
                        penalty=self.privileged_pays(win))

    def score(self, win: Win, profile: Profile) -> HandResult:
        """The result of a hand won by a claim or the Five Tigers (SCORE-3..7, D25-D29, D34)."""
        count = dreamer_count(win.dreamer_card, win.winning_hand, profile)
        return settle(win, count, self.payments(win, count, profile))


DEFAULT_RULES: Final = Rules()



def classify(cards: Cards, profile: Profile = DEFAULT_PROFILE) -> Kind:
    """The kind of pattern ``cards`` make under the reference rules (PAT-1, PAT-3, PAT-5, PAT-7).

    >>> classify(Cards.parse("Gon3 Gon4 Gon5")) == "run"
    True
    """
    return DEFAULT_RULES.classify_cards(cards, profile)


def beats(
    challenger: Cards, current: Cards, *, elders: Cards = Cards(INITIAL_ELDERS), profile: Profile = DEFAULT_PROFILE
) -> bool:
    """Does ``challenger`` beat ``current`` under the reference rules? See :meth:`Rules.beats_cards`.

    >>> beats(Cards.parse("Sup1 Sup2 Sup3"), Cards.parse("Gon7 Gon8 Gon9"))
    True
    """
    return DEFAULT_RULES.beats_cards(challenger, current, elders=elders, profile=profile)
