"""Playing one hand on two engines in lockstep.

:class:`Lockstep` starts the same hand on the reference and on the candidate,
and at every step compares ``state`` (and, if the candidate can, ``observe``
for each seat), then picks a random legal action from the reference's legal
actions and applies it to both. Now and then it first *probes* with an action
the reference refuses and checks that the candidate refuses it too, with the
same error kind. Every random choice comes from a :class:`Chooser`, so a hand
is a function of the choices: Hypothesis drives the choices and shrinks them.

A hand ends with a :class:`HandOutcome`: clean, a :class:`Disagreement`, or a
:class:`CandidateFailure` (the candidate crashed, hung or broke the protocol).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import AdapterError
from ..notation import CANONICAL_DECK, card_text, cards, normalize_action
from .compare import (
    differing_result_fields,
    observation_field_differences,
    state_differences,
)
from .endpoints import Candidate, Message, Reference

SETUP_KINDS = ("hands", "seed", "deck", "tigers")
"""How a hand is set up. ``hands``: explicit hands from a random partition;
``seed``: the candidate deals by D33; ``deck``: by D2 from a random deck order;
``tigers``: explicit hands where one active player holds the Five Tigers (TIG-1),
or, one time in four, only the four suited 1s."""

FIVE_TIGERS = ("Sup1", "Gon1", "Zok1", "Sin1", "WanSin")
MAX_STEPS = 400
VERBS_ALONE = ("call", "pass", "claim", "continue", "tigers", "decline")


class Chooser(Protocol):
    """The source of every random choice of a hand."""

    def below(self, n: int) -> int:
        """A choice in ``range(n)``; 0 is the simplest."""

    def seed(self) -> int:
        """A 64-bit integer."""


class RandomChooser:
    """Choices from :class:`random.Random` (no shrinking; for benchmarks and replay)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def seed(self) -> int:
        return self.rng.getrandbits(64)


class ListChooser:
    """Replays a recorded list of choices; past its end every choice is 0."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = list(choices)
        self.i = 0

    def _next(self) -> int:
        value = self.choices[self.i] if self.i < len(self.choices) else 0
        self.i += 1
        return value

    def below(self, n: int) -> int:
        return self._next() % n

    def seed(self) -> int:
        return self._next()


@dataclass(frozen=True)
class Step:
    """One action sent to both engines: ``do`` (legal) or ``reject`` (a probe the reference refused)."""

    seat: int
    action: str
    kind: str = "do"  # "do" | "reject"
    error: str | None = None  # the reference's error kind, for a reject
    rule: str | None = None  # the rule the reference named, for a reject

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, self.kind: self.action}
        if self.kind == "reject":
            data["error"] = self.error
            if self.rule:
                data["rule"] = self.rule
        return data


@dataclass
class Trace:
    """Everything needed to replay a hand: the options, the setup, the steps."""

    options: dict[str, str]
    setup: dict[str, Any]
    setup_kind: str
    hands: list[str] | None = None  # the reference's hands at the start (explicit form of the setup)
    steps: list[Step] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"options": self.options, "setup": self.setup, "hands": self.hands,
                "steps": [s.as_json() for s in self.steps]}


@dataclass
class Disagreement:
    """The first point where the candidate's answer differs from the reference's.

    ``where``: ``start`` (the setup), ``state`` (a field of ``state`` after the
    last step), ``act`` (the candidate refused a legal action), ``reject`` (it
    accepted, or refused with another kind, a probe the reference refused) or
    ``observe``. ``fields`` names what differs; ``reference`` and ``candidate``
    hold the two answers (the whole ``state``, or the two act answers, or the
    two observations of ``seat``). ``before`` is the reference's ``state``
    before the last step.
    """

    trace: Trace
    where: str
    fields: list[str]
    reference: Message
    candidate: Message
    before: Message | None = None
    seat: int | None = None
    detail: list[str] = field(default_factory=list)

    @property
    def actions(self) -> int:
        return len(self.trace.steps)

    def summary(self) -> str:
        at = f"after {self.actions} action(s)" if self.trace.steps else "at the start"
        what = {
            "start": "refused the setup",
            "state": "disagrees on " + ", ".join(self.fields),
            "act": f"refused the legal action {self.trace.steps[-1].action!r}" if self.trace.steps else "refused an action",
            "reject": (f"accepted or misjudged the illegal action {self.trace.steps[-1].action!r}"
                       if self.trace.steps else "misjudged an illegal action"),
            "observe": f"disagrees on seat {self.seat}'s observation ({', '.join(self.detail) or 'observation'})",
        }[self.where]
        return f"the candidate {what} {at}"


@dataclass
class CandidateFailure:
    """The candidate crashed, hung or broke the protocol during a hand."""

    trace: Trace
    request: Message
    status: str  # "error" | "timeout"
    message: str
    stderr: str = ""
    reference_state: Message | None = None

    def summary(self) -> str:
        what = "hung" if self.status == "timeout" else "failed"
        return (f"the candidate {what} on {self.request.get('cmd')!r} after {len(self.trace.steps)} action(s): "
                f"{self.message}")


@dataclass
class HandOutcome:
    trace: Trace
    actions: int
    disagreement: Disagreement | None = None
    failure: CandidateFailure | None = None
    result: Message | None = None

    @property
    def clean(self) -> bool:
        return self.disagreement is None and self.failure is None


class _Failed(Exception):
    def __init__(self, failure: CandidateFailure) -> None:
        self.failure = failure


class FuzzerError(Exception):
    """The reference engine itself misbehaved, or the fuzzer has a bug: not the candidate's fault."""


class Lockstep:
    """One reference and one candidate, played through random hands together."""

    def __init__(
        self,
        reference: Reference,
        candidate: Candidate,
        options: Mapping[str, str] | None = None,
        *,
        send_options: bool = True,
        observe: bool = True,
        probe_percent: int = 15,
        setup_kinds: tuple[str, ...] = SETUP_KINDS,
    ) -> None:
        self.reference = reference
        self.candidate = candidate
        self.options = dict(options or {})
        self.send_options = send_options
        self.observe = observe
        self.probe_percent = probe_percent
        self.setup_kinds = setup_kinds
        self.requests = 0

    # ------------------------------------------------------------------ requests

    def _ref(self, message: Message) -> Message:
        return self.reference.handle(message)

    def _cand(self, trace: Trace, message: Message, reference_state: Message | None = None) -> Message:
        self.requests += 1
        try:
            return self.candidate.call(message)
        except AdapterError as exc:
            stderr = ""
            try:
                stderr = self.candidate.take_stderr()
            except Exception:  # noqa: BLE001 - diagnostics only
                pass
            raise _Failed(CandidateFailure(
                trace=Trace(trace.options, trace.setup, trace.setup_kind, trace.hands, list(trace.steps)),
                request=message, status=exc.status, message=str(exc), stderr=stderr,
                reference_state=reference_state)) from None

    # ------------------------------------------------------------------ setup

    def draw_setup(self, chooser: Chooser) -> tuple[str, dict[str, Any]]:
        """A random setup; the simplest choice (0) is explicit hands."""
        kinds = self.setup_kinds
        # weights 45/30/15/10 over the kinds given, simplest first
        weights = {"hands": 45, "seed": 30, "deck": 15, "tigers": 10}
        total = sum(weights[k] for k in kinds)
        pick = chooser.below(total)
        kind = kinds[-1]
        for k in kinds:
            if pick < weights[k]:
                kind = k
                break
            pick -= weights[k]
        dealer = chooser.below(4)
        seed = chooser.seed()
        if kind == "seed":
            return kind, {"dealer": dealer, "seed": seed}
        deck = list(CANONICAL_DECK)
        random.Random(seed).shuffle(deck)
        if kind == "deck":
            return kind, {"dealer": dealer, "deck": " ".join(deck)}
        dreamer = (dealer + 2) % 4
        if kind == "tigers":
            holder = (dealer, (dealer + 1) % 4, (dealer + 3) % 4)[chooser.below(3)]
            # one time in four, the four suited 1s without Wan Sin: almost the Five Tigers
            tigers = FIVE_TIGERS if chooser.below(4) else FIVE_TIGERS[:4]
            rest = [c for c in deck if c not in tigers]
            hands: list[list[str]] = [[], [], [], []]
            hands[holder] = list(tigers)
            for seat in range(4):
                want = 1 if seat == dreamer else 12
                while len(hands[seat]) < want:
                    hands[seat].append(rest.pop())
        else:
            hands = [[], [], [], []]
            for seat in range(4):
                want = 1 if seat == dreamer else 12
                hands[seat] = [deck.pop() for _ in range(want)]
        return kind, {"dealer": dealer, "hands": [card_text(h) for h in hands]}

    # ------------------------------------------------------------------ one hand

    def play(self, chooser: Chooser) -> HandOutcome:
        kind, setup = self.draw_setup(chooser)
        return self.play_setup(kind, setup, chooser)

    def play_setup(self, kind: str, setup: dict[str, Any], chooser: Chooser) -> HandOutcome:
        trace = Trace(dict(self.options), setup, kind)
        try:
            return self._play(trace, chooser)
        except _Failed as failed:
            return HandOutcome(failed.failure.trace, len(failed.failure.trace.steps), failure=failed.failure)

    def _start_message(self, setup: dict[str, Any], to_candidate: bool) -> Message:
        message: Message = {"cmd": "start", "setup": setup}
        if self.options and (not to_candidate or self.send_options):
            message["options"] = dict(self.options)
        return message

    def _play(self, trace: Trace, chooser: Chooser) -> HandOutcome:
        ref_start = self._ref(self._start_message(trace.setup, False))
        if not ref_start.get("ok"):
            raise FuzzerError(f"the reference refused its own setup {trace.setup}: {ref_start}")
        ref_state = self._ref({"cmd": "state"})
        trace.hands = list(ref_state["hands"])
        cand_start = self._cand(trace, self._start_message(trace.setup, True), ref_state)
        if not cand_start.get("ok"):
            return HandOutcome(trace, 0, Disagreement(trace, "start", ["setup"], ref_start, cand_start))
        before: Message | None = None
        for _ in range(MAX_STEPS):
            cand_state = self._cand(trace, {"cmd": "state"}, ref_state)
            if not cand_state.get("ok"):
                return HandOutcome(trace, len(trace.steps), Disagreement(
                    trace, "state", ["state"], ref_state, cand_state, before))
            fields = [] if cand_state == ref_state else state_differences(ref_state, cand_state)
            if fields:
                detail = []
                if "result" in fields:
                    detail = differing_result_fields(ref_state.get("result"), cand_state.get("result"))
                return HandOutcome(trace, len(trace.steps), Disagreement(
                    trace, "state", fields, ref_state, cand_state, before, detail=detail))
            if self.observe:
                for seat in range(4):
                    message = {"cmd": "observe", "seat": seat}
                    ref_obs = self._ref(message)
                    cand_obs = self._cand(trace, message, ref_state)
                    detail = [] if cand_obs == ref_obs else observation_field_differences(ref_obs, cand_obs)
                    if detail:
                        return HandOutcome(trace, len(trace.steps), Disagreement(
                            trace, "observe", ["observation"], ref_obs, cand_obs, before, seat=seat,
                            detail=detail))
            to_act = ref_state["to_act"]
            if to_act is None:
                return HandOutcome(trace, len(trace.steps), result=ref_state["result"])
            before = ref_state
            if self.probe_percent and chooser.below(100) >= 100 - self.probe_percent:
                probe = self._probe(ref_state, chooser)
                if probe is not None:
                    seat, action = probe
                    message = {"cmd": "act", "seat": seat, "action": action}
                    ref_answer = self._ref(message)
                    if ref_answer.get("ok"):
                        raise FuzzerError(f"the probe {action!r} by seat {seat} was legal for the reference")
                    error = ref_answer["error"]
                    trace.steps.append(Step(seat, action, "reject", error["kind"], error.get("rule")))
                    cand_answer = self._cand(trace, message, ref_state)
                    if cand_answer.get("ok") or cand_answer.get("error", {}).get("kind") != error["kind"]:
                        return HandOutcome(trace, len(trace.steps), Disagreement(
                            trace, "reject", ["error"], ref_answer, cand_answer, before))
                    continue  # compare the (unchanged) state again
            seat, action = self._pick(ref_state, chooser)
            message = {"cmd": "act", "seat": seat, "action": action}
            ref_answer = self._ref(message)
            if not ref_answer.get("ok"):
                raise FuzzerError(f"the reference refused its own legal action {action!r} by seat {seat}: {ref_answer}")
            trace.steps.append(Step(seat, action))
            ref_state = self._ref({"cmd": "state"})
            cand_answer = self._cand(trace, message, ref_state)
            if not cand_answer.get("ok"):
                return HandOutcome(trace, len(trace.steps), Disagreement(
                    trace, "act", ["accepted"], ref_state, cand_answer, before))
        raise FuzzerError(f"the reference did not end the hand within {MAX_STEPS} steps")

    # ------------------------------------------------------------------ choices

    @staticmethod
    def _pick(state: Message, chooser: Chooser) -> tuple[int, str]:
        """Uniform over the concrete actions and the discard option; then a uniform discard."""
        legal = state["legal"]
        actions = legal["actions"]
        option = legal["discard"]
        n = len(actions) + (1 if option is not None else 0)
        if n == 0:
            raise FuzzerError(f"seat {state['to_act']} is to act but has no legal action")
        pick = chooser.below(n)
        if pick < len(actions):
            return state["to_act"], actions[pick]
        pool = cards(option["from"])
        chosen = []
        for _ in range(option["count"]):
            chosen.append(pool.pop(chooser.below(len(pool))))
        return state["to_act"], "discard " + card_text(chosen)

    @staticmethod
    def _is_legal(state: Message, seat: int, action: str) -> bool:
        if seat != state["to_act"]:
            return False
        legal = state["legal"]
        if action in {normalize_action(a) for a in legal["actions"]}:
            return True
        option = legal["discard"]
        parts = action.split()
        if option is None or parts[0] != "discard":
            return False
        chosen = parts[1:]
        return len(chosen) == option["count"] and set(chosen) <= set(cards(option["from"]))

    def _probe(self, state: Message, chooser: Chooser) -> tuple[int, str] | None:
        """An action the reference must refuse, or None if the draw happened to be legal."""
        to_act = state["to_act"]
        hands = state["hands"]
        kind = chooser.below(6)
        seat = to_act
        if kind == 0:  # the wrong seat, the Dreamer included, tries a legal-looking action
            seat = (to_act + 1 + chooser.below(3)) % 4
            _s, action = self._pick(state, chooser)
        elif kind == 1:  # a verb of another phase
            action = VERBS_ALONE[chooser.below(len(VERBS_ALONE))]
        elif kind in (2, 3):  # cards of the seat's hand, as a play or a discard of some size
            held = cards(hands[seat])
            if not held:
                return None
            size = 1 + chooser.below(min(4, len(held)))
            chosen = [held.pop(chooser.below(len(held))) for _ in range(size)]
            verb = "play" if kind == 2 else "discard"
            action = f"{verb} {card_text(chosen)}"
        elif kind == 4:  # a card the seat does not hold
            holding = set(cards(hands[seat]))
            others = [c for c in CANONICAL_DECK if c not in holding]
            action = f"{('play', 'discard')[chooser.below(2)]} {others[chooser.below(len(others))]}"
        else:  # text that is not an action
            action = ("play", "discard Sup0", "play Sup3 Sup3", "fold", "call Sup1")[chooser.below(5)]
        if kind != 5:
            action = normalize_action(action)
            if self._is_legal(state, seat, action):
                return None
        return seat, action
