"""In-process engines built on the reference, each changing one thing a foreign engine might.

Factories for ``python:contract_engines:NAME`` (this directory is on sys.path
in the conformance tests). Every one records the requests it receives.
"""

from __future__ import annotations

from typing import Any

from reference_engine.wire import Session


class Recording(Session):
    """The reference, declaring ``capabilities`` under ``protocol``; records every request."""

    def __init__(self, capabilities: tuple[str, ...] | None = None, protocol: int = 2) -> None:
        super().__init__()
        self.declared = capabilities
        self.speaks = protocol
        self.received: list[dict[str, Any]] = []

    def handle(self, message: Any) -> dict[str, Any]:
        self.received.append(message)
        if message.get("cmd") == "hello":
            if message.get("protocol") != self.speaks:
                return {"ok": False, "error": {"kind": "unsupported", "message": f"I speak {self.speaks}"}}
            answer = super().handle(message)
            if self.declared is not None:
                answer["capabilities"] = list(self.declared)
            return answer
        return super().handle(message)


def only_pattern() -> Recording:
    return Recording(("pattern",))


def no_observe_no_game() -> Recording:
    return Recording(("hands", "deck", "seed", "pattern", "count"))


def only_seeds() -> Recording:
    return Recording(("seed", "observe", "count"))


class Unsupporting(Recording):
    """Declares everything, then answers `unsupported` to `count`."""

    def handle(self, message: Any) -> dict[str, Any]:
        if message.get("cmd") == "count":
            self.received.append(message)
            return {"ok": False, "error": {"kind": "unsupported", "message": "no perft here"}}
        return super().handle(message)


def unsupported_count_v2() -> Unsupporting:
    return Unsupporting(("hands", "deck", "seed", "count"), protocol=2)


def unsupported_count_v1() -> Unsupporting:
    return Unsupporting(("pattern", "count"), protocol=1)


def protocol_1() -> Recording:
    return Recording(("pattern", "count", "observe", "game"), protocol=1)


class WrongDreamerCount(Recording):
    """Counts the Dreamer's matches one too many (SCORE-4)."""

    def handle(self, message: Any) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "state" and answer.get("result") and answer["result"]["dreamer_count"] is not None:
            answer["result"]["dreamer_count"] += 1
        return answer


def wrong_dreamer_count() -> WrongDreamerCount:
    return WrongDreamerCount()


class MiscountsPass(Recording):
    """Counts one sequence too many behind a first `pass` (so depth 2 and deeper are wrong)."""

    def handle(self, message: Any) -> dict[str, Any]:
        answer = super().handle(message)
        if (message.get("cmd") == "count" and answer.get("ok") and message["depth"] >= 2
                and (answer.get("divide", {}).get("pass") is not None or self._can_pass())):
            answer["counts"][-1] += 1
            if "divide" in answer:
                answer["divide"]["pass"] += 1
        return answer


    def _can_pass(self) -> bool:
        return self.hand is not None and "pass" in {str(a) for a in self.hand.legal_actions()}


def miscounts_pass() -> MiscountsPass:
    return MiscountsPass()


def miscounts_pass_without_divide() -> MiscountsPass:
    return MiscountsPass(("hands", "deck", "seed", "count"))


class AcceptsEverySetup(Recording):
    """Takes any `start`, dealing the reference's seed 0 when the setup is wrong."""

    def handle(self, message: Any) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "start" and not answer["ok"]:
            return super().handle({"cmd": "start", "setup": {"dealer": 0, "seed": "0"}})
        return answer


def accepts_every_setup() -> AcceptsEverySetup:
    return AcceptsEverySetup(protocol=3)  # the newest: every setup scenario is run, those of protocol 3 too


class ForgetsOnRefusal(Recording):
    """Refuses bad setups rightly, but drops the hand in play first."""

    def handle(self, message: Any) -> dict[str, Any]:
        if message.get("cmd") == "start":
            self._hand = self.game = None
        return super().handle(message)


def forgets_on_refusal() -> ForgetsOnRefusal:
    return ForgetsOnRefusal(protocol=3)  # the newest: every setup scenario is run, those of protocol 3 too
