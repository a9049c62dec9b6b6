"""A protocol session: one request dict in, one response dict out, no I/O (spec/PROTOCOL.md).

Every request goes through the same steps, in this order, and the first that
refuses it answers (PROTOCOL.md, "Which error wins"):

1. a JSON object with a known ``cmd`` (else ``malformed``, or ``unsupported``
   for an unknown command);
2. a command of the session's protocol version (``unsupported``), or, before
   ``hello``, of version 1 (``illegal``: send ``hello`` first);
3. the shape of its JSON Schema (``malformed``);
4. its optional parts (``divide``, ``playout``) known to the version (``unsupported``; before ``hello``,
   ``illegal``);
5. the command's handler: the rules (``bad-setup``, ``illegal``) and the
   engine's bounds on one request's work (``unsupported``, naming the bound).

A refused request of any kind leaves the session as it was. An engine fault
answers ``internal`` with a short reference; its traceback goes to
:attr:`Session.faults` (and ``python -m reference_engine`` writes it to stderr),
never into the answer.
"""

from __future__ import annotations

import traceback
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

from .. import __version__
from .._mypyc import mypyc_attr
from ..actions import Action
from ..cards import Cards, mask_text
from ..errors import HakkaError, IllegalActionError, SetupError
from ..events import Event
from ..game import Game, deal_hand
from ..hand import Hand, Phase
from ..patterns import INITIAL_ELDERS, tables_for
from ..perft import PerftLimitExceeded, perft_counts, perft_divide
from ..premises import premise_problem
from ..profile import DEFAULT_PROFILE, Profile
from ..rules import DEFAULT_RULES, Rules
from .commands import COMMANDS, EVENTS, PROTOCOL_VERSIONS, Command, capabilities
from .playout import Playout, PlayoutTooLong
from .shapes import MAX_SEED, is_mapping
from .shaping import events_json, legal_json, observation_json, result_json

Message = dict[str, Any]

BEFORE_HELLO: Final = PROTOCOL_VERSIONS[0]
"""The version a session answers in before ``hello``: the requests every version knows."""
MAX_DEPTH: Final = 8
COUNT_NODE_LIMIT: Final = 250_000
"""The positions one ``count`` may visit by default (2 to 4 s; every count scenario needs under 63,000)."""
BATCH_ANSWER_LIMIT: Final = 10_000
"""The answers one ``batch`` may hold by default: each ``act``, ``state`` and ``observe`` answer counts one.
A hand with every observation is about 300, a whole game about 2,000; the answer stays under about 5 MB."""
KEPT_FAULTS: Final = 16


def error(kind: str, message: str, rule: str | None = None) -> Message:
    answer: Message = {"kind": kind, "message": message}
    if rule:
        answer["rule"] = rule
    return {"ok": False, "error": answer}


_INNER: Final = frozenset({"act", "state", "observe"})
"""The requests a ``batch`` makes of its steps (:attr:`Session._inner`)."""


def request_problem(message: Any, protocol: int = PROTOCOL_VERSIONS[-1]) -> str | None:
    """Why ``message`` breaks the schema of its request under ``protocol``, or ``None`` (an unknown ``cmd``
    is not a shape problem: it is answered ``unsupported``)."""
    if not is_mapping(message):
        return "a request must be a JSON object"
    command = COMMANDS.get(message.get("cmd"))  # type: ignore[arg-type]
    if command is None:
        return None
    problem = command.problem(message, protocol)
    return None if problem is None else f"bad {command.name} request: {problem}"


@mypyc_attr(allow_interpreted_subclasses=True)  # test fakes subclass it; compiled, it refuses them otherwise
class Session:
    """One conversation with a runner: at most one hand or game at a time.

    ``rules`` lets a variant engine (see :class:`~reference_engine.rules.Rules`)
    speak the protocol through the same code.
    """

    name: ClassVar[str] = "hakka-reference"  # a class attribute that subclasses override, in both builds
    count_node_limit: int | None = COUNT_NODE_LIMIT
    """A bound on the positions one ``count`` may visit (``None``: no bound)."""
    batch_answer_limit: int = BATCH_ANSWER_LIMIT
    """A bound on the answers one ``batch`` may hold."""

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        self.rules = rules
        self.protocol: int | None = None
        """The version agreed in ``hello``; ``None`` before it."""
        self.profile = DEFAULT_PROFILE
        self._hand: Hand | None = None
        self.game: Game | None = None
        self._inner = False
        """Within a ``batch``: its own ``act``, ``state`` and ``observe`` requests, made of the steps its check
        passed, skip the checks of a request (their fields are good, and the three are of every version)."""
        self.faults: deque[tuple[str, str]] = deque(maxlen=KEPT_FAULTS)
        """The last engine faults: (reference, traceback)."""
        self.on_fault: Callable[[str, str], None] | None = None
        """Called with each fault's reference and traceback (``python -m reference_engine``: to stderr)."""
        self._fault_count = 0

    @property
    def hand(self) -> Hand | None:
        """The hand in play: a game's current hand, or the single hand started."""
        return self.game.hand if self.game is not None else self._hand

    @property
    def speaking(self) -> int:
        """The version requests are read in: the one agreed in ``hello``, or version 1 before it."""
        return BEFORE_HELLO if self.protocol is None else self.protocol

    def handle(self, message: Mapping[str, Any]) -> Message:
        """Answer one request; never raises. An error leaves the session unchanged."""
        if not is_mapping(message):
            return error("malformed", "a request must be a JSON object")
        cmd = message.get("cmd")
        command = COMMANDS.get(cmd) if isinstance(cmd, str) else None
        if command is None:
            return error("unsupported", f"unknown cmd {cmd!r}")
        refused = None if self._inner and cmd in _INNER else self._refusal(command, message)
        if refused is not None:
            return refused
        try:
            answer: Message = getattr(self, command.handler)(dict(message))
            return answer
        except HakkaError as exc:
            return error(exc.kind, str(exc), exc.rule)
        except RecursionError:
            return error("malformed", "not a protocol request: nested too deeply")
        except Exception as fault:  # noqa: BLE001 - an engine bug is the engine's error, not the caller's
            # its own name: compiled, a name bound by two except clauses keeps the first one's type (HakkaError)
            return self._fault(fault)

    def _refusal(self, command: Command, message: Mapping[str, Any]) -> Message | None:
        """Steps 2-4 of the module's order: the refusal of a request its handler must not see, or ``None``."""
        name, version = command.name, self.speaking
        if version not in command.versions:
            since = min(command.versions)
            if self.protocol is None:
                return error("illegal", f"{name} is a request of protocol {since} and later: send hello first")
            return error("unsupported", f"{name} is not a request of protocol {version} (it is one of protocol "
                                        f"{' and '.join(map(str, sorted(command.versions)))})")
        problem = command.problem(message, version)
        if problem is not None:
            return error("malformed", f"bad {name} request: {problem}")
        for feature in command.features:
            if version not in feature.versions and feature.present(message):
                if self.protocol is None:
                    return error("illegal", f"{feature.capability!r} in {name} is part of protocol "
                                            f"{min(feature.versions)} and later: send hello first")
                return error("unsupported", f"{feature.capability!r} in {name} is not part of protocol {version}")
        return None

    def _fault(self, exc: Exception) -> Message:
        self._fault_count += 1
        reference = f"fault-{self._fault_count}"
        trace = "".join(traceback.format_exception(exc))
        self.faults.append((reference, trace))
        if self.on_fault is not None:
            self.on_fault(reference, trace)
        return error("internal", f"engine fault {reference} ({type(exc).__name__}); "
                                 "the engine's stderr holds its traceback")

    # ------------------------------------------------------------ commands

    def _hello(self, message: Message) -> Message:
        version = message["protocol"]
        if version not in PROTOCOL_VERSIONS:
            return error("unsupported", f"the reference speaks protocol {' or '.join(map(str, PROTOCOL_VERSIONS))}, "
                                        f"not {version}")
        self.protocol = version
        return {
            "ok": True,
            "protocol": version,
            "engine": {"name": self.name, "version": __version__, "language": "python"},
            "options": DEFAULT_PROFILE.options(),
            "configurable": True,
            "capabilities": list(capabilities(version)),
        }

    def _stop(self, _message: Message) -> Message:
        return {"ok": True}

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
        seat, action = message["seat"], Action.parse(message["action"])  # text first: malformed before illegal
        hand = self._current()
        events = self.game.apply(seat, action) if self.game is not None else hand.apply(seat, action)
        return self._acted(events)

    def _acted(self, events: tuple[Event, ...]) -> Message:
        """An accepted ``act``'s answer: with its events where the version has them (capability ``events``)."""
        return {"ok": True, "events": events_json(events)} if self.speaking in EVENTS.versions else {"ok": True}

    def _result(self) -> Message | None:
        """A single hand's result once it ended; in a game, the most recent ended hand's (or null)."""
        if self.game is not None:
            return result_json(self.game.results[-1]) if self.game.results else None
        hand = self._current()
        return None if hand.result is None else result_json(hand.result)

    def _phase(self) -> str:
        return str(self.game.phase if self.game is not None else self._current().phase)

    def _state(self, _message: Message) -> Message:
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
        if self.game is not None:  # the game's phase and its last result; a single hand's are the hand's, as shaped
            observation["phase"] = self._phase()
            observation["result"] = self._result()
            if self.game.over:
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
        step by step. A batch whose answers would pass :attr:`batch_answer_limit`
        is refused, and leaves the session as it was.
        """
        steps, observe, states = message["steps"], message.get("observe", "none"), message.get("state", "every")
        per_step = 1 + (states == "every") + 4 * (observe == "every")
        fixed = 2 + 4 * (observe != "none")  # the start, and the last state and observations
        limit = self.batch_answer_limit
        if fixed + per_step * len(steps) > limit:
            return self._batch_bound(f"{len(steps)} steps")
        playout = Playout.from_request(message["playout"]) if "playout" in message else None
        saved = (self._hand, self.game, self.profile)
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
        self._inner = True
        try:
            entries.append(answered({}))
            for step in steps:
                entries.append(answered({"act": handle({"cmd": "act", "seat": step["seat"],
                                                        "action": step["action"]})}))
            if playout is not None:
                room = (limit - fixed - per_step * len(steps)) // per_step
                try:
                    for seat, action, events in playout.play(self._current(), self.game, room):
                        entries.append(answered({"act": self._acted(events), "step": {"seat": seat, "action": action}}))
                except PlayoutTooLong:
                    self._hand, self.game, self.profile = saved
                    return self._batch_bound(f"{len(steps)} steps and a playout of more than {room} actions")
                except HakkaError:  # the random player reached a move the game refuses (a missing or bad next deal)
                    self._hand, self.game, self.profile = saved  # an error never changes state
                    raise
                answer["choices"] = playout.choices
            last = entries[-1]
            if "state" not in last:
                last["state"] = handle({"cmd": "state"})
            if observe == "last":
                last["observations"] = [handle({"cmd": "observe", "seat": seat}) for seat in range(4)]
        finally:
            self._inner = False
        return answer

    def _batch_bound(self, what: str) -> Message:
        return error("unsupported", f"a batch of {what} would hold more than {self.batch_answer_limit} answers "
                                    "(each act, state and observe counts one), the reference's bound on one batch: "
                                    "send fewer steps per batch, or raise the bound with "
                                    "`python -m reference_engine --batch-answers N`")

    def _count(self, message: Message) -> Message:
        depth = message["depth"]
        if depth > MAX_DEPTH:
            return error("unsupported", f"the reference counts to depth {MAX_DEPTH} at most, not {depth}")
        hand = self._current().copy()
        limit = self.count_node_limit
        try:
            answer: Message = {"ok": True, "counts": perft_counts(hand, depth, limit)}
            if message.get("divide"):
                answer["divide"] = perft_divide(hand, depth, limit)
        except PerftLimitExceeded:
            positions = "1 position" if limit == 1 else f"{limit} positions"
            return error("unsupported", f"counting to depth {depth} from here visits more than {positions}, "
                                        "the reference's bound on one count: ask for a smaller depth, or raise the "
                                        "bound with `python -m reference_engine --count-nodes N`")
        return answer


def _int_seed(deal: Mapping[str, Any]) -> dict[str, Any]:
    """A deal with its seed as an integer (protocol 2 sends decimal strings, protocol 1 integers).

    The schema bounds a seed to 20 digits; D33 shuffles from seeds up to 2^64-1 only, so a larger one is a
    setup the rules cannot play.
    """
    out = dict(deal)
    if isinstance(out.get("seed"), str):
        out["seed"] = int(out["seed"])
    if isinstance(out.get("seed"), int) and out["seed"] > MAX_SEED:
        raise SetupError(f"seed {out['seed']} is above 2^64-1: DEAL-5 deals from a 64-bit seed (D33 shuffles 0 to 2^64-1)",
                         rule="DEAL-5")
    return out
