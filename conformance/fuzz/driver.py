"""Playing one hand on two engines in lockstep.

:class:`Lockstep` starts the same hand on the reference and on the candidate,
and at every step compares ``state`` (and, if the candidate can, ``observe``
for each seat), then picks a random legal action from the reference's legal
actions and applies it to both. Now and then it first *probes* with an action
the reference refuses and checks that the candidate refuses it too, with the
same error kind. Every random choice comes from a :class:`Chooser`, so a hand
is a function of the choices: Hypothesis drives the choices and shrinks them.

What to try (setups, picks, probes) is :mod:`conformance.fuzz.moves`; this
module plays it on both engines and compares their answers.

A hand ends with a :class:`HandOutcome`: clean, a :class:`Disagreement`, or a
:class:`CandidateFailure` (the candidate crashed, hung or broke the protocol).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from ..engine import Engine, EngineInfo
from ..errors import AdapterError, ProtocolViolation
from ..normalize import ABSENT, same_json
from .checks import FULL_RATES, Check, Checks, Mix, Rates, compare, respell
from .compare import (
    differing_result_fields,
    event_differences,
    observation_field_differences,
    state_differences,
)
from .endpoints import Message
from .fields import compared_fields
from .model import (
    OBSERVE_MODES,
    CandidateFailure,
    Chooser,
    Disagreement,
    FuzzerError,
    HandOutcome,
    RandomChooser,
    Step,
    Trace,
    observe_mode,
)
from .moves import GAME_DEALS, GAME_KIND, HAND_KINDS, SETUP_KINDS, Moves
from .outcomes import Outcomes

MAX_STEPS = 400
VALIDATE_EVERY = 64
"""Every answer of one hand in this many is checked against its schema (``--validate``: of every hand).
Checking all costs about 20 times the comparison itself (300 hands against the compiled Rust engine: 104 s
against 5 s); one hand in 64 is within the noise (20.2-21.0 s against 17.8-20.1 s on a loaded machine), and an
answer broken in every hand is found in the first."""


@dataclass(frozen=True)
class _Record:
    """The reference's answers after one step (or the start): the act, the state, the observations."""

    act: Message | None
    state: Message
    observations: list[Message] | None


@dataclass
class Prepared:
    """A playout hand the reference has played (its trace, its answers, its rule outcomes), waiting for the
    candidate's answers; ``sent`` is the batch already sent to the candidate, and an error sending it."""

    trace: Trace
    script: list[_Record]
    outcomes: frozenset[str]
    sent: tuple[Message, AdapterError | None] | None = None
    checks: list[Check] = field(default_factory=list)


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def sends_batch(info: EngineInfo, asked: bool | None = None) -> bool:
    """Whether the candidate is sent whole hands in one `batch`: as ``asked``, else when it declares the
    capability. `batch` is a protocol-2 request (spec/PROTOCOL.md): never sent to an engine that answered 1."""
    return ("batch" in info.capabilities and info.protocol >= 2) if asked is None else asked


class _Failed(Exception):
    def __init__(self, failure: CandidateFailure) -> None:
        self.failure = failure


class Lockstep:
    """One reference and one candidate, played through random hands together."""

    def __init__(
        self,
        reference: Engine,
        candidate: Engine,
        options: Mapping[str, str] | None = None,
        *,
        send_options: bool = True,
        observe: bool | str = True,
        probe_percent: int = 15,
        setup_kinds: tuple[str, ...] = SETUP_KINDS,
        hand_kinds: tuple[str, ...] = HAND_KINDS,
        batch: bool | None = None,
        states: str = "every",
        playout: bool = False,
        mix: Mix | None = None,
    ) -> None:
        self.reference = reference
        self.candidate = candidate
        self.options = dict(options or {})
        self.send_options = send_options
        self.observe_mode = observe_mode(observe)
        if self.observe_mode not in OBSERVE_MODES:
            raise ValueError(f"observe is one of {OBSERVE_MODES}, not {observe!r}")
        self.observe = self.observe_mode != "none"
        if states not in ("every", "last"):
            raise ValueError(f"states is every or last, not {states!r}")
        self.states = states
        info = candidate.ensure_started()
        self.batch = sends_batch(info, batch)
        # the reference plays whole hands itself (`batch` with `playout`): the fast path
        capabilities = reference.ensure_started().capabilities
        self.playout = playout and "playout" in capabilities
        self.outcomes = Outcomes(self.options, "events" in capabilities)
        # Events are compared when both declare them (capability `events`): the act schema's fields,
        # `events` among them, required of the candidate once it declares the capability.
        self.events = "events" in capabilities and "events" in info.capabilities
        self.act_fields = compared_fields().act
        self.moves = Moves(self._ref, self.options, setup_kinds, probe_percent, hand_kinds)
        self.mix = mix if mix is not None else Mix(variants=False, options=self.options, send_options=send_options)
        self.checks = Checks(self._ref, self.mix)
        self.moves.explicit_deals = self.mix.explicit_deals
        self.rates: Rates = FULL_RATES
        """How often the next hands carry each extra kind (a guided lane sets them before each hand)."""
        self.requests = 0
        self.validate_all = candidate.validate
        self.compared_hands = 0
        """Hands whose answers were compared; the first of every VALIDATE_EVERY has every answer schema-checked."""

    # ------------------------------------------------------------------ requests

    def _ref(self, message: Message) -> Message:
        return self.reference.call(message)

    def _cand(self, trace: Trace, message: Message, reference_state: Message | None = None) -> Message:
        return self._cand_receive(trace, message, reference_state, self._cand_send(message))

    def _cand_send(self, message: Message) -> AdapterError | None:
        """Send ``message`` to the candidate; an error is kept for :meth:`_cand_receive` to report."""
        self.requests += 1
        try:
            self.candidate.send(message)
        except AdapterError as exc:
            return exc
        return None

    def _cand_receive(self, trace: Trace, message: Message, reference_state: Message | None,
                      sent_error: AdapterError | None = None) -> Message:
        try:
            if sent_error is not None:
                raise sent_error
            return self.candidate.receive(message)
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

    # ------------------------------------------------------------------ one hand

    def draw_setup(self, chooser: Chooser) -> tuple[str, dict[str, Any]]:
        """A random setup (:meth:`Moves.draw_setup`)."""
        return self.moves.draw_setup(chooser, self.rates.game)

    def play(self, chooser: Chooser) -> HandOutcome:
        mode = self.draw_mode(chooser)
        kind, setup = self.draw_setup(chooser)
        return self.play_setup(kind, setup, chooser, mode)

    def draw_mode(self, chooser: Chooser) -> str:
        """How the hand is played: ``steps`` (the reference is asked at every step, as Hypothesis needs);
        with playout on, ``playout`` (the reference plays the whole hand in one ``batch``) or, in
        :attr:`Rates.probe` percent of hands, ``probes`` (a playout, then probes drawn from its states)."""
        if not self.playout:
            return "steps"
        if not self.moves.probe_percent:
            return "playout"
        return "probes" if chooser.below(100) < self.rates.probe else "playout"

    def play_setup(self, kind: str, setup: dict[str, Any], chooser: Chooser, mode: str = "steps") -> HandOutcome:
        prepared = self.prepare(kind, setup, chooser, mode)
        self.send(prepared)
        return self.finish(prepared)

    def prepare(self, kind: str, setup: dict[str, Any], chooser: Chooser, mode: str = "steps") -> Prepared | HandOutcome:
        """The reference's side of a hand: a :class:`Prepared` playout hand, or (mode ``steps``, where the
        two engines are asked in turn) the whole hand's outcome."""
        trace = Trace(dict(self.options), setup, kind)
        # the side checks draw from a generator of their own, seeded here: the hand's last choices stay its
        # play's (the search turns them to steer a claim), and a game opening replays a hand with its checks
        side = RandomChooser(random.Random(chooser.seed()))
        if mode in ("playout", "probes"):
            if not self.moves.steps_only(setup):
                return self._prepare_playout(trace, chooser, probing=mode == "probes", side=side)
            # a game whose deals may refuse a move: the reference plays it step by step, and the candidate is
            # compared when the hand is finished, as a playout hand is (it may still be answering the last one)
            prepared = self._play(trace, chooser, side=side, defer=True)
            assert isinstance(prepared, Prepared)
            return prepared
        try:
            return self._play(trace, chooser, side=side)
        except _Failed as failed:
            return HandOutcome(failed.failure.trace, len(failed.failure.trace.steps), failure=failed.failure)

    def send(self, prepared: Prepared | HandOutcome) -> None:
        """Send a prepared hand's batch to a candidate that declares ``batch``; :meth:`finish` reads the
        answer. Meanwhile the caller may prepare the next hand: a subprocess engine works on its own core."""
        if isinstance(prepared, Prepared) and self.batch and prepared.sent is None:
            message = self._batch_message(prepared.trace)
            prepared.sent = (message, self._cand_send(message))

    def finish(self, prepared: Prepared | HandOutcome) -> HandOutcome:
        """The hand's outcome: the candidate's answers compared with the reference's."""
        if isinstance(prepared, HandOutcome):
            return prepared
        return self._finish_playout(prepared)

    def _prepare_playout(self, trace: Trace, chooser: Chooser, probing: bool = False,
                         side: Chooser | None = None) -> Prepared:
        """The reference plays the hand in one ``batch`` with ``playout`` (its random player continues the
        chooser's remaining choices); the candidate will answer the same steps.

        ``probing``: the playout returns every state; probes are drawn from them (as step by step) and put
        before the actions they were drawn at, and a second ``batch`` gives the reference's answer to each.
        """
        given, seed = chooser.handoff()
        message = self._start_message(trace.setup, False)
        playout: Message = {"choices": given}
        if seed is not None:
            playout["seed"] = str(seed)
        message.update(cmd="batch", steps=[], playout=playout, observe=self.observe_mode,
                       state="every" if probing else self.states)
        answer = self._ref(message)
        if not answer.get("ok") or not answer["start"].get("ok"):
            raise FuzzerError(f"the reference refused its own playout of {trace.setup}: {answer}")
        chooser.extend(answer["choices"])
        entries = answer["steps"]
        trace.steps = [Step(e["step"]["seat"], e["step"]["action"]) for e in entries[1:]]
        # with `state: last`, only the last entry has a state; the others are never compared
        script = [_Record(e.get("act"), e.get("state") or {}, e.get("observations")) for e in entries]
        if probing:
            self._insert_probes(trace, script, chooser)
            outcomes_of_kind = frozenset({"kind:probes"})  # the probes' own finds are their refusal:* classes
        else:
            outcomes_of_kind = frozenset()
        outcomes = self.outcomes.reached((e.get("act") for e in entries[1:]),
                                         [s.rule for s in trace.steps if s.kind == "reject"],
                                         game=trace.setup_kind == GAME_KIND)
        side = side or chooser
        if self.mix.variants and side.below(100) < self.rates.variant:
            outcomes |= self._respell(trace, script, side)
        checks = self.checks.draw(trace, side, self.rates)
        return Prepared(trace, script, outcomes | outcomes_of_kind | self._side_outcomes(trace, checks), checks=checks)

    def _side_outcomes(self, trace: Trace, checks: list[Check]) -> frozenset[str]:
        """The coverage ids of a hand's side checks, and of the observations compared after its refusals."""
        out = {o for check in checks for o in check.outcomes} | {"kind:game" if trace.setup_kind == GAME_KIND else "kind:hand"}
        if self.observe_mode == "every" and any(s.kind == "reject" for s in trace.steps):
            out.add("observe:after-refused-action")
        return frozenset(out)

    def _respell(self, trace: Trace, script: list[_Record], chooser: Chooser) -> frozenset[str]:
        """Some of the hand's actions respelled, as the reference takes them (:func:`checks.respell`)."""
        return respell(self._ref, self._start_message(trace.setup, False), trace, script[-1].state, chooser)

    def _finish_playout(self, prepared: Prepared) -> HandOutcome:
        """Compare the candidate's answers to a prepared hand. A hand that disagrees or fails is played
        again step by step, so that what is reported has the reference's every state."""
        trace, script, outcomes = prepared.trace, prepared.script, prepared.outcomes
        try:
            found = self._candidate(trace, script, prepared.sent)
        except _Failed as failed:
            again = self._replay_steps(trace)
            # the replay stands if it found something, unless it could not even start a hand (an in-process
            # engine still stuck in the request that hung, say): then the failure is the playout's own
            if again is not None and (again.disagreement is not None or (
                    again.failure is not None and again.failure.request.get("cmd") != "start")):
                again.outcomes = outcomes
                return again
            return HandOutcome(failed.failure.trace, len(failed.failure.trace.steps), failure=failed.failure,
                               outcomes=outcomes)
        if found is not None:
            again = self._replay_steps(trace)
            if again is not None and again.disagreement is not None:
                again.outcomes = outcomes
                return again
            return HandOutcome(found.trace, len(found.trace.steps), found, outcomes=outcomes)
        return self._checked(trace, prepared.checks, script[-1].state["result"], outcomes)

    def _checked(self, trace: Trace, checks: list[Check], result: Message | None,
                 outcomes: frozenset[str]) -> HandOutcome:
        """The hand's outcome once its side checks are compared (its own answers agreed)."""
        try:
            found = self._run_checks(checks)
        except _Failed as failed:
            return HandOutcome(failed.failure.trace, len(failed.failure.trace.steps), failure=failed.failure,
                               outcomes=outcomes)
        if found is not None:
            return HandOutcome(found.trace, len(found.trace.steps), found, outcomes=outcomes)
        return HandOutcome(trace, len(trace.steps), result=result, outcomes=outcomes)

    def _run_checks(self, checks: list[Check]) -> Disagreement | None:
        for check in checks:
            before: Message | None = None
            for exchange in check.exchanges:
                answer = self._cand(check.trace, exchange.request, before)
                found = compare(check, exchange, answer, before)
                if found is not None:
                    return self._judged(found, answer, str(exchange.request["cmd"]))
                if exchange.request["cmd"] == "state" and exchange.answer.get("ok"):
                    before = exchange.answer
        return None

    def _insert_probes(self, trace: Trace, script: list[_Record], chooser: Chooser) -> None:
        """Draw probes from the playout's states (each before the action taken in that state), ask the
        reference to answer them in one more ``batch``, and put them in ``trace`` and ``script``."""
        steps: list[Step] = []
        records = [script[0]]
        for k, step in enumerate(trace.steps):
            before = script[k]
            probe = self.moves.maybe_probe(before.state, chooser)
            if probe is not None:
                steps.append(Step(probe[0], probe[1], "reject"))
                records.append(_Record(None, before.state, before.observations))  # a refusal changes nothing
            steps.append(step)
            records.append(script[k + 1])
        if len(steps) == len(trace.steps):
            return
        message = self._start_message(trace.setup, False)
        message.update(cmd="batch", steps=[{"seat": s.seat, "action": s.action} for s in steps], state="last")
        answer = self._ref(message)
        acts = [e.get("act") for e in answer.get("steps", [])[1:]]
        if len(acts) != len(steps):
            raise FuzzerError(f"the reference's batch answer has {len(acts)} steps for {len(steps)}: {answer}")
        for i, (step, act) in enumerate(zip(steps, acts, strict=True)):
            if step.kind == "reject":
                steps[i] = self._refused(step.seat, step.action, act)
                records[i + 1] = _Record(act, records[i + 1].state, records[i + 1].observations)
            elif not act.get("ok"):
                raise FuzzerError(f"the reference refused its own action {step.action!r} after a probe: {act}")
        trace.steps[:] = steps
        script[:] = records

    def _replay_steps(self, trace: Trace) -> HandOutcome | None:
        """The steps of ``trace`` played again step by step (the full report of a playout hand's finding)."""
        replay = Trace(trace.options, trace.setup, trace.setup_kind)
        try:
            outcome = self._play(replay, None, given=list(trace.steps))
            assert isinstance(outcome, HandOutcome)  # not deferred: compared at once
            return outcome
        except _Failed as failed:
            return HandOutcome(failed.failure.trace, len(failed.failure.trace.steps), failure=failed.failure)

    def _start_message(self, setup: dict[str, Any], to_candidate: bool) -> Message:
        message: Message = {"cmd": "start", "setup": setup}
        if self.options and (not to_candidate or self.send_options):
            message["options"] = dict(self.options)
        return message

    def _play(self, trace: Trace, chooser: Chooser | None, given: list[Step] | None = None,
              side: Chooser | None = None, defer: bool = False) -> HandOutcome | Prepared:
        # The reference plays the whole hand first (its legal actions drive every choice);
        # then the candidate answers the same requests, one by one or in one `batch`.
        ref_start = self._ref(self._start_message(trace.setup, False))
        if not ref_start.get("ok"):
            raise FuzzerError(f"the reference refused its own setup {trace.setup}: {ref_start}")
        ref_state = self._ref({"cmd": "state"})
        trace.hands = list(ref_state["hands"])
        every = self.observe_mode == "every"
        script = [_Record(None, ref_state, self._ref_observations() if every else None)]
        for _ in range(MAX_STEPS * (GAME_DEALS if trace.setup_kind == GAME_KIND else 1)):
            if ref_state["to_act"] is None:
                break
            probe: tuple[int, str] | None = None
            if given is not None:
                if not given:
                    break
                step = given.pop(0)
                seat, action = step.seat, step.action
                if step.kind == "reject":
                    probe = seat, action
            else:
                assert chooser is not None  # only a replay of given steps has no chooser
                probe = self.moves.maybe_probe(ref_state, chooser)
                if probe is None:
                    seat, action = self.moves.pick(ref_state, chooser)
            if probe is not None:
                ref_answer = self._ref({"cmd": "act", "seat": probe[0], "action": probe[1]})
                trace.steps.append(self._refused(probe[0], probe[1], ref_answer))
                script.append(_Record(ref_answer, ref_state, script[-1].observations))  # unchanged
                continue
            ref_answer = self._ref({"cmd": "act", "seat": seat, "action": action})
            if not ref_answer.get("ok") and trace.setup_kind == GAME_KIND and self.moves.steps_only(trace.setup) \
                    and ref_answer["error"]["kind"] == "bad-setup":
                # the move that would reach a missing or bad deal: refused, and the game's play ends here
                trace.steps.append(self._refused(seat, action, ref_answer))
                script.append(_Record(ref_answer, ref_state, script[-1].observations))
                break
            if not ref_answer.get("ok"):
                raise FuzzerError(f"the reference refused its own legal action {action!r} by seat {seat}: {ref_answer}")
            trace.steps.append(Step(seat, action))
            ref_state = self._ref({"cmd": "state"})
            script.append(_Record(ref_answer, ref_state, self._ref_observations() if every else None))
        else:
            raise FuzzerError(f"the reference did not end the hand within {MAX_STEPS} steps")
        if self.observe_mode == "last":
            script[-1] = _Record(script[-1].act, ref_state, self._ref_observations())
        outcomes = self.outcomes.reached((r.act for r in script[1:] if r.act is not None and r.act.get("ok")),
                                         [s.rule for s in trace.steps if s.kind == "reject"],
                                         game=trace.setup_kind == GAME_KIND)
        checks = self.checks.draw(trace, side, self.rates) if side is not None else []
        outcomes |= self._side_outcomes(trace, checks)
        if trace.setup_kind == GAME_KIND and self.moves.steps_only(trace.setup):
            refused = bool(trace.steps) and trace.steps[-1].kind == "reject" and trace.steps[-1].error == "bad-setup"
            outcomes |= self.moves.deal_outcomes(trace.setup, ref_state, refused)
        if defer:
            return Prepared(trace, script, outcomes, checks=checks)
        found = self._candidate(trace, script)
        if found is not None:
            return HandOutcome(found.trace, len(found.trace.steps), found, outcomes=outcomes)
        return self._checked(trace, checks, ref_state["result"], outcomes)

    @staticmethod
    def _refused(seat: int, action: str, answer: Message) -> Step:
        """The probe as a step, from the reference's answer to it (which must be a refusal)."""
        if answer.get("ok"):
            raise FuzzerError(f"the probe {action!r} by seat {seat} was legal for the reference")
        error = answer["error"]
        return Step(seat, action, "reject", error["kind"], error.get("rule"))

    def _ref_observations(self) -> list[Message]:
        return [self._ref({"cmd": "observe", "seat": seat}) for seat in range(4)]

    @staticmethod
    def _upto(trace: Trace, k: int) -> Trace:
        return Trace(trace.options, trace.setup, trace.setup_kind, trace.hands, trace.steps[:k])

    def _candidate(self, trace: Trace, script: list[_Record],
                   sent: tuple[Message, AdapterError | None] | None = None) -> Disagreement | None:
        """The candidate's answers to the hand compared with the reference's. An answer about to disagree is
        always schema-checked; every answer of one hand in :data:`VALIDATE_EVERY` too (all with ``--validate``)."""
        sampled = not self.validate_all and self.compared_hands % VALIDATE_EVERY == 0
        self.compared_hands += 1
        # a sampled batch answer is checked once read: only if it is not the reference's own (which is valid)
        self.candidate.validate = self.validate_all or (sampled and not self.batch)
        try:
            if self.batch:
                return self._candidate_batch(trace, script, sent, sampled)
            return self._candidate_steps(trace, script)
        finally:
            self.candidate.validate = self.validate_all

    def _candidate_steps(self, trace: Trace, script: list[_Record]) -> Disagreement | None:
        first = self._upto(trace, 0)
        cand_start = self._cand(first, self._start_message(trace.setup, True), script[0].state)
        if not cand_start.get("ok"):
            return self._judged(Disagreement(first, "start", ["setup"], {"ok": True}, cand_start), cand_start)
        for k, record in enumerate(script):
            sub = self._upto(trace, k)
            cand_act = None
            if k:
                step = trace.steps[k - 1]
                cand_act = self._cand(sub, {"cmd": "act", "seat": step.seat, "action": step.action}, record.state)
            cand_state = None
            if self.states == "every" or k == len(script) - 1:
                cand_state = self._cand(sub, {"cmd": "state"}, record.state)
            cand_obs = None
            if record.observations is not None:
                cand_obs = [self._cand(sub, {"cmd": "observe", "seat": seat}, record.state) for seat in range(4)]
            found = self._compare(sub, k, script, cand_act, cand_state, cand_obs)
            if found is not None:
                return found
        return None

    def _batch_message(self, trace: Trace) -> Message:
        message = self._start_message(trace.setup, True)
        message["cmd"] = "batch"
        message["steps"] = [{"seat": s.seat, "action": s.action} for s in trace.steps]
        message["observe"] = self.observe_mode
        if self.states != "every":
            message["state"] = self.states
        return message

    def _reference_batch_answer(self, script: list[_Record]) -> Message:
        """The reference's own answer to the hand's batch (shaped as spec/PROTOCOL.md "batch" shapes it),
        from its answers in ``script``."""
        observe, last, steps = self.observe_mode, len(script) - 1, []
        for k, record in enumerate(script):
            entry: Message = {"act": record.act} if k else {}
            if self.states == "every" or k == last:
                entry["state"] = record.state
            if observe == "every" or (observe == "last" and k == last):
                entry["observations"] = record.observations
            steps.append(entry)
        return {"ok": True, "start": {"ok": True}, "steps": steps}

    def _check_sampled(self, trace: Trace, message: Message, script: list[_Record], answer: Message) -> None:
        """A sampled hand's batch answer against its schema, unless it is the reference's own answer, types
        included (:func:`~conformance.normalize.same_json`): that one is valid, and checking a whole hand's
        answer costs as much as playing ten hands. An invalid one fails as :meth:`Engine.receive` fails it."""
        if same_json(answer, self._reference_batch_answer(script)):
            return
        self.candidate.validate = True  # and the replay step by step, if it comes to one, checks each answer
        try:
            self.candidate.check_answer("batch", answer)
        except ProtocolViolation as exc:
            raise _Failed(CandidateFailure(
                trace=Trace(trace.options, trace.setup, trace.setup_kind, trace.hands, list(trace.steps)),
                request=message, status=exc.status, message=str(exc), stderr=self.candidate.take_stderr(),
                reference_state=script[0].state)) from None

    def _candidate_batch(self, trace: Trace, script: list[_Record],
                         sent: tuple[Message, AdapterError | None] | None = None,
                         sampled: bool = False) -> Disagreement | None:
        """Compare the candidate's answer to the hand's batch (sent now, or already, as ``sent``); ``sampled``:
        a hand whose answer is schema-checked (:meth:`_check_sampled`)."""
        message, sent_error = sent if sent is not None else (self._batch_message(trace), None)
        try:
            if sent is None:
                sent_error = self._cand_send(message)
            answer = self._cand_receive(trace, message, script[0].state, sent_error)
            if sampled:
                self._check_sampled(trace, message, script, answer)
        except _Failed as failed:
            # Crashed or hung somewhere in the hand: replay it step by step to find where.
            try:
                found = self._candidate_steps(trace, script)
            except _Failed as again:
                if again.failure.request.get("cmd") == "start":
                    # Not even a new hand could start (an in-process engine still stuck in the batch,
                    # say): the batch is where it failed.
                    raise failed from None
                raise
            if found is not None:
                return found
            raise failed
        start, steps = answer.get("start"), answer.get("steps")
        if answer.get("ok") is not True or not isinstance(start, dict) or not isinstance(steps, list):
            # An error (an engine's internal error, say) or a garbled answer: find the step step by step.
            found = self._candidate_steps(trace, script)
            if found is not None:
                return found
            self._fail(trace, message, script[0].state, f"the answer to batch is not a batch answer: {_short(answer)}")
        if not start.get("ok"):
            return self._judged(Disagreement(self._upto(trace, 0), "start", ["setup"], {"ok": True}, start), start)
        if len(steps) != len(script) or not all(isinstance(e, dict) for e in steps):
            self._fail(trace, message, script[0].state,
                       f"the answer to batch has {len(steps)} steps, not {len(script)} (the start and each action)")
        every_state, last = self.states == "every", len(script) - 1
        for k, record in enumerate(script):
            entry = steps[k]
            if 0 < k < last and record.observations is None and entry.get("act") == record.act and (
                    not every_state or entry.get("state") == record.state):
                continue  # the same answers as the reference's: nothing to walk field by field (most steps)
            cand_obs = entry.get("observations") if record.observations is not None else None
            if record.observations is not None and not (isinstance(cand_obs, list) and len(cand_obs) == 4):
                self._fail(self._upto(trace, k), message, record.state,
                           f"steps[{k}] of the batch answer lacks its 4 observations")
            found = self._compare(self._upto(trace, k), k, script, entry.get("act") if k else None,
                                  entry.get("state"), cand_obs)
            if found is not None:
                return found
        return None

    def _fail(self, trace: Trace, request: Message, reference_state: Message, message: str) -> NoReturn:
        self.candidate.kill()
        raise _Failed(CandidateFailure(trace=trace, request=request, status="error", message=message,
                                       reference_state=reference_state))

    def _judged(self, found: Disagreement, raw: Any, cmd: str | None = None) -> Disagreement:
        """``found``, once the candidate's answer behind it is known to be schema-valid: an answer that breaks
        its schema (a wrong type, an unknown enum value, NaN) is a protocol error, as the runner calls it,
        never a disagreement about the rules. Checked only here, where the answers already differ."""
        cmd = cmd or {"start": "start", "state": "state", "observe": "observe"}.get(found.where, "act")
        request: Message = {"cmd": cmd}
        if cmd == "act" and found.trace.steps:
            step = found.trace.steps[-1]
            request.update(seat=step.seat, action=step.action)
        elif cmd == "observe":
            request["seat"] = found.seat
        try:
            self.candidate.check_answer(cmd, raw)
        except ProtocolViolation as exc:
            raise _Failed(CandidateFailure(trace=found.trace, request=request, status="error", message=str(exc),
                                           reference_state=found.before or found.reference,
                                           invalid=True)) from None
        return found

    def _act_events(self, trace: Trace, ref_act: Message, cand_act: Message,
                    before: Message | None) -> Disagreement | None:
        """The candidate's accepted `act` answer against the reference's, on the fields the act schema defines."""
        fields = self.act_fields.compared(ref_act, cand_act)
        if "events" not in fields:
            fields += ("events",)
        differing = [f for f in fields if ref_act.get(f, ABSENT) != cand_act.get(f, ABSENT)]
        if not differing:
            return None
        return Disagreement(trace, "events", differing, ref_act, cand_act, before,
                            detail=event_differences(ref_act.get("events"), cand_act.get("events")))

    def _compare(self, trace: Trace, k: int, script: list[_Record], cand_act: Any, cand_state: Any,
                 cand_obs: list[Any] | None) -> Disagreement | None:
        """The first difference between the candidate's answers and the reference's after step ``k``."""
        record = script[k]
        told: Disagreement | None = None
        before = script[k - 1].state if k else None
        if k:
            step = trace.steps[-1]
            raw_act = cand_act
            if not isinstance(cand_act, dict):
                cand_act = {"ok": None, "answer": cand_act}
            if step.kind == "reject":
                kind = cand_act.get("error", {}).get("kind") if isinstance(cand_act.get("error"), dict) else None
                if cand_act.get("ok") is not False or kind != step.error:
                    return self._judged(Disagreement(trace, "reject", ["error"], record.act or {}, cand_act, before),
                                        raw_act)
            elif not cand_act.get("ok"):
                return self._judged(Disagreement(trace, "act", ["accepted"], record.state, cand_act, before), raw_act)
            elif self.events:  # reported only if the state and the observations agree: those say more
                events = self._act_events(trace, record.act or {}, cand_act, before)
                if events is not None:
                    told = self._judged(events, raw_act)
        ref_state = record.state
        if cand_state is None and self.states == "last" and k < len(script) - 1:
            return told  # states compared at the end only
        if not isinstance(cand_state, dict) or not cand_state.get("ok"):
            return self._judged(Disagreement(trace, "state", ["state"], ref_state,
                                             cand_state if isinstance(cand_state, dict) else {"ok": None}, before),
                                cand_state)
        fields = [] if cand_state == ref_state else state_differences(ref_state, cand_state)
        if fields:
            detail = []
            if "result" in fields:
                detail = differing_result_fields(ref_state.get("result"), cand_state.get("result"))
            return self._judged(Disagreement(trace, "state", fields, ref_state, cand_state, before, detail=detail),
                                cand_state)
        if cand_obs is not None and record.observations is not None:
            for seat in range(4):
                ref_obs, obs = record.observations[seat], cand_obs[seat]
                detail = [] if obs == ref_obs else observation_field_differences(ref_obs, obs)
                if detail:
                    return self._judged(Disagreement(trace, "observe", ["observation"], ref_obs,
                                                     obs if isinstance(obs, dict) else {"ok": None}, before,
                                                     seat=seat, detail=detail), obs)
        return told
