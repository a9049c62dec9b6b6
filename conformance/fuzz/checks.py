"""Side checks of a fuzz hand: requests besides the hand's own play, each compared with the reference's answer.

A hand may carry, drawn from its chooser like every other choice:

- a **refused setup** (:mod:`~conformance.fuzz.faults`): ``start`` the hand, ``start`` a broken setup
  (compared on the error kind only, or accepted alike), then ``state`` and every seat's ``observe``,
  which the refusal must have left as they were;
- a **count** at a state drawn from the hand's play: the hand's setup and its first actions (in one
  ``batch`` to an engine that declares it), then ``count`` of a small depth, with ``divide`` when the
  candidate declares it; compared exactly (counts, and the divide map). A count the candidate refuses
  as ``unsupported`` (a bound on one request's work, which the protocol leaves to each engine) is not
  compared;
- **action text variants**: the hand's actions sent in spellings the protocol makes legal (verbs and
  cards in any case, the cards of an action in any order, short card forms), first to the reference,
  which must accept them and reach the same state (:func:`variant`).

The check's requests are sent to the reference when the hand is prepared and to the candidate when it
is finished (the candidate may still be answering an earlier hand meanwhile); every class a check
reaches is one more outcome id of the hand, so the campaign prints what each kind covered.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..notation import CANONICAL_DECK, card, card_text, cards
from .compare import observation_field_differences, state_differences
from .faults import DRAWN, Fault, FaultBuilder
from .model import Chooser, Disagreement, FuzzerError, Step, Trace
from .moves import DEAL_CLASSES

Message = dict[str, Any]

SETUP_CHECK_PERCENT = 34
"""Share of hands that also send a setup to be refused (or accepted at a bound)."""
COUNT_CHECK_PERCENT = 25
"""Share of hands that also count at one of their states."""
PATTERN_CHECK_PERCENT = 20
"""Share of hands that also ask ``pattern`` to classify cards of their plays."""
BATCH_SETUP_PERCENT = 25
"""Share of the refused setups sent in a ``batch`` (to an engine that declares it) rather than a ``start``."""
PATTERNS = ("single", "run", "set", "none")
VARIANT_PERCENT = 25
"""Share of hands (played by the reference's playout) whose actions are sent in variant spellings."""
GAME_CHECK_COUNT_PERCENT = 60
"""Share of games that also count at one of their states (a count within a game is what games alone ask)."""
PROBE_PERCENT = 25
"""Share of hands (played by the reference's playout) that probe: states at every step, refused actions drawn
from them and answered by the reference in a second ``batch`` (a probing hand costs about twice a plain one)."""
QUIET_PERCENT = {"setup": 8, "count": 6, "variant": 6, "game": 2, "pattern": 4, "probe": 8}
"""Each extra kind's share once it has stopped finding: every one of its classes met :data:`RARE_MET` times in
the lane (:class:`Rates`). Not zero: a fault may hide in a class already met."""
RARE_MET = 3
VARIANTS = ("case", "order", "short", "space")
SEPARATORS = ("\t", "  ", "\n", "\r\n", "\u00a0", "\u3000", " \t ")
"""White space that separates words of action text under every protocol version (spec/PROTOCOL.md, "White
space": tabs, line ends, runs of spaces, U+00A0 and U+3000, where every language's white space agrees)."""
SIDE_PREFIXES = ("kind:", "setup:", "count:", "variant:", "observe:", "hands:", "dealer:", "seed:", "deck:",
                 "game-setup:", "options:", "precedence:", "pattern:", "deals:")
"""The outcome ids of side checks: coverage of the request kinds, never what the search steers by."""


def is_side(outcome: str) -> bool:
    return outcome.startswith(SIDE_PREFIXES)
COUNT_PHASES = ("calling", "playing", "ended")


@dataclass(frozen=True)
class Rates:
    """How often a hand carries each extra kind (percent): a refused setup, a count, respelled actions, and how
    often a hand is a whole game (which costs about six hands). A guided lane lowers a kind's rate to
    :data:`QUIET_PERCENT` once that kind has stopped finding (:meth:`quieted`), so that the extra kinds cost in
    proportion to what they find; a hand's rates go with it, so that it replays (shrinks) as it was played."""

    setup: int = SETUP_CHECK_PERCENT
    count: int = COUNT_CHECK_PERCENT
    variant: int = VARIANT_PERCENT
    game: int = 7
    pattern: int = PATTERN_CHECK_PERCENT
    probe: int = PROBE_PERCENT

    def quieted(self, kinds: Iterable[str]) -> Rates:
        """These rates with ``kinds`` (of ``setup``, ``count``, ``variant``, ``game``, ``pattern``, ``probe``) at
        their quiet share."""
        return replace(self, **{k: min(getattr(self, k), QUIET_PERCENT[k]) for k in kinds})


FULL_RATES = Rates()


@dataclass(frozen=True)
class Mix:
    """What the side checks may send the candidate, decided from its handshake."""

    faults: tuple[Fault, ...] = ()
    count: bool = False
    divide: bool = False
    pattern: bool = False
    """Whether to ask ``pattern`` (capability ``pattern``; under options, only of an engine sent them)."""
    explicit_deals: bool = False
    """Whether a game's later deals may be explicit hands or too few (capabilities game and hands, protocol 2 and
    later: a deal the game reaches is checked then, and the move that reaches a bad one refused)."""
    batch_setups: bool = False
    """Whether to send some refused setups in a ``batch``: protocol 3 (a batch whose setup breaks its schema is an
    error object; under protocol 2 it may be the start's answer, and the kinds would still agree, but the
    protocol leaves that to version 3 for the fuzzer)."""
    variants: bool = True
    observe: bool = False
    batch: bool = False
    games: bool = False
    count_games: bool = False
    """Whether to count within a game: protocol 3 says a count ends with the hand in play; a protocol-2
    engine may count on into the next deal (the Go engine does), so it is counted in single hands only."""
    options: dict[str, str] = field(default_factory=dict)
    send_options: bool = True
    other_options: tuple[tuple[str, str], ...] = ()
    unfollowed: frozenset[tuple[str, str]] = frozenset()
    """Of ``other_options``, those the candidate does not follow: it must answer ``unsupported``."""

    def classes(self) -> dict[str, tuple[str, ...]]:
        """The coverage classes of each side-check kind, as this candidate is fuzzed."""
        out: dict[str, tuple[str, ...]] = {}
        if self.faults:
            out["setup"] = tuple(f.id for f in self.faults) + (("setup:in-batch",) if self.batch_setups else ())
        if self.explicit_deals:
            out["deals"] = DEAL_CLASSES
        if self.pattern:
            out["pattern"] = tuple(f"pattern:{p}" for p in PATTERNS)
        if self.count:
            out["count"] = ("count:depth:1", "count:depth:2", *(("count:divide",) if self.divide else ()),
                            *(f"count:phase:{p}" for p in COUNT_PHASES), *(("count:in-game",) if self.games and self.count_games else ()))
        if self.variants:
            out["variant"] = tuple(f"variant:{v}" for v in VARIANTS)
        if self.observe:
            out["observe"] = ("observe:after-refused-action", *(("observe:after-refused-setup",) if self.faults else ()))
        return out


@dataclass
class Exchange:
    """One request of a check, the reference's answer to it, and how the candidate's is compared:
    ``kind`` (accepted alike, or refused with the same error kind), ``state``, ``observe``, ``count``."""

    request: Message
    answer: Message
    compare: str
    expect_kind: str | None = None
    """The error kind the protocol itself requires here, whatever the reference answered (an option the
    candidate does not follow: ``unsupported``)."""


@dataclass
class Check:
    kind: str  # "setup" | "count" | "pattern"
    trace: Trace
    exchanges: list[Exchange]
    outcomes: frozenset[str]
    hand: Trace | None = None
    """The hand the check was drawn from (its setup and options), when ``trace`` is another: a setup check's
    ``trace`` is the setup it breaks, and a scenario of it starts the hand ``before`` it."""
    fault: Fault | None = None
    """A setup check's fault (the least protocol it is sent under, whether it sends options)."""


class Checks:
    """Draws a hand's side checks and asks the reference (``ask``) for its answers."""

    def __init__(self, ask: Callable[[Message], Message], mix: Mix) -> None:
        self.ask = ask
        self.mix = mix
        self.builder = FaultBuilder(mix.options, list(mix.other_options))
        self.faults = tuple(f for f in DRAWN if f in mix.faults)

    def _start(self, setup: Message, options: dict[str, str] | None = None, to_candidate: bool = True) -> Message:
        """``start`` under the campaign's options (sent to the candidate only if it takes them), or under
        ``options`` (a fault's, sent to both)."""
        message: Message = {"cmd": "start", "setup": setup}
        sent = self.mix.options if options is None else options
        if sent and (self.mix.send_options or options is not None or not to_candidate):
            message["options"] = dict(sent)
        return message

    def _exchange(self, request: Message, compare: str, expect_kind: str | None = None,
                  reference: Message | None = None) -> Exchange:
        """``request`` to the candidate; to the reference ``reference`` (the same request with the campaign's
        options, which the reference always needs), or the same."""
        return Exchange(request, self.ask(request if reference is None else reference), compare, expect_kind)

    def _start_exchange(self, setup: Message, message: Message | None = None) -> Exchange:
        """The hand's own ``start`` (or ``message`` built on it, a ``batch``) on both engines."""
        candidate, reference = self._start(setup), self._start(setup, to_candidate=False)
        if message is not None:
            candidate, reference = {**candidate, **message}, {**reference, **message}
        return self._exchange(candidate, "kind" if message is None else "batch", reference=reference)

    def draw(self, trace: Trace, chooser: Chooser, rates: Rates = FULL_RATES) -> list[Check]:
        """The side checks of the hand ``trace`` (played on the reference already), at ``rates``."""
        checks = []
        if self.faults and chooser.below(100) < rates.setup:
            checks.append(self.setup_check(trace, chooser))
        game = "game" in trace.setup
        countable = not game or self.mix.count_games
        if self.mix.count and countable and chooser.below(100) < (GAME_CHECK_COUNT_PERCENT if game else rates.count):
            checks.append(self.count_check(trace, chooser))
        if self.mix.pattern and chooser.below(100) < rates.pattern:
            check = self.pattern_check(trace, chooser)
            if check is not None:
                checks.append(check)
        return checks

    def pattern_check(self, trace: Trace, chooser: Chooser) -> Check | None:
        """``pattern`` asked to classify the cards of one of the hand's plays, as played, or with one card
        changed for another of the deck (mostly no pattern), or one card of it alone; None if nothing was played."""
        plays = [s.action.split()[1:] for s in trace.steps if s.kind == "do" and s.action.startswith("play ")]
        if not plays:
            return None
        names = list(cards(plays[chooser.below(len(plays))]))
        how = chooser.below(4)
        if how == 1:
            outside = [c for c in CANONICAL_DECK if c not in names]
            names[chooser.below(len(names))] = outside[chooser.below(len(outside))]
        elif how == 2:
            names = [names[chooser.below(len(names))]]
        request: Message = {"cmd": "pattern", "classify": card_text(names)}
        reference = dict(request)  # options as a start sends them: never an empty "options", and to the
        if self.mix.options:       # candidate only if it takes them (a protocol-1 engine that is not
            reference["options"] = dict(self.mix.options)  # configurable is never sent any)
            if self.mix.send_options:
                request["options"] = dict(self.mix.options)
        exchange = self._exchange(request, "pattern", reference=reference)
        answer = exchange.answer
        if not answer.get("ok"):
            raise FuzzerError(f"the reference refused to classify {request['classify']!r}: {answer}")
        return Check("pattern", Trace(trace.options, trace.setup, trace.setup_kind, trace.hands, []), [exchange],
                     frozenset({f"pattern:{answer['pattern']}"}))

    def setup_check(self, trace: Trace, chooser: Chooser) -> Check:
        fault = self.faults[chooser.below(len(self.faults))]
        setup, options, reached = self.builder.build(fault.id, chooser)
        expect = None
        if fault.id == "options:other" and options is not None:
            changed = {(d, o) for d, o in options.items() if self.mix.options.get(d) != o}
            expect = "unsupported" if changed & self.mix.unfollowed else None
        broken = self._start(setup, options)
        in_batch = self.mix.batch_setups and chooser.below(100) < BATCH_SETUP_PERCENT
        if in_batch:
            broken = {**broken, "cmd": "batch", "steps": [], "state": "last"}
        exchanges = [self._start_exchange(trace.setup),
                     self._exchange(broken, "kind", expect),
                     self._exchange({"cmd": "state"}, "state")]
        refusal = refusal_kind(exchanges[1].answer)
        refused = refusal is not None
        kind = "accepted" if not refused else str(refusal)
        if expect is not None:
            kind = expect
        reached = [*reached, f"setup:{kind}", *(("setup:in-batch",) if in_batch else ())]
        if self.mix.observe:
            exchanges += [self._exchange({"cmd": "observe", "seat": seat}, "observe") for seat in range(4)]
            if refused:
                reached.append("observe:after-refused-setup")
        bad = Trace(trace.options if options is None else dict(options), setup, f"fault {fault.id}")
        return Check("setup", bad, exchanges, frozenset(reached), hand=trace, fault=fault)

    def count_check(self, trace: Trace, chooser: Chooser) -> Check:
        done = [s for s in trace.steps if s.kind == "do"]
        at = len(done) if chooser.below(4) == 0 else chooser.below(len(done) + 1)
        prefix = done[:at]
        game = "game" in trace.setup
        if self.mix.batch:
            exchanges = [self._start_exchange(trace.setup, {
                "cmd": "batch", "steps": [{"seat": s.seat, "action": s.action} for s in prefix], "state": "last"})]
        else:
            exchanges = [self._start_exchange(trace.setup)]
            exchanges += [self._exchange({"cmd": "act", "seat": s.seat, "action": s.action}, "kind") for s in prefix]
        phase = self.ask({"cmd": "state"}).get("phase")  # the reference's own, to know where it counts
        depth = 1 + chooser.below(2)
        request: Message = {"cmd": "count", "depth": depth}
        if self.mix.divide and chooser.below(2):
            request["divide"] = True
        exchanges.append(self._exchange(request, "count"))
        reached = {f"count:depth:{depth}", f"count:phase:{'ended' if phase == 'game-over' else phase}"}
        if "divide" in request:
            reached.add("count:divide")
        if game:
            reached.add("count:in-game")
        return Check("count", Trace(trace.options, trace.setup, trace.setup_kind, trace.hands, list(prefix)),
                     exchanges, frozenset(reached))


def compare(check: Check, exchange: Exchange, answer: Any, before: Message | None) -> Disagreement | None:
    """The disagreement of the candidate's ``answer`` with the reference's, if any."""
    ref = exchange.answer
    got = answer if isinstance(answer, dict) else {"ok": None, "answer": answer}
    where = check.kind

    def differs(fields: list[str], detail: list[str] | None = None) -> Disagreement:
        return Disagreement(check.trace, where, fields, ref, got, before, detail=detail or [exchange.request["cmd"]],
                            request=exchange.request, check=check)

    if exchange.compare == "batch":
        if got.get("ok") is not True or not isinstance(got.get("start"), dict) or not got["start"].get("ok"):
            return differs(["batch"])
        return None
    if exchange.compare == "count" and not got.get("ok") and refusal_kind(got) == "unsupported":
        return None  # a bound on one request's work: each engine's own (spec/PROTOCOL.md "Bounds")
    if exchange.expect_kind is not None:
        return None if refusal_kind(got) == exchange.expect_kind else differs(["error"])
    if got == ref:
        return None  # the same answer: nothing to tell apart (most are)
    if refusal_kind(ref) != refusal_kind(got) or bool(ref.get("ok")) != bool(got.get("ok")):
        return differs(["error" if refusal_kind(ref) is not None else "accepted"])
    if not ref.get("ok") or exchange.compare == "kind":
        return None
    if exchange.compare == "pattern":
        return differs(["pattern"]) if got.get("pattern") != ref.get("pattern") else None
    if exchange.compare == "state":
        fields = state_differences(ref, got)
        return differs(fields) if fields else None
    if exchange.compare == "observe":
        detail = observation_field_differences(ref, got)
        return differs(["observation"], detail) if detail else None
    fields = [f for f in ("counts", "divide") if f in ref and ref.get(f) != got.get(f)]
    return differs(fields) if fields else None


def refusal_kind(answer: Message) -> Any:
    """The error kind of an answer: its own, or (a ``batch`` answer) its ``start``'s; None if accepted."""
    error = answer.get("error")
    if not isinstance(error, dict) and answer.get("ok") is True and isinstance(answer.get("start"), dict):
        error = answer["start"].get("error")  # a batch whose setup the rules refuse: the start answers it
    return error.get("kind") if isinstance(error, dict) else None


# ------------------------------------------------------------------ action text variants


def variant(action: str, how: str, rng: random.Random) -> str:
    """``action`` spelled another way the protocol makes legal (spec/PROTOCOL.md "Action text"): ``case``
    (the verb and the cards in other letter cases), ``order`` (the cards in another order), ``short``
    (short card forms, ``S9``, ``n1``, ``W``), ``space`` (other white space between the words, and some
    before or after them: :data:`SEPARATORS`)."""
    verb, *names = action.split()
    if how == "space":
        def space() -> str:
            return SEPARATORS[rng.randrange(len(SEPARATORS))]
        edges = [space() if rng.randrange(2) else "" for _ in range(2)]
        return edges[0] + verb + "".join(space() + n for n in names) + edges[1]
    if how == "case":
        verb = (verb.upper(), verb.capitalize(), verb.swapcase())[rng.randrange(3)]
        names = [n.upper() if rng.randrange(2) else n.lower() for n in names]
    elif how == "order":
        names = names[::-1] if len(names) > 1 and rng.randrange(2) else rng.sample(names, len(names))
    else:
        names = [_short(n) if rng.randrange(3) else n for n in names] if len(names) > 1 else [_short(n) for n in names]
    return " ".join([verb, *names])


def _short(name: str) -> str:
    canonical = card(name)
    if canonical == "WanSin":
        return "W"
    return {"Sup": "S", "Gon": "g", "Zok": "Z", "Sin": "n"}[canonical[:3]] + canonical[3:]


def variant_steps(steps: list[Step], chooser: Chooser) -> tuple[list[Step], frozenset[str]]:
    """The steps with some legal actions respelled (refused probes stay as they are), and the variants used."""
    rng = random.Random(chooser.seed())
    out, used = [], set()
    for step in steps:
        if step.kind != "do" or rng.randrange(2):
            out.append(step)
            continue
        takes_cards = len(step.action.split()) > 1
        hows = [h for h in VARIANTS if takes_cards or h in ("case", "space")]
        if len(step.action.split()) < 3:
            hows = [h for h in hows if h != "order"]
        how = hows[rng.randrange(len(hows))]
        text = variant(step.action, how, rng)
        if cards(text.split()[1:]) != cards(step.action.split()[1:]) and how != "order":
            raise FuzzerError(f"the variant {text!r} of {step.action!r} names other cards")
        out.append(Step(step.seat, text, step.kind, step.error, step.rule))
        used.add(f"variant:{how}")
    return out, frozenset(used)


def respell(ask: Callable[[Message], Message], start: Message, trace: Trace, last: Message,
            chooser: Chooser) -> frozenset[str]:
    """Respell some of the hand's actions (:func:`variant_steps`) in ``trace``, once the reference, asked
    (``ask``) to play them from ``start`` in one ``batch``, takes every one as it took its canonical
    spelling and ends in the same state (``last``, if known); the variants used."""
    steps, used = variant_steps(trace.steps, chooser)
    if not used:
        return used
    message = {**start, "cmd": "batch", "steps": [{"seat": s.seat, "action": s.action} for s in steps],
               "state": "last"}
    answer = ask(message)
    entries = answer.get("steps", [])[1:]
    if len(entries) != len(steps):
        raise FuzzerError(f"the reference's batch answer has {len(entries)} steps for {len(steps)}: {answer}")
    for step, entry in zip(steps, entries, strict=True):
        act = entry.get("act") or {}
        refused = act.get("error", {}).get("kind") if not act.get("ok") else None
        if refused != step.error:
            raise FuzzerError(f"the reference answers the respelled {step.action!r} by seat {step.seat} with "
                              f"{act}, not as its canonical spelling")
    if last and entries[-1].get("state") != last:
        raise FuzzerError(f"the respelled actions of {trace.setup} end elsewhere on the reference")
    trace.steps[:] = steps
    return used
