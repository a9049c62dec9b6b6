"""A fuzz campaign's report: the text the command prints and the JSON ``--report`` it writes.

The JSON report (``spec/schema/report/fuzz.schema.json``) knows what it is and
keeps what was done: ``kind: "fuzz"``, its ``version``, the ``shard`` it is of
a campaign (or null), the campaign's identity (seed, hands, lanes, strategy,
options and the comparison mode), the ``engine`` (spec, name, version,
protocol, declared options), whether it is ``complete`` (every lane played to
its end, not interrupted, no worker lost), and every finished hand of each
lane. ``hakka-conformance merge`` (conformance/fuzz/merge.py) checks shards
against it before joining them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import FuzzConfig
from .guided import LaneResult
from .model import CandidateFailure, Disagreement
from .scenario import Written
from .search import SearchResult

REPORT_FORMAT = "hakka-fuzz-report"
REPORT_VERSION = 2
"""2: ``kind``, ``shard``, ``engine`` as an object, ``strategy``, ``mode``, ``complete``, ``interrupted``,
lanes' ``done`` and ``error``; the hands and outcomes of version 1 are unchanged."""


@dataclass
class FuzzReport:
    engine: str
    options: dict[str, str]
    config: FuzzConfig
    search: SearchResult
    candidate_info: dict[str, Any] = field(default_factory=dict)
    written: list[Written] = field(default_factory=list)
    traces: list[Path] = field(default_factory=list)
    restarts: int = 0
    seconds: float = 0.0
    observe: bool = False
    unwritable: str = ""
    coverage: Counter[str] = field(default_factory=Counter)
    classes: tuple[Any, ...] = ()  # reference_engine.outcomes.OutcomeClass, under the options played
    lanes: list[LaneResult] = field(default_factory=list)
    lane_ids: list[int] = field(default_factory=list)
    observe_mode: str = "none"
    batch: bool = False
    interrupted: str | None = None
    """The signal that stopped the campaign (``SIGINT``, ``SIGTERM``), if one did."""

    @property
    def complete(self) -> bool:
        """Every lane of the report played to its end (or to the first disagreement), nothing interrupted."""
        if self.interrupted is not None:
            return False
        if self.config.strategy.search != "guided":
            return True
        played = {lane.lane: lane for lane in self.lanes}
        return all(n in played and played[n].done and played[n].error is None for n in self.lane_ids)

    @property
    def errored_lanes(self) -> list[LaneResult]:
        return [lane for lane in self.lanes if lane.error is not None]

    kind_classes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The coverage classes of each side-check kind (conformance.fuzz.checks.Mix.classes)."""
    kinds: tuple[str, ...] = ()
    """The setup kinds played (conformance.fuzz.moves)."""

    @property
    def unreached(self) -> list[Any]:
        """The rule and game outcome classes no hand reached."""
        return [c for c in self.classes if not self.coverage.get(c.id)]

    @property
    def unreached_kinds(self) -> dict[str, list[str]]:
        """Of each side-check kind, the classes no hand reached."""
        out = {kind: [c for c in ids if not self.coverage.get(c)] for kind, ids in self.kind_classes.items()}
        return {kind: ids for kind, ids in out.items() if ids}

    @property
    def every_class_reached(self) -> bool:
        return bool(self.classes) and not self.unreached and not self.unreached_kinds

    def coverage_lines(self) -> list[str]:
        """What every kind of request covered: rule outcomes, games, setups, counts, observations, variants."""
        if not self.classes:
            return ["outcome coverage: not measured (the reference reports no outcomes)"]
        rules = [c for c in self.classes if not c.id.startswith("game:")]
        unreached = [c for c in rules if not self.coverage.get(c.id)]
        games = self.coverage.get("kind:game", 0)
        lines = [f"outcome coverage: {len(rules) - len(unreached)}/{len(rules)} rule outcome classes reached in "
                 f"{self.search.hands} {'game' if self.config.campaign.game else 'hand'}(s)"
                 + (f" (every hand of the {games} game(s) counted)" if games and not self.config.campaign.game else "")]
        rare = sorted((self.coverage[c.id], c.id) for c in rules if 0 < self.coverage.get(c.id, 0) < 5)
        first = self.first_reached()
        if rare:
            lines.append("  rarely reached: " + ", ".join(f"{cid} ×{n}{self._first_text(first, cid)}" for n, cid in rare))
        if unreached:
            lines.append("  UNREACHED: " + ", ".join(f"{c.id} ({c.rule})" for c in unreached))
        ends = [cid for cid in RARE_ENDS if any(c.id == cid for c in self.classes)]
        if ends:
            lines.append("  rare ends, the hand that first reached each: " + ", ".join(
                f"{cid} {'in hand ' + str(first[cid]) if cid in first else 'never'}" for cid in ends))
        lines += self._kind_lines(games)
        if not self.every_class_reached:
            lines.append("NOT every class reached: see UNREACHED above")
        else:
            lines.append("every kind reached every one of its classes")
        return lines

    def first_reached(self) -> dict[str, int]:
        """Each outcome class → the 1-based index of the first hand that reached it (of the lanes played)."""
        first: dict[str, int] = {}
        for lane in self.lanes:
            for hand in lane.hands:
                for outcome in hand.outcomes:
                    if hand.index + 1 < first.get(outcome, hand.index + 2):
                        first[outcome] = hand.index + 1
        return first

    @staticmethod
    def _first_text(first: dict[str, int], cid: str) -> str:
        return f" (first in hand {first[cid]})" if cid in first else ""

    def _kind_lines(self, games: int) -> list[str]:
        cov, lines = self.coverage, []
        first = self.first_reached()
        game_classes = [c for c in self.classes if c.id.startswith("game:")]
        if game_classes:
            missing = [c.id for c in game_classes if not cov.get(c.id)]
            lines.append(f"games: {games} whole game(s), {cov.get('game:over', 0)} to game over; game outcome "
                         f"classes {len(game_classes) - len(missing)}/{len(game_classes)} reached"
                         + ("; " + ", ".join(f"{c.id} ×{cov.get(c.id, 0)}" + (
                             self._first_text(first, c.id) if cov.get(c.id, 0) < 5 else "") for c in game_classes[1:])))
            if missing:
                lines.append("  UNREACHED: " + ", ".join(missing))
        text = {
            "setup": lambda: (f"setups: {sum(cov.get(f'setup:{k}', 0) for k in _SETUP_ANSWERS)} sent besides the hands' "
                              "own, compared on the error kind (then state and every seat's observe): "
                              + ", ".join(f"{k} ×{cov.get(f'setup:{k}', 0)}" for k in _SETUP_ANSWERS)
                              + (f"; in a batch ×{cov.get('setup:in-batch', 0)}" if cov.get("setup:in-batch") else "")),
            "count": lambda: (f"counts: {cov.get('count:depth:1', 0) + cov.get('count:depth:2', 0)} compared at "
                              f"states from play (depth 1 ×{cov.get('count:depth:1', 0)}, depth 2 "
                              f"×{cov.get('count:depth:2', 0)}, divide ×{cov.get('count:divide', 0)}, in a game "
                              f"×{cov.get('count:in-game', 0)})"),
            "variant": lambda: ("action text variants: " + ", ".join(
                f"{v.split(':')[1]} ×{cov.get(v, 0)}" for v in self.kind_classes["variant"])
                + " hand(s) sent respelled actions, first taken by the reference"),
            "deals": lambda: ("games with explicit later deals or too few: " + ", ".join(
                f"{d.split(':')[1]} ×{cov.get(d, 0)}" for d in self.kind_classes["deals"])),
            "pattern": lambda: ("patterns: pattern's classify answer compared for cards of the hands' plays: "
                                + ", ".join(f"{p.split(':')[1]} ×{cov.get(p, 0)}" for p in self.kind_classes["pattern"])),
            "observe": lambda: (f"observe after refusals: every seat's observation compared in "
                                f"{cov.get('observe:after-refused-action', 0)} hand(s) after a refused action, "
                                f"{cov.get('observe:after-refused-setup', 0)} time(s) after a refused setup"),
        }
        for kind, ids in self.kind_classes.items():
            missing = [c for c in ids if not cov.get(c)]
            lines.append(text[kind]() + f"; classes {len(ids) - len(missing)}/{len(ids)} reached")
            if missing:
                lines.append("  UNREACHED: " + ", ".join(missing))
        return lines

    @property
    def disagreement(self) -> Disagreement | None:
        return self.search.disagreement

    @property
    def failures(self) -> list[CandidateFailure]:
        return self.search.failures

    @property
    def ok(self) -> bool:
        return self.disagreement is None and self.search.failure_count == 0 and not self.errored_lanes

    @property
    def hands_to_first_disagreement(self) -> int | None:
        return self.search.first_at

    def format(self) -> str:
        return "\n".join(self._head() + self._failure_lines() + self._finding_lines() + self._written_lines()
                         + self.coverage_lines())

    def _head(self) -> list[str]:
        s, config = self.search, self.config
        lines = [f"fuzz: {self.engine} against the reference, seed {config.campaign.seed}, "
                 f"options {_options_text(self.options)}"
                 + ("" if self.observe else " (observations not compared)")]
        rate = s.hands / s.seconds if s.seconds else 0.0
        unit = "games" if config.campaign.game else "hands"
        guided = config.strategy.search == "guided"
        lines.append(f"{unit}: {s.hands}  actions: {s.actions}  time: {s.seconds:.2f} s  ({rate:,.0f} {unit}/s)"
                     + (f"  [{config.strategy.search}: lanes {_lanes_text(self.lane_ids, config.campaign.lanes)}"
                        f", jobs {config.split.jobs}" if guided else f"  [{config.strategy.search}")
                     + f", observations {self.observe_mode}{', batch' if self.batch else ''}]")
        if self.interrupted is not None:
            lines.append(f"INTERRUPTED by {self.interrupted}: the report holds the {s.hands} finished "
                         f"{unit} and is marked incomplete")
        for lane in self.errored_lanes:
            lines.append(f"lane {lane.lane} ERRORED after {len(lane.hands)} {unit}: {lane.error}")
        return lines

    def _failure_lines(self) -> list[str]:
        s, lines = self.search, []
        if s.failure_count:
            lines.append(f"candidate failures (crash, hang, protocol): {s.failure_count}; "
                         f"restarted {self.restarts} time(s)")
            for f in s.failures[:5]:
                lines.append(f"  hand with {len(f.trace.steps)} action(s), setup {f.trace.setup}: {f.summary()}")
                if f.trace.steps:
                    lines.append("    actions: " + "; ".join(
                        f"{st.seat}:{st.action}" + (" (reject)" if st.kind == "reject" else "") for st in f.trace.steps))
        return lines

    def _finding_lines(self) -> list[str]:
        s, d = self.search, self.disagreement
        if d is None:
            return ["no disagreement" if s.failure_count == 0 else "no disagreement besides the failures above"]
        lines = [f"first disagreement in hand {s.first_at}: {s.first.summary() if s.first else ''}"]
        if s.shrunk is not None and s.first is not None:
            lines.append(f"shrunk from {s.first.actions} to {s.shrunk.actions} action(s) in "
                         f"{s.shrink_calls} replays ({s.shrink_seconds:.1f} s): {s.shrunk.summary()}")
        if s.note:
            lines.append(f"note: {s.note}")
        if d.detail:
            lines.append("  differing: " + ", ".join(d.detail))
        return lines

    def _written_lines(self) -> list[str]:
        lines = []
        for w in self.written:
            status = "verified" if w.verified else "NOT verified"
            ref = w.reference.status if w.reference else "-"
            cand = w.candidate.status if w.candidate else "-"
            lines.append(f"wrote {w.path} ({status}: reference {ref}, candidate {cand}; clauses {', '.join(w.clauses)})")
            if w.candidate is not None and w.candidate.diff:
                lines.extend("    " + line for line in w.candidate.diff[:8])
            lines.extend("    problem: " + p for p in w.problems)
        lines.extend(f"wrote {t}" for t in self.traces)
        if self.unwritable:
            lines.append(self.unwritable)
        return lines

    def as_json(self) -> dict[str, Any]:
        """The campaign as JSON: its identity, and every finished hand's outcomes (enough to merge shards)."""
        config = self.config
        data = {
            "format": REPORT_FORMAT,
            "kind": "fuzz",
            "version": REPORT_VERSION,
            "complete": self.complete,
            "interrupted": self.interrupted,
            "shard": (None if config.split.shard is None
                      else {"index": config.split.shard[0], "count": config.split.shard[1]}),
            "engine": engine_json(self.engine, self.candidate_info),
            "strategy": config.strategy.search,
            "mode": {"states": config.compare.states, "batch": self.batch, "game": config.campaign.game},
            "duration": round(self.seconds, 3),
        }
        data.update(campaign_json(config, self.options, self.observe_mode, self.lane_ids, self.lanes,
                                  [c.id for c in self.classes]
                                  + [k for ids in self.kind_classes.values() for k in ids]))
        return data


_SETUP_ANSWERS = ("malformed", "bad-setup", "unsupported", "accepted")


def engine_json(spec: str, info: Mapping[str, Any]) -> dict[str, Any]:
    """The engine a report is of: its spec and what it said in ``hello``."""
    return {"spec": spec, "name": info.get("name"), "version": info.get("version"),
            "protocol": info.get("protocol"), "options": dict(info.get("options") or {})}


RARE_ENDS = ("score:11", "score:12", "dreamer-count:9", "game:end:five-tigers", "game:end:void", "game:score:12")
"""The rarest ends a campaign steers toward: the report says at which hand each was first reached, so that a
change that makes the search slower to reach one (a 12-trick claim at hand 323, then not in 1,000) shows."""


def _lanes_text(ids: list[int], lanes: int) -> str:
    return f"all {lanes}" if ids == list(range(lanes)) else ",".join(map(str, ids)) + f" of {lanes}"


def _options_text(options: Mapping[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def lane_json(r: LaneResult) -> dict[str, Any]:
    d = r.found
    found = None if d is None else {
        "index": r.found_at, "summary": d.summary(), "where": d.where, "fields": d.fields,
        "detail": d.detail, "seat": d.seat, "trace": d.trace.as_json(), "choices": r.choices}
    data: dict[str, Any] = {
        "lane": r.lane,
        "found": found,
        "hands": [[h.index, list(h.outcomes), h.actions, None if h.failure is None else h.failure.summary()]
                  for h in r.hands],
        "done": r.done,
    }
    if r.error is not None:
        data["error"] = r.error
    return data


def campaign_json(config: FuzzConfig, options: Mapping[str, str], observe: str, lane_ids: list[int],
                  lanes: list[LaneResult], classes: list[str]) -> dict[str, Any]:
    """The campaign's identity and its lanes (the fields of report version 1, unchanged)."""
    campaign = config.campaign
    return {
        "seed": campaign.seed,
        "hands": campaign.hands,
        "lanes": campaign.lanes,
        "options": dict(options),
        "observe": observe,
        "probe_percent": campaign.probe_percent,
        "playout": config.strategy.playout,
        "setup_kinds": list(campaign.setup_kinds),
        "checks": list(campaign.checks),
        "classes": classes,
        "lane_results": [lane_json(r) for r in sorted(lanes, key=lambda r: r.lane)],
        "shard_lanes": list(lane_ids),
    }
