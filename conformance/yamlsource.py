"""Safe YAML loading that remembers where every value came from.

The file is *composed* (``yaml.compose`` with a safe loader, so no arbitrary
object construction) and turned into plain JSON-shaped data while recording,
for each JSON pointer, the line of the YAML node. Schema errors (which carry a
JSON pointer) can then be reported as ``file:line``.

Booleans follow YAML 1.2: only ``true``/``false`` are booleans, so option IDs
such as ``no`` or ``yes`` (decision D17) stay strings. Duplicate mapping keys
are errors, not silently overwritten.

Hostile files are bounded: aliases (``*name``) may expand to at most
:data:`MAX_ALIAS_NODES` nodes in all (a "billion laughs" file is refused with
its file and line, not expanded), nesting is limited to :data:`MAX_DEPTH`
levels, files over :data:`MAX_FILE_BYTES` (1 MiB, 20 times the largest file of
the corpus) are not read, and anything but a regular file (a FIFO, a device) is
refused unread, named as what it is. An integer too long for Python to read
(over 4,300 digits) is a problem at its line, not a traceback.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Problem
from .paths import FileTooLarge, NotAFile, read_regular_file

MAX_ALIAS_NODES = 10_000
"""Nodes that aliases may produce in one file, all aliases together."""
MAX_DEPTH = 200
MAX_FILE_BYTES = 1024 * 1024
"""The YAML of a file this size composes in about a second; the corpus's largest file is 50 KB."""


# libyaml's parser when PyYAML was built with it (about 7x faster), else pure Python.
_SafeBase: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeBase):  # type: ignore[misc]
    """A safe loader with YAML 1.2 booleans (``yes``/``no``/``on``/``off`` are strings)."""


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def pointer_of(path: list[str | int] | tuple[str | int, ...]) -> str:
    return "".join("/" + escape_pointer_token(str(p)) for p in path)


@dataclass
class YamlDocument:
    """The data of one YAML file plus the line (1-based) of every JSON pointer."""

    path: str
    data: Any
    lines: dict[str, int] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)
    double_quoted: set[str] = field(default_factory=set)
    """The pointers of strings written double-quoted, where a control character is written on purpose
    (an escape such as ``\\t``), never left by a block's trailing newline."""

    def line_of(self, pointer: str) -> int | None:
        """Line of the node at ``pointer``, or of its nearest located ancestor."""
        p = pointer
        while True:
            if p in self.lines:
                return self.lines[p]
            if not p:
                return None
            p = p.rsplit("/", 1)[0]

    def key_line(self, pointer: str) -> int | None:
        """Line of the mapping *key* at ``pointer`` (falls back to the value's line)."""
        return self.key_lines.get(pointer) or self.line_of(pointer)


class _AliasBomb(Exception):
    def __init__(self, line: int, pointer: str) -> None:
        super().__init__(line, pointer)
        self.line = line
        self.pointer = pointer


class _Builder:
    def __init__(self, doc: YamlDocument, problems: list[Problem]) -> None:
        self.doc = doc
        self.problems = problems
        self.constructor = yaml.constructor.SafeConstructor()
        self._seen: set[int] = set()
        self.alias_nodes = 0

    def build(self, node: yaml.Node, pointer: str, depth: int = 0,
              aliased: tuple[int, str] | None = None) -> Any:
        """``aliased``: the line and pointer of the alias being expanded (``None`` outside aliases)."""
        # An alias is the very node of its anchor: meeting a node again means expanding an alias.
        if not aliased and id(node) in self._seen:
            # The alias sits where its parent is (a mapping key's line, or its sequence's).
            line = self.doc.key_lines.get(pointer) or self.doc.line_of(pointer.rsplit("/", 1)[0]) or 1
            aliased = (line, pointer)
        if aliased:
            self.alias_nodes += 1
            if self.alias_nodes > MAX_ALIAS_NODES:
                raise _AliasBomb(*aliased)
        else:
            self._seen.add(id(node))
        self.doc.lines.setdefault(pointer, node.start_mark.line + 1)
        if depth > MAX_DEPTH:
            self.problems.append(Problem(self.doc.path, node.start_mark.line + 1, "YAML nested too deeply", pointer))
            return None
        if isinstance(node, yaml.MappingNode):
            result: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self.problems.append(Problem(self.doc.path, key_node.start_mark.line + 1,
                                                 "YAML merge keys (<<) are not supported", pointer))
                    continue
                before = len(self.problems)
                key = self.scalar(key_node, pointer) if isinstance(key_node, yaml.ScalarNode) else \
                    self.constructor.construct_object(key_node, deep=True)
                if len(self.problems) > before:  # a key too long to read
                    continue
                if isinstance(key, bool) or not isinstance(key, (str, int)):
                    self.problems.append(Problem(self.doc.path, key_node.start_mark.line + 1,
                                                 f"mapping key {key!r} is not a string or integer", pointer))
                    continue
                skey = str(key)
                child = f"{pointer}/{escape_pointer_token(skey)}"
                if skey in result:
                    self.problems.append(Problem(self.doc.path, key_node.start_mark.line + 1,
                                                 f"duplicate key {skey!r}", child))
                    continue
                self.doc.key_lines[child] = key_node.start_mark.line + 1
                result[skey] = self.build(value_node, child, depth + 1, aliased)
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, f"{pointer}/{i}", depth + 1, aliased) for i, item in enumerate(node.value)]
        return self.scalar(node, pointer)

    def scalar(self, node: yaml.Node, pointer: str) -> Any:
        if getattr(node, "style", None) == '"':
            self.doc.double_quoted.add(pointer)
        try:
            return self.constructor.construct_object(node, deep=True)
        except ValueError as exc:  # int() of more than sys.get_int_max_str_digits() digits (4,300)
            if "digits" not in str(exc):
                raise
            self.problems.append(Problem(self.doc.path, node.start_mark.line + 1,
                                         f"a number of {len(str(node.value)):,} characters: longer than the "
                                         f"{sys.get_int_max_str_digits():,} digits a number may have", pointer))
            return None


_INDENTATION_PROBLEMS = ("mapping values are not allowed", "did not find expected key",
                         "did not find expected '-' indicator", "expected <block end>")


def yaml_hint(exc: yaml.MarkedYAMLError, text: str) -> str | None:
    """What to fix for the YAML errors a person makes most (indentation, tabs, brackets), or None."""
    problem, mark = str(exc.problem or ""), exc.problem_mark
    if mark is None:
        return None
    lines = text.splitlines()
    number = mark.line + 1
    if "tab" in problem:
        return f"line {number} is indented with a tab: YAML indents with spaces only"
    if "expected ',' or ']'" in problem or "expected ',' or '}'" in problem:
        opened = exc.context_mark.line + 1 if exc.context_mark else number
        return f"check the brackets and quotes from line {opened}: a `[` or `{{` opened there is not closed"
    if not any(p in problem for p in _INDENTATION_PROBLEMS) or mark.line >= len(lines):
        return None
    here = lines[mark.line]
    above = next((k for k in range(mark.line - 1, -1, -1)
                  if lines[k].strip() and not lines[k].lstrip().startswith("#")), None)
    indent = len(here) - len(here.lstrip(" "))
    hint = f"check the indentation of line {number}: {here.strip()!r} is indented {indent} spaces"
    if above is not None:
        hint += f", line {above + 1} above it {len(lines[above]) - len(lines[above].lstrip(' '))}"
    hint += "; the keys of one mapping, and the items of one list, line up"
    if "mapping values" in problem:
        hint += " (or, if the value holds ': ', put it in quotes)"
    return hint


def load_yaml(path: Path, display: str | None = None) -> tuple[YamlDocument | None, list[Problem]]:
    """Load one YAML file safely. Returns the document (or ``None``) and the problems found."""
    shown = display or str(path)
    problems: list[Problem] = []
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        return None, [Problem(shown, None, "file not found")]
    except NotAFile as exc:
        return None, [Problem(shown, None, f"not a scenario file: it is {exc.strerror}")]
    except FileTooLarge:
        return None, [Problem(shown, None, f"file larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB: not read")]
    except OSError as exc:
        return None, [Problem(shown, None, f"cannot read file: {exc.strerror or exc}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad_line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Problem(shown, bad_line, f"not UTF-8: byte {raw[exc.start]:#04x} at column {column} ({exc.reason})")]
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.reader.ReaderError as exc:
        # The reader reports a character offset: turn it into a line.
        at_line = text.count("\n", 0, exc.position) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        return None, [Problem(shown, at_line, f"invalid YAML: character {char!r} (U+{ord(char):04X}) is not allowed in YAML")]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        msg = " ".join(str(x) for x in (exc.context, exc.problem) if x)
        hint = yaml_hint(exc, text)
        return None, [Problem(shown, line, f"invalid YAML: {msg}" + (f"; {hint}" if hint else ""))]
    except yaml.YAMLError as exc:
        return None, [Problem(shown, None, f"invalid YAML: {exc}")]
    doc = YamlDocument(shown, None)
    if node is None:
        return doc, problems
    try:
        doc.data = _Builder(doc, problems).build(node, "")
    except _AliasBomb as bomb:
        return None, [Problem(shown, bomb.line, f"YAML aliases expand to more than {MAX_ALIAS_NODES} nodes "
                                                 "(an alias bomb?): write the data out instead", bomb.pointer)]
    except RecursionError:
        return None, [Problem(shown, None, "YAML nested too deeply")]
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        return None, [Problem(shown, mark.line + 1 if mark else None, f"invalid YAML value: {exc.problem}")]
    return doc, problems
