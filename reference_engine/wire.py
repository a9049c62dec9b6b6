"""The reference engine's side of the conformance protocol (spec/PROTOCOL.md).

Pure: a :class:`Session` turns one request dict into one response dict, with
no I/O. ``python -m reference_engine`` wraps it in the line-delimited JSON
loop; the conformance runner's in-process adapter calls it directly.

Every request is checked against the shape its JSON Schema gives
(``spec/schema/protocol/*.request.schema.json``; a test keeps the two in
step) before anything else happens, and a refused request of any kind leaves
the session as it was.

>>> s = Session()
>>> s.handle({"cmd": "hello", "protocol": 2})["engine"]["name"]
'hakka-reference'
>>> s.handle({"cmd": "pattern", "classify": "Sup3 Sup4 Sup5"})
{'ok': True, 'pattern': 'run'}
>>> s.handle({"cmd": "observe", "seat": True})["error"]["kind"]
'malformed'
"""

from __future__ import annotations

import random
import re
import traceback
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from . import __version__
from .actions import DISCARD, Action, LegalActions
from .cards import NAMES, Cards, indices, mask_text, parse_card_index
from .errors import HakkaError, IllegalActionError, MalformedError, SetupError
from .events import Event
from .game import Game, deal_hand
from .hand import Hand, Phase
from .observation import Observation, Seen
from .patterns import INITIAL_ELDERS, tables_for
from .perft import perft_counts, perft_divide
from .premises import premise_problem
from .profile import DEFAULT_PROFILE, Profile
from .rules import DEFAULT_RULES, Rules
from .scoring import HandResult

PROTOCOL_VERSION: Final = 2
PROTOCOL_VERSIONS: Final = (1, 2)
"""Versions the reference speaks; a runner asks for one in ``hello``."""

CAPABILITIES: Final = ("hands", "deck", "seed", "game", "observe", "pattern", "count", "divide", "batch", "playout",
                       "events")
"""What the reference offers under protocol 2 (the vocabulary is in hello.response.schema.json)."""
CAPABILITIES_V1: Final = ("pattern", "count", "observe", "game")
MAX_SEED: Final = 2**64 - 1
MAX_DEPTH: Final = 8
MAX_PLAYOUT_STEPS: Final = 100_000
"""A playout's bound on actions: far beyond any game (a hand ends within about 60), a guard against a bug."""
Message = dict[str, Any]


def _error(kind: str, message: str, rule: str | None = None) -> Message:
    error: Message = {"kind": kind, "message": message}
    if rule:
        error["rule"] = rule
    return {"ok": False, "error": error}


# ---------------------------------------------------------------- request shapes
# One checker per field type of spec/schema/protocol/common.schema.json. Each
# returns why a value does not fit, or None. The engine has no JSON Schema
# library (standard library only), so the shapes are written out here and
# tests/engine/test_wire.py checks them against the schema files.

Check = Callable[[Any], "str | None"]
_DECISION = re.compile(r"D[1-9][0-9]*\Z")
_OPTION = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_DECIMAL = re.compile(r"(?:0|[1-9][0-9]{0,19})\Z")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value: Any) -> str | None:
    return None if _is_int(value) and 0 <= value <= 3 else f"a seat is an integer 0-3, not {value!r}"


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else f"expected a string, not {type(value).__name__}"


def _card_text(value: Any) -> str | None:
    """Card text as a person may write it (common.schema.json#/$defs/anyCards): every word a card."""
    if not isinstance(value, str):
        return f"expected card text, not {type(value).__name__}"
    words = value.split()
    if not words:
        return "expected at least one card"
    for word in words:
        try:
            parse_card_index(word)
        except MalformedError as exc:
            return exc.message
    return None


def _elders(value: Any) -> str | None:
    return None if value == "" else _card_text(value)


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"expected true or false, not {value!r}"


def _options(value: Any) -> str | None:
    if not isinstance(value, Mapping):
        return "options map decision IDs to option IDs"
    for decision, option in value.items():
        if not isinstance(decision, str) or not _DECISION.match(decision):
            return f"{decision!r} is not a decision ID (D1, D2, …)"
        if not isinstance(option, str) or not _OPTION.match(option):
            return f"{option!r} is not an option ID"
    return None


def _seed(value: Any) -> str | None:
    if _is_int(value) and 0 <= value <= MAX_SEED:
        return None
    if isinstance(value, str) and _DECIMAL.match(value) and int(value) <= MAX_SEED:
        return None
    return f"a seed is a decimal string (or, in protocol 1, an integer) 0 to 2^64-1, not {value!r}"


def _card_lists(value: Any) -> str | None:
    if not isinstance(value, list) or len(value) != 4:
        return "hands is a list of 4 card lists"
    for seat, holding in enumerate(value):
        problem = _card_text(holding)
        if problem:
            return f"seat {seat}: {problem}"
    return None


_DEAL_FIELDS: Final[dict[str, Check]] = {"hands": _card_lists, "deck": _card_text, "seed": _seed}


def _deal(value: Any, extra: Mapping[str, Check] | None = None) -> str | None:
    fields = {**_DEAL_FIELDS, **(extra or {})}
    if not isinstance(value, Mapping):
        return "a deal is an object"
    problem = _fields(value, fields, required=tuple(extra or ()))
    if problem:
        return problem
    given = [k for k in _DEAL_FIELDS if k in value]
    if len(given) != 1:
        return "a deal has exactly one of hands, deck or seed"
    return None


def _deals(value: Any) -> str | None:
    if not isinstance(value, list) or not value:
        return "deals is a non-empty list"
    for i, deal in enumerate(value):
        problem = _deal(deal)
        if problem:
            return f"deals[{i}]: {problem}"
    return None


def _game(value: Any) -> str | None:
    if not isinstance(value, Mapping):
        return "game is an object"
    return _fields(value, {"first_dealer": _seat, "deals": _deals}, required=("first_dealer", "deals"))


def _setup(value: Any) -> str | None:
    if isinstance(value, Mapping) and "game" in value:
        return _fields(value, {"game": _game}, required=("game",))
    return _deal(value, {"dealer": _seat})


def _depth(value: Any) -> str | None:
    return None if _is_int(value) and value >= 1 else f"depth is an integer of at least 1, not {value!r}"


def _protocol(value: Any) -> str | None:
    return None if _is_int(value) and value >= 1 else f"protocol is an integer version, not {value!r}"


def _fields(message: Mapping[str, Any], fields: Mapping[str, Check], required: tuple[str, ...] = ()) -> str | None:
    for name in message:
        if name not in fields:
            return f"unknown field {name!r}"
    for name in required:
        if name not in message:
            return f"missing field {name!r}"
    for name, check in fields.items():
        if name in message:
            problem = check(message[name])
            if problem:
                return f"{name}: {problem}"
    return None


_REQUESTS: Final[dict[str, tuple[dict[str, Check], tuple[str, ...]]]] = {
    "hello": ({"protocol": _protocol}, ("protocol",)),
    "start": ({"setup": _setup, "options": _options}, ("setup",)),
    "act": ({"seat": _seat, "action": _text}, ("seat", "action")),
    "state": ({}, ()),
    "observe": ({"seat": _seat}, ("seat",)),
    "pattern": ({"options": _options, "classify": _card_text, "current": _card_text, "challenger": _card_text,
                 "elders": _elders, "led": _boolean}, ()),
    "count": ({"depth": _depth, "divide": _boolean}, ("depth",)),
    "stop": ({}, ()),
}


def request_problem(message: Any) -> str | None:
    """Why ``message`` is not a request of the protocol, or ``None`` when it is one."""
    if not isinstance(message, Mapping):
        return "a request must be a JSON object"
    cmd = message.get("cmd")
    if not isinstance(cmd, str) or cmd not in _REQUESTS:
        return None  # answered `unsupported` by the dispatcher
    fields, required = _REQUESTS[cmd]
    problem = _fields(message, {"cmd": _text, **fields}, required)
    if problem is None and cmd == "pattern":
        if "classify" in message:
            if any(k in message for k in ("current", "challenger")):
                problem = "classify is asked alone, without current or challenger"
        elif not all(k in message for k in ("current", "challenger", "elders", "led")):
            problem = "a beats question needs current, challenger, elders and led"
    return None if problem is None else f"bad {cmd} request: {problem}"


class Session:
    """One conversation with a runner: at most one hand or game at a time.

    ``rules`` lets a variant engine (see :class:`~reference_engine.rules.Rules`)
    speak the protocol through the same code.
    """

    name = "hakka-reference"
    count_node_limit: int | None = None
    """A bound on the positions one ``count`` may visit (``None``: no bound)."""

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        self.rules = rules
        self.protocol = PROTOCOL_VERSION
        self.profile = DEFAULT_PROFILE
        self._hand: Hand | None = None
        self.game: Game | None = None
        self._handlers: dict[str, Callable[[Message], Message]] = {
            "hello": self._hello,
            "start": self._start,
            "act": self._act,
            "state": self._state,
            "observe": self._observe,
            "pattern": self._pattern,
            "count": self._count,
            "stop": lambda _m: {"ok": True},
            "batch": self._batch,
        }

    @property
    def hand(self) -> Hand | None:
        """The hand in play: a game's current hand, or the single hand started."""
        return self.game.hand if self.game is not None else self._hand

    def handle(self, message: Mapping[str, Any]) -> Message:
        """Answer one request; never raises. An error leaves the session unchanged."""
        problem = request_problem(message)
        if problem is not None:
            return _error("malformed", problem)
        handler = self._handlers.get(message.get("cmd"))  # type: ignore[arg-type]
        if handler is None:
            return _error("unsupported", f"unknown cmd {message.get('cmd')!r}")
        try:
            return handler(dict(message))
        except HakkaError as exc:
            return _error(exc.kind, str(exc), exc.rule)
        except Exception as exc:  # noqa: BLE001 - an engine bug is the engine's error, not the caller's
            return _error("internal", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")

    # ------------------------------------------------------------ commands

    def _hello(self, message: Message) -> Message:
        version = message["protocol"]
        if version not in PROTOCOL_VERSIONS:
            return _error("unsupported", f"the reference speaks protocol {' or '.join(map(str, PROTOCOL_VERSIONS))}, "
                                         f"not {version}")
        self.protocol = version
        return {
            "ok": True,
            "protocol": version,
            "engine": {"name": self.name, "version": __version__, "language": "python"},
            "options": DEFAULT_PROFILE.options(),
            "configurable": True,
            "capabilities": list(CAPABILITIES if version >= 2 else CAPABILITIES_V1),
        }

    def _profile(self, message: Message) -> Profile:
        return self.rules.profile(Profile.from_options(message.get("options") or {}))

    def _start(self, message: Message) -> Message:
        profile = self._profile(message)
        setup = message["setup"]
        # Build everything first: a refused start leaves the hand in play as it was.
        if "game" in setup:
            spec = setup["game"]
            game = Game(spec["first_dealer"], [_int_seed(d) for d in spec["deals"]], profile, rules=self.rules)
            hand = game.hand
        else:
            game = None
            deal = _int_seed({k: v for k, v in setup.items() if k != "dealer"})
            hand = deal_hand(setup["dealer"], deal, profile, rules=self.rules)
        self._hand, self.game, self.profile = hand, game, profile
        return {"ok": True}

    def _current(self) -> Hand:
        if self.hand is None:
            raise IllegalActionError("no hand or game yet: send start first", rule="GAME-2")
        return self.hand

    def _act(self, message: Message) -> Message:
        hand = self._current()
        seat, action = message["seat"], message["action"]
        events = self.game.apply(seat, action) if self.game is not None else hand.apply(seat, action)
        return self._acted(events)

    def _acted(self, events: tuple[Event, ...]) -> Message:
        """An accepted ``act``'s answer: with its events under protocol 2 (capability ``events``)."""
        return {"ok": True, "events": events_json(events)} if self.protocol >= 2 else {"ok": True}

    def _result(self) -> Message | None:
        """A single hand's result once it ended; in a game, the most recent ended hand's (or null)."""
        if self.game is not None:
            return result_json(self.game.results[-1]) if self.game.results else None
        hand = self._current()
        return None if hand.result is None else result_json(hand.result)

    def _phase(self) -> str:
        return str(self.game.phase if self.game is not None else self._current().phase)

    def _state(self, message: Message) -> Message:
        hand = self._current()
        game = self.game
        phase = self._phase()
        over = game is not None and game.over
        state: Message = {
            "ok": True,
            "phase": phase,
            "to_act": None if over else hand.to_act,
            "legal": {"actions": [], "discard": None} if over else legal_json(hand.legal_actions()),
            "dealer": hand.dealer,
            "dreamer": hand.dreamer,
            "privileged": hand.privileged,
            "hands": [str(hand.hand_of(s)) for s in range(4)],
            "elders": mask_text(hand.elders),
            "tricks": list(hand.tricks),
            "round": self._round(hand, phase),
            "result": self._result(),
            "game": None,
        }
        if game is not None:
            state["game"] = {
                "hand": game.hands_played + (0 if game.over else 1),
                "hands_played": game.hands_played,
                "deals": game.deal_index + 1,
                "scores": list(game.scores),
                "results": [result_json(r) for r in game.results],
            }
        return state

    @staticmethod
    def _round(hand: Hand, phase: str) -> Message | None:
        """The round in progress: defined in phase ``playing`` only, ``null`` in every other phase."""
        if phase != Phase.PLAYING:
            return None
        return {"leader": hand.leader, "plays": [{"seat": p.seat, "action": str(p.action)} for p in hand.plays]}

    def _observe(self, message: Message) -> Message:
        observation = observation_json(self._current().observation(message["seat"]))
        observation["phase"] = self._phase()
        observation["result"] = self._result()
        if self.game is not None and self.game.over:
            observation["to_act"], observation["legal"] = None, None
        return {"ok": True, "observation": observation}

    def _pattern(self, message: Message) -> Message:
        rules, tables = self.rules, tables_for(self._profile(message))
        if "classify" in message:
            kind, _rank = rules.classify(tables, Cards.parse(message["classify"]).mask)
            return {"ok": True, "pattern": kind.value}
        elders = message.get("elders")
        elder_mask = INITIAL_ELDERS if elders is None else Cards.parse(elders).mask
        challenger = Cards.parse(message["challenger"]).mask
        current = Cards.parse(message["current"]).mask
        problem = premise_problem(current, challenger, elder_mask)
        if problem is not None:
            raise SetupError(f"no hand reaches this question: {problem}", rule="ELD-2")
        return {"ok": True, "beats": rules.beats(tables, challenger, current, bool(current & elder_mask))}

    def _batch(self, message: Message) -> Message:
        """``start`` then, per step, ``act`` and ``state`` (and ``observe`` for every seat), in one answer;
        with ``playout``, then random legal actions to the end of the hand or game.

        The answers are exactly those of the same requests sent one by one
        (spec/PROTOCOL.md, "batch" and "playout"), so a runner can compare them
        step by step.
        """
        steps, observe, states, playout = _batch_fields(message)
        start: Message = {"cmd": "start", "setup": message["setup"]}
        if "options" in message:
            start["options"] = message["options"]
        answer: Message = {"ok": True, "start": self.handle(start), "steps": []}
        if not answer["start"]["ok"]:
            if playout is not None:
                answer["choices"] = []
            return answer
        every_state, every_observe = states == "every", observe == "every"
        handle = self.handle  # every answer through handle, as if asked alone (a variant's handle sees it too)

        def answered(entry: Message) -> Message:
            if every_state:
                entry["state"] = handle({"cmd": "state"})
            if every_observe:
                entry["observations"] = [handle({"cmd": "observe", "seat": seat}) for seat in range(4)]
            return entry

        entries: list[Message] = answer["steps"]
        entries.append(answered({}))
        for step in steps:
            entries.append(answered({"act": handle({"cmd": "act", "seat": step["seat"], "action": step["action"]})}))
        if playout is not None:
            for seat, action, events in playout.play(self):
                entries.append(answered({"act": self._acted(events), "step": {"seat": seat, "action": action}}))
            answer["choices"] = playout.choices
        last = entries[-1]
        if "state" not in last:
            last["state"] = handle({"cmd": "state"})
        if observe == "last":
            last["observations"] = [handle({"cmd": "observe", "seat": seat}) for seat in range(4)]
        return answer

    def _count(self, message: Message) -> Message:
        depth = message["depth"]
        if depth > MAX_DEPTH:
            return _error("unsupported", f"the reference counts to depth {MAX_DEPTH} at most, not {depth}")
        hand = self._current().copy()
        answer: Message = {"ok": True, "counts": perft_counts(hand, depth, self.count_node_limit)}
        if message.get("divide"):
            answer["divide"] = perft_divide(hand, depth, self.count_node_limit)
        return answer


def _batch_fields(message: Message) -> tuple[list[Mapping[str, Any]], str, str, _Playout | None]:
    """A batch request's steps, observe and state modes, and playout; MalformedError if one is not as defined."""
    steps, observe, states = message["steps"], message.get("observe", "none"), message.get("state", "every")
    if not isinstance(steps, list) or not all(isinstance(s, Mapping) and set(s) == {"seat", "action"} for s in steps):
        raise MalformedError("batch steps must be a list of {seat, action}")
    if observe not in ("every", "last", "none"):
        raise MalformedError(f"batch observe is every, last or none, not {observe!r}")
    if states not in ("every", "last"):
        raise MalformedError(f"batch state is every or last, not {states!r}")
    unknown = set(message) - {"cmd", "options", "setup", "steps", "observe", "state", "playout"}
    if unknown:
        raise MalformedError(f"bad batch request: unknown field {sorted(unknown)[0]!r}")
    playout = _Playout.from_request(message["playout"]) if "playout" in message else None
    return steps, observe, states, playout


class _Playout:
    """The random player of a ``batch`` with ``playout`` (spec/PROTOCOL.md, "Playout").

    Every choice is a *draw* below some ``n``: the next given choice modulo
    ``n``; past the given ones, a number from ``random.Random(seed)``; with no
    seed, 0. A draw below 1 is 0 and uses no random number. Each action takes
    one draw over the legal actions in the order ``state`` lists them, plus one
    slot for the discard option when there is one; a discard then takes one
    draw per card over the option's cards still unchosen, in canonical order.
    """

    def __init__(self, given: list[int], seed: int | None) -> None:
        self.given = given
        self.rng = None if seed is None else random.Random(seed)
        self.choices: list[int] = []

    @classmethod
    def from_request(cls, value: Any) -> _Playout:
        if not isinstance(value, Mapping) or set(value) - {"choices", "seed"}:
            raise MalformedError("batch playout is an object with choices and seed")
        given = value.get("choices", [])
        if not isinstance(given, list) or not all(_is_int(c) and c >= 0 for c in given):
            raise MalformedError("playout choices are a list of integers of at least 0")
        seed = value.get("seed")
        if seed is not None and _seed(seed) is not None:
            raise MalformedError(f"playout seed: {_seed(seed)}")
        return cls(list(given), None if seed is None else int(seed))

    def draw(self, n: int) -> int:
        i = len(self.choices)
        if n <= 1:
            value = 0
        elif i < len(self.given):
            value = self.given[i] % n
        elif self.rng is not None:
            value = self.rng.randrange(n)
        else:
            value = 0
        self.choices.append(value)
        return value

    def play(self, session: Session) -> Iterator[tuple[int, str, tuple[Event, ...]]]:
        """Take random legal actions in ``session`` until nobody is to act; yield each (seat, action text, events)."""
        game = session.game
        for _ in range(MAX_PLAYOUT_STEPS):
            hand = session._current()
            seat = hand.to_act if game is None or not game.over else None
            if seat is None:
                return
            legal = hand.legal_actions()
            actions = legal.sorted()
            option = legal.discard
            pick = self.draw(len(actions) + (option is not None))
            if pick < len(actions):
                action = actions[pick]
            else:
                assert option is not None
                pool = list(indices(option.allowed))
                mask = 0
                for _card in range(option.count):
                    mask |= 1 << pool.pop(self.draw(len(pool)))
                action = Action(DISCARD, mask)
            events = game.apply(seat, action) if game is not None else hand.apply(seat, action)
            yield seat, str(action), events
        raise RuntimeError(f"a playout did not end within {MAX_PLAYOUT_STEPS} actions")


def _int_seed(deal: Mapping[str, Any]) -> dict[str, Any]:
    """A deal with its seed as an integer (protocol 2 sends decimal strings, protocol 1 integers)."""
    out = dict(deal)
    if isinstance(out.get("seed"), str):
        out["seed"] = int(out["seed"])
    return out


# ---------------------------------------------------------------- JSON shaping
# The engine returns typed values; these give their wire form (spec/PROTOCOL.md).


def legal_json(legal: LegalActions) -> dict[str, Any]:
    """The wire form of legal actions."""
    return {
        "actions": [str(a) for a in legal.sorted()],
        "discard": None
        if legal.discard is None
        else {"count": legal.discard.count, "from": mask_text(legal.discard.allowed)},
    }


def result_json(result: HandResult) -> dict[str, Any]:
    """The wire form of a hand's result."""
    return {
        "end": result.end,
        "winner": result.winner,
        "tricks": result.tricks,
        "dreamer_count": result.dreamer_count,
        "deltas": list(result.deltas),
        "next_dealer": result.next_dealer,
        "counts": result.counts,
    }


def events_json(events: tuple[Event, ...]) -> list[str]:
    """The wire form of a move's events: their text (spec/PROTOCOL.md, "Events")."""
    return [str(e) for e in events]


def _seen_json(seen: Seen) -> dict[str, Any]:
    seat, action, count = seen
    if action is None:
        return {"seat": seat, "action": "discard", "count": count}
    return {"seat": seat, "action": str(action)}


def observation_json(observation: Observation) -> dict[str, Any]:
    """The wire form of an observation (``observe``)."""
    o = observation
    return {
        "seat": o.seat,
        "phase": o.phase.value,
        "to_act": o.to_act,
        "dealer": o.dealer,
        "dreamer": o.dreamer,
        "privileged": o.privileged,
        "hand": mask_text(o.hand.mask),
        "hand_sizes": list(o.hand_sizes),
        "dreamer_card": None if o.dreamer_card is None else NAMES[o.dreamer_card],
        "history": [_seen_json(s) for s in o.history],
        "tricks": list(o.tricks),
        "elders": mask_text(o.elders.mask),
        "legal": None if o.legal is None else legal_json(o.legal),
        "result": None if o.result is None else result_json(o.result),
    }
