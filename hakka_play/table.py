"""A table: one four-hand game on the reference engine, four seats, one view per seat.

The table holds no rule of its own. Legality, Elders, claims and scores come
from :class:`reference_engine.Game`; what a seat may see comes from
``Hand.observation(seat)`` (OBS-1, D32). :meth:`Table.view` is the only
builder of what a seat is sent, and it reads nothing else of the hand but
public facts (hand sizes, tricks, who won each round, scores).

>>> table = Table(humans=[0], profile=Profile(), seed=3)
>>> view = table.view(0)
>>> view["hand"]["phase"], view["seat"], "hands" in view["hand"]
('calling', 0, False)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from random import Random
from typing import Any, Protocol

from reference_engine import SCORE_TABLE, Action, Game, HakkaError, Hand, LegalActions, Profile, SetupError
from reference_engine.events import Discarded, Event, Played, RoundWon
from reference_engine.game import GAME_OVER, HANDS_PER_GAME
from reference_engine.hand import Phase
from reference_engine.wire import observation_json, result_json

from .bots import BOTS, Bot
from .i18n import Msg
from .store import Move, SeatRecord, TableRecord

_SCORE_TABLE = {str(tricks): points for tricks, points in SCORE_TABLE.items()}  # SCORE-1, shown at the end of a hand
DEALS_PER_TABLE = 64
"""Deals prepared for a game (the engine checks them all when the game starts): 4 count (D31); void or
unscored hands take more (a rule-aware table uses 4-10). Should they run out, the table says so and stops."""


class TableError(HakkaError):
    """A message the table refuses before it reaches the engine (wrong seat, hand over, …).

    Its words are a :class:`Msg`, shown in each person's language."""

    kind = "refused"

    def __init__(self, msg: Msg | str, *, rule: str | None = None, seat: int | None = None) -> None:
        self.msg = msg if isinstance(msg, Msg) else Msg(msg)
        super().__init__(str(self.msg), rule=rule, seat=seat)


@dataclass
class Seat:
    index: int
    token: str
    bot: Bot | None
    connections: int = 0
    taken: bool = False
    """A person holds this seat's link (the creator's seat, a redeemed invitation, a seat taken in the lobby)."""
    invite: str = ""
    """The seat's single-use invitation code while nobody has taken it (never its token)."""

    @property
    def human(self) -> bool:
        return self.bot is None


@dataclass
class Round:
    """One round of a hand: where it starts in the history, and who won it (the hand's RoundWon event)."""

    start: int
    winner: int | None = None


@dataclass
class HandRecord:
    hand: Hand
    rounds: list[Round] = field(default_factory=list)


@dataclass(frozen=True)
class BotTurn:
    """A bot's turn at one position of a table: what it may see then, nothing of the live table.

    ``position`` is the table's :attr:`Table.version` when the snapshot was taken; the move
    chosen from it applies only while the table is still there (:meth:`Table.apply_bot`).
    """

    seat: int
    position: int
    bot: Bot
    observation: dict[str, Any]
    legal: LegalActions
    rng: Random

    def choose(self) -> Action:
        return self.bot.choose(self.observation, self.legal, self.rng)


class Journal(Protocol):
    """What a table tells of itself as it changes (the server writes it to its store)."""

    def moved(self, table: Table, n: int, move: Move) -> None: ...

    def seated(self, table: Table, seat: int) -> None: ...


class Table:
    """A game with seats: humans act through their seat tokens, bots when it is their turn.

    ``humans``: the seats people take (the others are bots of ``bot``).
    ``seed``: makes the deals (and the bots' choices) repeatable.
    """

    def __init__(
        self,
        humans: Iterable[int] = (0,),
        profile: Profile | None = None,
        seed: int | None = None,
        bot: str = "rule",
        first_dealer: int = 0,
        bots: dict[int, Bot] | None = None,
        listed: bool = False,
        deals: list[dict[str, Any]] | None = None,
    ) -> None:
        # Lower-case hex, so an id or a token can never spell a card name (Sin9, WanSin) on the page or in a view.
        self.id = secrets.token_hex(8)
        self.profile = profile or Profile()
        self.seed = secrets.randbits(48) if seed is None else seed
        self.rng = Random(self.seed)
        humans = set(humans)
        made: list[dict[str, Any]] = [{"seed": self.rng.randrange(2**48)} for _ in range(DEALS_PER_TABLE)]
        self.deals = made if deals is None else deals
        self.first_dealer = first_dealer
        self.bot_name = bot
        self.game = Game(first_dealer, self.deals, self.profile)
        chosen = bots or {}
        self.seats = [
            Seat(i, secrets.token_hex(24), None if i in humans else chosen.get(i) or BOTS[bot](self.profile))
            for i in range(4)
        ]
        for seat in self.seats:
            seat.invite = secrets.token_hex(12) if seat.human else ""
        self.listed = listed
        """Listed in the lobby: anyone may take a free seat (else by invitation only)."""
        self.current = HandRecord(self.game.hand)
        self.ended: HandRecord | None = None
        """The hand that just ended, shown until every person at the table presses Next hand."""
        self.waiting: set[int] = set()
        self.problem: Msg | str | None = None
        self.version = 0
        self.moves = 0
        """Moves accepted (acts and Next hands): the number the next one is stored under."""
        self.journal: Journal | None = None
        """Told of every accepted move and changed seat before the table's caller is (the server's store)."""
        self._options = self.profile.changed()

    # ------------------------------------------------------------------ keeping

    def record(self) -> TableRecord:
        """What makes this table (not its moves), for a :class:`~hakka_play.store.Store`."""
        return TableRecord(self.id, self.seed, self.first_dealer, dict(self._options), self.deals, self.bot_name,
                           self.listed, [self.seat_record(s.index) for s in self.seats])

    def seat_record(self, seat: int) -> SeatRecord:
        s = self.seats[seat]
        return SeatRecord(s.index, s.human, s.token, s.invite, s.taken)

    @classmethod
    def restore(cls, record: TableRecord) -> Table:
        """The table ``record`` makes, its moves replayed through the engine (:meth:`act`, :meth:`next_hand`).

        A stored move the engine refuses (a database written by another engine version) stops the
        replay there: the table is restored up to it, and its problem says which move was refused.
        The bots' generator starts afresh from the seed and the number of moves (it is not stored).
        """
        humans = [s.seat for s in record.seats if s.human]
        table = cls(humans=humans, profile=Profile.from_options(record.options), seed=record.seed, bot=record.bot,
                    first_dealer=record.first_dealer, listed=record.listed, deals=record.deals)
        table.id = record.id
        for stored in record.seats:
            seat = table.seats[stored.seat]
            seat.token, seat.invite, seat.taken = stored.token, stored.invite, stored.taken
        for n, move in enumerate(record.moves):
            try:
                if move.kind == "act":
                    table.act(move.seat, move.action)
                else:
                    table.next_hand(move.seat)
            except HakkaError as exc:
                table.problem = f"stored move {n} ({move.kind} {move.action} by seat {move.seat}) cannot be replayed: {exc}"
                break
        table.rng = Random(f"{record.seed}/{table.moves}")
        return table

    def _accepted(self, seat: int, kind: str, action: str = "") -> None:
        if self.journal is not None:
            self.journal.moved(self, self.moves, Move(seat, kind, action))
        self.moves += 1

    # ------------------------------------------------------------------ seats

    def seat_of(self, token: object) -> int | None:
        """The person's seat a token opens, comparing in constant time; ``None`` for any other value.

        A bot's seat opens to no token: nobody reads a bot's cards.
        """
        if not isinstance(token, str):
            return None
        found = None
        for seat in self.seats:
            if seat.human and secrets.compare_digest(seat.token.encode(), token.encode()):
                found = seat.index
        return found

    @property
    def humans(self) -> list[int]:
        return [s.index for s in self.seats if s.human]

    @property
    def host(self) -> int | None:
        """The first person's seat: the creator's, whose page offers the invitations."""
        return min(self.humans, default=None)

    def free_seats(self) -> list[int]:
        return [s.index for s in self.seats if s.human and not s.taken]

    def invitations(self) -> list[tuple[int, str]]:
        """(seat, invitation code) of each person's seat nobody has taken yet."""
        return [(s.index, s.invite) for s in self.seats if s.human and not s.taken]

    def take_free(self) -> int | None:
        """Give the first free seat to whoever asks (the creator, or a person of the lobby)."""
        free = self.free_seats()
        if not free:
            return None
        self.occupy(free[0])
        return free[0]

    def occupy(self, seat: int) -> None:
        """Someone holding the seat's token has come: the seat is taken, its invitation void."""
        if self.seats[seat].taken and not self.seats[seat].invite:
            return
        self.seats[seat].taken, self.seats[seat].invite = True, ""
        if self.journal is not None:
            self.journal.seated(self, seat)

    def redeem(self, code: object) -> int | None:
        """The seat an invitation opens, once: the invitation is spent and its seat taken."""
        if not isinstance(code, str) or not code:
            return None
        found = None
        for seat in self.seats:
            if seat.human and not seat.taken and secrets.compare_digest(seat.invite.encode(), code.encode()):
                found = seat
        if found is None:
            return None
        self.occupy(found.index)
        return found.index

    # ------------------------------------------------------------------ acting

    @property
    def over(self) -> bool:
        return self.game.over or self.problem is not None

    @property
    def to_act(self) -> int | None:
        """Whose turn it is; ``None`` while the table waits for Next hand or the game is over."""
        if self.waiting or self.over:
            return None
        return self.game.to_act

    def act(self, seat: int, action: Action | str) -> None:
        """Apply ``seat``'s action; the engine's error (naming its rule) goes back to the caller."""
        if self.over:
            raise TableError(Msg("the game is over"), rule="GAME-1", seat=seat)
        if self.waiting:
            raise TableError(Msg("the hand is over: the table waits for every player to press Next hand"), seat=seat)
        record = self.current
        hand = record.hand
        try:
            events = self.game.apply(seat, action)
        except SetupError as exc:
            # Game.apply refused the move that would need the missing deal: the game is as it was before
            # it (its hand a fresh replay of the same moves), the move is not applied, and the table stops
            # with the problem shown to everyone.
            record.hand = self.game.hand
            self.problem = f"the next deal cannot be made: {exc}"
            self.version += 1
            raise
        self._accepted(seat, "act", str(action))
        self.version += 1
        self._track_rounds(record, events)
        if hand.phase == Phase.ENDED:
            self.ended = record
            self.current = HandRecord(self.game.hand)
            self.waiting = set() if self.over else set(self.humans)

    @staticmethod
    def _track_rounds(record: HandRecord, events: tuple[Event, ...]) -> None:
        """Rounds from the move's events: a play or discard after a won round starts one, a round won ends it."""
        rounds = record.rounds
        for event in events:
            if isinstance(event, (Played, Discarded)) and (not rounds or rounds[-1].winner is not None):
                rounds.append(Round(start=len(record.hand.history) - 1))  # the move's own action, the last one
            elif isinstance(event, RoundWon) and rounds:
                rounds[-1].winner = event.seat

    def next_hand(self, seat: int) -> None:
        """``seat`` has seen the end of the hand; play resumes when every person has."""
        if seat not in self.waiting:
            raise TableError(Msg("there is no ended hand to move on from"), seat=seat)
        self._accepted(seat, "next")
        self.waiting.discard(seat)
        self.version += 1

    def bot_to_act(self) -> int | None:
        seat = self.to_act
        if seat is None or self.seats[seat].bot is None:
            return None
        return seat

    def bot_action(self, seat: int) -> Action:
        """What the bot at ``seat`` chooses, from its own observation and the legal actions only."""
        bot = self.seats[seat].bot
        assert bot is not None
        hand = self.current.hand
        return bot.choose(self._hand_view(self.current, seat), hand.legal_actions(), self.rng)

    def bot_turn(self) -> BotTurn | None:
        """The bot to act, with a snapshot of what it may see, for it to think anywhere (another thread).

        ``None`` when no bot is to act. Nothing of the snapshot is the table's own: the observation is
        built afresh, the legal actions are immutable, and the random generator is a copy of the table's.
        """
        seat = self.bot_to_act()
        if seat is None:
            return None
        bot = self.seats[seat].bot
        assert bot is not None
        rng = Random()
        rng.setstate(self.rng.getstate())
        return BotTurn(seat, self.version, bot, self._hand_view(self.current, seat),
                       self.current.hand.legal_actions(), rng)

    def still(self, turn: BotTurn) -> bool:
        """The table is where ``turn`` was taken: nothing has moved since (same version, same bot to act)."""
        return self.version == turn.position and self.bot_to_act() == turn.seat

    def apply_bot(self, turn: BotTurn, action: Action) -> bool:
        """Apply the move ``turn``'s bot chose, if the table is still where the bot thought it was.

        ``False`` (nothing changed) when the table has moved on since: the move is stale and dropped.
        Applied, the table's generator continues from the bot's copy, as if the bot had drawn from it.
        An engine's refusal goes back to the caller, as from :meth:`act`.
        """
        if not self.still(turn):
            return False
        self.act(turn.seat, action)
        self.rng.setstate(turn.rng.getstate())
        return True

    def play_bots(self, limit: int = 10_000) -> int:
        """Let the bots act until a person must act (or the game ends); return how many actions."""
        done = 0
        while done < limit:
            seat = self.bot_to_act()
            if seat is None:
                return done
            self.act(seat, self.bot_action(seat))
            done += 1
        return done

    # ------------------------------------------------------------------ views

    def _hand_view(self, record: HandRecord, seat: int) -> dict[str, Any]:
        hand = record.hand
        obs = observation_json(hand.observation(seat))
        history = obs["history"]
        assert isinstance(history, list)
        rounds = record.rounds
        # each round as where it starts in the history (its plays are history[start:start + 3]) and its winner
        obs["rounds"] = [{"start": r.start, "winner": r.winner} for r in rounds]
        obs["round"] = history[rounds[-1].start:] if rounds and rounds[-1].winner is None else []
        if seat != hand.dreamer:
            obs["claim_count"] = hand.claim_count(seat)  # CLAIM-1: tricks plus Elders in this seat's hand
        return obs

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` is sent: its own observation and the table's public facts."""
        game = self.game
        record = self.ended if (self.waiting or self.over) and self.ended is not None else self.current
        hand_view = self._hand_view(record, seat)
        if self.to_act is None:
            hand_view["legal"] = None  # nobody acts while the table waits
        return {
            "type": "view",
            "version": self.version,
            "table": self.id,
            "seat": seat,
            "seats": [
                {"seat": s.index, "human": s.human, "name": "you" if s.index == seat else
                 ("player" if s.human else s.bot.name if s.bot else ""), "online": s.connections > 0}
                for s in self.seats
            ],
            "options": dict(self._options),
            "game": {
                "scores": list(game.scores),
                "hands_played": game.hands_played,
                "hands_per_game": HANDS_PER_GAME,
                "over": game.phase == GAME_OVER,
                "results": [result_json(r) for r in game.results],
            },
            "hand": hand_view,
            "waiting": sorted(self.waiting),
            "ended": record is self.ended and bool(self.waiting or self.over),
            "problem": self.problem,
            "score_table": _SCORE_TABLE,
        }
