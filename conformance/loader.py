"""Loading scenario files: YAML → schema check → cross-file checks → :class:`Scenario`.

Every problem is reported with file, line and JSON pointer:

- YAML syntax errors and duplicate keys (:mod:`conformance.yamlsource`);
- schema errors (``spec/schema/scenario.schema.json``), the JSON pointer of
  each mapped back to the YAML node's line;
- duplicate scenario IDs across files (both places named);
- clause IDs not in ``spec/clauses.yaml``, decisions or options not in
  ``spec/decisions.yaml``;
- ``generated: true`` outside ``scenarios/generated/`` and the reverse;
- what the schema lets through but ``run`` could not use: integers written as
  floats (``dealer: 0.0``), ``count`` prefix actions outside the action
  grammar, control characters (a trailing newline…) in IDs, actions and cards;
- a ``count``'s ``divide`` whose values do not add up to its last count;
- a ``batch`` expectation the batch's answer cannot hold (a step's state under
  ``state: last``, observations it does not ask for).

Discovery is bounded (:data:`MAX_SCAN_ENTRIES`): ``--scenarios /`` is refused
after that many directory entries instead of walking the whole disk. So is the
work on one file: a file of more than :data:`MAX_SCENARIOS_PER_FILE` scenarios is
refused before its entries are checked, and at most :data:`MAX_PROBLEMS_PER_FILE`
problems are reported per file, then one line says how many more there are
(``and 19,990 more problems in this file``).
"""

from __future__ import annotations

import ast
import difflib
import fnmatch
import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reference_engine.cards import parse_mask
from reference_engine.errors import HakkaError, SetupError
from reference_engine.game import Game, deal_hand
from reference_engine.patterns import INITIAL_ELDERS
from reference_engine.premises import premise_problem
from reference_engine.profile import DEFAULT_PROFILE

from .errors import InputError, Problem
from .notation import VERBS_ALONE, VERBS_WITH_CARDS, action_cards
from .paths import DEFAULT_SCENARIOS_DIR, display_path, what_is
from .schemas import Schemas, best_errors, card_text_problem, describe_error
from .setups import with_seeds
from .specdata import SpecData
from .specdata import area_sort_key as area_sort_key  # the areas' order: spec/clauses.yaml `areas:`
from .yamlsource import YamlDocument, escape_pointer_token, load_yaml, pointer_of

BODY_KINDS = ("pattern", "trajectory", "game", "count", "setup", "batch")

MAX_SCAN_ENTRIES = 200_000
"""Directory entries looked at when searching a folder for scenario files."""
MAX_SCENARIOS_PER_FILE = 2_000
"""Scenarios one file may hold (the corpus's largest file holds 23): the work on one file is bounded."""
MAX_PROBLEMS_PER_FILE = 10
"""Problems reported per file; the rest are counted (``and N more``), not described."""

FREE_TEXT_KEYS = frozenset({"title", "notes", "description", "source"})
"""Keys whose text may hold line breaks and tabs; every other string is refused with a control character."""
SENT_TEXT_KEYS = frozenset({"hands", "deck", "do", "reject"})
"""Card and action text sent to the engine as written, which may hold a control character when written
double-quoted: there it is an escape written on purpose (``"Sup1\\tSup2"``, as the white-space scenarios
do: spec/PROTOCOL.md, "Action text"), never a block's trailing newline."""
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f]")
"""C0 and C1 control characters: refused outside free text, and in card and action text unless double-quoted."""
_UNEXPECTED = re.compile(r"\((.*) (?:was|were) unexpected\)$", re.S)


@dataclass(frozen=True)
class Scenario:
    """One scenario, as loaded and checked. ``data`` is the JSON-shaped scenario object."""

    id: str
    title: str
    clauses: tuple[str, ...]
    requires: Mapping[str, str] | str | None
    tags: tuple[str, ...]
    kind: str
    data: Mapping[str, Any]
    file: str
    line: int
    pointer: str
    document: YamlDocument = field(repr=False, compare=False)

    @property
    def body(self) -> Mapping[str, Any]:
        return self.data[self.kind]  # type: ignore[no-any-return]

    @property
    def area(self) -> str:
        """The rule area (clause prefix) of the scenario's first clause."""
        return self.clauses[0].split("-")[0]

    @property
    def areas(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.split("-")[0] for c in self.clauses))

    @property
    def generated(self) -> bool:
        return bool(self.data.get("generated", False))

    def line_of(self, *path: str | int) -> int:
        """Line in the file of the node at ``path`` below this scenario."""
        return self.document.line_of(self.pointer + pointer_of(list(path))) or self.line

    def step_line(self, index: int) -> int:
        return self.line_of(self.kind, "steps", index)

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"


def _discover(paths: Iterable[Path]) -> list[tuple[Path, tuple[str, ...]]]:
    """Scenario files with their folders below the given root (``("generated",)`` …)."""
    found: list[tuple[Path, tuple[str, ...]]] = []
    missing: list[Problem | str] = []
    for path in paths:
        if path.is_dir():
            found.extend(_walk(path))
        elif path.is_file():
            found.append((path, path.parent.parts[-1:]))
        else:  # a FIFO, a device, a dangling or looping symlink: named as what it is
            missing.append(Problem(display_path(path), None, what_is(path)))
    if missing:
        raise InputError(missing)
    seen: set[Path] = set()
    unique = []
    for f, folders in found:
        try:
            r = f.resolve()
        except (OSError, RuntimeError):  # a symlink loop below a folder (RuntimeError on Python 3.11)
            r = f
        if r not in seen:
            seen.add(r)
            unique.append((f, folders))
    return unique


def _walk(root: Path) -> list[tuple[Path, tuple[str, ...]]]:
    """``*.yaml`` files below ``root`` (symlinked folders not followed), at most MAX_SCAN_ENTRIES entries seen."""
    found: list[tuple[Path, tuple[str, ...]]] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        seen += len(dirs) + len(files)
        if seen > MAX_SCAN_ENTRIES:
            raise InputError(Problem(display_path(root), None,
                                     f"more than {MAX_SCAN_ENTRIES} files and folders below it: not a scenario "
                                     "folder? point --scenarios at the folder of your scenario files"))
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".yaml"):
                p = Path(folder) / name
                if p.is_file():
                    found.append((p, p.relative_to(root).parts[:-1]))
    found.sort(key=lambda item: item[0])
    return found


def discover(paths: Iterable[Path]) -> list[Path]:
    """Scenario files: each path is a ``.yaml`` file or a directory searched for ``**/*.yaml``."""
    return [f for f, _ in _discover(paths)]


def _vocabulary(schema: Any) -> frozenset[str]:
    """Every property name the schema declares anywhere (a key outside it is surely misspelled)."""
    names: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                names.update(props)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(names)


_VOCABULARY: dict[int, frozenset[str]] = {}


def _unexpected_keys(error: Any) -> list[str]:
    """The keys an additional/unevaluatedProperties error names (from its message)."""
    match = _UNEXPECTED.search(str(error.message))
    if match:
        try:
            names = ast.literal_eval("[" + match.group(1) + "]")
            if all(isinstance(n, str) for n in names):
                return [n for n in names if isinstance(error.instance, dict) and n in error.instance]
        except (ValueError, SyntaxError):
            pass
    allowed = set(error.schema.get("properties", {})) if isinstance(error.schema, dict) else set()
    return [k for k in error.instance if k not in allowed]


def _expand_one_of(error: Any) -> list[Any]:
    """A ``oneOf`` between a word (``defaults``) and an object, given an object: the object branch's errors."""
    if error.validator in ("oneOf", "anyOf") and isinstance(error.instance, dict) and error.context:
        branch = [e for e in error.context if e.validator not in ("const", "enum")
                  and not (e.validator == "type" and not e.absolute_path)]
        if branch and len(branch) < len(error.context):
            return branch
    return [error]


def _schema_problems(doc: YamlDocument, schemas: Schemas) -> list[Problem]:
    problems: list[Problem] = []
    scenarios = doc.data.get("scenarios") if isinstance(doc.data, dict) else None
    vocabulary = _VOCABULARY.setdefault(id(schemas), _vocabulary(schemas.scenario.schema))
    raw = list(schemas.scenario.iter_errors(doc.data))
    errors = best_errors(iter([e for error in raw for e in _expand_one_of(error)]))
    # every prefix of the path of a precise error: an object below which a precise error lies
    precise = {tuple(e.absolute_path)[:k] for e in errors if e.validator != "unevaluatedProperties"
               for k in range(len(e.absolute_path) + 1)}
    # A cascade hides the unevaluatedProperties error of an object with a precise error: keep its
    # misspelled keys (names the schema never declares) all the same.
    kept = {id(e) for e in errors}
    for error in raw:
        if error.validator == "unevaluatedProperties" and id(error) not in kept:
            errors.append(error)
    for error in errors:
        described = len(problems) < MAX_PROBLEMS_PER_FILE  # beyond: counted (bounded()), not described
        path = list(error.absolute_path)
        scenario_id = None
        if len(path) >= 2 and path[0] == "scenarios" and isinstance(scenarios, list) and isinstance(path[1], int):
            item = scenarios[path[1]] if path[1] < len(scenarios) else None
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                scenario_id = item["id"]
        pointer = pointer_of(path)
        if error.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(error.instance, dict):
            names = _unexpected_keys(error)
            cascade = tuple(path) in precise
            if cascade:
                names = [n for n in names if n not in vocabulary]
            if names or cascade:
                # One problem per offending key, at the key's own line and pointer.
                for name in names:
                    key_pointer = f"{pointer}/{escape_pointer_token(name)}"
                    hint = difflib.get_close_matches(name, sorted(vocabulary), n=1) if described else None
                    message = f"unknown key {name!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
                    problems.append(Problem(doc.path, doc.key_line(key_pointer), message, key_pointer, scenario_id))
                continue
        line = doc.line_of(pointer)
        if error.validator == "propertyNames" or (error.validator == "pattern" and isinstance(error.instance, str)
                                                   and isinstance(_at(doc.data, path), dict)):
            # A bad key of a mapping (e.g. in `requires`): name it, at its own line.
            key_pointer = f"{pointer}/{escape_pointer_token(str(error.instance))}"
            problems.append(Problem(doc.path, doc.key_line(key_pointer),
                                    f"key {error.instance!r}: {describe_error(error) if described else ''}",
                                    key_pointer, scenario_id))
            continue
        if not described:
            message = ""
        elif error.validator == "pattern" and isinstance(error.schema, dict) and error.schema.get("x-action-text"):
            message = action_text_problem(str(error.instance))
        else:
            message = describe_error(error)
        if doc.data is None:
            message = "the file is empty: expected a top-level `scenarios:` list"
        problems.append(Problem(doc.path, line, message, pointer, scenario_id))
    return problems


def action_text_problem(text: str) -> str:
    """What is wrong with the text of an action (spec/README.md, Actions): the verb first, then the cards."""
    words = text.split()
    verbs = (*VERBS_ALONE[:2], *VERBS_WITH_CARDS, *VERBS_ALONE[2:])
    listed = ", ".join(verbs)
    if not words:
        return f"an empty action: the verbs are {listed}"
    verb = words[0].lower()
    if verb not in verbs:
        hint = difflib.get_close_matches(verb, verbs, n=1)
        return (("" if len(words) == 1 else f"{text!r}: ") + f"unknown action verb {words[0]!r} ({words[0]!r} is not a verb"
                + (f"; did you mean {hint[0]!r}?)" if hint else ")")
                + f"; the verbs are {listed}")
    if verb in VERBS_ALONE and len(words) > 1:
        return f"{text!r}: {verb!r} takes no cards"
    if verb in VERBS_WITH_CARDS and len(words) == 1:
        return f"{text!r}: {verb!r} names the cards it plays or discards, e.g. '{verb} Sup3 Sup4 Sup5'"
    return card_text_problem(text)


def _at(data: Any, path: list[Any]) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _value_problems(doc: YamlDocument, base: str, item: dict[str, Any], sid: str) -> list[Problem]:
    """Floats where the format has only integers; control characters outside free text."""
    problems = []
    stack: list[tuple[Any, str, str | None]] = [(item, base, None)]
    while stack:
        value, pointer, key = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, f"{pointer}/{escape_pointer_token(str(k))}", str(k)) for k, v in value.items())
            for k in value:
                if isinstance(k, str) and CONTROL_CHARACTERS.search(k):
                    p = f"{pointer}/{escape_pointer_token(k)}"
                    problems.append(Problem(doc.path, doc.key_line(p), f"key {k!r} holds a control character", p, sid))
        elif isinstance(value, list):
            stack.extend((v, f"{pointer}/{i}", key) for i, v in enumerate(value))
        elif isinstance(value, float):
            shown = int(value) if value.is_integer() else value
            problems.append(Problem(doc.path, doc.line_of(pointer),
                                    f"{value!r} is written as a decimal number; scenario numbers are integers: "
                                    f"write {shown}", pointer, sid))
        elif isinstance(value, str) and key not in FREE_TEXT_KEYS and CONTROL_CHARACTERS.search(value) \
                and not (key in SENT_TEXT_KEYS and pointer in doc.double_quoted):
            problems.append(Problem(doc.path, doc.line_of(pointer),
                                    f"{value!r} holds a control character (a trailing newline from a `|` block?)"
                                    + (": write it double-quoted, with an escape such as \\t, if it is meant"
                                       if key in SENT_TEXT_KEYS else ""), pointer, sid))
    return problems


def _semantic_problems(doc: YamlDocument, index: int, item: dict[str, Any], spec: SpecData,
                       under_generated: bool) -> list[Problem]:
    base = f"/scenarios/{index}"
    sid = item["id"]
    problems = _value_problems(doc, base, item, sid)
    typed = not problems  # a deal is judged once its values are of the right types
    if isinstance(item.get("count"), dict):
        problems.extend(_count_problems(doc, base, item["count"], sid))
    if isinstance(item.get("batch"), dict):
        problems.extend(_batch_problems(doc, base, item["batch"], sid))
    if spec.clauses is not None:
        for j, clause in enumerate(item["clauses"]):
            if clause not in spec.clauses:
                p = f"{base}/clauses/{j}"
                problems.append(Problem(doc.path, doc.line_of(p), f"unknown clause {clause!r} (not in spec/clauses.yaml)", p, sid))
    requires = item.get("requires")
    if isinstance(requires, dict) and spec.decisions is not None:
        for decision, option in requires.items():
            p = f"{base}/requires/{escape_pointer_token(decision)}"
            if decision not in spec.decisions:
                problems.append(Problem(doc.path, doc.key_line(p), f"unknown decision {decision!r} (not in spec/decisions.yaml)", p, sid))
            elif option not in spec.decisions[decision].options:
                known = ", ".join(spec.decisions[decision].options)
                problems.append(Problem(doc.path, doc.line_of(p), f"unknown option {option!r} of {decision} (options: {known})", p, sid))
    if "pattern" in item and "current" in item["pattern"]:
        problems.extend(_premise_problems(doc, base, item))
    if typed:
        problems.extend(_deal_problems(doc, base, item))
    generated = bool(item.get("generated", False))
    if generated and not under_generated:
        p = f"{base}/generated"
        problems.append(Problem(doc.path, doc.line_of(p), "`generated: true` scenarios live under scenarios/generated/", p, sid))
    if under_generated and not generated:
        problems.append(Problem(doc.path, doc.line_of(base), "scenarios under generated/ must carry `generated: true`", base, sid))
    return problems


def _count_problems(doc: YamlDocument, base: str, body: Mapping[str, Any], sid: str) -> list[Problem]:
    """A count's prefix actions in the action grammar; its ``divide`` splitting its last count by first action
    (spec/PROTOCOL.md, `count`): the values add up to it."""
    problems = []
    for j, step in enumerate(body.get("prefix", ())):
        if isinstance(step, dict) and isinstance(step.get("do"), str) and action_cards(step["do"]) is None:
            p = f"{base}/count/prefix/{j}/do"
            problems.append(Problem(doc.path, doc.line_of(p), action_text_problem(step["do"]), p, sid))
    divide, counts = body.get("divide"), body.get("counts")
    if not isinstance(divide, dict) or not isinstance(counts, list) or not counts:
        return problems
    total = sum(v for v in divide.values() if isinstance(v, int))
    if total == counts[-1]:
        return problems
    p = f"{base}/count/divide"
    return [*problems, Problem(doc.path, doc.line_of(p), f"the divide's values add up to {total:,}, not to the last count "
                    f"{counts[-1]:,} (depth {len(counts)}): each sequence of the last depth starts with one legal first "
                    "action, so the values must add up to that count", p, sid)]


_STATE_KEYS = frozenset({"events", "observe"})
"""Expectation keys that are not read from a step's ``state``."""


def _batch_problems(doc: YamlDocument, base: str, body: Mapping[str, Any], sid: str) -> list[Problem]:
    """Expectations a batch's answer cannot hold, given what the batch asks for (spec/PROTOCOL.md, Batch play)."""
    problems = []
    steps = body.get("steps", [])
    refused = "start" in body
    state_every = body.get("state", "every") == "every"
    observe = body.get("observe", "none")
    for j, step in enumerate(steps):
        expect = step.get("expect") if isinstance(step, dict) else None
        if not isinstance(expect, dict):
            continue
        p = f"{base}/batch/steps/{j}/expect"
        last = j == len(steps) - 1
        if refused:
            problems.append(Problem(doc.path, doc.line_of(p), "a batch whose start is refused answers no step "
                                    "(`steps` empty): its steps cannot expect anything", p, sid))
        elif not state_every and not last and set(expect) - _STATE_KEYS:
            problems.append(Problem(doc.path, doc.line_of(p), "with `state: last` only the last step carries a "
                                    "`state`: expect state fields there or in `final`", p, sid))
        elif "observe" in expect and not (observe == "every" or (observe == "last" and last)):
            problems.append(Problem(doc.path, doc.line_of(p), f"with `observe: {observe}` this step carries no "
                                    "observations: send `observe: every` (or `last` for the last step)", p, sid))
    if refused and "final" in body and "before" not in body:
        p = f"{base}/batch/final"
        problems.append(Problem(doc.path, doc.line_of(p), "a batch whose start is refused leaves no hand in play "
                                "unless one was started `before` it: `final` needs `before`", p, sid))
    return problems


def _premise_problems(doc: YamlDocument, base: str, item: dict[str, Any]) -> list[Problem]:
    """A `beats` question must describe a position some hand reaches (spec/PROTOCOL.md, `pattern`).

    Reachability is a rule of the game, so the reference engine's public
    :func:`~reference_engine.premises.premise_problem` judges it.
    """
    body = item["pattern"]
    try:
        current, challenger = parse_mask(body["current"]), parse_mask(body["challenger"])
        elders = parse_mask(body["elders"]) if "elders" in body else INITIAL_ELDERS
    except HakkaError:
        return []  # the card text itself is reported by the schema
    problem = premise_problem(current, challenger, elders)
    if problem is None:
        return []
    p = f"{base}/pattern"
    return [Problem(doc.path, doc.line_of(p), f"no hand reaches this position: {problem}", p, item["id"])]


def _deal_problems(doc: YamlDocument, base: str, item: dict[str, Any]) -> list[Problem]:
    """A setup that must be played (not a `setup` scenario's refused `start`) must be a deal the rules allow.

    The rules of a deal (DEAL-4: 12 cards to each active player, 1 to the Dreamer; CARDS-1: each
    card once) are the reference engine's to judge, through its public ``Hand`` and ``Game``; without
    this an 11-card hand passes `check` and fails only at `run`.
    """
    where: list[tuple[str, Mapping[str, Any], bool]] = []
    for kind in ("trajectory", "count", "game"):
        if isinstance(item.get(kind), dict):
            setup = item[kind]["setup"]
            where.append((f"{base}/{kind}/setup", setup, "first_dealer" in setup))
    for kind in ("setup", "batch"):
        if isinstance(item.get(kind), dict) and "before" in item[kind]:
            where.append((f"{base}/{kind}/before", item[kind]["before"], False))
    batch = item.get("batch")
    if isinstance(batch, dict) and "start" not in batch:  # a batch whose start must be accepted
        setup = batch["setup"]
        where.append((f"{base}/batch/setup" + ("/game" if "game" in setup else ""), setup.get("game", setup),
                      "game" in setup))
    problems = []
    for pointer, setup, is_game in where:
        try:
            if is_game:
                Game(setup["first_dealer"], [with_seeds(d, int) for d in setup["deals"]])
            else:
                deal_hand(setup["dealer"], with_seeds(setup, int), DEFAULT_PROFILE)
        except SetupError as exc:
            at = pointer
            if is_game:  # a later deal's error names it ("deal 3: …"); the first deal's is the hand's own
                m = re.match(r"deal (\d+)", exc.message)
                at = f"{pointer}/deals/{int(m.group(1)) - 1 if m else 0}"
            if exc.seat is not None:
                at = f"{at}/hands/{exc.seat}"
            rule = f" [{exc.rule}]" if exc.rule else ""
            problems.append(Problem(doc.path, doc.line_of(at), f"no deal the rules allow: {exc.message}{rule}", at, item["id"]))
    return problems


def bounded(problems: list[Problem], shown: str) -> list[Problem]:
    """At most :data:`MAX_PROBLEMS_PER_FILE` problems of one file, and a line counting the others."""
    if len(problems) <= MAX_PROBLEMS_PER_FILE:
        return problems
    more = len(problems) - MAX_PROBLEMS_PER_FILE
    return [*problems[:MAX_PROBLEMS_PER_FILE],
            Problem(shown, None, f"and {more:,} more problem(s) in this file (the first {MAX_PROBLEMS_PER_FILE} "
                                 "are shown: fix them and check again)")]


def _too_many(doc: YamlDocument) -> Problem | None:
    """A file of more scenarios than :data:`MAX_SCENARIOS_PER_FILE`: refused before they are checked."""
    items = doc.data.get("scenarios") if isinstance(doc.data, dict) else None
    if isinstance(items, list) and len(items) > MAX_SCENARIOS_PER_FILE:
        return Problem(doc.path, doc.line_of("/scenarios"), f"{len(items):,} scenarios in one file: a file holds "
                       f"at most {MAX_SCENARIOS_PER_FILE:,} (split it into several files)", "/scenarios")
    return None


def load_scenarios(paths: Iterable[Path], schemas: Schemas, spec: SpecData) -> list[Scenario]:
    """Load and check every scenario of ``paths``; raise :class:`InputError` listing every problem."""
    problems: list[Problem | str] = []
    scenarios: list[Scenario] = []
    first_seen: dict[str, Scenario] = {}
    path_of: dict[str, Path] = {}
    for path, folders in _discover(paths):
        shown = display_path(path)
        doc, probs = load_yaml(path, shown)
        problems.extend(bounded(probs, shown))
        if doc is None or probs:
            continue
        too_many = _too_many(doc)
        if too_many is not None:
            problems.append(too_many)
            continue
        schema_probs = _schema_problems(doc, schemas)
        if schema_probs:
            problems.extend(bounded(schema_probs, shown))
            continue
        under_generated = "generated" in folders
        file_problems: list[Problem] = []
        for i, item in enumerate(doc.data["scenarios"]):
            pointer = f"/scenarios/{i}"
            sem = _semantic_problems(doc, i, item, spec, under_generated)
            file_problems.extend(sem)
            kind = next(k for k in BODY_KINDS if k in item)
            scenario = Scenario(
                id=item["id"], title=item["title"], clauses=tuple(item["clauses"]),
                requires=item.get("requires"), tags=tuple(item.get("tags", ())), kind=kind,
                data=item, file=shown, line=doc.line_of(pointer) or 1, pointer=pointer, document=doc)
            if scenario.id in first_seen:
                file_problems.append(_duplicate(first_seen[scenario.id], path_of[scenario.id], scenario, path))
                continue
            first_seen[scenario.id] = scenario
            path_of[scenario.id] = path
            if not sem:
                scenarios.append(scenario)
        problems.extend(bounded(file_problems, shown))
    if problems:
        raise InputError(problems)
    return scenarios


def _newness(path: Path) -> tuple[bool, float]:
    """How new a scenario file looks: outside the shipped corpus first, then the later modified."""
    resolved = path.resolve()
    in_corpus = resolved.is_relative_to(DEFAULT_SCENARIOS_DIR.resolve())
    try:
        mtime = resolved.stat().st_mtime
    except OSError:
        mtime = 0.0
    return (not in_corpus, mtime)


def _duplicate(first: Scenario, first_path: Path, later: Scenario, later_path: Path) -> Problem:
    """A duplicate ID, blamed on the new file (not in the corpus, else the later modified, else the later loaded)."""
    new, old = (first, later) if _newness(first_path) > _newness(later_path) else (later, first)
    where = f"{old.file}:{old.line_of('id')}"
    return Problem(new.file, new.line_of("id"),
                   f"duplicate scenario ID: {where} already defines {new.id!r}; scenario IDs are unique and never "
                   f"reused, so give this one another ID", new.pointer + "/id", new.id)


@dataclass(frozen=True)
class Filters:
    """Scenario filters. Values of one filter are OR-ed; different filters are AND-ed."""

    ids: tuple[str, ...] = ()       # globs on the scenario ID
    clauses: tuple[str, ...] = ()   # globs on clause IDs (any clause of the scenario)
    areas: tuple[str, ...] = ()     # clause prefixes (any clause of the scenario), case-insensitive
    tags: tuple[str, ...] = ()
    files: tuple[str, ...] = ()     # globs on the file path, or a path prefix
    kinds: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return any((self.ids, self.clauses, self.areas, self.tags, self.files, self.kinds))

    def match(self, s: Scenario) -> bool:
        if self.ids and not any(fnmatch.fnmatchcase(s.id, g) for g in self.ids):
            return False
        if self.clauses and not any(fnmatch.fnmatchcase(c, g.upper()) for c in s.clauses for g in self.clauses):
            return False
        if self.areas and not {a.upper() for a in self.areas} & set(s.areas):
            return False
        if self.tags and not set(self.tags) & set(s.tags):
            return False
        if self.files and not any(_file_match(s.file, g) for g in self.files):
            return False
        return not (self.kinds and s.kind not in self.kinds)


def _file_match(file: str, pattern: str) -> bool:
    if fnmatch.fnmatchcase(file, pattern):
        return True
    norm = pattern.rstrip("/")
    return file == norm or file.startswith(norm + "/") or Path(file).name == pattern


def select(scenarios: Iterable[Scenario], filters: Filters) -> list[Scenario]:
    return [s for s in scenarios if filters.match(s)]


def ids_digest(ids: Iterable[str]) -> str:
    """``sha256:`` of the scenario IDs in order, one a line."""
    return "sha256:" + hashlib.sha256("".join(f"{i}\n" for i in ids).encode("utf-8")).hexdigest()
