"""Engines that misbehave on purpose, to test the fuzzer's robustness.

Each is the reference :class:`~reference_engine.wire.Session` with one fault
at the protocol level (not a misreading of the rules: those are the mutants
of ``tests/mutants/catalogue.py``). Also runnable as a subprocess engine:

    python tests/fuzz/fakes.py crash-on-second-pass
"""

from __future__ import annotations

import copy
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # as a subprocess engine, from any directory
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from reference_engine.cards import Cards
from reference_engine.errors import SetupError
from reference_engine.game import Game
from reference_engine.profile import DEFAULT_PROFILE
from reference_engine.wire import Session

DEFAULTS = DEFAULT_PROFILE.options()


class CrashOnSecondPass(Session):
    """Raises (in-process) or dies (subprocess) when a second player passes in Calling."""

    name = "fake-crash-on-second-pass"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if (message.get("cmd") == "act" and message.get("action") == "pass" and self.hand is not None
                and any(a.verb == "pass" for _s, a in self.hand.history)):
            raise RuntimeError("boom: the second pass")
        return super().handle(message)


class HangOnSecondSeatCall(Session):
    """Does not answer (for 30 s) when the seat after the Dealer calls."""

    name = "fake-hang"
    delay = 30.0

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        hand = self.hand
        if (message.get("cmd") == "act" and message.get("action") == "call" and hand is not None
                and message.get("seat") == (hand.dealer + 1) % 4):
            time.sleep(self.delay)
        return super().handle(message)


class WrongHandSizes(Session):
    """Reports every other seat as holding 12 cards in ``observe`` (OBS-1), whatever they hold."""

    name = "fake-wrong-hand-sizes"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "observe" and answer.get("ok"):
            obs = answer["observation"]
            obs["hand_sizes"] = [1 if s == obs["dreamer"] else 12 for s in range(4)]
        return answer


class AcceptsWrongSeat(Session):
    """Answers ok (and does nothing) when a seat acts out of turn."""

    name = "fake-accepts-wrong-seat"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        hand = self.hand
        if (message.get("cmd") == "act" and hand is not None and hand.to_act is not None
                and message.get("seat") != hand.to_act):
            return {"ok": True}
        return super().handle(message)


class FixedAnySuit(Session):
    """Not configurable: always plays under D7=any-suit. Options it is sent (protocol 3 sends a refused
    setup's) are answered as spec/PROTOCOL.md says: what the rules do not have is ``bad-setup``, another
    option than the one it follows ``unsupported``, its own (or a default) as if not sent."""

    name = "fake-fixed-any-suit"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "hello":
            answer = super().handle(message)
            answer["configurable"] = False
            answer["options"] = {"D7": "any-suit"}
            return answer
        if message.get("cmd") in ("start", "pattern"):
            sent = message.get("options")
            if isinstance(sent, dict) and sent:
                scratch = Session()  # the rules' and the schema's refusals first, without changing this session
                scratch.handle({"cmd": "hello", "protocol": 3})
                answer = scratch.handle(message)
                if not answer.get("ok"):
                    return answer
                if any(o != ("any-suit" if d == "D7" else DEFAULTS.get(d)) for d, o in sent.items()):
                    return {"ok": False, "error": {"kind": "unsupported", "message": "follows D7=any-suit only"}}
            message = {**message, "options": {"D7": "any-suit"}}
        return super().handle(message)


class PhaseSeven(Session):
    """Answers ``phase: 7`` in ``state`` once a hand is under way (a number where the schema has a phase name)."""

    name = "fake-phase-seven"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if self.hand is not None and self.hand.history:
            for state in _states(message, answer):
                state["phase"] = 7
        return answer


class NotANumber(Session):
    """Answers ``NaN`` (subprocess: the JSON token) for seat 0's tricks once a hand is under way."""

    name = "fake-nan-tricks"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if self.hand is not None and self.hand.history:
            for state in _states(message, answer):
                state["tricks"] = [float("nan"), *state["tricks"][1:]]
        return answer


class ProtocolOneClaimingBatch(Session):
    """Speaks protocol 1 only, yet lists ``batch`` (a protocol-2 request) among its capabilities."""

    name = "fake-protocol-one-batch"
    batches = 0

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "hello":
            if message.get("protocol") != 1:
                return {"ok": False, "error": {"kind": "unsupported", "message": "protocol 1 only"}}
            answer = super().handle(message)
            answer["capabilities"] = [*answer["capabilities"], "batch"]
            return answer
        if message.get("cmd") == "batch":
            type(self).batches += 1
        return super().handle(message)


def _states(message: Mapping[str, Any], answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``state`` answers inside ``answer`` (the answer itself, or a batch's states after an action)."""
    if message.get("cmd") == "state" and answer.get("ok"):
        return [answer]
    if message.get("cmd") == "batch" and answer.get("ok"):
        return [e["state"] for e in answer["steps"][1:] if isinstance(e.get("state"), dict) and e["state"].get("ok")]
    return []


FAKES = {
    "nan-tricks": NotANumber,
    "phase-seven": PhaseSeven,
    "crash-on-second-pass": CrashOnSecondPass,
    "hang": HangOnSecondSeatCall,
    "wrong-hand-sizes": WrongHandSizes,
    "accepts-wrong-seat": AcceptsWrongSeat,
}


class StrictSeeds(Session):
    """A protocol-2 engine that takes a seed only as a decimal string (as spec/PROTOCOL.md sends it)."""

    name = "fake-strict-seeds"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        setup = message.get("setup") if message.get("cmd") in ("start", "batch") else None
        if isinstance(setup, Mapping):
            deals = setup["game"]["deals"] if "game" in setup else [setup]
            if any(not isinstance(d.get("seed", ""), str) for d in deals):
                return {"ok": False, "error": {"kind": "malformed", "message": "a seed is a decimal string"}}
        return super().handle(message)


def serve(session: Session) -> None:
    """The line-delimited JSON loop of ``python -m reference_engine``; a raise kills the process."""
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        response = session.handle(request)
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()
        if request.get("cmd") == "stop":
            break


if __name__ == "__main__":
    serve(FAKES[sys.argv[1]]())


class WrongObservedDealer(Session):
    """Names the wrong Dealer in ``observe`` (a field no scenario ``observe`` expectation holds)."""

    name = "fake-wrong-observed-dealer"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "observe" and answer.get("ok"):
            obs = answer["observation"]
            obs["dealer"] = (obs["dealer"] + 1) % 4
        return answer


class RequiredFieldsOnly(Session):
    """Sends only the fields the protocol schemas require (as the JavaScript engine does), and no batch."""

    name = "fake-required-only"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        from conformance.fuzz.fields import compared_fields

        answer = super().handle(message)
        fields = compared_fields()
        if message.get("cmd") == "hello" and answer.get("ok"):
            answer["capabilities"] = [c for c in answer["capabilities"] if c != "batch"]
        elif message.get("cmd") == "observe" and answer.get("ok"):
            obs = answer["observation"]
            answer["observation"] = {k: obs[k] for k in fields.observation.required}
        elif message.get("cmd") == "state" and answer.get("ok"):
            answer = {"ok": True, **{k: answer[k] for k in fields.state.required}}
        return answer


class MissingRequiredField(Session):
    """Leaves ``hand_sizes``, a required observation field, out of ``observe``."""

    name = "fake-missing-hand-sizes"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "observe" and answer.get("ok"):
            answer["observation"].pop("hand_sizes")
        return answer


class ExtraFields(Session):
    """Adds fields no schema defines, to state and observations: never compared."""

    name = "fake-extra-fields"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "observe" and answer.get("ok"):
            answer["observation"]["x_debug"] = id(self)
        elif message.get("cmd") == "state" and answer.get("ok"):
            answer["x_debug"] = id(self)
        return answer


class IntegerOkInBatch(Session):
    """Answers each accepted ``act`` inside a ``batch`` with ``"ok": 1``, an integer where the schema has
    ``true``: Python's ``==`` takes it for ``True``, so only a schema check of the answer tells them apart."""

    name = "fake-integer-ok-in-batch"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "batch" and answer.get("ok"):
            for entry in answer["steps"][1:]:
                if entry.get("act", {}).get("ok") is True:
                    entry["act"]["ok"] = 1
        return answer


class RoundOutsidePlaying(Session):
    """Sends a ``round`` object in every phase (as protocol-1 engines did): not defined outside playing."""

    name = "fake-round-everywhere"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "state" and answer.get("ok") and answer.get("round") is None:
            answer["round"] = {"leader": answer["dealer"], "plays": []}
        return answer


# ------------------------------------------------------------------ faults only one kind of request meets


class SeedPastItsBound(Session):
    """Takes a seed above 2^64 - 1 (protocol 2's decimal strings) as that seed modulo 2^64, where D33 has
    no such seed and the protocol says ``bad-setup`` (spec/PROTOCOL.md "Which error wins", 6): only a setup
    to be refused sends one."""

    name = "fake-seed-past-its-bound"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        setup = message.get("setup")
        if message.get("cmd") in ("start", "batch") and isinstance(setup, Mapping):
            seed = setup.get("seed")
            if isinstance(seed, str) and seed.isdigit() and len(seed) <= 20 and int(seed) >= 2**64:
                message = {**message, "setup": {**setup, "seed": str(int(seed) % 2**64)}}
        return super().handle(message)


class DeclaresNoBatch(Session):
    """The reference declaring neither ``batch`` nor ``playout``: the fuzzer sends it every setup in a ``start``."""

    name = "fake-declares-no-batch"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "hello" and answer.get("ok"):
            answer["capabilities"] = [c for c in answer["capabilities"] if c not in ("batch", "playout")]
        return answer


class SeedPastItsBoundWithoutBatch(SeedPastItsBound, DeclaresNoBatch):
    """:class:`SeedPastItsBound` declaring no ``batch``: its refused setups are all sent in a ``start``."""

    name = "fake-seed-past-its-bound-without-batch"


class RefusesTheLargestSeed(DeclaresNoBatch):
    """Refuses the seed 2^64 - 1 (which D33 deals from) as ``bad-setup`` in a ``start``, declaring no ``batch``:
    only a setup at its bound sends it."""

    name = "fake-refuses-the-largest-seed"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        setup = message.get("setup")
        if message.get("cmd") == "start" and isinstance(setup, Mapping) and str(setup.get("seed")) == str(2**64 - 1):
            return {"ok": False, "error": {"kind": "bad-setup", "message": "the seed is out of range"}}
        return super().handle(message)


class DealsTheLargestSeedAsZero(DeclaresNoBatch):
    """Deals the seed 2^64 - 1 as the seed 0 (a 64-bit seed read into a signed integer that overflows), declaring
    no ``batch``: only a setup at its bound sends it, and the state after it shows other hands."""

    name = "fake-deals-the-largest-seed-as-zero"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        setup = message.get("setup")
        if message.get("cmd") == "start" and isinstance(setup, Mapping) and str(setup.get("seed")) == str(2**64 - 1):
            message = {**message, "setup": {**setup, "seed": "0"}}
        return super().handle(message)


class MiscountsDepthTwo(Session):
    """Counts one sequence too many at depth 2 (in ``counts`` and in ``divide``'s first entry): only a count meets it."""

    name = "fake-miscounts-depth-two"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "count" and answer.get("ok") and len(answer["counts"]) == 2 and answer["counts"][1]:
            answer["counts"][1] += 1
            if answer.get("divide"):
                first = next(iter(answer["divide"]))
                answer["divide"][first] += 1
        return answer


class RefusesShortForms(Session):
    """Refuses an action naming a card in a short form (``S9``, ``n1``, ``W``) as malformed, which
    spec/PROTOCOL.md "Action text" makes legal: only a respelled action meets it."""

    name = "fake-refuses-short-forms"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "act" and _short_form(message.get("action")):
            return {"ok": False, "error": {"kind": "malformed", "message": "cards are written in full"}}
        if message.get("cmd") == "batch" and any(_short_form(s.get("action")) for s in message.get("steps", [])):
            return {"ok": False, "error": {"kind": "malformed", "message": "cards are written in full"}}
        return super().handle(message)


def _short_form(action: Any) -> bool:
    return isinstance(action, str) and any(len(word) <= 2 for word in action.split()[1:])


class ShowsTheDreamerAfterARefusedSetup(Session):
    """After a refused ``start``, shows the Dreamer's card to every seat in ``observe`` (as if the refused
    hand had been half set up), while ``state`` is unchanged: only the observations after a refused setup meet it."""

    name = "fake-shows-the-dreamer-after-a-refused-setup"
    refused = False

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") in ("start", "batch"):
            self.refused = message.get("cmd") == "start" and not answer.get("ok")
        elif message.get("cmd") == "act" and answer.get("ok"):
            self.refused = False
        elif message.get("cmd") == "observe" and answer.get("ok") and self.refused and self.hand is not None:
            dreamer = answer["observation"]["dreamer"]
            answer["observation"]["dreamer_card"] = super().handle({"cmd": "observe", "seat": dreamer})[
                "observation"]["dreamer_card"]
        return answer


class IgnoresOptions(Session):
    """Not configurable, and takes every ``options`` it is sent as if none were sent, where protocol 3 wants
    ``bad-setup`` for an unknown decision and ``unsupported`` for an option it does not follow: only a
    setup to be refused sends it options."""

    name = "fake-ignores-options"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "hello":
            answer = super().handle(message)
            answer["configurable"] = False
            return answer
        if message.get("cmd") in ("start", "pattern") and "options" in message:
            message = {k: v for k, v in message.items() if k != "options"}
        return super().handle(message)


class DropsOptionsOfTheWrongShape(Session):
    """Drops a decision option whose ID is not kebab-case (``"Any Suit"``) and plays on, where protocol 3 refuses
    the start: only a setup sent an option of the wrong shape meets it, which no scenario can write."""

    name = "fake-drops-options-of-the-wrong-shape"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        options = message.get("options")
        if message.get("cmd") in ("start", "batch") and isinstance(options, Mapping):
            kept = {d: o for d, o in options.items() if isinstance(o, str) and o == o.lower() and " " not in o}
            message = {**message, "options": kept}
        return super().handle(message)


class RefusesABatchWithoutObservations(Session):
    """Refuses as ``malformed`` a ``batch`` of steps that asks for no observations (``observe`` is optional, ``none``
    by default): of a candidate's batches, only a count's, which plays the hand up to the state it counts at."""

    name = "fake-refuses-a-batch-without-observations"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "batch" and message.get("steps") and "observe" not in message and "playout" not in message:
            return {"ok": False, "error": {"kind": "malformed", "message": "a batch names its observe"}}
        return super().handle(message)


class MisclassifiesSets(Session):
    """Answers ``pattern`` that a Set is a Run (its play of a Set is right): only a pattern check meets it."""

    name = "fake-misclassifies-sets"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "pattern" and answer.get("pattern") == "set":
            answer["pattern"] = "run"
        return answer


class RefusesABatchSetupWhole(Session):
    """Answers a ``batch`` whose setup the rules refuse with an error object (the start's error), where the
    protocol wants ``ok`` with the refusal as the ``start`` answer: only a refused setup sent in a batch meets it."""

    name = "fake-refuses-a-batch-setup-whole"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "batch" and answer.get("ok") and not answer["start"].get("ok"):
            start: dict[str, Any] = answer["start"]
            return start
        return answer


class RefusesAMissingDealAsIllegal(Session):
    """Refuses the move that would reach a missing or bad deal of a game as ``illegal``, where the protocol
    says ``bad-setup``: only a game given explicit later deals, or too few, meets it."""

    name = "fake-refuses-a-missing-deal-as-illegal"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "batch" and answer.get("ok"):
            for step in answer["steps"]:
                act = step.get("act") if isinstance(step, dict) else None
                if act is not None and not act.get("ok") and act["error"]["kind"] == "bad-setup":
                    act["error"]["kind"] = "illegal"
        elif message.get("cmd") == "act" and not answer.get("ok") and answer["error"]["kind"] == "bad-setup":
            answer["error"]["kind"] = "illegal"
        return answer


class ListsLegalActionsReversed(Session):
    """Lists ``legal.actions`` of every ``state`` (alone or in a ``batch``) in reverse canonical order while
    declaring ``playout``, whose draws index that order (the same set: a comparison of ``legal`` as sets
    passes); only the runner's order check for an engine that declares ``playout`` meets it."""

    name = "fake-lists-legal-actions-reversed"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        states = _states(message, answer)
        if message.get("cmd") == "batch" and answer.get("ok") and isinstance(answer["steps"][0].get("state"), dict):
            states.append(answer["steps"][0]["state"])
        for state in states:
            legal = state.get("legal")
            if isinstance(legal, dict) and isinstance(legal.get("actions"), list):
                legal["actions"] = legal["actions"][::-1]
        return answer


class ListsObservedLegalActionsReversed(Session):
    """Lists the ``legal.actions`` of every observation (alone or in a ``batch``) in reverse canonical order while
    declaring ``playout``, its ``state`` right: only the runner's order check of what a seat observes meets it."""

    name = "fake-lists-observed-legal-actions-reversed"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        observations = [answer] if message.get("cmd") == "observe" else [
            seen for entry in answer.get("steps", ()) if isinstance(entry, dict)
            for seen in entry.get("observations", ())] if message.get("cmd") == "batch" else []
        for seen in observations:
            legal = seen.get("observation", {}).get("legal") if seen.get("ok") else None
            if isinstance(legal, dict) and isinstance(legal.get("actions"), list):
                legal["actions"] = legal["actions"][::-1]
        return answer


def _with_texts(message: Mapping[str, Any], change: Any) -> dict[str, Any]:
    """``message`` with ``change`` applied to each card or action text it sends: a setup's hands and deck (a game's
    deals too), an action, a batch's steps' actions and a pattern's cards."""
    def text(value: Any) -> Any:
        return change(value) if isinstance(value, str) else value

    def deal(d: Any) -> Any:
        if not isinstance(d, Mapping):
            return d
        out = dict(d)
        if isinstance(out.get("hands"), list):
            out["hands"] = [text(h) for h in out["hands"]]
        if "deck" in out:
            out["deck"] = text(out["deck"])
        return out

    out = dict(message)
    setup = out.get("setup")
    if isinstance(setup, Mapping):
        game = setup.get("game")
        if isinstance(game, Mapping) and isinstance(game.get("deals"), list):
            out["setup"] = {**setup, "game": {**game, "deals": [deal(d) for d in game["deals"]]}}
        else:
            out["setup"] = deal(setup)
    if "action" in out:
        out["action"] = text(out["action"])
    if isinstance(out.get("steps"), list):
        out["steps"] = [{**s, "action": text(s.get("action"))} if isinstance(s, Mapping) and "action" in s else s
                        for s in out["steps"]]
    for name in ("classify", "current", "challenger", "elders"):
        if name in out:
            out[name] = text(out[name])
    return out


class SplitsAtSpacesOnly(Session):
    """Reads "space-separated" literally: only U+0020 separates the words of card and action text, so a tab, a
    line end or a no-break space joins two words into one that is no card (``malformed``)."""

    name = "fake-splits-at-spaces-only"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        from reference_engine.cards import WHITE_SPACE

        others = WHITE_SPACE.replace(" ", "")
        joined = _with_texts(message, lambda t: "".join("\x00" if c in others else c for c in t))
        return super().handle(joined)


class SplitsAtUnitSeparators(Session):
    """Splits card and action text where Python's ``str.split()`` does: at White_Space and at U+001C-U+001F too,
    which are no white space, so a word ending in U+001F is taken for the card before it."""

    name = "fake-splits-at-unit-separators"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        return super().handle(_with_texts(message, lambda t: t.translate({c: " " for c in range(0x1C, 0x20)})))


class CountsIntoTheNextDeal(Session):
    """Counts on into the next deal in a game (protocol 3 counts the hand in play only): after the action that
    ends a hand, the next hand's actions are counted too. Only a count inside a game whose depth reaches a
    hand's end meets it."""

    name = "fake-counts-into-the-next-deal"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "count" and answer.get("ok") and self.game is not None:
            answer["counts"] = _game_perft(self.game, message["depth"])
            if "divide" in answer:
                answer["divide"] = {}
                for action in self.game.hand.legal_actions() if not self.game.over else ():
                    child = copy.deepcopy(self.game)
                    try:
                        child.apply(child.to_act, action)
                    except SetupError:
                        answer["divide"][str(action)] = int(message["depth"] == 1)
                        continue
                    answer["divide"][str(action)] = (
                        _game_perft(child, message["depth"] - 1)[-1] if message["depth"] > 1 else 1)
        return answer


def _game_perft(game: Game, depth: int) -> list[int]:
    """Sequences of 1..depth actions of ``game``, walking on from one hand into the next deal."""
    counts = [0] * depth

    def walk(node: Game, level: int) -> None:
        if node.over:
            return
        legal = node.hand.legal_actions()
        counts[level] += len(legal)
        if level + 1 == depth:
            return
        for action in legal:
            child = copy.deepcopy(node)
            try:
                child.apply(child.to_act, action)
            except SetupError:  # the next deal is missing: the action is counted, nothing after it
                continue
            walk(child, level + 1)

    walk(game, 0)
    return counts


class DivideCountsEveryDepth(Session):
    """Answers each first action's divide as the sequences of every length up to ``depth`` it starts (where the
    protocol counts those of the last depth only), its counts right: only a count stating its divide meets it."""

    name = "fake-divide-counts-every-depth"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "count" and answer.get("ok") and "divide" in answer:
            total = dict.fromkeys(answer["divide"], 0)
            for depth in range(1, message["depth"] + 1):
                for action, n in super().handle({**message, "depth": depth})["divide"].items():
                    total[action] += n
            answer["divide"] = total
        return answer


class StopsABatchAtARefusedStep(Session):
    """Takes a batch's steps up to its first refused one and no further (the protocol takes the next step
    still): only a batch with a refused step before others meets it."""

    name = "fake-stops-a-batch-at-a-refused-step"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "batch" and "playout" not in message:
            scratch = Session()
            scratch.handle({"cmd": "hello", "protocol": 3})
            trial = scratch.handle(message)
            if trial.get("ok"):
                refused = [k for k, e in enumerate(trial["steps"][1:]) if not e["act"]["ok"]]
                if refused:
                    message = {**message, "steps": list(message["steps"])[:refused[0] + 1]}
        return super().handle(message)


class StatesEveryStepOfABatch(Session):
    """Answers every step of a batch with its ``state``, ``state: last`` or not: only a batch sent with
    ``state: last`` meets it."""

    name = "fake-states-every-step-of-a-batch"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "batch" and message.get("state") == "last":
            message = {**message, "state": "every"}
        return super().handle(message)


class PlaysABatchOnACopy(Session):
    """Plays a batch on a copy of the session and leaves the session as it was before it (the protocol leaves
    it where the last step did): only a request sent after a batch meets it."""

    name = "fake-plays-a-batch-on-a-copy"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") != "batch":
            return super().handle(message)
        saved = (self._hand, self.game, self.profile)
        answer = super().handle(message)
        if answer.get("ok") and answer["start"].get("ok"):
            self._hand, self.game, self.profile = saved
        return answer


class ShowsTheDreamersCardAfterAWonHand(Session):
    """Shows every seat the Dreamer's card when the game's last ended hand was won (the game's ``result``),
    where the rules show it once the hand in play is won: only an observation of a hand dealt right after
    a won hand meets it."""

    name = "fake-shows-the-dreamers-card-after-a-won-hand"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        game = self.game
        if (message.get("cmd") == "observe" and answer.get("ok") and game is not None and game.results
                and game.results[-1].winner is not None and answer["observation"]["dreamer_card"] is None):
            answer["observation"]["dreamer_card"] = str(Cards(1 << game.hand.dreamer_card))
        return answer
