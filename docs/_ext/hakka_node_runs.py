"""Transcripts of the Node.js example engine, recorded once and shown by the rulebook.

Two directives show what the example adapter (``docs/examples/node-engine/``)
does: ``hakka-run-output`` the runner's output against it, and
``hakka-engine-session`` requests and its answers. Running Node.js while the
book is built made the pages depend on whether Node was installed (and on the
time a run took), so the book shows a *recorded* transcript instead:
``:transcript: NAME`` reads ``docs/examples/node-engine/recorded/NAME.txt``.
The book is then the same with and without Node.

Each transcript starts with a line naming what it records (the directive's
arguments, options and content); the build refuses a transcript recorded for
something else. To record them again (Node.js needed)::

    python docs/_ext/hakka_node_runs.py          # rewrite every transcript
    python docs/_ext/hakka_node_runs.py --check  # exit 1 if one is stale

``tests/rulebook`` runs ``--check`` where Node.js is installed, ignoring the
durations a run prints.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TRANSCRIPTS = DOCS / "examples" / "node-engine" / "recorded"
DIRECTIVES = ("hakka-run-output", "hakka-engine-session")
HEADER = "# recorded by docs/_ext/hakka_node_runs.py from "
DURATION = re.compile(r"\bin \d+(?:\.\d+)? s\b")


class TranscriptError(Exception):
    """A transcript cannot be recorded or does not match its directive."""


@dataclass
class Block:
    """One use of a transcript directive: what it runs, and where it is written."""

    directive: str
    argument: str
    options: dict[str, str] = field(default_factory=dict)
    content: list[str] = field(default_factory=list)
    where: str = ""

    @property
    def name(self) -> str:
        return self.options.get("transcript", "")

    @property
    def path(self) -> Path:
        return TRANSCRIPTS / f"{self.name}.txt"

    def key(self) -> str:
        """What the transcript records, on one line (options in a fixed order)."""
        options = {k: v for k, v in sorted(self.options.items()) if k != "transcript"}
        return json.dumps([self.directive, self.argument, options, self.content], ensure_ascii=False)

    def shown_command(self) -> str:
        engine = self.options.get("show-engine-as", self.options.get("engine", ""))
        return "hakka-conformance " + self.argument.replace("{engine}", engine)


# ------------------------------------------------------------ reading them


def read(block: Block) -> str:
    """The recorded text of a block, checked against what the block asks for."""
    if not block.name:
        raise TranscriptError(f"{block.directive} needs a :transcript: NAME option")
    if not block.path.exists():
        raise TranscriptError(
            f"no transcript {block.path.relative_to(ROOT)}: record it with "
            "`python docs/_ext/hakka_node_runs.py` (Node.js needed)"
        )
    first, _, text = block.path.read_text(encoding="utf-8").partition("\n")
    if first != HEADER + block.key():
        raise TranscriptError(
            f"{block.path.relative_to(ROOT)} was recorded for another {block.directive}: "
            "record it again with `python docs/_ext/hakka_node_runs.py` (Node.js needed)"
        )
    return text.strip("\n")


# ------------------------------------------------------------ recording them


def record(block: Block, node: str) -> str:
    """Run what the block describes with Node.js and return the text to show."""
    if block.directive == "hakka-engine-session":
        return _session(block, node)
    return _run_output(block)


def _session(block: Block, node: str) -> str:
    engine = ROOT / block.argument
    requests = [line for line in block.content if line.strip()]
    for line in requests:
        try:
            json.loads(line)
        except ValueError as exc:
            raise TranscriptError(f"{block.where}: not a JSON request: {line!r} ({exc})") from None
    proc = subprocess.run([node, str(engine)], input="\n".join(requests) + "\n",
                          capture_output=True, text=True, timeout=60)
    answers = proc.stdout.splitlines()
    if len(answers) != len(requests):
        raise TranscriptError(f"{block.where}: {block.argument} answered {len(answers)} lines to "
                              f"{len(requests)} requests")
    lines = []
    for req, ans in zip(requests, answers, strict=True):
        lines += [f"→ {req}", f"← {ans}", ""]
    return "\n".join(lines).rstrip()


def _run_output(block: Block) -> str:
    # The command names `node`, as the reader types it; the runner finds it on PATH.
    engine = block.options.get("engine", "")
    shown_engine = block.options.get("show-engine-as", engine)
    with tempfile.TemporaryDirectory() as tmp:
        engine_path = ROOT / engine
        if "replace" in block.options:
            code = engine_path.read_text(encoding="utf-8")
            if block.options["replace"] not in code:
                raise TranscriptError(f"{block.where}: {engine} does not contain {block.options['replace']!r}")
            engine_path = Path(tmp) / Path(shown_engine).name
            engine_path.write_text(code.replace(block.options["replace"], block.options.get("with", "")),
                                   encoding="utf-8")
        arg_text = block.argument.replace("{engine}", str(engine_path) if "replace" in block.options else engine)
        args = [sys.executable, "-m", "conformance.cli", *shlex.split(arg_text)]
        env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
        proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
        text = (proc.stdout + proc.stderr).replace(str(engine_path), shown_engine).rstrip()
    expected = int(block.options.get("expect-exit", 0))
    if proc.returncode != expected:
        raise TranscriptError(f"{block.where}: `{block.shown_command()}` exited {proc.returncode}, "
                              f"the page expects {expected}:\n{text[-1500:]}")
    return text + f"\n$ echo $?\n{proc.returncode}"


# ------------------------------------------------- finding them in the pages

_START = re.compile(r"^(\s*)\.\. (" + "|".join(DIRECTIVES) + r")::[ \t]*(.*)$")
_OPTION = re.compile(r"^:([\w-]+):[ \t]*(.*)$")


def blocks_in(path: Path) -> list[Block]:
    """Every transcript directive of an .rst page, parsed as docutils would read it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = _START.match(lines[i])
        i += 1
        if not m:
            continue
        indent = len(m.group(1))
        body = []
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i].strip())
            i += 1
        options: dict[str, str] = {}
        while body and (om := _OPTION.match(body[0])):
            options[om.group(1)] = om.group(2).strip()
            body.pop(0)
        content = [line for line in body if line]
        where = f"{path.relative_to(ROOT)}:{i}"
        found.append(Block(m.group(2), m.group(3).strip(), options, content, where))
    return found


def all_blocks() -> list[Block]:
    return [b for path in sorted(DOCS.rglob("*.rst")) if "_build" not in path.parts for b in blocks_in(path)]


def stale(block: Block, recorded: str) -> bool:
    try:
        shown = read(block)
    except TranscriptError:
        return True
    return DURATION.sub("in … s", shown) != DURATION.sub("in … s", recorded)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record the Node.js example engine's transcripts for the book.")
    parser.add_argument("--check", action="store_true", help="compare with a fresh recording; write nothing")
    args = parser.parse_args(argv)
    node = shutil.which("node")
    if node is None:
        print("node is not installed: the transcripts cannot be recorded", file=sys.stderr)
        return 2
    blocks = all_blocks()
    names = [b.name for b in blocks]
    problems = [f"{b.where}: {b.directive} needs a :transcript: NAME option" for b in blocks if not b.name]
    problems += [f"transcript {n!r} is used twice" for n in sorted({n for n in names if names.count(n) > 1})]
    for block in blocks:
        if not block.name:
            continue
        try:
            text = record(block, node).strip("\n")
        except TranscriptError as exc:
            problems.append(str(exc))
            continue
        if args.check:
            if stale(block, text):
                problems.append(f"{block.path.relative_to(ROOT)} is stale ({block.where}): "
                                "run python docs/_ext/hakka_node_runs.py")
        else:
            block.path.parent.mkdir(parents=True, exist_ok=True)
            block.path.write_text(HEADER + block.key() + "\n" + text + "\n", encoding="utf-8")
            print(f"wrote {block.path.relative_to(ROOT)}", file=sys.stderr)
    leftovers = sorted(set(TRANSCRIPTS.glob("*.txt")) - {b.path for b in blocks})
    problems += [f"{p.relative_to(ROOT)} is used by no page" for p in leftovers]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


# ------------------------------------------------------------ the directives


def _directives() -> tuple[type[Any], type[Any]]:
    """The two directives (Sphinx imported only when the book is built)."""
    from docutils import nodes
    from docutils.parsers.rst import directives
    from sphinx.util.docutils import SphinxDirective

    class TranscriptDirective(SphinxDirective):
        name = ""
        option_spec: ClassVar[dict[str, Any]] = {"transcript": directives.unchanged_required}

        def block(self) -> Block:
            options = {k: str(v) for k, v in self.options.items()}
            return Block(self.name, " ".join(self.arguments), options, [c.strip() for c in self.content if c.strip()],
                         f"{self.env.docname}:{self.lineno}")

        def recorded(self, block: Block) -> str:
            self.env.note_dependency(str(block.path))
            try:
                return read(block)
            except TranscriptError as exc:
                raise self.error(str(exc)) from None

    class RunOutputDirective(TranscriptDirective):
        """``.. hakka-run-output:: run --engine "cmd:node {engine}" --area PAT -q``: a recorded run.

        ``:engine:`` names the adapter put in place of ``{engine}``; with
        ``:replace:`` / ``:with:`` a copy with one piece of code changed was run
        (a deliberately broken engine), shown as ``:show-engine-as:``; the run
        had to exit ``:expect-exit:`` (default 0) to be recorded.
        """

        name = "hakka-run-output"
        required_arguments = 1
        final_argument_whitespace = True
        option_spec: ClassVar[dict[str, Any]] = {
            **TranscriptDirective.option_spec,
            "engine": directives.unchanged_required,
            "replace": directives.unchanged,
            "with": directives.unchanged,
            "show-engine-as": directives.unchanged,
            "expect-exit": directives.unchanged,
        }

        def run(self) -> list[nodes.Node]:
            block = self.block()
            text = self.recorded(block)
            shown = f"$ {block.shown_command()}"
            return [nodes.literal_block(shown, shown, language="console"),
                    nodes.literal_block(text, text, language="text", classes=["hk-run-output"])]

    class EngineSessionDirective(TranscriptDirective):
        """``.. hakka-engine-session:: docs/examples/node-engine/engine.js``, one request per line."""

        name = "hakka-engine-session"
        required_arguments = 1
        has_content = True

        def run(self) -> list[nodes.Node]:
            text = self.recorded(self.block())
            return [nodes.literal_block(text, text, language="text", classes=["hk-session"])]

    return RunOutputDirective, EngineSessionDirective


if __name__ == "__main__":
    raise SystemExit(main())
