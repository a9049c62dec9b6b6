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
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from random import Random
from typing import Any, Protocol

from reference_engine import SCORE_TABLE, Action, Cards, Game, HakkaError, Hand, LegalActions, Profile, SetupError
from reference_engine.events import Discarded, Event, Played, RoundWon
from reference_engine.game import GAME_OVER, HANDS_PER_GAME
from reference_engine.hand import Phase
from reference_engine.wire import observation_json, result_json

from .bots import BOTS, Bot
from .i18n import Msg
from .store import GameRecord, Move, SeatRecord, TableRecord

_SCORE_TABLE = {str(tricks): points for tricks, points in SCORE_TABLE.items()}  # SCORE-1, shown at the end of a hand
NAME_MAX = 24
"""The longest display name a seat may carry (characters); a longer one is cut there."""
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
    name: str = ""
    """The display name the person chose ("" for none); a bot's seat shows its bot's name instead."""
    away: bool = False
    """The turn clock ran out on this person: :attr:`standin` plays for them until they come back."""
    standin: Bot | None = None
    left_at: int | None = None
    """The person left the table when it had accepted this many moves; a bot has held the seat since."""

    @property
    def human(self) -> bool:
        return self.bot is None

    @property
    def player(self) -> Bot | None:
        """Who chooses this seat's moves when it is to act: its bot, the stand-in of an away person, or a person."""
        return self.bot or (self.standin if self.away else None)


def clean_name(name: object) -> str:
    """A display name as shown: printable characters only, spaces collapsed, at most :data:`NAME_MAX` long.

    It is text, never markup: every page writes it with ``textContent``.

    >>> clean_name("  Ada\\u202e  <b>Lovelace</b>\\n"), clean_name(42), len(clean_name("x" * 99))
    ('Ada <b>Lovelace</b>', '', 24)
    """
    if not isinstance(name, str):
        return ""
    kept = "".join(" " if c.isspace() else c for c in name if c.isspace() or unicodedata.category(c)[0] != "C")
    # controls and format marks (a bidi override, say) dropped, any space (a newline) one space
    return " ".join(kept.split())[:NAME_MAX]


@dataclass
class Round:
    """One round of a hand: where it starts in the history, and who won it (the hand's RoundWon event)."""

    start: int
    winner: int | None = None


@dataclass
class Step:
    """An accepted action of a hand and the events the engine said it caused (written as text, spec/PROTOCOL.md,
    only when the game is kept)."""

    seat: int
    action: Action
    events: tuple[Event, ...]


@dataclass
class HandRecord:
    hand: Hand
    rounds: list[Round] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    """Every accepted action of this hand, in order, with its events: what a kept game is made of."""


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

    def finished(self, table: Table) -> None: ...


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
        turn_seconds: float | None = None,
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
        self.turn_seconds = turn_seconds
        """The turn clock (``None``: off): a person who has not acted this long is played for by a bot."""
        self.deadline: float | None = None
        """When the running clock ends (the server's monotonic clock), ``None`` when none runs: set by the server."""
        self.watch = secrets.token_hex(24)
        """The spectators' token: it opens the table's public view, never a seat."""
        self.game_id = secrets.token_hex(8)
        """The finished game's id (its page, /game/ID): not the table's, so that a listed table's id shows no game."""
        self.kept_link: str | None = None
        """The finished game's page, once the server's store has kept it."""
        self.current = HandRecord(self.game.hand)
        self.hands: list[HandRecord] = [self.current]
        """Every hand dealt so far, the current one last."""
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
                           self.listed, [self.seat_record(s.index) for s in self.seats],
                           turn_seconds=self.turn_seconds, watch=self.watch, game_id=self.game_id)

    def seat_record(self, seat: int) -> SeatRecord:
        s = self.seats[seat]
        return SeatRecord(s.index, s.human, s.token, s.invite, s.taken, s.name, s.left_at)

    @classmethod
    def restore(cls, record: TableRecord) -> Table:
        """The table ``record`` makes, its moves replayed through the engine (:meth:`act`, :meth:`next_hand`).

        A stored move the engine refuses (a database written by another engine version) stops the
        replay there: the table is restored up to it, and its problem says which move was refused.
        The bots' generator starts afresh from the seed and the number of moves (it is not stored).
        """
        humans = [s.seat for s in record.seats if s.human or s.left_at is not None]
        table = cls(humans=humans, profile=Profile.from_options(record.options), seed=record.seed, bot=record.bot,
                    first_dealer=record.first_dealer, listed=record.listed, deals=record.deals,
                    turn_seconds=record.turn_seconds)
        table.id = record.id
        table.watch = record.watch or table.watch
        table.game_id = record.game_id or table.game_id
        for stored in record.seats:
            seat = table.seats[stored.seat]
            seat.token, seat.invite, seat.taken, seat.name = stored.token, stored.invite, stored.taken, stored.name
        leaving = {s.left_at: s.seat for s in record.seats if s.left_at is not None}
        for n, move in enumerate([*record.moves, None]):
            if n in leaving:  # the person left before this move: a bot holds the seat from here on
                table.leave(leaving.pop(n))
            if move is None:
                break
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

    def watching(self, token: object) -> bool:
        """The spectators' token (compared in constant time)."""
        return isinstance(token, str) and secrets.compare_digest(self.watch.encode(), token.encode())

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

    def name(self, seat: int, name: object) -> None:
        """The person at ``seat`` is shown as ``name`` (cleaned by :func:`clean_name`; "" shows none)."""
        self.seats[seat].name = clean_name(name)
        self.version += 1
        if self.journal is not None:
            self.journal.seated(self, seat)

    def leave(self, seat: int) -> None:
        """The person at ``seat`` leaves for good: a bot of the table's kind takes the seat, and their link opens nothing."""
        s = self.seats[seat]
        if not s.human:
            raise TableError(Msg("seat {seat} is not a person's: there is nobody to leave", seat=seat), seat=seat)
        s.bot, s.away, s.standin, s.left_at, s.invite = BOTS[self.bot_name](self.profile), False, None, self.moves, ""
        self.waiting.discard(seat)
        self.version += 1
        if self.journal is not None:
            self.journal.seated(self, seat)

    def away(self, seat: int) -> None:
        """The clock ran out on the person at ``seat``: a bot plays for them until :meth:`back`."""
        s = self.seats[seat]
        if s.human and not s.away:
            s.standin = s.standin or BOTS[self.bot_name](self.profile)
            s.away = True
            self.version += 1

    def back(self, seat: int) -> bool:
        """The person at ``seat`` is back (they connected or sent a message): the seat is theirs again."""
        s = self.seats[seat]
        if not s.away:
            return False
        s.away = False
        self.version += 1
        return True

    def clock_seats(self) -> list[int]:
        """The people the turn clock runs for now: the one to act, or those yet to press Next hand (away ones
        excepted: their stand-in acts at once)."""
        if not self.turn_seconds or self.over:
            return []
        if self.waiting:
            return sorted(self.waiting)
        seat = self.to_act
        return [] if seat is None or self.seats[seat].player is not None else [seat]

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
        record.steps.append(Step(seat, hand.history[-1][1], events))
        if hand.phase == Phase.ENDED:
            self.ended = record
            if not self.game.over:
                self.current = HandRecord(self.game.hand)
                self.hands.append(self.current)
            self.waiting = set() if self.over else set(self.humans)
            if self.game.over and self.journal is not None:
                self.journal.finished(self)

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

    def next_for_away(self) -> list[int]:
        """Press Next hand for every away person the table waits for (each an accepted move); return their seats."""
        pressed = [s for s in sorted(self.waiting) if self.seats[s].away and not self.over]
        for seat in pressed:
            self.next_hand(seat)
        return pressed

    def bot_to_act(self) -> int | None:
        """The seat to act when a bot chooses its move: a bot's seat, or an away person's (their stand-in)."""
        seat = self.to_act
        if seat is None or self.seats[seat].player is None:
            return None
        return seat

    def bot_action(self, seat: int) -> Action:
        """What the bot at ``seat`` chooses, from its own observation and the legal actions only."""
        bot = self.seats[seat].player
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
        bot = self.seats[seat].player
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

    def _hand_view(self, record: HandRecord, seat: int | None) -> dict[str, Any]:
        hand = record.hand
        obs = self._public_observation(hand) if seat is None else observation_json(hand.observation(seat))
        history = obs["history"]
        assert isinstance(history, list)
        rounds = record.rounds
        # each round as where it starts in the history (its plays are history[start:start + 3]) and its winner
        obs["rounds"] = [{"start": r.start, "winner": r.winner} for r in rounds]
        obs["round"] = history[rounds[-1].start:] if rounds and rounds[-1].winner is None else []
        if seat is not None and seat != hand.dreamer:
            obs["claim_count"] = hand.claim_count(seat)  # CLAIM-1: tricks plus Elders in this seat's hand
        return obs

    @staticmethod
    def _public_observation(hand: Hand) -> dict[str, Any]:
        """What anyone may know of ``hand`` (a spectator's view): the Dreamer's observation, since the Dreamer
        sits out and so made no face-down discard (every discard in it is a count, PLAY-5), without the
        Dreamer's own card, which shows only when another seat's observation shows it (SCORE-4, OBS-1)."""
        obs = observation_json(hand.observation(hand.dreamer))
        other = observation_json(hand.observation((hand.dreamer + 1) % 4))
        obs.update(seat=None, hand="", dreamer_card=other["dreamer_card"], legal=None)
        return obs

    def view(self, seat: int | None, now: float = 0.0) -> dict[str, Any]:
        """Everything ``seat`` is sent: its own observation and the table's public facts; ``None``: a spectator's,
        the public facts alone."""
        game = self.game
        record = self.ended if (self.waiting or self.over) and self.ended is not None else self.current
        hand_view = self._hand_view(record, seat)
        if self.to_act is None or seat is None or self.seats[seat].away:
            hand_view["legal"] = None  # nobody acts while the table waits; an away person's bot acts for them
        return {
            "type": "view",
            "version": self.version,
            "table": self.id,
            "seat": seat,
            "seats": [
                {"seat": s.index, "human": s.human, "name": "you" if s.index == seat else
                 ("player" if s.human else s.bot.name if s.bot else ""), "online": s.connections > 0,
                 "display": s.name or None, "away": s.away, "left": s.left_at is not None}
                for s in self.seats
            ],
            "clock": {"seconds": self.turn_seconds, "seats": self.clock_seats(),
                      "ends_in": None if self.deadline is None else max(0.0, self.deadline - now)}
            if self.turn_seconds else None,
            "kept": self.kept_link,
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

    # ------------------------------------------------------------------ a finished game, kept

    def kept(self, finished: float) -> GameRecord:
        """The finished game as the store keeps it: its options, seed, deals, each hand's deal and steps with
        their events, the people's names and the scores."""
        hands = []
        for record in self.hands:
            hand = record.hand
            hands.append({"dealer": hand.dealer, "hands": [str(Cards(mask)) for mask in hand.dealt],
                          "steps": [{"seat": st.seat, "do": str(st.action), "events": [str(e) for e in st.events]}
                                    for st in record.steps],
                          "result": result_json(hand.result) if hand.result is not None else None})
        seats = [{"name": s.name, "bot": s.bot.name if s.bot is not None and s.left_at is None else None,
                  "left": s.left_at is not None} for s in self.seats]
        return GameRecord(self.game_id, self.id, finished, dict(self._options), self.seed, self.first_dealer,
                          self.deals[:len(self.hands)], seats, list(self.game.scores), hands)
