"""The reference engine's side of the conformance protocol (spec/PROTOCOL.md).

Pure: a :class:`Session` turns one request dict into one response dict, with
no I/O. ``python -m reference_engine`` wraps it in the line-delimited JSON
loop; the conformance runner's in-process adapter calls it directly.

>>> s = Session()
>>> s.handle({"cmd": "hello", "protocol": 1})["engine"]["name"]
'hakka-reference'
>>> s.handle({"cmd": "pattern", "classify": "Sup3 Sup4 Sup5"})
{'ok': True, 'pattern': 'run'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from . import __version__
from .cards import Cards, mask_text
from .errors import HakkaError, IllegalActionError, MalformedError, SetupError
from .game import Game, deal_hand
from .hand import Hand, legal_to_json
from .patterns import INITIAL_ELDERS, KIND_NAMES
from .perft import perft_counts
from .profile import DEFAULT_PROFILE, Profile

PROTOCOL_VERSION: Final = 1
Message = dict[str, Any]


def _error(kind: str, message: str, rule: str | None = None) -> Message:
    error: Message = {"kind": kind, "message": message}
    if rule:
        error["rule"] = rule
    return {"ok": False, "error": error}


class Session:
    """One conversation with a runner: at most one hand or game at a time.

    ``hand_class`` lets a variant engine (a subclass of :class:`Hand`) speak the
    protocol through the same code.
    """

    name = "hakka-reference"
    count_node_limit: int | None = None
    """A bound on the positions one ``count`` may visit (``None``: no bound)."""

    def __init__(self, hand_class: type[Hand] = Hand) -> None:
        self.hand_class = hand_class
        self.profile = DEFAULT_PROFILE
        self.hand: Hand | None = None
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
        }

    def handle(self, message: Mapping[str, Any]) -> Message:
        """Answer one request; never raises."""
        if not isinstance(message, Mapping):
            return _error("malformed", "a request must be a JSON object")
        handler = self._handlers.get(message.get("cmd"))  # type: ignore[arg-type]
        if handler is None:
            return _error("unsupported", f"unknown cmd {message.get('cmd')!r}")
        try:
            return handler(dict(message))
        except HakkaError as exc:
            return _error(exc.kind, str(exc), exc.rule)
        except (KeyError, TypeError, ValueError) as exc:
            return _error("malformed", f"bad {message.get('cmd')} request: {exc!r}")

    # ------------------------------------------------------------ commands

    def _hello(self, message: Message) -> Message:
        return {
            "ok": True,
            "protocol": PROTOCOL_VERSION,
            "engine": {"name": self.name, "version": __version__, "language": "python"},
            "options": DEFAULT_PROFILE.options(),
            "configurable": True,
            "capabilities": ["pattern", "count", "observe", "game"],
        }

    def _profile(self, message: Message) -> Profile:
        options = message.get("options") or {}
        if not isinstance(options, Mapping):
            raise SetupError("options must map decision IDs to option IDs")
        return Profile.from_options(options)

    def _start(self, message: Message) -> Message:
        profile = self._profile(message)
        setup = message["setup"]
        if not isinstance(setup, Mapping):
            raise SetupError("setup must be an object")
        self.hand = self.game = None
        if "game" in setup:
            spec = setup["game"]
            game = Game(spec["first_dealer"], spec["deals"], profile, self.hand_class)
            self.game, self.hand = game, game.hand
        else:
            deal = {k: v for k, v in setup.items() if k != "dealer"}
            self.hand = deal_hand(setup["dealer"], deal, profile, self.hand_class)
        self.profile = profile
        return {"ok": True}

    def _current(self) -> Hand:
        if self.hand is None:
            raise IllegalActionError("no hand or game yet: send start first", rule="GAME-2")
        return self.hand

    def _act(self, message: Message) -> Message:
        hand = self._current()
        seat, action = message["seat"], message["action"]
        if not isinstance(action, str):
            raise TypeError("action must be a string")
        if self.game is not None:
            try:
                self.game.apply(seat, action)
            finally:
                self.hand = self.game.hand
        else:
            hand.apply(seat, action)
        return {"ok": True}

    def _state(self, message: Message) -> Message:
        hand = self._current()
        game = self.game
        shown = hand
        phase = hand.phase if game is None else game.phase
        result = hand.result
        if game is not None and game.results and (hand.result is None or game.over):
            result = game.results[-1]
        state: Message = {
            "ok": True,
            "phase": phase,
            "to_act": hand.to_act if phase != "game-over" else None,
            "legal": legal_to_json(shown.legal_actions()) if phase != "game-over" else {"actions": [], "discard": None},
            "dealer": hand.dealer,
            "dreamer": hand.dreamer,
            "privileged": hand.privileged,
            "hands": [str(hand.hand_of(s)) for s in range(4)],
            "elders": mask_text(hand.elders),
            "tricks": list(hand.tricks),
            "round": {
                "leader": hand.leader,
                "plays": [{"seat": p.seat, "action": str(p.action)} for p in hand.plays],
            },
            "result": None if result is None else result.to_json(),
            "game": None,
        }
        if game is not None:
            state["game"] = {
                "hand": game.hands_played + (0 if game.over else 1),
                "hands_played": game.hands_played,
                "deals": game.deal_index + 1,
                "scores": list(game.scores),
                "results": [r.to_json() for r in game.results],
            }
        return state

    def _observe(self, message: Message) -> Message:
        seat = message.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise MalformedError(f"observe needs a seat 0-3, not {seat!r}", rule="GAME-5")
        return {"ok": True, "observation": self._current().observation(seat)}

    def _pattern(self, message: Message) -> Message:
        tables = self.hand_class.pattern_tables(self._profile(message))
        if "classify" in message:
            kind, _rank = tables.classify(Cards.parse(message["classify"]).mask)
            return {"ok": True, "pattern": KIND_NAMES[kind]}
        elders = message.get("elders")
        elder_mask = INITIAL_ELDERS if elders is None else Cards.parse(elders).mask
        challenger = Cards.parse(message["challenger"]).mask
        current = Cards.parse(message["current"]).mask
        return {"ok": True, "beats": tables.beats_mask(challenger, current, elder_mask)}

    def _count(self, message: Message) -> Message:
        depth = message["depth"]
        if not isinstance(depth, int) or not 1 <= depth <= 8:
            raise ValueError("depth must be an integer 1-8")
        return {"ok": True, "counts": perft_counts(self._current().copy(), depth, self.count_node_limit)}
