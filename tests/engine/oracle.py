"""An independent, brute-force model of one hand of Hakka Cards.

Written from /work/hakka-brief/RULES-SEMANTICS.md ("Exact semantics
implemented"), NOT from the reference engine: it imports nothing from
``reference_engine``. Cards are ``(suit, number)`` tuples, sets of cards are
Python sets, and every question is answered the slow, obvious way (sorting,
comparisons, enumerating subsets). The property tests run the engine and this
oracle side by side and demand the same legal actions, phases, tricks, Elders
and results.

Options are ``{decision ID: option ID}`` dicts; missing decisions take the
default (the first option listed in spec/README.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations

SUITS = ("Sup", "Gon", "Zok", "Sin")  # highest first (CARDS-2)
WAN_SIN = ("WanSin", 1)  # CARDS-3: number 1, no suit
SUIT_RANK = {"Sup": 4, "Gon": 3, "Zok": 2, "Sin": 1, "WanSin": 0}  # D9 lowest: a pseudo-suit below Sin
FULL_DECK = frozenset([(s, n) for s in SUITS for n in range(1, 10)] + [WAN_SIN])
NEVER_BEAT = frozenset({("Sup", 1), ("Sin", 1), WAN_SIN})  # ELD-6

DEFAULTS = {
    "D2": "dealer-first", "D4": "next-seat", "D5": "next-dealer", "D6": "dealer",
    "D7": "same-suit", "D8": "leader-only", "D9": "lowest", "D10": "top-suit-elder",
    "D11": "any-elder", "D12": "must-beat", "D13": "best-so-far", "D16": "below-nines",
    "D17": "no", "D19": "face-up", "D21": "optional", "D22": "tricks-plus-elders",
    "D23": "no-score", "D24": "automatic", "D25": "five-plus-matches", "D26": "dealt-hand",
    "D27": "number-one", "D28": "two-losers", "D29": "all-shares", "D31": "played-hands",
    "D34": "as-claim",
}

Card = tuple[str, int]
Action = tuple[str, frozenset[Card]]  # (verb, cards); cards empty for call/pass/...


def card_from_name(name: str) -> Card:
    """Canonical name (``Sup9``, ``WanSin``) to a tuple."""
    if name == "WanSin":
        return WAN_SIN
    suit, number = name[:3], int(name[3:])
    assert suit in SUITS and 1 <= number <= 9, name
    return (suit, number)


def card_name(card: Card) -> str:
    return "WanSin" if card == WAN_SIN else f"{card[0]}{card[1]}"


def canonical_key(card: Card) -> tuple[int, int]:
    """Canonical order: Sup1..Sup9, Gon1..Gon9, Zok1..Zok9, Sin1..Sin9, WanSin."""
    if card == WAN_SIN:
        return (4, 1)
    return (SUITS.index(card[0]), card[1])


def names(cards: Iterable[Card]) -> str:
    return " ".join(card_name(c) for c in sorted(cards, key=canonical_key))


def opt(options: Mapping[str, str], decision: str) -> str:
    return options.get(decision, DEFAULTS.get(decision, ""))


# ---------------------------------------------------------------- patterns


@dataclass(frozen=True)
class Pattern:
    kind: str  # "run" | "set" | "single"
    cards: frozenset[Card]
    suit: str = ""  # runs
    top: int = 0  # runs
    number: int = 0  # sets


def pattern_of(cards: Iterable[Card], options: Mapping[str, str]) -> Pattern | None:
    """PAT-1, PAT-3, PAT-7: a Run, a Set, a Single, or None."""
    cards = frozenset(cards)
    ordered = sorted(cards, key=lambda c: c[1])
    if len(ordered) == 1:
        return Pattern("single", cards)
    if len(ordered) < 3:
        return None
    suits = {c[0] for c in ordered}
    numbers = [c[1] for c in ordered]
    if len(suits) == 1 and "WanSin" not in suits and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return Pattern("run", cards, suit=ordered[0][0], top=numbers[-1])
    if len(set(numbers)) == 1:
        if WAN_SIN in cards and opt(options, "D17") != "yes":
            return None
        return Pattern("set", cards, number=numbers[0])
    return None


def set_beats(challenger: int, current: int, options: Mapping[str, str]) -> bool:
    """PAT-4, D16."""
    if opt(options, "D16") == "lowest":
        if current == 1:
            return challenger == 9
        if challenger == 1:
            return False
        return challenger > current
    order = [2, 3, 4, 5, 6, 7, 8, 1, 9]
    return order.index(challenger) > order.index(current)


def beats(
    challenger: Iterable[Card],
    current: Iterable[Card],
    current_was_elder: bool,
    options: Mapping[str, str],
) -> bool:
    """Does ``challenger`` beat ``current`` (which was/was not an Elder at its play)?"""
    ch = pattern_of(challenger, options)
    cu = pattern_of(current, options)
    if ch is None or cu is None or ch.kind != cu.kind or len(ch.cards) != len(cu.cards):
        return False
    if ch.kind == "run":  # D15: suit first, then top
        if ch.suit != cu.suit:
            return SUIT_RANK[ch.suit] > SUIT_RANK[cu.suit]
        return ch.top > cu.top
    if ch.kind == "set":
        return set_beats(ch.number, cu.number, options)
    (c,) = ch.cards
    (w,) = cu.cards
    if current_was_elder:  # ELD-3
        return False
    if c in NEVER_BEAT:  # ELD-6
        return False
    if opt(options, "D7") == "any-suit":
        return c[1] > w[1]
    return c[0] == w[0] and c[1] > w[1]


# ---------------------------------------------------------------- elders


def elders_given(gone: set[Card]) -> set[Card]:
    """ELD-1, ELD-2: Sup1, Sin1, Wan Sin, and every suited card all of whose higher cards are gone."""
    result = {("Sup", 1), ("Sin", 1), WAN_SIN}
    for suit in SUITS:
        for n in range(1, 10):
            if all((suit, m) in gone for m in range(n + 1, 10)):
                result.add((suit, n))
    return result


# ---------------------------------------------------------------- legality


def top_suit(hand: Iterable[Card], options: Mapping[str, str]) -> str | None:
    """PAT-5, D9: the highest suit held; Wan Sin a pseudo-suit below Sin (lowest) or ignored (exempt)."""
    held = {c[0] for c in hand}
    for suit in SUITS:
        if suit in held:
            return suit
    if "WanSin" in held and opt(options, "D9") == "lowest":
        return "WanSin"
    return None


def leadable_singles(
    hand: set[Card], is_pp: bool, elders: set[Card], options: Mapping[str, str]
) -> set[Card]:
    """PAT-5, ELD-4, ELD-5, D9, D10, D11, exactly as RULES-SEMANTICS.md words them."""
    t = top_suit(hand, options)
    t_cards = {c for c in hand if c[0] == t} if t is not None else set()
    t_non_elders = {c for c in t_cards if c not in elders}
    hand_elders = {c for c in hand if c in elders}
    allowed: set[Card] = set()
    if t_non_elders:
        allowed |= t_non_elders
    elif t_cards:  # T holds only Elders: D10
        if opt(options, "D10") == "top-suit-elder":
            allowed |= t_cards
        else:
            allowed |= hand_elders
    if is_pp:  # ELD-5, D11
        if opt(options, "D11") == "any-elder":
            allowed |= hand_elders
        else:
            allowed |= {c for c in t_cards if c in elders}
    # D9 exempt: "non-PP: T has only Elders or T does not exist; PP: anytime under
    # D11 any-elder, or when T has only Elders under top-suit-elder"
    if (opt(options, "D9") == "exempt" and WAN_SIN in hand
            and (not t_non_elders or (is_pp and opt(options, "D11") == "any-elder"))):
        allowed.add(WAN_SIN)
    return allowed


@dataclass
class Facts:
    """The public facts a legality question needs (plus the acting seat's own hand)."""

    hand: set[Card]
    is_pp: bool
    leading: bool
    target: frozenset[Card] | None  # the pattern to beat (D13), when following
    target_was_elder: bool
    elders: set[Card]
    options: Mapping[str, str]


def follow_pool(facts: Facts) -> set[Card]:
    """The cards a follower's beating play and discard must come from (D8)."""
    assert facts.target is not None
    if len(facts.target) == 1 and opt(facts.options, "D8") == "followers-too":
        t = top_suit(facts.hand, facts.options)
        if t is None:
            return set(facts.hand)
        return {c for c in facts.hand if c[0] == t}
    return set(facts.hand)


def is_legal_play(cards: frozenset[Card], facts: Facts) -> bool:
    if not cards or not cards <= facts.hand:
        return False
    p = pattern_of(cards, facts.options)
    if p is None:
        return False
    if facts.leading:  # PLAY-2: Runs and Sets always; Singles by PAT-5/ELD-4/ELD-5
        if p.kind != "single":
            return True
        (c,) = cards
        return c in leadable_singles(facts.hand, facts.is_pp, facts.elders, facts.options)
    assert facts.target is not None
    if not cards <= follow_pool(facts):
        return False
    return beats(cards, facts.target, facts.target_was_elder, facts.options)


def beating_plays(facts: Facts) -> list[frozenset[Card]]:
    assert facts.target is not None
    size = len(facts.target)
    return [
        frozenset(combo)
        for combo in combinations(sorted(facts.hand, key=canonical_key), size)
        if is_legal_play(frozenset(combo), facts)
    ]


def discard_option(facts: Facts) -> tuple[int, set[Card]] | None:
    """PLAY-4, D12, D14: (count, pool) of the discard a follower may make, or None."""
    if facts.leading:
        return None
    assert facts.target is not None
    if opt(facts.options, "D12") == "must-beat" and beating_plays(facts):
        return None
    return len(facts.target), follow_pool(facts)


def is_legal_discard(cards: frozenset[Card], facts: Facts, option: tuple[int, set[Card]] | None) -> bool:
    if option is None:
        return False
    count, pool = option
    return len(cards) == count and cards <= pool


# ---------------------------------------------------------------- a hand


TABLE = {6: 1, 7: 2, 8: 4, 9: 8, 10: 16, 11: 32, 12: 128}


def table_value(tricks: int) -> int:
    return TABLE.get(tricks, 0)  # SCORE-1, SCORE-2


@dataclass
class RoundPlay:
    seat: int
    verb: str
    cards: frozenset[Card]
    was_elder: bool


@dataclass
class Result:
    end: str
    winner: int | None
    tricks: int | None
    dreamer_count: int | None
    deltas: list[int]
    next_dealer: int
    counts: bool


TIGERS = frozenset({("Sup", 1), ("Gon", 1), ("Zok", 1), ("Sin", 1), WAN_SIN})


@dataclass
class OracleHand:
    dealer: int
    dealt: list[frozenset[Card]]
    options: Mapping[str, str]
    hands: list[set[Card]] = field(init=False)
    phase: str = field(init=False, default="calling")
    to_act: int | None = field(init=False)
    caller: int | None = field(init=False, default=None)
    pp: int | None = field(init=False, default=None)
    face_up: set[Card] = field(init=False, default_factory=set)
    discarded: set[Card] = field(init=False, default_factory=set)
    tricks: list[int] = field(init=False, default_factory=lambda: [0, 0, 0, 0])
    round: list[RoundPlay] = field(init=False, default_factory=list)
    last_winning_pattern: frozenset[Card] = field(init=False, default=frozenset())
    result: Result | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        assert len(self.dealt) == 4
        assert frozenset().union(*self.dealt) == FULL_DECK
        self.hands = [set(h) for h in self.dealt]
        self.hands[self.dreamer] = set()
        self.to_act = self.dealer

    @property
    def dreamer(self) -> int:
        return (self.dealer + 2) % 4

    @property
    def dreamer_card(self) -> Card:
        (card,) = self.dealt[self.dreamer]
        return card

    @property
    def active(self) -> list[int]:
        return [self.dealer, (self.dealer + 1) % 4, (self.dealer + 3) % 4]

    def next_seat(self, seat: int) -> int:
        s = (seat + 1) % 4
        if s == self.dreamer:
            s = (s + 1) % 4
        return s

    def elders(self) -> set[Card]:
        gone = set(self.face_up)
        if opt(self.options, "D19") == "face-up-and-discards":
            gone |= self.discarded
        return elders_given(gone)

    def claim_count(self, seat: int) -> int:
        elders = self.elders()
        return self.tricks[seat] + len([c for c in self.hands[seat] if c in elders])

    # ---------------------------------------------------------- legality

    def facts(self) -> Facts:
        seat = self.to_act
        assert seat is not None and self.phase == "playing"
        leading = not self.round
        target: frozenset[Card] | None = None
        target_elder = False
        if not leading:
            if opt(self.options, "D13") == "lead":
                target, target_elder = self.round[0].cards, self.round[0].was_elder
            else:
                best = self.best()
                target, target_elder = best.cards, best.was_elder
        return Facts(
            hand=set(self.hands[seat]),
            is_pp=seat == self.pp,
            leading=leading,
            target=target,
            target_was_elder=target_elder,
            elders=self.elders(),
            options=self.options,
        )

    def best(self) -> RoundPlay:
        best = self.round[0]
        for play in self.round[1:]:
            if play.verb == "play" and beats(play.cards, best.cards, best.was_elder, self.options):
                best = play
        return best

    def simple_actions(self) -> set[str]:
        """The card-less actions legal now."""
        return {
            "calling": {"call", "pass"},
            "claim": {"claim", "continue"},
            "tigers": {"tigers", "decline"},
        }.get(self.phase, set())

    def legal(self) -> tuple[set[str], list[frozenset[Card]], tuple[int, set[Card]] | None]:
        """(card-less verbs, every legal play by brute force over all subsets, discard option)."""
        if self.phase != "playing":
            return self.simple_actions(), [], None
        facts = self.facts()
        hand = sorted(facts.hand, key=canonical_key)
        plays = []
        for k in range(1, len(hand) + 1):
            for combo in combinations(hand, k):
                if is_legal_play(frozenset(combo), facts):
                    plays.append(frozenset(combo))
        return set(), plays, discard_option(facts)

    # ---------------------------------------------------------- transitions

    def apply(self, seat: int, verb: str, cards: frozenset[Card] = frozenset()) -> None:
        assert seat == self.to_act, (seat, self.to_act)
        if verb in ("play", "discard"):
            facts = self.facts()
            if verb == "play":
                assert is_legal_play(cards, facts), (verb, names(cards))
            else:
                assert is_legal_discard(cards, facts, discard_option(facts)), (verb, names(cards))
            self._play(seat, verb, cards)
            return
        assert verb in self.simple_actions(), (verb, self.phase)
        if verb == "call":
            self.caller = seat
            if seat != self.dealer:
                self.pp = seat  # CALL-4
            holder = next((s for s in self.active if self.hands[s] >= TIGERS), None)
            if holder is not None:
                if opt(self.options, "D24") == "automatic":
                    self._win(holder, "five-tigers")
                else:
                    self.phase, self.to_act = "tigers", holder
                return
            self._start_playing()
        elif verb == "pass":
            after = self.next_seat(seat)
            if after == self.dealer:
                self._end(Result("void", None, None, None, [0, 0, 0, 0], self.next_dealer(),
                                 opt(self.options, "D31") == "deals"))
            else:
                self.to_act = after
        elif verb == "claim":
            self._win(seat, "claim")
        elif verb == "continue":
            self._after_claim_chance(seat)
        elif verb == "tigers":
            self._win(seat, "five-tigers")
        elif verb == "decline":
            self._start_playing()

    def _start_playing(self) -> None:
        self.phase = "playing"
        first = self.dealer
        if opt(self.options, "D6") == "privileged-player" and self.pp is not None:
            first = self.pp
        self.round = []
        self.to_act = first

    def _play(self, seat: int, verb: str, cards: frozenset[Card]) -> None:
        was_elder = bool(cards & self.elders()) if verb == "play" else False
        self.hands[seat] -= cards
        if verb == "play":
            self.face_up |= cards
        else:
            self.discarded |= cards
        self.round.append(RoundPlay(seat, verb, cards, was_elder))
        if len(self.round) < 3:
            self.to_act = self.next_seat(seat)
            return
        best = self.best()
        self.tricks[best.seat] += len(best.cards)
        self.last_winning_pattern = best.cards
        winner = best.seat
        if self.claim_count(winner) >= 6:
            if opt(self.options, "D21") == "automatic":
                self._win(winner, "claim")
            else:
                self.phase, self.to_act = "claim", winner
            return
        self._after_claim_chance(winner)

    def _after_claim_chance(self, winner: int) -> None:
        if self.hands[winner]:
            self.phase = "playing"
            self.round = []
            self.to_act = winner
            return
        counts = opt(self.options, "D23") == "no-score" or opt(self.options, "D31") == "deals"
        self._end(Result("played-out", None, None, None, [0, 0, 0, 0], self.next_dealer(), counts))

    def next_dealer(self) -> int:
        """CALL-2, CALL-3, D4, D5."""
        if self.caller == self.dealer:
            return self.dealer
        if self.caller is None:
            if opt(self.options, "D5") == "same-dealer":
                return self.dealer
            return (self.dealer + 1) % 4
        if opt(self.options, "D4") == "caller":
            return self.caller
        return (self.dealer + 1) % 4

    def dreamer_count(self, matched: Iterable[Card]) -> int:
        """SCORE-4, D25, D27."""
        dc = self.dreamer_card
        if dc == WAN_SIN and opt(self.options, "D27") == "no-match":
            m = 0
        else:
            m = 0
            for c in matched:
                if c == WAN_SIN and opt(self.options, "D27") == "no-match":
                    continue
                if c[1] == dc[1]:
                    m += 1
        return m + (5 if opt(self.options, "D25") == "five-plus-matches" else 0)

    def _win(self, winner: int, end: str) -> None:
        if end == "five-tigers":
            count = 8
            matched: Iterable[Card] = self.dealt[winner]
        else:
            count = self.tricks[winner]
            if opt(self.options, "D22") == "tricks-plus-elders":
                count = self.claim_count(winner)
            matched = {
                "dealt-hand": self.dealt[winner],
                "hand-at-claim": frozenset(self.hands[winner]),
                "winning-pattern": self.last_winning_pattern,
            }[opt(self.options, "D26")]
        d = self.dreamer_count(matched)
        v = table_value(count)
        dv = table_value(d)
        deltas = [0, 0, 0, 0]

        def pay(payer: int, payee: int, amount: int) -> None:
            deltas[payer] -= amount
            deltas[payee] += amount

        losers = [s for s in self.active if s != winner]
        dreamer = self.dreamer
        if end == "five-tigers" and opt(self.options, "D34") == "winner-only":
            for loser in losers:
                pay(loser, winner, v)
        else:
            penalty = self.pp is not None and self.pp != winner
            if penalty:  # SCORE-6
                assert self.pp is not None
                pay(self.pp, winner, 2 * v)
            else:
                for loser in losers:
                    pay(loser, winner, v)
            all_three = opt(self.options, "D28") == "all-three"
            if penalty and opt(self.options, "D29") == "all-shares":
                assert self.pp is not None
                pay(self.pp, dreamer, 2 * dv)
                if all_three:
                    pay(winner, dreamer, dv)
            else:
                for payer in losers + ([winner] if all_three else []):
                    pay(payer, dreamer, dv)
        self._end(Result(end, winner, count, d, deltas, self.next_dealer(), True))

    def _end(self, result: Result) -> None:
        self.result = result
        self.phase = "ended"
        self.to_act = None
