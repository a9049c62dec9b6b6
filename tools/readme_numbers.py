"""Rewrite the numbers of README.md that the scenario corpus decides.

    python -m tools.readme_numbers           # rewrite them in README.md (runs the node example too)
    python -m tools.readme_numbers --check   # compare only: exit 1 and print the diff when they are stale

A scenario added under ``conformance/scenarios/`` changes the corpus counts of the section "The
corpus, and how strong it is" (the total, the hand-worked ones by kind, the hands played to their
end, the complete games, the regression vectors), its folder list, and the closing line of the node
example (``docs/examples/node-engine/engine.js``: how many scenarios it passes and skips). This
script computes them from the corpus and rewrites them; ``tests/test_readme.py`` fails, naming this
command, while the README says otherwise. Only the numbers are written: the sentences around them,
and the description of each folder in the folder list, stay as they are written in the README (a new
folder gets a line with its count, to which its author adds a description).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import re
import shutil
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from conformance.loader import BODY_KINDS, Scenario, load_scenarios  # noqa: E402
from conformance.schemas import load_schemas  # noqa: E402
from conformance.specdata import load_spec_data  # noqa: E402

README = REPO / "README.md"
SCENARIOS = REPO / "conformance" / "scenarios"
SPEC = REPO / "spec"
NODE_EXAMPLE = REPO / "docs" / "examples" / "node-engine" / "engine.js"
COMMAND = "python -m tools.readme_numbers"
FOLDERS_START = "<!-- corpus folders: the counts are written by `python -m tools.readme_numbers` -->"
FOLDERS_END = "<!-- end of corpus folders -->"
_W = r"\s+"  # a phrase of the README may wrap anywhere


class ReadmeError(Exception):
    """README.md no longer has a sentence whose numbers this script writes."""


def load_corpus(scenarios_dir: Path = SCENARIOS, spec_dir: Path = SPEC) -> tuple[Scenario, ...]:
    return tuple(load_scenarios([scenarios_dir], load_schemas(spec_dir / "schema"), load_spec_data(spec_dir)))


def folder_counts(scenarios: Sequence[Scenario], scenarios_dir: Path = SCENARIOS) -> Counter[str]:
    """Scenarios per top folder of the corpus."""
    return Counter(Path(s.file).resolve().relative_to(scenarios_dir.resolve()).parts[0] for s in scenarios)


def _sub(pattern: str, numbers: Sequence[int | str], text: str, what: str) -> str:
    """``text`` with the groups of ``pattern`` (each a number) replaced by ``numbers``."""
    regex = re.compile(pattern)
    match = regex.search(text)
    if match is None:
        raise ReadmeError(f"README.md: the sentence of {what} is not there any more (looked for /{pattern}/); "
                          f"put it back, or change tools/readme_numbers.py with it")
    pieces, last = [], match.start()
    for group, number in enumerate(numbers, start=1):
        pieces += [text[last:match.start(group)], str(number)]
        last = match.end(group)
    pieces.append(text[last:match.end()])
    return text[:match.start()] + "".join(pieces) + text[match.end():]


def _folder_block(text: str, folders: Counter[str]) -> str:
    """The folder list between its two markers, one line per folder, largest first."""
    if FOLDERS_START not in text or FOLDERS_END not in text:
        raise ReadmeError(f"README.md: the folder list's markers are missing ({FOLDERS_START} ... {FOLDERS_END})")
    head, rest = text.split(FOLDERS_START, 1)
    block, tail = rest.split(FOLDERS_END, 1)
    described: dict[str, str] = {}
    for item in re.split(r"\n(?=- )", block.strip()):
        match = re.match(r"- `([^`/]+)/` \(\d+\)(?::\s*(.*))?\Z", " ".join(item.split()), re.S)
        if match is None:
            if item.strip():
                raise ReadmeError(f"README.md: a line of the folder list reads {item.strip()[:60]!r}; "
                                  "each is '- `folder/` (count): what it holds'")
            continue
        described[match.group(1)] = match.group(2) or ""
    lines = []
    for name, count in sorted(folders.items(), key=lambda kv: (-kv[1], kv[0])):
        about = described.get(name, "")
        lines.append(f"- `{name}/` ({count})" + (f": {about}" if about else ""))
    return head + FOLDERS_START + "\n" + "\n".join(lines) + "\n" + FOLDERS_END + tail


def render(text: str, scenarios: Sequence[Scenario], node_counts: str | None = None,
           scenarios_dir: Path = SCENARIOS) -> str:
    """``text`` (README.md) with the corpus's numbers written in; ``node_counts`` is the node example's
    closing line ("205 passed, 0 failed, 352 skipped"), left as written when None."""
    worked = [s for s in scenarios if not s.generated]
    kinds = Counter(s.kind for s in worked)
    ended = [s for s in worked if s.kind == "trajectory" and "end" in (s.body.get("final", {}).get("result") or {})]
    games = [s for s in worked if s.kind == "game" and s.body.get("final", {}).get("phase") == "game-over"]
    text = _sub(rf"\*\*(\d+){_W}scenarios\*\*", [len(scenarios)], text, "the corpus's total")
    text = _sub(rf"\*\*(\d+)\*\*{_W}of{_W}them", [len(worked)], text, "the hand-worked scenarios")
    by_kind = f",{_W}".join(rf"(\d+){_W}{k}" for k in BODY_KINDS[:-1]) + rf"{_W}and{_W}(\d+){_W}{BODY_KINDS[-1]}"
    text = _sub(by_kind + rf"{_W}scenarios", [kinds[k] for k in BODY_KINDS], text, "the scenarios by kind")
    text = _sub(rf"(\d+){_W}hands{_W}played{_W}to{_W}their{_W}end{_W}and{_W}(\d+){_W}complete{_W}4-hand{_W}games",
                [len(ended), len(games)], text, "the hands played to their end")
    text = _sub(rf"holds{_W}(\d+){_W}regression{_W}vectors", [len(scenarios) - len(worked)], text,
                "the regression vectors")
    text = _folder_block(text, folder_counts(scenarios, scenarios_dir))
    if node_counts is not None:
        numbers = re.fullmatch(r"(\d+) passed, (\d+) failed, (\d+) skipped", node_counts)
        if numbers is None:
            raise ReadmeError(f"the node example's closing line says {node_counts!r}")
        text = _sub(rf"\(`(\d+){_W}passed,{_W}(\d+){_W}failed,{_W}(\d+){_W}skipped`\)", numbers.groups(), text,
                    "the node example's closing line")
    return text


def node_counts() -> str | None:
    """The counts of the node example's closing line over the whole corpus, or None without node."""
    if shutil.which("node") is None:
        return None
    from conformance.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["run", "-q", "--engine", f"cmd:node {NODE_EXAMPLE}"])
    closing = out.getvalue().strip().splitlines()[-1]
    # "557 scenario(s) in 0.43 s: 205 passed, 0 failed, 352 skipped (a capability, …)"
    return closing.split(": ", 1)[1].split(" (")[0]


def diff(old: str, new: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "README.md", "README.md (corpus)"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 with the diff when stale")
    parser.add_argument("--no-node", action="store_true",
                        help="leave the node example's closing line as it is (it needs node)")
    args = parser.parse_args(argv)
    old = README.read_text(encoding="utf-8")
    counts = None
    if not args.no_node:
        counts = node_counts()
        if counts is None:
            print("readme_numbers: node is not installed; the node example's counts are left as they are",
                  file=sys.stderr)
    try:
        new = render(old, load_corpus(), counts)
    except ReadmeError as error:
        print(f"readme_numbers: {error}", file=sys.stderr)
        return 2
    if new == old:
        print("README.md: the corpus's numbers are up to date")
        return 0
    if args.check:
        print(diff(old, new) + f"\nREADME.md is out of date: run `{COMMAND}` to rewrite these numbers")
        return 1
    README.write_text(new, encoding="utf-8")
    print(f"README.md: rewritten\n{diff(old, new)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
